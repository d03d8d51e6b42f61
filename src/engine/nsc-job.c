/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "nsc-error.h"
#include "nsc-job.h"
#include "nsc-units.h"
#include "nsc-verify.h"

void
nsc_job_init (NscJob *job)
{
  memset (job, 0, sizeof *job);
  job->pattern = NSC_PATTERN_SEQUENTIAL;
  job->read_percent = 100;
  job->block_size = 1 << 20;
  job->queue_depth = 1;
  job->workers = 1;
  job->time_ns = 5 * G_GINT64_CONSTANT (1000000000);
  job->data = NSC_DATA_RANDOM;
  job->seed = 0x4e616e6473636f70; /* "Nandscop" */
}

static const struct {
  const char *name;
  NscPattern  pattern;
  int         read_percent; /* -1: mixed, keep the job's share unless it is 0 or 100 */
} rw_names[] = {
  { "read", NSC_PATTERN_SEQUENTIAL, 100 },
  { "write", NSC_PATTERN_SEQUENTIAL, 0 },
  { "randread", NSC_PATTERN_RANDOM, 100 },
  { "randwrite", NSC_PATTERN_RANDOM, 0 },
  { "rw", NSC_PATTERN_SEQUENTIAL, -1 },
  { "randrw", NSC_PATTERN_RANDOM, -1 },
};

gboolean
nsc_job_set_rw (NscJob      *job,
                const char  *rw,
                GError     **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (rw_names); i++)
    {
      if (g_strcmp0 (rw, rw_names[i].name) != 0)
        continue;
      job->pattern = rw_names[i].pattern;
      if (rw_names[i].read_percent >= 0)
        job->read_percent = rw_names[i].read_percent;
      else if (job->read_percent == 0 || job->read_percent == 100)
        job->read_percent = 50;
      return TRUE;
    }

  nsc_error_set (error, NSC_PROBLEM_JOB_RW_UNKNOWN, &(NscErrorFields) { .text = rw ? rw : "" });
  return FALSE;
}

const char *
nsc_job_get_rw (const NscJob *job)
{
  gboolean rnd = job->pattern == NSC_PATTERN_RANDOM;

  if (job->read_percent == 100)
    return rnd ? "randread" : "read";
  if (job->read_percent == 0)
    return rnd ? "randwrite" : "write";
  return rnd ? "randrw" : "rw";
}

gboolean
nsc_job_has_reads (const NscJob *job)
{
  return job->read_percent > 0;
}

gboolean
nsc_job_has_writes (const NscJob *job)
{
  return job->read_percent < 100;
}

gboolean
nsc_job_validate (const NscJob  *job,
                  GError       **error)
{
  g_return_val_if_fail (job != NULL, FALSE);

  if (job->block_size < NSC_JOB_MIN_BLOCK_SIZE || job->block_size > NSC_JOB_MAX_BLOCK_SIZE)
    {
      nsc_error_set (error, NSC_PROBLEM_JOB_BLOCK_SIZE_RANGE,
                     &(NscErrorFields) { .bytes = job->block_size });
      return FALSE;
    }
  if (job->block_size % 512 != 0)
    {
      nsc_error_set (error, NSC_PROBLEM_JOB_BLOCK_SIZE_UNALIGNED,
                     &(NscErrorFields) { .bytes = job->block_size });
      return FALSE;
    }
  if (job->queue_depth < 1 || job->queue_depth > NSC_JOB_MAX_QUEUE_DEPTH)
    {
      nsc_error_set (error, NSC_PROBLEM_JOB_QUEUE_DEPTH_RANGE,
                     &(NscErrorFields) { .n = job->queue_depth, .n2 = NSC_JOB_MAX_QUEUE_DEPTH });
      return FALSE;
    }
  if (job->workers < 1 || job->workers > NSC_JOB_MAX_WORKERS)
    {
      nsc_error_set (error, NSC_PROBLEM_JOB_WORKERS_RANGE,
                     &(NscErrorFields) { .n = job->workers, .n2 = NSC_JOB_MAX_WORKERS });
      return FALSE;
    }
  if (job->read_percent > 100)
    {
      nsc_error_set (error, NSC_PROBLEM_JOB_READ_SHARE_RANGE,
                     &(NscErrorFields) { .n = job->read_percent });
      return FALSE;
    }
  if ((guint64) job->queue_depth * job->workers * job->block_size > NSC_JOB_MAX_BUFFER_BYTES)
    {
      nsc_error_set (error, NSC_PROBLEM_JOB_BUFFERS_TOO_LARGE,
                     &(NscErrorFields) { .n = job->workers, .n2 = job->queue_depth,
                                         .bytes = job->block_size });
      return FALSE;
    }
  if (job->data == NSC_DATA_VERIFY
      && (job->block_size % NSC_VERIFY_UNIT != 0 || job->region_offset % NSC_VERIFY_UNIT != 0))
    {
      nsc_error_set (error, NSC_PROBLEM_VERIFY_UNIT,
                     &(NscErrorFields) { .bytes = job->block_size, .bytes2 = job->region_offset });
      return FALSE;
    }
  if (job->data == NSC_DATA_VERIFY && job->read_percent != 0 && job->read_percent != 100)
    {
      nsc_error_set (error, NSC_PROBLEM_VERIFY_MIXED, NULL);
      return FALSE;
    }
  if (job->time_ns < 0 || job->ramp_ns < 0 || job->sample_interval_ns < 0)
    {
      nsc_error_set (error, NSC_PROBLEM_JOB_NEGATIVE_DURATION, NULL);
      return FALSE;
    }
  if (job->sample_interval_ns > 0 && job->sample_interval_ns < 10 * G_GINT64_CONSTANT (1000000))
    {
      nsc_error_set (error, NSC_PROBLEM_JOB_SAMPLE_INTERVAL, NULL);
      return FALSE;
    }
  if (job->time_ns == 0 && job->bytes == 0 && !job->once)
    {
      nsc_error_set (error, NSC_PROBLEM_JOB_NEVER_STOPS, NULL);
      return FALSE;
    }
  if (job->bytes != 0 && job->bytes < job->block_size)
    {
      nsc_error_set (error, NSC_PROBLEM_JOB_DATA_LIMIT_SMALL, &(NscErrorFields) { .bytes = job->bytes });
      return FALSE;
    }
  if (job->region_length != 0 && job->region_length < job->block_size * job->workers
      && !job->shared_region)
    {
      nsc_error_set (error, NSC_PROBLEM_JOB_REGION_TOO_SMALL, NULL);
      return FALSE;
    }

  return TRUE;
}

char *
nsc_job_describe (const NscJob *job)
{
  g_autofree char *bs = nsc_format_size_short (job->block_size);
  const char *kind = job->pattern == NSC_PATTERN_RANDOM ? "RND" : "SEQ";

  if (job->read_percent > 0 && job->read_percent < 100)
    return g_strdup_printf ("%s%s Q%uT%u R%u%%", kind, bs, job->queue_depth, job->workers,
                            job->read_percent);
  return g_strdup_printf ("%s%s Q%uT%u", kind, bs, job->queue_depth, job->workers);
}

const char *
nsc_job_get_label (const NscJob *job,
                   char         *scratch,
                   gsize         scratch_len)
{
  g_autofree char *text = NULL;

  if (job->label[0] != '\0')
    return job->label;
  text = nsc_job_describe (job);
  g_strlcpy (scratch, text, scratch_len);
  return scratch;
}

gint64
nsc_job_sample_interval (const NscJob *job)
{
  const gint64 second = G_GINT64_CONSTANT (1000000000);

  if (job->sample_interval_ns > 0)
    return job->sample_interval_ns;
  /* At least ~20 points on a short job; 1 s is enough for anything longer. */
  if (job->time_ns > 0 && job->time_ns < 20 * second)
    return MAX (job->time_ns / 20, 50 * G_GINT64_CONSTANT (1000000));
  if (job->time_ns == 0)
    return second / 2;
  return second;
}

const char *
nsc_data_pattern_to_string (NscDataPattern data)
{
  switch (data)
    {
    case NSC_DATA_ZEROS:
      return "zeros";
    case NSC_DATA_COMPRESSIBLE:
      return "compressible";
    case NSC_DATA_VERIFY:
      return "verify";
    case NSC_DATA_RANDOM:
    default:
      return "random";
    }
}

gboolean
nsc_data_pattern_from_string (const char      *text,
                              NscDataPattern  *out,
                              GError         **error)
{
  if (g_strcmp0 (text, "random") == 0)
    *out = NSC_DATA_RANDOM;
  else if (g_strcmp0 (text, "zeros") == 0)
    *out = NSC_DATA_ZEROS;
  else if (g_strcmp0 (text, "compressible") == 0)
    *out = NSC_DATA_COMPRESSIBLE;
  else if (g_strcmp0 (text, "verify") == 0)
    *out = NSC_DATA_VERIFY;
  else
    {
      nsc_error_set (error, NSC_PROBLEM_JOB_DATA_UNKNOWN, &(NscErrorFields) { .text = text ? text : "" });
      return FALSE;
    }
  return TRUE;
}

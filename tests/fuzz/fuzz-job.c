/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: what the command line builds a job from. The input is
 * NUL-separated words: a size, a duration, an rw name, then the raw bytes of a job's
 * numbers. Every parser and the validator must answer with a value or a GError; a job
 * that validates must be describable and runnable on the null backend's arithmetic. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "nsc-job.h"
#include "nsc-offsets.h"
#include "nsc-preset.h"
#include "nsc-runner.h"
#include "nsc-units.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* The next NUL-terminated word of the input (the rest when no NUL is left). */
static char *
next_word (const uint8_t **p,
           size_t         *left)
{
  const uint8_t *nul = memchr (*p, 0, *left);
  size_t len = nul ? (size_t) (nul - *p) : *left;
  char *word = g_strndup ((const char *) *p, len);

  *p += nul ? len + 1 : len;
  *left -= nul ? len + 1 : len;
  return word;
}

static guint64
take (const uint8_t **p,
      size_t         *left,
      size_t          n)
{
  guint64 v = 0;

  for (size_t i = 0; i < n && *left > 0; i++, (*p)++, (*left)--)
    v |= (guint64) **p << (8 * i);
  return v;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const uint8_t *p = data;
  size_t left = size;
  g_autofree char *size_text = next_word (&p, &left);
  g_autofree char *duration_text = next_word (&p, &left);
  g_autofree char *rw_text = next_word (&p, &left);
  g_autofree char *data_text = next_word (&p, &left);
  g_autoptr(GError) error = NULL;
  guint64 bytes = 0;
  gint64 ns = 0;
  NscJob job;
  NscDataPattern pattern;
  guint flags;

  /* Units: a value or an error, and a size formats back without trouble. */
  if (nsc_parse_size (size_text, &bytes, &error))
    {
      g_autofree char *a = nsc_format_size (bytes);
      g_autofree char *b = nsc_format_size_short (bytes);
      if (error != NULL)
        __builtin_trap ();
    }
  else if (error == NULL)
    __builtin_trap ();
  g_clear_error (&error);

  if (nsc_parse_duration (duration_text, &ns, &error))
    {
      g_autofree char *a = nsc_format_duration (ns);
      if (error != NULL)
        __builtin_trap ();
    }
  else if (error == NULL)
    __builtin_trap ();
  g_clear_error (&error);

  if (!nsc_data_pattern_from_string (data_text, &pattern, &error))
    {
      if (error == NULL)
        __builtin_trap ();
      pattern = NSC_DATA_RANDOM;
    }
  g_clear_error (&error);

  /* A job as the option parser leaves it: defaults, then the user's words, then
   * numbers straight from the input (what --qd, --threads, --mix … would give,
   * unchecked, to see that the validator alone stands guard). */
  nsc_job_init (&job);
  if (!nsc_job_set_rw (&job, rw_text, &error) && error == NULL)
    __builtin_trap ();
  g_clear_error (&error);
  job.block_size = bytes;
  job.time_ns = ns;
  job.data = pattern;
  flags = (guint) take (&p, &left, 1);
  job.queue_depth = (guint) take (&p, &left, flags & 1 ? 4 : 2);
  job.workers = (guint) take (&p, &left, flags & 2 ? 4 : 1);
  job.read_percent = (guint) take (&p, &left, 1);
  job.shared_region = (flags & 4) != 0;
  job.once = (flags & 8) != 0;
  if (flags & 16)
    job.region_offset = take (&p, &left, 8);
  if (flags & 32)
    job.region_length = take (&p, &left, 8);
  if (flags & 64)
    job.bytes = take (&p, &left, 8);
  if (flags & 128)
    {
      job.ramp_ns = (gint64) take (&p, &left, 8);
      job.sample_interval_ns = (gint64) take (&p, &left, 8);
      job.sample_bytes = take (&p, &left, 8);
    }
  job.seed = take (&p, &left, 8);

  if (nsc_job_validate (&job, &error))
    {
      char scratch[96];
      g_autofree char *describe = nsc_job_describe (&job);
      NscPreset *preset;

      if (error != NULL)
        __builtin_trap ();
      (void) nsc_job_get_label (&job, scratch, sizeof scratch);
      (void) nsc_job_get_rw (&job);
      (void) nsc_job_sample_interval (&job);
      (void) nsc_job_has_reads (&job);
      (void) nsc_job_has_writes (&job);
      /* The offsets a worker would issue over the job's region stay inside it. */
      if (job.region_length != 0)
        {
          NscOffsetGen gen;
          g_autoptr(GError) gen_error = NULL;

          if (nsc_offset_gen_init (&gen, job.pattern, job.region_offset, job.region_length,
                                   job.block_size, job.seed, &gen_error))
            {
              for (guint64 t = 0; t < 64; t++)
                {
                  guint64 ticket = t * 7919 + (job.seed & 0xffff);
                  if (nsc_offset_gen_block (&gen, ticket) >= gen.n_blocks)
                    __builtin_trap ();
                }
            }
          else if (gen_error == NULL)
            __builtin_trap ();
        }
      preset = nsc_preset_new_single (&job);
      {
        NscRunOptions o = NSC_RUN_OPTIONS_INIT;
        NscTiming timing;

        o.runs = 1;
        o.time_ns = job.time_ns;
        nsc_timing_init (&timing, preset, &o);
        if (nsc_timing_estimate_ns (&timing, preset) < 0)
          __builtin_trap ();
      }
      nsc_preset_free (preset);
    }
  else if (error == NULL)
    __builtin_trap ();
  return 0;
}

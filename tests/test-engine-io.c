/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine against real files with O_DIRECT, in a folder under the build
 * directory (a real filesystem, not tmpfs). */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <unistd.h>

#include "nsc-copy.h"
#include "nsc-engine.h"
#include "nsc-words.h"
#include "nsc-words-problem.h"
#include "test-util.h"
#include "test-loop.h"

#define MiB (G_GUINT64_CONSTANT (1) << 20)
#define MS  G_GINT64_CONSTANT (1000000)

static char *test_dir;

static guint
count_entries (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d && g_dir_read_name (d))
    n++;
  return n;
}

static NscTarget *
open_file (guint64  size,
           gboolean no_tmpfile)
{
  g_autoptr(GError) error = NULL;
  NscTargetOptions opts = { .file_size = size, .no_tmpfile = no_tmpfile, .device_fd = -1 };
  NscTarget *t = nsc_target_open (test_dir, &opts, &error);

  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

/* Reads the whole target back and returns the two stamp words of every 4 KiB block. */
static guint64 *
read_stamps (NscTarget *t)
{
  guint64 size = nsc_target_get_size (t);
  guint64 *stamps = g_new0 (guint64, 2 * (size / 4096));
  void *buf = NULL;

  g_assert_cmpint (posix_memalign (&buf, 4096, MiB), ==, 0);
  for (guint64 off = 0; off < size; off += MiB)
    {
      ssize_t r = pread (nsc_target_get_fd (t), buf, MiB, (off_t) off);

      g_assert_cmpint (r, ==, (ssize_t) MIN (MiB, size - off));
      for (guint64 o = 0; o < (guint64) r; o += 4096)
        memcpy (&stamps[2 * ((off + o) / 4096)], (guint8 *) buf + o, 16);
    }
  free (buf);
  return stamps;
}

/* Every write lands where the engine says, aligned, and a random pass covers every
 * block exactly once: each 4 KiB block's stamp names its own offset. */
static void
test_write_verify (gconstpointer data)
{
  NscBackend backend = GPOINTER_TO_INT (data);
  g_autoptr(NscTarget) t = open_file (8 * MiB, FALSE);
  g_autoptr(NscJobResult) seq = NULL;
  g_autoptr(NscJobResult) rnd = NULL;
  g_autofree guint64 *before = NULL;
  g_autofree guint64 *after = NULL;
  NscJob job;
  guint64 n = 8 * MiB / 4096;

  nsc_job_init (&job);
  nsc_job_set_rw (&job, "write", NULL);
  job.block_size = 64 * 1024;
  job.queue_depth = 4;
  job.time_ns = 0;
  job.once = TRUE;
  seq = nsc_test_run_job (t, &job, backend);
  g_assert_cmpuint (seq->dir[NSC_DIR_WRITE].bytes, ==, 8 * MiB);
  g_assert_cmpuint (seq->dir[NSC_DIR_WRITE].ios, ==, 128);
  g_assert_cmpuint (seq->dir[NSC_DIR_READ].ios, ==, 0);
  g_assert_cmpuint (seq->dir[NSC_DIR_WRITE].latency->count, ==, 128);

  before = read_stamps (t);
  for (guint64 b = 0; b < n; b++)
    g_assert_cmpuint (GUINT64_FROM_LE (before[2 * b]), ==, b * 4096);

  nsc_job_set_rw (&job, "randwrite", NULL);
  job.block_size = 4096;
  job.queue_depth = 16;
  job.workers = 2;
  job.seed = 1234;
  rnd = nsc_test_run_job (t, &job, backend);
  g_assert_cmpuint (rnd->dir[NSC_DIR_WRITE].ios, ==, n);

  after = read_stamps (t);
  for (guint64 b = 0; b < n; b++)
    {
      g_assert_cmpuint (GUINT64_FROM_LE (after[2 * b]), ==, b * 4096);
      /* Rewritten by the random pass, with a stamp of its own. */
      g_assert_cmpuint (after[2 * b + 1], !=, before[2 * b + 1]);
    }
  /* Beyond the stamps the data is random: about 1/256 of the bytes are zero. */
  {
    g_autofree guint8 *buf = NULL;
    void *mem = NULL;
    guint zeros = 0;

    g_assert_cmpint (posix_memalign (&mem, 4096, MiB), ==, 0);
    buf = mem;
    g_assert_cmpint (pread (nsc_target_get_fd (t), buf, MiB, 0), ==, (ssize_t) MiB);
    for (guint64 i = 0; i < MiB; i++)
      zeros += buf[i] == 0;
    g_assert_cmpuint (zeros, <, MiB / 100);
  }
}

static void
test_zeros (void)
{
  g_autoptr(NscTarget) t = open_file (2 * MiB, FALSE);
  g_autoptr(NscJobResult) res = NULL;
  g_autofree guint8 *buf = NULL;
  void *mem = NULL;
  NscJob job;

  nsc_job_init (&job);
  nsc_job_set_rw (&job, "randwrite", NULL);
  job.block_size = 8192;
  job.queue_depth = 4;
  job.time_ns = 0;
  job.once = TRUE;
  job.data = NSC_DATA_ZEROS;
  /* Make the file non-zero first, so that zeros prove the job wrote them. */
  g_assert_true (nsc_target_fill (t, 0, 2 * MiB, NSC_BACKEND_AUTO, NULL, NULL, NULL, NULL, NULL));
  res = nsc_test_run_job (t, &job, NSC_BACKEND_AUTO);
  g_assert_cmpuint (res->dir[NSC_DIR_WRITE].bytes, ==, 2 * MiB);

  g_assert_cmpint (posix_memalign (&mem, 4096, 2 * MiB), ==, 0);
  buf = mem;
  g_assert_cmpint (pread (nsc_target_get_fd (t), buf, 2 * MiB, 0), ==, (ssize_t) (2 * MiB));
  for (guint64 i = 0; i < 2 * MiB; i++)
    if (buf[i] != 0)
      g_error ("byte %" G_GUINT64_FORMAT " is %u, not zero", i, buf[i]);
}

/* Half of every 4 KiB block is zeros, the other half random: ~50 % compressible. */
static void
test_compressible (void)
{
  g_autoptr(NscTarget) t = open_file (MiB, FALSE);
  g_autoptr(NscJobResult) res = NULL;
  g_autofree guint8 *buf = NULL;
  void *mem = NULL;
  NscJob job;

  nsc_job_init (&job);
  nsc_job_set_rw (&job, "write", NULL);
  job.block_size = 65536;
  job.queue_depth = 4;
  job.time_ns = 0;
  job.once = TRUE;
  job.data = NSC_DATA_COMPRESSIBLE;
  res = nsc_test_run_job (t, &job, NSC_BACKEND_AUTO);

  g_assert_cmpint (posix_memalign (&mem, 4096, MiB), ==, 0);
  buf = mem;
  g_assert_cmpint (pread (nsc_target_get_fd (t), buf, MiB, 0), ==, (ssize_t) MiB);
  for (guint64 b = 0; b < MiB; b += 4096)
    {
      guint zeros_first = 0;

      g_assert_cmpuint (GUINT64_FROM_LE (*(guint64 *) (void *) (buf + b)), ==, b);
      for (guint i = 16; i < 2048; i++)
        zeros_first += buf[b + i] == 0;
      for (guint i = 2048; i < 4096; i++)
        g_assert_cmpuint (buf[b + i], ==, 0);
      g_assert_cmpuint (zeros_first, <, 64);
    }
}

static void
test_fill_then_read (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(NscTarget) t = open_file (4 * MiB, FALSE);
  g_autoptr(NscJobResult) res = NULL;
  NscJob job;
  guint64 filled = 0;
  NscHistogram *h;

  g_assert_true (nsc_target_fill (t, 0, 4 * MiB, NSC_BACKEND_AUTO, NULL, NULL, NULL, &filled, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (filled, ==, 4 * MiB);
  g_assert_true (nsc_extents_covers (nsc_target_get_written (t), 0, 4 * MiB));
  /* A second fill finds nothing left to do. */
  g_assert_true (nsc_target_fill (t, 0, 4 * MiB, NSC_BACKEND_AUTO, NULL, NULL, NULL, &filled, &error));
  g_assert_cmpuint (filled, ==, 0);

  nsc_job_init (&job);
  nsc_job_set_rw (&job, "randread", NULL);
  job.block_size = 4096;
  job.queue_depth = 8;
  job.time_ns = 0;
  job.once = TRUE;
  res = nsc_test_run_job (t, &job, NSC_BACKEND_AUTO);
  h = res->dir[NSC_DIR_READ].latency;
  g_assert_cmpuint (res->dir[NSC_DIR_READ].ios, ==, 1024);
  g_assert_cmpuint (h->count, ==, 1024);
  g_assert_cmpuint (h->min, >, 0);
  g_assert_cmpuint (nsc_histogram_percentile (h, 50), <=, nsc_histogram_percentile (h, 99));
  g_assert_cmpuint (nsc_histogram_percentile (h, 99), <=, h->max);
  g_assert_cmpfloat (res->dir[NSC_DIR_READ].iops, >, 0);
}

static int
cmp_ratio (const void *a,
           const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* io_uring and psync do the same I/O and measure the same thing. */
static void
test_backends_agree (void)
{
  g_autoptr(NscTarget) t = open_file (16 * MiB, FALSE);
  NscBackend backends[] = { NSC_BACKEND_IO_URING, NSC_BACKEND_PSYNC };
  double iops[2];
  NscJob job;

  g_assert_true (nsc_target_fill (t, 0, 16 * MiB, NSC_BACKEND_AUTO, NULL, NULL, NULL, NULL, NULL));

  nsc_job_init (&job);
  nsc_job_set_rw (&job, "randread", NULL);
  job.block_size = 4096;
  job.queue_depth = 4;
  job.time_ns = 0;
  job.bytes = 4 * MiB;
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(NscJobResult) res = nsc_test_run_job (t, &job, backends[i]);

      g_assert_cmpint (res->backend, ==, backends[i]);
      g_assert_cmpuint (res->dir[NSC_DIR_READ].bytes, ==, 4 * MiB);
      g_assert_cmpuint (res->dir[NSC_DIR_READ].ios, ==, 1024);
    }

  /* Throughput: three alternating pairs of short runs, the median ratio. A shared
   * machine moves single runs around a lot (thread placement), so the bound is wide;
   * the byte-exact agreement above is the strict part. */
  job.bytes = 0;
  job.queue_depth = 1;
  job.time_ns = 300 * MS;
  {
    double ratios[3];

    for (guint k = 0; k < 3; k++)
      {
        for (guint i = 0; i < 2; i++)
          {
            g_autoptr(NscJobResult) res = nsc_test_run_job (t, &job, backends[i]);
            iops[i] = res->dir[NSC_DIR_READ].iops;
            g_assert_cmpfloat (iops[i], >, 0);
            g_assert_cmpint (res->runtime_ns, >=, 300 * MS);
          }
        ratios[k] = iops[0] / iops[1];
        g_test_message ("QD1 4K random read: io_uring %.0f IOPS, psync %.0f IOPS", iops[0], iops[1]);
      }
    qsort (ratios, 3, sizeof (double), cmp_ratio);
    g_assert_cmpfloat (ratios[1], >, 1 / 5.0);
    g_assert_cmpfloat (ratios[1], <, 5.0);
  }
}

/* The cancel comes from another thread, as a Cancel button's would, once the job has
 * measured something: the first sample that counts a completed I/O wakes it. Waiting
 * for that event rather than a fixed delay keeps the test's premise on a loaded
 * machine or under a sanitizer, where the first I/O can take longer than any delay. */
typedef struct
{
  GCancellable *cancellable;
  GMutex        lock;
  GCond         cond;
  gboolean      measured;
  gboolean      gave_up;        /* nothing was measured within the bound */
  gint64        cancelled_at;
} CancelLater;

#define CANCEL_WAIT_BOUND_S 60

static void
cancel_on_sample (const NscSample *sample,
                  gpointer         data)
{
  CancelLater *c = data;

  if (sample->ios[0] + sample->ios[1] == 0)
    return;
  g_mutex_lock (&c->lock);
  c->measured = TRUE;
  g_cond_signal (&c->cond);
  g_mutex_unlock (&c->lock);
}

static gpointer
cancel_later (gpointer data)
{
  CancelLater *c = data;
  gint64 until = g_get_monotonic_time () + CANCEL_WAIT_BOUND_S * G_TIME_SPAN_SECOND;

  g_mutex_lock (&c->lock);
  while (!c->measured && !c->gave_up)
    if (!g_cond_wait_until (&c->cond, &c->lock, until))
      c->gave_up = TRUE;
  g_mutex_unlock (&c->lock);
  c->cancelled_at = nsc_now_ns ();
  g_cancellable_cancel (c->cancellable);
  return NULL;
}

static void
cancel_job_init (NscJob *job)
{
  nsc_job_init (job);
  nsc_job_set_rw (job, "randrw", NULL);
  job->block_size = 4096;
  job->queue_depth = 32;
  job->workers = 2;
  /* Longer than the canceller's bound: the job never ends on its own first. */
  job->time_ns = 2 * CANCEL_WAIT_BOUND_S * G_GINT64_CONSTANT (1000000000);
  job->sample_interval_ns = 20 * MS;
}

/* The cancel tests' target: a 32 MiB file, written whole unless nothing is read. */
static NscTarget *
cancel_target (NscBackend backend)
{
  NscTarget *t = open_file (32 * MiB, FALSE);

  if (backend != NSC_BACKEND_NULL)
    g_assert_true (nsc_target_fill (t, 0, 32 * MiB, NSC_BACKEND_AUTO, NULL, NULL, NULL, NULL, NULL));
  return t;
}

/* A cancel while the job runs: what was measured before it is kept. */
static void
test_cancel (gconstpointer data)
{
  NscBackend backend = GPOINTER_TO_INT (data);
  g_autoptr(NscTarget) t = cancel_target (backend);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(NscJobResult) res = NULL;
  g_autoptr(GError) error = NULL;
  CancelLater c = { cancellable };
  GThread *thread;
  NscJob job;
  gint64 returned;

  cancel_job_init (&job);
  g_mutex_init (&c.lock);
  g_cond_init (&c.cond);
  thread = g_thread_new ("canceller", cancel_later, &c);
  g_assert_false (nsc_job_run (t, &job, backend, cancel_on_sample, &c, cancellable, &res, &error));
  returned = nsc_now_ns ();
  g_thread_join (thread);
  g_mutex_clear (&c.lock);
  g_cond_clear (&c.cond);

  if (c.gave_up)
    g_error ("%s: no sample counted a completed I/O within %d s; the cancel could not "
             "come after a measurement", nsc_backend_to_string (backend), CANCEL_WAIT_BOUND_S);
  g_assert_error (error, NSC_ERROR, NSC_ERROR_CANCELLED);
  g_assert_nonnull (res);
  g_assert_true (res->cancelled);
  /* What was measured before the cancel is kept. */
  g_assert_cmpuint (res->dir[NSC_DIR_READ].ios + res->dir[NSC_DIR_WRITE].ios, >, 0);
  g_assert_cmpint (res->runtime_ns, >, 0);
  g_assert_cmpuint (nsc_series_get_len (res->series), >, 0);
  /* At most one batch per worker can slip in after the stop request. */
  g_assert_cmpuint (res->ios_after_stop, <=, job.queue_depth * job.workers);
  g_test_message ("%s: returned %.1f ms after cancel, drain %.1f ms, %" G_GUINT64_FORMAT
                  " I/Os submitted after it", nsc_backend_to_string (backend),
                  (returned - c.cancelled_at) / 1e6, res->drain_ns / 1e6, res->ios_after_stop);
  /* The contract is 250 ms; the bound here is generous for a shared machine. */
  g_assert_cmpint (returned - c.cancelled_at, <, 2000 * MS);
}

/* A cancel that comes before anything was measured is a valid outcome: a cancelled
 * result with no I/O in it, and an error that says nothing was measured. */
static void
test_cancel_before_io (gconstpointer data)
{
  NscBackend backend = GPOINTER_TO_INT (data);
  g_autoptr(NscTarget) t = cancel_target (backend);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(NscJobResult) res = NULL;
  g_autoptr(GError) error = NULL;
  NscJob job;
  gint64 started, returned;

  cancel_job_init (&job);
  g_cancellable_cancel (cancellable);
  started = nsc_now_ns ();
  g_assert_false (nsc_job_run (t, &job, backend, NULL, NULL, cancellable, &res, &error));
  returned = nsc_now_ns ();

  g_assert_error (error, NSC_ERROR, NSC_ERROR_CANCELLED);
  g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_JOB_CANCELLED_BEFORE_IO);
  g_assert_nonnull (strstr (error->message, "before any I/O was measured"));
  g_assert_nonnull (res);
  g_assert_true (res->cancelled);
  g_assert_cmpuint (res->dir[NSC_DIR_READ].ios + res->dir[NSC_DIR_WRITE].ios, ==, 0);
  g_assert_cmpuint (res->dir[NSC_DIR_READ].bytes + res->dir[NSC_DIR_WRITE].bytes, ==, 0);
  g_assert_cmpfloat (res->dir[NSC_DIR_READ].bw_bps + res->dir[NSC_DIR_WRITE].bw_bps, ==, 0);
  g_test_message ("%s: cancelled before it started, returned in %.1f ms",
                  nsc_backend_to_string (backend), (returned - started) / 1e6);
  g_assert_cmpint (returned - started, <, 2000 * MS);
}

/* The test file is never visible and is gone when the target closes. */
static void
test_no_file_left (gconstpointer data)
{
  gboolean no_tmpfile = GPOINTER_TO_INT (data);
  NscTarget *t;

  g_assert_cmpuint (count_entries (test_dir), ==, 0);
  t = open_file (MiB, no_tmpfile);
  g_assert_cmpint (nsc_target_get_used_tmpfile (t), ==, !no_tmpfile);
  g_assert_cmpuint (count_entries (test_dir), ==, 0);
  nsc_target_free (t);
  g_assert_cmpuint (count_entries (test_dir), ==, 0);
}

static void
test_target_errors (void)
{
  g_autofree char *existing = g_build_filename (test_dir, "precious.txt", NULL);
  g_autofree char *missing_dir = g_build_filename (test_dir, "no", "such", "file", NULL);
  g_autofree char *contents = NULL;
  NscTargetOptions opts = { .file_size = MiB, .device_fd = -1 };
  NscTargetOptions huge = { .file_size = G_GUINT64_CONSTANT (1) << 50, .device_fd = -1 };
  GError *error = NULL;

  g_assert_true (g_file_set_contents (existing, "keep me", -1, NULL));
  g_assert_null (nsc_target_open (existing, &opts, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_TARGET_FILE_EXISTS);
  g_assert_cmpstr (nsc_error_get_fields (error)->path, ==, existing);
  g_assert_nonnull (strstr (error->message, "never overwrites"));
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (existing, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "keep me");
  g_unlink (existing);

  g_assert_null (nsc_target_open (missing_dir, &opts, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND);
  g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_TARGET_FOLDER_MISSING);
  g_clear_error (&error);

  g_assert_null (nsc_target_open (test_dir, &huge, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_NO_SPACE);
  g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_TARGET_NO_SPACE);
  g_assert_cmpuint (nsc_error_get_fields (error)->bytes, >, nsc_error_get_fields (error)->bytes2);
  g_assert_nonnull (strstr (error->message, "free"));
  g_clear_error (&error);

  /* So large that size + reserve wraps around: still "not enough space". */
  huge.file_size = G_MAXUINT64 - (G_GUINT64_CONSTANT (1) << 20);
  g_assert_null (nsc_target_open (test_dir, &huge, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_NO_SPACE);
  g_clear_error (&error);

  g_assert_null (nsc_target_open ("", &opts, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_TARGET_NONE);
  g_clear_error (&error);

  g_assert_cmpuint (count_entries (test_dir), ==, 0);
}

static void
test_job_errors (void)
{
  g_autoptr(NscTarget) t = open_file (MiB, FALSE);
  NscJob job;
  GError *error = NULL;
  NscJobResult *res = NULL;

  nsc_job_init (&job);
  job.region_offset = 2 * MiB;
  g_assert_false (nsc_job_run (t, &job, NSC_BACKEND_AUTO, NULL, NULL, NULL, &res, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_JOB_REGION_PAST_END);
  g_assert_null (res);
  g_clear_error (&error);

  nsc_job_init (&job);
  job.block_size = 4096;
  job.region_offset = 100;
  job.region_length = 4096;
  g_assert_false (nsc_job_run (t, &job, NSC_BACKEND_AUTO, NULL, NULL, NULL, &res, &error));
  g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_TARGET_OFFSET_UNALIGNED);
  g_assert_cmpuint (nsc_error_get_fields (error)->bytes, ==, 100);
  g_clear_error (&error);

  nsc_job_init (&job);
  job.queue_depth = 0;
  g_assert_false (nsc_job_run (t, &job, NSC_BACKEND_AUTO, NULL, NULL, NULL, &res, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_JOB_QUEUE_DEPTH_RANGE);
  g_clear_error (&error);
}

typedef struct
{
  guint   n;
  guint64 bytes;
  guint64 last_position;
} SampleCount;

static void
count_sample (const NscSample *s,
              gpointer         data)
{
  SampleCount *c = data;

  c->n++;
  c->bytes += s->bytes[0] + s->bytes[1];
  g_assert_cmpuint (s->position, >=, c->last_position);
  c->last_position = s->position;
}

static void
test_sampling (void)
{
  g_autoptr(NscTarget) t = open_file (8 * MiB, FALSE);
  g_autoptr(NscJobResult) res = NULL;
  g_autoptr(GError) error = NULL;
  SampleCount c = { 0 };
  NscJob job;
  guint64 total = 0;

  g_assert_true (nsc_target_fill (t, 0, 8 * MiB, NSC_BACKEND_AUTO, NULL, NULL, NULL, NULL, NULL));
  nsc_job_init (&job);
  nsc_job_set_rw (&job, "randread", NULL);
  job.block_size = 4096;
  job.queue_depth = 4;
  job.time_ns = 1000 * MS;
  job.ramp_ns = 200 * MS;
  job.sample_interval_ns = 100 * MS;

  g_assert_true (nsc_job_run (t, &job, NSC_BACKEND_AUTO, count_sample, &c, NULL, &res, &error));
  g_assert_no_error (error);
  /* Ten intervals of 100 ms, give or take the last partial one and a late wakeup. */
  g_assert_cmpuint (c.n, >=, 8);
  g_assert_cmpuint (c.n, <=, 12);
  g_assert_cmpuint (nsc_series_get_len (res->series), >=, c.n - 1);
  g_assert_cmpuint (nsc_series_get_len (res->series), <=, c.n);
  total = res->dir[0].bytes + res->dir[1].bytes;
  /* The series adds up to exactly what the result reports; the ramp is in neither. */
  {
    guint64 sum = 0, max = 0;
    for (guint i = 0; i < nsc_series_get_len (res->series); i++)
      {
        const NscSample *s = nsc_series_get (res->series, i);
        sum += s->bytes[0] + s->bytes[1];
        /* An interval that completed reads has a worst latency, at least its mean (on
         * a starved machine an interval may complete none). */
        g_assert_cmpuint (s->lat_max_ns, >=, s->lat_sum_ns[0] / MAX (s->ios[0], 1u));
        if (s->ios[0] > 0)
          g_assert_cmpuint (s->lat_max_ns, >, 0);
        max = MAX (max, s->lat_max_ns);
        /* No sample is a sliver of an interval. */
        g_assert_cmpint (s->duration_ns, >=, 50 * MS);
      }
    g_assert_cmpuint (sum, ==, total);
    g_assert_cmpuint (nsc_series_get (res->series, nsc_series_get_len (res->series) - 1)->position,
                      ==, total);
    /* The worst of the intervals is the worst of the run. */
    g_assert_cmpuint (max, <=, res->dir[NSC_DIR_READ].latency->max);
    g_assert_cmpuint (max, >=, res->dir[NSC_DIR_READ].latency->max / 2);
  }
  g_assert_cmpuint (c.bytes, <=, total);
  g_assert_cmpint (res->runtime_ns, >=, 1000 * MS);
  g_assert_cmpint (res->runtime_ns, <, 1500 * MS);
}

static void
test_mixed_share (void)
{
  g_autoptr(NscTarget) t = open_file (8 * MiB, FALSE);
  g_autoptr(NscJobResult) res = NULL;
  NscJob job;
  double share;

  g_assert_true (nsc_target_fill (t, 0, 8 * MiB, NSC_BACKEND_AUTO, NULL, NULL, NULL, NULL, NULL));
  nsc_job_init (&job);
  nsc_job_set_rw (&job, "randrw", NULL);
  job.read_percent = 70;
  job.block_size = 4096;
  job.queue_depth = 8;
  job.time_ns = 0;
  job.bytes = 16 * MiB;
  res = nsc_test_run_job (t, &job, NSC_BACKEND_AUTO);
  g_assert_cmpuint (res->dir[0].ios + res->dir[1].ios, ==, 4096);
  share = (double) res->dir[NSC_DIR_READ].ios / 4096;
  g_assert_cmpfloat (share, >, 0.65);
  g_assert_cmpfloat (share, <, 0.75);
}

static void
test_null_backend (void)
{
  g_autoptr(NscTarget) t = open_file (MiB, FALSE);
  g_autoptr(NscJobResult) res = NULL;
  NscJob job;

  nsc_job_init (&job);
  nsc_job_set_rw (&job, "randread", NULL);
  job.block_size = 4096;
  job.queue_depth = 32;
  job.time_ns = 0;
  job.bytes = 256 * MiB;  /* 65536 I/Os over a 256-block file: many passes */
  res = nsc_test_run_job (t, &job, NSC_BACKEND_NULL);
  g_assert_cmpint (res->backend, ==, NSC_BACKEND_NULL);
  g_assert_cmpuint (res->dir[NSC_DIR_READ].ios, ==, 65536);
}

/* ---- a device handed over as a descriptor (UDisks2 OpenDevice) ---------------------- */


/* ---- I/O threads ask for a short scheduler slice ---- */

/* The scheduler's view of one thread: its slice (se.slice, a scheduler-debug
 * field; -1 when the kernel does not show it), policy and nice value. */
typedef struct
{
  gint64 slice;
  int    policy;
  int    nice;
} TaskSched;

static gboolean
read_task_sched (const char *task_dir,
                 TaskSched  *out)
{
  g_autofree char *sched_path = g_build_filename (task_dir, "sched", NULL);
  g_autofree char *stat_path = g_build_filename (task_dir, "stat", NULL);
  g_autofree char *sched = NULL;
  g_autofree char *stat = NULL;
  g_auto(GStrv) fields = NULL;
  const char *line, *close_paren;

  if (!g_file_get_contents (stat_path, &stat, NULL, NULL))
    return FALSE;
  /* Fields after the command's closing parenthesis: state is 3rd, nice 19th,
   * policy 41st. */
  close_paren = strrchr (stat, ')');
  g_assert_nonnull (close_paren);
  fields = g_strsplit (close_paren + 2, " ", -1);
  g_assert_cmpuint (g_strv_length (fields), >=, 39);
  out->nice = atoi (fields[19 - 3]);
  out->policy = atoi (fields[41 - 3]);
  out->slice = -1;
  if (g_file_get_contents (sched_path, &sched, NULL, NULL)
      && (line = strstr (sched, "se.slice")) != NULL)
    out->slice = g_ascii_strtoll (strchr (line, ':') + 1, NULL, 10);
  return TRUE;
}

/* struct sched_attr (Linux 3.14), which glibc 2.36 does not declare. */
typedef struct
{
  guint32 size, sched_policy;
  guint64 sched_flags;
  gint32  sched_nice;
  guint32 sched_priority;
  guint64 sched_runtime, sched_deadline, sched_period;
} TestSchedAttr;

/* Whether this kernel honours a SCHED_OTHER thread's own slice (Linux 6.12) and
 * shows it: tried on a thread of its own. */
static gpointer
try_slice (gpointer data)
{
  TestSchedAttr a = { .size = sizeof a, .sched_policy = SCHED_OTHER,
                      .sched_nice = getpriority (PRIO_PROCESS, 0), .sched_runtime = 100000 };
  g_autofree char *dir = g_strdup_printf ("/proc/self/task/%d", (int) syscall (SYS_gettid));
  TaskSched ts;

  if (syscall (SYS_sched_setattr, 0, &a, 0) != 0 || !read_task_sched (dir, &ts))
    return GINT_TO_POINTER (FALSE);
  return GINT_TO_POINTER (ts.slice == 100000);
}

#define COPY_JOB (-1)  /* instead of a backend: a copy (nsc_copy_run) */

typedef struct
{
  int        backend;     /* an NscBackend, or COPY_JOB */
  int        policy;      /* the policy of the thread that runs the job */
  int        nice;        /* its nice value: the I/O threads inherit both */
  guint      io_threads;  /* I/O threads seen */
  GPtrArray *bad;         /* what was wrong with them */
} SliceCheck;

static void
check_io_threads (const NscSample *s,
                  gpointer         data)
{
  SliceCheck *c = data;
  g_autoptr(GDir) d = g_dir_open ("/proc/self/task", 0, NULL);
  const char *tid;
  guint n = 0;
  TaskSched self;

  /* The thread that runs the job (and calls this) has the short slice meanwhile. */
  g_assert_true (read_task_sched ("/proc/thread-self", &self));
  if ((c->policy == SCHED_OTHER) != (self.slice == 100000))
    g_ptr_array_add (c->bad, g_strdup_printf ("the job's own thread (policy %d) has a slice of %"
                                              G_GINT64_FORMAT " ns", self.policy, self.slice));
  /* Until one sample finds both threads alive (a copy's reader may finish early). */
  if (c->io_threads >= 2 || d == NULL)
    return;
  while ((tid = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *dir = g_build_filename ("/proc/self/task", tid, NULL);
      g_autofree char *comm_path = g_build_filename (dir, "comm", NULL);
      g_autofree char *comm = NULL;
      TaskSched ts;

      if (!g_file_get_contents (comm_path, &comm, NULL, NULL)
          || !g_str_has_prefix (comm, c->backend == COPY_JOB ? "nsc-copy-" : "nsc-io-")
          || !read_task_sched (dir, &ts))
        continue;
      n++;
      if (ts.policy != c->policy || ts.nice != c->nice)
        g_ptr_array_add (c->bad, g_strdup_printf ("%s policy %d nice %d, expected %d and %d",
                                                  g_strstrip (comm), ts.policy, ts.nice,
                                                  c->policy, c->nice));
      /* A SCHED_OTHER I/O thread asks for 100 µs; others keep the default. */
      if ((c->policy == SCHED_OTHER) != (ts.slice == 100000))
        g_ptr_array_add (c->bad, g_strdup_printf ("%s (policy %d) has a slice of %" G_GINT64_FORMAT " ns",
                                                  g_strstrip (comm), ts.policy, ts.slice));
    }
  c->io_threads = MAX (c->io_threads, n);
}

/* After the job, its thread is back to the default slice, nice value and policy. */
static void
check_slice_back (SliceCheck *c)
{
  TaskSched self;

  g_assert_true (read_task_sched ("/proc/thread-self", &self));
  if (self.slice == 100000 || self.policy != c->policy || self.nice != c->nice)
    g_ptr_array_add (c->bad, g_strdup_printf ("after the job, its thread has policy %d, nice %d, "
                                              "a slice of %" G_GINT64_FORMAT " ns",
                                              self.policy, self.nice, self.slice));
}

static gpointer
run_sliced_job (gpointer data)
{
  SliceCheck *c = data;
  g_autoptr(NscTarget) t = NULL;
  g_autoptr(NscJobResult) res = NULL;
  g_autoptr(GError) error = NULL;
  struct sched_param param = { 0 };
  NscJob job;

  /* This thread only: a nice value above the process's, or SCHED_IDLE. */
  if (c->policy == SCHED_IDLE)
    g_assert_cmpint (sched_setscheduler (0, SCHED_IDLE, &param), ==, 0);
  else
    g_assert_cmpint (setpriority (PRIO_PROCESS, 0, c->nice), ==, 0);
  c->nice = getpriority (PRIO_PROCESS, 0);

  if (c->backend == COPY_JOB)
    {
      /* 128 MiB in one file, sampled every 10 ms: its reader and writer threads. */
      NscCopySpec spec = { .bytes = 128 * MiB, .files = 1, .data = NSC_DATA_RANDOM,
                           .interval_ns = 10 * MS, .seed = 1 };
      g_autoptr(NscCopyResult) copy = NULL;

      g_assert_true (nsc_copy_run (test_dir, &spec, check_io_threads, c, NULL, &copy, &error));
      g_assert_no_error (error);
      check_slice_back (c);
      return NULL;
    }
  t = open_file (8 * MiB, FALSE);
  g_assert_true (nsc_target_fill (t, 0, 8 * MiB, c->backend, NULL, NULL, NULL, NULL, NULL));
  nsc_job_init (&job);
  nsc_job_set_rw (&job, "randread", NULL);
  job.block_size = 4096;
  job.queue_depth = c->backend == NSC_BACKEND_IO_URING ? 4 : 1;
  job.workers = 2;
  job.time_ns = 300 * MS;
  job.sample_interval_ns = 50 * MS;
  g_assert_true (nsc_job_run (t, &job, c->backend, check_io_threads, c, NULL, &res, &error));
  g_assert_no_error (error);
  check_slice_back (c);
  return NULL;
}

/* Every I/O thread (a job's, of either backend, and a copy's reader and writer)
 * asks the scheduler for a 100 µs slice, so that a completion wakes it at once
 * instead of up to a tick later behind a busy thread, and keeps the policy and
 * nice value it was started with; so does the thread that runs the job, for the
 * job's length only; a SCHED_IDLE run stays idle. */
static void
test_wake_promptly (gconstpointer data)
{
  int backend = GPOINTER_TO_INT (data);
  int nice_now = getpriority (PRIO_PROCESS, 0);
  const int policies[] = { SCHED_OTHER, SCHED_IDLE };

  if (!GPOINTER_TO_INT (g_thread_join (g_thread_new ("try-slice", try_slice, NULL))))
    {
      g_test_skip ("this kernel does not honour or does not show a thread's own slice "
                   "(Linux 6.12 and CONFIG_SCHED_DEBUG)");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (policies); i++)
    {
      SliceCheck c = { .backend = backend, .policy = policies[i],
                       .nice = MIN (nice_now + 3, 19), .bad = g_ptr_array_new_with_free_func (g_free) };

      g_thread_join (g_thread_new ("sliced-job", run_sliced_job, &c));
      g_assert_cmpuint (c.io_threads, ==, 2);
      for (guint j = 0; j < c.bad->len; j++)
        g_test_message ("%s", (const char *) g_ptr_array_index (c.bad, j));
      g_assert_cmpuint (c.bad->len, ==, 0);
      g_ptr_array_unref (c.bad);
    }
}

static void
test_device_fd (void)
{
  g_autofree char *backing = g_build_filename (test_dir, "loop.img", NULL);
  g_autofree char *dev = NULL;
  g_autoptr(NscTarget) t = NULL;
  g_autoptr(NscJobResult) res = NULL;
  g_autofree guint64 *stamps = NULL;
  GError *error = NULL;
  NscTargetOptions opts = NSC_TARGET_OPTIONS_INIT;
  NscJob job;
  int fd;

  if (geteuid () != 0)
    {
      g_test_skip ("needs root for a loop device");
      return;
    }
  g_assert_true (g_file_set_contents (backing, "", 0, NULL));
  g_assert_cmpint (truncate (backing, 8 * MiB), ==, 0);
  if (!(dev = nsc_test_attach_loop (backing)))
    {
      g_unlink (backing);
      g_test_skip ("no loop device available");
      return;
    }

  /* Writing without consent that names the device: refused with the code each front
   * end adds its own remedy to, in words that name none of their flags. */
  fd = open (dev, O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  opts.need_write = TRUE;
  opts.device_fd = fd;
  g_assert_null (nsc_target_open (dev, &opts, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_NOT_AGREED);
  g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_TARGET_NOT_AGREED);
  g_assert_null (strstr (error->message, "--"));
  g_clear_error (&error);
  g_assert_cmpint (fcntl (fd, F_GETFD), ==, -1);

  /* Read-only where writing was asked for: refused, and the descriptor is closed. */
  fd = open (dev, O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  opts.need_write = TRUE;
  opts.destroy_data = dev;
  opts.device_fd = fd;
  g_assert_null (nsc_target_open (dev, &opts, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_PERMISSION);
  g_clear_error (&error);
  g_assert_cmpint (fcntl (fd, F_GETFD), ==, -1);

  /* Read-write but not exclusive: a write would share the device with whoever
   * else opens it; refused, and closed. */
  fd = open (dev, O_RDWR | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  opts.device_fd = fd;
  g_assert_null (nsc_target_open (dev, &opts, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_BUSY);
  g_clear_error (&error);
  g_assert_cmpint (fcntl (fd, F_GETFD), ==, -1);

  /* As UDisks2 hands it over: read-write, exclusive; O_DIRECT is added if missing. */
  fd = open (dev, O_RDWR | O_EXCL | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  opts.device_fd = fd;
  t = nsc_target_open (dev, &opts, &error);
  g_assert_no_error (error);
  g_assert_cmpint (nsc_target_get_fd (t), ==, fd);
  g_assert_cmpint (fcntl (fd, F_GETFL) & O_DIRECT, ==, O_DIRECT);
  g_assert_cmpuint (nsc_target_get_size (t), ==, 8 * MiB);

  nsc_job_init (&job);
  nsc_job_set_rw (&job, "randwrite", NULL);
  job.block_size = 4096;
  job.queue_depth = 8;
  job.time_ns = 0;
  job.once = TRUE;
  res = nsc_test_run_job (t, &job, NSC_BACKEND_AUTO);
  g_assert_cmpuint (res->dir[NSC_DIR_WRITE].bytes, ==, 8 * MiB);
  stamps = read_stamps (t);
  for (guint64 b = 0; b < 8 * MiB / 4096; b++)
    g_assert_cmpuint (GUINT64_FROM_LE (stamps[2 * b]), ==, b * 4096);

  g_clear_pointer (&t, nsc_target_free);
  g_assert_cmpint (fcntl (fd, F_GETFD), ==, -1);
  nsc_test_detach_loop (dev);
  g_unlink (backing);
}

/* ---- the runner -------------------------------------------------------------- */

typedef struct
{
  GMainLoop *loop;
  GError    *error;
  guint      started;
  guint      finished;
  guint      samples;
  double     last_fraction;
  gboolean   on_main_thread;
  GThread   *main_thread;
  GCancellable *cancel_after_first; /* cancelled when the first step has finished */
  GCancellable *cancel_at_progress; /* cancelled at the first progress report */
  guint64    cache_bytes;               /* the drive's cache from an earlier result, or 0 */
  /* The progress reports: the bar never goes back, a write bounded by bytes never says
   * "0 s left" with bytes still to write, and each pause says why. */
  guint      progress;
  gboolean   fraction_went_back;
  guint      zero_left_while_writing;
  guint      pauses_without_reason;
  guint      pause_reasons;             /* 1 << NscPauseReason seen */
  guint      phase_samples;
  guint64    flush_phase_bytes;         /* the flush's phase samples: where the last ended */
  guint64    flush_phase_total;
} RunnerWatch;

static void
on_started (NscRunner *r, guint step, RunnerWatch *w)
{
  w->started++;
  w->on_main_thread &= g_thread_self () == w->main_thread;
}

static void
on_finished (NscRunner *r, guint step, RunnerWatch *w)
{
  w->finished++;
  g_assert_cmpuint (nsc_runner_get_result (r)->steps->len, ==, w->finished);
  if (w->cancel_after_first)
    g_cancellable_cancel (w->cancel_after_first);
}

static void
on_sample (NscRunner *r, guint step, guint run, gpointer sample, RunnerWatch *w)
{
  w->samples++;
  w->on_main_thread &= g_thread_self () == w->main_thread;
}

static void
on_phase_sample (NscRunner *r, const NscStatus *status, const NscSample *sample, RunnerWatch *w)
{
  w->phase_samples++;
  g_assert_cmpuint (status->bytes_total, >, 0);
  g_assert_cmpuint (sample->position, ==, status->bytes_done);
  if (status->kind == NSC_STATUS_FLUSHING_CACHE)
    {
      w->flush_phase_bytes = sample->position;
      w->flush_phase_total = status->bytes_total;
    }
}

static void
on_progress (NscRunner *r, double fraction, gint64 remaining, const NscStatus *status, RunnerWatch *w)
{
  g_autofree char *words = nsc_status_describe (status);

  g_assert_cmpfloat (fraction, >=, 0);
  g_assert_cmpfloat (fraction, <=, 1);
  g_assert_cmpint (remaining, >=, 0);
  w->progress++;
  w->fraction_went_back |= fraction < w->last_fraction;
  if (status->bytes_total > 0 && status->bytes_done < status->bytes_total
      && !status->time_left_open && remaining == 0)
    w->zero_left_while_writing++;
  if (status->kind == NSC_STATUS_IDLE || status->kind == NSC_STATUS_IDLE_BEFORE
      || status->kind == NSC_STATUS_IDLE_BETWEEN)
    {
      w->pause_reasons |= 1u << status->reason;
      /* "Pause: 30 seconds, so that …": a pause says why. */
      if (!strstr (words, "so that") && !strstr (words, "measures how much")
          && !strstr (words, "as asked"))
        w->pauses_without_reason++;
    }
  w->last_fraction = fraction;
  if (w->cancel_at_progress)
    g_cancellable_cancel (w->cancel_at_progress);
}

static void
on_done (GObject *source, GAsyncResult *result, gpointer data)
{
  RunnerWatch *w = data;

  nsc_runner_run_finish (NSC_RUNNER (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

static NscRunner *
start_preset (RunnerWatch  *w,
              const char   *name,
              GCancellable *cancellable)
{
  g_autoptr(NscPreset) preset = nsc_preset_lookup (name, NULL);
  NscRunOptions opts = NSC_RUN_OPTIONS_INIT;
  NscRunner *runner;

  opts.target = test_dir;
  opts.file_size = 16 * MiB;
  opts.runs = 2;
  opts.time_ns = 150 * MS;
  /* Reads of settled data idle 30 s first: a cancel test need not wait for that, and
   * the others need the order of the steps, not the length of the pause. */
  opts.max_idle_ns = w->cancel_after_first || w->cancel_at_progress ? 10 * MS : 1000 * MS;
  opts.cache_bytes = w->cache_bytes;
  runner = nsc_runner_new (preset, &opts);
  w->loop = g_main_loop_new (NULL, FALSE);
  w->on_main_thread = TRUE;
  w->main_thread = g_thread_self ();
  g_signal_connect (runner, "step-started", G_CALLBACK (on_started), w);
  g_signal_connect (runner, "step-finished", G_CALLBACK (on_finished), w);
  g_signal_connect (runner, "sample", G_CALLBACK (on_sample), w);
  g_signal_connect (runner, "progress", G_CALLBACK (on_progress), w);
  g_signal_connect (runner, "phase-sample", G_CALLBACK (on_phase_sample), w);
  nsc_runner_run_async (runner, cancellable, on_done, w);
  return runner;
}

static void
test_runner_quick (gconstpointer data)
{
  /* An earlier result's cache sizes the settled reads' flush (a bit more than it),
   * instead of the 8 GiB written where none is known. A measured cache is any number
   * of bytes: the flush is then whole blocks, a few bytes more, never the rest of the
   * target (a job of no length covers it all). */
  guint64 ragged = GPOINTER_TO_UINT (data);
  RunnerWatch w = { .cache_bytes = 32 * MiB + ragged };
  guint64 want = 36 * MiB + ragged + ragged / 8;
  g_autoptr(NscRunner) runner = start_preset (&w, "quick", NULL);
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;
  NscRunResult *r;
  JsonObject *root;

  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  g_assert_no_error (w.error);
  g_assert_cmpuint (w.started, ==, 10);
  g_assert_cmpuint (w.finished, ==, 10);
  g_assert_cmpuint (w.samples, >, 8);
  g_assert_true (w.on_main_thread);
  g_assert_cmpfloat (w.last_fraction, ==, 1.0);
  g_assert_cmpuint (count_entries (test_dir), ==, 0);

  r = nsc_runner_get_result (runner);
  g_assert_cmpstr (r->target_kind, ==, "file");
  g_assert_false (r->cancelled);
  for (guint i = 0; i < 10; i++)
    {
      NscStepResult *sr = g_ptr_array_index (r->steps, i);
      const NscJobResult *head = nsc_step_result_headline (sr);
      guint d = i < 4 || i >= 8 ? NSC_DIR_READ : NSC_DIR_WRITE;

      g_assert_true (sr->completed);
      g_assert_true (sr->contents_verified);
      g_assert_cmpuint (sr->runs->len, ==, 2);
      g_assert_cmpfloat (head->dir[d].bw_bps, >, 0);
      g_assert_cmpuint (head->dir[1 - d].ios, ==, 0);
    }

  json = nsc_run_result_to_json (r);
  json_generator_set_root (gen, json);
  text = json_generator_to_data (gen, NULL);
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (root, "schema"), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "steps")), ==, 10);
  /* The fresh reads met data written moments before; the settled ones had the write
   * tests' data written after theirs. */
  g_assert_true (((NscStepResult *) g_ptr_array_index (r->steps, 0))->fresh_data);
  g_assert_cmpuint (((NscStepResult *) g_ptr_array_index (r->steps, 8))->bytes_written_since, >, 0);
  g_assert_cmpstr (((NscStepResult *) g_ptr_array_index (r->steps, 8))->flush_source, ==, "history");
  g_assert_cmpuint (((NscStepResult *) g_ptr_array_index (r->steps, 8))->flush_bytes, >=, want);
  g_assert_cmpuint (((NscStepResult *) g_ptr_array_index (r->steps, 8))->flush_bytes, <, want + 4096);
  g_assert_cmpuint (((NscStepResult *) g_ptr_array_index (r->steps, 8))->flush_bytes % 512, ==, 0);
  /* The flush was a phase of its own, drawn to its end; the test file before it too. */
  g_assert_cmpuint (w.flush_phase_total, ==, ((NscStepResult *) g_ptr_array_index (r->steps, 8))->flush_bytes);
  g_assert_cmpuint (w.flush_phase_bytes, ==, w.flush_phase_total);
  g_assert_cmpuint (w.phase_samples, >, 2);
  g_assert_false (w.fraction_went_back);
  g_assert_cmpuint (w.zero_left_while_writing, ==, 0);
  g_assert_cmpuint (w.pauses_without_reason, ==, 0);
  g_assert_true (w.pause_reasons & (1u << NSC_PAUSE_SETTLE));
  g_assert_true (json_object_has_member (json_object_get_object_member (root, "analysis"),
                                         "read_inflation"));
  g_assert_cmpfloat (json_object_get_double_member (
                       json_object_get_object_member (
                         json_array_get_object_element (json_object_get_array_member (root, "steps"), 0),
                         "read"), "bw_bps"), >, 0);
}

/* A write-fill: a pause after the erase that says why, then a write bounded by bytes
 * whose time left is its bytes at the speed measured, never "0 s left" before its
 * end, and a bar that never goes back. */
static void
test_runner_progress_fill (void)
{
  RunnerWatch w = { 0 };
  g_autoptr(NscRunner) runner = start_preset (&w, "write-fill", NULL);
  NscRunResult *r;

  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  g_assert_no_error (w.error);
  r = nsc_runner_get_result (runner);
  g_assert_cmpuint (r->steps->len, ==, 3);
  g_assert_cmpuint (w.progress, >, 3);
  g_assert_false (w.fraction_went_back);
  g_assert_cmpfloat (w.last_fraction, ==, 1.0);
  g_assert_cmpuint (w.zero_left_while_writing, ==, 0);
  g_assert_cmpuint (w.pauses_without_reason, ==, 0);
  g_assert_true (w.pause_reasons & (1u << NSC_PAUSE_AFTER_TRIM));
}

/* Runs the runner to its end, which must be a cancel: a cancelled run without error,
 * its finished steps kept, fewer than all of them, and no file left. */
static NscRunResult *
run_to_cancel (RunnerWatch *w,
               NscRunner   *runner)
{
  NscRunResult *r;

  g_main_loop_run (w->loop);
  g_main_loop_unref (w->loop);
  g_assert_error (w->error, NSC_ERROR, NSC_ERROR_CANCELLED);
  g_clear_error (&w->error);
  r = nsc_runner_get_result (runner);
  g_assert_true (r->cancelled);
  g_assert_null (r->error);
  g_assert_cmpuint (w->finished, <, 10);
  g_assert_cmpuint (r->steps->len, ==, w->finished);
  g_assert_cmpuint (count_entries (test_dir), ==, 0);
  return r;
}

/* Cancelled once its first step has finished (the event, not a delay): that step is
 * kept and the rest are not run. Queue-depth scaling: its first step is a short job. */
static void
test_runner_cancel (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  RunnerWatch w = { .cancel_after_first = cancellable };
  g_autoptr(NscRunner) runner = start_preset (&w, "seq-qd", cancellable);
  NscRunResult *r = run_to_cancel (&w, runner);

  /* The worker may finish one more step before the cancel reaches it. */
  g_assert_cmpuint (w.finished, >=, 1);
  g_assert_true (((NscStepResult *) g_ptr_array_index (r->steps, 0))->completed);
}

/* Quick cancelled at its first progress report, while it prepares (it writes its
 * test area and more than a drive's cache before its first test). */
static void
test_runner_cancel_early (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  RunnerWatch w = { .cancel_at_progress = cancellable };
  g_autoptr(NscRunner) runner = start_preset (&w, "quick", cancellable);

  run_to_cancel (&w, runner);
}

typedef struct
{
  GMainLoop *loop;
  GThread   *main_thread;
  gboolean   on_main_thread;
  GError    *error;
} Callback;

static void
on_failed_run (GObject *source, GAsyncResult *result, gpointer data)
{
  Callback *c = data;

  c->on_main_thread = g_thread_self () == c->main_thread;
  nsc_runner_run_finish (NSC_RUNNER (source), result, &c->error);
  g_main_loop_quit (c->loop);
}

/* Events reach the caller's context even when its loop is not running yet: the
 * worker must never run them itself. */
static void
test_runner_events_on_caller_thread (void)
{
  g_autoptr(NscPreset) preset = nsc_preset_lookup ("quick", NULL);
  g_autofree char *missing = g_build_filename (test_dir, "no", "such", "dir", NULL);
  g_autoptr(NscRunner) runner = NULL;
  NscRunOptions opts = { .target = missing, .device_fd = -1 };
  Callback c = { g_main_loop_new (NULL, FALSE), g_thread_self (), FALSE, NULL };

  runner = nsc_runner_new (preset, &opts);
  nsc_runner_run_async (runner, NULL, on_failed_run, &c);
  g_usleep (300000);  /* the worker fails at once and posts while nobody iterates */
  g_main_loop_run (c.loop);
  g_main_loop_unref (c.loop);
  g_assert_true (c.on_main_thread);
  g_assert_error (c.error, NSC_ERROR, NSC_ERROR_NOT_FOUND);
  g_clear_error (&c.error);
  g_assert_nonnull (nsc_runner_get_result (runner)->error);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *base = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);
  /* The engine's errors in words, as the front ends see them. */
  nsc_words_problem_install ();

  base = g_build_filename (g_test_get_dir (G_TEST_BUILT), "io-test-XXXXXX", NULL);
  test_dir = g_mkdtemp (base) ? g_strdup (base) : NULL;
  g_assert_nonnull (test_dir);

  g_test_add_data_func ("/nsc/io/write-verify/io_uring", GINT_TO_POINTER (NSC_BACKEND_IO_URING), test_write_verify);
  g_test_add_data_func ("/nsc/io/write-verify/psync", GINT_TO_POINTER (NSC_BACKEND_PSYNC), test_write_verify);
  g_test_add_func ("/nsc/io/fill-then-read", test_fill_then_read);
  g_test_add_func ("/nsc/io/zeros", test_zeros);
  g_test_add_func ("/nsc/io/compressible", test_compressible);
  g_test_add_func ("/nsc/io/backends-agree", test_backends_agree);
  g_test_add_data_func ("/nsc/io/cancel/io_uring", GINT_TO_POINTER (NSC_BACKEND_IO_URING), test_cancel);
  g_test_add_data_func ("/nsc/io/cancel/psync", GINT_TO_POINTER (NSC_BACKEND_PSYNC), test_cancel);
  g_test_add_data_func ("/nsc/io/cancel/null", GINT_TO_POINTER (NSC_BACKEND_NULL), test_cancel);
  g_test_add_data_func ("/nsc/io/cancel-before-io/io_uring", GINT_TO_POINTER (NSC_BACKEND_IO_URING), test_cancel_before_io);
  g_test_add_data_func ("/nsc/io/cancel-before-io/psync", GINT_TO_POINTER (NSC_BACKEND_PSYNC), test_cancel_before_io);
  g_test_add_data_func ("/nsc/io/cancel-before-io/null", GINT_TO_POINTER (NSC_BACKEND_NULL), test_cancel_before_io);
  g_test_add_data_func ("/nsc/io/no-file-left/tmpfile", GINT_TO_POINTER (FALSE), test_no_file_left);
  g_test_add_data_func ("/nsc/io/no-file-left/unlinked", GINT_TO_POINTER (TRUE), test_no_file_left);
  g_test_add_func ("/nsc/io/target-errors", test_target_errors);
  g_test_add_func ("/nsc/io/job-errors", test_job_errors);
  g_test_add_func ("/nsc/io/sampling", test_sampling);
  g_test_add_func ("/nsc/io/mixed-share", test_mixed_share);
  g_test_add_func ("/nsc/io/null-backend", test_null_backend);
  g_test_add_func ("/nsc/io/device-fd", test_device_fd);
  g_test_add_data_func ("/nsc/io/wake-promptly/io_uring", GINT_TO_POINTER (NSC_BACKEND_IO_URING), test_wake_promptly);
  g_test_add_data_func ("/nsc/io/wake-promptly/psync", GINT_TO_POINTER (NSC_BACKEND_PSYNC), test_wake_promptly);
  g_test_add_data_func ("/nsc/io/wake-promptly/copy", GINT_TO_POINTER (COPY_JOB), test_wake_promptly);
  g_test_add_data_func ("/nsc/runner/quick", GUINT_TO_POINTER (0), test_runner_quick);
  g_test_add_data_func ("/nsc/runner/quick-ragged-cache", GUINT_TO_POINTER (1234), test_runner_quick);
  g_test_add_func ("/nsc/runner/progress-fill", test_runner_progress_fill);
  g_test_add_func ("/nsc/runner/cancel", test_runner_cancel);
  g_test_add_func ("/nsc/runner/cancel-early", test_runner_cancel_early);
  g_test_add_func ("/nsc/runner/events-on-caller-thread", test_runner_events_on_caller_thread);

  ret = g_test_run ();
  g_rmdir (test_dir);
  g_free (test_dir);
  return ret;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "nsc-engine.h"

static void
test_rw (void)
{
  NscJob job;

  nsc_job_init (&job);
  g_assert_true (nsc_job_set_rw (&job, "randwrite", NULL));
  g_assert_cmpint (job.pattern, ==, NSC_PATTERN_RANDOM);
  g_assert_cmpuint (job.read_percent, ==, 0);
  g_assert_cmpstr (nsc_job_get_rw (&job), ==, "randwrite");

  g_assert_true (nsc_job_set_rw (&job, "rw", NULL));
  g_assert_cmpint (job.pattern, ==, NSC_PATTERN_SEQUENTIAL);
  g_assert_cmpuint (job.read_percent, ==, 50);
  job.read_percent = 70;
  g_assert_true (nsc_job_set_rw (&job, "randrw", NULL));
  g_assert_cmpuint (job.read_percent, ==, 70);
  g_assert_cmpstr (nsc_job_get_rw (&job), ==, "randrw");

  g_assert_true (nsc_job_set_rw (&job, "read", NULL));
  g_assert_cmpuint (job.read_percent, ==, 100);
  g_assert_cmpstr (nsc_job_get_rw (&job), ==, "read");
}

static void
test_rw_invalid (void)
{
  g_autoptr(GError) error = NULL;
  NscJob job;

  nsc_job_init (&job);
  g_assert_false (nsc_job_set_rw (&job, "readwrite-ish", &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_JOB_RW_UNKNOWN);
  g_assert_cmpstr (nsc_error_get_fields (error)->text, ==, "readwrite-ish");
}

typedef void (*Mutate) (NscJob *job);
static void m_bs0 (NscJob *j) { j->block_size = 0; }
static void m_bs_odd (NscJob *j) { j->block_size = 4000; }
static void m_bs_huge (NscJob *j) { j->block_size = 128u << 20; }
static void m_qd0 (NscJob *j) { j->queue_depth = 0; }
static void m_qd_big (NscJob *j) { j->queue_depth = 1025; }
static void m_workers0 (NscJob *j) { j->workers = 0; }
static void m_workers_big (NscJob *j) { j->workers = 65; }
static void m_read101 (NscJob *j) { j->read_percent = 101; }
static void m_no_stop (NscJob *j) { j->time_ns = 0; j->bytes = 0; j->once = FALSE; }
static void m_buffers (NscJob *j) { j->block_size = 64u << 20; j->queue_depth = 32; }
static void m_bytes_small (NscJob *j) { j->bytes = 100; }
static void m_interval (NscJob *j) { j->sample_interval_ns = 1000; }
static void m_region_small (NscJob *j) { j->region_length = 4096; j->block_size = 4096; j->workers = 4; }

static void
test_validate (void)
{
  static const struct {
    Mutate     mutate;
    NscProblem problem;
  } bad[] = {
    { m_bs0, NSC_PROBLEM_JOB_BLOCK_SIZE_RANGE },
    { m_bs_odd, NSC_PROBLEM_JOB_BLOCK_SIZE_UNALIGNED },
    { m_bs_huge, NSC_PROBLEM_JOB_BLOCK_SIZE_RANGE },
    { m_qd0, NSC_PROBLEM_JOB_QUEUE_DEPTH_RANGE },
    { m_qd_big, NSC_PROBLEM_JOB_QUEUE_DEPTH_RANGE },
    { m_workers0, NSC_PROBLEM_JOB_WORKERS_RANGE },
    { m_workers_big, NSC_PROBLEM_JOB_WORKERS_RANGE },
    { m_read101, NSC_PROBLEM_JOB_READ_SHARE_RANGE },
    { m_no_stop, NSC_PROBLEM_JOB_NEVER_STOPS },
    { m_buffers, NSC_PROBLEM_JOB_BUFFERS_TOO_LARGE },
    { m_bytes_small, NSC_PROBLEM_JOB_DATA_LIMIT_SMALL },
    { m_interval, NSC_PROBLEM_JOB_SAMPLE_INTERVAL },
    { m_region_small, NSC_PROBLEM_JOB_REGION_TOO_SMALL },
  };
  NscJob job;

  nsc_job_init (&job);
  g_assert_true (nsc_job_validate (&job, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      nsc_job_init (&job);
      bad[i].mutate (&job);
      g_assert_false (nsc_job_validate (&job, &error));
      g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
      g_assert_cmpint (nsc_error_get_problem (error), ==, bad[i].problem);
    }

  /* The edges that are allowed. */
  nsc_job_init (&job);
  job.block_size = 512;
  job.queue_depth = 1024;
  job.workers = 64;
  job.read_percent = 0;
  g_assert_true (nsc_job_validate (&job, NULL));
  job.time_ns = 0;
  job.once = TRUE;
  g_assert_true (nsc_job_validate (&job, NULL));
}

static void
test_describe (void)
{
  NscJob job;
  g_autofree char *a = NULL, *b = NULL, *c = NULL;
  char scratch[64];

  nsc_job_init (&job);
  job.queue_depth = 8;
  a = nsc_job_describe (&job);
  g_assert_cmpstr (a, ==, "SEQ1M Q8T1");

  nsc_job_set_rw (&job, "randread", NULL);
  job.block_size = 4096;
  job.queue_depth = 32;
  job.workers = 16;
  b = nsc_job_describe (&job);
  g_assert_cmpstr (b, ==, "RND4K Q32T16");

  nsc_job_set_rw (&job, "randrw", NULL);
  job.read_percent = 70;
  c = nsc_job_describe (&job);
  g_assert_cmpstr (c, ==, "RND4K Q32T16 R70%");

  g_assert_cmpstr (nsc_job_get_label (&job, scratch, sizeof scratch), ==, "RND4K Q32T16 R70%");
  g_strlcpy (job.label, "mine", sizeof job.label);
  g_assert_cmpstr (nsc_job_get_label (&job, scratch, sizeof scratch), ==, "mine");
}

static void
test_sample_interval (void)
{
  NscJob job;

  nsc_job_init (&job);
  job.time_ns = 5 * G_GINT64_CONSTANT (1000000000);
  g_assert_cmpint (nsc_job_sample_interval (&job), ==, 250000000);
  job.time_ns = 60 * G_GINT64_CONSTANT (1000000000);
  g_assert_cmpint (nsc_job_sample_interval (&job), ==, 1000000000);
  job.sample_interval_ns = 100000000;
  g_assert_cmpint (nsc_job_sample_interval (&job), ==, 100000000);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/job/rw", test_rw);
  g_test_add_func ("/nsc/job/rw-invalid", test_rw_invalid);
  g_test_add_func ("/nsc/job/validate", test_validate);
  g_test_add_func ("/nsc/job/describe", test_describe);
  g_test_add_func ("/nsc/job/sample-interval", test_sample_interval);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>

#include "nsc-engine.h"

#define GiB (G_GUINT64_CONSTANT (1) << 30)
#define MiB (G_GUINT64_CONSTANT (1) << 20)

/* One definition of strict: what the user set stays, the rest is the reviews'. */
static void
test_strict_options (void)
{
  NscRunOptions o = { 0 };
  NscRunOptions mine = { 0 };

  nsc_run_options_set_strict (&o);
  g_assert_true (o.strict);
  g_assert_cmpint (o.default_time_ns, ==, NSC_STRICT_TIME_NS);
  g_assert_cmpuint (o.span_cap, ==, NSC_STRICT_SPAN);
  /* Strict's 40 s is for steps without a length of their own, not every step. */
  g_assert_cmpint (o.time_ns, ==, 0);
  /* Its idle comes before each preset, not before every step. */
  g_assert_cmpint (o.idle_ns, ==, 0);

  mine.span_cap = 64 * MiB;
  mine.default_time_ns = 1000000;
  nsc_run_options_set_strict (&mine);
  g_assert_cmpuint (mine.span_cap, ==, 64 * MiB);
  g_assert_cmpint (mine.default_time_ns, ==, 1000000);

  {
    NscRunOptions cdm = { 0 };

    nsc_run_options_set_cdm (&cdm);
    g_assert_true (cdm.cdm);
    g_assert_cmpuint (cdm.runs, ==, 5);
    g_assert_cmpint (cdm.default_time_ns, ==, 5 * G_GINT64_CONSTANT (1000000000));
    g_assert_cmpuint (cdm.span_cap, ==, 2 * GiB);
  }
}

typedef struct
{
  GMainLoop *loop;
  gboolean   ok;
  GError    *error;
} Wait;

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  Wait *w = data;

  w->ok = nsc_runner_run_finish (NSC_RUNNER (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

/* A suite under strict on a real test file: strict's TRIM and idle where each part
 * starts and nowhere else, its 40 s only for steps with no length of their own, and
 * every read step's data settled by an idle. */
static void
test_strict_run (void)
{
  static const char suite[] =
    "{\"name\":\"s\",\"file_size\":\"8m\",\"time\":\"10s\",\"runs\":1,\"steps\":["
    "{\"rw\":\"read\",\"bs\":\"1m\",\"qd\":2},"
    "{\"rw\":\"write\",\"bs\":\"1m\",\"qd\":2,\"time\":\"2m\"},"
    "{\"kind\":\"idle\",\"time\":\"1s\"},"
    "{\"rw\":\"write\",\"bs\":\"1m\",\"qd\":2,\"label\":\"no TRIM\",\"strict\":false}]}";
  g_autoptr(NscPreset) preset = nsc_preset_new_from_data (suite, sizeof suite - 1, NULL);
  g_autofree char *dir = g_dir_make_tmp ("nsc-runner-XXXXXX", NULL);
  g_autoptr(NscRunner) runner = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  NscRunOptions o = { 0 };
  NscRunResult *r;
  Wait w = { loop, FALSE, NULL };

  g_assert_nonnull (preset);
  o.target = dir;
  o.max_idle_ns = 20000000;
  o.time_scale = 0.001;
  o.idle_ns = 5000000;
  o.span_cap = 8 * MiB;
  nsc_run_options_set_strict (&o);
  runner = nsc_runner_new (preset, &o);
  nsc_runner_run_async (runner, NULL, on_done, &w);
  g_main_loop_run (loop);
  g_assert_no_error (w.error);
  g_assert_true (w.ok);
  r = nsc_runner_get_result (runner);
  g_assert_cmpuint (r->steps->len, ==, 4);

  {
    NscStepResult *read = g_ptr_array_index (r->steps, 0);
    NscStepResult *own = g_ptr_array_index (r->steps, 1);
    NscStepResult *no_trim = g_ptr_array_index (r->steps, 3);

    g_assert_true (read->strict_applied);
    g_assert_cmpint (read->strict_idle_ns, ==, 20000000);
    g_assert_cmpstr (read->time_source, ==, "strict");
    g_assert_cmpint (read->planned_time_ns, ==, NSC_STRICT_TIME_NS);
    g_assert_cmpstr (read->data_expected, ==, "settled");
    g_assert_cmpstr (read->settled_by, ==, "idle");
    g_assert_cmpint (read->idle_since_data_ns, >=, 20000000);

    g_assert_false (own->strict_applied);
    g_assert_cmpstr (own->time_source, ==, "own");
    g_assert_cmpint (own->planned_time_ns, ==, 120 * G_GINT64_CONSTANT (1000000000));
    g_assert_cmpint (own->step.job.time_ns, ==, 120000000);

    /* It opted out: no TRIM, and not the idle between tests, only its preset's idle. */
    g_assert_true (no_trim->strict_skipped);
    g_assert_cmpuint (no_trim->trimmed_before_bytes, ==, 0);
    g_assert_cmpuint (no_trim->strict_trimmed_bytes, ==, 0);
    g_assert_cmpint (no_trim->idle_before_ns, ==, 20000000);
  }
  g_assert_cmpint (r->strict_idle_ns, ==, 20000000);
  g_assert_cmpint (r->default_time_ns, ==, NSC_STRICT_TIME_NS);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/runner/strict-options", test_strict_options);
  g_test_add_func ("/nsc/runner/strict-run", test_strict_run);
  return g_test_run ();
}

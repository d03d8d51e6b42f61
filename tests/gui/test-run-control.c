/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>

#include "nsc-chart.h"
#include "nsc-run-control.h"
#include "nsc-session.h"

/* The app's run state without its window: what Run, the erase question, Cancel and
 * closing do, and the signals a real run sends, on a main loop as in the app. No
 * display: the run state calls no GTK. */

typedef struct
{
  guint      confirms;
  guint      openings;
  guint      started;
  guint      step_started;
  guint      step_finished;
  guint      samples;
  guint      live_samples;
  guint      live_charts;
  guint      live_kinds;    /* 1 << each NscChartKind shown live */
  guint      progress;
  guint      failed;
  guint      finished;
  char      *message;
  gboolean   cancelled;
  gboolean   success;
  gboolean   busy_at_end;
  gboolean   has_result;
  char      *saved;
  char      *time_left;
  GMainLoop *loop;
} Events;

static void
on_confirm (NscRunControl   *run,
            const NscPreset *preset,
            Events          *e)
{
  g_assert_nonnull (preset);
  e->confirms++;
}

static void
on_opening (NscRunControl *run,
            const char    *status,
            Events        *e)
{
  e->openings++;
}

static void
on_started (NscRunControl   *run,
            const NscPreset *preset,
            const char      *left,
            Events          *e)
{
  e->started++;
  g_free (e->time_left);
  e->time_left = g_strdup (left);
}

static void
on_step_started (NscRunControl *run,
                 const NscStep *step,
                 Events        *e)
{
  e->step_started++;
}

static void
on_step_finished (NscRunControl *run,
                  NscStepResult *step,
                  Events        *e)
{
  e->step_finished++;
  g_assert_cmpuint (nsc_run_control_get_steps_done (run), ==, e->step_finished);
}

static void
on_sample (NscRunControl   *run,
           const NscStep   *step,
           guint            index,
           const NscSample *sample,
           Events          *e)
{
  e->samples++;
}

static void
on_live_sample (NscRunControl   *run,
                const NscSample *sample,
                Events          *e)
{
  e->live_samples++;
}

static void
on_live_chart (NscRunControl *run,
               int            kind,
               const char    *title,
               Events        *e)
{
  g_assert_nonnull (title);
  g_assert_cmpint (kind, >=, 0);
  g_assert_cmpint (kind, <, NSC_CHART_N_KINDS);
  e->live_charts++;
  e->live_kinds |= 1u << kind;
}

static void
on_progress (NscRunControl *run,
             double         fraction,
             const char    *text,
             const char    *left,
             Events        *e)
{
  g_assert_nonnull (text);
  g_assert_nonnull (left);
  g_assert_cmpfloat (fraction, <=, 1.0);
  e->progress++;
}

static void
on_failed (NscRunControl *run,
           const char    *message,
           gboolean       cancelled,
           Events        *e)
{
  e->failed++;
  g_free (e->message);
  e->message = g_strdup (message);
  e->cancelled = cancelled;
  e->busy_at_end = nsc_run_control_get_busy (run);
}

static void
on_finished (NscRunControl       *run,
             const NscRunOutcome *outcome,
             Events              *e)
{
  e->finished++;
  g_free (e->message);
  e->message = g_strdup (outcome->message);
  e->cancelled = outcome->cancelled;
  e->success = outcome->success;
  e->has_result = outcome->result != NULL;
  e->saved = g_strdup (outcome->saved);
  e->busy_at_end = nsc_run_control_get_busy (run);
  if (e->loop != NULL)
    g_main_loop_quit (e->loop);
}

static NscRunControl *
control_new (Events *e)
{
  NscRunControl *run = nsc_run_control_new ();

  g_signal_connect (run, "confirm", G_CALLBACK (on_confirm), e);
  g_signal_connect (run, "opening", G_CALLBACK (on_opening), e);
  g_signal_connect (run, "started", G_CALLBACK (on_started), e);
  g_signal_connect (run, "step-started", G_CALLBACK (on_step_started), e);
  g_signal_connect (run, "step-finished", G_CALLBACK (on_step_finished), e);
  g_signal_connect (run, "sample", G_CALLBACK (on_sample), e);
  g_signal_connect (run, "live-sample", G_CALLBACK (on_live_sample), e);
  g_signal_connect (run, "live-chart", G_CALLBACK (on_live_chart), e);
  g_signal_connect (run, "progress", G_CALLBACK (on_progress), e);
  g_signal_connect (run, "failed", G_CALLBACK (on_failed), e);
  g_signal_connect (run, "finished", G_CALLBACK (on_finished), e);
  return run;
}

static void
events_clear (Events *e)
{
  g_free (e->message);
  g_free (e->time_left);
  if (e->saved != NULL)
    g_unlink (e->saved);
  g_free (e->saved);
  g_clear_pointer (&e->loop, g_main_loop_unref);
  memset (e, 0, sizeof *e);
}

static const char tiny_json[] =
  "{\"name\":\"tiny\",\"title\":\"Tiny\",\"file_size\":\"8m\",\"runs\":1,\"time\":\"50ms\","
  "\"steps\":[{\"rw\":\"read\",\"bs\":\"1m\",\"qd\":2},{\"rw\":\"randwrite\",\"bs\":\"4k\"},"
  "{\"rw\":\"read\",\"bs\":\"1m\",\"qd\":2,\"once\":true}]}";

static void
test_time_left (void)
{
  struct { gint64 s; gboolean open; const char *text; } cases[] = {
    { 0, TRUE, "time left: known once writing starts" },
    { 0, FALSE, "0 s left" },
    { 30, FALSE, "30 s left" },
    { 30, TRUE, "over 30 s left" },
    { 61, FALSE, "2 min left" },
    { 120, TRUE, "over 2 min left" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = nsc_run_control_format_time_left (cases[i].s * 1000000000,
                                                                cases[i].open);
      g_assert_cmpstr (text, ==, cases[i].text);
    }
  {
    /* A part of a second counts as a second. */
    g_autofree char *text = nsc_run_control_format_time_left (1, FALSE);
    g_assert_cmpstr (text, ==, "1 s left");
  }
}

/* A drive from a captured tree is shown, never opened: a run that only reads is
 * refused at once; one that erases asks first, and refuses when the user agrees; a
 * "no" is a cancel, nothing written; closing drops the question. */
static void
test_captured_drive (void)
{
  g_autoptr(NscPreset) preset = nsc_preset_new_from_data (tiny_json, sizeof tiny_json - 1, NULL);
  g_autofree char *dir = g_dir_make_tmp ("nsc-run-control-XXXXXX", NULL);
  g_autoptr(NscRunControl) run = NULL;
  NscRunOptions user = NSC_RUN_OPTIONS_INIT;
  NscDeviceInfo dev = { 0 };
  NscRunRequest request = { 0 };
  Events e = { 0 };

  dev.name = (char *) "sdz";
  request.preset = preset;
  request.target = dir;
  request.device = &dev;
  request.options = &user;
  request.runs = 1;
  request.captured = TRUE;
  run = control_new (&e);

  nsc_run_control_run (run, &request);
  g_assert_cmpuint (e.failed, ==, 1);
  g_assert_false (e.cancelled);
  g_assert_false (e.busy_at_end);
  g_assert_nonnull (strstr (e.message, "NANDSCOPE_SYSFS_ROOT"));
  g_assert_cmpuint (e.confirms + e.openings + e.started, ==, 0);
  events_clear (&e);

  request.destroy = TRUE;
  nsc_run_control_run (run, &request);
  g_assert_cmpuint (e.confirms, ==, 1);
  g_assert_true (nsc_run_control_get_busy (run));
  /* A second Run while the question is open does nothing. */
  nsc_run_control_run (run, &request);
  g_assert_cmpuint (e.confirms, ==, 1);
  nsc_run_control_confirm (run, FALSE);
  g_assert_cmpuint (e.failed, ==, 1);
  g_assert_true (e.cancelled);
  g_assert_cmpstr (e.message, ==, "Not confirmed; nothing was written");
  g_assert_false (nsc_run_control_get_busy (run));
  /* An answer nobody asked for is ignored. */
  nsc_run_control_confirm (run, TRUE);
  g_assert_cmpuint (e.failed, ==, 1);
  events_clear (&e);

  nsc_run_control_run (run, &request);
  nsc_run_control_confirm (run, TRUE);
  g_assert_cmpuint (e.failed, ==, 1);
  g_assert_false (e.cancelled);
  g_assert_nonnull (strstr (e.message, "NANDSCOPE_SYSFS_ROOT"));
  g_assert_cmpuint (e.openings + e.started, ==, 0);
  events_clear (&e);

  nsc_run_control_run (run, &request);
  g_assert_cmpuint (e.confirms, ==, 1);
  g_assert_false (nsc_run_control_close (run));
  g_assert_false (nsc_run_control_get_busy (run));
  g_assert_false (nsc_run_control_get_close_when_done (run));
  g_assert_false (nsc_run_control_cancel (run));
  g_assert_cmpuint (e.failed, ==, 0);
  events_clear (&e);

  /* A preset that cannot run on the drive says why, before anything is asked. */
  request.captured = FALSE;
  request.refusal = "It is mounted at /data.";
  nsc_run_control_run (run, &request);
  g_assert_cmpuint (e.failed, ==, 1);
  g_assert_cmpstr (e.message, ==, "It is mounted at /data.");
  g_assert_cmpuint (e.confirms, ==, 0);
  events_clear (&e);

  g_rmdir (dir);
}

static void
run_tiny (Events   *e,
          gboolean  cancel,
          gboolean  close)
{
  g_autoptr(NscPreset) preset = nsc_preset_new_from_data (tiny_json, sizeof tiny_json - 1, NULL);
  g_autofree char *dir = g_dir_make_tmp ("nsc-run-control-XXXXXX", NULL);
  g_autoptr(NscRunControl) run = control_new (e);
  NscRunOptions user = NSC_RUN_OPTIONS_INIT;
  NscRunRequest request = { 0 };

  user.backend = NSC_BACKEND_NULL;
  request.preset = preset;
  request.target = dir;
  request.options = &user;
  request.runs = 1;
  e->loop = g_main_loop_new (NULL, FALSE);

  g_assert_false (nsc_run_control_cancel (run));
  nsc_run_control_run (run, &request);
  g_assert_cmpuint (e->started, ==, 1);
  g_assert_nonnull (e->time_left);
  g_assert_true (nsc_run_control_get_busy (run));
  if (cancel)
    g_assert_true (nsc_run_control_cancel (run));
  if (close)
    {
      g_assert_true (nsc_run_control_close (run));
      g_assert_true (nsc_run_control_get_close_when_done (run));
    }
  /* The window may let go while the run winds down: the run keeps its state. */
  g_clear_object (&run);
  g_main_loop_run (e->loop);

  g_assert_cmpuint (e->finished, ==, 1);
  g_assert_cmpuint (e->failed, ==, 0);
  g_assert_false (e->busy_at_end);
  g_assert_cmpuint (e->step_finished, <=, e->step_started);
  g_assert_cmpuint (e->live_samples, <=, e->samples + e->progress);
  g_assert_nonnull (e->message);
  /* No test file is left behind. */
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* A real run on a folder, as the app's Run: the signals in order, the result saved
 * and read back, nothing running at the end. */
static void
test_run (void)
{
  g_autofree char *results = nsc_session_results_dir ();
  Events e = { 0 };

  run_tiny (&e, FALSE, FALSE);
  g_assert_true (e.success);
  g_assert_false (e.cancelled);
  g_assert_cmpuint (e.step_started, ==, 3);
  g_assert_cmpuint (e.step_finished, ==, 3);
  g_assert_cmpuint (e.live_charts, >=, 3);
  /* Timed tests over time; the region read once, against the place on the drive. */
  g_assert_true (e.live_kinds & (1u << NSC_CHART_TIME));
  g_assert_true (e.live_kinds & (1u << NSC_CHART_POSITION));
  g_assert_cmpuint (e.samples, >, 0);
  g_assert_cmpuint (e.live_samples, >, 0);
  g_assert_cmpuint (e.progress, >, 0);
  g_assert_true (e.has_result);
  g_assert_nonnull (e.saved);
  g_assert_true (g_str_has_prefix (e.saved, results));
  g_assert_nonnull (strstr (e.message, e.saved));
  events_clear (&e);
  g_rmdir (results);
}

/* Cancel is immediate, and closing is a cancel that closes the window after. */
static void
test_cancel (void)
{
  g_autofree char *results = nsc_session_results_dir ();
  Events e = { 0 };

  for (guint close = 0; close < 2; close++)
    {
      run_tiny (&e, !close, close);
      g_assert_true (e.cancelled);
      g_assert_false (e.success);
      events_clear (&e);
    }
  g_rmdir (results);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *data = g_dir_make_tmp ("nsc-run-control-data-XXXXXX", NULL);
  int status;

  /* The results folder of this test, before GLib reads the variable. */
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/run-control/time-left", test_time_left);
  g_test_add_func ("/nsc/run-control/captured-drive", test_captured_drive);
  g_test_add_func ("/nsc/run-control/run", test_run);
  g_test_add_func ("/nsc/run-control/cancel", test_cancel);
  status = g_test_run ();
  {
    g_autofree char *nandscope = g_build_filename (data, "nandscope", NULL);
    g_rmdir (nandscope);
  }
  g_rmdir (data);
  return status;
}

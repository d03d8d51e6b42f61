/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <unistd.h>

#include "nsc-chart.h"
#include "nsc-result-info.h"
#include "nsc-run-control.h"
#include "nsc-session.h"
#include "nsc-udisks.h"

/* A run's state, from Run to the saved result: see nsc-run-control.h. */
struct _NscRunControl
{
  GObject          parent_instance;

  /* Between Run and the runner: the erase confirmation, then UDisks2 and polkit */
  gboolean         pending;
  gboolean         confirming;      /* ::confirm asked, not yet answered */
  NscPreset       *pending_preset;  /* a copy: what the window chose may go while the
                                     * user is asked */
  gboolean         pending_destroy;
  gboolean         captured;
  char            *target;
  char            *device_name;

  /* While a run is in progress */
  NscRunner       *runner;
  NscSession      *session;         /* the run's options, drive and bench: from Run to the
                                     * next Run (the temperature hook reads its drive) */
  GCancellable    *cancellable;
  gboolean         close_when_done;
  guint            current_step;    /* G_MAXUINT before the first step */
  guint            current_run;
  guint            run_runs;
  gboolean         measuring;       /* samples arrive for the current step */
  guint            warnings_shown;

  /* The live chart */
  guint            chart_step;      /* its step and run */
  guint            chart_run;
  NscChartKind     chart_kind;      /* the step's: write-fill, position or time */
  char            *chart_title;
  int              chart_phase;     /* -1, or the NscStatusKind of the write between the
                                     * tests it shows */
  guint            chart_samples;   /* fed to live charts during this run */
  guint            chart_steps;     /* steps that had a live chart */
};

G_DEFINE_FINAL_TYPE (NscRunControl, nsc_run_control, G_TYPE_OBJECT)

enum {
  SIGNAL_CONFIRM,
  SIGNAL_OPENING,
  SIGNAL_STARTED,
  SIGNAL_STEP_STARTED,
  SIGNAL_SAMPLE,
  SIGNAL_STEP_FINISHED,
  SIGNAL_WARNING,
  SIGNAL_LIVE_CHART,
  SIGNAL_LIVE_RESTART,
  SIGNAL_LIVE_SAMPLE,
  SIGNAL_PROGRESS,
  SIGNAL_FAILED,
  SIGNAL_FINISHED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

char *
nsc_run_control_format_time_left (gint64   ns,
                                  gboolean open)
{
  guint s = (guint) ((ns + 999999999) / 1000000000);

  if (open && s == 0)
    return g_strdup (_("time left: known once writing starts"));
  if (s >= 60)
    {
      guint m = (s + 59) / 60;
      if (open)
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "over %u min left", "over %u min left", m), m);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u min left", "%u min left", m), m);
    }
  if (open)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "over %u s left", "over %u s left", s), s);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u s left", "%u s left", s), s);
}

static void
emit_warnings (NscRunControl *self,
               NscRunResult  *r)
{
  for (; self->warnings_shown < r->warnings->len; self->warnings_shown++)
    g_signal_emit (self, signals[SIGNAL_WARNING], 0,
                   g_ptr_array_index (r->warnings, self->warnings_shown));
}

/* ---- runner signals ----------------------------------------------------------- */

static const NscStep *
runner_step (NscRunner *runner,
             guint      index)
{
  const NscPreset *preset = nsc_runner_get_preset (runner);

  g_assert (index < preset->steps->len);
  return &g_array_index (preset->steps, NscStep, index);
}

/* The live chart of a test: write-fill for the fills; a region read once in order
 * by one worker (the capacity check's read-back) against the place on the drive,
 * each sample's position; speed over time else. */
static NscChartKind
live_kind (const NscStep *s)
{
  if (g_str_equal (s->analysis, "write-fill"))
    return NSC_CHART_WRITE_FILL;
  if (s->job.once && s->job.pattern == NSC_PATTERN_SEQUENTIAL && s->job.read_percent == 100
      && s->job.workers <= 1)
    return NSC_CHART_POSITION;
  return NSC_CHART_TIME;
}

static void
on_step_started (NscRunner     *runner,
                 guint          step,
                 NscRunControl *self)
{
  const NscStep *s = runner_step (runner, step);

  self->current_step = step;
  self->current_run = 0;
  self->measuring = FALSE;
  g_signal_emit (self, signals[SIGNAL_STEP_STARTED], 0, s);

  /* The running step's chart, of the kind live_kind () picks. */
  if (s->kind == NSC_STEP_JOB)
    {
      char scratch[64];
      const char *label = nsc_job_get_label (&s->job, scratch, sizeof scratch);
      NscChartKind kind = live_kind (s);
      /* TRANSLATORS: "SEQ1M Q8T1 · speed over time" */
      g_autofree char *title = g_strdup_printf (_("%s · %s"), label,
                                                kind == NSC_CHART_WRITE_FILL
                                                ? _("speed against data written")
                                                : kind == NSC_CHART_POSITION
                                                /* TRANSLATORS: the live chart of a read of the
                                                 * whole drive: "Read back and check · speed
                                                 * across the drive" */
                                                ? _("speed across the drive")
                                                : _("speed over time"));

      g_signal_emit (self, signals[SIGNAL_LIVE_CHART], 0, (int) kind, title);
      self->chart_step = step;
      self->chart_run = 0;
      self->chart_steps++;
      self->chart_kind = kind;
      g_free (self->chart_title);
      self->chart_title = g_steal_pointer (&title);
      self->chart_phase = -1;
    }
}

/* A write between the tests (the test file, the data reads read, the flush past the
 * drive's cache): drawn as what it is, speed against data written, until the test's
 * own samples come. */
static void
show_phase_chart (NscRunControl   *self,
                  const NscStatus *status)
{
  g_autofree char *what = NULL;
  g_autofree char *title = NULL;

  if (self->chart_phase == (int) status->kind)
    return;
  what = nsc_status_title (status);
  /* TRANSLATORS: "Preparing the test file · speed against data written" */
  title = g_strdup_printf (_("%s · %s"), what, _("speed against data written"));
  g_signal_emit (self, signals[SIGNAL_LIVE_CHART], 0, (int) NSC_CHART_WRITE_FILL, title);
  self->chart_phase = (int) status->kind;
}

static void
live_sample (NscRunControl   *self,
             const NscSample *sample)
{
  g_signal_emit (self, signals[SIGNAL_LIVE_SAMPLE], 0, sample);
  self->chart_samples++;
}

static void
on_phase_sample (NscRunner       *runner,
                 const NscStatus *status,
                 const NscSample *sample,
                 NscRunControl   *self)
{
  show_phase_chart (self, status);
  live_sample (self, sample);
}

static void
on_sample (NscRunner       *runner,
           guint            step,
           guint            run,
           const NscSample *sample,
           NscRunControl   *self)
{
  self->current_run = run;
  self->measuring = TRUE;
  g_signal_emit (self, signals[SIGNAL_SAMPLE], 0, runner_step (runner, step), run, sample);

  /* Back from a write between the tests to the test's own chart. */
  if (step == self->chart_step && self->chart_phase >= 0)
    {
      g_signal_emit (self, signals[SIGNAL_LIVE_CHART], 0, (int) self->chart_kind, self->chart_title);
      self->chart_phase = -1;
      self->chart_run = run;
    }
  /* A new run of the step starts its chart afresh: its clock starts at zero. */
  if (step == self->chart_step && run != self->chart_run)
    {
      g_signal_emit (self, signals[SIGNAL_LIVE_RESTART], 0);
      self->chart_run = run;
    }
  if (step == self->chart_step)
    live_sample (self, sample);
}

static void
on_step_finished (NscRunner     *runner,
                  guint          step,
                  NscRunControl *self)
{
  NscRunResult *r = nsc_runner_get_result (runner);

  g_assert (r->steps->len > 0);
  g_signal_emit (self, signals[SIGNAL_STEP_FINISHED], 0,
                 g_ptr_array_index (r->steps, r->steps->len - 1));
  emit_warnings (self, r);
#ifdef __GLIBC__
  /* A finished test leaves free memory behind in the malloc arenas of its threads
   * and in the live chart's, which glibc keeps mapped: hand it back, so that
   * the app's resident memory does not creep up test after test. */
  malloc_trim (0);
#endif
}

/* While I/O is measured the line names the test in our words; in between
 * (preparing, filling, idling) it says the runner's own status. */
static char *
progress_text (NscRunControl   *self,
               const NscStatus *status)
{
  const NscStep *step;
  char scratch[64];
  const char *label;
  const char *what;
  g_autofree char *bytes = NULL;
  char *text;

  if (!self->measuring)
    return nsc_status_describe (status);

  step = runner_step (self->runner, self->current_step);
  label = nsc_job_get_label (&step->job, scratch, sizeof scratch);
  what = nsc_job_has_reads (&step->job)
         ? (nsc_job_has_writes (&step->job) ? _("reading and writing")
                                            : _("reading"))
         : _("writing");
  bytes = status->kind == NSC_STATUS_TEST ? nsc_status_describe_bytes (status) : NULL;

  if (self->run_runs > 1)
    /* TRANSLATORS: "SEQ1M Q8T1 · reading · run 2 of 3" */
    text = g_strdup_printf (_("%s · %s · run %u of %u"), label, what,
                            self->current_run + 1, self->run_runs);
  else
    /* TRANSLATORS: "SEQ1M Q8T1 · reading" */
    text = g_strdup_printf (_("%s · %s"), label, what);
  /* A write bounded by bytes (a write-fill) says how far it is. */
  if (bytes)
    {
      char *with = g_strdup_printf (_("%s · %s"), text, bytes);

      g_free (text);
      text = with;
    }
  return text;
}

static void
on_progress (NscRunner       *runner,
             double           fraction,
             gint64           remaining_ns,
             const NscStatus *status,
             NscRunControl   *self)
{
  g_autofree char *left = nsc_run_control_format_time_left (remaining_ns, status->time_left_open);
  g_autofree char *text = progress_text (self, status);

  /* A write between the tests has its chart from its start, not the next test's. */
  if (!self->measuring && status->bytes_total > 0 && status->kind != NSC_STATUS_TEST
      && status->kind != NSC_STATUS_SURFACE_POINT)
    show_phase_chart (self, status);
  /* The file is prepared before the first step; that part has no estimate. */
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0,
                 self->current_step == G_MAXUINT ? -1.0 : fraction, text, left);
}

/* ---- finishing a run ------------------------------------------------------------ */

static guint
count_measured_steps (NscRunResult *r)
{
  guint n = 0;

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *sr = g_ptr_array_index (r->steps, i);
      if (sr->step.kind == NSC_STEP_JOB && sr->runs->len > 0)
        n++;
    }
  return n;
}

/* The engine says what is wrong; where the way out is the app's own (consent comes
 * from its dialog, privilege from UDisks2 asking through polkit), it is said here. */
char *
nsc_run_control_error_text (const GError *error)
{
  if (g_error_matches (error, NSC_ERROR, NSC_ERROR_NOT_AGREED))
    return g_strdup_printf (_("%s; start the test again and confirm in the dialog that its "
                              "data may be destroyed"), error->message);
  if (g_error_matches (error, NSC_ERROR, NSC_ERROR_NEEDS_ROOT))
    return g_strdup_printf (_("%s; start the test again and allow access when the system "
                              "asks, or choose a test folder"), error->message);
  return g_strdup (error->message);
}

static void
on_run_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(NscRunControl) self = user_data;
  NscRunner *runner = NSC_RUNNER (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) save_error = NULL;
  g_autoptr(GError) load_error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *message = NULL;
  NscRunOutcome outcome = { 0 };
  NscRunResult *r;
  gboolean ok;

  ok = nsc_runner_run_finish (runner, result, &error);
  r = nsc_runner_get_result (runner);

  /* Kept even when the window is gone: a measurement is worth its file. */
  if (count_measured_steps (r) > 0)
    {
      /* The drive's facts, the test bench and their warnings, as the command line's. */
      nsc_session_finish (self->session, r);
      saved = nsc_session_save (r, NULL, &save_error);
    }

  emit_warnings (self, r);
  /* For the GUI test: the live chart was fed. */
  g_debug ("Live chart: %u samples in %u steps", self->chart_samples, self->chart_steps);
  /* The result just run, read back from the file as the history would (so what is
   * shown is what was saved). A run that failed before measuring anything (a target
   * that does not exist) has none. */
  if (saved != NULL)
    node = nsc_result_file_load (saved, &load_error);
  if (node == NULL && count_measured_steps (r) > 0)
    node = nsc_run_result_to_json (r);
  if (load_error != NULL)
    g_warning ("The result just saved does not read back: %s", load_error->message);

  if (save_error != NULL)
    message = g_strdup (save_error->message);
  else if (error != NULL)
    message = nsc_run_control_error_text (error);
  else if (saved != NULL)
    message = g_strdup_printf (_("Result saved to %s"), saved);

  outcome.success = ok && save_error == NULL;
  outcome.cancelled = g_error_matches (error, NSC_ERROR, NSC_ERROR_CANCELLED);
  outcome.error = error;
  outcome.save_error = save_error;
  outcome.saved = saved;
  outcome.result = node;
  outcome.message = message;

  g_clear_object (&self->runner);
  g_clear_object (&self->cancellable);
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0, &outcome);
}

/* ---- starting and cancelling --------------------------------------------------- */

/* Takes @device_fd (or -1) over. */
static void
start_runner (NscRunControl   *self,
              const NscPreset *preset,
              int              device_fd,
              gboolean         destroy)
{
  g_autofree char *left = NULL;

  g_assert (self->runner == NULL);
  g_assert (self->session != NULL);
  /* Consent was checked when the user confirmed (nsc_session_check_consent). */
  g_assert (!destroy || self->session->options.destroy_data != NULL);

  self->session->options.device_fd = device_fd;   /* -1: none; 0 would be a descriptor */
  self->runner = nsc_runner_new (preset, &self->session->options);
  /* The runner took the descriptor over. */
  self->session->options.device_fd = -1;
  if (self->cancellable == NULL)
    self->cancellable = g_cancellable_new ();
  self->current_step = G_MAXUINT;
  self->current_run = 0;
  self->measuring = FALSE;
  self->warnings_shown = 0;
  self->chart_step = G_MAXUINT;
  self->chart_phase = -1;
  self->chart_samples = self->chart_steps = 0;

  g_signal_connect_object (self->runner, "step-started", G_CALLBACK (on_step_started), self, 0);
  g_signal_connect_object (self->runner, "sample", G_CALLBACK (on_sample), self, 0);
  g_signal_connect_object (self->runner, "phase-sample", G_CALLBACK (on_phase_sample), self, 0);
  g_signal_connect_object (self->runner, "step-finished", G_CALLBACK (on_step_finished), self, 0);
  g_signal_connect_object (self->runner, "progress", G_CALLBACK (on_progress), self, 0);

  /* Writes bounded by bytes come on top, at a speed the run tells. */
  left = nsc_run_control_format_time_left (nsc_runner_get_estimate_ns (self->runner), TRUE);
  g_signal_emit (self, signals[SIGNAL_STARTED], 0, preset, left);

  nsc_session_begin (self->session);
  nsc_runner_run_async (self->runner, self->cancellable, on_run_done, g_object_ref (self));
}

/* The run ends before the runner started: refused, not confirmed, not opened. */
static void
fail_before_run (NscRunControl *self,
                 const char    *message,
                 gboolean       cancelled)
{
  /* Whoever listens may let go of the last reference. */
  g_autoptr(NscRunControl) hold = g_object_ref (self);

  self->pending = FALSE;
  self->confirming = FALSE;
  g_clear_pointer (&self->pending_preset, nsc_preset_free);
  g_clear_object (&self->cancellable);
  g_signal_emit (self, signals[SIGNAL_FAILED], 0, message, cancelled);
}

static void
on_device_opened (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(NscRunControl) self = user_data;
  g_autoptr(GError) error = NULL;
  int fd = nsc_udisks_open_device_finish (result, &error);
  g_autoptr(NscPreset) preset = NULL;

  if (fd < 0)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fail_before_run (self, _("Cancelled before the drive was opened"), TRUE);
      else
        fail_before_run (self, error->message, FALSE);
      return;
    }
  /* Cancelled after UDisks2 answered: the exclusive descriptor would keep the drive
   * busy for as long as the app runs. */
  if (self->close_when_done || self->cancellable == NULL
      || g_cancellable_is_cancelled (self->cancellable))
    {
      close (fd);
      fail_before_run (self, _("Cancelled before the drive was opened"), TRUE);
      return;
    }

  self->pending = FALSE;
  /* The runner copies it. */
  preset = g_steal_pointer (&self->pending_preset);
  start_runner (self, preset, fd, self->pending_destroy);
}

/* UDisks2 opens the drive, after polkit asked the user. */
static void
open_device (NscRunControl *self)
{
  g_autofree char *status = NULL;

  status = g_strdup_printf (_("Asking for permission to open %s…"), self->device_name);
  self->cancellable = g_cancellable_new ();
  g_signal_emit (self, signals[SIGNAL_OPENING], 0, status);

  nsc_udisks_open_device_async (self->target, self->pending_destroy, self->cancellable,
                                on_device_opened, g_object_ref (self));
}

static const char *
captured_message (void)
{
  return _("The drive list comes from NANDSCOPE_SYSFS_ROOT, a captured "
           "tree; its drives are shown, never opened");
}

void
nsc_run_control_confirm (NscRunControl *self,
                         gboolean       erase)
{
  g_return_if_fail (NSC_IS_RUN_CONTROL (self));

  if (!self->confirming)
    return;
  self->confirming = FALSE;
  if (erase && self->captured)
    fail_before_run (self, captured_message (), FALSE);
  else if (erase)
    {
      g_autoptr(GError) error = NULL;

      /* The user agreed to destroy the target: the mount table again, now. */
      if (!nsc_session_check_consent (self->session, self->target, &error))
        fail_before_run (self, error->message, FALSE);
      else
        open_device (self);
    }
  else
    fail_before_run (self, _("Not confirmed; nothing was written"), TRUE);
}

static void
confirm (NscRunControl   *self,
         const NscPreset *preset)
{
  self->confirming = TRUE;
  g_signal_emit (self, signals[SIGNAL_CONFIRM], 0, preset);
}

void
nsc_run_control_run (NscRunControl       *self,
                     const NscRunRequest *request)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (NSC_IS_RUN_CONTROL (self));
  g_return_if_fail (request != NULL && request->preset != NULL && request->target != NULL);

  if (nsc_run_control_get_busy (self))
    return;

  g_clear_pointer (&self->session, nsc_session_free);
  /* The history read in its thread gave the cache; until it has, the session reads it. */
  self->session = nsc_session_new_full (request->target, request->options, request->history_read);
  g_free (self->target);
  self->target = g_strdup (request->target);
  self->run_runs = request->runs;
  self->close_when_done = FALSE;

  if (request->device == NULL)
    {
      start_runner (self, request->preset, -1, FALSE);
      return;
    }

  g_free (self->device_name);
  self->device_name = g_strdup (request->device->name);
  self->captured = request->captured;
  self->pending = TRUE;
  g_clear_pointer (&self->pending_preset, nsc_preset_free);
  self->pending_preset = nsc_preset_copy (request->preset);
  self->pending_destroy = request->destroy;

  if (self->captured)
    {
      if (self->pending_destroy)
        confirm (self, request->preset);
      else
        fail_before_run (self, captured_message (), FALSE);
      return;
    }

  if (request->refusal != NULL)
    {
      fail_before_run (self, request->refusal, FALSE);
      return;
    }

  if (self->pending_destroy)
    {
      /* The mount table now, not when the list was made. */
      if (!nsc_session_check_in_use (self->session, &error))
        {
          fail_before_run (self, error->message, FALSE);
          return;
        }
      confirm (self, request->preset);
      return;
    }

  open_device (self);
}

gboolean
nsc_run_control_cancel (NscRunControl *self)
{
  g_return_val_if_fail (NSC_IS_RUN_CONTROL (self), FALSE);

  if (self->cancellable == NULL)
    return FALSE;
  g_cancellable_cancel (self->cancellable);
  return TRUE;
}

gboolean
nsc_run_control_close (NscRunControl *self)
{
  g_return_val_if_fail (NSC_IS_RUN_CONTROL (self), FALSE);

  /* The question goes with the window: nothing was written. */
  if (self->confirming)
    {
      self->confirming = FALSE;
      self->pending = FALSE;
      g_clear_pointer (&self->pending_preset, nsc_preset_free);
    }
  if (!nsc_run_control_get_busy (self))
    return FALSE;
  /* The test file must be deleted and the result saved first. */
  self->close_when_done = TRUE;
  g_cancellable_cancel (self->cancellable);
  return TRUE;
}

gboolean
nsc_run_control_get_close_when_done (NscRunControl *self)
{
  g_return_val_if_fail (NSC_IS_RUN_CONTROL (self), FALSE);
  return self->close_when_done;
}

gboolean
nsc_run_control_get_busy (NscRunControl *self)
{
  g_return_val_if_fail (NSC_IS_RUN_CONTROL (self), FALSE);
  return self->runner != NULL || self->pending;
}

guint
nsc_run_control_get_steps_done (NscRunControl *self)
{
  g_return_val_if_fail (NSC_IS_RUN_CONTROL (self), 0);
  return self->runner != NULL ? nsc_runner_get_result (self->runner)->steps->len : 0;
}

guint
nsc_run_control_get_live_samples (NscRunControl *self)
{
  g_return_val_if_fail (NSC_IS_RUN_CONTROL (self), 0);
  return self->runner != NULL ? self->chart_samples : 0;
}

/* ---- GObject ------------------------------------------------------------------ */

static void
nsc_run_control_dispose (GObject *object)
{
  NscRunControl *self = NSC_RUN_CONTROL (object);

  /* Only an idle control is disposed: a run holds a reference until it ended. */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->runner);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (nsc_run_control_parent_class)->dispose (object);
}

static void
nsc_run_control_finalize (GObject *object)
{
  NscRunControl *self = NSC_RUN_CONTROL (object);

  g_clear_pointer (&self->session, nsc_session_free);
  g_clear_pointer (&self->pending_preset, nsc_preset_free);
  g_clear_pointer (&self->target, g_free);
  g_clear_pointer (&self->device_name, g_free);
  g_clear_pointer (&self->chart_title, g_free);

  G_OBJECT_CLASS (nsc_run_control_parent_class)->finalize (object);
}

static void
nsc_run_control_class_init (NscRunControlClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GType type = G_TYPE_FROM_CLASS (klass);

  object_class->dispose = nsc_run_control_dispose;
  object_class->finalize = nsc_run_control_finalize;

  signals[SIGNAL_CONFIRM] =
    g_signal_new ("confirm", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_OPENING] =
    g_signal_new ("opening", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_STARTED] =
    g_signal_new ("started", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_POINTER, G_TYPE_STRING);
  signals[SIGNAL_STEP_STARTED] =
    g_signal_new ("step-started", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_SAMPLE] =
    g_signal_new ("sample", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_POINTER, G_TYPE_UINT, G_TYPE_POINTER);
  signals[SIGNAL_STEP_FINISHED] =
    g_signal_new ("step-finished", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_WARNING] =
    g_signal_new ("warning", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_LIVE_CHART] =
    g_signal_new ("live-chart", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_STRING);
  signals[SIGNAL_LIVE_RESTART] =
    g_signal_new ("live-restart", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  signals[SIGNAL_LIVE_SAMPLE] =
    g_signal_new ("live-sample", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);
  signals[SIGNAL_PROGRESS] =
    g_signal_new ("progress", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, G_TYPE_DOUBLE, G_TYPE_STRING, G_TYPE_STRING);
  signals[SIGNAL_FAILED] =
    g_signal_new ("failed", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_BOOLEAN);
  signals[SIGNAL_FINISHED] =
    g_signal_new ("finished", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);
}

static void
nsc_run_control_init (NscRunControl *self)
{
  self->current_step = G_MAXUINT;
  self->chart_step = G_MAXUINT;
  self->chart_phase = -1;
}

NscRunControl *
nsc_run_control_new (void)
{
  return g_object_new (NSC_TYPE_RUN_CONTROL, NULL);
}

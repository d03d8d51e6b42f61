/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "nsc-analysis.h"
#include "nsc-copy.h"
#include "nsc-error.h"
#include "nsc-probe.h"
#include "nsc-run-analysis.h"
#include "nsc-runner.h"
#include "nsc-units.h"
#include "nsc-write-budget.h"

/* The pace the progress bar assumes for writes bounded by bytes until one is
 * measured: what most SSDs keep after their cache. */
#define ASSUMED_PACE_BPS 500e6

/* CrystalDiskMark's pause between runs. */
#define CDM_INTERVAL_NS (G_GINT64_CONSTANT (5) * 1000000000)

typedef struct
{
  gint64 start;
  gint64 end;
} IdleSpan;

typedef enum
{
  EVENT_TARGET,
  EVENT_CONDITIONS,
  EVENT_WARNING,
  EVENT_STEP_STARTED,
  EVENT_SAMPLE,
  EVENT_PHASE_SAMPLE,
  EVENT_STEP_FINISHED,
  EVENT_PROGRESS,
  EVENT_DONE,
} EventKind;

typedef struct
{
  EventKind      kind;
  guint          step;
  guint          run;
  NscSample      sample;
  NscStepResult *step_result;
  NscRunResult  *target_info;   /* EVENT_TARGET: only the target fields are set */
  NscWarning    *warning;
  double         fraction;
  gint64         remaining_ns;
  NscStatus      status;
  GError        *error;
} Event;

struct _NscRunner
{
  GObject        parent_instance;

  NscPreset     *preset;        /* a private copy; immutable while running */
  char          *target;
  char          *destroy_data;
  guint64        file_size;
  guint64        span_cap;
  guint64        history_cache;
  guint64        verify_key;    /* what this run's checked data carries (nsc-verify) */
  NscTiming      timing;       /* runs, lengths, idles, strict, CrystalDiskMark's way */
  NscSystemCacheInfo system_cache;
  int            device_fd;
  NscBackend     backend;
  gboolean       no_tmpfile;
  NscTemperatureFunc read_temperature;
  gpointer       temperature_data;
  char          *erase_method;
  gboolean       erase_first;
  guint64        leave_free;
  guint64        region_base;    /* worker: steps run in [base, size) */
  NscEraseFunc   erase;
  gpointer       erase_data;
  NscDeviceCheckFunc check_device;
  gpointer       check_data;

  NscRunResult  *result;        /* main thread only */
  GTask         *task;
  GThread       *thread;
  GCancellable  *cancellable;
  GMainContext  *context;
  gint64         started_ns;

  GMutex         lock;
  GQueue         events;
  gboolean       dispatch_queued;

  /* Worker thread only. */
  gint64        *budgets;        /* per step: its time bounded by the clock, idles included */
  gint64         step_started_ns;
  /* The time left: the steps' clock-bound time, and the bytes written at the drive's
   * pace (nsc_write_budget's), at the speed this run measured them (or the hint). */
  guint64       *paced;          /* per step */
  guint64        paced_setup;    /* before the steps: a drive state, the test file */
  gboolean       in_setup;
  gboolean       paced_planned;  /* the target is open and the bytes above known */
  NscBudgetTarget budget_target; /* the options' part, from nsc_runner_new () */
  guint          clock_step;     /* the step whose time runs, G_MAXUINT: none yet */
  gint64         clock_started_ns; /* its idle before included */
  guint64        paced_done;     /* bytes written at pace in the setup or the clock step */
  gint64         paced_ns;       /* and the time they took */
  gboolean       job_paced;      /* the job running is bounded by bytes */
  double         pace_bps;       /* 0: not known */
  gboolean       pace_measured;  /* by this run, not the hint */
  gint64         phase_started_ns;
  double         last_fraction;
  gint64         last_idle_progress_ns;
  guint          current_step;
  guint          current_run;
  NscStatus      phase_status;
  NscStepResult *current_sr;
  gint64         last_temp_ns;
  gboolean       fallback_reported;
  GArray        *idles;          /* IdleSpan: when the drive was left alone */
  guint64        written_since_quiet; /* since the last idle, erase or TRIM */
  guint64        measured_cache; /* by a write-fill earlier in this run */
  guint64        flush_bytes;    /* the group's settled control: written after its data */
  const char    *flush_source;
  gboolean       flush_capped;
  double         flush_first_bps; /* its speed at the start (the cache's), 0: unknown */
  double         flush_last_bps;  /* and at its end */
  GArray        *flush_samples;   /* NscSample, while the flush runs; else NULL */
  double         fresh_write_bps; /* the fresh reads' data, written after the idle */
  guint64        setup_bytes;    /* written before the steps; read after the join */
  guint64        fill_cache_bytes;  /* a write-fill's cache in this run, G_MAXUINT64: none yet */
  double         fill_cache_bps;
  NscStopState   stop_state;
  gboolean       stop_active;
};

G_DEFINE_FINAL_TYPE (NscRunner, nsc_runner, G_TYPE_OBJECT)

enum {
  SIGNAL_STEP_STARTED,
  SIGNAL_SAMPLE,
  SIGNAL_PHASE_SAMPLE,
  SIGNAL_STEP_FINISHED,
  SIGNAL_PROGRESS,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static void
event_free (Event *ev)
{
  if (ev->step_result)
    nsc_step_result_free (ev->step_result);
  if (ev->target_info)
    nsc_run_result_free (ev->target_info);
  g_clear_pointer (&ev->warning, nsc_warning_free);
  g_clear_error (&ev->error);
  g_free (ev);
}

static void
nsc_runner_finalize (GObject *object)
{
  NscRunner *self = NSC_RUNNER (object);
  Event *ev;

  g_assert (self->thread == NULL);

  while ((ev = g_queue_pop_head (&self->events)))
    event_free (ev);
  nsc_preset_free (self->preset);
  g_free (self->target);
  g_free (self->destroy_data);
  nsc_system_cache_info_clear (&self->system_cache);
  g_free (self->erase_method);
  if (self->device_fd >= 0)
    close (self->device_fd);  /* handed over, but never run */
  g_free (self->budgets);
  g_free (self->paced);
  g_clear_pointer (&self->idles, g_array_unref);
  g_clear_pointer (&self->result, nsc_run_result_free);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (nsc_runner_parent_class)->finalize (object);
}

static void
nsc_runner_class_init (NscRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = nsc_runner_finalize;

  signals[SIGNAL_STEP_STARTED] =
    g_signal_new ("step-started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SIGNAL_SAMPLE] =
    g_signal_new ("sample", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_POINTER);
  signals[SIGNAL_PHASE_SAMPLE] =
    g_signal_new ("phase-sample", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_POINTER, G_TYPE_POINTER);
  signals[SIGNAL_STEP_FINISHED] =
    g_signal_new ("step-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SIGNAL_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_DOUBLE, G_TYPE_INT64, G_TYPE_POINTER);
}

static void
nsc_runner_init (NscRunner *self)
{
  g_mutex_init (&self->lock);
  g_queue_init (&self->events);
  self->fill_cache_bytes = G_MAXUINT64;
  self->clock_step = G_MAXUINT;
  /* A new key each run: data an earlier check left on the drive reads as stale, so a
   * drive that drops writes cannot pass by returning it. */
  self->verify_key = nsc_mix64 ((guint64) g_get_real_time () ^ ((guint64) g_random_int () << 32)
                                ^ (guint64) (guintptr) self);
}

NscRunner *
nsc_runner_new (const NscPreset     *preset,
                const NscRunOptions *options)
{
  NscRunner *self;

  g_return_val_if_fail (preset != NULL, NULL);
  g_return_val_if_fail (options != NULL && options->target != NULL, NULL);

  self = g_object_new (NSC_TYPE_RUNNER, NULL);
  self->preset = nsc_preset_copy (preset);
  self->target = g_strdup (options->target);
  self->destroy_data = g_strdup (options->destroy_data);
  self->file_size = options->file_size ? options->file_size : preset->file_size;
  nsc_timing_init (&self->timing, preset, options);
  self->history_cache = options->cache_bytes;
  nsc_run_options_budget_target (options, &self->budget_target);
  self->pace_bps = options->write_bps_hint > 0 ? options->write_bps_hint : 0;
  nsc_system_cache_info_copy (&self->system_cache, options->system_cache);
  self->span_cap = options->span_cap;
  self->device_fd = options->device_fd;
  self->check_device = options->check_device;
  self->check_data = options->check_data;
  self->read_temperature = options->read_temperature;
  self->erase_method = g_strdup (options->erase_method ? options->erase_method : "trim");
  self->erase = options->erase;
  self->erase_first = options->erase_first;
  self->leave_free = options->leave_free;
  self->erase_data = options->erase_data;
  self->temperature_data = options->temperature_data;
  self->backend = options->backend;
  self->no_tmpfile = options->no_tmpfile;
  self->result = nsc_run_result_new ();
  self->idles = g_array_new (FALSE, FALSE, sizeof (IdleSpan));
  return self;
}

void
nsc_run_options_budget_target (const NscRunOptions *options,
                               NscBudgetTarget     *t)
{
  g_return_if_fail (options != NULL && t != NULL);

  t->runs = options->runs;
  t->time_ns = options->time_ns;
  t->default_time_ns = options->default_time_ns;
  t->time_scale = options->time_scale;
  t->span_cap = options->span_cap;
  t->strict = options->strict;
  t->leave_free = options->leave_free;
  t->cache_bytes = options->cache_bytes;
}

void
nsc_run_options_set_strict (NscRunOptions *options)
{
  g_return_if_fail (options != NULL);
  options->strict = TRUE;
  if (options->default_time_ns == 0)
    options->default_time_ns = NSC_STRICT_TIME_NS;
  if (options->span_cap == 0)
    options->span_cap = NSC_STRICT_SPAN;
}

void
nsc_run_options_set_cdm (NscRunOptions *options)
{
  g_return_if_fail (options != NULL);
  options->cdm = TRUE;
  if (options->runs == 0)
    options->runs = 5;
  if (options->default_time_ns == 0)
    options->default_time_ns = 5 * G_GINT64_CONSTANT (1000000000);
  /* Quick's two halves of 1 GiB each: CrystalDiskMark's 1 GiB test file. */
  if (options->span_cap == 0)
    options->span_cap = G_GUINT64_CONSTANT (2) << 30;
}

void
nsc_timing_init (NscTiming           *t,
                 const NscPreset     *preset,
                 const NscRunOptions *options)
{
  g_return_if_fail (t != NULL && preset != NULL && options != NULL);

  *t = (NscTiming) { 0 };
  t->runs = options->runs ? options->runs : MAX (preset->runs, 1u);
  t->runs_override = options->runs != 0;
  t->time_ns = options->time_ns ? options->time_ns : preset->time_ns;
  t->time_override = options->time_ns != 0;
  t->default_time_ns = options->default_time_ns;
  t->time_scale = options->time_scale > 0 && options->time_scale < 1 ? options->time_scale : 0;
  t->strict = options->strict;
  t->cdm = options->cdm;
  t->idle_ns = options->idle_ns;
  t->max_idle_ns = options->max_idle_ns;
}

/* How long a timed job step runs, and why: an option for every step, the step's own
 * length, a default for steps without one (strict's 40 s), or its preset's. */
gint64
nsc_timing_step_time (const NscTiming  *t,
                      const NscStep    *s,
                      const char      **source)
{
  const char *dummy;

  source = source ? source : &dummy;
  if (t->time_override)
    return *source = "option", t->time_ns;
  if (s->time_is_set)
    return *source = "own", s->job.time_ns;
  if (t->default_time_ns)
    return *source = t->strict ? "strict" : "default", t->default_time_ns;
  *source = "preset";
  return s->group_time_ns ? s->group_time_ns : t->time_ns;
}

gint64
nsc_timing_step_run_time (const NscTiming *t,
                          const NscStep   *s)
{
  gint64 planned = nsc_timing_step_time (t, s, NULL);

  return t->time_scale > 0 ? MAX ((gint64) (planned * t->time_scale), (gint64) 1000000) : planned;
}

guint
nsc_timing_step_runs (const NscTiming *t,
                      const NscStep   *s)
{
  return t->runs_override || s->group_runs == 0 ? t->runs : s->group_runs;
}

gint64
nsc_timing_cut_idle (const NscTiming *t,
                     gint64           ns)
{
  return t->max_idle_ns ? MIN (ns, t->max_idle_ns) : ns;
}

guint64
nsc_step_block_size (const NscStep *s,
                     guint          align)
{
  g_return_val_if_fail (s != NULL, 0);
  return s->min_block && align > 0 ? MAX (align, 512u) : s->job.block_size;
}

gboolean
nsc_step_skipped_on (const NscStep *s,
                     guint          align)
{
  g_return_val_if_fail (s != NULL, FALSE);
  return s->kind == NSC_STEP_JOB && s->skip_unaligned && align > 0
         && nsc_step_block_size (s, align) % align != 0;
}

gint64
nsc_timing_step_budget_ns (const NscTiming *t,
                           const NscStep   *s)
{
  if (nsc_step_skipped_on (s, t->dio_align))
    return 0;
  if (s->kind == NSC_STEP_IDLE)
    return nsc_timing_cut_idle (t, s->idle_ns);
  if (s->kind == NSC_STEP_JOB && (s->time_is_set ? s->job.time_ns > 0 : (!s->job.bytes && !s->job.once)))
    return nsc_duration_mul (nsc_duration_add (nsc_timing_step_run_time (t, s), s->job.ramp_ns),
                             nsc_timing_step_runs (t, s));
  if (s->kind == NSC_STEP_SURFACE && s->job.time_ns > 0 && !s->job.bytes)
    return nsc_duration_mul (s->job.time_ns, s->points);
  return 0;
}

gint64
nsc_timing_step_total_ns (const NscTiming *t,
                          const NscPreset *preset,
                          guint            index)
{
  const NscStep *s;
  gboolean head, first_job = TRUE;
  gint64 total = 0;

  g_return_val_if_fail (t != NULL && preset != NULL && index < preset->steps->len, 0);

  s = &g_array_index (preset->steps, NscStep, index);
  head = index == 0 || s->group != g_array_index (preset->steps, NscStep, index - 1).group;
  for (guint j = 0; j < index && first_job; j++)
    first_job = g_array_index (preset->steps, NscStep, j).kind != NSC_STEP_JOB;

  /* Where a preset starts: strict's idle, or the preset's settle. */
  if (head && t->strict && !s->no_strict)
    total = nsc_duration_add (total, nsc_timing_cut_idle (t, NSC_STRICT_IDLE_NS));
  else if (head && s->group_settle_ns > 0)
    total = nsc_duration_add (total, nsc_timing_cut_idle (t, s->group_settle_ns));
  if (s->kind == NSC_STEP_JOB)
    {
      guint runs = nsc_timing_step_runs (t, s);

      if (!first_job && t->idle_ns > 0 && !s->no_strict)
        total = nsc_duration_add (total, t->idle_ns);
      if (t->cdm && runs > 1)
        total = nsc_duration_add (total, nsc_duration_mul (nsc_timing_cut_idle (t, CDM_INTERVAL_NS), runs - 1));
    }
  return nsc_duration_add (total, nsc_timing_step_budget_ns (t, s));
}

gint64
nsc_timing_estimate_ns (const NscTiming *t,
                        const NscPreset *preset)
{
  gint64 total = 0;

  g_return_val_if_fail (t != NULL && preset != NULL, 0);

  for (guint i = 0; i < preset->steps->len; i++)
    total = nsc_duration_add (total, nsc_timing_step_total_ns (t, preset, i));
  return total;
}

/* The runner's timing: the planned length of a timed job step, scaled. */
static gint64
step_time (NscRunner     *self,
           const NscStep *s,
           const char   **source)
{
  if (source)
    nsc_timing_step_time (&self->timing, s, source);
  return nsc_timing_step_run_time (&self->timing, s);
}

static gint64
step_time_planned (NscRunner     *self,
                   const NscStep *s,
                   const char   **source)
{
  return nsc_timing_step_time (&self->timing, s, source);
}

static guint
step_runs (NscRunner     *self,
           const NscStep *s)
{
  return nsc_timing_step_runs (&self->timing, s);
}

const NscPreset *
nsc_runner_get_preset (NscRunner *self)
{
  return self->preset;
}

NscRunResult *
nsc_runner_get_result (NscRunner *self)
{
  g_return_val_if_fail (NSC_IS_RUNNER (self), NULL);
  return self->result;
}

gint64
nsc_runner_get_estimate_ns (NscRunner *self)
{
  return nsc_timing_estimate_ns (&self->timing, self->preset);
}

/* ---- main-thread side ----------------------------------------------------- */

static void
take_target_info (NscRunResult *into,
                  NscRunResult *from)
{
#define MOVE(f) do { g_free (into->f); into->f = g_steal_pointer (&from->f); } while (0)
  MOVE (target_kind);
  MOVE (target_description);
  MOVE (filesystem);
  MOVE (caveat);
#undef MOVE
  into->target_size = from->target_size;
  into->logical_block_size = from->logical_block_size;
  into->dio_align = from->dio_align;
  into->used_tmpfile = from->used_tmpfile;
}

static gboolean
dispatch_events (gpointer data)
{
  NscRunner *self = data;
  GQueue batch = G_QUEUE_INIT;
  Event *ev;

  g_mutex_lock (&self->lock);
  batch = self->events;
  g_queue_init (&self->events);
  self->dispatch_queued = FALSE;
  g_mutex_unlock (&self->lock);

  while ((ev = g_queue_pop_head (&batch)))
    {
      switch (ev->kind)
        {
        case EVENT_TARGET:
          take_target_info (self->result, ev->target_info);
          break;
        case EVENT_CONDITIONS:
          if (ev->target_info->precondition)
            {
              g_free (self->result->precondition);
              self->result->precondition = g_steal_pointer (&ev->target_info->precondition);
            }
          if (ev->target_info->strict_idle_ns)
            self->result->strict_idle_ns = ev->target_info->strict_idle_ns;
          break;
        case EVENT_WARNING:
          g_ptr_array_add (self->result->warnings, g_steal_pointer (&ev->warning));
          break;
        case EVENT_STEP_STARTED:
          g_signal_emit (self, signals[SIGNAL_STEP_STARTED], 0, ev->step);
          break;
        case EVENT_SAMPLE:
          g_signal_emit (self, signals[SIGNAL_SAMPLE], 0, ev->step, ev->run, &ev->sample);
          break;
        case EVENT_PHASE_SAMPLE:
          g_signal_emit (self, signals[SIGNAL_PHASE_SAMPLE], 0, &ev->status, &ev->sample);
          break;
        case EVENT_STEP_FINISHED:
          g_ptr_array_add (self->result->steps, g_steal_pointer (&ev->step_result));
          g_signal_emit (self, signals[SIGNAL_STEP_FINISHED], 0, ev->step);
          break;
        case EVENT_PROGRESS:
          g_signal_emit (self, signals[SIGNAL_PROGRESS], 0, ev->fraction, ev->remaining_ns,
                         &ev->status);
          break;
        case EVENT_DONE:
          {
            GTask *task = g_steal_pointer (&self->task);

            g_thread_join (g_steal_pointer (&self->thread));
            self->result->setup_bytes_written = self->setup_bytes;
            self->result->duration_ns = nsc_now_ns () - self->started_ns;
            self->result->cancelled = g_cancellable_is_cancelled (self->cancellable);
            /* Partial runs too: what was measured is analysed for what it is. */
            nsc_run_result_analyze (self->result);
            if (ev->error)
              {
                if (!g_error_matches (ev->error, NSC_ERROR, NSC_ERROR_CANCELLED))
                  self->result->error = g_strdup (ev->error->message);
                g_task_return_error (task, g_steal_pointer (&ev->error));
              }
            else
              g_task_return_boolean (task, TRUE);
            g_object_unref (task);
          }
          break;
        default:
          g_assert_not_reached ();
        }
      event_free (ev);
    }

  return G_SOURCE_REMOVE;
}

/* ---- worker side ---------------------------------------------------------- */

static void
post (NscRunner *self,
      Event     *ev)
{
  gboolean schedule;

  g_mutex_lock (&self->lock);
  g_queue_push_tail (&self->events, ev);
  schedule = !self->dispatch_queued;
  self->dispatch_queued = TRUE;
  g_mutex_unlock (&self->lock);

  /* Always a source on the caller's context, never g_main_context_invoke(): that
   * runs the callback right here when nobody owns the context yet. */
  if (schedule)
    {
      GSource *source = g_idle_source_new ();

      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, dispatch_events, g_object_ref (self), g_object_unref);
      g_source_set_static_name (source, "[nandscope] runner events");
      g_source_attach (source, self->context);
      g_source_unref (source);
    }
}

static Event *
event_new (EventKind kind)
{
  Event *ev = g_new0 (Event, 1);
  ev->kind = kind;
  return ev;
}

/* Takes @warning, its message and fields set. */
static void
post_warning (NscRunner  *self,
              NscWarning *warning)
{
  Event *ev = event_new (EVENT_WARNING);

  ev->warning = warning;
  post (self, ev);
}

/* A warning about @test (may be NULL) of step @step, with its English message. */
static NscWarning *
warning_new (int            step,
             NscWarningKind kind,
             const char    *test,
             const char    *format,
             ...) G_GNUC_PRINTF (4, 5);

static NscWarning *
warning_new (int            step,
             NscWarningKind kind,
             const char    *test,
             const char    *format,
             ...)
{
  NscWarning *w = nsc_warning_new (kind, step);
  va_list args;

  w->test = g_strdup (test);
  va_start (args, format);
  w->message = g_strdup_vprintf (format, args);
  va_end (args);
  return w;
}

/* What is left of the run: the clock-bound time of the steps not finished (of the
 * running one, what its clock has not used: the time it spent writing at the drive's
 * pace is not its clock's), and the bytes still to write at that pace, at the speed
 * measured so far. With bytes left and no speed known, the time is what is known
 * only (@open). */
static gint64
time_left (NscRunner *self,
           gboolean  *open,
           gint64    *for_bar)
{
  const GArray *steps = self->preset->steps;
  gint64 left = 0;
  guint64 bytes = 0;
  guint first = self->clock_step == G_MAXUINT ? 0 : self->clock_step;

  /* Before the steps, the phase running may be one the plan does not know yet (a
   * folder's drive state is written before the target opens). */
  if (self->in_setup)
    {
      const NscStatus *st = &self->phase_status;
      guint64 phase = st->bytes_total > st->bytes_done ? st->bytes_total - st->bytes_done : 0;

      bytes += MAX (self->paced_setup > self->paced_done ? self->paced_setup - self->paced_done : 0,
                    phase);
    }
  for (guint i = first; i < steps->len; i++)
    {
      gint64 ns = self->budgets[i];
      guint64 b = self->paced[i];

      if (i == self->clock_step)
        {
          gint64 used = nsc_now_ns () - self->clock_started_ns - self->paced_ns;

          ns = MAX (ns - MAX (used, (gint64) 0), (gint64) 0);
          b = b > self->paced_done ? b - self->paced_done : 0;
        }
      left = nsc_duration_add (left, ns);
      bytes += b;
    }
  *open = !self->paced_planned || (bytes > 0 && self->pace_bps <= 0);
  /* The bar moves on a pace most SSDs keep after their cache where nothing measured
   * one yet; the time said stays what is known. */
  *for_bar = nsc_duration_add (left, (gint64) ((double) bytes / (self->pace_bps > 0 ? self->pace_bps
                                                                                   : ASSUMED_PACE_BPS) * 1e9));
  if (bytes > 0 && self->pace_bps > 0)
    left = *for_bar;
  return left;
}

static void
post_progress (NscRunner       *self,
               const NscStatus *status)
{
  Event *ev = event_new (EVENT_PROGRESS);
  gint64 elapsed = nsc_now_ns () - self->started_ns;
  gboolean open = FALSE;

  gint64 bar = 0;

  ev->remaining_ns = self->budgets ? time_left (self, &open, &bar) : 0;
  /* The share of the run's time gone, never back: a slower speed than thought
   * stretches what is left, it does not undo what was done. */
  if (elapsed + bar > 0)
    self->last_fraction = MAX (self->last_fraction,
                               CLAMP ((double) elapsed / (double) (elapsed + bar), 0.0, 1.0));
  ev->fraction = self->last_fraction;
  ev->status = *status;
  ev->status.time_left_open = open;
  post (self, ev);
}

/* A sample of a write bounded by bytes: its speed is what the time left of such
 * writes is reckoned at, weighted over the last few seconds. */
static void
note_paced (NscRunner       *self,
            const NscSample *sample)
{
  guint64 bytes = sample->bytes[NSC_DIR_WRITE];

  self->paced_done += bytes;
  self->phase_status.bytes_done += bytes;
  if (sample->duration_ns <= 0)
    return;
  self->paced_ns += sample->duration_ns;
  if (bytes > 0)
    {
      double bps = bytes * 1e9 / sample->duration_ns;
      double keep = exp (-(double) sample->duration_ns / 3e9);

      self->pace_bps = self->pace_bps > 0 && self->pace_measured ? keep * self->pace_bps + (1 - keep) * bps
                                                                 : bps;
      self->pace_measured = TRUE;
    }
}

/* Sleeps, but wakes at once on cancel. */
static gboolean
idle_wait (NscRunner *self,
           gint64     ns)
{
  GPollFD pfd;
  gint64 end = nsc_now_ns () + ns;
  gboolean have_fd = g_cancellable_make_pollfd (self->cancellable, &pfd);

  while (!g_cancellable_is_cancelled (self->cancellable))
    {
      gint64 left = end - nsc_now_ns ();

      if (left <= 0)
        break;
      if (have_fd)
        g_poll (&pfd, 1, (int) MIN (left / 1000000 + 1, 250));
      else
        g_usleep (MIN (left / 1000 + 1, 50000));
      /* The time left counts down through a pause too. */
      if (nsc_now_ns () - self->last_idle_progress_ns >= 500 * G_GINT64_CONSTANT (1000000))
        {
          self->last_idle_progress_ns = nsc_now_ns ();
          post_progress (self, &self->phase_status);
        }
    }
  if (have_fd)
    g_cancellable_release_fd (self->cancellable);
  return !g_cancellable_is_cancelled (self->cancellable);
}

/* An idle the drive gets: recorded, so that a read knows how long its data settled,
 * and a write how much was written since the drive last rested. */
static gboolean
rest (NscRunner *self,
      gint64     ns)
{
  IdleSpan span;
  gboolean ok;

  span.start = nsc_now_ns ();
  ok = idle_wait (self, ns);
  span.end = nsc_now_ns ();
  g_array_append_val (self->idles, span);
  self->written_since_quiet = 0;
  return ok;
}

/* Idle time since @since (monotonic ns). */
static gint64
idle_since (NscRunner *self,
            gint64     since)
{
  gint64 total = 0;

  for (guint i = 0; i < self->idles->len; i++)
    {
      IdleSpan *sp = &g_array_index (self->idles, IdleSpan, i);
      gint64 start = MAX (sp->start, since);

      if (sp->end > start)
        total += sp->end - start;
    }
  return total;
}

static gboolean
step_writes (const NscStep *s)
{
  return s->kind == NSC_STEP_FILL || s->kind == NSC_STEP_TRIM || s->kind == NSC_STEP_ERASE
      || s->kind == NSC_STEP_COPY || s->kind == NSC_STEP_PROBE
      || ((s->kind == NSC_STEP_JOB || s->kind == NSC_STEP_SURFACE) && nsc_job_has_writes (&s->job));
}

static gboolean
step_reads (const NscStep *s)
{
  return (s->kind == NSC_STEP_JOB || s->kind == NSC_STEP_SURFACE) && nsc_job_has_reads (&s->job);
}

gboolean
nsc_preset_only_probes (const NscPreset *preset)
{
  for (guint i = 0; i < preset->steps->len; i++)
    if (g_array_index (preset->steps, NscStep, i).kind != NSC_STEP_PROBE)
      return FALSE;
  return preset->steps->len > 0;
}

gboolean
nsc_preset_writes (const NscPreset *preset)
{
  for (guint i = 0; i < preset->steps->len; i++)
    if (step_writes (&g_array_index (preset->steps, NscStep, i)))
      return TRUE;
  return FALSE;
}

/* What a read step's data should be: "settled" (written, then an idle, then read),
 * "fresh" (CrystalDiskMark's way, on purpose) or "any" (whatever the drive holds). */
static const char *
data_expected (const NscStep *s)
{
  if (!step_reads (s))
    return NULL;
  if (s->no_prefill || s->kind == NSC_STEP_SURFACE)
    return "any";
  if (g_str_equal (s->analysis, "fresh-read"))
    return "fresh";
  return "settled";
}

static gboolean
preset_reads (const NscPreset *preset)
{
  for (guint i = 0; i < preset->steps->len; i++)
    if (step_reads (&g_array_index (preset->steps, NscStep, i)))
      return TRUE;
  return FALSE;
}

static gboolean
run_writes (const NscPreset *preset,
            gboolean         erase_first,
            guint64          leave_free,
            const char      *destroy_data)
{
  return nsc_preset_writes (preset) || erase_first || leave_free > 0
         || (destroy_data != NULL && preset_reads (preset));
}

gboolean
nsc_run_writes (const NscPreset     *preset,
                const NscRunOptions *options)
{
  g_return_val_if_fail (preset != NULL && options != NULL, TRUE);
  return run_writes (preset, options->erase_first, options->leave_free, options->destroy_data);
}

static void
post_target_info (NscRunner *self,
                  NscTarget *target)
{
  Event *ev = event_new (EVENT_TARGET);
  NscRunResult *info = nsc_run_result_new ();

  info->target_kind = g_strdup (nsc_target_get_kind (target) == NSC_TARGET_FILE ? "file" : "device");
  info->target_description = g_strdup (nsc_target_get_description (target));
  info->filesystem = g_strdup (nsc_target_get_filesystem (target));
  info->caveat = g_strdup (nsc_target_get_caveat (target));
  info->target_size = nsc_target_get_size (target);
  info->logical_block_size = nsc_target_get_logical_block_size (target);
  info->dio_align = nsc_target_get_dio_offset_align (target);
  info->used_tmpfile = nsc_target_get_used_tmpfile (target);
  ev->target_info = info;
  post (self, ev);
}

/* Reads the drive's temperature at most once a second, on the runner's thread. */
static void
sample_temperature (NscRunner *self)
{
  NscTempSample ts;
  gint64 now;

  if (self->read_temperature == NULL || self->current_sr == NULL)
    return;
  now = nsc_now_ns ();
  if (self->last_temp_ns && now - self->last_temp_ns < G_GINT64_CONSTANT (1000000000))
    return;
  self->last_temp_ns = now;
  if (!self->read_temperature (self->temperature_data, &ts.celsius))
    return;
  ts.t_ns = now - self->step_started_ns;
  g_array_append_val (self->current_sr->temperature, ts);
}

static void
on_job_sample (const NscSample *sample,
               gpointer         data)
{
  NscRunner *self = data;
  Event *ev = event_new (EVENT_SAMPLE);

  ev->step = self->current_step;
  ev->run = self->current_run;
  ev->sample = *sample;
  post (self, ev);
  if (self->stop_active)
    nsc_stop_state_feed (&self->stop_state, sample);
  if (self->job_paced)
    note_paced (self, sample);
  sample_temperature (self);
  post_progress (self, &self->phase_status);
}

/* The writes between the tests (a test file, a drive state, the data reads read, the
 * flush past the cache): bounded by bytes, shown as a phase of their own. */
static void
on_fill_sample (const NscSample *sample,
                gpointer         data)
{
  NscRunner *self = data;
  Event *ev = event_new (EVENT_PHASE_SAMPLE);

  if (self->flush_samples)
    g_array_append_val (self->flush_samples, *sample);
  note_paced (self, sample);
  /* Its own clock and its own count of bytes, however many writes it takes. */
  ev->sample = *sample;
  ev->sample.position = self->phase_status.bytes_done;
  ev->sample.t_ns = nsc_now_ns () - self->phase_started_ns;
  ev->status = self->phase_status;
  post (self, ev);
  sample_temperature (self);
  post_progress (self, &self->phase_status);
}

static void
set_status_full (NscRunner       *self,
                 const NscStatus *status)
{
  self->phase_status = *status;
  self->phase_status.bytes_done = 0;
  self->phase_started_ns = nsc_now_ns ();
  post_progress (self, &self->phase_status);
}

static void
set_status (NscRunner     *self,
            NscStatusKind  kind)
{
  NscStatus status = { .kind = kind };

  set_status_full (self, &status);
}

/* A phase that writes at most @bytes at the drive's pace. */
static void
set_status_bytes (NscRunner     *self,
                  NscStatusKind  kind,
                  guint64        bytes)
{
  NscStatus status = { .kind = kind, .bytes_total = bytes };

  set_status_full (self, &status);
}

static void
set_status_test (NscRunner     *self,
                 NscStatusKind  kind,
                 const char    *label,
                 guint          index,
                 guint          count)
{
  NscStatus status = { .kind = kind, .index = index, .count = count };

  g_strlcpy (status.label, label, sizeof status.label);
  set_status_full (self, &status);
}

static void
set_status_idle (NscRunner      *self,
                 NscStatusKind   kind,
                 NscPauseReason  reason,
                 gint64          ns)
{
  NscStatus status = { .kind = kind, .reason = reason, .ns = ns };

  set_status_full (self, &status);
}

/* Why an idle step of the preset pauses: after an erase or a TRIM, the drive
 * finishes it; before a write that measures the cache, the drive may free it; else
 * it finishes what it was writing before the next test. */
static NscPauseReason
idle_reason (const GArray *steps,
             guint         index)
{
  for (guint i = index + 1; i < steps->len; i++)
    {
      const NscStep *next = &g_array_index (steps, NscStep, i);

      if (next->kind == NSC_STEP_IDLE)
        continue;
      if (next->kind == NSC_STEP_JOB && nsc_job_has_writes (&next->job)
          && (g_str_equal (next->analysis, "cache-recovery")
              || g_str_equal (next->analysis, "recovery-idle")
              || g_str_equal (next->analysis, "write-fill-second")))
        return NSC_PAUSE_RECOVERY;
      break;
    }
  if (index > 0)
    {
      const NscStep *prev = &g_array_index (steps, NscStep, index - 1);

      if (prev->kind == NSC_STEP_ERASE || prev->kind == NSC_STEP_TRIM)
        return NSC_PAUSE_AFTER_TRIM;
    }
  return NSC_PAUSE_REST;
}

gboolean
nsc_step_resolve_region (const NscStep *step,
                         guint64        block_size,
                         guint64        size,
                         guint64        span_cap,
                         guint          align,
                         const char    *description,
                         guint64       *offset,
                         guint64       *length,
                         gboolean      *clamped,
                         GError       **error)
{
  const NscJob *j = &step->job;
  guint64 off = j->region_offset, len = j->region_length, avail;
  guint64 block = block_size ? block_size : j->block_size ? j->block_size : 1;

  *clamped = FALSE;
  /* Shares are of what the run may cover: the target, or --span of it. */
  {
    guint64 basis = span_cap ? MIN (size, span_cap) : size;

    if (step->offset_pct >= 0)
      off = (guint64) (basis * step->offset_pct);
    if (step->span_pct >= 0)
      len = (guint64) (basis * step->span_pct);
    if (step->span_max && len > step->span_max)
      len = step->span_max;
  }
  off -= off % MAX (block, (guint64) MAX (align, 1u));

  if (off >= size)
    {
      nsc_error_set (error, NSC_PROBLEM_STEP_PAST_END,
                     &(NscErrorFields) { .path = description, .bytes = size });
      return FALSE;
    }
  avail = size - off;
  if (len == 0)
    len = avail;
  else if (len > avail)
    {
      len = avail;
      *clamped = TRUE;
    }
  if (span_cap && len > span_cap)
    {
      len = span_cap;
      *clamped = TRUE;
    }
  len -= len % block;
  if (len < block * (j->shared_region ? 1 : j->workers))
    {
      nsc_error_set (error, NSC_PROBLEM_STEP_TOO_SMALL, &(NscErrorFields) { .path = description });
      return FALSE;
    }
  *offset = off;
  *length = len;
  return TRUE;
}

/* Puts the step's region, block size and duration in terms of this target and these
 * options. A region larger than the target, or than --span, is clamped and says so. */
static gboolean
resolve_job (NscRunner      *self,
             NscTarget      *target,
             const NscStep  *step,
             NscJob         *job,
             NscStepResult  *sr,
             GError        **error)
{
  guint64 size = nsc_target_get_size (target) - self->region_base;
  gboolean clamped = FALSE;

  *job = step->job;
  job->verify_key = self->verify_key;
  job->block_size = nsc_step_block_size (step, nsc_target_get_dio_offset_align (target));
  if (!nsc_step_resolve_region (step, job->block_size, size, self->span_cap,
                                nsc_target_get_dio_offset_align (target),
                                nsc_target_get_description (target), &job->region_offset,
                                &job->region_length, &clamped, error))
    return FALSE;
  sr->span_clamped |= clamped;

  /* In a filled drive's state, everything happens in the part left free. */
  job->region_offset += self->region_base;

  if (step->kind == NSC_STEP_JOB)
    {
      gboolean timed = step->time_is_set ? job->time_ns > 0 : (job->bytes == 0 && !job->once);

      if (timed)
        {
          job->time_ns = step_time (self, step, &sr->time_source);
          sr->planned_time_ns = step_time_planned (self, step, NULL);
          sr->own_time_ns = step->time_is_set ? step->job.time_ns : 0;
        }
      if (job->bytes && self->span_cap && job->bytes > self->span_cap)
        job->bytes = self->span_cap;
    }
  /* A curve over data written wants a few hundred points, however small the span,
   * but a point must hold a couple of queues' worth of I/O to mean a speed. */
  if (job->sample_bytes)
    {
      guint64 amount = job->bytes ? job->bytes : job->region_length;
      guint64 queue = (guint64) job->block_size * job->queue_depth * job->workers;
      job->sample_bytes = MIN (job->sample_bytes, MAX (amount / 256, 2 * queue));
    }
  return TRUE;
}

/* How fresh is what the step reads (the SLC cache may still hold it), and whether it
 * settled as its preset means it to; a read of fresh data that should have settled
 * says so in a warning. */
static void
note_data_age (NscRunner     *self,
               NscTarget     *target,
               guint          index,
               const NscJob  *job,
               NscStepResult *sr)
{
  char scratch[64];

  sr->data_age_ns = -1;
  sr->idle_since_data_ns = -1;
  sr->data_expected = data_expected (&sr->step);
  if (!nsc_target_last_write (target, job->region_offset, job->region_length,
                              &sr->data_age_ns, &sr->bytes_written_since))
    return;
  sr->idle_since_data_ns = idle_since (self, nsc_now_ns () - sr->data_age_ns);
  if (sr->idle_since_data_ns > 0)
    sr->settled_by = "idle";
  else if (self->flush_source && g_strcmp0 (sr->data_expected, "settled") == 0
           && sr->bytes_written_since >= self->flush_bytes)
    sr->settled_by = "written-after";
  if (self->flush_source && g_strcmp0 (sr->data_expected, "settled") == 0)
    {
      sr->flush_bytes = self->flush_bytes;
      sr->flush_source = self->flush_source;
      sr->flush_capped = self->flush_capped;
      sr->flush_first_bps = self->flush_first_bps;
      sr->flush_last_bps = self->flush_last_bps;
    }
  if (self->flush_source && g_strcmp0 (sr->data_expected, "fresh") == 0)
    sr->data_written_bps = self->fresh_write_bps;
  if (g_strcmp0 (sr->data_expected, "settled") == 0 && sr->settled_by == NULL)
    {
      g_autofree char *age = nsc_format_duration (sr->data_age_ns);
      const char *label = nsc_job_get_label (job, scratch, sizeof scratch);
      NscWarning *w = warning_new ((int) index, NSC_WARNING_FRESH_READS, label,
                                   "%s reads data written %s before, with no idle since: the "
                                   "SLC cache may still hold it, and the result may be faster "
                                   "than reads of settled data", label, age);

      w->seconds = sr->data_age_ns / 1e9;
      post_warning (self, w);
    }
}

/* Reads must meet data we wrote; where we may not write, the step says so. */
static gboolean
prepare_reads (NscRunner      *self,
               NscTarget      *target,
               guint           index,
               const NscJob   *job,
               NscStepResult  *sr,
               GError        **error)
{
  char scratch[64];

  if (!nsc_job_has_reads (job) || self->backend == NSC_BACKEND_NULL)
    {
      sr->contents_verified = !nsc_job_has_reads (job);
      return TRUE;
    }
  if (nsc_target_get_writable (target))
    {
      guint64 filled = 0;
      gboolean ok;

      if (!nsc_extents_covers (nsc_target_get_written (target), job->region_offset,
                               job->region_length))
        set_status_bytes (self, NSC_STATUS_WRITING_STEP_DATA, job->region_length);
      ok = nsc_target_fill (target, job->region_offset, job->region_length, self->backend,
                            on_fill_sample, self, self->cancellable, &filled, error);

      sr->prefilled_bytes += filled;
      self->written_since_quiet += filled;
      if (!ok)
        return FALSE;
      sr->contents_verified = TRUE;
    }
  else
    {
      const char *label = nsc_job_get_label (job, scratch, sizeof scratch);
      NscWarning *w = warning_new ((int) index, NSC_WARNING_UNVERIFIED_CONTENTS, label,
                                   "%s reads blocks whose contents are unknown (the device is "
                                   "open read-only): never-written or trimmed blocks read "
                                   "faster than real data", label);

      w->subject = g_strdup ("read-only");
      post_warning (self, w);
    }

  note_data_age (self, target, index, job, sr);
  return TRUE;
}

/* ---- steps that stop when they know (nsc-budget) ---------------------------- */

static gboolean
stop_when_held (gpointer data)
{
  NscRunner *self = data;

  return self->stop_state.held;
}

/* A step with a stop rule gets its cap, scaled to the cache a write-fill measured
 * earlier in this run (else to its region), and the level its drop is measured
 * against. TRUE when the cap is below what the step would write otherwise. */
static gboolean
apply_stop_rule (NscRunner     *self,
                 const NscStep *step,
                 NscJob        *job,
                 NscStepResult *sr)
{
  guint64 bound = job->once ? job->region_length : G_MAXUINT64;
  guint64 cap, queue;

  if (!step->stop.enabled || !nsc_job_has_writes (job))
    {
      sr->step.stop.enabled = FALSE;
      return FALSE;
    }
  if (job->bytes)
    bound = MIN (bound, job->bytes);
  sr->stop_reference_bps = self->fill_cache_bytes != G_MAXUINT64 && self->fill_cache_bytes > 0
                           ? self->fill_cache_bps : 0;
  if (bound == G_MAXUINT64)
    return FALSE;
  cap = nsc_stop_rule_cap (&step->stop, self->fill_cache_bytes, bound);
  cap -= cap % job->block_size;
  sr->stop_cap_bytes = cap;
  if (cap == 0 || cap >= bound)
    return FALSE;
  job->bytes = cap;
  /* A few hundred points over what it may write, as resolve_job does for the bound. */
  queue = (guint64) job->block_size * job->queue_depth * job->workers;
  if (step->job.sample_bytes)
    job->sample_bytes = MIN (step->job.sample_bytes, MAX (cap / 256, 2 * queue));
  return TRUE;
}

static void
record_stop (NscRunner          *self,
             const NscJob       *job,
             const NscJobResult *res,
             gboolean            ok,
             gboolean            capped,
             NscStepResult      *sr)
{
  guint64 done = res->dir[NSC_DIR_READ].bytes + res->dir[NSC_DIR_WRITE].bytes;

  if (res->cancelled)
    sr->stop_reason = NSC_STOP_CANCELLED;
  else if (!ok || res->error_errno)
    sr->stop_reason = NSC_STOP_ERROR;
  else if (sr->step.stop.enabled && self->stop_state.held)
    sr->stop_reason = NSC_STOP_DROP_HELD;
  else if (job->bytes && done + job->block_size > job->bytes)
    sr->stop_reason = capped ? NSC_STOP_CAP : NSC_STOP_BYTES;
  else if (job->once && done + job->block_size > job->region_length)
    sr->stop_reason = NSC_STOP_FULL;
  else if (job->time_ns > 0)
    sr->stop_reason = NSC_STOP_TIME;
  else
    sr->stop_reason = job->once ? NSC_STOP_FULL : NSC_STOP_BYTES;
  if (sr->step.stop.enabled)
    {
      sr->drop_found = self->stop_state.dropped;
      sr->drop_position = self->stop_state.dropped ? self->stop_state.drop_position : 0;
      if (sr->stop_reference_bps == 0)
        sr->stop_reference_bps = self->stop_state.reference_bps;
    }
}

/* A write-fill's cache, for the caps and drop levels of the steps after it. */
static void
note_write_fill (NscRunner           *self,
                 const NscStepResult *sr)
{
  const NscJobResult *head;
  g_autoptr(NscSlcAnalysis) slc = NULL;

  if (!g_str_equal (sr->step.analysis, "write-fill") || !sr->completed
      || !(head = nsc_step_result_headline (sr)) || head->series == NULL)
    return;
  slc = nsc_analyze_write_fill_series (head->series, NULL);
  if (slc == NULL)
    return;
  self->fill_cache_bytes = slc->has_cache ? slc->cache_bytes : 0;
  self->fill_cache_bps = slc->has_cache ? slc->in_cache_bps : 0;
}

static gboolean
run_job_step (NscRunner      *self,
              NscTarget      *target,
              guint           index,
              const NscStep  *step,
              NscStepResult  *sr,
              GError        **error)
{
  char scratch[64];
  NscJob job;
  gboolean capped;
  double reference_bps;

  if (!resolve_job (self, target, step, &job, sr, error))
    return FALSE;
  capped = apply_stop_rule (self, step, &job, sr);
  reference_bps = sr->stop_reference_bps;
  g_strlcpy (sr->step.job.label, nsc_job_get_label (&job, scratch, sizeof scratch),
             sizeof sr->step.job.label);
  sr->step.job.time_ns = job.time_ns;
  sr->step.job.block_size = job.block_size;

  if (nsc_step_skipped_on (step, nsc_target_get_dio_offset_align (target)))
    {
      NscWarning *w = warning_new ((int) index,
                                   NSC_WARNING_BLOCK_SIZE_UNSUPPORTED, sr->step.job.label,
                                   "%s was skipped: %s cannot do direct I/O in blocks smaller "
                                   "than %u B", sr->step.job.label,
                                   nsc_target_get_description (target),
                                   nsc_target_get_dio_offset_align (target));

      w->bytes = nsc_target_get_dio_offset_align (target);
      w->subject = g_strdup (nsc_target_get_description (target));
      post_warning (self, w);
      sr->skipped = TRUE;
      return TRUE;
    }

  if (step->no_prefill)
    {
      sr->contents_verified = FALSE;
      note_data_age (self, target, index, &job, sr);
    }
  else if (!prepare_reads (self, target, index, &job, sr, error))
    return FALSE;

  set_status_test (self, NSC_STATUS_TEST, sr->step.job.label, 0, 0);
  /* A write bounded by bytes (a write-fill): its time is the drive's pace. */
  self->job_paced = nsc_job_has_writes (&job) && nsc_timing_step_budget_ns (&self->timing, step) == 0;
  if (self->job_paced)
    {
      guint64 bound = job.once ? job.region_length : G_MAXUINT64;

      if (job.bytes)
        bound = MIN (bound, job.bytes);
      self->phase_status.bytes_total = bound == G_MAXUINT64 ? 0 : bound * step_runs (self, step);
    }
  sr->written_before_bytes = self->written_since_quiet;
  sr->headline_best = self->timing.cdm;
  for (guint r = 0; r < step_runs (self, step); r++)
    {
      NscJobResult *res = NULL;
      gboolean ok;

      /* CrystalDiskMark pauses between runs. */
      if (r > 0 && self->timing.cdm
          && !rest (self, nsc_timing_cut_idle (&self->timing, CDM_INTERVAL_NS)))
        return g_cancellable_set_error_if_cancelled (self->cancellable, error), FALSE;
      self->current_run = r;
      job.seed = nsc_mix64 (step->job.seed + r + index * 1000);
      self->stop_active = sr->step.stop.enabled;
      if (self->stop_active)
        nsc_stop_state_init (&self->stop_state, &sr->step.stop, reference_bps);
      ok = nsc_job_run_until (target, &job, self->backend, on_job_sample, self,
                              self->stop_active ? stop_when_held : NULL, self,
                              self->cancellable, &res, error);
      self->stop_active = FALSE;
      if (res)
        {
          self->written_since_quiet += res->dir[NSC_DIR_WRITE].bytes;
          record_stop (self, &job, res, ok, capped, sr);
          if (res->backend_fallback && !self->fallback_reported)
            {
              post_warning (self, warning_new (-1, NSC_WARNING_BACKEND_FALLBACK, NULL, "%s",
                                               res->backend_note));
              self->fallback_reported = TRUE;
            }
          g_ptr_array_add (sr->runs, res);
        }
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* Read (or write) speed at evenly spaced places across the region, HD Tune style:
 * one run per place. */
static gboolean
run_surface_step (NscRunner      *self,
                  NscTarget      *target,
                  guint           index,
                  const NscStep  *step,
                  NscStepResult  *sr,
                  GError        **error)
{
  NscJob job, point;
  guint64 per_point, span;
  guint points;

  if (!resolve_job (self, target, step, &job, sr, error))
    return FALSE;
  span = job.region_length;
  points = nsc_surface_points (step->points, job.block_size, span);
  sr->step.points = points;
  per_point = nsc_surface_place_bytes (job.bytes, job.block_size, points, span);
  sr->step.job.region_offset = job.region_offset;
  sr->step.job.region_length = job.region_length;
  g_strlcpy (sr->step.job.label, step->job.label[0] ? step->job.label : "Surface",
             sizeof sr->step.job.label);

  if (nsc_job_has_reads (&job) && !nsc_extents_covers (nsc_target_get_written (target),
                                                       job.region_offset, span))
    {
      NscWarning *w = warning_new ((int) index, NSC_WARNING_UNVERIFIED_CONTENTS, sr->step.job.label,
                                   "The surface scan reads blocks that may never have been "
                                   "written: on an empty drive it shows how fast the "
                                   "controller answers, not the flash");

      w->subject = g_strdup ("surface");
      post_warning (self, w);
    }

  for (guint p = 0; p < points; p++)
    {
      NscJobResult *res = NULL;
      gboolean ok;

      point = job;
      point.region_offset = job.region_offset
                            + nsc_surface_place_offset (p, points, per_point, span, job.block_size);
      point.region_length = per_point;
      point.time_ns = job.time_ns;
      point.bytes = 0;
      point.once = TRUE;
      set_status_test (self, NSC_STATUS_SURFACE_POINT, sr->step.job.label, p, points);
      self->job_paced = nsc_job_has_writes (&point) && nsc_timing_step_budget_ns (&self->timing, step) == 0;
      if (self->job_paced)
        self->phase_status.bytes_total = point.bytes;
      self->current_run = p;
      ok = nsc_job_run (target, &point, self->backend, on_job_sample, self, self->cancellable,
                        &res, error);
      if (res)
        g_ptr_array_add (sr->runs, res);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

static gboolean
run_region_step (NscRunner      *self,
                 NscTarget      *target,
                 const NscStep  *step,
                 NscStepResult  *sr,
                 GError        **error)
{
  NscJob job;
  gint64 t0 = nsc_now_ns ();
  gboolean ok;

  if (!resolve_job (self, target, step, &job, sr, error))
    return FALSE;
  sr->step.job.region_offset = job.region_offset;
  sr->step.job.region_length = job.region_length;
  if (step->kind == NSC_STEP_TRIM)
    {
      set_status (self, NSC_STATUS_TRIM);
      ok = nsc_target_trim (target, job.region_offset, job.region_length, self->cancellable,
                            &sr->trimmed_bytes, error);
      sr->trim_method = nsc_target_get_trim_method (target);
      sr->discard_reaches_drive = nsc_target_get_discard_reaches_drive (target);
      if (!sr->discard_reaches_drive)
        post_warning (self, warning_new ((int) self->current_step,
                                         NSC_WARNING_TRIM_NOT_PASSED_DOWN, NULL,
                                         "The TRIM punched holes in the test file, but its "
                                         "filesystem is not mounted with discard: the drive "
                                         "learns of them only at the next fstrim"));
    }
  else
    {
      set_status_bytes (self, NSC_STATUS_FILLING, job.region_length);
      ok = nsc_target_fill (target, job.region_offset, job.region_length, self->backend,
                            on_fill_sample, self, self->cancellable, &sr->prefilled_bytes, error);
    }
  sr->duration_ns = nsc_now_ns () - t0;
  return ok;
}

/* The seeds' "freshly erased drive": TRIM of everything, or the controller's own
 * erase (NVMe Format with user data erase, Sanitize block erase) through a hook. */
static gboolean
run_erase_step (NscRunner      *self,
                NscTarget      *target,
                NscStepResult  *sr,
                GError        **error)
{
  const char *method = self->erase_method;
  gint64 t0 = nsc_now_ns ();
  gboolean ok;

  /* Erasing needs what writing needs: consent, and the device held exclusively. */
  if (nsc_target_get_kind (target) == NSC_TARGET_DEVICE
      && (!nsc_target_get_writable (target) || !nsc_target_get_exclusive (target)))
    {
      nsc_error_set (error, NSC_PROBLEM_ERASE_NOT_AGREED,
                     &(NscErrorFields) { .path = nsc_target_get_description (target) });
      return FALSE;
    }

  if (self->region_base > 0 && !g_str_equal (method, "trim"))
    {
      nsc_error_set (error, NSC_PROBLEM_ERASE_FILLED_PART, &(NscErrorFields) { .text = method });
      return FALSE;
    }
  if (g_str_equal (method, "trim") || nsc_target_get_kind (target) == NSC_TARGET_FILE)
    {
      set_status (self, self->region_base ? NSC_STATUS_ERASE_TRIM_FREE : NSC_STATUS_ERASE_TRIM_ALL);
      ok = nsc_target_trim (target, self->region_base,
                            nsc_target_get_size (target) - self->region_base, self->cancellable,
                            &sr->trimmed_bytes, error);
      sr->erase_method = g_strdup (nsc_target_get_kind (target) == NSC_TARGET_FILE
                                   ? "punch hole" : "BLKDISCARD");
    }
  else if (self->erase == NULL)
    {
      nsc_error_set (error, NSC_PROBLEM_ERASE_UNAVAILABLE, &(NscErrorFields) { .text = method });
      return FALSE;
    }
  else
    {
      NscStatus status = { .kind = NSC_STATUS_ERASE_NVME };

      g_strlcpy (status.method, method, sizeof status.method);
      set_status_full (self, &status);
      ok = self->erase (self->erase_data, nsc_target_get_fd (target),
                        nsc_target_get_description (target), method, self->cancellable, error);
      if (ok)
        {
          /* Whatever we wrote is gone. */
          nsc_extents_remove (nsc_target_get_written (target), 0, nsc_target_get_size (target));
          sr->trimmed_bytes = nsc_target_get_size (target);
        }
      sr->erase_method = g_strdup (method);
    }
  sr->duration_ns = nsc_now_ns () - t0;
  return ok;
}

/* ---- the quick probe ---------------------------------------------------------- */

/* The drive as the probe sees it: 4 KiB blocks by direct I/O on the held device,
 * through one aligned buffer; writes made durable (a flush) before the reads that
 * follow them. */
typedef struct
{
  NscRunner *self;
  NscTarget *target;
  guint8    *buf;          /* 1 MiB, aligned for direct I/O */
  gboolean   dirty;        /* written since the last flush */
  guint64   *written;      /* the step's bytes written */
  gint64     write_ns;     /* time in writes of 1 MiB (the drive's pace) */
  guint64    write_bytes;  /* and their bytes */
  gint64     posted_ns;    /* the last progress told */
  guint64    posted_bytes;
} ProbeDrive;

#define PROBE_IO_MAX ((gsize) 1 << 20)

static gboolean
probe_failed (ProbeDrive  *d,
              int          errsv,
              guint64      offset,
              GError     **error)
{
  const char *desc = nsc_target_get_description (d->target);

  if (nsc_target_is_gone (d->target))
    nsc_error_set (error, NSC_PROBLEM_IO_TARGET_GONE, &(NscErrorFields) { .path = desc });
  else
    nsc_error_set (error, NSC_PROBLEM_IO_FAILED,
                   &(NscErrorFields) { .path = desc, .bytes = offset, .text = g_strerror (errsv) });
  return FALSE;
}

/* What was written is on the drive, as far as it says, before it is read. */
static gboolean
probe_settle (ProbeDrive  *d,
              guint64      offset,
              GError     **error)
{
  if (!d->dirty)
    return TRUE;
  if (fdatasync (nsc_target_get_fd (d->target)) != 0)
    return probe_failed (d, errno, offset, error);
  d->dirty = FALSE;
  return TRUE;
}

/* A failed read's answer to the probe (@errsv): -EIO for a block the drive cannot
 * read, the probe's finding; else the probe ends (a drive that went away, another
 * error), with @error set. */
static int
probe_read_failed (ProbeDrive  *d,
                   int          errsv,
                   guint64      offset,
                   GError     **error)
{
  if (nsc_io_errno_unreadable (errsv) && !nsc_target_is_gone (d->target))
    return -EIO;
  probe_failed (d, errsv, offset, error);
  return -errsv;
}

/* Progress: the bytes written so far, at most every quarter second, with the pace
 * they went at. */
static void
probe_progress (ProbeDrive *d)
{
  gint64 now = nsc_now_ns ();
  NscSample sample = { 0 };

  if (now - d->posted_ns < 250000000)
    return;
  sample.bytes[NSC_DIR_WRITE] = *d->written - d->posted_bytes;
  sample.duration_ns = now - d->posted_ns;
  note_paced (d->self, &sample);
  d->posted_ns = now;
  d->posted_bytes = *d->written;
  post_progress (d->self, &d->self->phase_status);
}

static gboolean
probe_write (gpointer      data,
             guint64       offset,
             const guint8 *buf,
             gsize         len,
             GError      **error)
{
  ProbeDrive *d = data;
  int fd = nsc_target_get_fd (d->target);
  gint64 t0 = nsc_now_ns ();
  gsize done = 0;

  g_return_val_if_fail (len > 0 && len <= PROBE_IO_MAX, FALSE);
  memcpy (d->buf, buf, len);
  while (done < len)
    {
      ssize_t n = pwrite (fd, d->buf + done, len - done, (off_t) (offset + done));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return probe_failed (d, n < 0 ? errno : ENOSPC, offset + done, error);
      done += (gsize) n;
    }
  d->dirty = TRUE;
  *d->written += len;
  if (len == PROBE_IO_MAX)
    {
      d->write_ns += nsc_now_ns () - t0;
      d->write_bytes += len;
    }
  probe_progress (d);
  return TRUE;
}

static int
probe_read (gpointer  data,
            guint64   offset,
            guint8   *block,
            GError  **error)
{
  ProbeDrive *d = data;
  int fd = nsc_target_get_fd (d->target);
  ssize_t n;

  if (!probe_settle (d, offset, error))
    return -EIO;
  do
    n = pread (fd, d->buf, NSC_VERIFY_UNIT, (off_t) offset);
  while (n < 0 && errno == EINTR);
  if (n == NSC_VERIFY_UNIT)
    {
      memcpy (block, d->buf, NSC_VERIFY_UNIT);
      probe_progress (d);
      return 0;
    }
  /* A short read as a failed one, as the batch's readers take it. */
  return probe_read_failed (d, n < 0 ? errno : EIO, offset, error);
}

/* Reads issued together: PROBE_READERS threads take the blocks in turn, each with an
 * aligned block of its own, all joined before the answer. */
#define PROBE_READERS 16u

typedef struct
{
  ProbeDrive    *d;
  const guint64 *offsets;
  guint          n;
  guint8        *blocks;
  int           *rc;
  gint           next;
} ProbeBatch;

static gpointer
probe_reader (gpointer data)
{
  ProbeBatch *b = data;
  int fd = nsc_target_get_fd (b->d->target);
  guint8 *buf = g_aligned_alloc (1, NSC_VERIFY_UNIT, MAX (nsc_target_get_dio_mem_align (b->d->target), 4096u));

  for (;;)
    {
      gint i = g_atomic_int_add (&b->next, 1);
      ssize_t n;

      if (i >= (gint) b->n)
        break;
      do
        n = pread (fd, buf, NSC_VERIFY_UNIT, (off_t) b->offsets[i]);
      while (n < 0 && errno == EINTR);
      if (n == NSC_VERIFY_UNIT)
        {
          memcpy (b->blocks + (gsize) i * NSC_VERIFY_UNIT, buf, NSC_VERIFY_UNIT);
          b->rc[i] = 0;
        }
      else
        b->rc[i] = n < 0 ? -errno : -EIO;
    }
  g_aligned_free (buf);
  return NULL;
}

static gboolean
probe_read_many (gpointer        data,
                 const guint64  *offsets,
                 guint           n,
                 guint8         *blocks,
                 int            *rc,
                 GError        **error)
{
  ProbeDrive *d = data;
  ProbeBatch b = { d, offsets, n, blocks, rc, 0 };
  GThread *threads[PROBE_READERS];
  guint nt = MIN (n, PROBE_READERS);

  if (!probe_settle (d, offsets[0], error))
    return FALSE;
  for (guint t = 0; t < nt; t++)
    threads[t] = g_thread_new ("nsc-probe", probe_reader, &b);
  for (guint t = 0; t < nt; t++)
    g_thread_join (threads[t]);
  probe_progress (d);
  /* As one read at a time: a block the drive cannot read is the probe's finding; a
   * drive that went away, or another error, ends it. */
  for (guint i = 0; i < n; i++)
    if (rc[i] != 0 && (rc[i] = probe_read_failed (d, -rc[i], offsets[i], error)) != -EIO)
      return FALSE;
  return TRUE;
}

/* What the probe found, as the result keeps it. */
static JsonNode *
probe_to_json (const NscProbeResult *r,
               guint64               cache_max,
               double                write_bps)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "verdict");
  json_builder_add_string_value (b, nsc_probe_verdict_name (r->verdict));
#define INT(name, v) (json_builder_set_member_name (b, name), json_builder_add_int_value (b, (gint64) (v)))
  INT ("reported_bytes", r->reported_bytes);
  INT ("usable_bytes", r->usable_bytes);
  if (r->alias_period)
    INT ("alias_period", r->alias_period);
  INT ("cache_bytes", r->cache_bytes);
  json_builder_set_member_name (b, "cache_beyond");
  json_builder_add_boolean_value (b, r->cache_beyond);
  INT ("cache_max", cache_max);
  INT ("levels", r->levels);
  INT ("grid", r->grid);
  INT ("bytes_written", r->bytes_written);
  INT ("bytes_read", r->bytes_read);
  INT ("block_size", NSC_VERIFY_UNIT);
  if (write_bps > 0)
    {
      json_builder_set_member_name (b, "write_bps");
      json_builder_add_double_value (b, write_bps);
    }
  /* The map: each place read past the cache, in order, and what it held. */
  json_builder_set_member_name (b, "places");
  json_builder_begin_array (b);
  for (guint i = 0; r->places && i < r->places->len; i++)
    {
      const NscProbePlace *p = &g_array_index (r->places, NscProbePlace, i);

      json_builder_begin_array (b);
      json_builder_add_int_value (b, (gint64) p->offset);
      json_builder_add_string_value (b, nsc_verify_kind_name (p->kind));
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
#undef INT
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* Whether the preset probes: the probe judges a whole drive, so it needs one. */
static gboolean
preset_probes (const NscPreset *preset)
{
  for (guint i = 0; i < preset->steps->len; i++)
    if (g_array_index (preset->steps, NscStep, i).kind == NSC_STEP_PROBE)
      return TRUE;
  return FALSE;
}

/* A probe runs on a whole drive: a block device that is not a partition (whose end
 * is not the drive's), refused before anything is opened. */
static gboolean
probe_target_ok (const char  *path,
                 int          fd,
                 GError     **error)
{
  struct stat st;
  g_autofree char *part = NULL;

  if ((fd >= 0 ? fstat (fd, &st) : stat (path, &st)) != 0 || !S_ISBLK (st.st_mode))
    {
      nsc_error_set (error, NSC_PROBLEM_PROBE_NOT_A_DRIVE, &(NscErrorFields) { .path = path });
      return FALSE;
    }
  part = g_strdup_printf ("/sys/dev/block/%u:%u/partition", major (st.st_rdev), minor (st.st_rdev));
  if (g_file_test (part, G_FILE_TEST_EXISTS))
    {
      nsc_error_set (error, NSC_PROBLEM_PROBE_PARTITION, &(NscErrorFields) { .path = path });
      return FALSE;
    }
  return TRUE;
}

static gboolean
run_probe_step (NscRunner      *self,
                NscTarget      *target,
                const NscStep  *step,
                NscStepResult  *sr,
                GError        **error)
{
  ProbeDrive d = { self, target, NULL, FALSE, &sr->probe_written, 0, 0, 0, 0 };
  NscProbeIo io = { probe_write, probe_read, probe_read_many, &d };
  NscProbeResult r = { 0 };
  guint64 size = nsc_target_get_size (target);
  guint64 cache_max = nsc_probe_cache_limit (size, step->cache_max);
  gint64 t0 = nsc_now_ns ();
  gboolean ok;

  /* Writing needs consent, and the device held exclusively. */
  if (nsc_target_get_kind (target) != NSC_TARGET_DEVICE)
    {
      nsc_error_set (error, NSC_PROBLEM_PROBE_NOT_A_DRIVE,
                     &(NscErrorFields) { .path = nsc_target_get_description (target) });
      return FALSE;
    }
  if (!nsc_target_get_writable (target) || !nsc_target_get_exclusive (target))
    {
      nsc_error_set (error, NSC_PROBLEM_PROBE_NOT_AGREED,
                     &(NscErrorFields) { .path = nsc_target_get_description (target) });
      return FALSE;
    }
  if (nsc_target_get_logical_block_size (target) > NSC_VERIFY_UNIT
      || NSC_VERIFY_UNIT % nsc_target_get_dio_offset_align (target) != 0)
    {
      nsc_error_set (error, NSC_PROBLEM_PROBE_BLOCK_SIZE,
                     &(NscErrorFields) { .path = nsc_target_get_description (target),
                                         .bytes = nsc_target_get_logical_block_size (target) });
      return FALSE;
    }
  set_status_bytes (self, NSC_STATUS_PROBE, nsc_probe_write_bound (size, cache_max));
  d.posted_ns = nsc_now_ns ();
  d.buf = g_aligned_alloc0 (1, PROBE_IO_MAX, MAX (nsc_target_get_dio_mem_align (target), 4096u));
  ok = nsc_probe_run (size, cache_max, self->verify_key, &io, self->cancellable, &r, error);
  g_aligned_free (d.buf);
  if (ok)
    sr->probe = probe_to_json (&r, cache_max, d.write_ns > 0 ? d.write_bytes * 1e9 / d.write_ns : 0);
  sr->duration_ns = nsc_now_ns () - t0;
  nsc_probe_result_clear (&r);
  return ok;
}

/* A copy within the target's filesystem, reported as a write job of what it copied. */
static gboolean
run_copy_step (NscRunner      *self,
               guint           index,
               const NscStep  *step,
               NscStepResult  *sr,
               GError        **error)
{
  g_autoptr(NscCopyResult) copy = NULL;
  NscCopySpec spec = { 0 };
  NscJobResult *res;
  gboolean ok;

  if (!g_file_test (self->target, G_FILE_TEST_IS_DIR))
    {
      nsc_error_set (error, NSC_PROBLEM_COPY_NOT_A_FOLDER, &(NscErrorFields) { .path = self->target });
      return FALSE;
    }
  spec.bytes = step->job.bytes ? step->job.bytes : G_GUINT64_CONSTANT (100000000000);
  if (self->span_cap)
    spec.bytes = MIN (spec.bytes, self->span_cap);
  spec.files = MAX (step->files, 1u);
  spec.data = step->job.data;
  spec.interval_ns = step->job.sample_interval_ns;
  spec.seed = nsc_mix64 (index + 1);
  /* The preset's settling idle between writing the source and copying it. */
  spec.settle_ns = step->group_settle_ns;
  spec.settle_ns = nsc_timing_cut_idle (&self->timing, spec.settle_ns);
  sr->idle_before_ns += spec.settle_ns;
  g_strlcpy (sr->step.job.label, step->job.label[0] ? step->job.label : "Copy",
             sizeof sr->step.job.label);
  set_status_bytes (self, spec.files > 1 ? NSC_STATUS_WRITING_COPY_FOLDER : NSC_STATUS_WRITING_COPY_FILE,
                    2 * spec.bytes);

  self->current_run = 0;
  self->job_paced = TRUE;
  ok = nsc_copy_run (self->target, &spec, on_job_sample, self, self->cancellable, &copy, error);
  self->job_paced = FALSE;
  if (copy == NULL)
    return ok;

  res = g_new0 (NscJobResult, 1);
  nsc_job_init (&res->job);
  res->job.read_percent = 0;
  res->job.block_size = 1u << 20;
  res->job.queue_depth = 8;
  res->job.region_length = copy->bytes;
  res->job.time_ns = 0;
  res->job.bytes = copy->bytes;
  res->job.data = spec.data;
  res->job.sample_interval_ns = spec.interval_ns > 0 ? spec.interval_ns : 500 * G_GINT64_CONSTANT (1000000);
  g_strlcpy (res->job.label, sr->step.job.label, sizeof res->job.label);
  res->backend = NSC_BACKEND_PSYNC;
  res->start_time_us = g_get_real_time () - copy->runtime_ns / 1000;
  res->runtime_ns = copy->runtime_ns;
  res->dir[NSC_DIR_WRITE].bytes = copy->bytes;
  res->dir[NSC_DIR_WRITE].ios = copy->bytes >> 20;
  res->dir[NSC_DIR_WRITE].bw_bps = copy->bps;
  res->dir[NSC_DIR_WRITE].iops = copy->runtime_ns > 0 ? (copy->bytes >> 20) * 1e9 / copy->runtime_ns : 0;
  for (guint d = 0; d < 2; d++)
    {
      res->dir[d].latency = g_new (NscHistogram, 1);
      nsc_histogram_init (res->dir[d].latency);
    }
  res->series = g_steal_pointer (&copy->series);
  g_ptr_array_add (sr->runs, res);
  sr->copy_files = copy->files;
  sr->copy_scaled = copy->scaled;
  sr->contents_verified = TRUE;
  return ok;
}

static void
post_precondition (NscRunner  *self,
                   const char *what)
{
  Event *ev = event_new (EVENT_CONDITIONS);

  ev->target_info = nsc_run_result_new ();
  ev->target_info->precondition = g_strdup (what);
  post (self, ev);
}

static void
post_strict_idle (NscRunner *self,
                  gint64     ns)
{
  Event *ev = event_new (EVENT_CONDITIONS);

  ev->target_info = nsc_run_result_new ();
  ev->target_info->strict_idle_ns = ns;
  post (self, ev);
}

static void
post_skipped (NscRunner     *self,
              guint          index,
              const NscStep *step)
{
  char scratch[64];
  const char *label = nsc_job_get_label (&step->job, scratch, sizeof scratch);

  post_warning (self, warning_new ((int) index, NSC_WARNING_STRICT_SKIPPED, label,
                                   "%s ran without the TRIM or idle that the chosen conditions "
                                   "put before tests: its preset measures the drive without "
                                   "them", label));
}

/* Writes a region once more, whatever it holds: its whole blocks (1 MiB, or the
 * target's alignment for less), nothing when it holds none (a job's zero length would
 * mean the rest of the target). */
static gboolean
rewrite_region (NscRunner  *self,
                NscTarget  *target,
                guint64     offset,
                guint64     length,
                guint64    *written,
                GError    **error)
{
  g_autoptr(NscJobResult) res = NULL;
  NscJob job;
  gboolean ok;

  nsc_job_init (&job);
  g_strlcpy (job.label, "fill", sizeof job.label);
  job.pattern = NSC_PATTERN_SEQUENTIAL;
  job.read_percent = 0;
  job.block_size = length >= (1u << 20) ? (1u << 20) : nsc_target_get_dio_offset_align (target);
  job.queue_depth = 8;
  job.region_offset = offset;
  job.region_length = length - length % job.block_size;
  if (job.region_length == 0)
    return TRUE;
  job.time_ns = 0;
  job.once = TRUE;
  job.seed = nsc_mix64 (offset + *written);
  ok = nsc_job_run (target, &job, self->backend, on_fill_sample, self, self->cancellable,
                    &res, error);
  if (res)
    *written += res->dir[NSC_DIR_WRITE].bytes;
  return ok;
}

/* The idle where a preset starts: strict's 15 minutes, or the preset's "settle" when
 * it reads data it wrote; both cut to max_idle_ns. */
static gboolean
settle (NscRunner      *self,
        const NscStep  *head,
        NscStepResult  *sr,
        gboolean        have_settled,
        GError        **error)
{
  gint64 idle = 0;

  if (sr->strict_applied)
    idle = NSC_STRICT_IDLE_NS;
  else if (have_settled && head->group_settle_ns > 0)
    idle = head->group_settle_ns;
  idle = nsc_timing_cut_idle (&self->timing, idle);
  if (idle <= 0)
    return TRUE;
  set_status_idle (self, NSC_STATUS_IDLE_BEFORE,
                   sr->strict_applied ? NSC_PAUSE_STRICT : NSC_PAUSE_SETTLE, idle);
  if (!rest (self, idle))
    return !g_cancellable_set_error_if_cancelled (self->cancellable, error);
  sr->idle_before_ns += idle;
  if (sr->strict_applied)
    {
      sr->strict_idle_ns = idle;
      post_strict_idle (self, idle);
    }
  return TRUE;
}

/* The region whose data read step @s reads, as it will run; FALSE when it will not
 * run as such (it says why itself, when it runs). */
static gboolean
read_data_job (NscRunner     *self,
               NscTarget     *target,
               const NscStep *s,
               NscJob        *job)
{
  NscStepResult *scratch = nsc_step_result_new (s);
  gboolean ok = resolve_job (self, target, s, job, scratch, NULL);

  nsc_step_result_free (scratch);
  return ok && !nsc_step_skipped_on (s, nsc_target_get_dio_offset_align (target));
}

/* Writes the data of the read steps in [@first, @end) that expect @want ("settled" or
 * "fresh"), where nothing was written yet. */
static gboolean
fill_read_data (NscRunner      *self,
                NscTarget      *target,
                guint           first,
                guint           end,
                const char     *want,
                NscStepResult  *sr,
                GError        **error)
{
  GArray *steps = self->preset->steps;
  gboolean writable = nsc_target_get_writable (target) && self->backend != NSC_BACKEND_NULL;

  for (guint j = first; writable && j < end; j++)
    {
      const NscStep *s = &g_array_index (steps, NscStep, j);
      guint64 filled = 0;
      NscJob job;
      gboolean ok;

      if (g_strcmp0 (data_expected (s), want) != 0 || !read_data_job (self, target, s, &job))
        continue;
      set_status_bytes (self, NSC_STATUS_WRITING_READ_DATA, job.region_length);
      ok = nsc_target_fill (target, job.region_offset, job.region_length, self->backend,
                            on_fill_sample, self, self->cancellable, &filled, error);
      sr->prefilled_bytes += filled;
      self->written_since_quiet += filled;
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The speed of the samples [@from, @to) of @samples, taken together. */
static double
samples_bps (GArray *samples,
             guint   from,
             guint   to)
{
  guint64 bytes = 0;
  gint64 ns = 0;

  for (guint i = from; i < to; i++)
    {
      const NscSample *x = &g_array_index (samples, NscSample, i);
      bytes += x->bytes[NSC_DIR_WRITE];
      ns += x->duration_ns;
    }
  return ns > 0 ? bytes * 1e9 / ns : 0;
}

/* A settled control beside fresh reads (Quick): more than the cache written after
 * its data, over the fresh region, as measured in this run, in the drive's history,
 * or a documented default. Its speed at the start and at the end (the medians of its
 * first and of its last four samples) say whether the cache filled. */
static gboolean
flush_cache (NscRunner      *self,
             NscTarget      *target,
             guint64         fresh_off,
             guint64         fresh_len,
             NscStepResult  *sr,
             GError        **error)
{
  guint64 want, done = 0;
  GArray *samples = g_array_new (FALSE, FALSE, sizeof (NscSample));
  gboolean ok = TRUE;
  guint n;

  self->flush_source = self->measured_cache ? "this-run" : self->history_cache ? "history" : "default";
  /* Without a cache, the documented default (the fresh half written after it adds
   * what the margin would). */
  want = nsc_settled_flush_bytes (self->measured_cache ? self->measured_cache : self->history_cache,
                                  self->span_cap, nsc_target_get_dio_offset_align (target),
                                  &self->flush_capped);
  set_status_bytes (self, NSC_STATUS_FLUSHING_CACHE, want);
  self->flush_samples = samples;
  while (done < want)
    {
      guint64 before = done;

      if (!(ok = rewrite_region (self, target, fresh_off, MIN (fresh_len, want - done), &done, error)))
        break;
      if (done == before)
        break;
    }
  self->flush_samples = NULL;
  sr->prefilled_bytes += done;
  self->written_since_quiet += done;
  self->flush_bytes = done;

  n = samples->len;
  if (ok && n >= 8)
    {
      double first[4], last[4];

      for (guint i = 0; i < 4; i++)
        {
          first[i] = samples_bps (samples, i, i + 1);
          last[i] = samples_bps (samples, n - 4 + i, n - 3 + i);
        }
      qsort (first, 4, sizeof first[0], compare_double);
      qsort (last, 4, sizeof last[0], compare_double);
      self->flush_first_bps = (first[1] + first[2]) / 2;
      self->flush_last_bps = (last[1] + last[2]) / 2;
    }
  g_array_unref (samples);
  return ok;
}

/* Where a preset starts (each one of a suite): strict's TRIM of the span; the data
 * its reads read, written now (a settled control's first, then enough after it to
 * leave the SLC cache); then the idle that lets it settle (strict's 15 minutes, or
 * the preset's "settle"). */
static gboolean
start_group (NscRunner      *self,
             NscTarget      *target,
             guint           first,
             NscStepResult  *sr,
             GError        **error)
{
  GArray *steps = self->preset->steps;
  const NscStep *head = &g_array_index (steps, NscStep, first);
  gboolean writable = nsc_target_get_writable (target) && self->backend != NSC_BACKEND_NULL;
  gboolean have_settled = FALSE, have_fresh = FALSE, control;
  guint64 fresh_off = 0, fresh_len = 0;
  guint end = first;

  while (end < steps->len && g_array_index (steps, NscStep, end).group == head->group)
    end++;
  self->flush_source = NULL;
  self->flush_bytes = 0;
  self->flush_capped = FALSE;

  if (self->timing.strict && head->no_strict)
    {
      sr->strict_skipped = TRUE;
      post_skipped (self, first, head);
    }
  else if (self->timing.strict)
    {
      guint64 size = nsc_target_get_size (target) - self->region_base;

      /* A drive open read-only gets the idle, not the TRIM. */
      sr->strict_applied = TRUE;
      if (self->span_cap)
        size = MIN (size, self->span_cap);
      if (writable)
        {
          set_status (self, NSC_STATUS_STRICT_TRIM);
          if (!nsc_target_trim (target, self->region_base, size, self->cancellable,
                                &sr->strict_trimmed_bytes, error))
            return FALSE;
          sr->trimmed_before_bytes += sr->strict_trimmed_bytes;
          self->written_since_quiet = 0;
        }
    }

  /* Settled reads' data first; where fresh reads are beside them (Quick), more than
   * the SLC cache written after it (over the fresh reads' region), so that a drive
   * that folds while it writes moves it out; then the idle, so that a drive that
   * folds only while idle empties its cache, the settled data with it; then the
   * fresh reads' data, into the cache that idle freed. How fast the flush started
   * and ended, and how fast the fresh data went in, are the evidence the
   * fresh-against-settled verdict stands on. */
  self->flush_first_bps = self->flush_last_bps = self->fresh_write_bps = 0;
  for (guint j = first; writable && j < end; j++)
    {
      const NscStep *s = &g_array_index (steps, NscStep, j);
      const char *want = data_expected (s);
      NscJob job;

      if (want == NULL || g_str_equal (want, "any") || !read_data_job (self, target, s, &job))
        continue;
      if (g_str_equal (want, "settled"))
        have_settled = TRUE;
      else if (!have_fresh)
        {
          have_fresh = TRUE;
          fresh_off = job.region_offset;
          fresh_len = job.region_length;
        }
    }

  control = have_settled && have_fresh && fresh_len > 0;
  if (!fill_read_data (self, target, first, end, "settled", sr, error))
    return FALSE;
  if (control && !flush_cache (self, target, fresh_off, fresh_len, sr, error))
    return FALSE;
  if (!settle (self, head, sr, have_settled, error))
    return FALSE;
  if (control)
    {
      /* Written again, whatever it holds (the flush wrote it): now, after the idle. */
      guint64 done = 0;
      gint64 t0 = nsc_now_ns ();

      set_status_bytes (self, NSC_STATUS_WRITING_READ_DATA, fresh_len);
      if (!rewrite_region (self, target, fresh_off, fresh_len, &done, error))
        return FALSE;
      /* Its data is there: the fills below leave it be. */
      nsc_extents_add (nsc_target_get_written (target), fresh_off, fresh_len);
      if (nsc_now_ns () > t0)
        self->fresh_write_bps = done * 1e9 / (nsc_now_ns () - t0);
      sr->prefilled_bytes += done;
      self->written_since_quiet += done;
    }
  /* Other fresh regions, where nothing was written yet. */
  return fill_read_data (self, target, first, end, "fresh", sr, error);
}

/* After a step: what it wrote since the drive last rested, and the cache a write-fill
 * measured, for the steps after it. */
static void
note_step_done (NscRunner           *self,
                const NscStep       *step,
                const NscStepResult *sr)
{
  if (step->kind == NSC_STEP_ERASE || step->kind == NSC_STEP_TRIM)
    self->written_since_quiet = 0;
  else if (step->kind == NSC_STEP_FILL)
    self->written_since_quiet += sr->prefilled_bytes;
  else if (step->kind == NSC_STEP_PROBE)
    self->written_since_quiet += sr->probe_written;
  else if (step->kind == NSC_STEP_SURFACE)
    for (guint r = 0; r < sr->runs->len; r++)
      self->written_since_quiet += ((NscJobResult *) g_ptr_array_index (sr->runs, r))->dir[NSC_DIR_WRITE].bytes;
  else if (step->kind == NSC_STEP_COPY)
    for (guint r = 0; r < sr->runs->len; r++)
      {
        guint64 copied = ((NscJobResult *) g_ptr_array_index (sr->runs, r))->dir[NSC_DIR_WRITE].bytes;

        /* The source was written, then (after an idle, if any) copied. */
        if (sr->idle_before_ns > 0)
          self->written_since_quiet = copied;
        else
          self->written_since_quiet += 2 * copied;
      }

  if (g_str_equal (step->analysis, "write-fill") && sr->runs->len > 0)
    {
      const NscJobResult *head = nsc_step_result_headline (sr);
      g_autoptr(NscSlcAnalysis) slc = head ? nsc_analyze_write_fill_series (head->series, NULL) : NULL;

      if (slc && slc->has_cache)
        self->measured_cache = slc->cache_bytes;
    }
}

/* The bytes each step writes at the drive's pace, as the write budget has them for
 * this target: the time left reckons them at the speed measured. */
static void
plan_paced (NscRunner *self,
            NscTarget *target)
{
  NscBudgetTarget bt = self->budget_target;
  g_autoptr(GArray) items = NULL;

  /* The steps the target cannot do take no time now that its unit is known: the
   * time left is the plan's, which knew it too. Nothing else runs yet. */
  self->timing.dio_align = nsc_target_get_dio_offset_align (target);
  for (guint i = 0; i < self->preset->steps->len; i++)
    self->budgets[i] = nsc_timing_step_total_ns (&self->timing, self->preset, i);
  bt.dio_align = self->timing.dio_align;
  bt.is_device = nsc_target_get_kind (target) == NSC_TARGET_DEVICE;
  bt.file_size = nsc_target_get_size (target);
  bt.capacity = bt.file_size;
  if (!bt.is_device)
    {
      struct statvfs vfs;
      g_autofree char *dir = g_file_test (self->target, G_FILE_TEST_IS_DIR)
                             ? g_strdup (self->target) : g_path_get_dirname (self->target);

      if (statvfs (dir, &vfs) == 0)
        bt.capacity = (guint64) vfs.f_bavail * vfs.f_frsize + bt.file_size;
    }
  items = nsc_write_budget (self->preset, &bt, NULL, NULL);
  self->paced_setup = 0;
  for (guint i = 0; i < items->len; i++)
    {
      const NscBudgetItem *it = &g_array_index (items, NscBudgetItem, i);

      if (it->timed)
        continue;
      if (it->step < 0)
        self->paced_setup += nsc_budget_item_expected (it);
      else if ((guint) it->step < self->preset->steps->len)
        self->paced[it->step] += nsc_budget_item_expected (it);
    }
  self->paced_planned = TRUE;
}

/* A fill before the steps, counted as setup: its status names @kind and its size. */
static gboolean
setup_fill (NscRunner      *self,
            NscTarget      *target,
            NscStatusKind   kind,
            guint64         length,
            guint64        *filled,
            GError        **error)
{
  gboolean ok;

  set_status_bytes (self, kind, length);
  ok = nsc_target_fill (target, 0, length, self->backend, on_fill_sample, self,
                        self->cancellable, filled, error);
  self->setup_bytes += *filled;
  return ok;
}

/* A folder in a nearly full state: a filler file takes all but leave_free (and the
 * test file's room) first. It is an O_TMPFILE too: gone with the run, whatever
 * happens. */
static gboolean
fill_folder_to_state (NscRunner  *self,
                      NscTarget **filler,
                      GError    **error)
{
  NscTargetOptions fopts = { .file_size = NSC_TARGET_SIZE_FREE, .no_tmpfile = self->no_tmpfile,
                             .device_fd = -1 };
  struct statvfs vfs;
  guint64 free_bytes, floor, filled = 0;

  if (statvfs (self->target, &vfs) != 0)
    {
      nsc_error_set (error, NSC_PROBLEM_STATE_FREE_UNKNOWN, &(NscErrorFields) { .path = self->target });
      return FALSE;
    }
  free_bytes = (guint64) vfs.f_bavail * vfs.f_frsize;
  floor = nsc_target_free_space_floor ((guint64) vfs.f_blocks * vfs.f_frsize);
  if (self->leave_free < floor)
    {
      nsc_error_set (error, NSC_PROBLEM_STATE_LEAVE_TOO_LITTLE,
                     &(NscErrorFields) { .path = self->target, .bytes = self->leave_free,
                                         .bytes2 = floor });
      return FALSE;
    }
  if (free_bytes <= self->leave_free)
    {
      nsc_error_set (error, NSC_PROBLEM_STATE_NOT_ENOUGH_FREE,
                     &(NscErrorFields) { .path = self->target, .bytes = free_bytes,
                                         .bytes2 = self->leave_free });
      return FALSE;
    }
  fopts.file_size = free_bytes - self->leave_free;
  fopts.file_size -= fopts.file_size % (1u << 20);
  *filler = nsc_target_open (self->target, &fopts, error);
  if (*filler == NULL)
    return FALSE;
  return setup_fill (self, *filler, NSC_STATUS_FILLING_STATE, nsc_target_get_size (*filler),
                     &filled, error);
}

/* The target, opened for what the run does; then the device checks again. */
static gboolean
open_target (NscRunner  *self,
             NscTarget **target,
             GError    **error)
{
  NscTargetOptions topts = NSC_TARGET_OPTIONS_INIT;

  if (preset_probes (self->preset) && !probe_target_ok (self->target, self->device_fd, error))
    {
      if (self->device_fd >= 0)
        close (self->device_fd);
      self->device_fd = -1;
      return FALSE;
    }
  topts.file_size = self->file_size;
  /* Consent to wipe a device also lets reads go to blocks written first. */
  topts.need_write = run_writes (self->preset, self->erase_first, self->leave_free,
                                 self->destroy_data);
  topts.destroy_data = self->destroy_data;
  topts.no_tmpfile = self->no_tmpfile;
  topts.device_fd = self->device_fd;

  /* nsc_target_open () takes a handed-over descriptor, also when it fails. */
  *target = nsc_target_open (self->target, &topts, error);
  self->device_fd = -1;
  if (*target == NULL)
    return FALSE;
  /* Held exclusively now: nothing can start using the device behind our back, so
   * ask again what may have started using it since the front end asked. */
  if (nsc_target_get_kind (*target) == NSC_TARGET_DEVICE && nsc_target_get_writable (*target)
      && self->check_device != NULL
      && !self->check_device (self->check_data, self->target, error))
    return FALSE;
  return TRUE;
}

/* What the caller learns of the target before anything runs: its facts, the bytes
 * each step writes at the drive's pace, and whether I/O reaches the drive directly. */
static void
post_target_facts (NscRunner *self,
                   NscTarget *target)
{
  post_target_info (self, target);
  plan_paced (self, target);

  if (nsc_target_get_caveat (target))
    {
      NscWarning *w = warning_new (-1, NSC_WARNING_NOT_DIRECT_TO_DRIVE, NULL, "%s",
                                   nsc_target_get_caveat (target));

      w->subject = g_strdup (nsc_target_get_filesystem (target));
      post_warning (self, w);
    }
}

/* The target brought to the state the steps start from: a test file written whole,
 * a device filled but for leave_free, erased first, or preconditioned. */
static gboolean
prepare_target (NscRunner  *self,
                NscTarget  *target,
                GError    **error)
{
  NscTargetKind kind = nsc_target_get_kind (target);
  guint64 filled = 0;

  /* A test file is written whole before anything is timed, so that no block
   * allocation happens inside a measurement and every read meets real data. A
   * write-fill does without: it measures the fresh free space itself. */
  if (kind == NSC_TARGET_FILE && self->backend != NSC_BACKEND_NULL && self->preset->prepare
      && !setup_fill (self, target, NSC_STATUS_PREPARING_FILE, nsc_target_get_size (target),
                      &filled, error))
    return FALSE;

  /* A device in a nearly full state: everything but its last leave_free bytes holds
   * data, and the steps run in those. */
  if (self->leave_free && kind == NSC_TARGET_DEVICE)
    {
      guint64 size = nsc_target_get_size (target);
      guint align = MAX (nsc_target_get_dio_offset_align (target), 1u << 20);

      if (size <= self->leave_free)
        {
          nsc_error_set (error, NSC_PROBLEM_STATE_TARGET_TOO_SMALL,
                         &(NscErrorFields) { .path = nsc_target_get_description (target) });
          return FALSE;
        }
      self->region_base = (size - self->leave_free) / align * align;
      if (!setup_fill (self, target, NSC_STATUS_FILLING_STATE, self->region_base, &filled, error))
        return FALSE;
    }
  if (self->erase_first && self->backend != NSC_BACKEND_NULL && kind == NSC_TARGET_DEVICE)
    {
      NscStepResult *scratch = nsc_step_result_new (&(NscStep) { .kind = NSC_STEP_ERASE });
      gboolean ok = run_erase_step (self, target, scratch, error);

      nsc_step_result_free (scratch);
      if (!ok)
        return FALSE;
    }

  /* The reviews' "used drive": the whole device written once before the first test
   * (a test file was written whole above). */
  if (self->timing.strict && nsc_target_get_writable (target) && self->backend != NSC_BACKEND_NULL
      && kind == NSC_TARGET_DEVICE && !nsc_preset_only_probes (self->preset))
    {
      if (!setup_fill (self, target, NSC_STATUS_PRECONDITIONING, nsc_target_get_size (target),
                       &filled, error))
        return FALSE;
      self->written_since_quiet += filled;
      post_precondition (self, "device");
    }
  else if (self->timing.strict && kind == NSC_TARGET_FILE && self->preset->prepare)
    post_precondition (self, "test file");
  return TRUE;
}

/* What one step hands on to the next. */
typedef struct
{
  gboolean first_job;
  gint64   idle_before;     /* the idles (strict's and steps') just before */
  guint64  trimmed_before;  /* TRIMs and erases since the last step that did I/O */
} StepCarry;

/* The step's clock starts; before a job after the first, strict's idle. FALSE when
 * that idle was cut short by a cancel. */
static gboolean
rest_before_step (NscRunner     *self,
                  guint          i,
                  const NscStep *step,
                  StepCarry     *carry)
{
  self->in_setup = FALSE;
  self->clock_step = i;
  self->clock_started_ns = nsc_now_ns ();
  self->paced_done = 0;
  self->paced_ns = 0;
  self->job_paced = FALSE;
  if (step->kind == NSC_STEP_JOB && !carry->first_job && self->timing.idle_ns > 0
      && !step->no_strict)
    {
      set_status_idle (self, NSC_STATUS_IDLE_BETWEEN, NSC_PAUSE_OPTION, self->timing.idle_ns);
      if (!rest (self, self->timing.idle_ns))
        return FALSE;
      carry->idle_before += self->timing.idle_ns;
    }
  return TRUE;
}

/* The step's start, told to the caller; its result, with what came before it. */
static NscStepResult *
begin_step (NscRunner       *self,
            guint            i,
            const NscStep   *step,
            const StepCarry *carry,
            gboolean         skip_idle)
{
  NscStepResult *sr;
  Event *ev;

  self->current_step = i;
  self->step_started_ns = nsc_now_ns ();
  self->last_temp_ns = 0;
  ev = event_new (EVENT_STEP_STARTED);
  ev->step = i;
  post (self, ev);

  sr = nsc_step_result_new (step);
  sr->started = TRUE;
  sr->idle_before_ns = carry->idle_before;
  sr->trimmed_before_bytes = carry->trimmed_before;
  self->current_sr = sr;
  if (skip_idle)
    {
      sr->strict_skipped = TRUE;
      post_skipped (self, i, step);
    }
  return sr;
}

static gboolean
run_step (NscRunner      *self,
          NscTarget      *target,
          guint           i,
          const NscStep  *step,
          NscStepResult  *sr,
          StepCarry      *carry,
          GError        **error)
{
  gboolean ok = TRUE;

  switch (step->kind)
    {
    case NSC_STEP_JOB:
      carry->first_job = FALSE;
      ok = run_job_step (self, target, i, step, sr, error);
      break;
    case NSC_STEP_SURFACE:
      ok = run_surface_step (self, target, i, step, sr, error);
      break;
    case NSC_STEP_IDLE:
      {
        gint64 ns = nsc_timing_cut_idle (&self->timing, step->idle_ns);

        set_status_idle (self, NSC_STATUS_IDLE, idle_reason (self->preset->steps, i), ns);
        sr->duration_ns = ns;
        ok = rest (self, ns);
        if (!ok)
          g_cancellable_set_error_if_cancelled (self->cancellable, error);
      }
      break;
    case NSC_STEP_FILL:
    case NSC_STEP_TRIM:
      ok = run_region_step (self, target, step, sr, error);
      break;
    case NSC_STEP_ERASE:
      ok = run_erase_step (self, target, sr, error);
      break;
    case NSC_STEP_COPY:
      ok = run_copy_step (self, i, step, sr, error);
      break;
    case NSC_STEP_PROBE:
      ok = run_probe_step (self, target, step, sr, error);
      break;
    default:
      g_assert_not_reached ();
    }
  return ok;
}

/* The step's end: what it hands on, its result told to the caller, and the clock
 * on to the next step. */
static void
end_step (NscRunner     *self,
          guint          i,
          const NscStep *step,
          NscStepResult *sr,
          StepCarry     *carry,
          gboolean       ok,
          const GError  *error)
{
  Event *ev;

  self->current_sr = NULL;
  note_step_done (self, step, sr);

  carry->idle_before = step->kind == NSC_STEP_IDLE ? carry->idle_before + sr->duration_ns : 0;
  /* TRIMs and erases count for the steps after them, until one that does I/O. */
  if (step->kind == NSC_STEP_TRIM || step->kind == NSC_STEP_ERASE)
    carry->trimmed_before += sr->trimmed_bytes;
  else if (step->kind != NSC_STEP_IDLE)
    carry->trimmed_before = 0;
  sr->completed = ok;
  if (!ok && error)
    sr->error = g_strdup (error->message);
  note_write_fill (self, sr);
  self->clock_step = i + 1;
  self->clock_started_ns = nsc_now_ns ();
  /* Done: no "of" left to say (a short last interval joins the one before it
   * without a sample of its own). */
  self->phase_status.bytes_done = self->phase_status.bytes_total = 0;
  self->paced_done = 0;
  self->paced_ns = 0;
  self->step_started_ns = 0;

  ev = event_new (EVENT_STEP_FINISHED);
  ev->step = i;
  ev->step_result = sr;
  post (self, ev);
  post_progress (self, &self->phase_status);
}

/* The preset's steps in order, until one fails or the run is cancelled. */
static void
run_steps (NscRunner  *self,
           NscTarget  *target,
           GError    **error)
{
  GArray *steps = self->preset->steps;
  StepCarry carry = { TRUE, 0, 0 };

  for (guint i = 0; i < steps->len; i++)
    {
      const NscStep *step = &g_array_index (steps, NscStep, i);
      NscStepResult *sr;
      gboolean ok = TRUE;
      gboolean skip_idle = step->no_strict && step->kind == NSC_STEP_JOB && !carry.first_job
                           && self->timing.idle_ns > 0;

      if (g_cancellable_set_error_if_cancelled (self->cancellable, error))
        break;
      if (!rest_before_step (self, i, step, &carry))
        continue;

      sr = begin_step (self, i, step, &carry, skip_idle);
      if (i == 0 || step->group != g_array_index (steps, NscStep, i - 1).group)
        ok = start_group (self, target, i, sr, error);
      if (ok)
        ok = run_step (self, target, i, step, sr, &carry, error);
      end_step (self, i, step, sr, &carry, ok, *error);

      if (!ok)
        break;
    }
}

static gpointer
runner_thread (gpointer data)
{
  NscRunner *self = data;
  g_autoptr(NscTarget) target = NULL;
  g_autoptr(NscTarget) filler = NULL;
  GError *error = NULL;
  Event *done;

  if ((!self->leave_free || !g_file_test (self->target, G_FILE_TEST_IS_DIR)
       || fill_folder_to_state (self, &filler, &error))
      && open_target (self, &target, &error))
    {
      post_target_facts (self, target);
      if (prepare_target (self, target, &error))
        run_steps (self, target, &error);
    }

  /* Cancels reach us as GIO's error from GLib calls and as ours from the engine;
   * callers see one. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_error (&error);
      nsc_error_set (&error, NSC_PROBLEM_RUN_CANCELLED, NULL);
    }
  /* Closing the targets deletes the test file and the filler. */
  g_clear_pointer (&target, nsc_target_free);
  g_clear_pointer (&filler, nsc_target_free);
  if (error == NULL && g_cancellable_is_cancelled (self->cancellable))
    nsc_error_set (&error, NSC_PROBLEM_RUN_CANCELLED, NULL);
  done = event_new (EVENT_DONE);
  done->error = error;
  post (self, done);
  return NULL;
}

void
nsc_runner_run_async (NscRunner           *self,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  NscRunResult *r;
  GError *error = NULL;

  g_return_if_fail (NSC_IS_RUNNER (self));
  g_return_if_fail (self->task == NULL && self->thread == NULL);

  self->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (self->task, nsc_runner_run_async);
  g_task_set_check_cancellable (self->task, FALSE);
  self->cancellable = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();
  self->context = g_main_context_ref_thread_default ();
  self->started_ns = nsc_now_ns ();

  r = self->result;
  r->preset_name = g_strdup (self->preset->name);
  r->preset_title = g_strdup (self->preset->title);
  r->target_path = g_strdup (self->target);
  r->backend_requested = g_strdup (nsc_backend_to_string (self->backend));
  r->runs = self->timing.runs;
  r->time_ns = self->timing.time_ns;
  r->file_size = self->file_size;
  r->idle_ns = self->timing.idle_ns;
  r->strict = self->timing.strict;
  r->default_time_ns = self->timing.default_time_ns;
  r->time_scale = self->timing.time_scale;
  r->max_idle_ns = self->timing.max_idle_ns;
  r->span_cap = self->span_cap;
  r->cdm = self->timing.cdm;
  r->history_cache_bytes = self->history_cache;
  nsc_system_cache_info_copy (&r->system_cache, &self->system_cache);
  r->leave_free = self->leave_free;
  r->erased_first = self->erase_first;
  r->started = g_date_time_new_now_local ();

  self->budgets = g_new0 (gint64, self->preset->steps->len);
  self->paced = g_new0 (guint64, self->preset->steps->len);
  for (guint i = 0; i < self->preset->steps->len; i++)
    self->budgets[i] = nsc_timing_step_total_ns (&self->timing, self->preset, i);
  self->in_setup = TRUE;

  self->thread = g_thread_try_new ("nsc-runner", runner_thread, self, &error);
  if (self->thread == NULL)
    {
      g_task_return_error (self->task, error);
      g_clear_object (&self->task);
    }
}

gboolean
nsc_runner_run_finish (NscRunner     *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "nsc-io.h"
#include "nsc-preset.h"
#include "nsc-result.h"
#include "nsc-status.h"
#include "nsc-write-budget.h"

G_BEGIN_DECLS

/* Reads the drive's temperature; called on the runner's thread at most once a second. */
typedef gboolean (*NscTemperatureFunc) (gpointer  user_data,
                                        double   *celsius);

/* Erases a whole device by @method ("format", "sanitize"; the engine does "trim"
 * itself) through @fd, the target's open descriptor. Called on the runner's thread;
 * may take minutes, and should return soon after @cancellable fires where the
 * device allows. */
typedef gboolean (*NscEraseFunc) (gpointer       user_data,
                                  int            fd,
                                  const char    *device,
                                  const char    *method,
                                  GCancellable  *cancellable,
                                  GError       **error);

/* Proves that nothing else uses the block device @device (mounted, swap, held,
 * backing a loop device, open in another process). Called on the runner's thread
 * once a device that the run writes, trims or erases is held open exclusively, so
 * that nothing can have started using it between the front end's check and the
 * open. */
typedef gboolean (*NscDeviceCheckFunc) (gpointer      user_data,
                                        const char   *device,
                                        GError      **error);

typedef struct
{
  const char *target;        /* folder, new file or block device */
  guint64     file_size;     /* 0: the preset's */
  guint       runs;          /* 0: the preset's */
  gint64      time_ns;       /* 0: the preset's; else the length of every timed job step */
  gint64      default_time_ns; /* 0, or the length of timed steps that name none of their own */
  gint64      idle_ns;       /* idle before every job step but the first */
  gint64      max_idle_ns;   /* 0, or the longest an idle step may last */
  double      time_scale;    /* 0, or a factor on every timed step's length (a scaled-down
                              * run that keeps the lengths' proportions; recorded) */
  guint64     span_cap;      /* 0, or the largest region a step may cover */
  NscBackend  backend;
  const char *destroy_data;  /* the device the user agreed to wipe, or NULL */
  gboolean    no_tmpfile;
  int         device_fd;     /* a device already opened for us (UDisks2), or -1 (0 is a
                              * descriptor); the runner takes it over and closes it when
                              * the run ends */
  gboolean    strict;        /* the reviews' conditions: see nsc_run_options_set_strict () */
  gboolean    cdm;           /* CrystalDiskMark's way: see nsc_run_options_set_cdm () */
  guint64     cache_bytes;   /* 0, or this drive's SLC cache from an earlier result */
  double      write_bps_hint; /* 0, or this drive's write speed from an earlier result:
                               * the time left of writes bounded by bytes, until this
                               * run has measured its own */
  const NscSystemCacheInfo *system_cache; /* NULL, or what may hold writes in memory
                                           * before the drive */
  NscTemperatureFunc read_temperature;  /* NULL: no temperature series */
  /* Drive state (002: empty against nearly full). @erase_first: erase the target
   * before the first step. @leave_free: fill the drive first so that only this many
   * bytes stay free, and run every step inside them (a device: its last bytes; a
   * folder: a filler file beside the test file, deleted at the end). */
  gboolean    erase_first;
  guint64     leave_free;
  const char *erase_method;  /* erase steps: "trim" (default), "format" or "sanitize" */
  NscEraseFunc erase;        /* does "format" and "sanitize"; NULL: they are refused */
  gpointer    erase_data;
  gpointer    temperature_data;
  NscDeviceCheckFunc check_device;   /* NULL: the front end checked before the open only */
  gpointer    check_data;
} NscRunOptions;

/* What nsc_write_budget () needs of @options: runs, lengths (strict's default length
 * for steps without their own, the time scale), span, strict, the state's free space,
 * the drive's cache from history. The size of the target (is_device, capacity,
 * file_size) is the caller's. */
void nsc_run_options_budget_target (const NscRunOptions *options,
                                    NscBudgetTarget     *target);

/* Options with nothing set: no descriptor handed over. */
#define NSC_RUN_OPTIONS_INIT { .device_fd = -1 }

/* How a run's steps are timed, resolved from the options as the runner resolves
 * them: the one place for a step's length and its runs, which the runner, the write
 * budget and the front ends' promise before Start all read. */
typedef struct
{
  guint    runs;             /* the option's, else the preset's (at least 1) */
  gboolean runs_override;
  gint64   time_ns;          /* the option's, else the preset's */
  gboolean time_override;
  gint64   default_time_ns;  /* steps without a length of their own (strict's 40 s) */
  double   time_scale;       /* 0, or in (0, 1) */
  gboolean strict;
  gboolean cdm;
  gint64   idle_ns;          /* before every job step but the first */
  gint64   max_idle_ns;
  guint    dio_align;        /* the target's direct-I/O unit, 0 while not known: a
                              * step that skips blocks it cannot do takes no time */
} NscTiming;

/* The block size step @s runs in on a target whose direct I/O takes @align-byte
 * units (0: not known): a "min" block is the target's unit (4096 while not known). */
guint64  nsc_step_block_size  (const NscStep       *s,
                               guint                align);
/* TRUE when the runner skips step @s on such a target: a job whose block size it
 * cannot do, in a step that says to skip it (never while @align is not known). */
gboolean nsc_step_skipped_on  (const NscStep       *s,
                               guint                align);

void   nsc_timing_init           (NscTiming           *timing,
                                  const NscPreset     *preset,
                                  const NscRunOptions *options);
/* A timed step's planned length and why (@source: "option", "own", "strict",
 * "default" or "preset"), before the time scale. */
gint64 nsc_timing_step_time      (const NscTiming     *timing,
                                  const NscStep       *step,
                                  const char         **source);
/* What one run of it lasts: the planned length, scaled (at least 1 ms). */
gint64 nsc_timing_step_run_time  (const NscTiming     *timing,
                                  const NscStep       *step);
guint  nsc_timing_step_runs      (const NscTiming     *timing,
                                  const NscStep       *step);
/* Where a step runs on a target of @size bytes (after any part a drive state
 * filled), in blocks of @block_size (the step's when 0; a "min" block is the
 * target's), as the runner resolves it: its offset and length (shares of @size, or of
 * @span_cap when set; span_max; clamped to the target and to @span_cap; offsets
 * aligned to the block size and @align, lengths to the block size). @clamped: the
 * length was cut. Errors: NSC_PROBLEM_STEP_PAST_END (bytes: @size) and
 * NSC_PROBLEM_STEP_TOO_SMALL, with @description as their path. */
gboolean nsc_step_resolve_region (const NscStep       *step,
                                  guint64              block_size,
                                  guint64              size,
                                  guint64              span_cap,
                                  guint                align,
                                  const char          *description,
                                  guint64             *offset,
                                  guint64             *length,
                                  gboolean            *clamped,
                                  GError             **error);
/* @ns of idle, cut to max idle where one is set. */
gint64 nsc_timing_cut_idle       (const NscTiming     *timing,
                                  gint64               ns);
/* The step's time bounded by the clock, all runs (an idle step cut to max idle); 0
 * for steps bounded by bytes. */
gint64 nsc_timing_step_budget_ns (const NscTiming     *timing,
                                  const NscStep       *step);
/* Step @index's time bounded by the clock, with the idle before it (strict's or the
 * preset's settle where a group starts, the idle between tests, CrystalDiskMark's
 * pauses between its runs), each cut to max idle. */
gint64 nsc_timing_step_total_ns  (const NscTiming     *timing,
                                  const NscPreset     *preset,
                                  guint                index);
/* The whole preset's time bounded by the clock: its steps, the idle before each job
 * step, CrystalDiskMark's pauses between runs, strict's idle and the preset's settle
 * where a group starts (each cut to max idle). Byte-bounded writes take what the
 * drive's speed makes of them, on top. */
gint64 nsc_timing_estimate_ns    (const NscTiming     *timing,
                                  const NscPreset     *preset);

#define NSC_TYPE_RUNNER (nsc_runner_get_type ())
G_DECLARE_FINAL_TYPE (NscRunner, nsc_runner, NSC, RUNNER, GObject)

/* Runs a preset's steps on a worker thread. Signals are emitted on the main context
 * that was the thread default when nsc_runner_run_async() was called:
 *   ::step-started (guint step)
 *   ::sample (guint step, guint run, gpointer NscSample*)   valid during emission
 *   ::phase-sample (gpointer NscStatus*, gpointer NscSample*) a write between the tests
 *                                                           (a test file, the data reads
 *                                                           read, the flush past the
 *                                                           cache): its position counts
 *                                                           from the phase's start
 *   ::step-finished (guint step)                            its result is in get_result()
 *   ::progress (double fraction, gint64 remaining_ns, gpointer NscStatus*)  valid during
 *                                                           emission; nsc_status_describe ()
 *                                                           makes its words; with the
 *                                                           status's time_left_open, the
 *                                                           time is a lower bound */
NscRunner    *nsc_runner_new            (const NscPreset     *preset,
                                         const NscRunOptions *options);
void          nsc_runner_run_async      (NscRunner           *self,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
gboolean      nsc_runner_run_finish     (NscRunner           *self,
                                         GAsyncResult        *result,
                                         GError             **error);
/* What was measured so far; complete once the run finished, also on failure. */
NscRunResult *nsc_runner_get_result     (NscRunner           *self);
const NscPreset *nsc_runner_get_preset  (NscRunner           *self);
gint64        nsc_runner_get_estimate_ns (NscRunner          *self);

/* The reviews' conditions, the one definition both front ends use: the drive
 * preconditioned (a device written whole once), then before each preset a TRIM of the
 * span and 15 minutes of idle (cut by max_idle_ns, which the result records), a 32 GiB
 * span (unless span_cap is set) and 40 s for every timed step that names no length of
 * its own. Steps that say "strict": false get no TRIM or idle inserted before them. */
void          nsc_run_options_set_strict (NscRunOptions      *options);
/* CrystalDiskMark's way of measuring: 5 runs of 5 s with 5 s between them, the best
 * run shown, a 1 GiB test region on devices too (unless set otherwise). */
void          nsc_run_options_set_cdm    (NscRunOptions      *options);

/* Whether any step of @preset writes, trims or erases (fill, trim, erase, copy, a job
 * or surface step with writes). */
gboolean      nsc_preset_writes          (const NscPreset    *preset);
/* Every step is the quick probe: no speed is measured, so the reviews' conditions
 * (strict's preconditioning) do not apply. */
gboolean      nsc_preset_only_probes     (const NscPreset    *preset);

/* The one answer to "does this run write, trim or erase its target?": a step of
 * @preset does, or @options ask for a drive state (erase first, fill but leave
 * free), or they carry consent and a step reads (consent lets reads meet data
 * written first). On a block device such a run needs consent naming it, the in-use
 * checks and an exclusive descriptor; the runner opens it so, and the front ends
 * ask this before they ask the user. */
gboolean      nsc_run_writes             (const NscPreset    *preset,
                                          const NscRunOptions *options);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "nsc-device.h"
#include "nsc-engine.h"

G_BEGIN_DECLS

/* The state of the app's run, apart from the window that shows it: from Run to the
 * saved result, through the erase confirmation and UDisks2 for a drive. It owns the
 * session, the runner, the cancellable and the bookkeeping of the progress line and
 * the live chart; the window connects to its signals and sets its widgets. It calls
 * no GTK, and runs in a test without a display. Its signals come on the main
 * context (the runner delivers its events there):
 *
 *   ::confirm (const NscPreset *)    a run that destroys the drive: ask the user,
 *                                    answer with nsc_run_control_confirm ()
 *   ::opening (const char *status)   UDisks2 is asked to open the drive (polkit)
 *   ::started (const NscPreset *, const char *time_left)
 *                                    the runner starts: the results page, afresh
 *   ::step-started (const NscStep *)
 *   ::sample (const NscStep *, guint run, const NscSample *)
 *   ::step-finished (NscStepResult *)
 *   ::warning (NscWarning *)         each warning once, in the order raised
 *   ::live-chart (int kind, const char *title)
 *                                    the live chart shows this now: an
 *                                    NscChartKind, write-fill (speed against data
 *                                    written), position (against the place on the
 *                                    drive: a read-back) or time
 *   ::live-restart ()                a new run of the step: its chart afresh
 *   ::live-sample (const NscSample *) a sample for the live chart
 *   ::progress (double fraction, const char *text, const char *time_left)
 *                                    fraction < 0: nothing to measure it by yet
 *   ::failed (const char *message, gboolean cancelled)
 *                                    the run ended before the runner started
 *                                    (refused, not confirmed, not opened)
 *   ::finished (const NscRunOutcome *) the runner ended, its result saved */

#define NSC_TYPE_RUN_CONTROL (nsc_run_control_get_type ())
G_DECLARE_FINAL_TYPE (NscRunControl, nsc_run_control, NSC, RUN_CONTROL, GObject)

/* What Run asks for, as the window knows it. */
typedef struct
{
  const NscPreset     *preset;
  const char          *target;     /* a folder, or a block device ("/dev/sdb") */
  const NscDeviceInfo *device;     /* the target's drive when it is one, else NULL */
  const NscRunOptions *options;    /* the user's choices: the session completes them */
  gboolean             history_read; /* @options' cache_bytes is the drive's history's */
  guint                runs;       /* the runs of each test, for the progress line */
  gboolean             destroy;    /* on a drive: the run writes, trims or erases it */
  gboolean             captured;   /* the drive is from a captured tree: never opened */
  const char          *refusal;    /* why the preset cannot run on the drive, or NULL */
} NscRunRequest;

/* How a run that reached the runner ended. */
typedef struct
{
  gboolean      success;      /* the run and the save went through */
  gboolean      cancelled;
  const GError *error;        /* the run's (a cancel's too), or NULL */
  const GError *save_error;
  const char   *saved;        /* the result's file, or NULL */
  JsonNode     *result;       /* the result as saved and read back (else as run);
                               * NULL when nothing was measured */
  const char   *message;      /* where it was saved, or what failed */
} NscRunOutcome;

NscRunControl *nsc_run_control_new            (void);
/* Starts @request's run: on a folder at once; on a drive after ::confirm when it
 * destroys the drive, and through UDisks2. Nothing happens while one is on. */
void           nsc_run_control_run            (NscRunControl       *self,
                                               const NscRunRequest *request);
/* The user's answer to ::confirm: @erase, or not (nothing is written). */
void           nsc_run_control_confirm        (NscRunControl       *self,
                                               gboolean             erase);
/* Cancels the run; FALSE when there is nothing to cancel. */
gboolean       nsc_run_control_cancel         (NscRunControl       *self);
/* The window closes: a question not answered is dropped, a run is cancelled and
 * the window is to close once it ended (TRUE; see get_close_when_done). */
gboolean       nsc_run_control_close          (NscRunControl       *self);
gboolean       nsc_run_control_get_close_when_done (NscRunControl *self);
/* From Run until ::failed or ::finished. */
gboolean       nsc_run_control_get_busy       (NscRunControl       *self);
/* While the runner runs: the tests finished, and the samples fed to live charts. */
guint          nsc_run_control_get_steps_done (NscRunControl       *self);
guint          nsc_run_control_get_live_samples (NscRunControl     *self);

/* "2 min left"; with @open (writes of a speed nothing has told yet remain), a lower
 * bound: "over 2 min left", or that nothing is known yet. */
char          *nsc_run_control_format_time_left (gint64             ns,
                                                 gboolean           open);

/* A run's error as the app words it: the engine's sentence, and where the way out is
 * the app's own (consent in its dialog, access through the system's prompt), that way. */
char *nsc_run_control_error_text (const GError *error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-engine.h"

G_BEGIN_DECLS

/* The plan of a run, before it starts: the one place that turns a target, a preset
 * and what the user chose (the command line's options, or the app's preferences)
 * into the options the runner gets, the bytes it may write, the time it takes by the
 * clock and whether it writes to the device. The command line's --dry-run, the app's
 * start page, its wear line and Run all read it, so what is promised is what runs. */
typedef struct
{
  const NscPreset *preset;
  NscRunOptions    options;      /* nsc_session_options () of the user's: strict's and
                                  * CrystalDiskMark's defaults in; the hooks are the
                                  * session's, not set here */
  NscTiming        timing;       /* each step's length and runs, as the runner has them */
  NscBudgetTarget  budget_target;
  gboolean         budget_known; /* FALSE: a folder whose free space cannot be read */
  gboolean         file_fits;    /* a folder's test file fits beside the room a run
                                  * leaves (TRUE on a device, or when not known) */
  guint64          free_bytes;   /* a folder's free space, when known */
  guint64          largest_file; /* and the largest test file that would fit there */
  guint64          fitting_file; /* a round size at most that (whole GiB, else 64 MiB
                                  * steps) to offer instead; 0: none fits */
  GError          *budget_error; /* why, then */
  GArray          *budget;       /* NscBudgetItem, or NULL when not known */
  guint64          total_bytes;  /* the writes bounded by bytes, at most: at the
                                  * drive's pace, on top of timed_ns */
  guint64          expected_bytes; /* of those, what the time is reckoned on
                                  * (nsc_budget_item_expected: the quick probe's
                                  * good drive, not its bound), as the runner does */
  gboolean         timed_writes; /* some writes are bounded by time only */
  guint64          read_bytes;   /* the reads bounded by bytes: at the drive's pace too */
  gint64           timed_ns;     /* what the clock bounds: steps, idles, pauses */
  gboolean         writes;       /* writes, trims or erases the target (nsc_run_writes) */
} NscPlan;

/* @target: a folder or a device; @is_device and @capacity (the device's size) say
 * which, as the caller knows it (the app from its drive list, even in a sandbox).
 * @user: what the user chose; its target is ignored. */
NscPlan *nsc_plan_new  (const NscPreset     *preset,
                        const char          *target,
                        gboolean             is_device,
                        guint64              capacity,
                        const NscRunOptions *user);
void     nsc_plan_free (NscPlan             *plan);
/* Why the folder's test file does not fit, in the user's words, before anything runs:
 * "The 2 GiB test file does not fit in this folder: 1.46 GiB are free, and a run
 * leaves room beside it." NULL when it fits. */
char    *nsc_plan_describe_fit (const NscPlan *plan);

/* Why a preset with settled reads beside fresh ones (Quick) writes past the drive's
 * cache, how much, and how to write less (and what is lost then). NULL for presets
 * without. */
char    *nsc_plan_describe_flush (const NscPlan *plan);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscPlan, nsc_plan_free)

/* A drive state to run in (review 002: empty, and nearly full). */
typedef struct
{
  gboolean erase_first;   /* "empty": erased before the first step */
  guint64  leave_free;    /* "free:SIZE": filled first, this much left free */
  char    *label;         /* "empty (erased first)", "filled, 8.0 GiB left free"; NULL
                           * for the plain run */
  char    *name;          /* as written: "empty", "free:8g"; NULL for the plain run */
  char    *tag;           /* "empty", "free-8g": for file names; NULL for the plain run */
} NscDriveState;

/* "empty,free:8g" into its states (NscDriveState, in order); NULL or "" is the one
 * plain run. Errors: NSC_ERROR_INVALID_ARGUMENT naming what is not a state. */
GPtrArray *nsc_drive_states_parse (const char          *spec,
                                   GError             **error);
/* @options in @state: its erase_first and leave_free. */
void       nsc_drive_state_apply  (const NscDriveState *state,
                                   NscRunOptions       *options);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-device.h"
#include "nsc-engine.h"
#include "nsc-words.h"

G_BEGIN_DECLS

/* A run as both front ends prepare it: the policy of a run lives here once, under
 * the command line and the app (no GTK below this line).
 *
 *   nsc_session_new ()          options, the drive's facts, its temperature, its cache
 *   nsc_session_needs_consent ()  and nsc_session_check_consent () or _check_in_use ()
 *   nsc_runner_new (preset, &session->options)
 *   nsc_session_begin ()        the drive's SMART counts before (root)
 *   nsc_session_finish ()       device facts, the test bench and their warnings
 *   nsc_session_save ()         the results folder, or a named file */
typedef struct
{
  char          *target;
  NscRunOptions  options;   /* ready for nsc_runner_new () */
  NscDeviceInfo *device;    /* the drive behind the target, or NULL; its node is the
                             * temperature hook's data, so the session outlives the run */
  JsonNode      *smart_before;
  NscSystemCacheInfo system_cache;  /* the options' */
} NscSession;

/* The run options for @target from @user (what the front end was told: file size,
 * runs, lengths, idle, span, backend, erase method, drive state, no_tmpfile, strict,
 * cdm, and consent where it is given up front; its target, hooks and descriptor are
 * ignored), completed by the policy both front ends share: the reviews' conditions
 * (nsc_run_options_set_strict) and then CrystalDiskMark's way
 * (nsc_run_options_set_cdm) where asked, each filling only what the user left unset;
 * the in-use check once a device is held (@user's check_device where the front end
 * has its own, else nsc_device_check_func); the NVMe erase hook. Reads nothing:
 * cheap enough to ask "does this write?" from a list's filter. */
void        nsc_session_options       (NscRunOptions        *out,
                                       const char           *target,
                                       const NscRunOptions  *user);

/* The options above, then what the target tells: the drive behind it (NVMe Identify
 * as root, sysfs else), the temperature hook, and the drive's SLC cache from its
 * saved results. A target that does not exist yet is looked up by its folder. */
NscSession *nsc_session_new           (const char           *target,
                                       const NscRunOptions  *user);
/* As nsc_session_new (), but with @history_read the caller has read the drive's saved
 * results already (off the main thread, as the app does): @user's cache_bytes is what
 * they say, 0 included, and they are not read again. */
NscSession *nsc_session_new_full      (const char           *target,
                                       const NscRunOptions  *user,
                                       gboolean              history_read);
void        nsc_session_free          (NscSession           *session);

/* Whether the run changes the block device that is the target, and so needs consent
 * naming it and the in-use checks: nsc_run_writes () on @options (NULL: the
 * session's; the command line asks once per drive state). FALSE for a folder or a
 * file: a test file never touches anything else. */
gboolean    nsc_session_needs_consent (const NscSession     *session,
                                       const NscPreset      *preset,
                                       const NscRunOptions  *options);

/* The in-use checks of the target now (the options' check_device: by default
 * nsc_device_check_writable): asked before the user is asked to agree, and again by
 * the runner once the device is held. */
gboolean    nsc_session_check_in_use  (const NscSession     *session,
                                       GError              **error);

/* Consent, then the in-use checks, for a run that changes the device: @consent is
 * the device the user agreed to destroy, and must be the target itself (its name, or
 * a node with the same device number: a disk and its partitions are different
 * devices). Errors:
 * NSC_ERROR_NEEDS_CONFIRMATION without consent, and when it
 * names another device too, NSC_ERROR_BUSY (and others) from the in-use checks. On
 * success the options carry the consent. */
gboolean    nsc_session_check_consent (NscSession           *session,
                                       const char           *consent,
                                       GError              **error);

/* Right before the run: the drive's own written count (NVMe SMART, root). */
void        nsc_session_begin         (NscSession           *session);

/* After the run, before saving or showing @result: the drive's SMART counts after,
 * its facts, the test bench of the target, and the warnings they imply (a PCIe link
 * below its maximum, the bench's). */
void        nsc_session_finish        (NscSession           *session,
                                       NscRunResult         *result);

/* The folder of saved results, which the history reads too:
 * $XDG_DATA_HOME/nandscope/results. */
char       *nsc_session_results_dir   (void);

/* The SLC cache the newest write-fill among the saved results measured on @device
 * (by its serial), or 0: what sizes Quick's settled control when the run measures
 * none, for the run and for its plan alike. */
guint64     nsc_session_history_cache (const NscDeviceInfo  *device);

/* Saves @result to @path, or with @path NULL in the results folder as
 * <UTC start>-<preset>.json (-2, -3… when the name is taken). Returns the path. */
char       *nsc_session_save          (NscRunResult         *result,
                                       const char           *path,
                                       GError              **error);

/* What nsc_write_budget () needs of @options (the session's, or one drive state's):
 * nsc_run_options_budget_target (), which the runner reckons its time left with too.
 * The size of the target (is_device, capacity, file_size) is the caller's. */
void        nsc_session_budget_target (const NscRunOptions  *options,
                                       NscBudgetTarget      *target);

/* How the result's numbers were measured, for both front ends' summaries:
 * "3 runs of 5.0 s per test, the median shown", "5 runs of 5.0 s per test, the best
 * shown (CrystalDiskMark's way)", "1 run of 200 ms per test". */
char       *nsc_session_describe_runs (const NscRunResult   *result);

/* The command line's report of @result: the header (preset, target, drive, backend,
 * runs), the table of tests (read and write speed in @units, MB/s or MiB/s,
 * IOPS, mean latency; "*" where a warning concerns the cell), the backends' notes,
 * the analysis's sentences and the warnings. */
char       *nsc_session_table         (NscRunResult         *result,
                                       NscUnits              units);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscSession, nsc_session_free)

G_END_DECLS

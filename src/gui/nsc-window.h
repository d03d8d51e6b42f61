/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "nsc-application.h"
#include "nsc-runner.h"

G_BEGIN_DECLS

#define NSC_TYPE_WINDOW (nsc_window_get_type ())
G_DECLARE_FINAL_TYPE (NscWindow, nsc_window, NSC, WINDOW, AdwApplicationWindow)

/* ::run-finished (gboolean success, const char *message): after every run, once
 * the test file is gone and the result saved; message says where, or what failed. */
NscWindow *nsc_window_new           (NscApplication *application);
/* A folder, or a block device ("/dev/sdb"). */
void       nsc_window_set_target    (NscWindow      *self,
                                     const char     *path);
/* Fails, saying why, for a preset that cannot run on the target. */
gboolean   nsc_window_set_preset    (NscWindow      *self,
                                     const char     *name,
                                     GError        **error);
/* The command line's file_size, runs, time_ns, max_idle_ns and span_cap; 0 keeps
 * the preset's own value. The rest of @overrides is not read. */
void       nsc_window_set_overrides (NscWindow           *self,
                                     const NscRunOptions *overrides);
void       nsc_window_run           (NscWindow      *self);
/* Whether the drive's saved results are being read (the start page's estimate and
 * Quick's flush size follow once they are). */
gboolean   nsc_window_get_reading_history (NscWindow *self);
void       nsc_window_cancel        (NscWindow      *self);
gboolean   nsc_window_get_running   (NscWindow      *self);
/* During a run: the tests finished so far, and the samples drawn on the live chart
 * (0 before the first); the events a script or --cancel-after-steps waits for. */
guint      nsc_window_get_steps_done   (NscWindow   *self);
guint      nsc_window_get_live_samples (NscWindow   *self);
/* Shows a saved result; fails with a clear message for a damaged file. */
gboolean   nsc_window_open_result   (NscWindow      *self,
                                     const char     *path,
                                     GError        **error);
GtkWindow *nsc_window_compare_hosts (NscWindow      *self,
                                     GError        **error);
/* The shown chart (@kind: "write-fill", "time"…, or NULL for the one shown) as
 * PNG or SVG, with its caption: the code behind the export menu. @path NULL:
 * only show that kind. */
gboolean   nsc_window_export_chart  (NscWindow      *self,
                                     const char     *path,
                                     const char     *kind,
                                     int             width,
                                     int             height,
                                     gboolean        dark,
                                     GError        **error);
/* The review sheet of the result(s) shown: the code behind Export → Review Sheet. */
gboolean   nsc_window_export_sheet  (NscWindow      *self,
                                     const char     *path,
                                     gboolean        dark,
                                     GError        **error);
/* The run Run would start (the target, the preset, the preferences) as a fio job
 * file: the code behind Export Run as fio Job File. */
gboolean   nsc_window_export_fio    (NscWindow      *self,
                                     const char     *path,
                                     GError        **error);
GtkWindow *nsc_window_show_history  (NscWindow      *self);
/* The result shown as text, as Copy as Text puts it on the clipboard. */
char      *nsc_window_get_text      (NscWindow      *self);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "nsc-chart-panel.h"
#include "nsc-device.h"
#include "nsc-engine.h"
#include "nsc-preferences.h"
#include "nsc-preset-chooser.h"
#include "nsc-results-grid.h"
#include "nsc-run-control.h"
#include "nsc-plan.h"
#include "nsc-session.h"
#include "nsc-target-picker.h"
#include "nsc-warnings-list.h"
#include "nsc-window.h"

G_BEGIN_DECLS

/* The window is split by concern: nsc-window.c (the pages, the target and what the
 * start page says), nsc-window-actions.c (the win.* actions and what is behind the
 * menus) and nsc-window-run.c (a run on the window's widgets; its state is an
 * NscRunControl). */
struct _NscWindow
{
  AdwApplicationWindow  parent_instance;

  /* Template widgets */
  AdwToastOverlay      *toast_overlay;
  AdwHeaderBar         *header_bar;
  GtkWidget            *pickers_bar;    /* the pickers' place on a narrow window */
  GtkWidget            *target_button;
  GtkImage             *target_icon;
  GtkLabel             *target_label;
  NscTargetPicker      *target_popover;
  NscPresetChooser     *preset_chooser;
  AdwWindowTitle       *window_title;
  GtkButton            *run_button;
  GtkStack             *run_stack;      /* its words: Run, Cancel */
  GtkStack             *stack;
  GtkScrolledWindow    *results_scroller;
  AdwStatusPage        *status_page;
  GtkLabel             *preset_label;
  GtkButton            *fit_button;
  GtkButton            *check_button;   /* a blank drive: the quick probe first, then the
                                         * full capacity check */
  GtkWidget            *progress_box;
  GtkLabel             *status_label;
  GtkLabel             *time_left_label;
  GtkProgressBar       *progress_bar;
  GtkLabel             *summary_label;
  GtkWidget            *error_box;
  GtkLabel             *error_label;
  NscResultsGrid       *results_grid;
  NscChartPanel        *chart_panel;
  GtkWidget            *warnings_box;
  NscWarningsList      *warnings_list;  /* in warnings_box */
  GtkWidget            *bench_box;      /* the Test Bench group of the result shown */

  /* Owned objects and the user's choices */
  NscPrefs             *prefs;          /* bound to GSettings when the schema is installed */
  GtkWindow            *history;        /* weak: the history window while open */
  GtkWindow            *preferences;    /* weak */
  GtkNativeDialog      *chooser;
  char                 *shown_path;     /* the saved result on the results page */
  GPtrArray            *opened_hosts;   /* the results of every host of the fio
                                         * --client output opened, the first shown;
                                         * NULL for one */
  char                 *result_subtitle; /* the title bar's while a result is shown:
                                          * its preset and date; NULL while a run or
                                          * the start page is */

  char                 *target;
  NscDeviceInfo        *target_device;  /* set when the target is a block device */
  NscDeviceInfo        *folder_device;  /* the drive behind a folder target, when known */
  guint64               history_cache;  /* that drive's SLC cache from its saved results */
  double                history_write_bps; /* and its last write speed; 0: none */
  GCancellable         *history_cancellable; /* the read of them, while it runs */
  gboolean              fake_devices;   /* NANDSCOPE_SYSFS_ROOT: a captured tree, never opened */
  /* The command line's: file_size, runs, time_ns, max_idle_ns and span_cap; 0 keeps
   * the preset's (or the preferences') value. */
  NscRunOptions         overrides;
  /* The smaller test file the start page offered when the preset's did not fit the
   * folder, once the user took it: for that preset and target only. */
  const NscPreset      *fit_preset;
  guint64               fit_size;
  guint64               fit_offer;      /* the size the start page offers now, or 0 */
  /* A chosen preset's name → the preset that runs with Check What Write Tests Wrote
   * (owned; NULL: the chosen one), made when first asked */
  GHashTable           *run_presets;

  /* The run: its state, and what only the window has of it */
  NscRunControl        *run;
  AdwMessageDialog     *confirm_dialog; /* the erase confirmation while it asks */
  guint                 inhibit_cookie; /* suspend, while the runner runs */

  gboolean              narrow;         /* the pickers belong in pickers_bar */
  guint                 narrow_idle;
};


/* nsc-window.c */
const NscPreset *_nsc_window_get_preset       (NscWindow       *self);
/* Whether @preset can run on the target; if not, @why says why and what to do. */
gboolean         _nsc_window_preset_offered   (NscWindow       *self,
                                               const NscPreset *preset,
                                               char           **why);
guint            _nsc_window_effective_runs   (NscWindow       *self,
                                               const NscPreset *preset);
void             _nsc_window_update_info      (NscWindow       *self);
void             _nsc_window_add_toast        (NscWindow       *self,
                                               const char      *text,
                                               const char      *button_label,
                                               const char      *action_name);
void             _nsc_window_clear_warnings   (NscWindow       *self);
void             _nsc_window_show_charts      (NscWindow       *self,
                                               JsonNode        *result,
                                               const char      *path);
void             _nsc_window_show_bench       (NscWindow       *self,
                                               JsonNode        *result);
void             _nsc_window_append_wear_line (GString         *text,
                                               JsonNode        *result);
void             _nsc_window_emit_run_finished (NscWindow      *self,
                                                gboolean        success,
                                                const char     *message);

/* nsc-window-actions.c */
void             _nsc_window_actions_init     (NscWindow       *self);
void             _nsc_window_apply_prefs      (NscWindow       *self);

/* The title bar says which result the results page shows (@result NULL: none, the
 * chosen preset and its estimate again). */
void             _nsc_window_set_result_subtitle (NscWindow *self,
                                                  JsonNode  *result);

/* nsc-window-run.c */
/* Reads the drive's saved results in a thread: its SLC cache and its last write speed,
 * when the target changes and after every run (a write-fill may have measured them).
 * The start page and the plan use them once read. */
void      _nsc_window_read_history     (NscWindow *self);

/* The preset that runs when @preset is chosen: with Check What Write Tests Wrote,
 * its write-fills read back and checked; else @preset. Owned by the window. */
const NscPreset *_nsc_window_run_preset       (NscWindow       *self,
                                               const NscPreset *preset);
/* The plan of the chosen @preset as it runs (_nsc_window_run_preset) on the target
 * with the command line's overrides and the preferences: what the start page promises
 * and what Run runs. */
NscPlan         *_nsc_window_plan             (NscWindow       *self,
                                               const NscPreset *preset);
/* Whether @plan's preset is a chosen one with its writes read back and checked. */
gboolean         _nsc_window_plan_checks_writes (NscWindow     *self,
                                                 const NscPlan *plan);
/* The engine's answer to "does this run write, trim or erase the drive?". */
gboolean         _nsc_window_run_writes       (NscWindow       *self,
                                               const NscPreset *preset);
void             _nsc_window_set_running      (NscWindow       *self,
                                               gboolean         running);
/* The run's state (self->run) and its signals on the window's widgets. */
void             _nsc_window_run_init         (NscWindow       *self);
void             _nsc_window_run_dispose      (NscWindow       *self);
/* The window closes: FALSE, or TRUE while a run winds down first (it closes the
 * window once its result is saved). */
gboolean         _nsc_window_run_close        (NscWindow       *self);

G_END_DECLS

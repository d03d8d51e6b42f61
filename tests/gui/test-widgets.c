/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#include <adwaita.h>
#include <glib/gstdio.h>

#include "nsc-application.h"
#include "nsc-bench-group.h"
#include "nsc-chart-panel.h"
#include "nsc-chart-view.h"
#include "nsc-compare-table.h"
#include "nsc-device-row.h"
#include "nsc-history.h"
#include "nsc-preferences.h"
#include "nsc-preset-chooser.h"
#include "nsc-reflow-box.h"
#include "nsc-results-grid.h"
#include "nsc-session.h"
#include "nsc-start-page.h"
#include "nsc-target-picker.h"
#include "nsc-warnings-list.h"
#include "nsc-window.h"

/* Each of the app's widgets is built, used a little, and must finalize when its
 * last reference goes: g_assert_finalize_object fails on a reference kept anywhere
 * (a signal closure, an idle callback, a cycle through a child). */

/* A saved result of a real run: the review suite on a loop device. */
static JsonNode *
load_result (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "review-loop.json", NULL);
  g_autoptr(GError) error = NULL;
  JsonNode *result = nsc_result_file_load (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

/* Callbacks a widget queued (idle redraws, deferred layout) run, and drop what they hold. */
static void
drain (void)
{
  for (guint i = 0; i < 100 && g_main_context_iteration (NULL, FALSE); i++)
    ;
}

/* Shown in a window for a moment (realized, measured, allocated, drawn), then taken
 * out of it again: the widget's only reference is the caller's. */
static void
show_briefly (GtkWidget *widget)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_child (GTK_WINDOW (window), widget);
  gtk_window_present (GTK_WINDOW (window));
  drain ();
  gtk_window_set_child (GTK_WINDOW (window), NULL);
  gtk_window_destroy (GTK_WINDOW (window));
  drain ();
}

static guint
count_descendants (GtkWidget *widget,
                   GType      type)
{
  guint n = G_TYPE_CHECK_INSTANCE_TYPE (widget, type) ? 1 : 0;

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    n += count_descendants (c, type);
  return n;
}

static void
test_warnings_list (void)
{
  GtkWidget *list = g_object_ref_sink (nsc_warnings_list_new ());
  g_autoptr(JsonNode) result = load_result ();
  NscWarning *warning = nsc_warning_new (NSC_WARNING_FRESH_READS, 0);

  g_assert_false (gtk_widget_get_visible (list));
  nsc_warnings_list_add (NSC_WARNINGS_LIST (list), warning);
  g_assert_cmpuint (nsc_warnings_list_get_count (NSC_WARNINGS_LIST (list)), ==, 1);
  g_assert_true (gtk_widget_get_visible (list));
  nsc_warnings_list_clear (NSC_WARNINGS_LIST (list));
  g_assert_cmpuint (nsc_warnings_list_get_count (NSC_WARNINGS_LIST (list)), ==, 0);
  nsc_warnings_list_add_json (NSC_WARNINGS_LIST (list), result);
  g_assert_cmpuint (nsc_warnings_list_get_count (NSC_WARNINGS_LIST (list)), >, 1);
  nsc_warnings_list_set_unit (NSC_WARNINGS_LIST (list), NSC_UNITS_MB);
  show_briefly (list);
  nsc_warning_free (warning);
  g_assert_finalize_object (list);
}

static void
test_start_page (void)
{
  g_autoptr(NscPreset) preset = nsc_preset_lookup ("quick", NULL);
  g_autofree char *markup = NULL;
  NscRunOptions user = NSC_RUN_OPTIONS_INIT;
  g_autoptr(NscPlan) plan = NULL;
  NscStartFacts facts = { 0 };

  g_assert_nonnull (preset);
  plan = nsc_plan_new (preset, "/srv/bench-folder", FALSE, 0, &user);
  facts.target = "/srv/bench-folder";
  facts.plan = plan;
  markup = nsc_start_page_target_markup (preset, &facts);
  /* The sentence names the folder the test file goes in. */
  g_assert_nonnull (strstr (markup, "bench-folder"));
  g_assert_cmpint (nsc_start_page_estimate_ns (preset, &facts, NULL), >, 0);
}

/* Every preset, with the preferences off, on (custom size, length, runs, idle and
 * strict), CrystalDiskMark's way and with what write tests wrote checked, in a folder
 * and on a drive: what the start page promises is the plan of the preset that runs,
 * and the runner Run starts on the session's options of the same choice times its
 * steps as the plan does. */
static void
test_plan_promise (void)
{
  g_auto(GStrv) names = nsc_preset_list_names ();
  NscDeviceInfo drive = { 0 };
  guint n_checked = 0;

  drive.name = (char *) "nvme9n1";
  drive.devnode = (char *) "/dev/nvme9n1";
  drive.capacity = G_GUINT64_CONSTANT (64) << 30;
  for (guint i = 0; names[i]; i++)
    for (guint p = 0; p < 4; p++)
      for (guint d = 0; d < 2; d++)
        {
          g_autoptr(NscPreset) chosen = nsc_preset_lookup (names[i], NULL);
          g_autoptr(NscPreset) checked = NULL;
          const NscPreset *preset = chosen;
          g_autoptr(NscPrefs) prefs = nsc_prefs_new (NULL);
          g_autoptr(NscPlan) plan = NULL;
          g_autoptr(NscRunner) runner = NULL;
          g_autofree char *markup = NULL;
          g_autofree char *budget = NULL;
          const char *target = d ? drive.devnode : g_get_tmp_dir ();
          NscRunOptions user, opts;
          NscStartFacts facts = { 0 };
          gboolean from_history = TRUE;
          gint64 promised, expected, reads_ns;

          g_assert_nonnull (chosen);
          if (p == 1)
            {
              prefs->custom = TRUE;
              prefs->test_size = G_GUINT64_CONSTANT (256) << 20;
              prefs->duration_seconds = 3;
              prefs->runs = 2;
              prefs->idle_seconds = 1;
              prefs->strict = TRUE;
            }
          else if (p == 2)
            prefs->cdm = TRUE;
          else if (p == 3)
            prefs->verify_writes = TRUE;
          /* The preset that runs, as the window decides it. */
          if ((checked = nsc_prefs_run_preset (prefs, chosen)) != NULL)
            preset = checked;
          nsc_prefs_run_options (prefs, NULL, &user);
          plan = nsc_plan_new (preset, target, d, drive.capacity, &user);
          g_assert_true (plan->budget_known);

          facts.target = target;
          facts.device = d ? &drive : NULL;
          facts.plan = plan;
          facts.units = NSC_UNITS_MIB;
          promised = nsc_start_page_estimate_ns (preset, &facts, &from_history);
          g_assert_false (from_history);
          /* The clock's part, and the bytes written and read at the pace the page says
           * it assumed. */
          reads_ns = plan->read_bytes ? (gint64) ((double) plan->read_bytes / (500.0 * 1048576) * 1e9) : 0;
          /* The bytes the time is reckoned on: every bounded write, but the quick
           * probe's, whose bound is what a fake with a large cache costs and whose time
           * is what a good drive costs (the runner paces it so too). */
          if (nsc_preset_only_probes (preset) && d)
            g_assert_cmpuint (plan->expected_bytes, <, plan->total_bytes);
          else
            g_assert_cmpuint (plan->expected_bytes, ==, plan->total_bytes);
          expected = plan->timed_ns + reads_ns
                     + (plan->expected_bytes
                        ? (gint64) ((double) plan->expected_bytes / (500.0 * 1048576) * 1e9) : 0);
          g_assert_cmpint (promised, ==, expected);
          markup = nsc_start_page_preset_markup (preset, &facts);
          budget = g_markup_escape_text (nsc_write_budget_describe (preset, &plan->budget_target), -1);
          g_assert_nonnull (strstr (markup, budget));

          /* The drive's last speed, once its history was read, paces the same bytes. */
          if (plan->total_bytes > 0)
            {
              g_autofree char *known = NULL;

              facts.history_write_bps = 100e6;
              g_assert_cmpint (nsc_start_page_estimate_ns (preset, &facts, &from_history), ==,
                               plan->timed_ns + reads_ns
                               + (gint64) ((double) plan->expected_bytes / 100e6 * 1e9));
              g_assert_true (from_history);
              known = nsc_start_page_preset_markup (preset, &facts);
              g_assert_nonnull (strstr (known, "at the speed this drive showed last time"));
              facts.history_write_bps = 0;
            }

          /* What Run starts: nsc_session_new () completes the same choice. */
          nsc_session_options (&opts, target, &user);
          runner = nsc_runner_new (preset, &opts);
          g_assert_cmpint (nsc_runner_get_estimate_ns (runner), ==, plan->timed_ns);
          g_assert_cmpuint (plan->timing.runs, ==, p == 1 ? 2 : p == 2 ? 5 : MAX (preset->runs, 1u));
          g_assert_true (plan->writes == nsc_run_writes (preset, &opts));
          n_checked++;
        }
  g_test_message ("%u presets × 4 choices × 2 targets: the promise is the plan", n_checked / 8);
}

/* The start page's promise for @name with Check What Write Tests Wrote @on, in a
 * folder or on a 64 GiB drive: its plan, time and words. */
typedef struct
{
  NscPreset *preset;    /* the preset that runs, when not the chosen one */
  NscPlan   *plan;
  gint64     estimate;
  char      *markup;
} Promise;

static void
promise_clear (Promise *p)
{
  g_clear_pointer (&p->plan, nsc_plan_free);
  g_clear_pointer (&p->preset, nsc_preset_free);
  g_clear_pointer (&p->markup, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Promise, promise_clear)

static void
promise (const NscPreset *chosen,
         gboolean         on,
         gboolean         drive,
         Promise         *out)
{
  g_autoptr(NscPrefs) prefs = nsc_prefs_new (NULL);
  NscDeviceInfo dev = { 0 };
  const char *target = drive ? "/dev/nvme9n1" : g_get_tmp_dir ();
  NscRunOptions user;
  NscStartFacts facts = { 0 };

  dev.name = (char *) "nvme9n1";
  dev.devnode = (char *) "/dev/nvme9n1";
  dev.capacity = G_GUINT64_CONSTANT (64) << 30;
  g_object_set (prefs, "verify-writes", on, NULL);
  out->preset = nsc_prefs_run_preset (prefs, chosen);
  nsc_prefs_run_options (prefs, NULL, &user);
  out->plan = nsc_plan_new (out->preset ? out->preset : chosen, target, drive, dev.capacity, &user);
  g_assert_true (out->plan->budget_known);
  facts.target = target;
  facts.device = drive ? &dev : NULL;
  facts.plan = out->plan;
  facts.writes_checked = out->preset != NULL;
  facts.units = NSC_UNITS_MIB;
  out->estimate = nsc_start_page_estimate_ns (out->plan->preset, &facts, NULL);
  out->markup = nsc_start_page_preset_markup (out->plan->preset, &facts);
}

static guint
count_analysis (const NscPreset *preset,
                const char      *analysis)
{
  guint n = 0;

  for (guint i = 0; i < preset->steps->len; i++)
    n += g_str_equal (g_array_index (preset->steps, NscStep, i).analysis, analysis);
  return n;
}

/* With Check What Write Tests Wrote, a write-fill's promise holds its read-back: the
 * bytes read, the time, and a sentence that says so; a preset without a write-fill,
 * and the capacity check (which reads back already), promise what they did. */
static void
test_plan_verify_writes (void)
{
  const char *what = "What the write tests wrote is read back and every block checked.";

  for (guint d = 0; d < 2; d++)
    {
      g_autoptr(NscPreset) fill = nsc_preset_lookup ("write-fill", NULL);
      g_autoptr(NscPreset) quick = nsc_preset_lookup ("quick", NULL);
      g_autoptr(NscPreset) verify = nsc_preset_lookup ("verify", NULL);
      g_auto(Promise) fill_off = { 0 };
      g_auto(Promise) fill_on = { 0 };
      g_auto(Promise) quick_off = { 0 };
      g_auto(Promise) quick_on = { 0 };
      g_auto(Promise) verify_off = { 0 };
      g_auto(Promise) verify_on = { 0 };

      promise (fill, FALSE, d, &fill_off);
      promise (fill, TRUE, d, &fill_on);
      g_assert_null (fill_off.preset);
      g_assert_nonnull (fill_on.preset);
      /* One read-back after the one write-fill, counted in the promise. */
      g_assert_cmpuint (count_analysis (fill_on.plan->preset, "verify"), ==, 1);
      g_assert_cmpuint (fill_off.plan->read_bytes, ==, 0);
      g_assert_cmpuint (fill_on.plan->read_bytes, >, 0);
      g_assert_cmpuint (fill_on.plan->read_bytes, ==, fill_on.plan->total_bytes);
      g_assert_cmpuint (fill_on.plan->total_bytes, ==, fill_off.plan->total_bytes);
      g_assert_cmpint (fill_on.estimate, >, fill_off.estimate);
      g_assert_true (fill_on.plan->writes == fill_off.plan->writes);
      g_assert_nonnull (strstr (fill_on.markup, what));
      g_assert_null (strstr (fill_off.markup, what));
      /* "… writes 60 GiB and reads 60 GiB at 500 MiB/s" */
      g_assert_nonnull (strstr (fill_on.markup, " and reads "));

      promise (quick, FALSE, d, &quick_off);
      promise (quick, TRUE, d, &quick_on);
      g_assert_null (quick_on.preset);
      g_assert_cmpint (quick_on.estimate, ==, quick_off.estimate);
      g_assert_cmpuint (quick_on.plan->read_bytes, ==, quick_off.plan->read_bytes);
      g_assert_cmpstr (quick_on.markup, ==, quick_off.markup);

      promise (verify, FALSE, d, &verify_off);
      promise (verify, TRUE, d, &verify_on);
      g_assert_null (verify_on.preset);
      g_assert_cmpint (verify_on.estimate, ==, verify_off.estimate);
      g_assert_cmpstr (verify_on.markup, ==, verify_off.markup);
    }
}

static void
test_compare_table (void)
{
  g_autoptr(JsonNode) result = load_result ();
  g_autoptr(GPtrArray) results = g_ptr_array_new ();
  g_autoptr(GPtrArray) legends = g_ptr_array_new ();
  GtkWidget *table;

  g_ptr_array_add (results, result);
  g_ptr_array_add (results, result);
  g_ptr_array_add (legends, (gpointer) "first");
  g_ptr_array_add (legends, (gpointer) "second");
  table = g_object_ref_sink (nsc_compare_table_new (results, legends, NSC_UNITS_MB));
  /* Two results of the same run: many numbers side by side. */
  g_assert_cmpuint (count_descendants (table, GTK_TYPE_LABEL), >, 10);
  show_briefly (table);
  g_assert_finalize_object (table);
}

static void
test_reflow_box (void)
{
  GtkWidget *box = g_object_ref_sink (nsc_reflow_box_new ());
  GtkWidget *a = gtk_label_new ("a rather long first child");
  GtkWidget *b = gtk_label_new ("second");
  int wide = 0, narrow = 0;

  gtk_widget_set_parent (a, box);
  gtk_widget_set_parent (b, box);
  g_object_set (box, "wide-width", 50, NULL);
  {
    int w = 0;
    g_object_get (box, "wide-width", &w, NULL);
    g_assert_cmpint (w, ==, 50);
  }
  /* Side by side it needs the widths of both; one above the other, the wider one's. */
  gtk_widget_measure (box, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &wide, NULL, NULL);
  gtk_widget_measure (a, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &narrow, NULL, NULL);
  g_assert_cmpint (wide, >, narrow);
  show_briefly (box);
  g_assert_finalize_object (box);
}

static void
test_results_grid (void)
{
  GtkWidget *grid = g_object_ref_sink (nsc_results_grid_new ());
  g_autoptr(JsonNode) result = load_result ();
  g_autoptr(NscPreset) preset = nsc_preset_lookup ("quick", NULL);
  guint before;

  nsc_results_grid_set_preset (NSC_RESULTS_GRID (grid), preset);
  before = count_descendants (grid, GTK_TYPE_LABEL);
  g_assert_cmpuint (before, >, 0);
  nsc_results_grid_show_result (NSC_RESULTS_GRID (grid), result);
  /* The review suite has many more tests than Quick. */
  g_assert_cmpuint (count_descendants (grid, GTK_TYPE_LABEL), >, before);
  nsc_results_grid_set_units (NSC_RESULTS_GRID (grid), NSC_UNITS_IOPS);
  show_briefly (grid);
  g_assert_finalize_object (grid);
}

static void
test_bench_group (void)
{
  g_autoptr(JsonNode) result = load_result ();
  GtkWidget *group = g_object_ref_sink (nsc_bench_group_new (result));

  g_assert_true (ADW_IS_PREFERENCES_GROUP (group));
  /* A row per fact: CPU, kernel, mitigations… */
  g_assert_cmpuint (count_descendants (group, ADW_TYPE_ACTION_ROW), >=, 3);
  show_briefly (group);
  g_assert_finalize_object (group);
}

static void
test_chart_panel (void)
{
  GtkWidget *panel = g_object_ref_sink (nsc_chart_panel_new ());
  g_autoptr(JsonNode) result = load_result ();
  g_autoptr(GPtrArray) results = g_ptr_array_new ();
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_ptr_array_add (results, result);
  g_ptr_array_add (paths, (gpointer) "review-loop.json");
  g_assert_true (nsc_chart_panel_set_results (NSC_CHART_PANEL (panel), results, paths, &error));
  g_assert_no_error (error);
  g_assert_nonnull (nsc_chart_view_get_chart (nsc_chart_panel_get_view (NSC_CHART_PANEL (panel))));
  text = nsc_chart_panel_get_text (NSC_CHART_PANEL (panel));
  g_assert_nonnull (text);
  nsc_chart_panel_set_units (NSC_CHART_PANEL (panel), NSC_UNITS_MB);
  show_briefly (panel);
  nsc_chart_panel_clear (NSC_CHART_PANEL (panel));
  g_assert_finalize_object (panel);
}

static void
test_chart_view (void)
{
  GtkWidget *view = g_object_ref_sink (nsc_chart_view_new ());

  g_assert_null (nsc_chart_view_get_chart (NSC_CHART_VIEW (view)));
  nsc_chart_view_set_chart (NSC_CHART_VIEW (view), nsc_chart_new_live (NSC_CHART_TIME, "live"));
  g_assert_nonnull (nsc_chart_view_get_chart (NSC_CHART_VIEW (view)));
  nsc_chart_view_set_units (NSC_CHART_VIEW (view), NSC_UNITS_MB);
  g_assert_cmpint (nsc_chart_view_get_units (NSC_CHART_VIEW (view)), ==, NSC_UNITS_MB);
  show_briefly (view);
  g_assert_finalize_object (view);
}

static void
test_device_row (void)
{
  g_autoptr(GPtrArray) devices = NULL;
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "data", "sysfs-laptop", NULL);
  g_autofree char *mountinfo_path = g_strconcat (root, ".mountinfo", NULL);
  g_autofree char *mountinfo = NULL;
  g_autoptr(GError) error = NULL;
  const NscDeviceInfo *info;
  GtkWidget *row;

  g_assert_true (g_file_get_contents (mountinfo_path, &mountinfo, NULL, NULL));
  devices = nsc_device_discover_at (root, mountinfo, NULL, NSC_DISCOVER_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (devices->len, >, 0);
  info = g_ptr_array_index (devices, 0);
  row = g_object_ref_sink (nsc_device_row_new (info, TRUE, NULL, "UDisks2 is not running"));
  /* A drive the app cannot open cannot be chosen. */
  g_assert_false (gtk_list_box_row_get_activatable (GTK_LIST_BOX_ROW (row)));
  /* A row lives in a list. */
  {
    GtkWidget *list = g_object_ref_sink (gtk_list_box_new ());

    gtk_list_box_append (GTK_LIST_BOX (list), row);
    show_briefly (list);
    gtk_list_box_remove (GTK_LIST_BOX (list), row);
    g_assert_finalize_object (list);
  }
  g_assert_finalize_object (row);
}

static void
test_history (void)
{
  GtkWidget *history = GTK_WIDGET (nsc_history_window_new (NULL));

  g_object_ref (history);
  nsc_history_window_set_units (NSC_HISTORY_WINDOW (history), NSC_UNITS_MB);
  nsc_history_window_reload (NSC_HISTORY_WINDOW (history));
  gtk_window_present (GTK_WINDOW (history));
  drain ();
  gtk_window_destroy (GTK_WINDOW (history));
  drain ();
  g_assert_finalize_object (history);
}

static void
on_notify (GObject    *object,
           GParamSpec *pspec,
           guint      *count)
{
  (*count)++;
}

static gboolean
offer_only_quick (const NscPreset *preset,
                  gpointer         user_data)
{
  return g_str_equal (preset->name, "quick");
}

static char *
caption (const NscPreset *preset,
         gpointer         user_data)
{
  return g_strdup_printf ("caption of %s", preset->name);
}

static void
test_preset_chooser (void)
{
  GtkWidget *chooser = g_object_ref_sink (nsc_preset_chooser_new ());
  NscPresetChooser *pc = NSC_PRESET_CHOOSER (chooser);
  g_auto(GStrv) names = nsc_preset_list_names ();
  const char *other = NULL;
  g_autofree char *property = NULL;
  guint notified = 0;

  /* Something is chosen from the start, the first of the first group. */
  g_assert_nonnull (nsc_preset_chooser_get_preset (pc));
  for (guint i = 0; names[i] != NULL && other == NULL; i++)
    if (g_strcmp0 (names[i], nsc_preset_chooser_get_preset_name (pc)) != 0)
      other = names[i];
  g_assert_nonnull (other);

  g_signal_connect (chooser, "notify::preset-name", G_CALLBACK (on_notify), &notified);
  g_assert_true (nsc_preset_chooser_select (pc, other));
  g_assert_cmpstr (nsc_preset_chooser_get_preset_name (pc), ==, other);
  g_assert_cmpstr (nsc_preset_chooser_get_preset (pc)->name, ==, other);
  g_assert_cmpuint (notified, ==, 1);
  g_object_get (chooser, "preset-name", &property, NULL);
  g_assert_cmpstr (property, ==, other);
  g_assert_false (nsc_preset_chooser_select (pc, "no-such-preset"));
  g_assert_cmpstr (nsc_preset_chooser_get_preset_name (pc), ==, other);

  /* Only Quick offered: the choice moves to it, and says so; the others are still known. */
  nsc_preset_chooser_set_funcs (pc, offer_only_quick, caption, NULL);
  g_assert_cmpstr (nsc_preset_chooser_get_preset_name (pc), ==, "quick");
  g_assert_cmpuint (notified, >=, 2);
  g_assert_false (nsc_preset_chooser_select (pc, other));
  g_assert_nonnull (nsc_preset_chooser_find (pc, other));

  show_briefly (chooser);
  g_assert_finalize_object (chooser);
}

/* The picker opened on a button: Home, the folder chosen last, Other Folder… and a row
 * for each drive this machine has (or one that says there are none); closed, taken off
 * the button, it goes with its last reference even while UDisks2 is still answering. */
static void
test_target_picker (void)
{
  GtkWidget *picker = g_object_ref_sink (nsc_target_picker_new ());
  GtkWidget *window = gtk_window_new ();
  GtkWidget *button = gtk_menu_button_new ();
  g_autofree char *folder = g_dir_make_tmp ("nsc-picker-XXXXXX", NULL);
  guint before, after;

  g_assert_nonnull (folder);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), picker);
  gtk_window_set_child (GTK_WINDOW (window), button);
  gtk_window_present (GTK_WINDOW (window));
  drain ();
  gtk_popover_popup (GTK_POPOVER (picker));
  drain ();
  before = count_descendants (picker, GTK_TYPE_LIST_BOX_ROW);
  /* Home, Other Folder…, and at least one row in the drives' list. */
  g_assert_cmpuint (before, >=, 3);
  gtk_popover_popdown (GTK_POPOVER (picker));
  nsc_target_picker_set_current (NSC_TARGET_PICKER (picker), folder, NULL);
  gtk_popover_popup (GTK_POPOVER (picker));
  drain ();
  after = count_descendants (picker, GTK_TYPE_LIST_BOX_ROW);
  g_assert_cmpuint (after, >=, before + 1);
  gtk_popover_popdown (GTK_POPOVER (picker));
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), NULL);
  gtk_window_destroy (GTK_WINDOW (window));
  drain ();
  g_assert_finalize_object (picker);
  g_rmdir (folder);
}

static GtkWidget *
find_named (GtkWidget  *widget,
            const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (widget), name) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_named (c, name);
      if (found)
        return found;
    }
  return NULL;
}

/* The preferences window's rows are bound to the preferences: a choice there is the
 * preferences' value at once, and a change of the value shows there. */
static void
test_preferences (void)
{
  NscPrefs *prefs = nsc_prefs_new (NULL);
  GtkWidget *window = GTK_WIDGET (nsc_preferences_window_new (NULL, prefs));
  GtkWidget *units, *verify;
  guint notified = 0;

  g_object_ref (window);
  g_signal_connect (prefs, "notify::units", G_CALLBACK (on_notify), &notified);
  gtk_window_present (GTK_WINDOW (window));
  drain ();
  units = find_named (window, "units");
  g_assert_nonnull (units);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (units)), ==, NSC_UNITS_MIB);
  adw_combo_row_set_selected (ADW_COMBO_ROW (units), NSC_UNITS_MB);
  g_assert_cmpuint (prefs->units, ==, NSC_UNITS_MB);
  g_assert_cmpuint (notified, ==, 1);
  g_object_set (prefs, "units", (guint) NSC_UNITS_IOPS, NULL);
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (units)), ==, NSC_UNITS_IOPS);
  verify = find_named (window, "verify_writes");
  g_assert_true (GTK_IS_SWITCH (verify));
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (verify)));
  gtk_switch_set_active (GTK_SWITCH (verify), TRUE);
  g_assert_true (prefs->verify_writes);
  g_object_set (prefs, "verify-writes", FALSE, NULL);
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (verify)));
  g_object_set (prefs, "strict-conditions", TRUE, "test-size", (guint64) 4 << 30, NULL);

  gtk_window_destroy (GTK_WINDOW (window));
  drain ();
  g_assert_finalize_object (window);
  g_assert_finalize_object (prefs);
}

/* With the schema (compiled beside the test), the preferences are the settings' keys,
 * both ways. */
static void
test_prefs_settings (void)
{
  const char *dir = g_getenv ("NSC_TEST_SCHEMA_DIR");
  g_autoptr(GSettingsSchemaSource) source = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr(GError) error = NULL;
  GSettings *settings;
  NscPrefs *prefs;
  g_autofree char *units = NULL;

  if (dir == NULL)
    {
      g_test_skip ("NSC_TEST_SCHEMA_DIR is not set");
      return;
    }
  source = g_settings_schema_source_new_from_directory (dir, NULL, TRUE, &error);
  g_assert_no_error (error);
  schema = g_settings_schema_source_lookup (source, "io.github.nandscope.Nandscope", FALSE);
  g_assert_nonnull (schema);
  settings = g_settings_new_full (schema, backend, NULL);
  g_settings_set_string (settings, "units", "mb");
  g_settings_set_uint (settings, "runs", 7);
  prefs = nsc_prefs_new (settings);
  g_assert_cmpuint (prefs->units, ==, NSC_UNITS_MB);
  g_assert_cmpuint (prefs->runs, ==, 7);
  g_assert_cmpuint (prefs->test_size, ==, 1ull << 30);

  g_settings_set_boolean (settings, "strict-conditions", TRUE);
  g_assert_true (prefs->strict);
  g_assert_false (prefs->verify_writes);
  g_settings_set_boolean (settings, "verify-writes", TRUE);
  g_assert_true (prefs->verify_writes);
  g_object_set (prefs, "units", (guint) NSC_UNITS_US, "test-size", (guint64) 16 << 30, NULL);
  units = g_settings_get_string (settings, "units");
  g_assert_cmpstr (units, ==, "us");
  g_assert_cmpuint (g_settings_get_uint64 (settings, "test-size"), ==, 16ull << 30);

  g_assert_finalize_object (prefs);
  g_assert_finalize_object (settings);
}

/* Weak pointers to every widget of ours under @widget. */
static void
watch_own_widgets (GtkWidget *widget,
                   GPtrArray *watched)
{
  if (g_str_has_prefix (G_OBJECT_TYPE_NAME (widget), "Nsc"))
    {
      gpointer *slot = g_new (gpointer, 1);

      *slot = widget;
      g_object_add_weak_pointer (G_OBJECT (widget), slot);
      g_ptr_array_add (watched, slot);
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    watch_own_widgets (c, watched);
}

static void
on_startup (GApplication *app)
{
  GtkWidget *window = GTK_WIDGET (nsc_window_new (NSC_APPLICATION (app)));
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "review-loop.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) watched = g_ptr_array_new_with_free_func (g_free);

  g_object_ref (window);
  gtk_window_present (GTK_WINDOW (window));
  drain ();
  g_assert_false (nsc_window_get_running (NSC_WINDOW (window)));
  g_assert_false (nsc_window_set_preset (NSC_WINDOW (window), "no-such-preset", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_true (nsc_window_set_preset (NSC_WINDOW (window), "quick", &error));
  g_assert_no_error (error);
  /* A saved result on the results page, as the history opens it. */
  g_assert_true (nsc_window_open_result (NSC_WINDOW (window), path, &error));
  g_assert_no_error (error);
  text = nsc_window_get_text (NSC_WINDOW (window));
  g_assert_nonnull (text);
  drain ();
  watch_own_widgets (window, watched);
  /* The window and its parts: grid, chart panel, warnings, preset chooser… */
  g_assert_cmpuint (watched->len, >=, 6);
  gtk_window_destroy (GTK_WINDOW (window));
  drain ();
  g_assert_finalize_object (window);
  /* Each of them went with the window. */
  for (guint i = 0; i < watched->len; i++)
    g_assert_null (*(gpointer *) g_ptr_array_index (watched, i));
}

/* The main window on a real, registered NscApplication. */
static void
test_window (void)
{
  NscApplication *app = nsc_application_new ();
  g_autoptr(GError) error = NULL;

  /* Registered, so that windows can be added; startup builds the window. */
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_signal_connect_after (app, "startup", G_CALLBACK (on_startup), NULL);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  drain ();
  /* The window was finalized in on_startup. A registered application keeps a reference
   * of its own until the shutdown that only g_application_run () performs. */
  g_object_unref (app);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/nsc/gui/warnings-list", test_warnings_list);
  g_test_add_func ("/nsc/gui/start-page", test_start_page);
  g_test_add_func ("/nsc/gui/plan-promise", test_plan_promise);
  g_test_add_func ("/nsc/gui/plan-verify-writes", test_plan_verify_writes);
  g_test_add_func ("/nsc/gui/compare-table", test_compare_table);
  g_test_add_func ("/nsc/gui/reflow-box", test_reflow_box);
  g_test_add_func ("/nsc/gui/results-grid", test_results_grid);
  g_test_add_func ("/nsc/gui/bench-group", test_bench_group);
  g_test_add_func ("/nsc/gui/chart-panel", test_chart_panel);
  g_test_add_func ("/nsc/gui/chart-view", test_chart_view);
  g_test_add_func ("/nsc/gui/device-row", test_device_row);
  g_test_add_func ("/nsc/gui/history", test_history);
  g_test_add_func ("/nsc/gui/preset-chooser", test_preset_chooser);
  g_test_add_func ("/nsc/gui/target-picker", test_target_picker);
  g_test_add_func ("/nsc/gui/preferences", test_preferences);
  g_test_add_func ("/nsc/gui/prefs-settings", test_prefs_settings);
  g_test_add_func ("/nsc/gui/window", test_window);
  return g_test_run ();
}

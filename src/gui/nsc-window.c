/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "nsc-bench.h"
#include "nsc-bench-group.h"
#include "nsc-chart-panel.h"
#include "nsc-device.h"
#include "nsc-device-row.h"
#include "nsc-display.h"
#include "nsc-engine.h"
#include "nsc-history.h"
#include "nsc-json.h"
#include "nsc-preferences.h"
#include "nsc-preset-chooser.h"
#include "nsc-result-info.h"
#include "nsc-reflow-box.h"
#include "nsc-results-grid.h"
#include "nsc-session.h"
#include "nsc-start-page.h"
#include "nsc-target-picker.h"
#include "nsc-warnings-list.h"
#include "nsc-window.h"
#include "nsc-window-private.h"
#include "nsc-words.h"

G_DEFINE_FINAL_TYPE (NscWindow, nsc_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  SIGNAL_RUN_FINISHED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

/* ---- helpers ---------------------------------------------------------------- */

const NscPreset *
_nsc_window_get_preset (NscWindow *self)
{
  return nsc_preset_chooser_get_preset (self->preset_chooser);
}

/* Whether @preset can run on the target; if not, @why says why and what to do. */
gboolean
_nsc_window_preset_offered (NscWindow        *self,
                            const NscPreset  *preset,
                            char            **why)
{
  /* In a folder every preset runs on a test file, the user's files stay; but erasing
   * or scanning a drive means a drive. */
  if (self->target_device == NULL)
    {
      if (preset->needs_device && why)
        /* TRANSLATORS: "Surface scan needs a drive: …" */
        *why = g_strdup_printf (_("%s needs a drive: choose one under Drives in the target "
                                  "menu, a drive that nothing uses"), nsc_words_preset_title (preset));
      return !preset->needs_device;
    }

  if (_nsc_window_run_writes (self, preset))
    {
      g_autofree char *refusal = nsc_device_row_refusal (self->target_device);

      if (refusal != NULL)
        {
          if (why)
            {
              g_autofree char *title = nsc_device_row_title (self->target_device);
              /* TRANSLATORS: "Quick writes to the drive, so it cannot run on Samsung …
               * (sda): It is mounted at /data. Unmount it …" */
              *why = g_strdup_printf (_("%s writes to the drive, so it cannot run on %s (%s): %s"),
                                      nsc_words_preset_title (preset), title,
                                      self->target_device->devnode, refusal);
            }
          return FALSE;
        }
    }
  return TRUE;
}

/* The target changed: offer what can run on it, keeping the choice where it can. */
static void
refilter_presets (NscWindow *self)
{
  const NscPreset *before = _nsc_window_get_preset (self);
  const NscPreset *now;

  nsc_preset_chooser_refilter (self->preset_chooser);
  now = _nsc_window_get_preset (self);
  /* Never a silent swap: the user chose the other one. */
  if (before != NULL && now != NULL && now != before)
    {
      g_autofree char *where = self->target_device ? nsc_device_row_title (self->target_device)
                                                   : nsc_display_folder_name (self->target);
      /* TRANSLATORS: "Quick cannot run on Samsung 980 PRO; Surface scan is chosen instead" */
      g_autofree char *text = g_strdup_printf (_("%s cannot run on %s; %s is chosen instead"),
                                               before->title, where, now->title);
      _nsc_window_add_toast (self, text, NULL, NULL);
    }
}

guint
_nsc_window_effective_runs (NscWindow       *self,
                            const NscPreset *preset)
{
  g_autoptr(NscPlan) plan = _nsc_window_plan (self, preset);

  return plan->timing.runs;
}

/* What the start page knows before anything runs: the plan Run will run, and the
 * drive's history as last read. The caller owns @plan. */
static void
start_facts (NscWindow       *self,
             const NscPlan   *plan,
             NscStartFacts   *f)
{
  *f = (NscStartFacts) { 0 };
  f->target = self->target;
  f->device = self->target_device;
  f->under_folder = self->folder_device;
  f->history_write_bps = self->history_write_bps;
  f->plan = plan;
  f->writes_checked = _nsc_window_plan_checks_writes (self, plan);
  f->units = self->prefs->units;
}

/* What @name's plan writes (@expected: what the time is reckoned on) and how long it
 * takes here, from the plan Run would run. */
static void
offer_cost (NscWindow  *self,
            const char *name,
            gboolean    expected,
            char      **size,
            char      **duration)
{
  g_autoptr(NscPreset) preset = nsc_preset_lookup (name, NULL);
  g_autoptr(NscPlan) plan = NULL;
  NscStartFacts f;

  *size = *duration = NULL;
  if (preset == NULL)
    return;
  plan = _nsc_window_plan (self, preset);
  start_facts (self, plan, &f);
  *duration = nsc_words_about (nsc_start_page_estimate_ns (plan->preset, &f, NULL) / 1e9, FALSE);
  *size = nsc_words_size (!plan->budget_known ? self->target_device->capacity
                          : expected ? plan->expected_bytes : plan->total_bytes);
}

/* A blank drive (nsc_device_row_is_new) is offered the quick probe first, then the
 * full capacity check, with what each writes and how long it takes here (markup).
 * With the probe chosen, the check that settles what a probe cannot. */
static char *
new_drive_offer (NscWindow  *self,
                 const char *chosen)
{
  g_autofree char *probe_size = NULL, *probe_time = NULL, *check_size = NULL, *check_time = NULL;

  offer_cost (self, "probe", TRUE, &probe_size, &probe_time);
  offer_cost (self, "verify", FALSE, &check_size, &check_time);
  if (probe_size == NULL || check_size == NULL)
    return g_strdup ("");
  if (g_strcmp0 (chosen, "probe") == 0)
    /* Translators: the start page on a blank drive with the quick probe chosen: the
     * bytes the full check writes, how long it takes ("about 40 minutes") */
    return g_markup_printf_escaped (_("<b>New drive</b>: a probe cannot prove a drive good. "
                                      "The capacity check settles it: it writes all of it (%s), "
                                      "reads it back and verifies every block: %s. Then Quick."),
                                    check_size, check_time);
  /* Translators: the start page on a blank drive: what the quick probe writes on a good
   * drive and its time, then the same of the full check */
  return g_markup_printf_escaped (_("<b>New drive</b>: check first that it stores what it "
                                    "says. The quick probe finds most fakes writing about %s "
                                    "(%s); the capacity check writes all of it (%s), reads it "
                                    "back and verifies every block: %s. Then Quick."),
                                  probe_size, probe_time, check_size, check_time);
}

/* How long @plan's preset takes here, writes at the drive's last speed when known. */
static gint64
start_estimate_ns (NscWindow     *self,
                   const NscPlan *plan)
{
  NscStartFacts f;

  start_facts (self, plan, &f);
  return nsc_start_page_estimate_ns (plan->preset, &f, NULL);
}

void
_nsc_window_add_toast (NscWindow  *self,
                       const char *text,
                       const char *button_label,
                       const char *action_name)
{
  g_autofree char *markup = g_markup_escape_text (text, -1);
  AdwToast *toast = adw_toast_new (markup);

  if (button_label)
    {
      adw_toast_set_button_label (toast, button_label);
      adw_toast_set_action_name (toast, action_name);
    }
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* The preset's writes against the drive's own written total, where its SMART log was
 * read: said before Start. NULL when not known. */
static char *
wear_markup (NscWindow     *self,
             const NscPlan *plan)
{
  NscDeviceInfo *dev = self->target_device;
  g_autofree char *wear = NULL;

  if (dev == NULL || dev->nvme == NULL || !dev->nvme->have_smart)
    return NULL;
  if (plan->total_bytes == 0)
    return NULL;
  wear = nsc_write_budget_describe_wear (plan->total_bytes, dev->nvme->data_units_written * 512000,
                                         dev->nvme->percent_used);
  return g_markup_printf_escaped ("%s.", wear);
}

static void
update_info (NscWindow *self)
{
  const NscPreset *preset = _nsc_window_get_preset (self);
  g_autofree char *name = NULL;
  g_autofree char *path = nsc_display_path (self->target);
  g_autofree char *tooltip = NULL;
  g_autofree char *description = NULL;
  NscDeviceInfo *dev = self->target_device;
  g_autoptr(NscPlan) plan = NULL;
  NscStartFacts sf;
  gboolean offer_check = FALSE;

  if (dev != NULL)
    {
      g_autofree char *facts = nsc_device_row_facts (dev);

      name = nsc_device_row_title (dev);
      tooltip = g_strdup_printf (_("Test the drive %s: %s"), name, facts);
      gtk_image_set_from_icon_name (self->target_icon, "drive-harddisk-symbolic");
    }
  else
    {
      name = nsc_display_folder_name (self->target);
      tooltip = g_strdup_printf (_("Test in %s"), path);
      gtk_image_set_from_icon_name (self->target_icon,
                                    g_strcmp0 (self->target, g_get_home_dir ()) == 0
                                    ? "user-home-symbolic" : "folder-symbolic");
    }
  gtk_label_set_text (self->target_label, name);
  gtk_widget_set_tooltip_text (self->target_button, tooltip);

  if (preset == NULL)
    return;
  plan = _nsc_window_plan (self, preset);
  start_facts (self, plan, &sf);

  if (dev != NULL)
    {
      g_autofree char *title = g_markup_escape_text (name, -1);
      g_autofree char *facts = nsc_device_row_facts (dev);
      g_autofree char *escaped_facts = g_markup_escape_text (facts, -1);
      g_autofree char *refusal = nsc_device_row_refusal (dev);
      GString *text = g_string_new (NULL);

      if (plan->writes)
        g_string_append_printf (text, _("This test writes over <b>%s</b> (%s): everything on "
                                        "it will be destroyed. You will be asked to confirm, "
                                        "then for permission to open the drive."),
                                title, escaped_facts);
      else
        g_string_append_printf (text, _("This test only reads from <b>%s</b> (%s); nothing on "
                                        "it is changed. Opening the drive asks for permission."),
                                title, escaped_facts);
      if (refusal != NULL)
        {
          g_autofree char *escaped = g_markup_escape_text (refusal, -1);
          g_string_append (text, "\n\n");
          g_string_append_printf (text, _("Tests that write are not offered here. %s"), escaped);
        }
      else if (nsc_device_row_is_new (dev) && g_strcmp0 (preset->name, "verify") != 0)
        {
          g_autofree char *offer = new_drive_offer (self, preset->name);
          gboolean probing = g_str_equal (preset->name, "probe");

          g_string_append (text, "\n\n");
          g_string_append (text, offer);
          offer_check = TRUE;
          /* The probe first; once it is chosen, the full check. */
          gtk_button_set_label (self->check_button, probing ? _("_Check Capacity Fully")
                                                            : _("_Probe for a Fake First"));
          gtk_actionable_set_action_target (GTK_ACTIONABLE (self->check_button), "s",
                                            probing ? "verify" : "probe");
        }
      else if (nsc_device_row_is_new (dev))
        {
          g_string_append (text, "\n\n");
          g_string_append (text, _("<b>New drive</b>: the full suite can run on it, "
                                   "including the tests that fill the whole drive."));
        }
      description = g_string_free (text, FALSE);
    }
  else
    description = nsc_start_page_target_markup (plan->preset, &sf);

  /* A test file that cannot fit is said now, with a size that would, not after Run. */
  {
    g_autofree char *fit = nsc_plan_describe_fit (plan);

    self->fit_offer = fit != NULL ? plan->fitting_file : 0;
    if (fit != NULL)
      {
        g_autofree char *escaped = g_markup_escape_text (fit, -1);
        char *with = g_strdup_printf (self->fit_offer > 0 ? "%s\n\n<b>%s</b>"
                                      /* Translators: the start page, when not even a small
                                       * test file fits: the sentence about it, in bold */
                                      : _("%s\n\n<b>%s</b> Choose another folder."),
                                      description, escaped);
        g_free (description);
        description = with;
      }
    if (self->fit_offer > 0)
      {
        g_autofree char *size = nsc_words_size (self->fit_offer);
        /* Translators: the start page's button when the preset's test file does not
         * fit the folder: "Use a 1 GiB Test File" */
        g_autofree char *label = g_strdup_printf (_("Use a %s Test File"), size);

        gtk_button_set_label (self->fit_button, label);
      }
    gtk_widget_set_visible (GTK_WIDGET (self->fit_button), self->fit_offer > 0);
  }
  adw_status_page_set_description (self->status_page, description);
  gtk_widget_set_visible (GTK_WIDGET (self->check_button), offer_check);

  {
    double estimate_s = nsc_start_page_estimate_ns (plan->preset, &sf, NULL) / 1e9;
    g_autofree char *duration = nsc_words_about (estimate_s, FALSE);
    g_autofree char *about = nsc_words_about (estimate_s, TRUE);
    /* Translators: the window's subtitle: "Quick · about 3 minutes" */
    g_autofree char *subtitle = g_strdup_printf (C_("subtitle", "%s · %s"),
                                                 nsc_words_preset_title (preset), duration);
    g_autofree char *markup = nsc_start_page_preset_markup (plan->preset, &sf);
    g_autofree char *wear = wear_markup (self, plan);
    g_autofree char *dd_tooltip = NULL;

    if (wear != NULL)
      {
        char *with = g_strdup_printf ("%s %s", markup, wear);
        g_free (markup);
        markup = with;
      }

    gtk_label_set_markup (self->preset_label, markup);
    adw_window_title_set_subtitle (self->window_title,
                                   self->result_subtitle ? self->result_subtitle : subtitle);
    /* Translators: a preset's description, then "About 3 minutes" */
    dd_tooltip = g_strdup_printf (C_("tooltip", "%s\n%s"),
                                  nsc_words_preset_description (preset), about);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->preset_chooser), dd_tooltip);
  }
}

/* A new target or preset: what the page showed (an error, a result of another preset)
 * is about something else now, so the start page says what Run will do. */
static void
return_to_start (NscWindow *self)
{
  if (nsc_window_get_running (self))
    return;
  gtk_widget_set_visible (self->error_box, FALSE);
  gtk_stack_set_visible_child_name (self->stack, "idle");
}

void
_nsc_window_set_result_subtitle (NscWindow *self,
                                 JsonNode  *result)
{
  g_clear_pointer (&self->result_subtitle, g_free);
  if (result != NULL)
    {
      const char *preset = nsc_result_info_preset_title (result);
      g_autoptr(GDateTime) started = nsc_result_info_started (result);
      g_autofree char *date = nsc_result_info_format_date (started);

      /* Translators: the window's subtitle while a result is shown: "Quick · 2 Dec
       * 2026, 20:03" */
      self->result_subtitle = g_strdup_printf (C_("subtitle", "%s · %s"),
                                               preset ? preset : _("Result"), date);
    }
  update_info (self);
}

/* One Run: the start page has its own Run button, the header's Run (and Cancel) is
 * for the other pages. */
static void
on_page_changed (NscWindow *self)
{
  gboolean idle = g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "idle") == 0;

  gtk_widget_set_visible (GTK_WIDGET (self->run_button), !idle);
  /* Back on the start page, the title bar speaks of the preset chosen again. */
  if (idle && self->result_subtitle != NULL)
    _nsc_window_set_result_subtitle (self, NULL);
}

static void
on_preset_selected (NscWindow *self)
{
  update_info (self);
  return_to_start (self);
}

void
_nsc_window_clear_warnings (NscWindow *self)
{
  GtkWidget *child;

  nsc_warnings_list_clear (self->warnings_list);
  /* The test bench goes with the warnings: a new run has none yet. */
  while ((child = gtk_widget_get_first_child (self->bench_box)))
    gtk_box_remove (GTK_BOX (self->bench_box), child);
  gtk_widget_set_visible (self->bench_box, FALSE);
}

/* ---- charts and saved results ---------------------------------------------------- */

/* The charts of @result (every kind it has, in the chooser); hidden when it has none. */
void
_nsc_window_show_charts (NscWindow  *self,
                         JsonNode   *result,
                         const char *path)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new ();
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;

  g_free (self->shown_path);
  self->shown_path = g_strdup (path);
  g_clear_pointer (&self->opened_hosts, g_ptr_array_unref);
  g_ptr_array_add (results, result);
  g_ptr_array_add (paths, (gpointer) path);
  if (!nsc_chart_panel_set_results (self->chart_panel, results, paths, &error))
    {
      g_debug ("No chart: %s", error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->chart_panel), FALSE);
    }
}

/* The test bench of @result, or nothing (NULL). */
void
_nsc_window_show_bench (NscWindow *self,
                        JsonNode  *result)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->bench_box)))
    gtk_box_remove (GTK_BOX (self->bench_box), child);
  if (result != NULL)
    gtk_box_append (GTK_BOX (self->bench_box), nsc_bench_group_new (result));
  gtk_widget_set_visible (self->bench_box, result != NULL);
}

static void
show_json_warnings (NscWindow *self,
                    JsonNode  *result)
{
  nsc_warnings_list_add_json (self->warnings_list, result);
}

/* The drive's own count of what the run wrote (SMART, before and after) beside the
 * run's, and a note when it is far above it. */
void
_nsc_window_append_wear_line (GString  *text,
                              JsonNode *result)
{
  g_autofree char *amplified = NULL;
  g_autofree char *line = NULL;

  if (result == NULL || !JSON_NODE_HOLDS_OBJECT (result))
    return;
  line = nsc_wear_describe_result (json_node_get_object (result), &amplified);
  if (line == NULL)
    return;
  g_string_append_printf (text, "\n%s", line);
  if (amplified)
    g_string_append_printf (text, "\n%s", amplified);
}

/* A saved result on the results page: its grid, warnings and charts. */
static void
show_result (NscWindow  *self,
             JsonNode   *result,
             const char *path)
{
  g_autofree char *header = nsc_result_info_header (result);
  g_autoptr(GString) text = g_string_new (header);

  _nsc_window_clear_warnings (self);
  gtk_widget_set_visible (self->error_box, FALSE);
  gtk_widget_set_visible (self->progress_box, FALSE);
  nsc_results_grid_show_result (self->results_grid, result);
  gtk_widget_set_visible (GTK_WIDGET (self->results_grid), TRUE);
  show_json_warnings (self, result);

  if (path != NULL)
    {
      g_autofree char *where = nsc_display_path (path);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Opened from %s"), where);
    }
  _nsc_window_append_wear_line (text, result);
  gtk_label_set_text (self->summary_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->summary_label), TRUE);

  _nsc_window_show_charts (self, result, path);
  _nsc_window_show_bench (self, result);
  gtk_stack_set_visible_child_name (self->stack, "results");
  _nsc_window_set_result_subtitle (self, result);
  /* Another result starts at its top, not where the last one was left. */
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->results_scroller), 0);
}

/**
 * nsc_window_open_result:
 * Loads a saved result and shows it; a damaged file fails with a message that
 * says which file and what is wrong, and nothing on screen changes but the error.
 */
gboolean
nsc_window_open_result (NscWindow   *self,
                        const char  *path,
                        GError     **error)
{
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *name = NULL;
  JsonNode *result;

  g_return_val_if_fail (NSC_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (nsc_window_get_running (self))
    {
      g_set_error_literal (error, NSC_ERROR, NSC_ERROR_BUSY,
                           _("A test is running; open results when it has finished"));
      return FALSE;
    }

  /* A saved result, or fio's output imported (a result per host). */
  results = nsc_result_info_open (path, &local_error);
  if (results == NULL)
    {
      g_autofree char *prefix = g_strconcat (path, ": ", NULL);
      const char *why = local_error->message;

      /* The file is named once, by its name. */
      if (g_str_has_prefix (why, prefix))
        why += strlen (prefix);
      name = g_filename_display_basename (path);
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   _("Cannot open the result %s: %s"), name, why);
      return FALSE;
    }
  result = g_ptr_array_index (results, 0);
  /* Shown, with the hosts of whatever was shown before let go. */
  show_result (self, result, path);
  if (results->len > 1)
    {
      g_autofree char *host = g_strdup (nsc_json_get_string (nsc_json_get_object (
                                          json_node_get_object (result), "source"), "host"));
      g_autofree char *text = NULL;

      /* Translators: after opening fio's output of a run on several machines: how
       * many, and the one shown; the toast's button compares them all */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "fio ran on %u machine; showing %s",
                                           "fio ran on %u machines; showing %s", results->len),
                              results->len, host ? host : "?");
      self->opened_hosts = g_steal_pointer (&results);
      _nsc_window_add_toast (self, text, _("_Compare All"), "win.compare-hosts");
    }
  return TRUE;
}

/**
 * nsc_window_compare_hosts:
 * Every host of the fio --client output last opened, side by side in Compare (the
 * history's comparison window, its legends naming each host). NULL, with nothing
 * shown, when the result on screen is not one of several hosts.
 */
GtkWindow *
nsc_window_compare_hosts (NscWindow  *self,
                          GError    **error)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();

  g_return_val_if_fail (NSC_IS_WINDOW (self), NULL);

  if (self->opened_hosts == NULL || self->shown_path == NULL)
    {
      g_set_error_literal (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                           _("Open fio's output of a run on several machines to compare them"));
      return NULL;
    }
  for (guint i = 0; i < self->opened_hosts->len; i++)
    g_ptr_array_add (paths, self->shown_path);
  return nsc_compare_window_new (GTK_WINDOW (self), self->opened_hosts, paths,
                                 self->prefs->units, error);
}

void
nsc_window_set_target (NscWindow  *self,
                       const char *path)
{
  g_return_if_fail (NSC_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  if (g_strcmp0 (self->target, path) == 0)
    return;
  g_free (self->target);
  self->target = g_strdup (path);
  g_clear_pointer (&self->target_device, nsc_device_info_free);
  self->target_device = nsc_target_picker_device_for_path (path);
  g_clear_pointer (&self->folder_device, nsc_device_info_free);
  self->fit_preset = NULL;
  self->fit_size = 0;
  if (self->target_device == NULL && nsc_target_picker_captured_root () == NULL)
    self->folder_device = nsc_device_info_for_path (path, NSC_DISCOVER_DEFAULT, NULL);
  _nsc_window_read_history (self);
  nsc_target_picker_set_current (self->target_popover, path,
                                 self->target_device ? self->target_device->devnode : NULL);
  refilter_presets (self);
  update_info (self);
  return_to_start (self);
}

gboolean
nsc_window_set_preset (NscWindow   *self,
                       const char  *name,
                       GError     **error)
{
  const NscPreset *preset;
  g_autofree char *why = NULL;

  g_return_val_if_fail (NSC_IS_WINDOW (self), FALSE);

  preset = nsc_preset_chooser_find (self->preset_chooser, name);
  if (preset == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no preset %s"), name);
      return FALSE;
    }
  if (!_nsc_window_preset_offered (self, preset, &why))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, why);
      return FALSE;
    }
  return nsc_preset_chooser_select (self->preset_chooser, name);
}

void
nsc_window_set_overrides (NscWindow           *self,
                          const NscRunOptions *overrides)
{
  NscRunOptions kept = NSC_RUN_OPTIONS_INIT;

  g_return_if_fail (NSC_IS_WINDOW (self) && overrides != NULL);

  kept.file_size = overrides->file_size;
  kept.runs = overrides->runs;
  kept.time_ns = overrides->time_ns;
  kept.max_idle_ns = overrides->max_idle_ns;
  kept.span_cap = overrides->span_cap;
  self->overrides = kept;
  update_info (self);
}

static void
on_chart_message (NscChartPanel *panel,
                  const char    *text,
                  NscWindow     *self)
{
  _nsc_window_add_toast (self, text, NULL, NULL);
}

/* ---- target picker ------------------------------------------------------------- */

static void
on_target_chosen (NscTargetPicker *picker,
                  const char      *target,
                  NscWindow       *self)
{
  nsc_window_set_target (self, target);
}

/* ---- preset chooser ------------------------------------------------------------ */

static gboolean
preset_offered_func (const NscPreset *preset,
                     gpointer         user_data)
{
  return _nsc_window_preset_offered (user_data, preset, NULL);
}

/* "About 3 minutes", and whether it erases the drive, under the preset's title. */
static char *
preset_caption_func (const NscPreset *preset,
                     gpointer         user_data)
{
  NscWindow *self = user_data;
  g_autoptr(NscPlan) plan = _nsc_window_plan (self, preset);
  g_autofree char *duration = nsc_words_about (start_estimate_ns (self, plan) / 1e9, TRUE);

  if (self->target_device != NULL && plan->writes)
    /* TRANSLATORS: "About 3 minutes · erases the drive" */
    return g_strdup_printf (_("%s · erases the drive"), duration);
  return g_steal_pointer (&duration);
}

/* ---- GObject ------------------------------------------------------------------ */

static gboolean
nsc_window_close_request (GtkWindow *window)
{
  NscWindow *self = NSC_WINDOW (window);

  /* The test file must be deleted and the result saved: cancel, hide, and let
   * the run (which holds a reference to its state) destroy the window once it ended. */
  if (_nsc_window_run_close (self))
    {
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      return TRUE;
    }

  return GTK_WINDOW_CLASS (nsc_window_parent_class)->close_request (window);
}

/* Below this width (a phone, or 360 px beside three title-bar buttons) the target
 * and preset pickers would shrink to "…" in the header: they move to a bar at the
 * bottom, where they keep their names, and the header keeps Run, the menu and the
 * window's buttons. A fixed width, as libadwaita's breakpoints are. */
#define NARROW_WIDTH 520

static void
apply_narrow (gpointer data)
{
  NscWindow *self = data;
  GtkWidget *preset = GTK_WIDGET (self->preset_chooser);
  gboolean in_bar = gtk_widget_get_parent (self->target_button) == self->pickers_bar;

  self->narrow_idle = 0;
  if (self->narrow == in_bar)
    return;
  g_object_ref (self->target_button);
  g_object_ref (preset);
  if (self->narrow)
    {
      adw_header_bar_remove (self->header_bar, self->target_button);
      adw_header_bar_remove (self->header_bar, preset);
      gtk_box_append (GTK_BOX (self->pickers_bar), self->target_button);
      gtk_box_append (GTK_BOX (self->pickers_bar), preset);
    }
  else
    {
      gtk_box_remove (GTK_BOX (self->pickers_bar), self->target_button);
      gtk_box_remove (GTK_BOX (self->pickers_bar), preset);
      adw_header_bar_pack_start (self->header_bar, self->target_button);
      adw_header_bar_pack_start (self->header_bar, preset);
    }
  gtk_widget_set_hexpand (self->target_button, self->narrow);
  gtk_widget_set_hexpand (preset, self->narrow);
  gtk_widget_set_visible (self->pickers_bar, self->narrow);
  g_object_unref (preset);
  g_object_unref (self->target_button);
}

static void
nsc_window_size_allocate (GtkWidget *widget,
                          int        width,
                          int        height,
                          int        baseline)
{
  NscWindow *self = NSC_WINDOW (widget);
  gboolean narrow = width < NARROW_WIDTH;

  GTK_WIDGET_CLASS (nsc_window_parent_class)->size_allocate (widget, width, height, baseline);
  /* Not while allocating: the move asks for a new layout. */
  if (narrow != self->narrow)
    {
      self->narrow = narrow;
      if (self->narrow_idle == 0)
        self->narrow_idle = g_idle_add_once (apply_narrow, self);
    }
}

static void
nsc_window_dispose (GObject *object)
{
  NscWindow *self = NSC_WINDOW (object);

  g_clear_handle_id (&self->narrow_idle, g_source_remove);

  _nsc_window_run_dispose (self);
  if (self->history_cancellable != NULL)
    {
      g_cancellable_cancel (self->history_cancellable);
      g_clear_object (&self->history_cancellable);
    }
  if (self->history != NULL)
    gtk_window_destroy (self->history);
  if (self->preferences != NULL)
    gtk_window_destroy (self->preferences);
  /* The settings may change after the widgets are gone. */
  if (self->prefs != NULL)
    g_signal_handlers_disconnect_by_data (self->prefs, self);
  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (self->chooser);
      g_clear_object (&self->chooser);
    }

  gtk_widget_dispose_template (GTK_WIDGET (self), NSC_TYPE_WINDOW);

  G_OBJECT_CLASS (nsc_window_parent_class)->dispose (object);
}

static void
nsc_window_finalize (GObject *object)
{
  NscWindow *self = NSC_WINDOW (object);

  g_clear_pointer (&self->target, g_free);
  g_clear_pointer (&self->shown_path, g_free);
  g_clear_pointer (&self->opened_hosts, g_ptr_array_unref);
  g_clear_pointer (&self->result_subtitle, g_free);
  g_clear_pointer (&self->target_device, nsc_device_info_free);
  g_clear_pointer (&self->folder_device, nsc_device_info_free);
  g_clear_pointer (&self->run_presets, g_hash_table_unref);
  g_clear_object (&self->prefs);

  G_OBJECT_CLASS (nsc_window_parent_class)->finalize (object);
}

static void
nsc_window_class_init (NscWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = nsc_window_dispose;
  object_class->finalize = nsc_window_finalize;
  window_class->close_request = nsc_window_close_request;
  widget_class->size_allocate = nsc_window_size_allocate;

  signals[SIGNAL_RUN_FINISHED] =
    g_signal_new ("run-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_BOOLEAN, G_TYPE_STRING);

  g_type_ensure (NSC_TYPE_RESULTS_GRID);
  g_type_ensure (NSC_TYPE_CHART_PANEL);
  g_type_ensure (NSC_TYPE_REFLOW_BOX);
  g_type_ensure (NSC_TYPE_TARGET_PICKER);
  g_type_ensure (NSC_TYPE_PRESET_CHOOSER);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/nandscope/Nandscope/nsc-window.ui");
  gtk_widget_class_bind_template_child (widget_class, NscWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, pickers_bar);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, target_button);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, target_icon);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, target_label);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, target_popover);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, preset_chooser);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, run_button);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, run_stack);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, results_scroller);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, status_page);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, preset_label);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, fit_button);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, check_button);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, progress_box);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, time_left_label);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, error_box);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, results_grid);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, chart_panel);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, warnings_box);
  gtk_widget_class_bind_template_child (widget_class, NscWindow, bench_box);
}

static void
nsc_window_init (NscWindow *self)
{
  NscRunOptions none = NSC_RUN_OPTIONS_INIT;

  self->overrides = none;
  self->run_presets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify) nsc_preset_free);
  gtk_widget_init_template (GTK_WIDGET (self));
  self->warnings_list = NSC_WARNINGS_LIST (nsc_warnings_list_new ());
  gtk_box_append (GTK_BOX (self->warnings_box), GTK_WIDGET (self->warnings_list));
  gtk_widget_set_visible (self->warnings_box, TRUE);

  _nsc_window_actions_init (self);
  self->target = g_strdup (g_get_home_dir ());
  _nsc_window_run_init (self);

  self->fake_devices = nsc_target_picker_captured_root () != NULL;
  {
    g_autoptr(GSettings) settings = nsc_prefs_settings_new ();

    self->prefs = nsc_prefs_new (settings);
    /* Whoever changes them, the preferences window or the settings themselves. */
    g_signal_connect_swapped (self->prefs, "notify", G_CALLBACK (_nsc_window_apply_prefs), self);
  }
  g_signal_connect (self->chart_panel, "message", G_CALLBACK (on_chart_message), self);

  nsc_preset_chooser_set_funcs (self->preset_chooser, preset_offered_func,
                                preset_caption_func, self);
  g_signal_connect_swapped (self->preset_chooser, "notify::preset-name",
                            G_CALLBACK (on_preset_selected), self);
  g_signal_connect (self->target_popover, "target-chosen", G_CALLBACK (on_target_chosen), self);
  _nsc_window_set_running (self, FALSE);
  g_signal_connect_swapped (self->stack, "notify::visible-child-name",
                            G_CALLBACK (on_page_changed), self);
  on_page_changed (self);
  /* The units everywhere, then what the start page says. */
  _nsc_window_apply_prefs (self);
}

void
_nsc_window_update_info (NscWindow *self)
{
  update_info (self);
}

/* ---- the drive's history, read off the main thread ---------------------------- */

typedef struct
{
  char          *serial;
  char          *devnode;
  char          *dir;
  guint64        cache_bytes;
  double         write_bps;
} HistoryRead;

static void
history_read_free (gpointer data)
{
  HistoryRead *h = data;

  g_free (h->serial);
  g_free (h->devnode);
  g_free (h->dir);
  g_free (h);
}

static void
history_read_thread (GTask        *task,
                     gpointer      source,
                     gpointer      data,
                     GCancellable *cancellable)
{
  HistoryRead *h = data;

  h->cache_bytes = nsc_result_history_cache_bytes (h->dir, h->serial, NULL);
  if (!g_cancellable_is_cancelled (cancellable))
    h->write_bps = nsc_result_history_write_bps (h->dir, h->serial, h->devnode, NULL);
  g_task_return_boolean (task, TRUE);
}

static void
history_read_done (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  NscWindow *self = NSC_WINDOW (source);
  GTask *task = G_TASK (result);
  HistoryRead *h = g_task_get_task_data (task);

  /* A newer read (another target, another run) replaced this one. */
  if (g_task_get_cancellable (task) != self->history_cancellable)
    return;
  g_clear_object (&self->history_cancellable);
  if (!g_task_propagate_boolean (task, NULL))
    return;
  self->history_cache = h->cache_bytes;
  self->history_write_bps = h->write_bps;
  nsc_preset_chooser_refilter (self->preset_chooser);
  update_info (self);
}

void
_nsc_window_read_history (NscWindow *self)
{
  const NscDeviceInfo *dev = self->target_device ? self->target_device : self->folder_device;
  g_autoptr(GTask) task = NULL;
  HistoryRead *h;

  if (self->history_cancellable != NULL)
    {
      g_cancellable_cancel (self->history_cancellable);
      g_clear_object (&self->history_cancellable);
    }
  self->history_cache = 0;
  self->history_write_bps = 0;
  if (dev == NULL || dev->serial == NULL || dev->serial[0] == '\0')
    return;

  h = g_new0 (HistoryRead, 1);
  h->serial = g_strdup (dev->serial);
  h->devnode = g_strdup (dev->devnode);
  h->dir = nsc_session_results_dir ();
  self->history_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->history_cancellable, history_read_done, NULL);
  g_task_set_source_tag (task, _nsc_window_read_history);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_set_task_data (task, h, history_read_free);
  g_task_run_in_thread (task, history_read_thread);
}

gboolean
nsc_window_get_reading_history (NscWindow *self)
{
  g_return_val_if_fail (NSC_IS_WINDOW (self), FALSE);

  return self->history_cancellable != NULL;
}

void
_nsc_window_emit_run_finished (NscWindow  *self,
                               gboolean    success,
                               const char *message)
{
  g_signal_emit (self, signals[SIGNAL_RUN_FINISHED], 0, success, message);
}

NscWindow *
nsc_window_new (NscApplication *application)
{
  return g_object_new (NSC_TYPE_WINDOW, "application", application, NULL);
}

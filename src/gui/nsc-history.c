/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "nsc-chart-panel.h"
#include "nsc-engine.h"
#include "nsc-history.h"
#include "nsc-result-info.h"
#include "nsc-session.h"

/* ---- scanning ---------------------------------------------------------------- */

void
nsc_history_entry_free (NscHistoryEntry *entry)
{
  if (entry == NULL)
    return;
  g_free (entry->path);
  g_clear_pointer (&entry->result, json_node_unref);
  g_free (entry->error);
  g_clear_pointer (&entry->started, g_date_time_unref);
  g_free (entry->drive);
  g_free (entry);
}

char *
nsc_history_dir (void)
{
  return nsc_session_results_dir ();
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const NscHistoryEntry *ea = *(NscHistoryEntry * const *) a;
  const NscHistoryEntry *eb = *(NscHistoryEntry * const *) b;

  if (ea->started && eb->started)
    {
      int c = g_date_time_compare (eb->started, ea->started);
      if (c != 0)
        return c;
    }
  return g_strcmp0 (eb->path, ea->path);
}

GPtrArray *
nsc_history_scan (const char *dir)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_history_entry_free);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      NscHistoryEntry *entry;
      g_autoptr(GError) error = NULL;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      entry = g_new0 (NscHistoryEntry, 1);
      entry->path = g_build_filename (dir, name, NULL);
      entry->result = nsc_result_file_load (entry->path, &error);
      if (entry->result != NULL)
        {
          entry->started = nsc_result_info_started (entry->result);
          entry->drive = nsc_result_info_drive (entry->result);
        }
      else
        {
          GStatBuf st;

          g_autofree char *prefix = g_strconcat (entry->path, ": ", NULL);

          /* The row names the file already. */
          entry->error = g_strdup (g_str_has_prefix (error->message, prefix)
                                   ? error->message + strlen (prefix) : error->message);
          if (g_stat (entry->path, &st) == 0)
            entry->started = g_date_time_new_from_unix_local (st.st_mtime);
        }
      g_ptr_array_add (entries, entry);
    }
  g_ptr_array_sort (entries, compare_entries);
  return entries;
}

/* ---- the window ---------------------------------------------------------------- */

struct _NscHistoryWindow
{
  AdwWindow        parent_instance;

  AdwToastOverlay *toast_overlay;
  GtkWidget       *stack;
  GtkWidget       *groups_box;
  GtkWidget       *compare_button;
  GPtrArray       *entries;       /* NscHistoryEntry */
  GPtrArray       *checks;        /* GtkCheckButton, parallel to entries (NULL for damaged) */
  int              units;
  GCancellable    *loading;       /* the scan in progress, or NULL */
};

G_DEFINE_FINAL_TYPE (NscHistoryWindow, nsc_history_window, ADW_TYPE_WINDOW)

enum {
  SIGNAL_OPEN_RESULT,
  SIGNAL_LOADED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

static char *
format_date (GDateTime *dt)
{
  /* TRANSLATORS: date and time of a result in the history, see strftime */
  return dt ? g_date_time_format (dt, _("%e %b %Y, %H:%M")) : g_strdup (_("Unknown date"));
}

static guint
n_checked (NscHistoryWindow *self)
{
  guint n = 0;

  for (guint i = 0; i < self->checks->len; i++)
    {
      GtkWidget *check = g_ptr_array_index (self->checks, i);
      if (check && gtk_check_button_get_active (GTK_CHECK_BUTTON (check)))
        n++;
    }
  return n;
}

static void
update_compare (NscHistoryWindow *self)
{
  guint n = n_checked (self);
  g_autofree char *tooltip = NULL;

  gtk_widget_set_sensitive (self->compare_button, n >= 2);
  if (n >= 2)
    tooltip = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Overlay the %u ticked result on one chart",
                                            "Overlay the %u ticked results on one chart", n), n);
  else
    tooltip = g_strdup (_("Tick two or more results to overlay them on one chart"));
  gtk_widget_set_tooltip_text (self->compare_button, tooltip);
}

static void
on_row_activated (AdwActionRow     *row,
                  NscHistoryWindow *self)
{
  const char *path = g_object_get_data (G_OBJECT (row), "path");

  g_signal_emit (self, signals[SIGNAL_OPEN_RESULT], 0, path);
}

static GtkWidget *
entry_row (NscHistoryWindow *self,
           NscHistoryEntry  *entry,
           GtkWidget       **check_out)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *date = format_date (entry->started);

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  g_object_set_data_full (G_OBJECT (row), "path", g_strdup (entry->path), g_free);
  *check_out = NULL;

  if (entry->result == NULL)
    {
      g_autofree char *name = g_filename_display_basename (entry->path);
      g_autofree char *subtitle = g_strdup_printf (_("Cannot be opened: %s"), entry->error);
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      gtk_widget_add_css_class (icon, "warning");
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 3);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
      return row;
    }

  {
    const char *preset = nsc_result_info_preset_title (entry->result);
    g_autofree char *headline = nsc_result_info_headline (entry->result, self->units);
    g_autofree char *title = g_strdup_printf ("%s · %s", preset ? preset : _("Result"), date);
    GtkWidget *check = gtk_check_button_new ();
    GtkWidget *arrow = gtk_image_new_from_icon_name ("go-next-symbolic");
    JsonObject *root = json_node_get_object (entry->result);

    if (json_object_has_member (root, "cancelled") && json_object_get_boolean_member (root, "cancelled"))
      {
        g_autofree char *t = g_strdup_printf (_("%s (cancelled)"), title);
        adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), t);
      }
    else
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), headline ? headline : _("No measurements"));
    gtk_widget_add_css_class (row, "history-row");

    gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
    gtk_widget_set_tooltip_text (check, _("Compare"));
    gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    _("Include in comparison"), -1);
    g_signal_connect_swapped (check, "toggled", G_CALLBACK (update_compare), self);
    adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
    adw_action_row_add_suffix (ADW_ACTION_ROW (row), arrow);
    gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
    gtk_widget_set_tooltip_text (row, _("Open this result"));
    g_signal_connect (row, "activated", G_CALLBACK (on_row_activated), self);
    *check_out = check;
  }
  return row;
}

void
nsc_history_window_set_units (NscHistoryWindow *self,
                              int               units)
{
  g_return_if_fail (NSC_IS_HISTORY_WINDOW (self));
  self->units = units;
}

/* The rows, from the entries a scan found (on the main thread). */
static void
show_entries (NscHistoryWindow *self,
              GPtrArray        *entries)
{
  g_autoptr(GPtrArray) drives = g_ptr_array_new_with_free_func (g_free);
  GtkWidget *child;
  GtkWidget *damaged_group = NULL;
  guint n_damaged = 0;

  while ((child = gtk_widget_get_first_child (self->groups_box)))
    gtk_box_remove (GTK_BOX (self->groups_box), child);
  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_ptr_array_set_size (self->checks, 0);
  self->entries = entries;

  /* The drives in the order of their latest result. */
  for (guint i = 0; i < self->entries->len; i++)
    {
      NscHistoryEntry *e = g_ptr_array_index (self->entries, i);
      if (e->drive && !g_ptr_array_find_with_equal_func (drives, e->drive, g_str_equal, NULL))
        g_ptr_array_add (drives, g_strdup (e->drive));
    }

  g_ptr_array_set_size (self->checks, self->entries->len);
  for (guint g = 0; g < drives->len; g++)
    {
      GtkWidget *group = adw_preferences_group_new ();
      const char *drive = g_ptr_array_index (drives, g);
      gboolean described = FALSE;

      adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), drive);
      for (guint i = 0; i < self->entries->len; i++)
        {
          NscHistoryEntry *e = g_ptr_array_index (self->entries, i);
          GtkWidget *check = NULL;

          if (g_strcmp0 (e->drive, drive) != 0)
            continue;
          if (!described)
            {
              g_autofree char *facts = nsc_result_info_drive_details (e->result);
              adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group), facts);
              described = TRUE;
            }
          adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), entry_row (self, e, &check));
          g_ptr_array_index (self->checks, i) = check;
        }
      gtk_box_append (GTK_BOX (self->groups_box), group);
    }

  for (guint i = 0; i < self->entries->len; i++)
    {
      NscHistoryEntry *e = g_ptr_array_index (self->entries, i);
      GtkWidget *check = NULL;

      if (e->result != NULL)
        continue;
      n_damaged++;
      g_debug ("History: %s cannot be read: %s", e->path, e->error);
      if (damaged_group == NULL)
        {
          damaged_group = adw_preferences_group_new ();
          adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (damaged_group),
                                           _("Files That Cannot Be Read"));
          adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (damaged_group),
                                                 _("Damaged, cut short, or not a Nandscope result"));
          gtk_box_append (GTK_BOX (self->groups_box), damaged_group);
        }
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (damaged_group), entry_row (self, e, &check));
    }

  gtk_stack_set_visible_child_name (GTK_STACK (self->stack),
                                    self->entries->len > 0 ? "list" : "empty");
  update_compare (self);
  g_debug ("History: %u results listed, %u cannot be read", self->entries->len - n_damaged, n_damaged);
}

/* Reading and checking every file takes long in a full folder, and a file can be
 * hostile: the scan runs in a worker thread, which touches no widget. */
static void
scan_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  g_task_return_pointer (task, nsc_history_scan (task_data), (GDestroyNotify) g_ptr_array_unref);
}

static void
on_scanned (GObject      *source,
            GAsyncResult *res,
            gpointer      user_data)
{
  NscHistoryWindow *self = NSC_HISTORY_WINDOW (source);
  GPtrArray *entries = g_task_propagate_pointer (G_TASK (res), NULL);

  /* NULL: cancelled, by a newer reload or the window going away. */
  if (entries == NULL)
    return;
  g_clear_object (&self->loading);
  show_entries (self, entries);
  g_signal_emit (self, signals[SIGNAL_LOADED], 0);
}

void
nsc_history_window_reload (NscHistoryWindow *self)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (NSC_IS_HISTORY_WINDOW (self));

  if (self->loading)
    g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
  self->loading = g_cancellable_new ();
  if (self->entries == NULL)
    gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "loading");
  task = g_task_new (self, self->loading, on_scanned, NULL);
  g_task_set_source_tag (task, nsc_history_window_reload);
  g_task_set_task_data (task, nsc_history_dir (), g_free);
  g_task_run_in_thread (task, scan_thread);
}

static void
on_compare_message (NscChartPanel *panel,
                    const char    *text,
                    AdwToastOverlay *overlay)
{
  /* A toast's title is Pango markup; the message is plain text (file names). */
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  adw_toast_overlay_add_toast (overlay, adw_toast_new (escaped));
}

GtkWindow *
nsc_compare_window_new (GtkWindow  *parent,
                        GPtrArray  *results,
                        GPtrArray  *paths,
                        int         units,
                        GError    **error)
{
  GtkWidget *window = adw_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *overlay = adw_toast_overlay_new ();
  GtkWidget *panel = nsc_chart_panel_new ();
  g_autofree char *subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u result",
                                                            "%u results", results->len),
                                               results->len);
  GtkWidget *title = adw_window_title_new (_("Compare"), subtitle);

  g_object_ref_sink (window);
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), title);
  gtk_box_append (GTK_BOX (box), header);
  gtk_widget_set_margin_top (panel, 12);
  gtk_widget_set_margin_bottom (panel, 18);
  gtk_widget_set_margin_start (panel, 18);
  gtk_widget_set_margin_end (panel, 18);
  gtk_widget_set_vexpand (panel, TRUE);
  adw_toast_overlay_set_child (ADW_TOAST_OVERLAY (overlay), panel);
  gtk_widget_set_vexpand (overlay, TRUE);
  gtk_box_append (GTK_BOX (box), overlay);
  adw_window_set_content (ADW_WINDOW (window), box);
  gtk_window_set_title (GTK_WINDOW (window), _("Compare"));
  gtk_window_set_default_size (GTK_WINDOW (window), 980, 640);
  gtk_window_set_transient_for (GTK_WINDOW (window), parent);
  g_signal_connect (panel, "message", G_CALLBACK (on_compare_message), overlay);

  nsc_chart_panel_set_units (NSC_CHART_PANEL (panel), units);
  if (!nsc_chart_panel_set_results (NSC_CHART_PANEL (panel), results, paths, error))
    {
      gtk_window_destroy (GTK_WINDOW (window));
      g_object_unref (window);
      return NULL;
    }
  g_object_set_data (G_OBJECT (window), "chart-panel", panel);
  /* The toplevel list holds it from here on. */
  gtk_window_present (GTK_WINDOW (window));
  g_object_unref (window);
  return GTK_WINDOW (window);
}

static GtkWindow *
open_comparison (NscHistoryWindow *self)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new ();
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GtkWindow *window;

  /* Oldest first: the legend reads as a timeline. */
  for (guint i = self->entries->len; i-- > 0;)
    {
      NscHistoryEntry *e = g_ptr_array_index (self->entries, i);
      GtkWidget *check = g_ptr_array_index (self->checks, i);

      if (check && gtk_check_button_get_active (GTK_CHECK_BUTTON (check)))
        {
          g_ptr_array_add (results, e->result);
          g_ptr_array_add (paths, e->path);
        }
    }
  if (results->len < 2)
    return NULL;
  window = nsc_compare_window_new (GTK_WINDOW (self), results, paths, self->units, &error);
  if (window == NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (error->message, -1);

      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (escaped));
    }
  return window;
}

GtkWindow *
nsc_history_window_compare (NscHistoryWindow   *self,
                            const char * const *paths)
{
  g_return_val_if_fail (NSC_IS_HISTORY_WINDOW (self), NULL);

  /* Scripted (--compare): the list must be there first. */
  while (self->loading != NULL)
    g_main_context_iteration (NULL, TRUE);
  if (self->entries == NULL)
    return NULL;
  for (guint i = 0; i < self->entries->len; i++)
    {
      NscHistoryEntry *e = g_ptr_array_index (self->entries, i);
      GtkWidget *check = g_ptr_array_index (self->checks, i);

      if (check)
        gtk_check_button_set_active (GTK_CHECK_BUTTON (check),
                                     paths == NULL || g_strv_contains (paths, e->path));
    }
  return open_comparison (self);
}

static void
nsc_history_window_dispose (GObject *object)
{
  NscHistoryWindow *self = NSC_HISTORY_WINDOW (object);

  if (self->loading)
    g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);

  G_OBJECT_CLASS (nsc_history_window_parent_class)->dispose (object);
}

static void
nsc_history_window_finalize (GObject *object)
{
  NscHistoryWindow *self = NSC_HISTORY_WINDOW (object);

  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_clear_pointer (&self->checks, g_ptr_array_unref);

  G_OBJECT_CLASS (nsc_history_window_parent_class)->finalize (object);
}

static void
nsc_history_window_class_init (NscHistoryWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nsc_history_window_dispose;
  object_class->finalize = nsc_history_window_finalize;

  signals[SIGNAL_OPEN_RESULT] =
    g_signal_new ("open-result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /* The list shows what the folder holds (after each reload). */
  signals[SIGNAL_LOADED] =
    g_signal_new ("loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
nsc_history_window_init (NscHistoryWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *clamp = adw_clamp_new ();
  GtkWidget *empty = adw_status_page_new ();

  self->checks = g_ptr_array_new ();

  gtk_window_set_title (GTK_WINDOW (self), _("History"));
  gtk_window_set_default_size (GTK_WINDOW (self), 640, 600);
  gtk_window_set_modal (GTK_WINDOW (self), FALSE);

  self->compare_button = gtk_button_new_with_mnemonic (_("_Compare"));
  gtk_widget_add_css_class (self->compare_button, "suggested-action");
  g_signal_connect_swapped (self->compare_button, "clicked", G_CALLBACK (open_comparison), self);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), self->compare_button);
  gtk_box_append (GTK_BOX (box), header);

  self->groups_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 24);
  gtk_widget_set_margin_top (self->groups_box, 24);
  gtk_widget_set_margin_bottom (self->groups_box, 24);
  gtk_widget_set_margin_start (self->groups_box, 12);
  gtk_widget_set_margin_end (self->groups_box, 12);
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 640);
  adw_clamp_set_child (ADW_CLAMP (clamp), self->groups_box);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), clamp);

  adw_status_page_set_icon_name (ADW_STATUS_PAGE (empty), "document-open-recent-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (empty), _("No Results Yet"));
  adw_status_page_set_description (ADW_STATUS_PAGE (empty),
                                   _("Every finished run is kept here, by drive and date"));

  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  gtk_stack_add_named (GTK_STACK (self->stack), scrolled, "list");
  gtk_stack_add_named (GTK_STACK (self->stack), empty, "empty");
  {
    GtkWidget *spinner = gtk_spinner_new ();

    gtk_spinner_set_spinning (GTK_SPINNER (spinner), TRUE);
    gtk_widget_set_size_request (spinner, 32, 32);
    gtk_widget_set_halign (spinner, GTK_ALIGN_CENTER);
    gtk_widget_set_valign (spinner, GTK_ALIGN_CENTER);
    gtk_accessible_update_property (GTK_ACCESSIBLE (spinner), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                    _("Reading the saved results"), -1);
    gtk_stack_add_named (GTK_STACK (self->stack), spinner, "loading");
  }

  self->toast_overlay = ADW_TOAST_OVERLAY (adw_toast_overlay_new ());
  adw_toast_overlay_set_child (self->toast_overlay, self->stack);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->toast_overlay));
  adw_window_set_content (ADW_WINDOW (self), box);
}

NscHistoryWindow *
nsc_history_window_new (GtkWindow *parent)
{
  NscHistoryWindow *self = g_object_new (NSC_TYPE_HISTORY_WINDOW, "transient-for", parent, NULL);

  nsc_history_window_reload (self);
  return self;
}

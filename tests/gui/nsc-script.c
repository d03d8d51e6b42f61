/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>

#include "nsc-chart-private.h"
#include "nsc-chart-view.h"
#include "nsc-script.h"

/* --script FILE: the gui suite walks the app through the steps a person would take
 * and reads back what is on screen. One command a line, '#' starts a comment:
 *   target PATH · preset NAME · open PATH · run (does not wait) · wait-run
 *   watch-run (wait-run, printing "progress: FRACTION | STATUS | TIME LEFT | CHART
 *   TITLE" each time one of them changes)
 *   wait-sample (until the running test has drawn its first sample on the live chart)
 *   resize W H · wait MS · action NAME [STRING] · popup ID · popdown ID
 *   widget-action ID ACTION (an action of the widget ID, e.g. chart.export-png)
 *   select ID N (the Nth item of the drop-down ID) · toggle ID (flip its switch: a
 *   GtkSwitch, a check button or an expander row's enable switch) · activate ID (as Enter would) · activate-row ID N (the Nth row of the list box ID,
 *   from 0) · scroll-end
 *   chooser FOLDER NAME (accept the open file dialog there) · close-top
 *   accels ACTION (its keyboard shortcuts) · dump [TAG] (every window's shown widgets) · shot FILE (the main window as PNG)
 *   shot-top FILE (the newest other window) · shot-popover ID FILE
 *   respond RESPONSE [TEXT] (click the newest message dialog's button for RESPONSE,
 *   e.g. "erase" or "cancel", once it shows and its heading or body contains TEXT;
 *   waits up to 30 s for it)
 * Widgets are named by their id in the .ui files, or their name (gtk_widget_set_name). */

typedef struct
{
  GApplication *app;
  NscWindow    *window;
  char        **lines;
  guint         next;
  int          *out_status;
  int           status;
  guint         source;
  gint64        wait_until_us;
  guint         shot_tries;     /* a window waiting for its layout draws nothing: again */
  gint64        respond_until_us; /* respond: how long to wait for the dialog */
  gulong        paint_handler;  /* dump: waiting for the window's next frame */
  gboolean      painted;
  guint         paint_tries;
  char         *last_progress;  /* watch-run: the line printed last */
} Script;

static void schedule (Script *script, guint ms);

static void
on_after_paint (GdkFrameClock *clock,
                Script        *script)
{
  g_clear_signal_handler (&script->paint_handler, clock);
  script->painted = TRUE;
}

/* Whether the window has drawn a frame since the step before: a step that changed
 * a widget (a number in a cell) leaves its size to the next frame's layout, and a
 * dump before it would show the old allocation against the new text. */
static gboolean
painted_since (Script *script)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (script->window));

  /* A window that draws no frame within 5 s (not shown) is dumped as it is. */
  if (script->painted || clock == NULL || ++script->paint_tries > 50)
    {
      if (script->paint_handler != 0 && clock != NULL)
        g_clear_signal_handler (&script->paint_handler, clock);
      script->painted = FALSE;
      script->paint_tries = 0;
      return TRUE;
    }
  if (script->paint_handler == 0)
    {
      script->paint_handler = g_signal_connect (clock, "after-paint",
                                                G_CALLBACK (on_after_paint), script);
      gtk_widget_queue_draw (GTK_WIDGET (script->window));
    }
  return FALSE;
}

static void
fail (Script     *script,
      const char *format,
      ...) G_GNUC_PRINTF (2, 3);

static void
fail (Script     *script,
      const char *format,
      ...)
{
  va_list args;
  g_autofree char *text = NULL;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_print ("script: error: %s\n", text);
  script->status = 1;
}

static GtkWidget *
find_in (GtkWidget  *widget,
         const char *id)
{
  const char *own = GTK_IS_BUILDABLE (widget) ? gtk_buildable_get_buildable_id (GTK_BUILDABLE (widget)) : NULL;

  /* Widgets made in code are named (gtk_widget_set_name) instead. */
  if (g_strcmp0 (own, id) == 0 || g_strcmp0 (gtk_widget_get_name (widget), id) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_in (c, id);
      if (found)
        return found;
    }
  return NULL;
}

static GListModel *
toplevels (void)
{
  return gtk_window_get_toplevels ();
}

static GtkWidget *
find_widget (const char *id)
{
  GListModel *windows = toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (windows); i++)
    {
      g_autoptr(GtkWidget) w = g_list_model_get_item (windows, i);
      GtkWidget *found = find_in (w, id);
      if (found)
        return found;
    }
  return NULL;
}

/* The newest shown window that is not the main one. */
static GtkWindow *
top_window (Script *script)
{
  GListModel *windows = toplevels ();
  GtkWindow *top = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (windows); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (windows, i);
      if (w != GTK_WINDOW (script->window) && gtk_widget_get_mapped (GTK_WIDGET (w)))
        top = w;
    }
  return top;
}

/* The popover @widget shows (a menu button's, a drop-down's), while it is up. */
static GtkWidget *
shown_popover (GtkWidget *widget)
{
  if (widget == NULL)
    return NULL;
  if (GTK_IS_POPOVER (widget) && gtk_widget_get_mapped (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = shown_popover (c);
      if (found)
        return found;
    }
  return NULL;
}

/* The newest shown message dialog of the app, or NULL. */
static AdwMessageDialog *
shown_message_dialog (void)
{
  GListModel *windows = toplevels ();
  AdwMessageDialog *newest = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (windows); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (windows, i);

      if (ADW_IS_MESSAGE_DIALOG (w) && gtk_widget_get_mapped (GTK_WIDGET (w)))
        newest = ADW_MESSAGE_DIALOG (w);
    }
  return newest;
}

/* The button in @widget labelled @label (a message dialog's response button). */
static GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_button (c, label);
      if (found)
        return found;
    }
  return NULL;
}

static char *
quote (const char *text)
{
  GString *out = g_string_new ("\"");

  for (const char *p = text ? text : ""; *p; p++)
    {
      if (*p == '\n')
        g_string_append (out, "\\n");
      else if (*p == '"')
        g_string_append (out, "\\\"");
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

static void
dump_widget (GtkWidget *widget,
             GtkWidget *root,
             int        root_width,
             guint      depth)
{
  GString *line = g_string_new (NULL);
  const char *id = GTK_IS_BUILDABLE (widget) ? gtk_buildable_get_buildable_id (GTK_BUILDABLE (widget)) : NULL;
  g_auto(GStrv) classes = gtk_widget_get_css_classes (widget);
  graphene_rect_t b;

  if (!gtk_widget_get_mapped (widget))
    {
      g_string_free (line, TRUE);
      return;
    }
  for (guint i = 0; i < depth; i++)
    g_string_append (line, "  ");
  g_string_append (line, G_OBJECT_TYPE_NAME (widget));
  if (id != NULL)
    g_string_append_printf (line, "#%s", id);
  for (guint i = 0; classes && classes[i]; i++)
    g_string_append_printf (line, ".%s", classes[i]);
  if (gtk_widget_compute_bounds (widget, root, &b))
    {
      g_string_append_printf (line, " @%.0f,%.0f %.0fx%.0f", b.origin.x, b.origin.y,
                              b.size.width, b.size.height);
      if (b.origin.x + b.size.width > root_width + 0.5 || b.origin.x < -0.5)
        g_string_append (line, " outside");
    }
  {
    int min_width = 0;
    gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
    g_string_append_printf (line, " min=%d", min_width);
  }
  if (!gtk_widget_is_sensitive (widget))
    g_string_append (line, " insensitive");
  if (GTK_IS_LABEL (widget))
    {
      g_autofree char *q = quote (gtk_label_get_text (GTK_LABEL (widget)));
      int min = 0;

      gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      /* The minimum counts the margins; the bounds are the border box. */
      min -= gtk_widget_get_margin_start (widget) + gtk_widget_get_margin_end (widget);
      if (gtk_widget_compute_bounds (widget, widget, &b) && b.size.width + 0.5 < min)
        g_string_append (line, " clipped");
      g_string_append_printf (line, " %s", q);
    }
  if (GTK_IS_IMAGE (widget) && gtk_image_get_icon_name (GTK_IMAGE (widget)))
    {
      GtkIconTheme *theme = gtk_icon_theme_get_for_display (gtk_widget_get_display (widget));
      const char *name = gtk_image_get_icon_name (GTK_IMAGE (widget));

      g_string_append_printf (line, " icon=%s%s", name,
                              gtk_icon_theme_has_icon (theme, name) ? "" : " missing-icon");
    }
  if (GTK_IS_ACTIONABLE (widget) && gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)))
    g_string_append_printf (line, " action=%s", gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)));
  if (GTK_IS_STACK (widget) && gtk_stack_get_visible_child_name (GTK_STACK (widget)))
    g_string_append_printf (line, " page=%s", gtk_stack_get_visible_child_name (GTK_STACK (widget)));
  if (GTK_IS_SCROLLED_WINDOW (widget))
    {
      GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (widget));
      g_string_append_printf (line, " scroll=%.0f/%.0f", gtk_adjustment_get_value (v),
                              gtk_adjustment_get_upper (v) - gtk_adjustment_get_page_size (v));
    }
  if (GTK_IS_CHECK_BUTTON (widget))
    g_string_append_printf (line, " active=%d", gtk_check_button_get_active (GTK_CHECK_BUTTON (widget)));
  if (GTK_IS_DROP_DOWN (widget))
    g_string_append_printf (line, " selected=%u", gtk_drop_down_get_selected (GTK_DROP_DOWN (widget)));
  if (GTK_IS_TEXT (widget))
    {
      g_autofree char *q = quote (gtk_editable_get_text (GTK_EDITABLE (widget)));
      g_string_append_printf (line, " %s", q);
    }
  /* A chart's words as it drew them last: titles, units, tick labels, legend. */
  if (NSC_IS_CHART_VIEW (widget) && nsc_chart_view_get_chart (NSC_CHART_VIEW (widget)))
    {
      GPtrArray *texts = _nsc_chart_get_texts (nsc_chart_view_get_chart (NSC_CHART_VIEW (widget)));

      g_string_append (line, " texts=");
      for (guint i = 0; texts && i < texts->len; i++)
        g_string_append_printf (line, "%s%s", i ? "|" : "", (char *) g_ptr_array_index (texts, i));
    }
  if (gtk_widget_get_tooltip_text (widget))
    {
      g_autofree char *q = quote (gtk_widget_get_tooltip_text (widget));
      g_string_append_printf (line, " tooltip=%s", q);
    }
  g_print ("%s\n", line->str);
  g_string_free (line, TRUE);

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    dump_widget (c, root, root_width, depth + 1);
}

static void
dump (Script     *script,
      const char *tag)
{
  GListModel *windows = toplevels ();

  g_print ("== dump %s\n", tag ? tag : "");
  for (guint i = 0; i < g_list_model_get_n_items (windows); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (windows, i);
      g_autofree char *title = NULL;

      if (!gtk_widget_get_mapped (GTK_WIDGET (w)))
        continue;
      title = quote (gtk_window_get_title (w));
      g_print ("window %s%s %dx%d title=%s", G_OBJECT_TYPE_NAME (w),
               w == GTK_WINDOW (script->window) ? " main" : "",
               gtk_widget_get_width (GTK_WIDGET (w)), gtk_widget_get_height (GTK_WIDGET (w)), title);
      if (GTK_IS_FILE_CHOOSER (w))
        {
          g_autoptr(GFile) folder = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (w));
          g_autofree char *path = folder ? g_file_get_path (folder) : NULL;
          g_autofree char *name = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (w));
          g_print (" folder=%s name=%s", path ? path : "", name ? name : "");
        }
      if (ADW_IS_ABOUT_WINDOW (w))
        g_print (" website=%s", adw_about_window_get_website (ADW_ABOUT_WINDOW (w)));
      g_print ("\n");
      for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (w)); c;
           c = gtk_widget_get_next_sibling (c))
        dump_widget (c, GTK_WIDGET (w), gtk_widget_get_width (GTK_WIDGET (w)), 1);
    }
  g_print ("== end\n");
}

typedef enum { SHOT_SAVED, SHOT_NOT_DRAWN, SHOT_FAILED } ShotResult;

static ShotResult
save_png (GtkWidget  *widget,
          const char *file)
{
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;
  GtkNative *native = gtk_widget_get_native (widget);

  if (w <= 0 || h <= 0 || native == NULL)
    {
      g_print ("script: %s has no size (%dx%d)\n", G_OBJECT_TYPE_NAME (widget), w, h);
      return SHOT_FAILED;
    }
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  /* Between a queued resize and the next layout the paintable draws nothing. */
  if (node == NULL)
    return SHOT_NOT_DRAWN;
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (native), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  return gdk_texture_save_to_png (texture, file) ? SHOT_SAVED : SHOT_FAILED;
}

/* A shot's outcome as run_line () answers: wait and take it again while the window
 * has not drawn itself yet (a run relays it often), up to 5 s. */
static int
shot_done (Script     *script,
           ShotResult  result,
           const char *file)
{
  if (result == SHOT_NOT_DRAWN && ++script->shot_tries < 50)
    return -1;
  script->shot_tries = 0;
  if (result != SHOT_SAVED)
    fail (script, "cannot save %s", file);
  return 300;
}

static void
scroll_end (GtkWidget *widget)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_SCROLLED_WINDOW (widget))
    {
      GtkAdjustment *v = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (widget));
      gtk_adjustment_set_value (v, gtk_adjustment_get_upper (v));
    }
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    scroll_end (c);
}

/* Until the run ends (at most 300 s): -1 to poll again, then the pause after it. */
static int
wait_run_end (Script *script)
{
  if (script->wait_until_us == 0)
    script->wait_until_us = g_get_monotonic_time () + 300 * G_USEC_PER_SEC;
  if (nsc_window_get_running (script->window))
    {
      if (g_get_monotonic_time () < script->wait_until_us)
        return -1;
      fail (script, "the run did not end within 300 s");
    }
  script->wait_until_us = 0;
  return 500;
}

/* Runs one line; returns the milliseconds to wait before the next, or -1 to poll
 * the same line again (wait-run). */
static int
run_line (Script  *script,
          char   **argv,
          int      argc)
{
  const char *cmd = argv[0];
  g_autoptr(GError) error = NULL;

  if (g_str_equal (cmd, "target") && argc == 2)
    nsc_window_set_target (script->window, argv[1]);
  else if (g_str_equal (cmd, "preset") && argc == 2)
    {
      if (!nsc_window_set_preset (script->window, argv[1], &error))
        g_print ("script: preset refused: %s\n", error->message);
    }
  else if (g_str_equal (cmd, "open") && argc == 2)
    {
      if (!nsc_window_open_result (script->window, argv[1], &error))
        fail (script, "open: %s", error->message);
    }
  else if (g_str_equal (cmd, "run") && argc == 1)
    nsc_window_run (script->window);
  else if (g_str_equal (cmd, "wait-run") && argc == 1)
    return wait_run_end (script);
  else if (g_str_equal (cmd, "watch-run") && argc == 1)
    {
      /* Like wait-run, printing what the progress line and the live chart say each
       * time it changes: "progress: <fraction> | <status> | <time left> | <chart>". */
      GtkWidget *status = find_widget ("status_label");
      GtkWidget *left = find_widget ("time_left_label");
      GtkWidget *bar = find_widget ("progress_bar");
      GtkWidget *view = find_widget ("chart-view");
      NscChart *chart = view && NSC_IS_CHART_VIEW (view) ? nsc_chart_view_get_chart (NSC_CHART_VIEW (view)) : NULL;
      g_autofree char *line = NULL;

      if (status == NULL || left == NULL || bar == NULL)
        fail (script, "watch-run: no progress line");
      line = g_strdup_printf ("progress: %.2f | %s | %s | %s",
                              gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar)),
                              gtk_label_get_text (GTK_LABEL (status)),
                              gtk_label_get_text (GTK_LABEL (left)),
                              chart && nsc_chart_get_title (chart) ? nsc_chart_get_title (chart) : "");
      if (g_strcmp0 (line, script->last_progress) != 0)
        {
          g_print ("%s\n", line);
          g_free (script->last_progress);
          script->last_progress = g_steal_pointer (&line);
        }
      return wait_run_end (script);
    }
  else if (g_str_equal (cmd, "wait-sample") && argc == 1)
    {
      /* A run starts (pending) at once; its first sample is the event "during a run"
       * needs, whatever the machine's load. */
      if (script->wait_until_us == 0)
        script->wait_until_us = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
      if (nsc_window_get_live_samples (script->window) == 0)
        {
          if (!nsc_window_get_running (script->window))
            fail (script, "the run ended before its live chart drew a sample");
          else if (g_get_monotonic_time () < script->wait_until_us)
            return -1;
          else
            fail (script, "no sample reached the live chart within 120 s");
        }
      script->wait_until_us = 0;
      return 0;
    }
  else if (g_str_equal (cmd, "resize") && argc == 3)
    gtk_window_set_default_size (GTK_WINDOW (script->window), atoi (argv[1]), atoi (argv[2]));
  else if (g_str_equal (cmd, "wait") && argc == 2)
    return atoi (argv[1]);
  else if (g_str_equal (cmd, "action") && (argc == 2 || argc == 3))
    {
      GVariant *param = argc == 3 ? g_variant_new_string (argv[2]) : NULL;
      gboolean ok;

      if (g_str_has_prefix (argv[1], "app."))
        {
          ok = g_action_group_has_action (G_ACTION_GROUP (script->app), argv[1] + 4);
          if (ok)
            g_action_group_activate_action (G_ACTION_GROUP (script->app), argv[1] + 4, param);
          else if (param)
            g_variant_unref (g_variant_ref_sink (param));
        }
      else
        ok = gtk_widget_activate_action_variant (GTK_WIDGET (script->window), argv[1], param);
      if (!ok)
        fail (script, "no action %s", argv[1]);
    }
  else if ((g_str_equal (cmd, "popup") || g_str_equal (cmd, "popdown")) && argc == 2)
    {
      GtkWidget *w = find_widget (argv[1]);

      if (!GTK_IS_MENU_BUTTON (w))
        fail (script, "no menu button %s", argv[1]);
      else if (g_str_equal (cmd, "popup"))
        gtk_menu_button_popup (GTK_MENU_BUTTON (w));
      else
        gtk_menu_button_popdown (GTK_MENU_BUTTON (w));
    }
  else if (g_str_equal (cmd, "activate-row") && argc == 3)
    {
      GtkWidget *w = find_widget (argv[1]);
      GtkListBoxRow *row = GTK_IS_LIST_BOX (w) ? gtk_list_box_get_row_at_index (GTK_LIST_BOX (w), atoi (argv[2])) : NULL;

      if (row == NULL)
        fail (script, "no row %s of %s", argv[2], argv[1]);
      else if (!gtk_widget_is_sensitive (GTK_WIDGET (row)) || !gtk_list_box_row_get_activatable (row))
        g_print ("script: row %s of %s cannot be chosen\n", argv[2], argv[1]);
      else
        g_signal_emit_by_name (w, "row-activated", row);
    }
  else if (g_str_equal (cmd, "widget-action") && argc == 3)
    {
      GtkWidget *w = find_widget (argv[1]);

      if (w == NULL || !gtk_widget_activate_action (w, argv[2], NULL))
        fail (script, "no action %s on %s", argv[2], argv[1]);
    }
  else if (g_str_equal (cmd, "select") && argc == 3)
    {
      GtkWidget *w = find_widget (argv[1]);

      if (ADW_IS_COMBO_ROW (w))
        adw_combo_row_set_selected (ADW_COMBO_ROW (w), (guint) atoi (argv[2]));
      else if (!GTK_IS_DROP_DOWN (w))
        fail (script, "no drop-down %s", argv[1]);
      else
        gtk_drop_down_set_selected (GTK_DROP_DOWN (w), (guint) atoi (argv[2]));
    }
  else if (g_str_equal (cmd, "toggle") && argc == 2)
    {
      GtkWidget *w = find_widget (argv[1]);

      if (ADW_IS_EXPANDER_ROW (w))
        adw_expander_row_set_enable_expansion (ADW_EXPANDER_ROW (w),
                                               !adw_expander_row_get_enable_expansion (ADW_EXPANDER_ROW (w)));
      else if (GTK_IS_SWITCH (w))
        gtk_switch_set_active (GTK_SWITCH (w), !gtk_switch_get_active (GTK_SWITCH (w)));
      else if (GTK_IS_CHECK_BUTTON (w))
        gtk_check_button_set_active (GTK_CHECK_BUTTON (w),
                                     !gtk_check_button_get_active (GTK_CHECK_BUTTON (w)));
      else
        fail (script, "no switch %s", argv[1]);
    }
  else if (g_str_equal (cmd, "activate") && argc == 2)
    {
      GtkWidget *w = find_widget (argv[1]);

      if (w == NULL || !gtk_widget_activate (w))
        fail (script, "cannot activate %s", argv[1]);
    }
  else if (g_str_equal (cmd, "scroll-end") && argc == 1)
    scroll_end (GTK_WIDGET (script->window));
  else if (g_str_equal (cmd, "chooser") && argc == 3)
    {
      GtkWindow *top = top_window (script);
      g_autoptr(GFile) folder = g_file_new_for_path (argv[1]);

      if (!GTK_IS_FILE_CHOOSER (top) || !GTK_IS_DIALOG (top))
        fail (script, "no file dialog is open");
      else
        {
          if (!gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (top), folder, &error))
            fail (script, "chooser: %s", error->message);
          gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (top), argv[2]);
          gtk_dialog_response (GTK_DIALOG (top), GTK_RESPONSE_ACCEPT);
        }
    }
  else if (g_str_equal (cmd, "close-top") && argc == 1)
    {
      GtkWindow *top = top_window (script);

      if (top == NULL)
        fail (script, "no other window is open");
      else if (GTK_IS_DIALOG (top))
        gtk_dialog_response (GTK_DIALOG (top), GTK_RESPONSE_CANCEL);
      else
        gtk_window_close (top);
    }
  else if (g_str_equal (cmd, "respond") && (argc == 2 || argc == 3))
    {
      AdwMessageDialog *dialog = shown_message_dialog ();
      g_autofree char *heading = NULL;
      g_autofree char *body = NULL;

      if (script->respond_until_us == 0)
        script->respond_until_us = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
      if (dialog == NULL)
        {
          if (g_get_monotonic_time () < script->respond_until_us)
            return -1;
          script->respond_until_us = 0;
          fail (script, "no message dialog was shown within 30 s");
          return 300;
        }
      script->respond_until_us = 0;
      heading = quote (adw_message_dialog_get_heading (dialog));
      body = quote (adw_message_dialog_get_body (dialog));
      g_print ("script: dialog heading=%s body=%s\n", heading, body);
      if (!adw_message_dialog_has_response (dialog, argv[1]))
        fail (script, "the dialog has no response %s", argv[1]);
      else if (!adw_message_dialog_get_response_enabled (dialog, argv[1]))
        fail (script, "the dialog's response %s is not enabled", argv[1]);
      else if (argc == 3 && strstr (heading, argv[2]) == NULL && strstr (body, argv[2]) == NULL)
        g_print ("script: the dialog does not name %s; not answered\n", argv[2]);
      else
        {
          /* A click on the response's button: the dialog closes, then answers
           * (adw_message_dialog_response () alone would leave it open). */
          GtkWidget *button = find_button (GTK_WIDGET (dialog),
                                           adw_message_dialog_get_response_label (dialog, argv[1]));

          if (button == NULL || !gtk_widget_is_sensitive (button))
            fail (script, "the dialog's button for %s cannot be clicked", argv[1]);
          else
            gtk_widget_activate (button);
        }
    }
  else if (g_str_equal (cmd, "accels") && argc == 2)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (script->app),
                                                                    argv[1]);
      g_autofree char *joined = g_strjoinv (" ", accels);
      g_print ("script: accels %s: %s\n", argv[1], joined);
    }
  else if (g_str_equal (cmd, "dump") && argc <= 2)
    {
      /* What the window shows once it has read the drive's saved results (a thread
       * does, after every change of target): at most 30 s. */
      if (script->wait_until_us == 0)
        script->wait_until_us = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
      if (nsc_window_get_reading_history (script->window))
        {
          if (g_get_monotonic_time () < script->wait_until_us)
            return -1;
          fail (script, "the drive's saved results were not read within 30 s");
        }
      script->wait_until_us = 0;
      if (!painted_since (script))
        return -1;
      dump (script, argc == 2 ? argv[1] : NULL);
    }
  else if (g_str_equal (cmd, "export-fio") && argc == 2)
    {
      /* What Export Run as fio Job File writes, without its file dialog. */
      if (!nsc_window_export_fio (script->window, argv[1], &error))
        fail (script, "export-fio: %s", error->message);
      else
        g_print ("script: exported %s\n", argv[1]);
    }
  else if (g_str_equal (cmd, "shot") && argc == 2)
    return shot_done (script, save_png (GTK_WIDGET (script->window), argv[1]), argv[1]);
  else if (g_str_equal (cmd, "shot-top") && argc == 2)
    {
      GtkWindow *top = top_window (script);

      return shot_done (script, top ? save_png (GTK_WIDGET (top), argv[1]) : SHOT_FAILED, argv[1]);
    }
  else if (g_str_equal (cmd, "shot-popover") && argc == 3)
    {
      GtkWidget *popover = shown_popover (find_widget (argv[1]));

      return shot_done (script, popover ? save_png (popover, argv[2]) : SHOT_FAILED, argv[2]);
    }
  else
    fail (script, "cannot read the command: %s", cmd);
  return 300;
}

static gboolean
step (gpointer user_data)
{
  Script *script = user_data;

  script->source = 0;
  while (script->lines[script->next] != NULL)
    {
      g_autofree char *text = g_strstrip (g_strdup (script->lines[script->next]));
      g_auto(GStrv) argv = NULL;
      int argc = 0;
      int wait;

      if (*text == '\0' || *text == '#')
        {
          script->next++;
          continue;
        }
      if (!g_shell_parse_argv (text, &argc, &argv, NULL))
        {
          fail (script, "cannot read the line: %s", text);
          script->next++;
          continue;
        }
      g_print ("script: %s\n", text);
      wait = run_line (script, argv, argc);
      if (wait < 0)
        {
          schedule (script, 100);
          return G_SOURCE_REMOVE;
        }
      script->next++;
      schedule (script, (guint) wait);
      return G_SOURCE_REMOVE;
    }

  *script->out_status = script->status;
  g_print ("script: done\n");
  g_application_quit (script->app);
  g_strfreev (script->lines);
  g_free (script->last_progress);
  g_object_unref (script->window);
  g_free (script);
  return G_SOURCE_REMOVE;
}

static void
schedule (Script *script,
          guint   ms)
{
  script->source = g_timeout_add (ms, step, script);
}

void
nsc_script_run (GApplication *app,
                GtkWindow    *window,
                const char   *path,
                int          *out_status)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  Script *script;

  g_return_if_fail (NSC_IS_WINDOW (window));

  if (!g_file_get_contents (path, &text, NULL, &error))
    {
      g_printerr ("nandscope: %s\n", error->message);
      *out_status = 1;
      g_application_quit (app);
      return;
    }
  script = g_new0 (Script, 1);
  script->app = app;
  script->window = NSC_WINDOW (g_object_ref (window));
  script->lines = g_strsplit (text, "\n", -1);
  script->out_status = out_status;
  /* The window is shown and laid out first. */
  schedule (script, 500);
}

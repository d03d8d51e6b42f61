/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "nsc-bench-group.h"
#include "nsc-json.h"
#include "nsc-mountinfo.h"
#include "nsc-words.h"
#include "nsc-result-info.h"

static gboolean
has_warning (JsonObject     *root,
             NscWarningKind  kind)
{
  const char *code = nsc_warning_kind_code (kind);
  JsonArray *warnings = nsc_json_get_array (root, "warnings");

  for (guint i = 0; warnings && i < json_array_get_length (warnings); i++)
    {
      JsonNode *n = json_array_get_element (warnings, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;

      if (g_strcmp0 (nsc_json_get_string (o, "code"), code) == 0)
        return TRUE;
    }
  return FALSE;
}

/* The sentence of the result's first warning of @kind, in the user's language, or
 * NULL. */
static char *
warning_message (JsonObject     *root,
                 NscWarningKind  kind)
{
  const char *code = nsc_warning_kind_code (kind);
  JsonArray *warnings = nsc_json_get_array (root, "warnings");

  for (guint i = 0; warnings && i < json_array_get_length (warnings); i++)
    {
      JsonNode *n = json_array_get_element (warnings, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;

      if (o != NULL && g_strcmp0 (nsc_json_get_string (o, "code"), code) == 0)
        {
          g_autoptr(NscWarning) w = nsc_warning_from_json (o);

          return w ? nsc_warning_describe (w, NSC_UNITS_MIB, NULL, NULL) : NULL;
        }
    }
  return NULL;
}

char *
nsc_bench_mitigations_summary (JsonObject *mitigations)
{
  g_autoptr(GList) names = NULL;
  guint active = 0, vulnerable = 0, unaffected = 0, other = 0;
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  if (mitigations == NULL)
    return NULL;
  names = json_object_get_members (mitigations);
  for (const GList *l = names; l; l = l->next)
    {
      const char *text = nsc_json_get_string (mitigations, l->data);

      if (text == NULL)
        continue;
      if (g_str_has_prefix (text, "Mitigation"))
        active++;
      else if (g_str_has_prefix (text, "Vulnerable"))
        vulnerable++;
      else if (g_str_has_prefix (text, "Not affected"))
        unaffected++;
      else
        other++;
    }
  if (active + vulnerable + unaffected + other == 0)
    return g_strdup (_("None reported"));
  if (active > 0 || (vulnerable == 0 && other == 0))
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u mitigation active",
                                                          "%u mitigations active", active),
                                             active));
  if (vulnerable > 0)
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u vulnerable",
                                                          "%u vulnerable", vulnerable),
                                             vulnerable));
  if (unaffected > 0)
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u not affected",
                                                          "%u not affected", unaffected),
                                             unaffected));
  if (other > 0)
    g_ptr_array_add (parts, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u other",
                                                          "%u other", other),
                                             other));
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (", ", (char **) parts->pdata);
}

char *
nsc_bench_backend_summary (JsonNode *result)
{
  JsonObject *root = result && JSON_NODE_HOLDS_OBJECT (result) ? json_node_get_object (result) : NULL;
  JsonArray *steps = nsc_json_get_array (root, "steps");
  g_autoptr(GPtrArray) seen = g_ptr_array_new ();
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; steps && i < json_array_get_length (steps); i++)
    {
      JsonNode *n = json_array_get_element (steps, i);
      JsonObject *step = JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
      const char *backend = nsc_json_get_string (step, "backend");

      if (backend == NULL || g_ptr_array_find_with_equal_func (seen, backend, g_str_equal, NULL))
        continue;
      g_ptr_array_add (seen, (gpointer) backend);
      if (text->len)
        g_string_append (text, ", ");
      g_string_append (text, backend);
    }
  if (text->len == 0)
    return NULL;
  if (has_warning (root, NSC_WARNING_BACKEND_FALLBACK))
    /* TRANSLATORS: "psync (fallback from io_uring)" */
    return g_strdup_printf (_("%s (fallback from io_uring)"), text->str);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static GtkWidget *
add_row (GtkWidget  *group,
         const char *title,
         const char *value,
         const char *tooltip)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), value);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  if (tooltip)
    gtk_widget_set_tooltip_text (row, tooltip);
  gtk_widget_add_css_class (row, "bench-row");
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
  return row;
}

static void
add_warning_suffix (GtkWidget  *row,
                    const char *message)
{
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

  gtk_widget_add_css_class (icon, "warning");
  gtk_widget_set_tooltip_text (icon, message);
  gtk_widget_set_valign (icon, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), icon);
}

/* The kernel's words for a CPU vulnerability (sysfs), their common starts in the
 * user's language; what follows them is the kernel's own naming. */
static char *
describe_mitigation (const char *text)
{
  if (g_str_equal (text, "Not affected"))
    /* Translators: a CPU vulnerability the processor does not have */
    return g_strdup (_("Not affected"));
  if (g_str_equal (text, "Vulnerable"))
    return g_strdup (_("Vulnerable"));
  if (g_str_has_prefix (text, "Vulnerable: "))
    /* Translators: %s is the kernel's detail, in English */
    return g_strdup_printf (_("Vulnerable: %s"), text + strlen ("Vulnerable: "));
  if (g_str_has_prefix (text, "Mitigation: "))
    /* Translators: %s is the kernel's name of the protection, in English */
    return g_strdup_printf (_("Mitigation: %s"), text + strlen ("Mitigation: "));
  return g_strdup (text);
}

static char *
describe_write_cache (const char *wc)
{
  if (g_strcmp0 (wc, "write back") == 0)
    /* TRANSLATORS: the drive's volatile write cache */
    return g_strdup (_("On (write back)"));
  if (g_strcmp0 (wc, "write through") == 0)
    return g_strdup (_("Off (write through)"));
  return g_strdup (wc);
}

static char *
describe_stack (JsonArray *stack)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (stack); i++)
    {
      JsonNode *n = json_array_get_element (stack, i);
      JsonObject *layer = JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
      const char *kind = nsc_json_get_string (layer, "kind");
      JsonArray *on = nsc_json_get_array (layer, "on");
      const char *name;

      if (kind == NULL)
        continue;
      if (g_str_equal (kind, "dm-crypt"))
        name = _("dm-crypt (encryption)");
      else if (g_str_equal (kind, "lvm"))
        name = "LVM";
      else if (g_str_equal (kind, "md-raid"))
        name = nsc_json_get_string (layer, "level") ? nsc_json_get_string (layer, "level") : "RAID";
      else
        name = kind;
      if (text->len)
        g_string_append (text, " → ");
      g_string_append (text, name);
      if (on && json_array_get_length (on) > 0)
        {
          g_string_append (text, " (");
          for (guint k = 0; k < json_array_get_length (on); k++)
            {
              const char *dev = json_node_get_string (json_array_get_element (on, k));
              if (k)
                g_string_append (text, ", ");
              g_string_append (text, dev ? dev : "?");
            }
          g_string_append_c (text, ')');
        }
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

GtkWidget *
nsc_bench_group_new (JsonNode *result)
{
  JsonObject *root = result && JSON_NODE_HOLDS_OBJECT (result) ? json_node_get_object (result) : NULL;
  JsonObject *bench = nsc_json_get_object (root, "bench");
  JsonObject *target = nsc_json_get_object (root, "target");
  JsonObject *app = nsc_json_get_object (root, "app");
  JsonObject *mitigations = nsc_json_get_object (bench, "mitigations");
  JsonObject *fs = nsc_json_get_object (bench, "filesystem");
  JsonArray *stack = nsc_json_get_array (bench, "stack");
  GtkWidget *group = adw_preferences_group_new ();
  g_autofree char *drive = nsc_result_info_drive_facts (result);
  g_autofree char *backend = nsc_bench_backend_summary (result);
  const char *kernel = nsc_json_get_string (bench, "kernel");
  gint64 apst;

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Test Bench"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         _("The system this result was measured on"));
  gtk_widget_set_name (group, "bench-group");

  add_row (group, _("Drive"), drive, NULL);
  if (nsc_json_get_string (bench, "cpu"))
    add_row (group, _("CPU"), nsc_json_get_string (bench, "cpu"), NULL);
  if (kernel == NULL)
    kernel = nsc_json_get_string (nsc_json_get_object (root, "system"), "kernel");
  if (kernel)
    add_row (group, _("Kernel"), kernel, NULL);

  if (mitigations)
    {
      g_autofree char *summary = nsc_bench_mitigations_summary (mitigations);
      g_autoptr(GList) names = json_object_get_members (mitigations);
      GtkWidget *row = adw_expander_row_new ();

      names = g_list_sort (names, (GCompareFunc) g_strcmp0);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("CPU Vulnerability Mitigations"));
      adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), summary);
      gtk_widget_add_css_class (row, "bench-row");
      for (const GList *l = names; l; l = l->next)
        {
          const char *text = nsc_json_get_string (mitigations, l->data);
          GtkWidget *child;
          g_autofree char *shown = NULL;

          if (text == NULL)
            continue;
          shown = describe_mitigation (text);
          child = adw_action_row_new ();
          adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (child), FALSE);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (child), l->data);
          adw_action_row_set_subtitle (ADW_ACTION_ROW (child), shown);
          adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (child), 0);
          adw_expander_row_add_row (ADW_EXPANDER_ROW (row), child);
        }
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
    }

  if (nsc_json_get_string (bench, "io_scheduler"))
    add_row (group, _("I/O Scheduler"), nsc_json_get_string (bench, "io_scheduler"), NULL);
  if (nsc_json_get_string (bench, "write_cache"))
    {
      g_autofree char *wc = describe_write_cache (nsc_json_get_string (bench, "write_cache"));
      GtkWidget *row = add_row (group, _("Write Cache"), wc, NULL);
      g_autofree char *warning = warning_message (root, NSC_WARNING_WRITE_CACHE_OFF);

      if (warning)
        add_warning_suffix (row, warning);
    }
  if (nsc_json_get_int (bench, "nvme_apst_max_latency_us", &apst))
    {
      /* The number formatted apart: a format macro inside _() cannot be translated. */
      g_autofree char *latency = g_strdup_printf ("%" G_GINT64_FORMAT, apst);
      g_autofree char *text = apst == 0
                              ? g_strdup (_("Off"))
                              /* TRANSLATORS: NVMe power saving (APST); µs: microseconds */
                              : g_strdup_printf (_("On, states up to %s µs exit latency"),
                                                 latency);
      add_row (group, _("NVMe Power Saving (APST)"), text,
               _("nvme_core.default_ps_max_latency_us: deeper power states wake slower"));
    }
  if (nsc_json_get_string (bench, "usb_transport"))
    {
      const char *usb = nsc_json_get_string (bench, "usb_transport");
      add_row (group, _("USB Transport"),
               g_str_equal (usb, "BOT") ? _("BOT (Bulk-Only, no command queue)")
                                        : g_str_equal (usb, "UAS") ? _("UAS (USB Attached SCSI)") : usb,
               NULL);
    }

  if (fs)
    {
      const char *type = nsc_json_get_string (fs, "type");
      const char *source = nsc_json_get_string (fs, "source");
      const char *mountpoint = nsc_json_get_string (fs, "mountpoint");
      g_autoptr(GString) text = g_string_new (type ? type : "?");
      g_autofree char *options = nsc_mount_options_join (nsc_json_get_string (fs, "mount_options"),
                                                         nsc_json_get_string (fs, "super_options"));

      if (source)
        /* TRANSLATORS: "ext4 on /dev/nvme0n1p2" */
        g_string_append_printf (text, _(" on %s"), source);
      if (mountpoint)
        /* TRANSLATORS: "ext4 on /dev/nvme0n1p2, mounted at /home" */
        g_string_append_printf (text, _(", mounted at %s"), mountpoint);
      add_row (group, _("Filesystem"), text->str, NULL);
      if (options[0] != '\0')
        add_row (group, _("Mount Options"), options, NULL);
    }
  else if (g_strcmp0 (nsc_json_get_string (target, "kind"), "file") == 0 && nsc_json_get_string (target, "filesystem"))
    add_row (group, _("Filesystem"), nsc_json_get_string (target, "filesystem"), NULL);

  if (stack != NULL && json_array_get_length (stack) > 0)
    {
      g_autofree char *text = describe_stack (stack);
      GtkWidget *row = add_row (group, _("Storage Stack"), text, NULL);
      g_autofree char *warning = warning_message (root, NSC_WARNING_ENCRYPTION_MEASURED);

      if (warning == NULL)
        warning = warning_message (root, NSC_WARNING_RAID_MEASURED);
      if (warning)
        add_warning_suffix (row, warning);
    }
  else if (stack != NULL)
    add_row (group, _("Storage Stack"), _("None: no encryption, LVM or RAID"), NULL);

  if (backend)
    {
      GtkWidget *row = add_row (group, _("I/O Backend"), backend, NULL);
      g_autofree char *warning = warning_message (root, NSC_WARNING_BACKEND_FALLBACK);

      if (warning)
        add_warning_suffix (row, warning);
    }
  {
    g_autofree char *version = g_strdup_printf ("%s %s",
                                                nsc_json_get_string (app, "name") ? nsc_json_get_string (app, "name") : "Nandscope",
                                                nsc_json_get_string (app, "version") ? nsc_json_get_string (app, "version")
                                                                            : _("(unknown version)"));
    add_row (group, _("App Version"), version, NULL);
  }
  return group;
}

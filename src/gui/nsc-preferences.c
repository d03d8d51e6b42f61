/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "nsc-preferences.h"

#define SCHEMA_ID "io.github.nandscope.Nandscope"

static const guint64 sizes[] = {
  64ull << 20, 256ull << 20, 1ull << 30, 4ull << 30, 16ull << 30, 32ull << 30, 64ull << 30,
};

GSettings *
nsc_prefs_settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source == NULL)
    return NULL;
  schema = g_settings_schema_source_lookup (source, SCHEMA_ID, TRUE);
  /* An older installed schema without our newer keys is as good as none. */
  if (schema == NULL || !g_settings_schema_has_key (schema, "custom-test-settings"))
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

void
nsc_prefs_load (NscPrefs  *prefs,
                GSettings *settings)
{
  g_autofree char *units = NULL;

  /* The schema's defaults, for when there is none. */
  prefs->custom = FALSE;
  prefs->test_size = 1ull << 30;
  prefs->duration_seconds = 5;
  prefs->runs = 3;
  prefs->idle_seconds = 0;
  prefs->strict = FALSE;
  prefs->cdm = FALSE;
  prefs->units = NSC_UNITS_MIB;
  if (settings == NULL)
    return;

  prefs->custom = g_settings_get_boolean (settings, "custom-test-settings");
  prefs->test_size = g_settings_get_uint64 (settings, "test-size");
  prefs->duration_seconds = g_settings_get_uint (settings, "duration-seconds");
  prefs->runs = g_settings_get_uint (settings, "runs");
  prefs->idle_seconds = g_settings_get_uint (settings, "idle-between-tests-seconds");
  prefs->strict = g_settings_get_boolean (settings, "strict-conditions");
  prefs->cdm = g_settings_get_boolean (settings, "crystaldiskmark-mode");
  units = g_settings_get_string (settings, "units");
  prefs->units = nsc_units_from_string (units);
}

void
nsc_prefs_save (const NscPrefs *prefs,
                GSettings      *settings)
{
  if (settings == NULL)
    return;
  g_settings_delay (settings);
  g_settings_set_boolean (settings, "custom-test-settings", prefs->custom);
  g_settings_set_uint64 (settings, "test-size", prefs->test_size);
  g_settings_set_uint (settings, "duration-seconds", prefs->duration_seconds);
  g_settings_set_uint (settings, "runs", prefs->runs);
  g_settings_set_uint (settings, "idle-between-tests-seconds", prefs->idle_seconds);
  g_settings_set_boolean (settings, "strict-conditions", prefs->strict);
  g_settings_set_boolean (settings, "crystaldiskmark-mode", prefs->cdm);
  g_settings_set_string (settings, "units", nsc_units_to_string (prefs->units));
  g_settings_apply (settings);
}

typedef struct
{
  NscPrefs        *prefs;
  GSettings       *settings;
  NscPrefsChanged  changed;
  gpointer         user_data;

  GtkWidget       *custom;
  GtkWidget       *size;
  GtkAdjustment   *duration;
  GtkAdjustment   *runs;
  GtkAdjustment   *idle;
  GtkWidget       *strict;
  GtkWidget       *cdm;
  GtkWidget       *units;
} Editor;

static void
editor_free (Editor *e)
{
  g_clear_object (&e->settings);
  g_free (e);
}

static void
on_changed (Editor *e)
{
  guint size = adw_combo_row_get_selected (ADW_COMBO_ROW (e->size));

  e->prefs->custom = adw_expander_row_get_enable_expansion (ADW_EXPANDER_ROW (e->custom));
  if (size < G_N_ELEMENTS (sizes))
    e->prefs->test_size = sizes[size];
  e->prefs->duration_seconds = (guint) gtk_adjustment_get_value (e->duration);
  e->prefs->runs = (guint) gtk_adjustment_get_value (e->runs);
  e->prefs->idle_seconds = (guint) gtk_adjustment_get_value (e->idle);
  e->prefs->strict = gtk_switch_get_active (GTK_SWITCH (e->strict));
  e->prefs->cdm = gtk_switch_get_active (GTK_SWITCH (e->cdm));
  e->prefs->units = adw_combo_row_get_selected (ADW_COMBO_ROW (e->units));
  nsc_prefs_save (e->prefs, e->settings);
  if (e->changed)
    e->changed (e->user_data);
}

static GtkWidget *
spin_row (const char     *title,
          const char     *subtitle,
          GtkAdjustment **adjustment,
          double          value,
          double          lower,
          double          upper,
          double          step)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin;

  *adjustment = gtk_adjustment_new (value, lower, upper, step, step * 10, 0);
  spin = gtk_spin_button_new (*adjustment, 1, 0);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  return row;
}

GtkWindow *
nsc_preferences_window_new (GtkWindow       *parent,
                            NscPrefs        *prefs,
                            GSettings       *settings,
                            NscPrefsChanged  changed,
                            gpointer         user_data)
{
  GtkWidget *window = adw_preferences_window_new ();
  GtkWidget *page = adw_preferences_page_new ();
  GtkWidget *tests = adw_preferences_group_new ();
  GtkWidget *conditions = adw_preferences_group_new ();
  GtkWidget *display = adw_preferences_group_new ();
  g_autoptr(GtkStringList) size_names = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) unit_names = gtk_string_list_new (NULL);
  Editor *e = g_new0 (Editor, 1);
  guint size_index = 2;
  GtkWidget *row;

  e->prefs = prefs;
  e->settings = settings ? g_object_ref (settings) : NULL;
  e->changed = changed;
  e->user_data = user_data;
  g_object_set_data_full (G_OBJECT (window), "editor", e, (GDestroyNotify) editor_free);

  gtk_window_set_transient_for (GTK_WINDOW (window), parent);
  gtk_window_set_modal (GTK_WINDOW (window), TRUE);
  adw_preferences_window_set_search_enabled (ADW_PREFERENCES_WINDOW (window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 640);

  adw_preferences_page_set_title (ADW_PREFERENCES_PAGE (page), _("Tests"));
  adw_preferences_page_set_icon_name (ADW_PREFERENCES_PAGE (page), "drive-harddisk-symbolic");

  /* Tests */
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (tests), _("Test Settings"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (tests),
                                         _("Every preset has its own test size, duration and "
                                           "number of runs; here they can be set for all"));
  e->custom = adw_expander_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (e->custom), _("Same Settings for Every Preset"));
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (e->custom),
                                 _("Off: each preset uses its own"));
  adw_expander_row_set_show_enable_switch (ADW_EXPANDER_ROW (e->custom), TRUE);
  adw_expander_row_set_enable_expansion (ADW_EXPANDER_ROW (e->custom), prefs->custom);
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (e->custom), prefs->custom);

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *name = g_format_size_full (sizes[i], G_FORMAT_SIZE_IEC_UNITS);
      gtk_string_list_append (size_names, name);
      if (sizes[i] == prefs->test_size)
        size_index = i;
    }
  e->size = adw_combo_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (e->size), _("Test Size"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (e->size),
                               _("The test file, or the region of a drive each test covers"));
  adw_combo_row_set_model (ADW_COMBO_ROW (e->size), G_LIST_MODEL (size_names));
  adw_combo_row_set_selected (ADW_COMBO_ROW (e->size), size_index);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (e->custom), e->size);

  row = spin_row (_("Duration of Each Test"), _("Seconds"), &e->duration,
                  prefs->duration_seconds, 1, 3600, 1);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (e->custom), row);
  row = spin_row (_("Runs"), _("Each test is repeated; the median run is shown"), &e->runs,
                  prefs->runs, 1, 99, 1);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (e->custom), row);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (tests), e->custom);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (tests));

  /* Conditions */
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (conditions), _("Conditions"));
  row = spin_row (_("Idle Between Tests"),
                  _("Seconds of rest before every test but the first, so the drive can "
                    "empty its cache and cool down"), &e->idle, prefs->idle_seconds, 0, 86400, 5);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (conditions), row);

  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Strict Conditions"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                               _("As the reviews test: the drive is written once, then every "
                                 "test set starts from a TRIM and 15 minutes of idle, 40 s a test"));
  e->strict = gtk_switch_new ();
  gtk_widget_set_valign (e->strict, GTK_ALIGN_CENTER);
  gtk_switch_set_active (GTK_SWITCH (e->strict), prefs->strict);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), e->strict);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), e->strict);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (conditions), row);

  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("CrystalDiskMark's Way"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                               _("5 runs of 5 s with 5 s between them, the best run shown, "
                                 "a 1 GiB test region on drives too: numbers to compare with "
                                 "CrystalDiskMark screenshots"));
  e->cdm = gtk_switch_new ();
  gtk_widget_set_valign (e->cdm, GTK_ALIGN_CENTER);
  gtk_switch_set_active (GTK_SWITCH (e->cdm), prefs->cdm);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), e->cdm);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), e->cdm);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (conditions), row);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (conditions));

  /* Display */
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (display), _("Display"));
  gtk_string_list_append (unit_names, _("MiB/s"));
  gtk_string_list_append (unit_names, _("MB/s"));
  gtk_string_list_append (unit_names, _("IOPS"));
  gtk_string_list_append (unit_names, _("Latency, µs"));
  e->units = adw_combo_row_new ();
  gtk_widget_set_name (e->units, "units");
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (e->units), _("Units"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (e->units),
                               _("MiB/s are binary (1,048,576 bytes), MB/s decimal as in "
                                 "CrystalDiskMark; charts use one of the two"));
  adw_combo_row_set_model (ADW_COMBO_ROW (e->units), G_LIST_MODEL (unit_names));
  adw_combo_row_set_selected (ADW_COMBO_ROW (e->units), prefs->units);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (display), e->units);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (display));

  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (window), ADW_PREFERENCES_PAGE (page));

  g_signal_connect_swapped (e->custom, "notify::enable-expansion", G_CALLBACK (on_changed), e);
  g_signal_connect_swapped (e->size, "notify::selected", G_CALLBACK (on_changed), e);
  g_signal_connect_swapped (e->duration, "value-changed", G_CALLBACK (on_changed), e);
  g_signal_connect_swapped (e->runs, "value-changed", G_CALLBACK (on_changed), e);
  g_signal_connect_swapped (e->idle, "value-changed", G_CALLBACK (on_changed), e);
  g_signal_connect_swapped (e->strict, "notify::active", G_CALLBACK (on_changed), e);
  g_signal_connect_swapped (e->cdm, "notify::active", G_CALLBACK (on_changed), e);
  g_signal_connect_swapped (e->units, "notify::selected", G_CALLBACK (on_changed), e);

  return GTK_WINDOW (window);
}

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
  if (schema == NULL || !g_settings_schema_has_key (schema, "verify-writes"))
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

enum {
  PROP_0,
  PROP_CUSTOM,
  PROP_TEST_SIZE,
  PROP_DURATION,
  PROP_RUNS,
  PROP_IDLE,
  PROP_STRICT,
  PROP_CDM,
  PROP_VERIFY,
  PROP_UNITS,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (NscPrefs, nsc_prefs, G_TYPE_OBJECT)

static void
nsc_prefs_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  NscPrefs *self = NSC_PREFS (object);

  switch (prop_id)
    {
    case PROP_CUSTOM:   g_value_set_boolean (value, self->custom); break;
    case PROP_TEST_SIZE: g_value_set_uint64 (value, self->test_size); break;
    case PROP_DURATION: g_value_set_uint (value, self->duration_seconds); break;
    case PROP_RUNS:     g_value_set_uint (value, self->runs); break;
    case PROP_IDLE:     g_value_set_uint (value, self->idle_seconds); break;
    case PROP_STRICT:   g_value_set_boolean (value, self->strict); break;
    case PROP_CDM:      g_value_set_boolean (value, self->cdm); break;
    case PROP_VERIFY:   g_value_set_boolean (value, self->verify_writes); break;
    case PROP_UNITS:    g_value_set_uint (value, self->units); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Sets *@field and notifies, when the value changes. */
#define SET_FIELD(field, v)                                            \
  G_STMT_START {                                                       \
    if ((field) != (v))                                                \
      {                                                                \
        (field) = (v);                                                 \
        g_object_notify_by_pspec (object, pspec);                      \
      }                                                                \
  } G_STMT_END

static void
nsc_prefs_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  NscPrefs *self = NSC_PREFS (object);

  switch (prop_id)
    {
    case PROP_CUSTOM:   SET_FIELD (self->custom, g_value_get_boolean (value)); break;
    case PROP_TEST_SIZE: SET_FIELD (self->test_size, g_value_get_uint64 (value)); break;
    case PROP_DURATION: SET_FIELD (self->duration_seconds, g_value_get_uint (value)); break;
    case PROP_RUNS:     SET_FIELD (self->runs, g_value_get_uint (value)); break;
    case PROP_IDLE:     SET_FIELD (self->idle_seconds, g_value_get_uint (value)); break;
    case PROP_STRICT:   SET_FIELD (self->strict, g_value_get_boolean (value)); break;
    case PROP_CDM:      SET_FIELD (self->cdm, g_value_get_boolean (value)); break;
    case PROP_VERIFY:   SET_FIELD (self->verify_writes, g_value_get_boolean (value)); break;
    case PROP_UNITS:    SET_FIELD (self->units, (NscUnits) g_value_get_uint (value)); break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nsc_prefs_class_init (NscPrefsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = nsc_prefs_get_property;
  object_class->set_property = nsc_prefs_set_property;

  /* The schema's keys and defaults. */
  properties[PROP_CUSTOM] = g_param_spec_boolean ("custom-test-settings", NULL, NULL, FALSE, flags);
  properties[PROP_TEST_SIZE] = g_param_spec_uint64 ("test-size", NULL, NULL, 1, G_MAXUINT64,
                                                    1ull << 30, flags);
  properties[PROP_DURATION] = g_param_spec_uint ("duration-seconds", NULL, NULL, 1, 86400, 5, flags);
  properties[PROP_RUNS] = g_param_spec_uint ("runs", NULL, NULL, 1, 99, 3, flags);
  properties[PROP_IDLE] = g_param_spec_uint ("idle-between-tests-seconds", NULL, NULL,
                                             0, 86400, 0, flags);
  properties[PROP_STRICT] = g_param_spec_boolean ("strict-conditions", NULL, NULL, FALSE, flags);
  properties[PROP_CDM] = g_param_spec_boolean ("crystaldiskmark-mode", NULL, NULL, FALSE, flags);
  properties[PROP_VERIFY] = g_param_spec_boolean ("verify-writes", NULL, NULL, FALSE, flags);
  /* An NscUnits; the key holds its name. */
  properties[PROP_UNITS] = g_param_spec_uint ("units", NULL, NULL, NSC_UNITS_MIB, NSC_UNITS_US,
                                              NSC_UNITS_MIB, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
nsc_prefs_init (NscPrefs *self)
{
  self->test_size = 1ull << 30;
  self->duration_seconds = 5;
  self->runs = 3;
  self->units = NSC_UNITS_MIB;
}

static gboolean
units_from_setting (GValue   *value,
                    GVariant *variant,
                    gpointer  user_data)
{
  g_value_set_uint (value, nsc_units_from_string (g_variant_get_string (variant, NULL)));
  return TRUE;
}

static GVariant *
units_to_setting (const GValue       *value,
                  const GVariantType *expected_type,
                  gpointer            user_data)
{
  return g_variant_new_string (nsc_units_to_string (g_value_get_uint (value)));
}

NscPrefs *
nsc_prefs_new (GSettings *settings)
{
  NscPrefs *self = g_object_new (NSC_TYPE_PREFS, NULL);

  if (settings == NULL)
    return self;
  for (guint i = PROP_CUSTOM; i < PROP_UNITS; i++)
    g_settings_bind (settings, g_param_spec_get_name (properties[i]), self,
                     g_param_spec_get_name (properties[i]), G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (settings, "units", self, "units", G_SETTINGS_BIND_DEFAULT,
                                units_from_setting, units_to_setting, NULL, NULL);
  return self;
}

/* The size chosen in the list, and back; a size the list lacks shows nothing chosen
 * but is kept until another is chosen. */
static gboolean
size_to_index (GBinding     *binding,
               const GValue *from,
               GValue       *to,
               gpointer      user_data)
{
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    if (sizes[i] == g_value_get_uint64 (from))
      {
        g_value_set_uint (to, i);
        return TRUE;
      }
  return FALSE;
}

static gboolean
index_to_size (GBinding     *binding,
               const GValue *from,
               GValue       *to,
               gpointer      user_data)
{
  guint i = g_value_get_uint (from);

  if (i >= G_N_ELEMENTS (sizes))
    return FALSE;
  g_value_set_uint64 (to, sizes[i]);
  return TRUE;
}

static void
bind (NscPrefs   *prefs,
      const char *key,
      gpointer    target,
      const char *property)
{
  g_object_bind_property (prefs, key, target, property,
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
}

/* The expander's subtitle says what its switch does now. */
static gboolean
custom_to_subtitle (GBinding     *binding,
                    const GValue *from,
                    GValue       *to,
                    gpointer      user_data)
{
  g_value_set_string (to, g_value_get_boolean (from)
                          ? _("On: every preset uses these settings")
                          : _("Off: each preset uses its own"));
  return TRUE;
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
nsc_preferences_window_new (GtkWindow *parent,
                            NscPrefs  *prefs)
{
  GtkWidget *window = adw_preferences_window_new ();
  GtkWidget *page = adw_preferences_page_new ();
  GtkWidget *tests = adw_preferences_group_new ();
  GtkWidget *conditions = adw_preferences_group_new ();
  GtkWidget *display = adw_preferences_group_new ();
  g_autoptr(GtkStringList) size_names = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) unit_names = gtk_string_list_new (NULL);
  GtkWidget *custom, *size, *strict, *verify, *cdm, *units;
  GtkAdjustment *adjustment;
  GtkWidget *row;

  g_return_val_if_fail (NSC_IS_PREFS (prefs), NULL);

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
  custom = adw_expander_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (custom), _("Same Settings for Every Preset"));
  gtk_widget_set_name (custom, "same_settings_row");
  adw_expander_row_set_show_enable_switch (ADW_EXPANDER_ROW (custom), TRUE);
  bind (prefs, "custom-test-settings", custom, "enable-expansion");
  g_object_bind_property_full (prefs, "custom-test-settings", custom, "subtitle",
                               G_BINDING_SYNC_CREATE, custom_to_subtitle, NULL, NULL, NULL);
  /* Open when on, as the window opens; the user folds it after. */
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (custom), prefs->custom);

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *name = g_format_size_full (sizes[i], G_FORMAT_SIZE_IEC_UNITS);
      gtk_string_list_append (size_names, name);
    }
  size = adw_combo_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (size), _("Test Size"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (size),
                               _("The test file, or the region of a drive each test covers"));
  adw_combo_row_set_model (ADW_COMBO_ROW (size), G_LIST_MODEL (size_names));
  /* 1 GiB (the default) shows for a size the list lacks. */
  adw_combo_row_set_selected (ADW_COMBO_ROW (size), 2);
  g_object_bind_property_full (prefs, "test-size", size, "selected",
                               G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE,
                               size_to_index, index_to_size, NULL, NULL);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (custom), size);

  row = spin_row (_("Duration of Each Test"), _("Seconds"), &adjustment, 1, 1, 3600, 1);
  bind (prefs, "duration-seconds", adjustment, "value");
  adw_expander_row_add_row (ADW_EXPANDER_ROW (custom), row);
  row = spin_row (_("Runs"), _("Each test is repeated; the median run is shown"), &adjustment,
                  1, 1, 99, 1);
  bind (prefs, "runs", adjustment, "value");
  adw_expander_row_add_row (ADW_EXPANDER_ROW (custom), row);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (tests), custom);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (tests));

  /* Conditions */
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (conditions), _("Conditions"));
  row = spin_row (_("Idle Between Tests"),
                  _("Seconds of rest before every test but the first, so the drive can "
                    "empty its cache and cool down"), &adjustment, 0, 0, 86400, 5);
  bind (prefs, "idle-between-tests-seconds", adjustment, "value");
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (conditions), row);

  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Strict Conditions"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                               _("As the reviews test: the drive is written once, then every "
                                 "test set starts from a TRIM and 15 minutes of idle, 40 s a test"));
  strict = gtk_switch_new ();
  gtk_widget_set_valign (strict, GTK_ALIGN_CENTER);
  bind (prefs, "strict-conditions", strict, "active");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), strict);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), strict);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (conditions), row);

  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Check What Write Tests Wrote"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                               _("Write-fill tests read back what they wrote and check every "
                                 "block, which finds a drive that loses or wraps data; this "
                                 "takes about as long again as the write. A surface scan checks "
                                 "its places when it reads them"));
  verify = gtk_switch_new ();
  gtk_widget_set_name (verify, "verify_writes");
  gtk_widget_set_valign (verify, GTK_ALIGN_CENTER);
  bind (prefs, "verify-writes", verify, "active");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), verify);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), verify);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (conditions), row);

  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("CrystalDiskMark's Way"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                               _("5 runs of 5 s with 5 s between them, the best run shown, "
                                 "a 1 GiB test region on drives too: numbers to compare with "
                                 "CrystalDiskMark screenshots"));
  cdm = gtk_switch_new ();
  gtk_widget_set_valign (cdm, GTK_ALIGN_CENTER);
  bind (prefs, "crystaldiskmark-mode", cdm, "active");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), cdm);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), cdm);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (conditions), row);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (conditions));

  /* Display */
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (display), _("Display"));
  gtk_string_list_append (unit_names, _("MiB/s"));
  gtk_string_list_append (unit_names, _("MB/s"));
  gtk_string_list_append (unit_names, _("IOPS"));
  gtk_string_list_append (unit_names, _("Latency, µs"));
  units = adw_combo_row_new ();
  gtk_widget_set_name (units, "units");
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (units), _("Units"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (units),
                               _("MiB/s are binary (1,048,576 bytes), MB/s decimal as in "
                                 "CrystalDiskMark; charts use one of the two"));
  adw_combo_row_set_model (ADW_COMBO_ROW (units), G_LIST_MODEL (unit_names));
  bind (prefs, "units", units, "selected");
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (display), units);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (display));

  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (window), ADW_PREFERENCES_PAGE (page));

  return GTK_WINDOW (window);
}

void
nsc_prefs_run_options (NscPrefs            *prefs,
                       const NscRunOptions *overrides,
                       NscRunOptions       *out)
{
  NscRunOptions opts = NSC_RUN_OPTIONS_INIT;
  NscRunOptions none = NSC_RUN_OPTIONS_INIT;

  g_return_if_fail (NSC_IS_PREFS (prefs) && out != NULL);

  overrides = overrides ? overrides : &none;
  opts.file_size = overrides->file_size ? overrides->file_size
                                        : prefs->custom ? prefs->test_size : 0;
  opts.runs = overrides->runs ? overrides->runs : prefs->custom ? prefs->runs : 0;
  opts.time_ns = overrides->time_ns ? overrides->time_ns
                                    : prefs->custom ? prefs->duration_seconds * G_GINT64_CONSTANT (1000000000) : 0;
  opts.idle_ns = prefs->idle_seconds * G_GINT64_CONSTANT (1000000000);
  opts.max_idle_ns = overrides->max_idle_ns;
  opts.span_cap = overrides->span_cap;
  opts.strict = prefs->strict;
  opts.cdm = prefs->cdm;
  opts.backend = NSC_BACKEND_AUTO;
  *out = opts;
}

NscPreset *
nsc_prefs_run_preset (NscPrefs        *prefs,
                      const NscPreset *preset)
{
  NscPreset *checked;

  g_return_val_if_fail (NSC_IS_PREFS (prefs) && preset != NULL, NULL);

  if (!prefs->verify_writes || (checked = nsc_preset_with_verify (preset)) == NULL)
    return NULL;
  /* The capacity check reads its writes back already: it runs as it is. (A surface
   * scan's copy has as many steps as the scan, with its places checked.) */
  for (guint i = 0; i < preset->steps->len; i++)
    if (g_str_equal (g_array_index (preset->steps, NscStep, i).analysis, "verify"))
      g_clear_pointer (&checked, nsc_preset_free);
  return checked;
}

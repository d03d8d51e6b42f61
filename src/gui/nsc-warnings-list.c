/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "nsc-json.h"
#include "nsc-warnings-list.h"
#include "nsc-words.h"

struct _NscWarningsList
{
  GtkWidget     parent_instance;

  /* Template widgets */
  AdwPreferencesGroup *group;

  /* Owned */
  GPtrArray    *warnings;   /* NscWarning, as added */
  GPtrArray    *rows;       /* GtkWidget in the group: one per kind of warning */
  NscUnits      unit;
};

G_DEFINE_FINAL_TYPE (NscWarningsList, nsc_warnings_list, GTK_TYPE_WIDGET)

/* The preset's title for the button, or its name when there is none. */
static char *
settle_label (const char *name)
{
  g_autoptr(NscPreset) preset = nsc_preset_lookup (name, NULL);

  /* Translators: a button under a warning; %s is a test set, "Write-fill (SLC cache)" */
  return g_strdup_printf (_("Choose the %s test"),
                          preset ? nsc_words_preset_title (preset) : name);
}

/* A label row under an expander. */
static void
add_text_row (GtkWidget  *expander,
              const char *text)
{
  GtkWidget *label = gtk_label_new (text);
  GtkWidget *inner = gtk_list_box_row_new ();

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_widget_set_margin_top (label, 8);
  gtk_widget_set_margin_bottom (label, 8);
  gtk_widget_add_css_class (label, "warning-details");
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (inner), label);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (inner), FALSE);
  adw_expander_row_add_row (ADW_EXPANDER_ROW (expander), inner);
}

static GtkWidget *
make_row (NscWarningsList *self,
          GPtrArray       *like)
{
  const NscWarning *w = g_ptr_array_index (like, 0);
  g_autofree char *details = NULL;
  g_autofree char *also = NULL;
  const char *settle = NULL;
  g_autofree char *title = nsc_warning_describe (w, self->unit, &details, &settle);
  g_autofree char *escaped = g_markup_escape_text (title, -1);
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
  GtkWidget *row;

  gtk_widget_set_valign (icon, GTK_ALIGN_CENTER);
  /* One row says what several tests share once and names the others. */
  also = nsc_warnings_group_also (like);
  if (details == NULL && settle == NULL && also == NULL)
    {
      row = adw_action_row_new ();
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
    }
  else
    {
      row = adw_expander_row_new ();
      adw_expander_row_add_prefix (ADW_EXPANDER_ROW (row), icon);
    }
  gtk_widget_add_css_class (row, "warning-row");
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped);
  gtk_widget_set_name (row, w->code);

  if (details != NULL)
    add_text_row (row, details);
  if (also != NULL)
    add_text_row (row, also);
  if (settle != NULL)
    {
      g_autofree char *text = settle_label (settle);
      GtkWidget *button = gtk_button_new ();
      GtkWidget *button_label = gtk_label_new (text);
      GtkWidget *inner = gtk_list_box_row_new ();

      /* A long preset title wraps rather than widen the window (360 px). */
      gtk_label_set_wrap (GTK_LABEL (button_label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (button_label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_justify (GTK_LABEL (button_label), GTK_JUSTIFY_CENTER);
      gtk_button_set_child (GTK_BUTTON (button), button_label);
      gtk_widget_set_margin_end (button, 12);
      gtk_widget_set_halign (button, GTK_ALIGN_START);
      gtk_widget_set_margin_start (button, 12);
      gtk_widget_set_margin_top (button, 6);
      gtk_widget_set_margin_bottom (button, 6);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.select-preset");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", settle);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (inner), button);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (inner), FALSE);
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), inner);
    }
  return row;
}

/* One row per kind of warning, in the order they came. */
static void
rebuild (NscWarningsList *self)
{
  g_autoptr(GPtrArray) groups = nsc_warnings_group (self->warnings, self->unit);

  for (guint i = 0; i < self->rows->len; i++)
    adw_preferences_group_remove (self->group, g_ptr_array_index (self->rows, i));
  g_ptr_array_set_size (self->rows, 0);
  for (guint k = 0; k < groups->len; k++)
    {
      GtkWidget *row = make_row (self, g_ptr_array_index (groups, k));

      g_ptr_array_add (self->rows, row);
      adw_preferences_group_add (self->group, row);
    }
  gtk_widget_set_visible (GTK_WIDGET (self), self->warnings->len > 0);
}

GtkWidget *
nsc_warnings_list_new (void)
{
  return g_object_new (NSC_TYPE_WARNINGS_LIST, NULL);
}

void
nsc_warnings_list_clear (NscWarningsList *self)
{
  g_return_if_fail (NSC_IS_WARNINGS_LIST (self));

  g_ptr_array_set_size (self->warnings, 0);
  rebuild (self);
}

void
nsc_warnings_list_add (NscWarningsList  *self,
                       const NscWarning *warning)
{
  g_return_if_fail (NSC_IS_WARNINGS_LIST (self));
  g_return_if_fail (warning != NULL);

  g_ptr_array_add (self->warnings, nsc_warning_copy (warning));
  rebuild (self);
}

void
nsc_warnings_list_add_json (NscWarningsList *self,
                            JsonNode        *result)
{
  JsonObject *root = result && JSON_NODE_HOLDS_OBJECT (result) ? json_node_get_object (result)
                                                                : NULL;
  JsonArray *warnings = nsc_json_get_array (root, "warnings");

  g_return_if_fail (NSC_IS_WARNINGS_LIST (self));

  for (guint i = 0; warnings && i < json_array_get_length (warnings); i++)
    {
      JsonNode *n = json_array_get_element (warnings, i);
      g_autoptr(NscWarning) w = JSON_NODE_HOLDS_OBJECT (n)
                                ? nsc_warning_from_json (json_node_get_object (n)) : NULL;

      if (w != NULL)
        nsc_warnings_list_add (self, w);
    }
}

guint
nsc_warnings_list_get_count (NscWarningsList *self)
{
  g_return_val_if_fail (NSC_IS_WARNINGS_LIST (self), 0);

  return self->warnings->len;
}

void
nsc_warnings_list_set_unit (NscWarningsList *self,
                            NscUnits         unit)
{
  g_return_if_fail (NSC_IS_WARNINGS_LIST (self));

  if (self->unit == unit)
    return;
  self->unit = unit;
  rebuild (self);
}

static void
nsc_warnings_list_dispose (GObject *object)
{
  NscWarningsList *self = NSC_WARNINGS_LIST (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), NSC_TYPE_WARNINGS_LIST);
  G_OBJECT_CLASS (nsc_warnings_list_parent_class)->dispose (object);
}

static void
nsc_warnings_list_finalize (GObject *object)
{
  NscWarningsList *self = NSC_WARNINGS_LIST (object);

  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  G_OBJECT_CLASS (nsc_warnings_list_parent_class)->finalize (object);
}

static void
nsc_warnings_list_class_init (NscWarningsListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nsc_warnings_list_dispose;
  object_class->finalize = nsc_warnings_list_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/nandscope/Nandscope/nsc-warnings-list.ui");
  gtk_widget_class_bind_template_child (widget_class, NscWarningsList, group);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "nscwarningslist");
}

static void
nsc_warnings_list_init (NscWarningsList *self)
{
  self->warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_warning_free);
  self->rows = g_ptr_array_new ();
  self->unit = NSC_UNITS_MIB;
  gtk_widget_init_template (GTK_WIDGET (self));
}

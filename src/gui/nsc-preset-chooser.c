/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "nsc-preset-chooser.h"
#include "nsc-words.h"

struct _NscPresetChooser
{
  GtkWidget             parent_instance;

  /* Template widgets */
  GtkDropDown          *preset_dropdown;

  /* Owned */
  GPtrArray            *presets;        /* NscPreset, in the order of the drop-down */
  GtkStringList        *preset_names;
  GtkCustomFilter      *preset_filter;  /* the presets offered for the target */
  GtkFilterListModel   *preset_model;

  NscPresetOfferedFunc  offered;
  NscPresetCaptionFunc  caption;
  gpointer              user_data;

  GPtrArray            *bound;          /* the popup's rows bound now (GtkListItem,
                                         * not owned): their captions follow changes */
};

G_DEFINE_FINAL_TYPE (NscPresetChooser, nsc_preset_chooser, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PRESET_NAME,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

static gboolean
preset_filter_func (gpointer item,
                    gpointer user_data)
{
  NscPresetChooser *self = user_data;
  const NscPreset *preset = nsc_preset_chooser_find (self, gtk_string_object_get_string (item));

  return preset != NULL && (self->offered == NULL || self->offered (preset, self->user_data));
}

static void
setup_preset_item (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  /* The header bar has room for a few letters on a phone. */
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (item, label);
}

static void
bind_preset_item (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  NscPresetChooser         *self)
{
  GtkStringObject *name = gtk_list_item_get_item (item);
  const NscPreset *preset = nsc_preset_chooser_find (self, gtk_string_object_get_string (name));

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      preset ? nsc_words_preset_title (preset)
                             : gtk_string_object_get_string (name));
}

/* The preset list in groups, each under its heading, in this order. */
static const struct { const char *id; const char *title; } preset_categories[] = {
  { "cdm", N_("CrystalDiskMark sets") },
  { "slc", N_("SLC cache") },
  { "sweeps", N_("Sweeps") },
  { "endurance", N_("Endurance") },
  { "drive", N_("The drive itself") },
};

static guint
category_rank (const NscPreset *preset)
{
  for (guint i = 0; i < G_N_ELEMENTS (preset_categories); i++)
    if (g_strcmp0 (preset->category, preset_categories[i].id) == 0)
      return i;
  return G_N_ELEMENTS (preset_categories);
}

static int
compare_presets (gconstpointer a,
                 gconstpointer b)
{
  const NscPreset *pa = *(NscPreset * const *) a;
  const NscPreset *pb = *(NscPreset * const *) b;

  /* g_ptr_array_sort is stable since GLib 2.64: the order within a group stays. */
  return (int) category_rank (pa) - (int) category_rank (pb);
}

static void
setup_preset_row (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  gpointer                  user_data)
{
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *heading = gtk_label_new (NULL);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *caption = gtk_label_new (NULL);
  GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");

  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "heading");
  gtk_widget_add_css_class (heading, "preset-category");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_xalign (GTK_LABEL (caption), 0);
  gtk_widget_add_css_class (caption, "caption");
  gtk_widget_add_css_class (caption, "dim-label");
  gtk_widget_set_hexpand (box, TRUE);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (check, "preset-check");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), caption);
  gtk_box_append (GTK_BOX (row), box);
  gtk_box_append (GTK_BOX (row), check);
  gtk_box_append (GTK_BOX (outer), heading);
  gtk_box_append (GTK_BOX (outer), row);
  g_object_set_data (G_OBJECT (outer), "heading", heading);
  g_object_set_data (G_OBJECT (outer), "title", title);
  g_object_set_data (G_OBJECT (outer), "caption", caption);
  g_object_set_data (G_OBJECT (outer), "check", check);
  gtk_list_item_set_child (item, outer);
}

/* The current preset has a check mark in the list. */
static void
update_preset_check (GtkDropDown *dropdown,
                     GParamSpec  *pspec,
                     GtkListItem *item)
{
  GtkWidget *outer = gtk_list_item_get_child (item);

  if (outer != NULL)
    gtk_widget_set_visible (g_object_get_data (G_OBJECT (outer), "check"),
                            gtk_list_item_get_position (item) == gtk_drop_down_get_selected (dropdown));
}

/* A heading above the first preset of each group; again when the filter moves the row. */
static void
update_preset_heading (GtkListItem      *item,
                       GParamSpec       *pspec,
                       NscPresetChooser *self)
{
  GtkStringObject *name = gtk_list_item_get_item (item);
  GtkWidget *outer = gtk_list_item_get_child (item);
  const NscPreset *preset = name ? nsc_preset_chooser_find (self, gtk_string_object_get_string (name)) : NULL;
  guint position = gtk_list_item_get_position (item);
  const NscPreset *before = NULL;
  GtkWidget *heading;

  if (preset == NULL || outer == NULL)
    return;
  heading = g_object_get_data (G_OBJECT (outer), "heading");
  if (position > 0 && position != GTK_INVALID_LIST_POSITION)
    {
      g_autoptr(GtkStringObject) prev = g_list_model_get_item (G_LIST_MODEL (self->preset_model),
                                                               position - 1);
      before = prev ? nsc_preset_chooser_find (self, gtk_string_object_get_string (prev)) : NULL;
    }
  if (before == NULL || category_rank (before) != category_rank (preset))
    {
      guint rank = category_rank (preset);
      gtk_label_set_text (GTK_LABEL (heading),
                          rank < G_N_ELEMENTS (preset_categories)
                          ? _(preset_categories[rank].title) : _("Other"));
      gtk_widget_set_visible (heading, TRUE);
    }
  else
    gtk_widget_set_visible (heading, FALSE);
  update_preset_check (self->preset_dropdown, NULL, item);
}

/* A row's caption ("About 3 minutes") from the owner, as things are now. */
static void
update_preset_caption (NscPresetChooser *self,
                       GtkListItem      *item)
{
  GtkStringObject *name = gtk_list_item_get_item (item);
  GtkWidget *outer = gtk_list_item_get_child (item);
  const NscPreset *preset = name ? nsc_preset_chooser_find (self, gtk_string_object_get_string (name))
                                 : NULL;
  g_autofree char *text = NULL;

  if (preset == NULL || outer == NULL)
    return;
  if (self->caption != NULL)
    text = self->caption (preset, self->user_data);
  gtk_label_set_text (g_object_get_data (G_OBJECT (outer), "caption"), text ? text : "");
}

static void
bind_preset_row (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 NscPresetChooser         *self)
{
  GtkStringObject *name = gtk_list_item_get_item (item);
  const NscPreset *preset = nsc_preset_chooser_find (self, gtk_string_object_get_string (name));
  GtkWidget *outer = gtk_list_item_get_child (item);

  if (preset == NULL)
    return;
  gtk_label_set_text (g_object_get_data (G_OBJECT (outer), "title"), nsc_words_preset_title (preset));
  /* Rows are bound when the list is built, before the owner may have given its
   * caption function or its facts: refilter and set_funcs update the bound ones. */
  g_ptr_array_add (self->bound, item);
  update_preset_caption (self, item);
  gtk_widget_set_tooltip_text (outer, nsc_words_preset_description (preset));

  /* The heading, and the check mark with it. */
  update_preset_heading (item, NULL, self);
  g_object_set_data (G_OBJECT (item), "check-handler",
                     GSIZE_TO_POINTER (g_signal_connect_object (self->preset_dropdown,
                                                                "notify::selected",
                                                                G_CALLBACK (update_preset_check),
                                                                item, 0)));
  g_object_set_data (G_OBJECT (item), "position-handler",
                     GSIZE_TO_POINTER (g_signal_connect (item, "notify::position",
                                                         G_CALLBACK (update_preset_heading), self)));
}

static void
unbind_preset_row (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   NscPresetChooser         *self)
{
  gulong handler = GPOINTER_TO_SIZE (g_object_steal_data (G_OBJECT (item), "check-handler"));
  gulong moved = GPOINTER_TO_SIZE (g_object_steal_data (G_OBJECT (item), "position-handler"));

  g_ptr_array_remove_fast (self->bound, item);
  if (handler != 0)
    g_signal_handler_disconnect (self->preset_dropdown, handler);
  if (moved != 0)
    g_signal_handler_disconnect (item, moved);
}

/* Every built-in preset, in groups; all offered until the owner says otherwise. */
static void
load_presets (NscPresetChooser *self)
{
  g_auto(GStrv) names = nsc_preset_list_names ();
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkListItemFactory) list_factory = gtk_signal_list_item_factory_new ();

  self->presets = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_preset_free);
  self->preset_names = gtk_string_list_new (NULL);

  for (guint i = 0; names && names[i]; i++)
    {
      g_autoptr(GError) error = NULL;
      NscPreset *preset = nsc_preset_lookup (names[i], &error);

      /* A broken built-in preset is a bug; the others still work. */
      if (preset == NULL)
        {
          g_critical ("Built-in preset %s: %s", names[i], error->message);
          continue;
        }
      g_ptr_array_add (self->presets, preset);
    }
  g_ptr_array_sort (self->presets, compare_presets);
  for (guint i = 0; i < self->presets->len; i++)
    gtk_string_list_append (self->preset_names,
                            ((NscPreset *) g_ptr_array_index (self->presets, i))->name);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_preset_item), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_preset_item), self);
  g_signal_connect (list_factory, "setup", G_CALLBACK (setup_preset_row), NULL);
  g_signal_connect (list_factory, "bind", G_CALLBACK (bind_preset_row), self);
  g_signal_connect (list_factory, "unbind", G_CALLBACK (unbind_preset_row), self);

  gtk_drop_down_set_factory (self->preset_dropdown, factory);
  gtk_drop_down_set_list_factory (self->preset_dropdown, list_factory);
  self->preset_filter = gtk_custom_filter_new (preset_filter_func, self, NULL);
  self->preset_model = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->preset_names)),
                                                  GTK_FILTER (g_object_ref (self->preset_filter)));
  gtk_drop_down_set_model (self->preset_dropdown, G_LIST_MODEL (self->preset_model));
}

static void
on_selected (NscPresetChooser *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRESET_NAME]);
}

static void
nsc_preset_chooser_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  NscPresetChooser *self = NSC_PRESET_CHOOSER (object);

  switch (prop_id)
    {
    case PROP_PRESET_NAME:
      g_value_set_string (value, nsc_preset_chooser_get_preset_name (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nsc_preset_chooser_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  NscPresetChooser *self = NSC_PRESET_CHOOSER (object);

  switch (prop_id)
    {
    case PROP_PRESET_NAME:
      nsc_preset_chooser_select (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nsc_preset_chooser_dispose (GObject *object)
{
  NscPresetChooser *self = NSC_PRESET_CHOOSER (object);

  /* The owner may be going too: ask it nothing more. */
  self->offered = NULL;
  self->caption = NULL;
  self->user_data = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), NSC_TYPE_PRESET_CHOOSER);

  G_OBJECT_CLASS (nsc_preset_chooser_parent_class)->dispose (object);
}

static void
nsc_preset_chooser_finalize (GObject *object)
{
  NscPresetChooser *self = NSC_PRESET_CHOOSER (object);

  g_clear_object (&self->preset_model);
  g_clear_object (&self->preset_filter);
  g_clear_object (&self->preset_names);
  g_clear_pointer (&self->presets, g_ptr_array_unref);
  g_clear_pointer (&self->bound, g_ptr_array_unref);

  G_OBJECT_CLASS (nsc_preset_chooser_parent_class)->finalize (object);
}

static void
nsc_preset_chooser_class_init (NscPresetChooserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = nsc_preset_chooser_get_property;
  object_class->set_property = nsc_preset_chooser_set_property;
  object_class->dispose = nsc_preset_chooser_dispose;
  object_class->finalize = nsc_preset_chooser_finalize;

  /* The chosen preset's name; set it to choose one that is offered. */
  properties[PROP_PRESET_NAME] =
    g_param_spec_string ("preset-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/nandscope/Nandscope/nsc-preset-chooser.ui");
  gtk_widget_class_bind_template_child (widget_class, NscPresetChooser, preset_dropdown);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "nscpresetchooser");
}

static void
nsc_preset_chooser_init (NscPresetChooser *self)
{
  self->bound = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  load_presets (self);
  g_signal_connect_swapped (self->preset_dropdown, "notify::selected",
                            G_CALLBACK (on_selected), self);
}

GtkWidget *
nsc_preset_chooser_new (void)
{
  return g_object_new (NSC_TYPE_PRESET_CHOOSER, NULL);
}

void
nsc_preset_chooser_set_funcs (NscPresetChooser     *self,
                              NscPresetOfferedFunc  offered,
                              NscPresetCaptionFunc  caption,
                              gpointer              user_data)
{
  g_return_if_fail (NSC_IS_PRESET_CHOOSER (self));

  self->offered = offered;
  self->caption = caption;
  self->user_data = user_data;
  nsc_preset_chooser_refilter (self);
}

const NscPreset *
nsc_preset_chooser_find (NscPresetChooser *self,
                         const char       *name)
{
  g_return_val_if_fail (NSC_IS_PRESET_CHOOSER (self), NULL);

  for (guint i = 0; i < self->presets->len; i++)
    {
      const NscPreset *p = g_ptr_array_index (self->presets, i);
      if (g_strcmp0 (p->name, name) == 0)
        return p;
    }
  return NULL;
}

const char *
nsc_preset_chooser_get_preset_name (NscPresetChooser *self)
{
  GtkStringObject *item;

  g_return_val_if_fail (NSC_IS_PRESET_CHOOSER (self), NULL);

  item = gtk_drop_down_get_selected_item (self->preset_dropdown);
  return item ? gtk_string_object_get_string (item) : NULL;
}

const NscPreset *
nsc_preset_chooser_get_preset (NscPresetChooser *self)
{
  const char *name = nsc_preset_chooser_get_preset_name (self);

  return name ? nsc_preset_chooser_find (self, name) : NULL;
}

gboolean
nsc_preset_chooser_select (NscPresetChooser *self,
                           const char       *name)
{
  GListModel *model;
  guint n;

  g_return_val_if_fail (NSC_IS_PRESET_CHOOSER (self), FALSE);

  model = G_LIST_MODEL (self->preset_model);
  n = g_list_model_get_n_items (model);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkStringObject) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (gtk_string_object_get_string (item), name) == 0)
        {
          gtk_drop_down_set_selected (self->preset_dropdown, i);
          return TRUE;
        }
    }
  return FALSE;
}

void
nsc_preset_chooser_refilter (NscPresetChooser *self)
{
  g_autofree char *name = NULL;

  g_return_if_fail (NSC_IS_PRESET_CHOOSER (self));

  name = g_strdup (nsc_preset_chooser_get_preset_name (self));
  gtk_filter_changed (GTK_FILTER (self->preset_filter), GTK_FILTER_CHANGE_DIFFERENT);
  if (name == NULL || !nsc_preset_chooser_select (self, name))
    gtk_drop_down_set_selected (self->preset_dropdown, 0);
  /* Rows the filter kept are not bound again: their captions are brought up to date. */
  for (guint i = 0; i < self->bound->len; i++)
    update_preset_caption (self, g_ptr_array_index (self->bound, i));
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "nsc-reflow-box.h"

struct _NscReflowBox
{
  GtkWidget parent_instance;

  int       spacing;
  int       wide_width;   /* the width each later child needs beside the first */
};

G_DEFINE_FINAL_TYPE (NscReflowBox, nsc_reflow_box, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SPACING,
  PROP_WIDE_WIDTH,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

/* The width at which the children go side by side. */
static int
wide_threshold (NscReflowBox *self)
{
  int total = 0, n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (self)); c;
       c = gtk_widget_get_next_sibling (c))
    {
      int min = 0, nat = 0;

      if (!gtk_widget_should_layout (c))
        continue;
      gtk_widget_measure (c, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
      total += n == 0 ? nat : MAX (min, self->wide_width);
      n++;
    }
  return n > 1 ? total + (n - 1) * self->spacing : 0;
}

static GtkSizeRequestMode
nsc_reflow_box_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
nsc_reflow_box_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  NscReflowBox *self = NSC_REFLOW_BOX (widget);
  gboolean wide = for_size >= 0 && for_size >= wide_threshold (self);
  int n = 0;

  *minimum = *natural = 0;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      int min = 0, nat = 0;

      if (!gtk_widget_should_layout (c))
        continue;
      if (orientation == GTK_ORIENTATION_HORIZONTAL)
        {
          /* Narrow: one above the other, the widest sets the minimum. */
          gtk_widget_measure (c, orientation, -1, &min, &nat, NULL, NULL);
          *minimum = MAX (*minimum, min);
          *natural += nat + (n > 0 ? self->spacing : 0);
        }
      else if (wide)
        {
          int first_width = 0;

          gtk_widget_measure (c, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &first_width, NULL, NULL);
          gtk_widget_measure (c, orientation, n == 0 ? first_width : self->wide_width,
                              &min, &nat, NULL, NULL);
          *minimum = MAX (*minimum, min);
          *natural = MAX (*natural, nat);
        }
      else
        {
          int width = for_size;

          if (width < 0)
            gtk_widget_measure (c, GTK_ORIENTATION_HORIZONTAL, -1, &width, NULL, NULL, NULL);
          gtk_widget_measure (c, orientation, width, &min, &nat, NULL, NULL);
          *minimum += min + (n > 0 ? self->spacing : 0);
          *natural += nat + (n > 0 ? self->spacing : 0);
        }
      n++;
    }
  if (minimum_baseline)
    *minimum_baseline = -1;
  if (natural_baseline)
    *natural_baseline = -1;
}

static void
nsc_reflow_box_size_allocate (GtkWidget *widget,
                              int        width,
                              int        height,
                              int        baseline)
{
  NscReflowBox *self = NSC_REFLOW_BOX (widget);
  gboolean wide = width >= wide_threshold (self);
  int x = 0, y = 0, n = 0, visible = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    visible += gtk_widget_should_layout (c);

  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkAllocation a;
      int min = 0, nat = 0;

      if (!gtk_widget_should_layout (c))
        continue;
      if (wide)
        {
          gtk_widget_measure (c, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
          /* The first at its natural width, the rest share what is left. */
          a.width = n == 0 ? nat : (width - x) / (visible - n);
          a.x = x;
          a.y = 0;
          a.height = height;
          x += a.width + self->spacing;
        }
      else
        {
          gtk_widget_measure (c, GTK_ORIENTATION_VERTICAL, width, &min, &nat, NULL, NULL);
          a.x = 0;
          a.y = y;
          a.width = width;
          a.height = n == visible - 1 ? MAX (min, height - y) : min;
          y += a.height + self->spacing;
        }
      gtk_widget_size_allocate (c, &a, -1);
      n++;
    }
}

static void
nsc_reflow_box_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  NscReflowBox *self = NSC_REFLOW_BOX (object);

  switch (prop_id)
    {
    case PROP_SPACING:
      g_value_set_int (value, self->spacing);
      break;
    case PROP_WIDE_WIDTH:
      g_value_set_int (value, self->wide_width);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nsc_reflow_box_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  NscReflowBox *self = NSC_REFLOW_BOX (object);
  int v;

  switch (prop_id)
    {
    case PROP_SPACING:
    case PROP_WIDE_WIDTH:
      v = g_value_get_int (value);
      if (v == (prop_id == PROP_SPACING ? self->spacing : self->wide_width))
        return;
      if (prop_id == PROP_SPACING)
        self->spacing = v;
      else
        self->wide_width = v;
      g_object_notify_by_pspec (object, pspec);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nsc_reflow_box_dispose (GObject *object)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))))
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (nsc_reflow_box_parent_class)->dispose (object);
}

static void
nsc_reflow_box_class_init (NscReflowBoxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nsc_reflow_box_dispose;
  object_class->get_property = nsc_reflow_box_get_property;
  object_class->set_property = nsc_reflow_box_set_property;
  widget_class->get_request_mode = nsc_reflow_box_get_request_mode;
  widget_class->measure = nsc_reflow_box_measure;
  widget_class->size_allocate = nsc_reflow_box_size_allocate;

  properties[PROP_SPACING] =
    g_param_spec_int ("spacing", NULL, NULL, 0, G_MAXINT, 0,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WIDE_WIDTH] =
    g_param_spec_int ("wide-width", NULL, NULL, 0, G_MAXINT, 400,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_css_name (widget_class, "nscreflowbox");
}

static void
nsc_reflow_box_init (NscReflowBox *self)
{
  self->wide_width = 400;
}

GtkWidget *
nsc_reflow_box_new (void)
{
  return g_object_new (NSC_TYPE_REFLOW_BOX, NULL);
}

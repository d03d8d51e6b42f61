/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "nsc-chart-view.h"

/* A chart of the shared cairo renderer as a widget: the live chart of the running
 * step, or any chart of a saved result. Dark when libadwaita's style is dark,
 * high-contrast when it is; text in the widget's font (desktop text scaling). */

struct _NscChartView
{
  GtkWidget      parent_instance;

  NscChart      *chart;
  NscUnits       units;
  gulong         dark_handler;
  gulong         contrast_handler;
  guint          a11y_samples;    /* samples when the description was last set */
};

G_DEFINE_FINAL_TYPE (NscChartView, nsc_chart_view, GTK_TYPE_WIDGET)

gboolean
nsc_chart_view_get_dark (NscChartView *self)
{
  g_return_val_if_fail (NSC_IS_CHART_VIEW (self), FALSE);
  return adw_style_manager_get_dark (adw_style_manager_get_default ());
}

static void
update_accessible (NscChartView *self)
{
  const char *title = self->chart ? nsc_chart_get_title (self->chart) : NULL;
  const char *caption = self->chart ? nsc_chart_get_caption (self->chart) : NULL;
  g_autofree char *description = NULL;

  if (self->chart == NULL)
    description = g_strdup (_("No chart yet"));
  else if (caption != NULL)
    description = g_strdup_printf (_("Chart of %s"), caption);
  else
    description = g_strdup (_("Live chart of the running test"));

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  title ? title : _("Chart"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description,
                                  -1);
}

static void
nsc_chart_view_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  NscChartView *self = NSC_CHART_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  NscChartStyle style;
  cairo_t *cr;

  if (self->chart == NULL || width <= 0 || height <= 0)
    return;

  nsc_chart_style_init (&style, nsc_chart_view_get_dark (self));
  if (adw_style_manager_get_high_contrast (adw_style_manager_get_default ()))
    style.theme = style.theme == NSC_CHART_THEME_DARK ? NSC_CHART_THEME_HIGH_CONTRAST_DARK
                                                      : NSC_CHART_THEME_HIGH_CONTRAST;
  style.units = self->units;
  nsc_chart_style_set_pango_context (&style, gtk_widget_get_pango_context (widget));
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  nsc_chart_draw (self->chart, cr, width, height, &style);
  cairo_destroy (cr);
}

void
nsc_chart_view_set_chart (NscChartView *self,
                          NscChart     *chart)
{
  g_return_if_fail (NSC_IS_CHART_VIEW (self));

  if (self->chart == chart)
    return;
  g_clear_pointer (&self->chart, nsc_chart_free);
  self->chart = chart;
  self->a11y_samples = 0;
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

NscChart *
nsc_chart_view_get_chart (NscChartView *self)
{
  g_return_val_if_fail (NSC_IS_CHART_VIEW (self), NULL);
  return self->chart;
}

void
nsc_chart_view_append (NscChartView    *self,
                       const NscSample *sample)
{
  g_return_if_fail (NSC_IS_CHART_VIEW (self));
  g_return_if_fail (sample != NULL);

  if (self->chart == NULL)
    return;
  nsc_chart_live_append (self->chart, sample);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
nsc_chart_view_set_units (NscChartView  *self,
                          NscUnits       units)
{
  g_return_if_fail (NSC_IS_CHART_VIEW (self));

  if (self->units == units)
    return;
  self->units = units;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

NscUnits
nsc_chart_view_get_units (NscChartView *self)
{
  g_return_val_if_fail (NSC_IS_CHART_VIEW (self), NSC_UNITS_MIB);
  return self->units;
}

static void
nsc_chart_view_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  /* Small enough for a narrow window, big enough to read the axes. */
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 280 : 220;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 560 : 340;
}

static void
nsc_chart_view_dispose (GObject *object)
{
  NscChartView *self = NSC_CHART_VIEW (object);

  g_clear_signal_handler (&self->dark_handler, adw_style_manager_get_default ());
  g_clear_signal_handler (&self->contrast_handler, adw_style_manager_get_default ());
  g_clear_pointer (&self->chart, nsc_chart_free);

  G_OBJECT_CLASS (nsc_chart_view_parent_class)->dispose (object);
}

static void
nsc_chart_view_class_init (NscChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nsc_chart_view_dispose;
  widget_class->snapshot = nsc_chart_view_snapshot;
  widget_class->measure = nsc_chart_view_measure;

  gtk_widget_class_set_css_name (widget_class, "nscchartview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
nsc_chart_view_init (NscChartView *self)
{
  self->dark_handler = g_signal_connect_swapped (adw_style_manager_get_default (), "notify::dark",
                                                 G_CALLBACK (gtk_widget_queue_draw), self);
  self->contrast_handler = g_signal_connect_swapped (adw_style_manager_get_default (), "notify::high-contrast",
                                                     G_CALLBACK (gtk_widget_queue_draw), self);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  update_accessible (self);
}

GtkWidget *
nsc_chart_view_new (void)
{
  return g_object_new (NSC_TYPE_CHART_VIEW, NULL);
}

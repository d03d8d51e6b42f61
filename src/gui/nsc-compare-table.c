/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "nsc-compare-table.h"
#include "nsc-words.h"

static double
value_of (const NscResultRow *row,
          guint               d,
          NscUnits            units)
{
  switch (units)
    {
    case NSC_UNITS_IOPS:
      return row->iops[d];
    case NSC_UNITS_US:
      return row->lat_mean_ns[d];
    case NSC_UNITS_MB:
    case NSC_UNITS_MIB:
    default:
      return row->bw_bps[d];
    }
}

static const NscResultRow *
find_row (GPtrArray  *rows,
          const char *label)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const NscResultRow *row = g_ptr_array_index (rows, i);
      if (g_str_equal (row->label, label))
        return row;
    }
  return NULL;
}

static GtkWidget *
cell (const char *text,
      const char *css_class,
      float       xalign)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  if (css_class)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

GtkWidget *
nsc_compare_table_new (GPtrArray *results,
                       GPtrArray *legends,
                       NscUnits   units)
{
  GtkWidget *grid = gtk_grid_new ();
  g_autoptr(GPtrArray) all_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  static const char *dir_names[] = { N_("read"), N_("write") };
  int y = 1;

  g_return_val_if_fail (results != NULL && results->len > 0, grid);

  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_widget_add_css_class (grid, "compare-table");

  /* The tests in the order the first result has them, then any the others add. */
  for (guint r = 0; r < results->len; r++)
    {
      GPtrArray *rows = nsc_result_info_rows (g_ptr_array_index (results, r));

      g_ptr_array_add (all_rows, rows);
      for (guint i = 0; i < rows->len; i++)
        {
          const NscResultRow *row = g_ptr_array_index (rows, i);
          gboolean seen = FALSE;

          for (guint j = 0; j < labels->len && !seen; j++)
            seen = g_str_equal (g_ptr_array_index (labels, j), row->label);
          if (!seen)
            g_ptr_array_add (labels, row->label);
        }
    }

  gtk_grid_attach (GTK_GRID (grid), cell (nsc_units_label (units), "dim-label", 0), 0, 0, 1, 1);
  for (guint r = 0; r < results->len; r++)
    {
      g_autofree char *marks = nsc_result_info_marks (g_ptr_array_index (results, r));
      const char *legend = legends && r < legends->len ? g_ptr_array_index (legends, r) : "";
      /* The legend names the marks already: "Drive vda · 2026-11-30 20:12 (cancelled)". */
      GtkWidget *head = cell (legend, "heading", 1);

      gtk_label_set_justify (GTK_LABEL (head), GTK_JUSTIFY_RIGHT);
      gtk_label_set_wrap (GTK_LABEL (head), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (head), 18);
      if (marks)
        gtk_widget_add_css_class (head, "marked-result");
      gtk_grid_attach (GTK_GRID (grid), head, 1 + r, 0, 1, 1);
    }

  for (guint i = 0; i < labels->len; i++)
    for (guint d = 0; d < 2; d++)
      {
        const char *label = g_ptr_array_index (labels, i);
        const NscResultRow *first = find_row (g_ptr_array_index (all_rows, 0), label);
        double base = first && first->has[d] ? value_of (first, d, units) : 0;
        gboolean any = FALSE;
        g_autofree char *name = NULL;

        for (guint r = 0; r < results->len && !any; r++)
          {
            const NscResultRow *row = find_row (g_ptr_array_index (all_rows, r), label);
            any = row != NULL && row->has[d];
          }
        if (!any)
          continue;

        /* TRANSLATORS: "SEQ1M Q8T1 read" in the comparison table */
        name = g_strdup_printf (_("%s %s"), nsc_words_test_label (label), _(dir_names[d]));
        gtk_grid_attach (GTK_GRID (grid), cell (name, "test-name", 0), 0, y, 1, 1);
        for (guint r = 0; r < results->len; r++)
          {
            const NscResultRow *row = find_row (g_ptr_array_index (all_rows, r), label);
            g_autofree char *text = NULL;
            double v;

            if (row == NULL || !row->has[d] || (v = value_of (row, d, units)) <= 0)
              text = g_strdup ("–");
            else
              {
                g_autofree char *number = nsc_units_format (units, row->bw_bps[d], row->iops[d],
                                                            row->lat_mean_ns[d]);
                if (r == 0 || base <= 0)
                  text = g_steal_pointer (&number);
                else
                  {
                    double pct = 100.0 * (v - base) / base;
                    /* TRANSLATORS: a value and its difference from the first result:
                     * "1843 (+12 %)"; the minus sign is U+2212 */
                    text = g_strdup_printf (_("%s (%s%.0f %%)"), number,
                                            pct >= 0 ? "+" : "−", fabs (pct));
                  }
              }
            gtk_grid_attach (GTK_GRID (grid), cell (text, "tnum", 1), 1 + r, y, 1, 1);
          }
        y++;
      }
  return grid;
}

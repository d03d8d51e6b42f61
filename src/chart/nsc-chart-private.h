/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-chart.h"

G_BEGIN_DECLS

/* One line of a chart: points in the JSON's units (x per kind, y in bytes/s, ns
 * for latency, °C for temperature). */
typedef struct
{
  char     *name;         /* "Read", "Write", "Sequential 128K", "Temperature" */
  GArray   *x;            /* double */
  GArray   *y;            /* double */
  gboolean  markers;      /* a point at each value (sweeps) */
  gboolean  scatter;      /* dots per sample and a moving average (time) */
  gboolean  secondary;    /* on the right-hand axis (temperature, °C) */
  gboolean  dashed;       /* write lines in comparisons */
} NscChartLine;

typedef struct
{
  double start, end, bps;
} NscChartPhase;

/* The data one result (or the live feed) gives a chart. */
typedef struct
{
  char      *legend;
  GPtrArray *lines;       /* NscChartLine */
  /* write-fill: analysis.slc, when it is about this step */
  gboolean   have_slc;
  gboolean   has_cache;
  double     cache_bytes;
  double     in_cache_bps;   /* NAN when unknown */
  double     post_cache_bps;
  double     average_bps;
  GArray    *phases;         /* NscChartPhase */
  char      *summary;
} NscChartDataset;

typedef struct
{
  int    scale;            /* an NscAxisScale */
  double min, max;         /* in the axis's transformed space (log2 of x…) */
  double unit;             /* data units per display unit (1048576 for MiB/s) */
} NscAxis;

struct _NscChart
{
  NscChartKind  kind;
  guint         step;          /* the step of the first result */
  guint         step_requested;
  gboolean      live;
  GPtrArray    *datasets;      /* NscChartDataset */
  char         *title;
  char         *caption;

  /* the last draw, for hit-testing and tests */
  gboolean           have_layout;
  cairo_rectangle_t  plot;
  NscAxis            ax, ay, ay2;
  guint              path_ops;     /* path elements of data drawn: the decimation's bound */
};

NscChartDataset *_nsc_chart_dataset_new  (const char *legend);
void             _nsc_chart_dataset_free (gpointer    data);
NscChartLine    *_nsc_chart_line_new     (NscChartDataset *ds,
                                          const char      *name);
void             _nsc_chart_line_add     (NscChartLine    *line,
                                          double           x,
                                          double           y);

/* Path elements the data of the last draw took (tests of the decimation). */
guint            _nsc_chart_get_path_ops (NscChart        *chart);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-chart.h"

G_BEGIN_DECLS

/* What a line shows: its colour and its legend (from a translated table) follow
 * from the role, never from words. */
typedef enum
{
  NSC_CHART_LINE_READ,
  NSC_CHART_LINE_WRITE,
  NSC_CHART_LINE_SPEED,         /* reads and writes together (live charts) */
  NSC_CHART_LINE_MIXED,         /* a mixed load: total speed by read share */
  NSC_CHART_LINE_TEMPERATURE,
  NSC_CHART_LINE_KEPT,          /* map: places that kept their data (y = 1) */
  NSC_CHART_LINE_LOST,          /* map: places that lost it (y = 0) */
  NSC_CHART_N_LINE_ROLES
} NscChartLineRole;

/* The access pattern a line is about, when the chart has several. */
typedef enum
{
  NSC_CHART_PATTERN_NONE,       /* one pattern on the chart: not named */
  NSC_CHART_PATTERN_RANDOM,
  NSC_CHART_PATTERN_SEQUENTIAL,
  NSC_CHART_PATTERN_OTHER,      /* named by the line's detail, as the result spells it */
} NscChartPattern;

/* One line of a chart: points in the JSON's units (x per kind, y in bytes/s, ns
 * for latency, °C for temperature). */
typedef struct
{
  NscChartLineRole role;
  NscChartPattern  pattern;
  char            *detail;      /* MIXED: the block size ("128K"); OTHER: the pattern */
  GArray   *x;            /* double */
  GArray   *y;            /* double */
  gboolean  markers;      /* a point at each value (sweeps) */
  gboolean  scatter;      /* dots per sample and a moving average (time) */
  gboolean  secondary;    /* on the right-hand axis (temperature, °C) */
  gboolean  dashed;       /* write lines in comparisons */
  gboolean  dots_only;    /* a point at each value and no line between (map) */
} NscChartLine;

typedef struct
{
  double start, end, bps;
} NscChartPhase;

/* A cache-recovery point (analysis.cache_recovery.points[]). */
typedef struct
{
  double   idle_s;
  double   fast_bytes;
  gboolean not_verified;     /* the speed fell and came back */
  gboolean via_memory;       /* not verified: memory in front of the drive may have taken it */
} NscChartRecovery;

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
  char      *verdict;        /* analysis.slc's: "cache", "not-verified", … */
  /* cache recovery: the fill's every point, a recovery step its own */
  GArray    *recovery;       /* NscChartRecovery */
  /* position: the lowest and highest speed across the drive (average_bps is the
   * average), and where the region ends (NAN: at the last point) */
  double     min_bps;
  double     max_bps;
  double     x_end;
  /* map: the size the drive stores as the probe found it (NAN: all it reports) */
  double     usable;
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
  GPtrArray         *texts;        /* every string the last draw laid out, in order */
  GArray            *text_boxes;   /* their ink extents in device space (NscChartTextBox) */
  gboolean           compact_legend; /* comparisons: the lines' dashes once, no drives */
  char              *description;  /* its axis titles and legend, one a line (SVG <desc>) */
};

NscChartDataset *_nsc_chart_dataset_new  (const char *legend);
void             _nsc_chart_dataset_free (gpointer    data);
NscChartLine    *_nsc_chart_line_new     (NscChartDataset *ds,
                                          NscChartLineRole role);
void             _nsc_chart_line_add     (NscChartLine    *line,
                                          double           x,
                                          double           y);

/* Path elements the data of the last draw took (tests of the decimation). */
guint            _nsc_chart_get_path_ops (NscChart        *chart);
/* The line's legend text, translated. */
char            *_nsc_chart_line_label   (const NscChartLine *line);
/* Every string the last draw showed (tests of the translation). */
GPtrArray       *_nsc_chart_get_texts    (NscChart        *chart);

/* Where a string of the last draw landed: its Pango ink extents, in the device
 * space of the surface drawn on (so a sheet's texts and its charts' compare). */
typedef struct
{
  double x, y, width, height;
} NscChartTextBox;

/* The boxes of _nsc_chart_get_texts (), in the same order. */
GArray          *_nsc_chart_get_text_boxes (NscChart      *chart);
/* In a comparison, a legend of the lines' dashes only (one entry per line of the
 * first result, in a neutral colour): for pages that name the drives themselves. */
void             _nsc_chart_set_compact_legend (NscChart  *chart,
                                          gboolean         compact);
/* Text as charts and sheets set it: @font at an absolute @size, in user units (the
 * same on screen, PNG, SVG and PDF), normal or bold, on @layout. */
void             _nsc_chart_text_font    (PangoLayout          *layout,
                                          PangoFontDescription *font,
                                          double                size,
                                          gboolean              bold);
/* The width of @text on one line, unwrapped and whole, in @layout's font. */
double           _nsc_chart_text_width   (PangoLayout          *layout,
                                          const char           *text);
/* The ink extents of @layout drawn at @cr's current point, in device space. */
void             _nsc_chart_layout_device_box (cairo_t     *cr,
                                          PangoLayout     *layout,
                                          NscChartTextBox *box);

/* The first step of @result from step @from on, tagged @tag ("degradation"),
 * that a chart of @kind can draw, or NSC_CHART_STEP_AUTO when none. */
guint            _nsc_chart_find_step    (JsonNode        *result,
                                          NscChartKind     kind,
                                          const char      *tag,
                                          guint            from);

typedef enum
{
  NSC_CHART_COLOR_BG,
  NSC_CHART_COLOR_TEXT,
  NSC_CHART_COLOR_MUTED,
  NSC_CHART_COLOR_GRID,
  NSC_CHART_COLOR_SERIES,     /* @index: a dataset's colour in comparisons */
} NscChartColor;

/* A colour of @theme's palette, as the charts draw it. */
void             _nsc_chart_theme_color  (NscChartTheme    theme,
                                          NscChartColor    which,
                                          guint            index,
                                          double           rgb[3]);

G_END_DECLS

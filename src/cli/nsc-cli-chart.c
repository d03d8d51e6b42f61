/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nandscope-cli chart: the GUI's charts, headless, for reviews and scripts. */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsc-chart.h"
#include "nsc-cli-args.h"
#include "nsc-cli-chart.h"
#include "nsc-result-file.h"
#include "nsc-result-info.h"

enum { EXIT_FAILED = 1, EXIT_USAGE = 2 };

/* The options of chart that take no value. */
static const char *const chart_flags[] = { "--dark", "--no-caption", NULL };

static void
usage (FILE *out)
{
  fputs (_("Usage: nandscope-cli chart RESULT.json --out FILE.png|FILE.svg [options]\n"
           "\n"
           "Draws a chart of a saved result, as the desktop app shows it.\n"
           "\n"
           "  --out FILE           where to write: .png or .svg (required)\n"
           "  --kind KIND          write-fill, position, qd, bs, time, mixed, latency or map\n"
           "                       (default: the first the result has data for)\n"
           "  --step N             the step for time, latency, write-fill and position\n"
           "                       charts\n"
           "  --width W            pixels (default 1200)\n"
           "  --height H           pixels (default 700)\n"
           "  --dark               dark palette\n"
           "  --theme THEME        light, dark, high-contrast or high-contrast-dark\n"
           "  --units mib|mb       MiB/s (default, binary) or MB/s (decimal)\n"
           "  --compare FILE       another result on the same chart (repeatable)\n"
           "  --legend TEXT        legend of RESULT.json when comparing\n"
           "  --no-caption         leave out the drive and date line\n"), out);
}

static gboolean
parse_pixels (const char *opt,
              const char *text,
              int        *out)
{
  char *end = NULL;
  long v;
  errno = 0;
  v = text ? strtol (text, &end, 10) : 0;
  if (text == NULL || *text == '\0' || *end != '\0' || errno != 0 || v < 100 || v > 16384)
    {
      nsc_cli_fail (_("%s “%s” is not a size in pixels from 100 to 16384"), opt, text ? text : "");
      return FALSE;
    }
  *out = (int) v;
  return TRUE;
}

static JsonNode *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node;
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      nsc_cli_fail (_("%s does not exist"), path);
      return NULL;
    }
  node = nsc_result_file_load (path, &error);
  if (node == NULL)
    nsc_cli_fail ("%s", error->message);
  return node;
}

int
nsc_cli_chart (int    argc,
               char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) compare = g_ptr_array_new ();
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(NscChart) chart = NULL;
  const char *input = NULL, *out = NULL, *kind_name = NULL, *legend = NULL;
  NscChartStyle style;
  NscChartKind kind = NSC_CHART_N_KINDS;
  guint step = NSC_CHART_STEP_AUTO;
  int width = 1200, height = 700, status = 0;

  nsc_chart_style_init (&style, FALSE);
  style.caption = TRUE;

  for (int i = 0; i < argc; i++)
    {
      const char *arg = argv[i];
      g_autofree char *name = NULL;
      const char *value = NULL;

      if (g_str_equal (arg, "--help") || g_str_equal (arg, "-h"))
        {
          usage (stdout);
          return 0;
        }
      if (!g_str_has_prefix (arg, "--"))
        {
          if (input != NULL)
            {
              nsc_cli_fail (_("chart takes one result file (“%s” and “%s”); add others with --compare"),
                         input, arg);
              return EXIT_USAGE;
            }
          input = arg;
          continue;
        }
      if (!nsc_cli_option_split (argc, argv, &i, chart_flags, &name, &value))
        return EXIT_USAGE;

      if (g_str_equal (name, "--out") || g_str_equal (name, "-o"))
        out = value;
      else if (g_str_equal (name, "--kind"))
        kind_name = value;
      else if (g_str_equal (name, "--step"))
        {
          char *end = NULL;
          guint64 v = g_ascii_strtoull (value, &end, 10);
          if (*value == '\0' || *end != '\0' || v > 100000)
            {
              nsc_cli_fail (_("--step “%s” is not a step number (0, 1, 2…)"), value);
              return EXIT_USAGE;
            }
          step = (guint) v;
        }
      else if (g_str_equal (name, "--width"))
        {
          if (!parse_pixels ("--width", value, &width))
            return EXIT_USAGE;
        }
      else if (g_str_equal (name, "--height"))
        {
          if (!parse_pixels ("--height", value, &height))
            return EXIT_USAGE;
        }
      else if (g_str_equal (name, "--no-caption"))
        style.caption = FALSE;
      else if (nsc_cli_chart_style_option (name, value, &style, &status))
        {
          if (status != 0)
            return status;
        }
      else if (g_str_equal (name, "--compare"))
        g_ptr_array_add (compare, (gpointer) value);
      else if (g_str_equal (name, "--legend"))
        legend = value;
      else
        {
          nsc_cli_fail (_("Unknown option %s for chart (see chart --help)"), name);
          return EXIT_USAGE;
        }
    }

  if (input == NULL)
    {
      nsc_cli_fail (_("chart needs a result file: nandscope-cli chart RESULT.json --out FILE.png"));
      return EXIT_USAGE;
    }
  if (out == NULL)
    {
      nsc_cli_fail (_("chart needs --out FILE.png or --out FILE.svg"));
      return EXIT_USAGE;
    }
  if (!g_str_has_suffix (out, ".png") && !g_str_has_suffix (out, ".svg")
      && !g_str_has_suffix (out, ".PNG") && !g_str_has_suffix (out, ".SVG"))
    {
      nsc_cli_fail (_("--out %s: the file name must end in .png or .svg"), out);
      return EXIT_USAGE;
    }
  if (kind_name && !nsc_chart_kind_from_string (kind_name, &kind))
    {
      nsc_cli_fail (_("--kind “%s” is not a chart; the kinds are write-fill, position, qd, bs, time, mixed, latency and map"),
                 kind_name);
      return EXIT_USAGE;
    }

  result = load (input);
  if (result == NULL)
    return EXIT_FAILED;

  if (kind == NSC_CHART_N_KINDS)
    {
      guint n = 0;
      g_autofree NscChartKind *kinds = nsc_chart_kinds_for_result (result, &n);
      if (n == 0)
        {
          nsc_cli_fail (_("%s has no data to chart (no finished test with samples or results)"), input);
          return EXIT_FAILED;
        }
      kind = kinds[0];
    }

  chart = nsc_chart_new_for_result (result, kind, step, &error);
  if (chart == NULL)
    {
      nsc_cli_fail ("%s: %s", input, error->message);
      return EXIT_FAILED;
    }
  {
    /* The caption the app gives the same result's export. */
    g_autofree char *caption = nsc_result_info_caption (result);
    nsc_chart_set_caption (chart, caption);
  }
  if (legend)
    nsc_chart_set_legend (chart, 0, legend);
  for (guint i = 0; i < compare->len; i++)
    {
      const char *path = g_ptr_array_index (compare, i);
      g_autoptr(JsonNode) other = load (path);
      if (other == NULL)
        return EXIT_FAILED;
      if (!nsc_chart_add_result (chart, other, NULL, &error))
        {
          nsc_cli_fail ("%s: %s", path, error->message);
          return EXIT_FAILED;
        }
    }

  if (!nsc_chart_export_with_style (chart, out, width, height, &style, &error))
    {
      nsc_cli_fail ("%s", error->message);
      return EXIT_FAILED;
    }
  return 0;
}

gboolean
nsc_cli_chart_style_option (const char    *name,
                            const char    *value,
                            NscChartStyle *style,
                            int           *status)
{
  *status = 0;
  if (g_str_equal (name, "--dark"))
    style->theme = NSC_CHART_THEME_DARK;
  else if (g_str_equal (name, "--theme"))
    {
      if (!nsc_chart_theme_from_string (value, &style->theme))
        {
          nsc_cli_fail (_("--theme “%s”: say light, dark, high-contrast or high-contrast-dark"), value);
          *status = EXIT_USAGE;
        }
    }
  else if (g_str_equal (name, "--units"))
    {
      if (g_ascii_strcasecmp (value, "mib") == 0 || g_ascii_strcasecmp (value, "mib/s") == 0)
        style->units = NSC_UNITS_MIB;
      else if (g_ascii_strcasecmp (value, "mb") == 0 || g_ascii_strcasecmp (value, "mb/s") == 0)
        style->units = NSC_UNITS_MB;
      else
        {
          nsc_cli_fail (_("--units “%s”: say mib (MiB/s, binary) or mb (MB/s, decimal)"), value);
          *status = EXIT_USAGE;
        }
    }
  else
    return FALSE;
  return TRUE;
}

gboolean
nsc_cli_option_split (int                 argc,
                      char              **argv,
                      int                *i,
                      const char *const  *flags,
                      char              **name,
                      const char        **value)
{
  const char *arg = argv[*i];
  const char *eq = strchr (arg, '=');

  *name = eq ? g_strndup (arg, eq - arg) : g_strdup (arg);
  *value = NULL;
  if (g_strv_contains (flags, *name))
    return TRUE;
  if (eq)
    *value = eq + 1;
  else if (*i + 1 < argc)
    *value = argv[++*i];
  else
    {
      nsc_cli_fail (_("%s needs a value"), *name);
      return FALSE;
    }
  return TRUE;
}

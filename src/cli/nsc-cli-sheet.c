/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nandscope-cli sheet: a whole run (or several of one preset) on one page. */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <stdio.h>
#include <string.h>

#include "nsc-cli-args.h"
#include "nsc-cli-chart.h"
#include "nsc-cli-sheet.h"
#include "nsc-result-file.h"
#include "nsc-sheet.h"

enum { EXIT_FAILED = 1, EXIT_USAGE = 2 };

/* The options of sheet that take no value. */
static const char *const sheet_flags[] = { "--dark", NULL };

static void
usage (FILE *out)
{
  fputs (_("Usage: nandscope-cli sheet RESULT.json [MORE.json …] --out FILE.pdf|FILE.svg|FILE.png [options]\n"
           "\n"
           "Puts a whole run on one page for a review: the drive, the headline numbers, every\n"
           "chart the run has data for, the warnings, the test bench and the conditions.\n"
           "Several results of one preset make one sheet with a line per drive.\n"
           "\n"
           "  --out FILE           where to write: .pdf, .svg or .png (required)\n"
           "  --layout a4|16:9     an A4 page (default) or a 16:9 slide\n"
           "  --theme THEME        light (default), dark, high-contrast or high-contrast-dark\n"
           "  --dark               the same as --theme dark\n"
           "  --units mib|mb       MiB/s (default, binary) or MB/s (decimal)\n"
           "  --scale N            PNG pixels per page unit: 1 (A4 at 150 dpi, 16:9 at\n"
           "                       1920 × 1080) or 2 (HiDPI screens, print at 300 dpi)\n"), out);
}

int
nsc_cli_sheet (int    argc,
               char **argv)
{
  g_autoptr(GPtrArray) inputs = g_ptr_array_new ();
  g_autoptr(NscSheet) sheet = NULL;
  g_autoptr(GError) error = NULL;
  const char *out = NULL;
  NscSheetLayout layout = NSC_SHEET_LAYOUT_A4;
  NscChartStyle style;
  int scale = 1, status = 0;

  nsc_chart_style_init (&style, FALSE);

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
      if (!g_str_has_prefix (arg, "--") && !g_str_equal (arg, "-o"))
        {
          g_ptr_array_add (inputs, (gpointer) arg);
          continue;
        }
      if (!nsc_cli_option_split (argc, argv, &i, sheet_flags, &name, &value))
        return EXIT_USAGE;

      if (g_str_equal (name, "--out") || g_str_equal (name, "-o"))
        out = value;
      else if (g_str_equal (name, "--layout"))
        {
          if (!nsc_sheet_layout_from_string (value, &layout))
            {
              nsc_cli_fail (_("--layout “%s”: say a4 (a page) or 16:9 (a slide)"), value);
              return EXIT_USAGE;
            }
        }
      else if (nsc_cli_chart_style_option (name, value, &style, &status))
        {
          if (status != 0)
            return status;
        }
      else if (g_str_equal (name, "--scale"))
        {
          if (g_str_equal (value, "1"))
            scale = 1;
          else if (g_str_equal (value, "2"))
            scale = 2;
          else
            {
              nsc_cli_fail (_("--scale “%s”: say 1 or 2 (twice the pixels, for HiDPI screens and print)"), value);
              return EXIT_USAGE;
            }
        }
      else
        {
          nsc_cli_fail (_("Unknown option %s for sheet (see sheet --help)"), name);
          return EXIT_USAGE;
        }
    }

  if (inputs->len == 0)
    {
      nsc_cli_fail (_("sheet needs a result file: nandscope-cli sheet RESULT.json --out FILE.pdf"));
      return EXIT_USAGE;
    }
  if (out == NULL)
    {
      nsc_cli_fail (_("sheet needs --out FILE.pdf, FILE.svg or FILE.png"));
      return EXIT_USAGE;
    }
  if (!nsc_sheet_path_is_supported (out))
    {
      nsc_cli_fail (_("--out %s: the file name must end in .pdf, .svg or .png"), out);
      return EXIT_USAGE;
    }
  if (scale != 1 && !nsc_sheet_path_is_png (out))
    {
      nsc_cli_fail (_("--scale %d: PDF and SVG are drawn in vectors; --scale is for a .png"), scale);
      return EXIT_USAGE;
    }

  for (guint i = 0; i < inputs->len; i++)
    {
      const char *path = g_ptr_array_index (inputs, i);
      g_autoptr(JsonNode) result = NULL;
      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          nsc_cli_fail (_("%s does not exist"), path);
          return EXIT_FAILED;
        }
      result = nsc_result_file_load (path, &error);
      if (result == NULL)
        {
          nsc_cli_fail ("%s", error->message);
          return EXIT_FAILED;
        }
      if (sheet == NULL)
        sheet = nsc_sheet_new (result, &error);
      else if (!nsc_sheet_add_result (sheet, result, NULL, &error))
        {
          nsc_cli_fail ("%s: %s", path, error->message);
          return EXIT_FAILED;
        }
      if (sheet == NULL)
        {
          nsc_cli_fail ("%s: %s", path, error->message);
          return EXIT_FAILED;
        }
    }

  if (!nsc_sheet_export (sheet, out, layout, &style, scale, &error))
    {
      nsc_cli_fail ("%s", error->message);
      return EXIT_FAILED;
    }
  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "nsc-chart.h"

G_BEGIN_DECLS

/* `nandscope-cli chart RESULT.json --out FILE.png|svg [--kind K] [--step N]
 * [--width W --height H] [--dark] [--units mib|mb] [--compare OTHER.json …]`:
 * @argc/@argv are the words after "chart". Returns the process exit status
 * (0; 1 when a file cannot be read or has no such chart; 2 for usage). */
int nsc_cli_chart (int    argc,
                   char **argv);

/* --dark, --theme and --units, the same for chart and sheet: TRUE when @name is one of
 * them, with *@status 0, or 2 (usage) after saying what is wrong with @value. */
gboolean nsc_cli_chart_style_option (const char    *name,
                                     const char    *value,
                                     NscChartStyle *style,
                                     int           *status);

/* Splits the option argv[*i] ("--name=value", or "--name value" taking argv[*i + 1]
 * and advancing *i) into *@name (to free) and *@value; options in @flags take no
 * value. FALSE, after saying so, when a value is missing. */
gboolean nsc_cli_option_split (int                 argc,
                               char              **argv,
                               int                *i,
                               const char *const  *flags,
                               char              **name,
                               const char        **value);

G_END_DECLS

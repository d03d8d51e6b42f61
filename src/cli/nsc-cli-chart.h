/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* `nandscope-cli chart RESULT.json --out FILE.png|svg [--kind K] [--step N]
 * [--width W --height H] [--dark] [--units mib|mb] [--compare OTHER.json …]`:
 * @argc/@argv are the words after "chart". Returns the process exit status
 * (0; 1 when a file cannot be read or has no such chart; 2 for usage). */
int nsc_cli_chart (int    argc,
                   char **argv);

G_END_DECLS

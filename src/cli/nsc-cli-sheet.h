/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* `nandscope-cli sheet RESULT.json [MORE.json …] --out FILE.pdf|svg|png
 * [--layout a4|16:9] [--theme THEME] [--units mib|mb] [--scale N]`: @argc/@argv
 * are the words after "sheet". Returns the process exit status (0; 1 when a file
 * cannot be read or written; 2 for usage). */
int nsc_cli_sheet (int    argc,
                   char **argv);

G_END_DECLS

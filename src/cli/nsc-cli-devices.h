/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* `nandscope-cli devices [--json]`: @argc/@argv are the words after "devices".
 * Returns the process exit status. */
int nsc_cli_devices (int    argc,
                     char **argv);

G_END_DECLS

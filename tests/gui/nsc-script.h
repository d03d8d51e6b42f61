/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "nsc-window.h"

G_BEGIN_DECLS

/* Runs the commands of @path against @window, one a line, as a person would with the
 * mouse, and prints what the windows show (for the gui suite). Quits the application
 * when done; @out_status gets 1 when a command could not be carried out. */
void nsc_script_run (GApplication *app,
                     GtkWindow    *window,
                     const char   *path,
                     int          *out_status);

G_END_DECLS

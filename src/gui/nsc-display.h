/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "~/Pictures/chart.png": a path as people recognise it (~ for the home folder),
 * in the user's character set. */
char *nsc_display_path        (const char *path);
/* A folder's short name: "Home" for the home folder, else its last component. */
char *nsc_display_folder_name (const char *path);

G_END_DECLS

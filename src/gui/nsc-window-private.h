/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "about 40 seconds", "3 minutes": the window's way of saying an estimate. */
char *_nsc_window_duration_words (gint64 ns);
/* "~/Pictures/chart.png": a path as people recognise it. */
char *_nsc_window_display_path   (const char *path);

G_END_DECLS

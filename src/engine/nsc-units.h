/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sizes: "4k", "4KiB", "1m", "1.5g", "512", "2 GiB". Binary multiples (k = 1024),
 * as the reviews use; "kB"/"MB"/"GB" with an explicit B and no i are decimal. */
gboolean nsc_parse_size     (const char  *text,
                             guint64     *out_bytes,
                             GError     **error);
/* Durations: "5s", "250ms", "2m", "1h30m", "40" (seconds). */
gboolean nsc_parse_duration (const char  *text,
                             gint64      *out_ns,
                             GError     **error);
/* "4 KiB", "1 MiB", "1.50 GiB", "512 B" */
char    *nsc_format_size    (guint64      bytes);
/* Labels in the CrystalDiskMark style: "4K", "1M", "128K", "512" */
char    *nsc_format_size_short (guint64   bytes);
char    *nsc_format_duration (gint64      ns);

G_END_DECLS

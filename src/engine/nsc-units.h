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
/* A number as tables and axes show it: three significant figures at least, no more
 * decimals than that ("3512", "351", "35.1", "3.51", "0"). */
char    *nsc_format_significant (double  v);
/* A number as sentences write it: one decimal below 10, whole numbers from there
 * ("5.2", "470"); the result's English summary writes its speeds so. */
char    *nsc_format_rounded (double  v);

/* Bytes in a MiB, what MiB/s (the engine's English, the default display) divide by. */
#define NSC_BYTES_PER_MIB 1048576.0
/* Bytes in an MB, for MB/s as CrystalDiskMark shows them. */
#define NSC_BYTES_PER_MB  1e6

G_END_DECLS

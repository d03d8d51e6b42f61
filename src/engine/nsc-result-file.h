/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Reading results back (charts, history, comparison): a saved file is checked
 * against schema 1 before anyone looks inside, so that code reading it may trust
 * the members' types, and a damaged or foreign file gets a clear error. */

/* Loads and validates @path: a regular file of at most 256 MiB (checked with fstat
 * before reading; a FIFO or device is refused, never read). Returns the root
 * object's node. */
JsonNode *nsc_result_file_load     (const char  *path,
                                    GError     **error);
/* The same for text already in memory (@length -1: NUL-terminated). Nesting deeper
 * than 64 arrays or objects is refused before json-glib, which recurses, sees it. */
JsonNode *nsc_result_file_parse    (const char  *data,
                                    gssize       length,
                                    GError     **error);
/* Checks a parsed result: schema 1, and every member consumers read has its type;
 * series columns are arrays of numbers of one length. */
gboolean  nsc_result_file_validate (JsonNode    *root,
                                    GError     **error);

/* The drive's history: the SLC cache that the newest write-fill among the results in
 * @dir measured on the drive with @serial, or 0 when none did. @from_path: that file. */
guint64   nsc_result_history_cache_bytes (const char  *dir,
                                          const char  *serial,
                                          char       **from_path);

/* The sequential write speed (bytes/s) the newest result on the same drive measured:
 * its write-fill's average, else its fastest sequential write; 0 when none did. The
 * drive is @serial when it has one, else @devnode. @from_path: that file. */
double    nsc_result_history_write_bps   (const char  *dir,
                                          const char  *serial,
                                          const char  *devnode,
                                          char       **from_path);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "nsc-error.h"

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

/* Reads a file of outside data (a result, fio's output, a log): a regular file (not
 * a FIFO that would block, nor a device that never ends) of at most @most bytes,
 * checked with fstat before anything is read; @not_regular and @too_large are the
 * problems to report when it is not. NUL-terminated, its length in @length. */
char     *nsc_result_file_read     (const char  *path,
                                    gsize        most,
                                    NscProblem   not_regular,
                                    NscProblem   too_large,
                                    gsize       *length,
                                    GError     **error);

/* Where a result, a job file or a chart may go. A new file or a regular one (through
 * a symbolic link: its target) is NSC_OUTPUT_FILE, replaced whole; with @streams, a
 * pipe, a terminal or the null device is NSC_OUTPUT_STREAM, written as it is.
 * Anything else, a block device above all, is refused (NSC_PROBLEM_OUTPUT_NOT_FILE):
 * an output never overwrites a device. @resolved: the path to write (a link's
 * target), or NULL. */
typedef enum {
  NSC_OUTPUT_FILE,
  NSC_OUTPUT_STREAM,
} NscOutputKind;

gboolean  nsc_output_check         (const char     *path,
                                    gboolean        streams,
                                    NscOutputKind  *kind,
                                    char          **resolved,
                                    GError        **error);
/* Writes @length bytes of @data to @path as nsc_output_check () allows (streams
 * too): a file through a temporary one renamed over it, so that a crash never
 * leaves half of one; a stream as it is. @error: the refusal, or the system's
 * message (G_FILE_ERROR). */
gboolean  nsc_output_write         (const char     *path,
                                    const char     *data,
                                    gsize           length,
                                    GError        **error);

/* The deepest nesting of arrays and objects in @data, outside strings, scanning no
 * further than one level past @limit: outside JSON deeper than NSC_JSON_MAX_DEPTH is
 * refused before it is parsed (the parser recurses). */
#define NSC_JSON_MAX_DEPTH 64
guint     nsc_json_nesting_depth   (const char  *data,
                                    gsize        length,
                                    guint        limit);

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

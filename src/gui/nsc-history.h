/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* One saved result file, read and validated (or not). */
typedef struct
{
  char      *path;
  JsonNode  *result;     /* NULL when the file is damaged */
  char      *error;      /* why it could not be read, or NULL */
  GDateTime *started;    /* local; for damaged files the file's time */
  char      *drive;
} NscHistoryEntry;

void       nsc_history_entry_free (NscHistoryEntry *entry);
/* Every *.json under @dir, newest first. */
GPtrArray *nsc_history_scan       (const char      *dir);
/* $XDG_DATA_HOME/nandscope/results */
char      *nsc_history_dir        (void);

#define NSC_TYPE_HISTORY_WINDOW (nsc_history_window_get_type ())
G_DECLARE_FINAL_TYPE (NscHistoryWindow, nsc_history_window, NSC, HISTORY_WINDOW, AdwWindow)

/* Lists the results by drive and date. ::open-result (const char *path) when one
 * is chosen; Compare opens the chosen results overlaid on one chart. */
NscHistoryWindow *nsc_history_window_new    (GtkWindow        *parent);
void              nsc_history_window_reload (NscHistoryWindow *self);
/* NscUnits of the headline numbers. */
void              nsc_history_window_set_units (NscHistoryWindow *self,
                                                int               units);
/* Ticks the results at @paths for comparison and opens the comparison. */
GtkWindow        *nsc_history_window_compare (NscHistoryWindow *self,
                                              const char * const *paths);

/* A window with @results (JsonNode) overlaid on one chart, with a legend. */
GtkWindow        *nsc_compare_window_new    (GtkWindow        *parent,
                                             GPtrArray        *results,
                                             GPtrArray        *paths,
                                             int               units,
                                             GError          **error);

G_END_DECLS

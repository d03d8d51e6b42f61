/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "nsc-words.h"

G_BEGIN_DECLS

/* What the app shows of a saved result (schema 1, validated by
 * nsc_result_file_load): names, dates, headline numbers, the text block. */

/* The results to show from @path (JsonNode, at least one): a saved result
 * (nsc_result_file_load), or fio's JSON output imported (nsc_fio_import, its bandwidth
 * logs read from the folder beside it): one per host of a --client run, in fio's
 * order. */
GPtrArray   *nsc_result_info_open           (const char  *path,
                                             GError     **error);

/* The number as the grid shows it (NscUnits: nsc-words.h): three significant figures
 * at least. */
char        *nsc_units_format               (NscUnits    units,
                                             double      bw_bps,
                                             double      iops,
                                             double      lat_mean_ns);

typedef struct
{
  char     *label;        /* "SEQ1M Q8T1" */
  char     *description;  /* "Sequential, 1 MiB blocks, queue depth 8, 1 thread" */
  gboolean  has[2];       /* NSC_DIR_READ, NSC_DIR_WRITE */
  double    bw_bps[2];
  double    iops[2];
  double    lat_mean_ns[2];
  gboolean  completed;
} NscResultRow;

/* One row per test label, in order, read and write of the same label merged. */
GPtrArray   *nsc_result_info_rows           (JsonNode   *result);
void         nsc_result_row_free            (NscResultRow *row);

/* "Samsung 980 PRO", else the device name (vda), else the target. */
char        *nsc_result_info_drive          (JsonNode   *result);
/* "Samsung 980 PRO · 1.00 TB · FW 5B2QGXA7 · NVMe PCIe 4.0 x4" */
char        *nsc_result_info_drive_facts    (JsonNode   *result);
/* The same without the name: "1.00 TB · FW 5B2QGXA7 · NVMe PCIe 4.0 x4" (or ""). */
char        *nsc_result_info_drive_details  (JsonNode   *result);
const char  *nsc_result_info_preset_title   (JsonNode   *result);
/* Local time of the start; NULL when missing. */
GDateTime   *nsc_result_info_started        (JsonNode   *result);
/* "SEQ1M Q8T1 3512 / 2987 MiB/s", a capacity check's verdict, or NULL. */
char        *nsc_result_info_headline       (JsonNode   *result,
                                             NscUnits    units);
/* The caption of an exported chart, the same from the command line and the app:
 * drive, capacity, firmware, interface and link, the filesystem of a test file, a USB
 * drive's transport, kernel, date, app and version, preset:
 * "Samsung 980 PRO · 1.00 TB (931 GiB) · FW 5B2QGXA7 · NVMe PCIe 4.0 x4 · test file
 *  on ext4 · Linux 6.1.0-13-amd64 · 2026-11-30 · Nandscope 0.1.0 · preset: Quick". */
char        *nsc_result_info_caption        (JsonNode   *result);
/* The CrystalDiskMark-style text block: tests, read and write, drive, date, app. */
char        *nsc_result_info_to_text        (JsonNode   *result,
                                             NscUnits    units);

/* Whether the run was cancelled; whether it ran under strict conditions. */
gboolean     nsc_result_info_cancelled      (JsonNode   *result);
gboolean     nsc_result_info_strict         (JsonNode   *result);
/* The date as the history and the result's page show it: "30 Nov 2026, 20:03". */
char        *nsc_result_info_format_date    (GDateTime  *started);
/* What the results page says above a result, the same just run or reopened: its
 * preset, drive and date; how it ended and after how long, its conditions; the
 * test file and the I/O backends its tests ran on. Lines separated by "\n". */
char        *nsc_result_info_header         (JsonNode   *result);
/* The capacity check's verdict, and what the bad blocks held, as sentences; NULL for a
 * result without one. */
char        *nsc_result_info_capacity       (JsonNode   *result);
/* "Complete", "Cancelled", "Stopped by an error". */
const char  *nsc_result_info_status         (JsonNode   *result);
/* "strict conditions · 3 runs per test, the median shown · drive erased first" */
char        *nsc_result_info_conditions     (JsonNode   *result);
/* What sets a result apart, for lists and comparisons: "cancelled, strict", or NULL. */
char        *nsc_result_info_marks          (JsonNode   *result);

G_END_DECLS

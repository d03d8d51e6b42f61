/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "nsc-analysis.h"
#include "nsc-io.h"
#include "nsc-preset.h"
#include "nsc-status.h"
#include "nsc-warning.h"
#include "nsc-words-budget.h"

G_BEGIN_DECLS

/* Where the libraries' codes and numbers become words, in the user's language and
 * units: the command line and the app call these, so that both say the same. */

/* Binds the program's text domain (to the installed catalogues, or to those in the
 * build folder when the program runs from there) and gives the engine its words for
 * its problems (nsc_words_problem_install). Call after setlocale (), before threads. */
void  nsc_bind_text_domain     (void);

/* The units a speed is shown in: the one type for the preferences, --units, tables,
 * charts, sheets and sentences. The results grid also shows IOPS or latency. */
typedef enum
{
  NSC_UNITS_MIB,   /* MiB/s: 1,048,576 bytes a second (default) */
  NSC_UNITS_MB,    /* MB/s: 1,000,000, as CrystalDiskMark */
  NSC_UNITS_IOPS,
  NSC_UNITS_US,    /* mean latency, µs */
} NscUnits;

/* "mib", "mb", "iops", "us" (the settings key, --units); anything else is MiB/s. */
NscUnits    nsc_units_from_string  (const char        *name);
const char *nsc_units_to_string    (NscUnits           units);
/* "MiB/s", "MB/s", "IOPS", "µs", in the user's language */
const char *nsc_units_label        (NscUnits           units);
/* What a speed in bytes/s is divided by: 1,000,000 for MB/s, else 1,048,576 (MiB/s,
 * also for IOPS and µs, whose speeds are shown in MiB/s). */
double      nsc_units_divisor      (NscUnits           units);
/* A speed's number as tables and axes show it, in MB/s or MiB/s: three significant
 * figures at least ("3512", "35.1", "3.51"). */
char       *nsc_format_speed       (double             bps,
                                    NscUnits           units);
/* @number with the unit of @units, in the user's language: "3512 MiB/s" */
char       *nsc_words_speed_label  (const char        *number,
                                    NscUnits           units);
/* A speed in a sentence: "1234 MiB/s", "5.2 MB/s" (whole numbers from 10 up, as the
 * result's English summary writes them). */
char       *nsc_words_speed        (double             bps,
                                    NscUnits           units);
/* "1.50 GiB", "512 B" */
char *nsc_words_size           (guint64            bytes);
/* A drive's capacity as drives are sold, in decimal units: "500.1 GB", "1.00 TB",
 * "268.4 MB"; with @binary also in binary units after it: "1.00 TB (931.5 GiB)". The
 * one formatter of a drive's size for the app, the reports, captions and sheets. */
/* Where a result's figures came from when another tool measured them (its "source",
 * an import of fio's output): "run by fio-3.33 on host1, imported", or NULL for a
 * run of Nandscope's own. */
char *nsc_words_result_source  (JsonObject         *root);
char *nsc_words_drive_size     (guint64            bytes,
                                gboolean           binary);
/* "200 ms", "40 seconds", "3 minutes", "2 hours" */
char *nsc_words_duration       (double             seconds);
/* When a result was taken, in local time: "2 Dec 2026, 20:03" (with @seconds
 * "2 Dec 2026, 20:03:41"). From an ISO 8601 "started": NULL when it cannot be read. */
char *nsc_words_date           (GDateTime         *when,
                                gboolean           seconds);
char *nsc_words_date_iso       (const char        *iso8601,
                                gboolean           seconds);
/* To the second, as a clock would: "2 min 05 s", "4.5 s", "1 h 05 min" */
char *nsc_words_clock          (gint64             ns);
/* "about 3 minutes", or "About 3 minutes" to start a line (the whole phrase, so that
 * each language can decline it) */
char *nsc_words_about          (double             seconds,
                                gboolean           capital);

/* What stood between the test and the drive, in the user's language: "loop0, a loop
 * device over /var/tmp/disk.img without direct I/O". */
char *nsc_words_system_cache_phrase (const NscSystemCacheInfo *info);

/* The write-fill analysis (a result's analysis.slc, slc_second_pass or copy) in a
 * sentence: the cache, its speed and what follows; NULL when it has no phases. */
char *nsc_words_slc_summary    (JsonObject        *slc,
                                NscUnits           units);

/* A cache-recovery point (one of a result's analysis.cache_recovery.points) in a line:
 * how much was fast again after its idle; for a point not verified, the speed's fall
 * and comeback. NULL when the step had no speeds to judge. (A chart's box says the
 * same in its own units: the chart's draw code.) */
char *nsc_words_recovery_point (JsonObject        *point);

/* The warning as one plain sentence; @details (may be NULL) gets its numbers and the
 * explanation; @settle (may be NULL) the name of the preset whose test settles the
 * question, or NULL. */
char *nsc_warning_describe     (const NscWarning  *warning,
                                NscUnits           units,
                                char             **details,
                                const char       **settle);
/* @warnings (NscWarning) as the user reads them: those that say the same of different
 * tests (same code, position and subject, the same details) in one group, in the
 * order they came. An array of arrays of the same warnings (not owned). */
GPtrArray *nsc_warnings_group    (GPtrArray         *warnings,
                                  NscUnits           units);
/* Under a group's first warning: "The same goes for 2 more tests: SEQ1M Q1T1,
 * RND4K Q32T1."; NULL for a group of one. */
char     *nsc_warnings_group_also (GPtrArray        *group);

/* A test's label in the user's language: "SEQ1M Q8T1 settled", "After TRIM"; the
 * codes in it (SEQ1M Q8T1) stay. Labels are keys in results: translate only to show. */
/* The capacity and integrity check's verdict (a result's analysis.capacity) in one
 * plain sentence; @details (may be NULL) gets what the bad blocks held, or NULL. */
char *nsc_words_capacity         (JsonObject        *capacity,
                                  char             **details);

/* A preset's title and description in the user's language (po/preset-strings.c
 * carries them to the translators), and any English title or description a saved
 * result has (unchanged when it has no translation). */
const char *nsc_words_preset_title       (const NscPreset   *preset);
const char *nsc_words_preset_description (const NscPreset   *preset);
const char *nsc_words_preset_text        (const char        *text);
const char *nsc_words_test_label (const char        *label);

/* Why @result ran on its backend, in a sentence ("queue depth 1: a pread/pwrite loop
 * per worker…"), or NULL when the backend was asked for by name. */
char *nsc_words_backend_note   (const NscJobResult *result);

/* The runner's status line. */
char *nsc_status_describe      (const NscStatus   *status);
/* The phase in a few words, for a chart's title: "Writing past the drive's cache". */
char *nsc_status_title         (const NscStatus   *status);
/* "3.1 GiB of 9.0 GiB" for a phase written at the drive's pace; NULL for others and
 * before it wrote anything. */
char *nsc_status_describe_bytes (const NscStatus  *status);

G_END_DECLS

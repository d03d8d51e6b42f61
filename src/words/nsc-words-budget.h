/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "nsc-write-budget.h"

G_BEGIN_DECLS

/* The write budget (nsc-write-budget.h) and the drive's SMART counts in words. */

/* One line for people: "Writes at most 6.0 GiB (2 steps stop once their speed
 * drop has held)", with a timed part when there is one. */
char    *nsc_write_budget_describe (const NscPreset       *preset,
                                    const NscBudgetTarget *target);

/* "That is 0.4 % of the 1.5 TB this drive has written so far; it reports 3 % of its
 * endurance used." @drive_written: the SMART total in bytes. */
char    *nsc_write_budget_describe_wear (guint64 budget,
                                         guint64 drive_written,
                                         int     percentage_used);

/* After a run: "The drive counted 3.1 GiB written (SMART), the run wrote 3.0 GiB".
 * @out_amplified (optional) gets a second line when the drive's count is far above
 * the run's (more than twice and over 1 GiB more): write amplification, or other
 * writes during the run; NULL otherwise. */
char    *nsc_wear_describe (guint64   run_bytes,
                            guint64   smart_before_bytes,
                            guint64   smart_after_bytes,
                            char    **out_amplified);

/* The same from a result's JSON (smart_before, smart_after, bytes_written); NULL
 * when it has no SMART counts. */
char    *nsc_wear_describe_result (JsonObject *result,
                                   char      **out_amplified);

G_END_DECLS

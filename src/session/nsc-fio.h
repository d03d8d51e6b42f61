/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-plan.h"

G_BEGIN_DECLS

/* A run as a fio job file: each step of @plan's preset, as its plan resolves it on
 * @target (its regions, lengths, runs, the idles between), one job after the other
 * (stonewall), named by the step and run ("s03-r1-SEQ1M-Q8T1"), with a comment naming
 * the step. Where fio has no equivalent (the SLC stop rule, the settled-read design,
 * the capacity check's data, an erase, a copy), the file says so in a comment and
 * does the closest honest thing. Each job logs its bandwidth and IOPS
 * (write_bw_log, log_avg_msec) for the series the analysis reads.
 * @target: the device, or the folder whose test file fio lays out (its name is
 * @target/nandscope-fio.test). Errors: a step that cannot be placed on the target
 * (NSC_PROBLEM_STEP_PAST_END, NSC_PROBLEM_STEP_TOO_SMALL). */
char *nsc_fio_export (const NscPlan  *plan,
                      const char     *target,
                      GError        **error);

G_END_DECLS

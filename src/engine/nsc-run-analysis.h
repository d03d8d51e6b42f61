/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-result.h"

G_BEGIN_DECLS

/* Fills @result's "analysis" (SLC cache from a write-fill, cache recovery, fresh
 * against settled reads, mixed-load means, TRIM stalls, steady state, throttling)
 * and adds the warnings that follow from it. Call once, when the run has ended. */
void nsc_run_result_analyze (NscRunResult *result);

G_END_DECLS

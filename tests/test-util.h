/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-engine.h"

G_BEGIN_DECLS

/* What the C tests share. */

/* Runs @runner to its end on a main loop of its own, as the front ends do, asserts
 * that it succeeded and returns its result (owned by @runner). */
NscRunResult *nsc_test_run_to_end (NscRunner *runner);

G_END_DECLS

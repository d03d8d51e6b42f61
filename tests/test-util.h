/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-engine.h"

G_BEGIN_DECLS

/* What the C tests share. */

/* Runs @runner to its end on a main loop of its own, as the front ends do, asserts
 * that it succeeded and returns its result (owned by @runner). */
NscRunResult *nsc_test_run_to_end (NscRunner *runner);

/* Runs @job on @t with @backend, asserts that it succeeded and returns its result
 * (free with nsc_job_result_free ()). */
NscJobResult *nsc_test_run_job      (NscTarget    *t,
                                     const NscJob *job,
                                     NscBackend    backend);

/* Switches gettext to @language ("ru"; NULL: the default) through LANGUAGE under
 * C.UTF-8, which needs no generated locale. */
void          nsc_test_use_language (const char *language);

/* The <desc> of an exported SVG: the words a chart or sheet drew. */
char         *nsc_test_svg_desc     (const char *path);

/* Removes @path and everything under it (symbolic links themselves, never what
 * they point to); asserts that nothing is left. */
void          nsc_test_rm_rf        (const char *path);

G_END_DECLS

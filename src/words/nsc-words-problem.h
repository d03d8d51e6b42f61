/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "nsc-error.h"

G_BEGIN_DECLS

/* The engine's problems in the user's language: one sentence per #NscProblem with
 * its fields; an errno, where the error has one, follows it as the system words it. */
char *nsc_words_problem         (NscProblem            problem,
                                 const NscErrorFields *fields);

/* Installs nsc_words_problem as the engine's words (nsc_error_set_words). */
void  nsc_words_problem_install (void);

G_END_DECLS

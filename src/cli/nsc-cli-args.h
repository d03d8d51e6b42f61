/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-engine.h"

G_BEGIN_DECLS

/* The options of `nandscope-cli run`, parsed; a file of its own so that tests and
 * the fuzzer reach the parser the command line uses. */
typedef struct
{
  char     *target;
  char     *preset;
  char     *json;
  char     *destroy_data;
  char     *units;
  char     *erase;
  char     *state;
  guint     runs;
  gint64    time_ns;
  guint64   size;
  guint64   span;
  gint64    idle_ns;
  gint64    max_idle_ns;
  double    time_scale;
  NscBackend backend;
  gboolean  quiet;
  gboolean  dry_run;   /* print what the run would write, and do nothing */
  gboolean  no_tmpfile;
  gboolean  strict;
  gboolean  cdm;
  gboolean  verify;    /* read back and check what whole-drive writes wrote */
  gboolean  have_job;
  gboolean  bs_set;
  NscJob    job;
} RunArgs;

void     nsc_cli_run_args_clear (RunArgs  *args);
/* @argv: the words after "run". Fills @args (zeroed by the caller) or says why not. */
gboolean nsc_cli_parse_run_args (int       argc,
                                 char    **argv,
                                 RunArgs  *args,
                                 GError  **error);

/* What the user asked for, as run options for nsc_session_options () (the run and
 * --dry-run read them the same way); strings point into @args. */
void     nsc_cli_run_args_to_options (const RunArgs *args,
                                      NscRunOptions *user);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RunArgs, nsc_cli_run_args_clear)

/* One line on stderr, "nandscope-cli: " and the reason: every command's errors. */
void nsc_cli_fail (const char *format,
                   ...) G_GNUC_PRINTF (1, 2);

G_END_DECLS

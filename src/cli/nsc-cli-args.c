/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nsc-cli-args.h"

void
nsc_cli_run_args_clear (RunArgs *a)
{
  g_free (a->target);
  g_free (a->preset);
  g_free (a->json);
  g_free (a->destroy_data);
  g_free (a->units);
  g_free (a->erase);
  g_free (a->state);
}

static gboolean
parse_uint (const char  *name,
            const char  *value,
            guint        min,
            guint        max,
            guint       *out,
            GError     **error)
{
  guint64 v;

  if (!g_ascii_string_to_unsigned (value, 10, min, max, &v, NULL))
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   _("%s takes a whole number from %u to %u, not “%s”"), name, min, max, value);
      return FALSE;
    }
  *out = (guint) v;
  return TRUE;
}

/* What a parser of one group of options made of an option. */
typedef enum
{
  OPTION_NOT_MINE,
  OPTION_TAKEN,
  OPTION_REFUSED,
} OptionOutcome;

#define IS(n) g_str_equal (name, n)
#define TAKEN_IF(ok) ((ok) ? OPTION_TAKEN : OPTION_REFUSED)

static void
replace_string (char       **field,
                const char  *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

/* Flags take no value. */
static gboolean
parse_flag (RunArgs    *a,
            const char *name)
{
  if (IS ("--quiet"))
    a->quiet = TRUE;
  else if (IS ("--dry-run"))
    a->dry_run = TRUE;
  else if (IS ("--no-tmpfile"))
    a->no_tmpfile = TRUE;
  else if (IS ("--strict"))
    a->strict = TRUE;
  else if (IS ("--cdm"))
    a->cdm = TRUE;
  else if (IS ("--verify"))
    a->verify = TRUE;
  else if (IS ("--shared"))
    a->job.shared_region = a->have_job = TRUE;
  else if (IS ("--once"))
    a->job.once = a->have_job = TRUE;
  else
    return FALSE;
  return TRUE;
}

/* Options whose value is a name, a path or a word from a list. */
static OptionOutcome
parse_word_option (RunArgs     *a,
                   const char  *name,
                   const char  *value,
                   GError     **error)
{
  if (IS ("--target"))
    replace_string (&a->target, value);
  else if (IS ("--preset"))
    replace_string (&a->preset, value);
  else if (IS ("--json"))
    replace_string (&a->json, value);
  else if (IS ("--destroy-data"))
    replace_string (&a->destroy_data, value);
  else if (IS ("--state"))
    replace_string (&a->state, value);
  else if (IS ("--units"))
    {
      if (!g_str_equal (value, "mib") && !g_str_equal (value, "mb"))
        {
          g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                       _("--units takes mib or mb, not “%s”"), value);
          return OPTION_REFUSED;
        }
      replace_string (&a->units, value);
    }
  else if (IS ("--erase"))
    {
      if (!g_str_equal (value, "trim") && !g_str_equal (value, "format")
          && !g_str_equal (value, "sanitize"))
        {
          g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                       _("--erase takes trim, format or sanitize, not “%s”"), value);
          return OPTION_REFUSED;
        }
      replace_string (&a->erase, value);
    }
  else if (IS ("--backend"))
    return TAKEN_IF (nsc_backend_from_string (value, &a->backend, error));
  else
    return OPTION_NOT_MINE;
  return OPTION_TAKEN;
}

/* A duration (or size) that must be above zero, and says so with @message. */
static gboolean
refuse_zero (gboolean     is_zero,
             const char  *message,
             GError     **error)
{
  if (is_zero)
    g_set_error_literal (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT, message);
  return !is_zero;
}

/* Options of the run as a whole whose value is a number, a size or a duration. */
static OptionOutcome
parse_amount_option (RunArgs     *a,
                     const char  *name,
                     const char  *value,
                     GError     **error)
{
  if (IS ("--runs"))
    return TAKEN_IF (parse_uint (name, value, 1, 1000, &a->runs, error));
  if (IS ("--time"))
    {
      if (!nsc_parse_duration (value, &a->time_ns, error)
          || !refuse_zero (a->time_ns <= 0, _("--time must be longer than zero"), error))
        return OPTION_REFUSED;
      a->job.time_ns = a->time_ns;
      return OPTION_TAKEN;
    }
  if (IS ("--size"))
    return TAKEN_IF (nsc_parse_size (value, &a->size, error)
                     && refuse_zero (a->size == 0,
                                     _("--size must be larger than zero; leave it out for the "
                                       "preset's size"), error));
  if (IS ("--span"))
    return TAKEN_IF (nsc_parse_size (value, &a->span, error)
                     && refuse_zero (a->span == 0, _("--span must be larger than zero"), error));
  if (IS ("--idle"))
    return TAKEN_IF (nsc_parse_duration (value, &a->idle_ns, error));
  if (IS ("--time-scale"))
    {
      char *end = NULL;

      a->time_scale = g_ascii_strtod (value, &end);
      if (end == value || *end != '\0' || !(a->time_scale > 0 && a->time_scale <= 1))
        {
          g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                       _("--time-scale takes a factor above 0 and at most 1, not “%s”"), value);
          return OPTION_REFUSED;
        }
      return OPTION_TAKEN;
    }
  if (IS ("--max-idle"))
    {
      if (!nsc_parse_duration (value, &a->max_idle_ns, error))
        return OPTION_REFUSED;
      if (a->max_idle_ns <= 0)
        a->max_idle_ns = 1;
      return OPTION_TAKEN;
    }
  return OPTION_NOT_MINE;
}

/* The options of an ad hoc job, with fio's names; any of them makes the run one. */
static OptionOutcome
parse_job_option (RunArgs     *a,
                  const char  *name,
                  const char  *value,
                  GError     **error)
{
  NscJob *job = &a->job;
  gboolean ok;
  guint pct;

  if (IS ("--rw"))
    ok = nsc_job_set_rw (job, value, error);
  else if (IS ("--bs"))
    {
      ok = nsc_parse_size (value, &job->block_size, error);
      a->bs_set = a->bs_set || ok;
    }
  else if (IS ("--qd") || IS ("--iodepth"))
    ok = parse_uint (name, value, 1, NSC_JOB_MAX_QUEUE_DEPTH, &job->queue_depth, error);
  else if (IS ("--threads") || IS ("--numjobs"))
    ok = parse_uint (name, value, 1, NSC_JOB_MAX_WORKERS, &job->workers, error);
  else if (IS ("--mix"))
    {
      ok = parse_uint (name, value, 0, 100, &pct, error);
      if (ok)
        job->read_percent = pct;
    }
  else if (IS ("--offset"))
    ok = nsc_parse_size (value, &job->region_offset, error);
  else if (IS ("--bytes"))
    ok = nsc_parse_size (value, &job->bytes, error);
  else if (IS ("--ramp"))
    ok = nsc_parse_duration (value, &job->ramp_ns, error);
  else if (IS ("--interval"))
    ok = nsc_parse_duration (value, &job->sample_interval_ns, error);
  else if (IS ("--data"))
    ok = nsc_data_pattern_from_string (value, &job->data, error);
  else
    return OPTION_NOT_MINE;
  if (!ok)
    return OPTION_REFUSED;
  a->have_job = TRUE;
  return OPTION_TAKEN;
}

#undef TAKEN_IF
#undef IS

/* After the last option: a target, a preset or a job but not both, and the job
 * complete with its defaults and valid. */
static gboolean
check_run_args (RunArgs  *a,
                GError  **error)
{
  if (a->target == NULL)
    {
      g_set_error_literal (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                           _("No target; add --target with a folder, a new file or a block device"));
      return FALSE;
    }
  if (a->have_job && a->preset)
    {
      g_set_error_literal (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                           _("Give either --preset or an ad hoc job (--rw, --bs, …), not both"));
      return FALSE;
    }
  if (a->have_job)
    {
      a->job.region_length = a->span;
      if (!a->bs_set)
        a->job.block_size = a->job.pattern == NSC_PATTERN_RANDOM ? 4096 : 1 << 20;
      if ((a->job.bytes || a->job.once) && a->time_ns == 0)
        a->job.time_ns = 0;
      if (!nsc_job_validate (&a->job, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
nsc_cli_parse_run_args (int       argc,
                char    **argv,
                RunArgs  *a,
                GError  **error)
{
  nsc_job_init (&a->job);
  a->job.block_size = 0;
  a->backend = NSC_BACKEND_AUTO;

  for (int i = 0; i < argc; i++)
    {
      const char *arg = argv[i];
      g_autofree char *name = NULL;
      const char *value = NULL;
      const char *eq;
      OptionOutcome outcome;

      if (!g_str_has_prefix (arg, "--"))
        {
          g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                       _("Unexpected argument “%s”; options start with --"), arg);
          return FALSE;
        }
      eq = strchr (arg, '=');
      name = eq ? g_strndup (arg, eq - arg) : g_strdup (arg);

      /* Flags first; everything else takes a value, after = or as the next word. */
      if (parse_flag (a, name))
        continue;

      if (eq)
        value = eq + 1;
      else if (i + 1 < argc)
        value = argv[++i];
      else
        {
          g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                       _("%s needs a value"), name);
          return FALSE;
        }

      outcome = parse_word_option (a, name, value, error);
      if (outcome == OPTION_NOT_MINE)
        outcome = parse_amount_option (a, name, value, error);
      if (outcome == OPTION_NOT_MINE)
        outcome = parse_job_option (a, name, value, error);
      if (outcome == OPTION_NOT_MINE)
        g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                     _("Unknown option %s; see nandscope-cli --help"), name);
      if (outcome != OPTION_TAKEN)
        return FALSE;
    }

  return check_run_args (a, error);
}


void
nsc_cli_fail (const char *format,
              ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  fprintf (stderr, "nandscope-cli: %s\n", msg);
}

void
nsc_cli_run_args_to_options (const RunArgs *args,
                             NscRunOptions *user)
{
  NscRunOptions o = NSC_RUN_OPTIONS_INIT;

  o.file_size = args->size;
  o.runs = args->runs;
  o.time_ns = args->time_ns;
  o.idle_ns = args->idle_ns;
  o.max_idle_ns = args->max_idle_ns;
  o.time_scale = args->time_scale;
  o.span_cap = args->have_job ? 0 : args->span;
  o.backend = args->backend;
  o.destroy_data = args->destroy_data;
  o.no_tmpfile = args->no_tmpfile;
  o.erase_method = args->erase;
  o.strict = args->strict;
  o.cdm = args->cdm;
  *user = o;
}

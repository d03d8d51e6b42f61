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

      if (!g_str_has_prefix (arg, "--"))
        {
          g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                       _("Unexpected argument “%s”; options start with --"), arg);
          return FALSE;
        }
      eq = strchr (arg, '=');
      name = eq ? g_strndup (arg, eq - arg) : g_strdup (arg);

      /* Flags first; everything else takes a value, after = or as the next word. */
      if (g_str_equal (name, "--quiet"))
        { a->quiet = TRUE; continue; }
      if (g_str_equal (name, "--dry-run"))
        { a->dry_run = TRUE; continue; }
      if (g_str_equal (name, "--no-tmpfile"))
        { a->no_tmpfile = TRUE; continue; }
      if (g_str_equal (name, "--strict"))
        { a->strict = TRUE; continue; }
      if (g_str_equal (name, "--cdm"))
        { a->cdm = TRUE; continue; }
      if (g_str_equal (name, "--shared"))
        { a->job.shared_region = TRUE; a->have_job = TRUE; continue; }
      if (g_str_equal (name, "--once"))
        { a->job.once = TRUE; a->have_job = TRUE; continue; }

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

#define IS(n) g_str_equal (name, n)
      if (IS ("--target"))
        g_free (a->target), a->target = g_strdup (value);
      else if (IS ("--preset"))
        g_free (a->preset), a->preset = g_strdup (value);
      else if (IS ("--json"))
        g_free (a->json), a->json = g_strdup (value);
      else if (IS ("--destroy-data"))
        g_free (a->destroy_data), a->destroy_data = g_strdup (value);
      else if (IS ("--units"))
        {
          if (!g_str_equal (value, "mib") && !g_str_equal (value, "mb"))
            {
              g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                           _("--units takes mib or mb, not “%s”"), value);
              return FALSE;
            }
          g_free (a->units), a->units = g_strdup (value);
        }
      else if (IS ("--runs"))
        {
          if (!parse_uint (name, value, 1, 1000, &a->runs, error))
            return FALSE;
        }
      else if (IS ("--time"))
        {
          if (!nsc_parse_duration (value, &a->time_ns, error))
            return FALSE;
          if (a->time_ns <= 0)
            {
              g_set_error_literal (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                                   _("--time must be longer than zero"));
              return FALSE;
            }
          a->job.time_ns = a->time_ns;
        }
      else if (IS ("--size"))
        {
          if (!nsc_parse_size (value, &a->size, error))
            return FALSE;
          if (a->size == 0)
            {
              g_set_error_literal (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                                   _("--size must be larger than zero; leave it out for the "
                                     "preset's size"));
              return FALSE;
            }
        }
      else if (IS ("--idle"))
        {
          if (!nsc_parse_duration (value, &a->idle_ns, error))
            return FALSE;
        }
      else if (IS ("--backend"))
        {
          if (!nsc_backend_from_string (value, &a->backend, error))
            return FALSE;
        }
      else if (IS ("--rw"))
        {
          if (!nsc_job_set_rw (&a->job, value, error))
            return FALSE;
          a->have_job = TRUE;
        }
      else if (IS ("--bs"))
        {
          if (!nsc_parse_size (value, &a->job.block_size, error))
            return FALSE;
          a->bs_set = a->have_job = TRUE;
        }
      else if (IS ("--qd") || IS ("--iodepth"))
        {
          if (!parse_uint (name, value, 1, NSC_JOB_MAX_QUEUE_DEPTH, &a->job.queue_depth, error))
            return FALSE;
          a->have_job = TRUE;
        }
      else if (IS ("--threads") || IS ("--numjobs"))
        {
          if (!parse_uint (name, value, 1, NSC_JOB_MAX_WORKERS, &a->job.workers, error))
            return FALSE;
          a->have_job = TRUE;
        }
      else if (IS ("--mix"))
        {
          guint pct;
          if (!parse_uint (name, value, 0, 100, &pct, error))
            return FALSE;
          a->job.read_percent = pct;
          a->have_job = TRUE;
        }
      else if (IS ("--offset"))
        {
          if (!nsc_parse_size (value, &a->job.region_offset, error))
            return FALSE;
          a->have_job = TRUE;
        }
      else if (IS ("--span"))
        {
          if (!nsc_parse_size (value, &a->span, error))
            return FALSE;
          if (a->span == 0)
            {
              g_set_error_literal (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                                   _("--span must be larger than zero"));
              return FALSE;
            }
        }
      else if (IS ("--state"))
        g_free (a->state), a->state = g_strdup (value);
      else if (IS ("--erase"))
        {
          if (!g_str_equal (value, "trim") && !g_str_equal (value, "format")
              && !g_str_equal (value, "sanitize"))
            {
              g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                           _("--erase takes trim, format or sanitize, not “%s”"), value);
              return FALSE;
            }
          g_free (a->erase), a->erase = g_strdup (value);
        }
      else if (IS ("--time-scale"))
        {
          char *end = NULL;

          a->time_scale = g_ascii_strtod (value, &end);
          if (end == value || *end != '\0' || !(a->time_scale > 0 && a->time_scale <= 1))
            {
              g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                           _("--time-scale takes a factor above 0 and at most 1, not “%s”"), value);
              return FALSE;
            }
        }
      else if (IS ("--max-idle"))
        {
          if (!nsc_parse_duration (value, &a->max_idle_ns, error))
            return FALSE;
          if (a->max_idle_ns <= 0)
            a->max_idle_ns = 1;
        }
      else if (IS ("--bytes"))
        {
          if (!nsc_parse_size (value, &a->job.bytes, error))
            return FALSE;
          a->have_job = TRUE;
        }
      else if (IS ("--ramp"))
        {
          if (!nsc_parse_duration (value, &a->job.ramp_ns, error))
            return FALSE;
          a->have_job = TRUE;
        }
      else if (IS ("--interval"))
        {
          if (!nsc_parse_duration (value, &a->job.sample_interval_ns, error))
            return FALSE;
          a->have_job = TRUE;
        }
      else if (IS ("--data"))
        {
          if (!nsc_data_pattern_from_string (value, &a->job.data, error))
            return FALSE;
          a->have_job = TRUE;
        }
      else
        {
          g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                       _("Unknown option %s; see nandscope-cli --help"), name);
          return FALSE;
        }
#undef IS
    }

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

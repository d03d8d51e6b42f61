/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsc-cli-args.h"
#include "nsc-cli-budget.h"
#include "nsc-cli-chart.h"
#include "nsc-cli-sheet.h"
#include "nsc-cli-devices.h"
#include "nsc-device-safety.h"
#include "nsc-bench.h"
#include "nsc-device.h"
#include "nsc-engine.h"
#include "nsc-fio.h"
#include "nsc-fio-import.h"
#include "nsc-json.h"
#include "nsc-result-file.h"
#include "nsc-plan.h"
#include "nsc-session.h"
#include "nsc-words.h"

#define EXIT_USAGE 2

typedef struct
{
  GMainLoop    *loop;
  GCancellable *cancellable;
  NscRunner    *runner;
  GError       *error;
  gboolean      is_tty;
  gboolean      quiet;
  gboolean      progress_shown;
  char         *status;
  double        last_bps;
  NscUnits      unit;
} Cli;

static void
print_usage (FILE *out)
{
  fputs (_("Usage:\n"
           "  nandscope-cli run --target DIR|FILE|DEVICE [--preset NAME | JOB OPTIONS] [OPTIONS]\n"
           "  nandscope-cli list-presets\n"
           "  nandscope-cli devices [--json]\n"
           "  nandscope-cli chart RESULT.json --out FILE.png|svg [--kind K] [--step N] [--dark]\n"
           "                [--width W --height H] [--compare OTHER.json]…\n"
           "  nandscope-cli sheet RESULT.json [MORE.json]… --out FILE.pdf|svg|png [--layout a4|16:9]\n"
           "                [--theme light|dark] [--scale 2]\n"
           "  nandscope-cli export-fio --out FILE.fio --target DIR|DEVICE [--preset NAME | JOB\n"
           "                OPTIONS] [OPTIONS]: the run as a fio job file (nothing is run)\n"
           "  nandscope-cli import FIO.json --json OUT.json [--logs DIR]: fio's JSON output as a\n"
           "                result, with its bandwidth logs (write_bw_log) found in DIR (default:\n"
           "                FIO.json's folder); several hosts (fio --client) give OUT-HOST.json\n"
           "  nandscope-cli --version\n"
           "\n"
           "Run options:\n"
           "  --target PATH          a folder (a hidden 1 GiB test file is made there and deleted\n"
           "                         afterwards), a new file name, or a whole block device\n"
           "  --preset NAME          a built-in test set (default: quick); see list-presets\n"
           "  --json FILE            save the full result (schema 1) to FILE; with --dry-run,\n"
           "                         the plan\n"
           "  --destroy-data=DEVICE  agree that a test that writes, trims or erases (--state and\n"
           "                         --erase included) destroys everything on DEVICE; it must\n"
           "                         name the target itself, whole disk or partition\n"
           "  --runs N               runs of every test; the median is reported (preset: 3)\n"
           "  --time DURATION        length of every timed test, e.g. 5s, 500ms, 2m\n"
           "  --size SIZE            test file size, e.g. 1g, 512m (file targets)\n"
           "  --idle DURATION        idle time before every test but the first\n"
           "  --max-idle DURATION    cut the idle steps of a preset to at most this long\n"
           "  --time-scale FACTOR    shorten every timed test by FACTOR (0 to 1), keeping their\n"
           "                         proportions; the result records both lengths\n"
           "  --span SIZE            cover at most this much of the target in every test\n"
           "  --backend NAME         auto (default), io_uring, psync or null\n"
           "  --units mib|mb         MiB/s (binary, default) or MB/s (decimal, as CrystalDiskMark)\n"
           "  --state LIST           drive states to run in, one run each: empty (erased first)\n"
           "                         and free:SIZE (filled, SIZE left free), e.g. empty,free:100g\n"
           "  --erase METHOD         how erase steps erase a device: trim (default), or NVMe\n"
           "                         format (user data erase) or sanitize (block erase)\n"
           "  --strict               the reviews' conditions: precondition the drive, then before\n"
           "                         each preset a TRIM and 15 min idle; 32 GiB span; 40 s for\n"
           "                         tests without a length of their own\n"
           "  --cdm                  CrystalDiskMark's way: 5 runs of 5 s, 5 s apart, the best\n"
           "                         shown, in MB/s, on a 1 GiB region (devices too)\n"
           "  --verify               read back what a write-fill wrote and check every block:\n"
           "                         the capacity check's verdict with the fill's curve (a\n"
           "                         surface scan's places: a sample's verdict)\n"
           "  --quiet                no progress line\n"
           "  --dry-run              print what the run would write (per step, in total, against\n"
           "                         the drive's SMART counts) and stop; nothing is written\n"
           "  --no-tmpfile           create and unlink a named test file instead of O_TMPFILE\n"
           "\n"
           "Job options (one ad hoc test instead of a preset; fio's names in parentheses):\n"
           "  --rw PATTERN           read, write, randread, randwrite, rw, randrw\n"
           "  --bs SIZE              block size, 512 to 64m (default 1m; random: 4k)\n"
           "  --qd N (--iodepth)     queue depth per worker, 1 to 1024 (default 1)\n"
           "  --threads N (--numjobs) workers, 1 to 64, each with its own queue (default 1)\n"
           "  --mix PERCENT          read share of rw/randrw (default 50)\n"
           "  --offset SIZE          start of the region (default 0)\n"
           "  --span SIZE            length of the region (default: the whole target)\n"
           "  --shared               workers share the whole region (default: disjoint slices)\n"
           "  --bytes SIZE           stop after SIZE of I/O\n"
           "  --once                 stop when the region was covered once\n"
           "  --ramp DURATION        run this long before measuring\n"
           "  --interval DURATION    sampling interval (default 1 s, finer for short tests)\n"
           "  --data PATTERN         random (default, incompressible), compressible (50 %) or zeros\n"),
         out);
}

/* ---- output ------------------------------------------------------------------ */

static void
clear_progress (Cli *cli)
{
  if (cli->progress_shown)
    {
      fputs ("\r\033[K", stderr);
      cli->progress_shown = FALSE;
    }
}

static void
on_progress (NscRunner       *runner,
             double           fraction,
             gint64           remaining_ns,
             const NscStatus *status,
             Cli             *cli)
{
  g_autofree char *left = NULL;
  g_autofree char *what = NULL;

  if (cli->quiet || !cli->is_tty)
    return;
  if (status->time_left_open && remaining_ns < G_GINT64_CONSTANT (1000000000))
    /* Translators: the live progress line's time left, before any write's speed is known */
    left = g_strdup (_("time left not known yet"));
  else
    {
      g_autofree char *clock = nsc_words_clock (remaining_ns);

      if (status->time_left_open)
        /* Translators: the live progress line's time left when writes of a speed not
         * known yet follow: "over 1 min 05 s left" */
        left = g_strdup_printf (_("over %s left"), clock);
      else
        /* Translators: the live progress line's time left: "1 min 05 s left" */
        left = g_strdup_printf (_("%s left"), clock);
    }
  what = nsc_status_describe (status);
  fputs ("\r\033[K", stderr);
  if (cli->last_bps > 0)
    {
      g_autofree char *speed = nsc_words_speed (cli->last_bps, cli->unit);
      /* Translators: the live progress line: "42 %  SEQ1M Q8T1  1234 MiB/s  · 1 min 05 s left" */
      fprintf (stderr, _("%3.0f %%  %s  %s  · %s"), fraction * 100, what, speed, left);
    }
  else
    /* Translators: the live progress line: "42 %  Preparing the test file  · 1 min 05 s left" */
    fprintf (stderr, _("%3.0f %%  %s  · %s"), fraction * 100, what, left);
  cli->progress_shown = TRUE;
}

static void
on_sample (NscRunner       *runner,
           guint            step,
           guint            run,
           const NscSample *sample,
           Cli             *cli)
{
  cli->last_bps = nsc_sample_bps (sample);
}

static void
on_step_started (NscRunner *runner,
                 guint      step,
                 Cli       *cli)
{
  cli->last_bps = 0;
}

static void
on_step_finished (NscRunner *runner,
                  guint      step,
                  Cli       *cli)
{
  NscRunResult *r = nsc_runner_get_result (runner);
  NscStepResult *sr = g_ptr_array_index (r->steps, r->steps->len - 1);
  const NscJobResult *head;
  char scratch[64];

  if (cli->quiet || cli->is_tty || sr->step.kind != NSC_STEP_JOB)
    return;
  /* Not a terminal: one line per finished step instead of a live line. */
  head = nsc_step_result_headline (sr);
  if (head)
    {
      g_autofree char *speed = nsc_words_speed (head->dir[0].bw_bps + head->dir[1].bw_bps,
                                                cli->unit);
      const char *label = nsc_words_test_label (nsc_job_get_label (&sr->step.job, scratch,
                                                                   sizeof scratch));

      if (nsc_job_has_reads (&sr->step.job))
        /* Translators: one line per finished test in a log: "SEQ1M Q8T1 read: 1234 MiB/s" */
        fprintf (stderr, _("%s read: %s\n"), label, speed);
      else
        /* Translators: one line per finished test in a log: "SEQ1M Q8T1 write: 1234 MiB/s" */
        fprintf (stderr, _("%s write: %s\n"), label, speed);
    }
}

/* ---- commands ------------------------------------------------------------------ */

/* SIGINT and SIGTERM cancel the whole command: watched from its first line to its
 * last, so a signal that comes while the target is looked at, between two drive
 * states or before the first I/O still ends in an orderly exit 130. */
static gboolean
on_signal (gpointer data)
{
  g_cancellable_cancel (G_CANCELLABLE (data));
  return G_SOURCE_CONTINUE;
}

static void
on_run_done (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  Cli *cli = data;

  nsc_runner_run_finish (NSC_RUNNER (source), result, &cli->error);
  g_main_loop_quit (cli->loop);
}

static gboolean
target_is_block_device (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0 && S_ISBLK (st.st_mode);
}

/* The engine says what is wrong; where the remedy is a flag or a command of ours,
 * it is said here. @target is the path the run opened. */
static void
fail_with_remedy (const GError *error,
                  const char   *target)
{
  if (g_error_matches (error, NSC_ERROR, NSC_ERROR_NOT_AGREED))
    nsc_cli_fail (_("This test writes to %s and destroys everything on it; "
                    "to agree, pass --destroy-data=%s"), target, target);
  else if (g_error_matches (error, NSC_ERROR, NSC_ERROR_NEEDS_ROOT))
    nsc_cli_fail (_("%s (run nandscope-cli with sudo) or choose a test folder"), error->message);
  else
    nsc_cli_fail ("%s", error->message);
}

/* Consent, then the in-use checks, for a run that writes, trims or erases the block
 * device @args->target: exit 2 (usage) without --destroy-data; 1 when it names
 * another device (as the engine has always refused it) or the device is in use; 0
 * to go on. */
static int
check_consent (const RunArgs *args,
               NscSession    *session)
{
  g_autoptr(GError) error = NULL;

  if (nsc_session_check_consent (session, args->destroy_data, &error))
    return 0;
  if (args->destroy_data == NULL)
    {
      nsc_cli_fail (_("This test writes to %s and destroys everything on it; "
                   "to agree, add --destroy-data=%s"), args->target, args->target);
      return EXIT_USAGE;
    }
  if (g_error_matches (error, NSC_ERROR, NSC_ERROR_NEEDS_CONFIRMATION))
    {
      nsc_cli_fail (_("This test writes to %s and destroys everything on it, but --destroy-data=%s "
                   "names another device (a disk and its partitions are different devices); "
                   "to agree, pass --destroy-data=%s"), args->target, args->destroy_data,
                 args->target);
      return 1;
    }
  nsc_cli_fail ("%s", error->message);
  return 1;
}

/* One run of @preset in one drive state; prints its table and saves its result. */
static int
run_one (const RunArgs   *args,
         const NscPreset *preset,
         NscRunOptions    opts,
         NscSession      *session,
         GCancellable    *cancellable,
         const char      *state_label,
         const char      *json_path,
         char           **slc_summary)
{
  g_autoptr(NscRunner) runner = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  NscRunResult *r;
  Cli cli = { 0 };
  int status = 0;

  if (state_label)
    printf (_("State: %s\n"), state_label);
  /* A drive whose identity is suspect is said before anything is written to it. */
  if (session->device && !args->quiet)
    {
      g_autoptr(NscWarning) identity = nsc_device_info_identity_warning (session->device);

      if (identity)
        {
          g_autofree char *details = NULL;
          const char *settle = NULL;
          g_autofree char *title = nsc_warning_describe (identity, NSC_UNITS_MIB, &details, &settle);

          printf (_("Warning (%s): %s.\n  %s\n"), identity->code, title, details ? details : "");
        }
    }
  runner = nsc_runner_new (preset, &opts);
  loop = g_main_loop_new (NULL, FALSE);
  cli.loop = loop;
  cli.cancellable = cancellable;
  cli.runner = runner;
  cli.quiet = args->quiet;
  cli.is_tty = isatty (STDERR_FILENO);
  cli.unit = nsc_units_from_string (args->units ? args->units : args->cdm ? "mb" : NULL);

  g_signal_connect (runner, "progress", G_CALLBACK (on_progress), &cli);
  g_signal_connect (runner, "sample", G_CALLBACK (on_sample), &cli);
  g_signal_connect (runner, "step-started", G_CALLBACK (on_step_started), &cli);
  g_signal_connect (runner, "step-finished", G_CALLBACK (on_step_finished), &cli);
  nsc_session_begin (session);
  nsc_runner_run_async (runner, cancellable, on_run_done, &cli);
  g_main_loop_run (loop);
  clear_progress (&cli);

  r = nsc_runner_get_result (runner);
  /* The drive's facts, the test bench and their warnings. */
  nsc_session_finish (session, r);
  for (guint i = 0; i < r->steps->len; i++)
    if (nsc_step_result_headline (g_ptr_array_index (r->steps, i))
        || ((NscStepResult *) g_ptr_array_index (r->steps, i))->step.kind == NSC_STEP_PROBE)
      {
        g_autofree char *table = nsc_session_table (r, cli.unit);
        fputs (table, stdout);
        break;
      }
  nsc_cli_print_wear (r);

  if (json_path)
    {
      g_autoptr(GError) save_error = NULL;
      g_autofree char *saved = nsc_session_save (r, json_path, &save_error);

      if (saved == NULL)
        {
          nsc_cli_fail ("%s", save_error->message);
          status = 1;
        }
    }

  if (cli.error)
    {
      if (g_error_matches (cli.error, NSC_ERROR, NSC_ERROR_CANCELLED))
        nsc_cli_fail ("%s", json_path && r->steps->len ? _("Cancelled; the partial result was saved")
                                                      : _("Cancelled"));
      else
        fail_with_remedy (cli.error, opts.target);
      status = g_error_matches (cli.error, NSC_ERROR, NSC_ERROR_CANCELLED) ? 130 : 1;
      g_clear_error (&cli.error);
    }

  if (slc_summary && r->analysis && json_object_has_member (json_node_get_object (r->analysis), "slc"))
    {
      JsonObject *slc = json_object_get_object_member (json_node_get_object (r->analysis), "slc");
      *slc_summary = g_strdup (json_object_get_string_member_with_default (slc, "summary", NULL));
    }
  return status;
}

/* The preset a run's arguments ask for: an ad hoc job, or a named preset, with its
 * writes checked under --verify. NULL: said why. */
static NscPreset *
run_preset (const RunArgs *args)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(NscPreset) preset = NULL;
  NscPreset *checked;

  if (args->have_job)
    preset = nsc_preset_new_single (&args->job);
  else if (!(preset = nsc_preset_lookup (args->preset ? args->preset : "quick", &error)))
    {
      nsc_cli_fail ("%s", error->message);
      return NULL;
    }
  /* The probe takes the drive as it comes and measures no speed: the reviews'
   * conditions and drive states do not apply to it. */
  if (nsc_preset_only_probes (preset) && (args->strict || args->cdm || (args->state && *args->state)))
    {
      nsc_cli_fail (_("The quick probe takes the drive as it is and measures no speed: "
                      "--strict, --cdm and --state do not apply to it"));
      return NULL;
    }
  if (!args->verify)
    return g_steal_pointer (&preset);
  checked = nsc_preset_with_verify (preset);
  if (checked == NULL)
    nsc_cli_fail (_("--verify checks what a write-fill wrote over a whole drive or free "
                    "space, or a surface scan at its places, and “%s” has neither; "
                    "--preset verify is the check on its own"), preset->name);
  return checked;
}

static int
run_command (int           argc,
             char        **argv,
             GCancellable *cancellable)
{
  g_auto(RunArgs) args = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(NscPreset) preset = NULL;
  g_autoptr(NscSession) session = NULL;
  NscRunOptions user = NSC_RUN_OPTIONS_INIT;
  int status = 0;

  if (!nsc_cli_parse_run_args (argc, argv, &args, &error))
    {
      nsc_cli_fail ("%s", error->message);
      return EXIT_USAGE;
    }

  if (!(preset = run_preset (&args)))
    return EXIT_USAGE;

  if (args.dry_run)
    return nsc_cli_dry_run (&args, preset);

  if (args.destroy_data && !target_is_block_device (args.target))
    {
      nsc_cli_fail (_("--destroy-data is only for block devices; %s is not one"), args.target);
      return EXIT_USAGE;
    }

  /* Where the result goes, before anything runs: a device is never written over,
   * and a run is not spent on a result that cannot be saved. */
  if (args.json && !nsc_output_check (args.json, TRUE, NULL, NULL, &error))
    {
      nsc_cli_fail ("%s", error->message);
      return EXIT_USAGE;
    }

  nsc_cli_run_args_to_options (&args, &user);
  /* The options with strict's and CrystalDiskMark's defaults, the drive behind the
   * target, its temperature and its cache from saved results: as the app does. */
  session = nsc_session_new (args.target, &user);

  /* Drive states (002: empty, and nearly full): one run each, side by side. Every
   * state is read, and consent and the in-use checks done, before the first run. */
  {
    g_autoptr(GPtrArray) states = nsc_drive_states_parse (args.state, &error);
    g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func (g_free);
    g_autofree NscRunOptions *per_state = NULL;
    gboolean writes = FALSE;
    guint n;

    if (states == NULL)
      {
        nsc_cli_fail ("%s", error->message);
        return EXIT_USAGE;
      }
    n = states->len;
    per_state = g_new0 (NscRunOptions, n);
    for (guint i = 0; i < n; i++)
      {
        per_state[i] = session->options;
        nsc_drive_state_apply (g_ptr_array_index (states, i), &per_state[i]);
        writes = writes || nsc_session_needs_consent (session, preset, &per_state[i]);
      }

    /* The engine's answer, the same the app asks: erase, TRIM, fill, copy and
     * surface steps and the drive states count, not only writing jobs. */
    if (writes && (status = check_consent (&args, session)) != 0)
      return status;

    for (guint i = 0; i < n; i++)
      {
        const NscDriveState *state = g_ptr_array_index (states, i);
        g_autofree char *json = NULL;
        char *summary = NULL;

        if (args.json && n > 1)
          {
            g_autofree char *stem = g_str_has_suffix (args.json, ".json")
                                    ? g_strndup (args.json, strlen (args.json) - 5) : g_strdup (args.json);
            json = g_strdup_printf ("%s-%s.json", stem, state->tag);
          }
        else
          json = g_strdup (args.json);

        status = run_one (&args, preset, per_state[i], session, cancellable, state->label, json,
                          &summary);
        g_ptr_array_add (summaries, summary ? summary : g_strdup ("-"));
        if (status != 0)
          return status;
        if (n > 1 && i + 1 < n)
          printf ("\n");
      }

    if (n > 1)
      {
        printf (_("\nSide by side:\n"));
        for (guint i = 0; i < n; i++)
          printf ("  %-14s %s\n", ((NscDriveState *) g_ptr_array_index (states, i))->name,
                  (char *) g_ptr_array_index (summaries, i));
      }
  }
  return status;
}

static int
cmd_run (int    argc,
         char **argv)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  guint sigint = g_unix_signal_add (SIGINT, on_signal, cancellable);
  guint sigterm = g_unix_signal_add (SIGTERM, on_signal, cancellable);
  int status;

  status = run_command (argc, argv, cancellable);
  g_source_remove (sigint);
  g_source_remove (sigterm);
  return status;
}

/* @text and a space, padded to @width characters (not bytes); at least the space. */
static void
print_padded (const char *text,
              int         width)
{
  printf ("%s%*s ", text, (int) MAX (0, width - (glong) g_utf8_strlen (text, -1)), "");
}

/* Whether @p also takes as long as the drive needs for bytes, on top of what the clock
 * bounds: steps that end with their data (a fill, a TRIM, a copy), or data written
 * before the tests (what reads read, Quick's write past the cache; on a 1 TB drive). */
static gboolean
has_unclocked_steps (const NscTiming *timing,
                     const NscPreset *p)
{
  NscBudgetTarget drive = { .is_device = TRUE, .capacity = G_GUINT64_CONSTANT (1000000000000) };
  g_autoptr(GArray) items = NULL;
  guint64 bytes = 0;

  for (guint i = 0; i < p->steps->len; i++)
    {
      const NscStep *s = &g_array_index (p->steps, NscStep, i);

      if (s->kind != NSC_STEP_IDLE && nsc_timing_step_budget_ns (timing, s) == 0)
        return TRUE;
    }
  items = nsc_write_budget (p, &drive, &bytes, NULL);
  return bytes > 0;
}

static int
cmd_list_presets (void)
{
  gboolean any_unclocked = FALSE;

  g_auto(GStrv) names = nsc_preset_list_names ();

  /* What a preset destroys when its target is a block device; a test file in a
   * folder never touches anything else. */
  /* Translators: the headings of list-presets; each fits its column: Name 17
   * characters, Duration 15, On a device 14 */
  print_padded (C_("presets", "Name"), 17);
  print_padded (C_("presets", "Duration"), 15);
  /* Translators: a heading: what a preset changes when its target is a block device */
  print_padded (C_("presets", "On a device"), 14);
  puts (C_("presets", "Description"));
  for (guint i = 0; names[i]; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(NscPreset) p = nsc_preset_lookup (names[i], &error);
      g_autofree char *dur = NULL;

      if (p == NULL)
        {
          nsc_cli_fail (_("Built-in preset %s is broken: %s"), names[i], error->message);
          return 1;
        }
      {
        /* The clock's part of its plan with no options: tests, pauses, settling. */
        NscRunOptions none = NSC_RUN_OPTIONS_INIT;
        NscTiming timing;

        nsc_timing_init (&timing, p, &none);
        dur = nsc_words_clock (nsc_timing_estimate_ns (&timing, p));
        if (has_unclocked_steps (&timing, p))
          {
            char *more = g_strconcat (dur, " +", NULL);

            g_free (dur);
            dur = more;
            any_unclocked = TRUE;
          }
      }
      /* Padded by characters, not bytes: the words may be Cyrillic. */
      print_padded (p->name, 17);
      print_padded (dur, 15);
      print_padded (p->destructive ? C_("presets", "whole device")
                    : nsc_preset_writes (p) ? C_("presets", "device data")
                    : C_("presets", "nothing"), 14);
      printf ("%s: %s\n", nsc_words_preset_title (p), nsc_words_preset_description (p));
    }
  /* The table alone for scripts; the note where a person reads it. */
  if (any_unclocked && isatty (STDOUT_FILENO))
    /* Translators: under list-presets; "+" follows a duration in its Duration column */
    printf ("\n%s\n", _("+ and the time the drive takes for the data written before or between "
                         "the tests (what reads read, a fill, Quick's write past the cache), or "
                         "erased or copied; nandscope-cli run --dry-run on the target says how "
                         "much that is"));
  return 0;
}

/* export-fio: the plan of a run, as fio would run it; nothing is opened for writing
 * but the file. */
static int
cmd_export_fio (int    argc,
                char **argv)
{
  g_auto(RunArgs) args = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(NscPreset) preset = NULL;
  g_autoptr(NscPlan) plan = NULL;
  g_autoptr(GPtrArray) rest = g_ptr_array_new ();
  g_autofree char *where = NULL;
  g_autofree char *text = NULL;
  const char *out = NULL;
  NscRunOptions user;
  gboolean is_device;
  guint64 capacity;

  for (int i = 0; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--out") && i + 1 < argc)
        out = argv[++i];
      else if (g_str_has_prefix (argv[i], "--out="))
        out = argv[i] + strlen ("--out=");
      else
        g_ptr_array_add (rest, argv[i]);
    }
  if (out == NULL || *out == '\0')
    {
      nsc_cli_fail (_("export-fio needs --out FILE.fio, the job file to write"));
      return EXIT_USAGE;
    }
  if (!nsc_cli_parse_run_args ((int) rest->len, (char **) rest->pdata, &args, &error))
    {
      nsc_cli_fail ("%s", error->message);
      return EXIT_USAGE;
    }
  if (args.state || args.dry_run)
    {
      nsc_cli_fail (_("export-fio writes the plain run of a preset: drive states (--state) and "
                      "--dry-run have no fio job file"));
      return EXIT_USAGE;
    }
  if (!(preset = run_preset (&args)))
    return EXIT_USAGE;
  if (!nsc_cli_plan_target (&args, &is_device, &capacity, &where))
    return 1;
  nsc_cli_run_args_to_options (&args, &user);
  plan = nsc_plan_new (preset, is_device ? args.target : where, is_device, capacity, &user);
  if (!plan->budget_known)
    {
      nsc_cli_fail ("%s", plan->budget_error->message);
      return 1;
    }
  text = nsc_fio_export (plan, is_device ? args.target : where, &error);
  if (text == NULL)
    {
      nsc_cli_fail ("%s", error->message);
      return 1;
    }
  if (!nsc_output_check (out, TRUE, NULL, NULL, &error))
    {
      nsc_cli_fail ("%s", error->message);
      return 1;
    }
  if (!nsc_output_write (out, text, strlen (text), &error))
    {
      nsc_cli_fail (_("Cannot write the job file %s: %s"), out, error->message);
      return 1;
    }
  /* Translators: after export-fio; %s: the file, then the command that runs it */
  printf (_("Wrote %s; run it with: fio --output-format=json --output=RESULT.json %s\n"), out, out);
  return 0;
}

/* OUT.json for one host; OUT-HOST.json for each of several. */
static char *
import_path (const char *out,
             const char *host,
             gboolean    several)
{
  g_autofree char *stem = NULL;
  g_autofree char *safe = NULL;

  if (!several)
    return g_strdup (out);
  stem = g_str_has_suffix (out, ".json") ? g_strndup (out, strlen (out) - 5) : g_strdup (out);
  safe = g_strdup (host ? host : "host");
  for (char *p = safe; *p; p++)
    if (!g_ascii_isalnum (*p) && *p != '.' && *p != '-' && *p != '_')
      *p = '-';
  return g_strdup_printf ("%s-%s.json", stem, safe);
}

/* import: fio's JSON output (and its bandwidth logs) as results of Nandscope's. */
static int
cmd_import (int    argc,
            char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autofree char *text = NULL;
  const char *in = NULL, *out = NULL, *logs = NULL;
  g_autofree char *logs_dir = NULL;
  gsize length = 0;

  for (int i = 0; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--json") && i + 1 < argc)
        out = argv[++i];
      else if (g_str_has_prefix (argv[i], "--json="))
        out = argv[i] + strlen ("--json=");
      else if (g_str_equal (argv[i], "--logs") && i + 1 < argc)
        logs = argv[++i];
      else if (g_str_has_prefix (argv[i], "--logs="))
        logs = argv[i] + strlen ("--logs=");
      else if (argv[i][0] != '-' && in == NULL)
        in = argv[i];
      else
        {
          nsc_cli_fail (_("import: unknown option “%s”; it takes FIO.json, --json OUT.json and "
                          "--logs DIR"), argv[i]);
          return EXIT_USAGE;
        }
    }
  if (in == NULL || out == NULL || *out == '\0')
    {
      nsc_cli_fail (_("import needs fio's JSON output and --json OUT.json, the result to write"));
      return EXIT_USAGE;
    }
  /* The logs fio wrote beside its output, unless told where. */
  if (logs == NULL)
    logs = logs_dir = g_path_get_dirname (in);
  else if (!g_file_test (logs, G_FILE_TEST_IS_DIR))
    {
      nsc_cli_fail (_("import: --logs %s is not a folder; give the folder fio wrote its logs in"), logs);
      return EXIT_USAGE;
    }
  if (!(text = nsc_result_file_read (in, (gsize) 256 << 20, NSC_PROBLEM_FIO_NOT_REGULAR,
                                     NSC_PROBLEM_FIO_TOO_LARGE, &length, &error))
      || !(results = nsc_fio_import (text, (gssize) length, logs, &error)))
    {
      nsc_cli_fail ("%s: %s", in, error->message);
      return 1;
    }
  for (guint i = 0; i < results->len; i++)
    {
      JsonNode *root = g_ptr_array_index (results, i);
      JsonObject *o = json_node_get_object (root);
      JsonObject *source = nsc_json_get_object (o, "source");
      const char *host = nsc_json_get_string (source, "host");
      g_autofree char *path = import_path (out, host, results->len > 1);
      g_autofree char *json = json_to_string (root, TRUE);
      JsonArray *steps = nsc_json_get_array (o, "steps");
      guint n = steps ? json_array_get_length (steps) : 0;

      if (!nsc_result_file_validate (root, &error))
        {
          nsc_cli_fail ("%s: %s", in, error->message);
          return 1;
        }
      if (!nsc_output_check (path, TRUE, NULL, NULL, &error))
        {
          nsc_cli_fail ("%s", error->message);
          return 1;
        }
      if (!nsc_output_write (path, json, strlen (json), &error))
        {
          nsc_cli_fail (_("Cannot save the result to %s: %s"), path, error->message);
          return 1;
        }
      if (host)
        /* Translators: after import: the file written, the tests in it, fio's version
         * ("fio-3.33") and the host it ran on */
        printf (g_dngettext (GETTEXT_PACKAGE, "Wrote %s: %u test run by %s on %s\n",
                             "Wrote %s: %u tests run by %s on %s\n", n),
                path, n, nsc_json_get_string (source, "version"), host);
      else
        /* Translators: after import: the file written, the tests in it, fio's version */
        printf (g_dngettext (GETTEXT_PACKAGE, "Wrote %s: %u test run by %s\n",
                             "Wrote %s: %u tests run by %s\n", n),
                path, n, nsc_json_get_string (source, "version"));
    }
  return 0;
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  nsc_bind_text_domain ();
  textdomain (GETTEXT_PACKAGE);
  g_set_prgname ("nandscope-cli");

  if (argc < 2)
    {
      print_usage (stderr);
      return EXIT_USAGE;
    }
  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "help"))
    {
      print_usage (stdout);
      return 0;
    }
  if (g_str_equal (argv[1], "--version"))
    {
      printf ("nandscope-cli %s\n", PACKAGE_VERSION);
      return 0;
    }
  if (g_str_equal (argv[1], "run"))
    {
      for (int i = 2; i < argc; i++)
        if (g_str_equal (argv[i], "--help") || g_str_equal (argv[i], "-h"))
          {
            print_usage (stdout);
            return 0;
          }
      return cmd_run (argc - 2, argv + 2);
    }
  if (g_str_equal (argv[1], "list-presets"))
    return cmd_list_presets ();
  if (g_str_equal (argv[1], "devices"))
    return nsc_cli_devices (argc - 2, argv + 2);
  if (g_str_equal (argv[1], "chart"))
    return nsc_cli_chart (argc - 2, argv + 2);
  if (g_str_equal (argv[1], "sheet"))
    return nsc_cli_sheet (argc - 2, argv + 2);
  if (g_str_equal (argv[1], "export-fio"))
    return cmd_export_fio (argc - 2, argv + 2);
  if (g_str_equal (argv[1], "import"))
    return cmd_import (argc - 2, argv + 2);

  nsc_cli_fail (_("Unknown command “%s”; the commands are run, list-presets, devices, chart, "
                  "sheet, export-fio and import (see --help)"), argv[1]);
  return EXIT_USAGE;
}

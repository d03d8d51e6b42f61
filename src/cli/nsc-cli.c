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
} Cli;

static void
print_usage (FILE *out)
{
  fputs ("Usage:\n"
         "  nandscope-cli run --target DIR|FILE|DEVICE [--preset NAME | JOB OPTIONS] [OPTIONS]\n"
         "  nandscope-cli list-presets\n"
         "  nandscope-cli devices [--json]\n"
         "  nandscope-cli chart RESULT.json --out FILE.png|svg [--kind K] [--step N] [--dark]\n"
         "                [--width W --height H] [--compare OTHER.json]…\n"
         "  nandscope-cli sheet RESULT.json [MORE.json]… --out FILE.pdf|svg|png [--layout a4|16:9]\n"
         "                [--theme light|dark] [--scale 2]\n"
         "  nandscope-cli --version\n"
         "\n"
         "Run options:\n"
         "  --target PATH          a folder (a hidden 1 GiB test file is made there and deleted\n"
         "                         afterwards), a new file name, or a whole block device\n"
         "  --preset NAME          a built-in test set (default: quick); see list-presets\n"
         "  --json FILE            save the full result (schema 1) to FILE\n"
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
         "  --data PATTERN         random (default, incompressible), compressible (50 %) or zeros\n",
         out);
}

/* ---- output ------------------------------------------------------------------ */

static char *
format_rate (double      bps,
             const char *units)
{
  if (g_strcmp0 (units, "mb") == 0)
    return g_strdup_printf ("%.1f", bps / 1e6);
  return g_strdup_printf ("%.1f", bps / 1048576.0);
}

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
on_progress (NscRunner  *runner,
             double      fraction,
             gint64      remaining_ns,
             const char *status,
             Cli        *cli)
{
  g_autofree char *left = nsc_format_duration (remaining_ns);

  if (cli->quiet || !cli->is_tty)
    return;
  if (cli->last_bps > 0)
    fprintf (stderr, "\r\033[K%3.0f %%  %s  %.1f MiB/s  · %s left", fraction * 100,
             status ? status : "", cli->last_bps / 1048576.0, left);
  else
    fprintf (stderr, "\r\033[K%3.0f %%  %s  · %s left", fraction * 100, status ? status : "", left);
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
    fprintf (stderr, "%s %s: %.1f MiB/s\n",
             nsc_job_get_label (&sr->step.job, scratch, sizeof scratch),
             nsc_job_has_reads (&sr->step.job) ? "read" : "write",
             (head->dir[0].bw_bps + head->dir[1].bw_bps) / 1048576.0);
}

typedef struct
{
  char label[64];
  guint group;                  /* the preset of a suite the row's steps come from */
  const NscJobResult *dir[2];
  gboolean mark[2];             /* a warning concerns this result */
} Row;

/* Warnings that say a result is not what it seems: its cell gets a mark. */
static gboolean
step_is_marked (NscRunResult *r,
                guint         step)
{
  static const char *codes[] = { "fresh-reads", "inside-slc-cache", "read-inflation",
                                 "read-inflation-not-verified", "cache-exhausted-during-test",
                                 "unverified-contents", "strict-skipped", NULL };

  for (guint i = 0; i < r->warnings->len; i++)
    {
      NscWarning *w = g_ptr_array_index (r->warnings, i);

      if (w->step == (int) step && g_strv_contains (codes, w->code)
          && g_strcmp0 (w->position, "after") != 0)
        return TRUE;
    }
  return FALSE;
}

static void
print_surface (const NscStepResult *sr)
{
  double min = G_MAXDOUBLE, max = 0, sum = 0;
  guint n = 0;

  for (guint i = 0; i < sr->runs->len; i++)
    {
      const NscJobResult *j = g_ptr_array_index (sr->runs, i);
      double bw = j->dir[0].bw_bps + j->dir[1].bw_bps;

      min = MIN (min, bw);
      max = MAX (max, bw);
      sum += bw;
      n++;
    }
  if (n)
    printf ("\n%s: %u places, %.1f MiB/s lowest, %.1f average, %.1f highest\n",
            sr->step.job.label, n, min / 1048576.0, sum / n / 1048576.0, max / 1048576.0);
}

/* The sentences of the analysis that stand on their own. */
static void
print_analysis (NscRunResult *r)
{
  JsonObject *a;

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *sr = g_ptr_array_index (r->steps, i);
      if (sr->step.kind == NSC_STEP_SURFACE)
        print_surface (sr);
    }

  if (r->analysis == NULL || !JSON_NODE_HOLDS_OBJECT (r->analysis))
    return;
  a = json_node_get_object (r->analysis);
  if (json_object_has_member (a, "slc"))
    {
      JsonObject *slc = json_object_get_object_member (a, "slc");
      printf ("\nWrite-fill: %s\n", json_object_has_member (slc, "summary")
              ? json_object_get_string_member (slc, "summary")
              : json_object_get_string_member_with_default (slc, "error", "not analysed"));
    }
  if (json_object_has_member (a, "copy"))
    {
      JsonObject *cp = json_object_get_object_member (a, "copy");
      printf ("\nCopy: %s\n", json_object_has_member (cp, "summary")
              ? json_object_get_string_member (cp, "summary")
              : json_object_get_string_member_with_default (cp, "error", "not analysed"));
    }
  if (json_object_has_member (a, "slc_second_pass"))
    {
      JsonObject *slc = json_object_get_object_member (a, "slc_second_pass");
      printf ("Second pass: %s\n", json_object_has_member (slc, "summary")
              ? json_object_get_string_member (slc, "summary")
              : json_object_get_string_member_with_default (slc, "error", "not analysed"));
    }
  if (json_object_has_member (a, "mixed"))
    {
      JsonObject *m = json_object_get_object_member (a, "mixed");
      if (json_object_has_member (m, "sequential"))
        printf ("\nMixed, sequential: mean of the points %.1f MiB/s\n",
                json_object_get_double_member (json_object_get_object_member (m, "sequential"),
                                               "mean_bps") / 1048576.0);
      if (json_object_has_member (m, "random"))
        printf ("Mixed, random: mean of the points %.1f MiB/s\n",
                json_object_get_double_member (json_object_get_object_member (m, "random"),
                                               "mean_bps") / 1048576.0);
    }
  if (json_object_has_member (a, "trim_latency"))
    {
      JsonObject *t = json_object_get_object_member (a, "trim_latency");
      printf ("\nAfter TRIM: worst read latency %.1f ms; reads stalled for %.1f s\n",
              json_object_get_int_member (t, "worst_latency_ns") / 1e6,
              json_object_get_int_member (t, "stall_ns") / 1e9);
    }
  if (json_object_has_member (a, "cache_recovery"))
    {
      JsonArray *pts = json_object_get_array_member (json_object_get_object_member (a, "cache_recovery"), "points");
      for (guint i = 0; i < json_array_get_length (pts); i++)
        {
          JsonObject *p = json_array_get_object_element (pts, i);
          if (json_object_get_null_member (p, "fast_bytes"))
            continue;
          printf ("After %.0f s idle: %.2f GiB fast again\n",
                  json_object_get_int_member (p, "idle_before_ns") / 1e9,
                  json_object_get_int_member (p, "fast_bytes") / 1073741824.0);
        }
    }
}

static void
print_table (NscRunResult *r,
             const char   *units)
{
  JsonObject *dev = r->device && JSON_NODE_HOLDS_OBJECT (r->device)
                  ? json_node_get_object (r->device) : NULL;
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (Row));
  const char *unit = g_strcmp0 (units, "mb") == 0 ? "MB/s" : "MiB/s";
  /* What the test really covered: a write-fill's "all the free space" is a size only
   * once the file is made. */
  g_autofree char *size = r->target_size ? nsc_format_size (r->target_size)
                          : r->file_size == NSC_TARGET_SIZE_FREE ? g_strdup ("free space")
                          : nsc_format_size (r->file_size);
  g_autofree char *dur = nsc_format_duration (r->time_ns);
  g_autofree char *read_head = g_strdup_printf ("Read %s", unit);
  g_autofree char *write_head = g_strdup_printf ("Write %s", unit);
  g_autoptr(GString) backend = g_string_new (NULL);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  gboolean marks = FALSE;
  int width = 16;

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *sr = g_ptr_array_index (r->steps, i);
      const NscJobResult *head = nsc_step_result_headline (sr);
      Row *row = NULL;

      if ((sr->step.kind != NSC_STEP_JOB && sr->step.kind != NSC_STEP_COPY) || sr->skipped
          || head == NULL)
        continue;
      /* auto picks per job: every backend that ran, and why, once each. */
      {
        const char *name = nsc_backend_to_string (head->backend);
        g_autofree char *list = g_strdup_printf (", %s, ", backend->str);
        g_autofree char *needle = g_strdup_printf (", %s, ", name);
        g_autofree char *note = head->backend_note
                              ? g_strdup_printf ("%s: %s", name, head->backend_note) : NULL;

        if (strstr (list, needle) == NULL)
          g_string_append_printf (backend, "%s%s", backend->len ? ", " : "", name);
        if (note && !g_ptr_array_find_with_equal_func (notes, note, g_str_equal, NULL))
          g_ptr_array_add (notes, g_steal_pointer (&note));
      }
      /* A read and a write of the same test in the same preset share a row; the same
       * label in another preset of a suite, or a second result for a cell, gets its own. */
      for (guint j = 0; j < rows->len && row == NULL; j++)
        {
          Row *cand = &g_array_index (rows, Row, j);

          if (g_str_equal (cand->label, sr->step.job.label) && cand->group == sr->step.group
              && (!nsc_job_has_reads (&head->job) || cand->dir[NSC_DIR_READ] == NULL)
              && (!nsc_job_has_writes (&head->job) || cand->dir[NSC_DIR_WRITE] == NULL))
            row = cand;
        }
      if (row == NULL)
        {
          Row fresh = { 0 };
          g_strlcpy (fresh.label, sr->step.job.label, sizeof fresh.label);
          fresh.group = sr->step.group;
          g_array_append_val (rows, fresh);
          row = &g_array_index (rows, Row, rows->len - 1);
        }
      for (guint d = 0; d < 2; d++)
        if (d == NSC_DIR_READ ? nsc_job_has_reads (&head->job) : nsc_job_has_writes (&head->job))
          {
            row->dir[d] = head;
            row->mark[d] = step_is_marked (r, i);
            marks |= row->mark[d];
          }
    }

  printf ("Nandscope %s · %s · %s (%s%s%s) · %s\n", PACKAGE_VERSION,
          r->preset_title ? r->preset_title : "",
          r->target_path ? r->target_path : "",
          r->target_kind ? r->target_kind : "?",
          r->filesystem ? ", " : "", r->filesystem ? r->filesystem : "", size);
  if (dev && json_object_has_member (dev, "name"))
    printf ("Drive %s%s%s\n", json_object_get_string_member (dev, "name"),
            json_object_get_string_member_with_default (dev, "model", NULL) ? " · " : "",
            json_object_get_string_member_with_default (dev, "model", ""));
  printf ("Backend %s · %u run%s of %s per test, the %s shown%s\n\n",
          backend->len ? backend->str : "-", r->runs, r->runs == 1 ? "" : "s", dur,
          r->cdm ? "best" : "median", r->cdm ? " (CrystalDiskMark's way)" : "");
  for (guint j = 0; j < rows->len; j++)
    width = MAX (width, (int) g_utf8_strlen (g_array_index (rows, Row, j).label, -1));
  printf ("%-*s %12s %12s %11s %11s %11s %11s\n", width, "Test", read_head, write_head,
          "Read IOPS", "Write IOPS", "Read µs", "Write µs");

  for (guint j = 0; j < rows->len; j++)
    {
      Row *row = &g_array_index (rows, Row, j);
      char *cells[6] = { 0 };

      for (guint d = 0; d < 2; d++)
        {
          const NscJobResult *res = row->dir[d];
          if (res == NULL)
            {
              cells[d] = g_strdup ("-");
              cells[2 + d] = g_strdup ("-");
              cells[4 + d] = g_strdup ("-");
              continue;
            }
          cells[d] = format_rate (res->dir[d].bw_bps, units);
          if (row->mark[d])
            {
              char *marked = g_strconcat (cells[d], "*", NULL);
              g_free (cells[d]);
              cells[d] = marked;
            }
          cells[2 + d] = g_strdup_printf ("%.0f", res->dir[d].iops);
          cells[4 + d] = res->dir[d].latency->count
                       ? g_strdup_printf ("%.1f", nsc_histogram_mean (res->dir[d].latency) / 1000.0)
                       : g_strdup ("-");
        }
      printf ("%-*s %12s %12s %11s %11s %11s %11s\n", width, row->label,
              cells[0], cells[1], cells[2], cells[3], cells[4], cells[5]);
      for (guint k = 0; k < 6; k++)
        g_free (cells[k]);
    }

  if (marks)
    printf ("* a warning below concerns this result\n");
  for (guint j = 0; j < notes->len; j++)
    printf ("%sBackend %s\n", j == 0 ? "\n" : "", (const char *) g_ptr_array_index (notes, j));

  print_analysis (r);

  for (guint i = 0; i < r->warnings->len; i++)
    {
      NscWarning *w = g_ptr_array_index (r->warnings, i);
      printf ("\nWarning (%s): %s", w->code, w->message);
    }
  if (r->warnings->len)
    printf ("\n");
}

/* ---- commands ------------------------------------------------------------------ */

static gboolean
on_signal (gpointer data)
{
  Cli *cli = data;

  g_cancellable_cancel (cli->cancellable);
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

/* Consent, then the in-use checks, for a run that writes, trims or erases the block
 * device @args->target: exit 2 (usage) without --destroy-data; 1 when it names
 * another device (as the engine has always refused it) or the device is in use; 0
 * to go on. */
static int
check_consent (const RunArgs *args)
{
  g_autoptr(GError) error = NULL;
  struct stat target, named;

  if (args->destroy_data == NULL)
    {
      nsc_cli_fail ("This test writes to %s and destroys everything on it; "
                 "to agree, add --destroy-data=%s", args->target, args->target);
      return EXIT_USAGE;
    }
  if (stat (args->target, &target) != 0 || stat (args->destroy_data, &named) != 0
      || !S_ISBLK (named.st_mode) || named.st_rdev != target.st_rdev)
    {
      nsc_cli_fail ("This test writes to %s and destroys everything on it, but --destroy-data=%s "
                 "names another device (a disk and its partitions are different devices); "
                 "to agree, pass --destroy-data=%s", args->target, args->destroy_data,
                 args->target);
      return 1;
    }
  if (!nsc_device_check_writable (args->target, &error))
    {
      nsc_cli_fail ("%s", error->message);
      return 1;
    }
  return 0;
}

/* One run of @preset in one drive state; prints its table and saves its result. */
static int
run_one (const RunArgs   *args,
         const NscPreset *preset,
         NscRunOptions    opts,
         NscDeviceInfo   *dev,
         const char      *state_label,
         const char      *json_path,
         char           **slc_summary)
{
  g_autoptr(NscRunner) runner = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  NscRunResult *r;
  Cli cli = { 0 };
  JsonNode *smart_before = NULL;
  guint sigint, sigterm;
  int status = 0;

  if (state_label)
    printf ("State: %s\n", state_label);
  runner = nsc_runner_new (preset, &opts);
  loop = g_main_loop_new (NULL, FALSE);
  cancellable = g_cancellable_new ();
  cli.loop = loop;
  cli.cancellable = cancellable;
  cli.runner = runner;
  cli.quiet = args->quiet;
  cli.is_tty = isatty (STDERR_FILENO);

  g_signal_connect (runner, "progress", G_CALLBACK (on_progress), &cli);
  g_signal_connect (runner, "sample", G_CALLBACK (on_sample), &cli);
  g_signal_connect (runner, "step-started", G_CALLBACK (on_step_started), &cli);
  g_signal_connect (runner, "step-finished", G_CALLBACK (on_step_finished), &cli);
  sigint = g_unix_signal_add (SIGINT, on_signal, &cli);
  sigterm = g_unix_signal_add (SIGTERM, on_signal, &cli);

  /* What the drive itself counts as written, before and after (NVMe SMART, root). */
  if (dev && dev->controller)
    smart_before = nsc_device_read_wear (dev, NULL);
  nsc_runner_run_async (runner, cancellable, on_run_done, &cli);
  g_main_loop_run (loop);
  g_source_remove (sigint);
  g_source_remove (sigterm);
  clear_progress (&cli);

  r = nsc_runner_get_result (runner);
  if (smart_before)
    nsc_run_result_set_smart (r, g_steal_pointer (&smart_before), nsc_device_read_wear (dev, NULL));
  if (dev)
    {
      nsc_run_result_set_device (r, nsc_device_info_to_json (dev));
      if (dev->link_warning)
        nsc_run_result_add_warning (r, -1, "pcie-link-below-max", "%s", dev->link_warning);
    }
  {
    g_autofree char *where = g_file_test (args->target, G_FILE_TEST_EXISTS)
                             ? g_strdup (args->target) : g_path_get_dirname (args->target);
    JsonNode *bench = nsc_bench_describe (where, dev);
    g_auto(GStrv) notes = nsc_bench_warnings (bench);

    for (guint i = 0; notes[i] && notes[i + 1]; i += 2)
      nsc_run_result_add_warning (r, -1, notes[i], "%s", notes[i + 1]);
    nsc_run_result_set_bench (r, bench);
  }
  for (guint i = 0; i < r->steps->len; i++)
    if (nsc_step_result_headline (g_ptr_array_index (r->steps, i)))
      {
        print_table (r, args->units ? args->units : args->cdm ? "mb" : NULL);
        break;
      }
  nsc_cli_print_wear (r);

  if (json_path)
    {
      g_autoptr(GError) save_error = NULL;
      if (!nsc_run_result_save (r, json_path, &save_error))
        {
          nsc_cli_fail ("%s", save_error->message);
          status = 1;
        }
    }

  if (cli.error)
    {
      if (g_error_matches (cli.error, NSC_ERROR, NSC_ERROR_CANCELLED))
        nsc_cli_fail ("Cancelled%s", json_path && r->steps->len ? "; the partial result was saved" : "");
      else
        nsc_cli_fail ("%s", cli.error->message);
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

static int
cmd_run (int    argc,
         char **argv)
{
  g_auto(RunArgs) args = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(NscPreset) preset = NULL;
  g_autoptr(NscDeviceInfo) dev = NULL;
  NscRunOptions opts = NSC_RUN_OPTIONS_INIT;
  int status = 0;

  if (!nsc_cli_parse_run_args (argc, argv, &args, &error))
    {
      nsc_cli_fail ("%s", error->message);
      return EXIT_USAGE;
    }

  if (args.have_job)
    preset = nsc_preset_new_single (&args.job);
  else if (!(preset = nsc_preset_lookup (args.preset ? args.preset : "quick", &error)))
    {
      nsc_cli_fail ("%s", error->message);
      return EXIT_USAGE;
    }

  if (args.dry_run)
    return nsc_cli_dry_run (&args, preset);

  if (args.destroy_data && !target_is_block_device (args.target))
    {
      nsc_cli_fail ("--destroy-data is only for block devices; %s is not one", args.target);
      return EXIT_USAGE;
    }

  opts.target = args.target;
  opts.file_size = args.size;
  opts.runs = args.runs;
  opts.time_ns = args.time_ns;
  opts.idle_ns = args.idle_ns;
  opts.max_idle_ns = args.max_idle_ns;
  opts.time_scale = args.time_scale;
  opts.span_cap = args.have_job ? 0 : args.span;
  opts.backend = args.backend;
  opts.destroy_data = args.destroy_data;
  opts.no_tmpfile = args.no_tmpfile;
  opts.erase_method = args.erase;
  opts.erase = nsc_nvme_erase_func;
  opts.check_device = nsc_device_check_func;
  /* The reviews' conditions, where the user did not say otherwise. */
  if (args.strict)
    nsc_run_options_set_strict (&opts);
  if (args.cdm)
    nsc_run_options_set_cdm (&opts);

  /* The drive behind the target: its facts go into the result, its temperature into
   * every step's series. NVMe Identify and SMART need root; without it, sysfs. */
  {
    g_autofree char *where = g_file_test (args.target, G_FILE_TEST_EXISTS)
                             ? g_strdup (args.target) : g_path_get_dirname (args.target);
    dev = nsc_device_info_for_path (where, geteuid () == 0 ? NSC_DISCOVER_NVME : NSC_DISCOVER_DEFAULT,
                                    NULL);
  }
  if (dev)
    {
      opts.read_temperature = nsc_device_temperature_func;
      opts.temperature_data = dev->devnode;
    }
  /* The drive's SLC cache from its saved results (the app's folder), to label results
   * and size Quick's settled control when this run measures none. */
  if (dev && dev->serial)
    {
      g_autofree char *history = g_build_filename (g_get_user_data_dir (), "nandscope", "results", NULL);
      opts.cache_bytes = nsc_result_history_cache_bytes (history, dev->serial, NULL);
    }

  /* Drive states (002: empty, and nearly full): one run each, side by side. Every
   * state is read, and consent and the in-use checks done, before the first run. */
  {
    g_auto(GStrv) states = g_strsplit (args.state ? args.state : "", ",", -1);
    g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func (g_free);
    g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
    guint n = g_strv_length (states);
    g_autofree NscRunOptions *per_state = g_new0 (NscRunOptions, MAX (n, 1u));
    gboolean writes = FALSE;

    for (guint i = 0; i < MAX (n, 1u); i++)
      {
        NscRunOptions *o = &per_state[i];
        const char *s = n ? g_strstrip (states[i]) : "";

        *o = opts;
        if (g_str_equal (s, "empty"))
          {
            o->erase_first = TRUE;
            g_ptr_array_add (labels, g_strdup ("empty (erased first)"));
          }
        else if (g_str_has_prefix (s, "free:"))
          {
            g_autofree char *size = NULL;
            if (!nsc_parse_size (s + 5, &o->leave_free, &error) || o->leave_free == 0)
              {
                nsc_cli_fail ("--state free:SIZE needs a size larger than zero, not “%s”", s + 5);
                return EXIT_USAGE;
              }
            size = nsc_format_size (o->leave_free);
            g_ptr_array_add (labels, g_strdup_printf ("filled, %s left free", size));
          }
        else if (n > 0)
          {
            nsc_cli_fail ("“%s” is not a drive state; use empty or free:SIZE (e.g. free:100g)", s);
            return EXIT_USAGE;
          }
        else
          g_ptr_array_add (labels, NULL);
        writes = writes || nsc_run_writes (preset, o);
      }

    /* The engine's answer, the same the app asks: erase, TRIM, fill, copy and
     * surface steps and the drive states count, not only writing jobs. */
    if (writes && target_is_block_device (args.target) && (status = check_consent (&args)) != 0)
      return status;

    for (guint i = 0; i < MAX (n, 1u); i++)
      {
        g_autofree char *json = NULL;
        char *summary = NULL;
        const char *s = n ? states[i] : "";

        if (args.json && n > 1)
          {
            g_autofree char *stem = g_str_has_suffix (args.json, ".json")
                                    ? g_strndup (args.json, strlen (args.json) - 5) : g_strdup (args.json);
            g_autofree char *tag = g_strdelimit (g_strdup (s), ":", '-');
            json = g_strdup_printf ("%s-%s.json", stem, tag);
          }
        else
          json = g_strdup (args.json);

        status = run_one (&args, preset, per_state[i], dev, g_ptr_array_index (labels, i), json,
                          &summary);
        g_ptr_array_add (summaries, summary ? summary : g_strdup ("-"));
        if (status != 0)
          return status;
        if (n > 1 && i + 1 < n)
          printf ("\n");
      }

    if (n > 1)
      {
        printf ("\nSide by side:\n");
        for (guint i = 0; i < n; i++)
          printf ("  %-14s %s\n", g_strstrip (states[i]), (char *) g_ptr_array_index (summaries, i));
      }
  }
  return status;
}

static int
cmd_list_presets (void)
{
  g_auto(GStrv) names = nsc_preset_list_names ();

  /* What a preset destroys when its target is a block device; a test file in a
   * folder never touches anything else. */
  printf ("%-17s %-11s %-14s %s\n", "Name", "Duration", "On a device", "Description");
  for (guint i = 0; names[i]; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(NscPreset) p = nsc_preset_lookup (names[i], &error);
      g_autofree char *dur = NULL;

      if (p == NULL)
        {
          nsc_cli_fail ("Built-in preset %s is broken: %s", names[i], error->message);
          return 1;
        }
      dur = nsc_format_duration (nsc_preset_estimate_ns (p, p->runs, p->time_ns));
      printf ("%-17s %-11s %-14s %s: %s\n", p->name, dur,
              p->destructive ? "whole device" : nsc_preset_writes (p) ? "device data" : "nothing",
              p->title, p->description);
    }
  return 0;
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
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

  nsc_cli_fail ("Unknown command “%s”; the commands are run, list-presets, devices, chart and sheet "
             "(see --help)", argv[1]);
  return EXIT_USAGE;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "nsc-fio.h"

/* The file speaks fio's language, and its comments English: it is a file format for
 * a tool, like a result's JSON, not a sentence for the user. */

static void
append_name (GString    *out,
             guint       step,
             guint       run,
             const char *label)
{
  g_string_append_printf (out, "[s%02u-r%u-", step + 1, run + 1);
  for (const char *p = label; *p; p++)
    g_string_append_c (out, g_ascii_isalnum (*p) ? *p : '-');
  g_string_append (out, "]\n");
}

/* fio's sizes in bytes, its times in ms: nothing for it to round. */
static void
append_ms (GString    *out,
           const char *key,
           gint64      ns)
{
  g_string_append_printf (out, "%s=%" G_GINT64_FORMAT "ms\n", key, MAX ((ns + 999999) / 1000000, (gint64) 1));
}

static void
append_idle (GString *out,
             guint    step,
             gint64   ns,
             const char *why)
{
  if (ns <= 0)
    return;
  /* fio's exec engine: the program's time, bounded by the job's own. */
  g_string_append_printf (out, "\n; %s\n[s%02u-idle]\nstonewall\nioengine=exec\nprogram=sleep\n"
                               "arguments=%.3f\ntime_based=1\n", why, step + 1, ns / 1e9);
  append_ms (out, "runtime", ns);
}

static void
append_data (GString      *out,
             const NscJob *job)
{
  if (!nsc_job_has_writes (job))
    return;
  switch (job->data)
    {
    case NSC_DATA_ZEROS:
      g_string_append (out, "zero_buffers=1\n");
      break;
    case NSC_DATA_COMPRESSIBLE:
      /* Half of every 4 KiB random, half zeros. */
      g_string_append (out, "refill_buffers=1\nbuffer_compress_percentage=50\n"
                            "buffer_compress_chunk=4096\n");
      break;
    case NSC_DATA_VERIFY:
      g_string_append (out, "; Nandscope writes blocks that name their own offset and the run, and\n"
                            "; judges every read of them (capacity and integrity); fio's closest\n"
                            "; is its own verify: a checksum header in every block\n"
                            "verify=crc32c\nverify_fatal=0\n");
      break;
    case NSC_DATA_RANDOM:
    default:
      /* As incompressible as Nandscope's; the header says what it costs. */
      g_string_append (out, "refill_buffers=1\n");
      break;
    }
}

/* The job part of a section: direction, size, depth, where, how long. */
static void
append_job (GString         *out,
            const NscPlan   *plan,
            const NscStep   *s,
            const NscJob    *job,
            guint64          offset,
            guint64          length,
            gboolean         timed,
            gint64           run_ns,
            const char      *log_name)
{
  /* Nandscope's path: psync when asked, and under auto at queue depth 1 (its pread
   * and pwrite loop); else io_uring with its buffers and file registered. */
  gboolean psync = plan->options.backend == NSC_BACKEND_PSYNC
                   || (plan->options.backend == NSC_BACKEND_AUTO && job->queue_depth <= 1);
  gboolean sequential = job->pattern == NSC_PATTERN_SEQUENTIAL;
  guint workers = MAX (job->workers, 1u);
  /* fio's clones of a worker: psync runs a thread per request in flight. */
  guint threads = psync ? MAX (job->queue_depth, 1u) : 1;
  guint clones = workers * threads;
  guint64 bs = job->block_size;
  guint64 slice = job->shared_region ? length : length / workers;
  guint64 size, increment = 0, share, skip = 0, part;

  slice -= slice % bs;
  /* A thread's share of its worker's slice, in whole blocks. */
  part = slice / threads - slice / threads % bs;
  /* Each clone's region (offset + its number × offset_increment, size bytes) and its
   * share of a job that moves its region once. Nandscope's threads of a worker draw
   * from one cursor over the worker's slice. */
  if (threads > 1 && workers == 1 && sequential && slice >= threads * bs)
    {
      /* One sequential stream that the threads take turns at: clone k writes blocks
       * k, k + threads, …, fio's "rw=write:SKIP" from its own first block. Each stays
       * inside the slice: the last clone's region ends at its end. */
      slice -= slice % (threads * bs);
      increment = bs;
      skip = (threads - 1) * bs;
      size = slice - skip;
      share = slice / threads;
    }
  else if (threads > 1 && workers > 1 && !job->shared_region)
    {
      /* A cursor per worker shared by its threads has no fio equivalent: each clone
       * takes its own part of its worker's slice, so that together they cover the
       * workers' slices and nothing past them. */
      size = part;
      increment = part;
      share = part;
    }
  else
    {
      /* A clone per worker (each its slice), or a worker's threads over its slice
       * (random, or a region every worker shares), which together move it once. */
      size = slice;
      increment = workers > 1 && !job->shared_region ? slice : 0;
      share = part;
    }
  if (skip)
    g_string_append_printf (out, "rw=%s:%" G_GUINT64_FORMAT "\n", nsc_job_get_rw (job), skip);
  else
    g_string_append_printf (out, "rw=%s\n", nsc_job_get_rw (job));
  if (job->read_percent > 0 && job->read_percent < 100)
    g_string_append_printf (out, "rwmixread=%u\n", job->read_percent);
  g_string_append_printf (out, "bs=%" G_GUINT64_FORMAT "\n", bs);
  if (psync)
    /* psync: a thread per request in flight, as Nandscope runs it. */
    g_string_append_printf (out, "ioengine=psync\niodepth=1\nnumjobs=%u\n", clones);
  else
    g_string_append_printf (out, "ioengine=io_uring\nfixedbufs=1\nregisterfiles=1\n"
                                 "iodepth=%u\nnumjobs=%u\n", MAX (job->queue_depth, 1u), workers);
  /* The clones as threads of fio's process, as Nandscope's workers and psync's requests
   * in flight are, not a process each, forked one after another. (Only here: the idle
   * jobs' sleep would print into fio's JSON from a thread.) */
  g_string_append (out, "thread=1\n");
  if (threads > 1 && workers > 1 && sequential)
    g_string_append (out, "; Nandscope's threads of a worker take turns at one sequential stream\n"
                          "; over its slice; fio's clones cannot share one, so each writes or\n"
                          "; reads its own part of it\n");
  else if (workers > 1 && job->shared_region && sequential)
    g_string_append (out, "; Nandscope's workers each begin at their share of the region and go\n"
                          "; on over all of it; fio's clones all begin at its start\n");
  g_string_append_printf (out, "offset=%" G_GUINT64_FORMAT "\nsize=%" G_GUINT64_FORMAT "\n", offset, size);
  if (increment)
    g_string_append_printf (out, "offset_increment=%" G_GUINT64_FORMAT "\n", increment);
  /* io_size is each clone's: Nandscope's workers share a step's bytes. */
  if (job->bytes && !timed)
    g_string_append_printf (out, "io_size=%" G_GUINT64_FORMAT "\n", MAX (job->bytes / clones / bs, (guint64) 1) * bs);
  else if (!timed && share != size)
    g_string_append_printf (out, "io_size=%" G_GUINT64_FORMAT "\n", MAX (share, bs));
  if (timed)
    {
      g_string_append (out, "time_based=1\n");
      append_ms (out, "runtime", run_ns);
    }
  if (job->ramp_ns > 0)
    append_ms (out, "ramp_time", job->ramp_ns);
  append_data (out, job);
  if (s->stop.enabled)
    g_string_append (out, "; Nandscope stops this write once its speed has dropped and held (past\n"
                          "; the SLC cache); fio has no such rule and writes its whole bound\n");
  if (log_name)
    g_string_append_printf (out, "write_bw_log=%s\nwrite_iops_log=%s\n", log_name, log_name);
  /* A plain number: fio takes "500ms" here and then logs nothing. At most 100 ms:
   * Nandscope's own samples of a fill also end by bytes, and a window of fio's that
   * holds a cache's end blurs it by the bytes the window wrote. */
  g_string_append_printf (out, "log_avg_msec=%" G_GINT64_FORMAT "\n",
                          CLAMP ((nsc_job_sample_interval (job) + 999999) / 1000000, (gint64) 1, (gint64) 100));
}

char *
nsc_fio_export (const NscPlan  *plan,
                const char     *target,
                GError        **error)
{
  const NscPreset *preset;
  const NscBudgetTarget *t;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *file = NULL;
  guint64 size;
  /* The target's direct-I/O unit, as the run will find it, for regions (512 where it
   * cannot be told before). */
  guint align = plan->timing.dio_align ? plan->timing.dio_align : 512;

  g_return_val_if_fail (plan != NULL && target != NULL, NULL);

  preset = plan->preset;
  t = &plan->budget_target;
  size = t->is_device ? t->capacity : t->file_size;
  file = t->is_device ? g_strdup (target) : g_build_filename (target, "nandscope-fio.test", NULL);

  g_string_append_printf (out, "; Nandscope %s: the preset \"%s\" (%s) as a fio job file.\n",
                          PACKAGE_VERSION, preset->name, preset->title);
  g_string_append_printf (out, "; Run it with: fio --output-format=json --output=RESULT.json %s\n",
                          "THIS.fio");
  if (t->is_device)
    g_string_append_printf (out, "; Target: the device %s, %" G_GUINT64_FORMAT " bytes.%s\n", target, size,
                            plan->writes ? " The jobs that write destroy its data." : "");
  else
    g_string_append_printf (out, "; Target: a test file of %" G_GUINT64_FORMAT " bytes in %s, which fio\n"
                                 "; lays out (writes) as far as each job reaches, before that job; delete\n"
                                 "; it afterwards. (Nandscope's own test file has no name, is written\n"
                                 "; whole before the first test and goes with the run.) No filesize=:\n"
                                 "; with it, fio's size= no longer bounds a job's region, and every job\n"
                                 "; would run over the whole file.\n",
                            size, target);
  g_string_append (out, "; Every step is a job, one after the other (stonewall); runs of a step are\n"
                        "; jobs of their own, -r1, -r2, and Nandscope reports their median.\n"
                        "; Reads: Nandscope writes what a test reads first and lets it settle (or\n"
                        "; reads it fresh on purpose, as CrystalDiskMark does); fio reads what the\n"
                        "; target holds.\n");
  /* Nandscope stamps every 4 KiB of a random pool with its offset and a per-write
   * value: nothing to deduplicate or compress, at no per-byte cost. fio's cheap way,
   * its default scramble_buffers, leaves about 8 % of every 4 KiB to a compressor
   * (zlib, cli-export-fio); refill_buffers does not. */
  if (plan->writes)
    g_string_append (out, "; Written data: refill_buffers, fio's fresh random data for every write,\n"
                          "; incompressible as Nandscope's (which stamps every 4 KiB of a random\n"
                          "; pool with its place instead: fio's stamp, scramble_buffers, leaves\n"
                          "; some of each 4 KiB to a compressor). Where the CPU sets the pace,\n"
                          "; making that data makes fio the slower.\n");
  if (plan->options.backend == NSC_BACKEND_AUTO)
    g_string_append (out, "; I/O path, as Nandscope's auto: a psync loop at queue depth 1, io_uring\n"
                          "; with its buffers and file registered above it. Where the target\n"
                          "; refuses non-blocking I/O or completes it within the call (zram, a\n"
                          "; filesystem in RAM), auto runs a psync thread per request in flight\n"
                          "; instead (its result says which path ran): export with --backend\n"
                          "; psync to match that.\n");
  g_string_append (out, "\n");
  g_string_append (out, "[global]\n");
  g_string_append_printf (out, "filename=%s\n", file);
  g_string_append (out, "direct=1\n");
  g_string_append (out, "randrepeat=0\ngroup_reporting=1\n");

  for (guint i = 0; i < preset->steps->len; i++)
    {
      const NscStep *s = &g_array_index (preset->steps, NscStep, i);
      gint64 budget = nsc_timing_step_budget_ns (&plan->timing, s);
      gint64 before = nsc_timing_step_total_ns (&plan->timing, preset, i) - budget;
      guint runs = s->kind == NSC_STEP_JOB ? nsc_timing_step_runs (&plan->timing, s) : 1;
      gint64 pause = 0;
      char scratch[64];
      /* In the block the run uses: a "min" block is the target's unit. */
      NscJob job = s->job;
      const char *label;
      guint64 offset = 0, length = 0;
      gboolean clamped;

      job.block_size = nsc_step_block_size (s, plan->timing.dio_align);
      label = nsc_job_get_label (&job, scratch, sizeof scratch);
      /* CrystalDiskMark's pauses between runs are part of what the clock adds. */
      if (plan->timing.cdm && runs > 1)
        {
          pause = nsc_timing_cut_idle (&plan->timing, G_GINT64_CONSTANT (5) * 1000000000);
          before -= pause * (runs - 1);
        }
      if (s->kind == NSC_STEP_IDLE)
        {
          append_idle (out, i, budget, "Idle: the drive rests (its SLC cache folds)");
          continue;
        }
      append_idle (out, i, before, "Idle before the next test");
      if (s->kind == NSC_STEP_ERASE)
        {
          g_string_append_printf (out, "\n; Step %u: erase (a TRIM of everything, or NVMe Format or\n"
                                       "; Sanitize): fio has none; before the next job, run\n"
                                       "; blkdiscard %s (or nvme format) yourself\n", i + 1, target);
          continue;
        }
      if (s->kind == NSC_STEP_PROBE)
        {
          g_string_append_printf (out, "\n; Step %u: %s, the quick probe of what the drive really\n"
                                       "; stores: it chooses where to write and read next from\n"
                                       "; what it read, which a fio job cannot; f3probe (from the\n"
                                       "; f3 project) does the same\n", i + 1, label);
          continue;
        }
      if (s->kind == NSC_STEP_COPY)
        {
          g_string_append_printf (out, "\n; Step %u: %s, a file copied within the filesystem: fio has no\n"
                                       "; copy; its closest is a read and a write of the same size\n"
                                       "; at once, which this file leaves out\n", i + 1, label);
          continue;
        }
      if (nsc_step_skipped_on (s, plan->timing.dio_align))
        {
          g_string_append_printf (out, "\n; Step %u: %s, skipped as Nandscope skips it: %s cannot do\n"
                                       "; direct I/O in blocks smaller than %u B\n", i + 1, label, target, align);
          continue;
        }
      if (!nsc_step_resolve_region (s, job.block_size, size, plan->options.span_cap, align,
                                    target, &offset, &length, &clamped, error))
        return NULL;

      if (s->kind == NSC_STEP_SURFACE)
        {
          guint points = nsc_surface_points (s->points, s->job.block_size, length);
          guint64 per = nsc_surface_place_bytes (s->job.bytes, s->job.block_size, points, length);
          g_string_append_printf (out, "\n; Step %u: %s, %u places across the drive, %" G_GUINT64_FORMAT
                                       " bytes each\n", i + 1, label, points, per);
          for (guint p = 0; p < points; p++)
            {
              char name[96];

              g_snprintf (name, sizeof name, "%s-place%u", label, p + 1);
              append_name (out, i, 0, name);
              g_string_append (out, "stonewall\n");
              append_job (out, plan, s, &s->job,
                          offset + nsc_surface_place_offset (p, points, per, length, s->job.block_size),
                          per, FALSE, 0, NULL);
            }
          continue;
        }
      if (s->kind == NSC_STEP_TRIM)
        {
          g_string_append_printf (out, "\n; Step %u: TRIM of its region (fio trims block devices only)\n", i + 1);
          append_name (out, i, 0, "TRIM");
          g_string_append_printf (out, "stonewall\nrw=trim\nbs=%u\nioengine=psync\noffset=%" G_GUINT64_FORMAT
                                       "\nsize=%" G_GUINT64_FORMAT "\n", 1u << 20, offset, length);
          continue;
        }
      if (s->kind == NSC_STEP_FILL)
        {
          NscJob fill;

          nsc_job_init (&fill);
          fill.read_percent = 0;
          fill.block_size = 1 << 20;
          fill.queue_depth = 8;
          fill.once = TRUE;
          g_string_append_printf (out, "\n; Step %u: fill its region with data, once\n", i + 1);
          append_name (out, i, 0, "fill");
          g_string_append (out, "stonewall\n");
          append_job (out, plan, s, &fill, offset, length - length % fill.block_size, FALSE, 0, NULL);
          continue;
        }

      /* A job step. */
      {
        gboolean timed = s->time_is_set ? s->job.time_ns > 0 : (!s->job.bytes && !s->job.once);
        gint64 run_ns = timed ? nsc_timing_step_run_time (&plan->timing, s) : 0;

        g_string_append_printf (out, "\n; Step %u: %s (%s", i + 1, label, nsc_job_get_rw (&job));
        if (s->analysis[0])
          g_string_append_printf (out, ", analysis %s", s->analysis);
        g_string_append (out, ")\n");
        for (guint r = 0; r < runs; r++)
          {
            char log_name[96];

            if (r > 0 && pause > 0)
              append_idle (out, i, pause, "CrystalDiskMark's pause between runs");
            g_snprintf (log_name, sizeof log_name, "s%02u-r%u", i + 1, r + 1);
            append_name (out, i, r, label);
            /* Its place in the preset, for nandscope-cli import to fold the runs back
             * into their step. */
            g_string_append_printf (out, "description=nandscope preset=%s step=%u run=%u analysis=%s label=%s\n",
                                    preset->name, i + 1, r + 1, s->analysis[0] ? s->analysis : "-", label);
            g_string_append (out, "stonewall\n");
            append_job (out, plan, s, &job, offset, length, timed, run_ns, log_name);
          }
      }
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

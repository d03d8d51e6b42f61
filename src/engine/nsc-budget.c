/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

/* N_ alone: the items' labels are data the words translate (nsc_words_test_label). */
#include <glib/gi18n-lib.h>

#include <sys/statvfs.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nsc-budget.h"
#include "nsc-runner.h"
#include "nsc-error.h"
#include "nsc-probe.h"
#include "nsc-target.h"
#include "nsc-units.h"
#include "nsc-write-budget.h"

void
nsc_stop_rule_init (NscStopRule *rule)
{
  memset (rule, 0, sizeof *rule);
  rule->drop_share = 0.70;
  rule->early_samples = 4;
  rule->hold_samples = 8;
  rule->hold_bytes = G_GUINT64_CONSTANT (256) << 20;
  rule->hold_ns = 3 * G_GINT64_CONSTANT (1000000000);
  rule->min_samples = 12;
  rule->cap_factor = 1.25;
  rule->cap_margin = G_GUINT64_CONSTANT (1) << 30;
  rule->cap_share = 0.5;
}

static gboolean
bad (GError     **error,
     NscProblem   problem)
{
  nsc_error_set (error, problem, NULL);
  return FALSE;
}

/* A member that must be a whole number from @lo to @hi. */
static gboolean
bad_count (GError    **error,
           const char *member,
           guint       lo,
           guint       hi)
{
  nsc_error_set (error, NSC_PROBLEM_STOP_COUNT, &(NscErrorFields) { .text = member, .n = lo, .n2 = hi });
  return FALSE;
}

static gboolean
get_number (JsonObject *o,
            const char *member,
            double      lo,
            double      hi,
            double     *out)
{
  JsonNode *n = json_object_get_member (o, member);
  double v;

  if (n == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (n) || (json_node_get_value_type (n) != G_TYPE_DOUBLE
                                     && json_node_get_value_type (n) != G_TYPE_INT64))
    return FALSE;
  v = json_node_get_value_type (n) == G_TYPE_DOUBLE ? json_node_get_double (n)
                                                    : (double) json_node_get_int (n);
  if (!(v >= lo && v <= hi))
    return FALSE;
  *out = v;
  return TRUE;
}

gboolean
nsc_stop_rule_parse (JsonObject   *step,
                     NscStopRule  *rule,
                     GError      **error)
{
  JsonNode *node = json_object_get_member (step, "stop");
  JsonObject *o;
  const char *when, *s;
  double v;

  nsc_stop_rule_init (rule);
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return bad (error, NSC_PROBLEM_STOP_NOT_OBJECT);
  o = json_node_get_object (node);
  when = json_object_get_string_member_with_default (o, "when", NULL);
  if (when == NULL || !g_str_equal (when, "drop-held"))
    return bad (error, NSC_PROBLEM_STOP_WHEN);
  rule->enabled = TRUE;

  if (!get_number (o, "below", 0.05, 0.95, &rule->drop_share))
    return bad (error, NSC_PROBLEM_STOP_BELOW);
  v = rule->hold_samples;
  if (!get_number (o, "samples", 1, 1000, &v))
    return bad_count (error, "samples", 1, 1000);
  rule->hold_samples = (guint) v;
  v = rule->min_samples;
  if (!get_number (o, "min_samples", 0, 10000, &v))
    return bad_count (error, "min_samples", 0, 10000);
  rule->min_samples = (guint) v;
  v = rule->early_samples;
  if (!get_number (o, "early_samples", 1, G_N_ELEMENTS (((NscStopState *) 0)->early), &v))
    return bad_count (error, "early_samples", 1, G_N_ELEMENTS (((NscStopState *) 0)->early));
  rule->early_samples = (guint) v;
  if ((s = json_object_get_string_member_with_default (o, "past_bytes", NULL))
      && !nsc_parse_size (s, &rule->hold_bytes, error))
    return FALSE;
  if ((s = json_object_get_string_member_with_default (o, "past_time", NULL))
      && !nsc_parse_duration (s, &rule->hold_ns, error))
    return FALSE;
  if (!get_number (o, "cap_cache_factor", 1.0, 100.0, &rule->cap_factor))
    return bad (error, NSC_PROBLEM_STOP_CAP_FACTOR);
  if ((s = json_object_get_string_member_with_default (o, "cap_margin", NULL))
      && !nsc_parse_size (s, &rule->cap_margin, error))
    return FALSE;
  if (!get_number (o, "cap_share", 0.01, 1.0, &rule->cap_share))
    return bad (error, NSC_PROBLEM_STOP_CAP_SHARE);
  return TRUE;
}

guint64
nsc_stop_rule_cap (const NscStopRule *rule,
                   guint64            cache_bytes,
                   guint64            bound)
{
  double cap;

  if (!rule->enabled)
    return bound;
  if (cache_bytes == G_MAXUINT64)
    cap = rule->cap_share * (double) bound;
  else
    cap = rule->cap_factor * (double) cache_bytes + (double) rule->cap_margin;
  /* The hold itself must fit below the cap. */
  cap = MAX (cap, (double) rule->hold_bytes * 2);
  return cap >= (double) bound ? bound : (guint64) cap;
}

const char *
nsc_stop_reason_to_string (NscStopReason reason)
{
  static const char *names[] = {
    NULL, "drop-held", "cap", "time", "bytes", "full", "cancelled", "error",
  };
  return reason < G_N_ELEMENTS (names) ? names[reason] : NULL;
}

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

void
nsc_stop_state_init (NscStopState      *state,
                     const NscStopRule *rule,
                     double             reference_bps)
{
  memset (state, 0, sizeof *state);
  state->rule = *rule;
  state->rule.early_samples = CLAMP (rule->early_samples, 1u, G_N_ELEMENTS (state->early));
  state->reference_bps = isfinite (reference_bps) && reference_bps > 0 ? reference_bps : 0;
}

gboolean
nsc_stop_state_feed (NscStopState    *state,
                     const NscSample *sample)
{
  const NscStopRule *rule = &state->rule;
  double bps = nsc_sample_bps (sample);
  guint64 done = sample->bytes[0] + sample->bytes[1];

  if (!rule->enabled || state->held)
    return state->held;
  if (sample->duration_ns <= 0)
    return FALSE;
  state->n++;

  if (state->reference_bps == 0)
    {
      double sorted[G_N_ELEMENTS (state->early)];

      state->early[state->n_early++] = bps;
      if (state->n_early < rule->early_samples)
        return FALSE;
      memcpy (sorted, state->early, state->n_early * sizeof (double));
      qsort (sorted, state->n_early, sizeof (double), cmp_double);
      state->reference_bps = state->n_early % 2 ? sorted[state->n_early / 2]
                           : (sorted[state->n_early / 2 - 1] + sorted[state->n_early / 2]) / 2;
      if (state->reference_bps <= 0)
        {
          /* A drive that wrote nothing at first has no level to drop from. */
          state->n_early = 0;
          state->reference_bps = 0;
        }
      return FALSE;
    }

  if (bps < rule->drop_share * state->reference_bps)
    {
      if (!state->dropped)
        {
          state->dropped = TRUE;
          state->drop_position = sample->position - MIN (done, sample->position);
          state->drop_t_ns = sample->t_ns - sample->duration_ns;
          state->below = 0;
          state->between = 0;
        }
      state->below++;
    }
  else if (state->dropped
           && bps < (1 + rule->drop_share) / 2 * state->reference_bps
           && state->between < state->below)
    {
      /* Above the line but not halfway back to the reference, and the samples below
       * still outnumber such ones: a slow speed's noise about the line, which would
       * otherwise never let a drop hold on a drive whose slow speed is near it. */
      state->between++;
    }
  else
    {
      /* Back up (halfway to the reference, or about the line as often as below it):
       * a passing dip, not the end of the cache. */
      state->dropped = FALSE;
      state->below = 0;
      state->between = 0;
    }

  state->held = state->dropped
             && state->below >= rule->hold_samples
             && state->n >= rule->min_samples
             && sample->position - state->drop_position >= rule->hold_bytes
             && sample->t_ns - state->drop_t_ns >= rule->hold_ns;
  return state->held;
}


/* Whether a step in @seen has @s's region (the same shares, or the same bytes);
 * adds it when not. */
static gboolean
region_seen (GArray        *seen,
             const NscStep *s)
{
  for (guint i = 0; i < seen->len; i++)
    {
      const NscStep *o = g_array_index (seen, const NscStep *, i);

      if (o->offset_pct == s->offset_pct && o->span_pct == s->span_pct
          && o->job.region_offset == s->job.region_offset
          && o->job.region_length == s->job.region_length)
        return TRUE;
    }
  g_array_append_val (seen, s);
  return FALSE;
}

/* The bytes a step's region covers in a test area of @size, as the runner resolves
 * it (nsc_step_resolve_region: its share of the area, or of --span, its own length,
 * span_max, clamped to what is left past its offset), before its length is rounded
 * down to the step's blocks: never less than the runner's. 0 for a step the runner
 * would refuse (past the end). */
static guint64
step_region (const NscBudgetTarget *t,
             const NscStep         *s,
             guint64                size)
{
  guint64 offset = 0, length = 0;
  gboolean clamped;

  if (!nsc_step_resolve_region (s, 1, size, t->span_cap, 1, NULL, &offset, &length, &clamped, NULL))
    return 0;
  return length;
}

/* ---- the budget ------------------------------------------------------------------ */

/* Steps timed and repeated as the runner does it. */
static void
budget_timing (NscTiming             *timing,
               const NscPreset       *preset,
               const NscBudgetTarget *t)
{
  NscRunOptions options = NSC_RUN_OPTIONS_INIT;

  options.runs = t->runs;
  options.time_ns = t->time_ns;
  options.default_time_ns = t->default_time_ns;
  options.time_scale = t->time_scale;
  options.strict = t->strict;
  nsc_timing_init (timing, preset, &options);
  timing->dio_align = t->dio_align;
}

static void
add_item (GArray     *items,
          int         step,
          const char *label,
          guint64     bytes)
{
  NscBudgetItem it = { 0 };

  it.step = step;
  g_strlcpy (it.label, label, sizeof it.label);
  it.bytes = bytes;
  g_array_append_val (items, it);
}

GArray *
nsc_write_budget (const NscPreset       *preset,
                  const NscBudgetTarget *t,
                  guint64               *out_total,
                  gboolean              *out_timed)
{
  GArray *items = g_array_new (FALSE, TRUE, sizeof (NscBudgetItem));
  NscTiming timing;
  guint64 size = t->is_device ? t->capacity : t->file_size;
  guint64 total = 0, unwritten;
  gboolean timed = FALSE;
  gboolean flushing_group;
  guint64 cache_bound;
  g_autoptr(GArray) seen = NULL;

  budget_timing (&timing, preset, t);

  /* Before the steps: a drive state, then the test file written whole. In a state
   * with little left free, the steps run in what is left: a device's last bytes, or a
   * test file no larger than the free space. */
  if (t->leave_free && t->capacity > t->leave_free)
    {
      add_item (items, -1, N_("Filling the drive to the chosen state"), t->capacity - t->leave_free);
      size = t->is_device ? t->leave_free : MIN (size, t->leave_free);
    }
  if (!t->is_device && preset->prepare)
    add_item (items, -1, N_("Preparing the test file"), size);
  if (t->strict && t->is_device && !nsc_preset_only_probes (preset))
    add_item (items, -1, N_("Preconditioning: writing the whole drive once"), t->capacity);

  /* What reads would meet unwritten, and so the runner writes first: a device's
   * every byte, or none of a test file written whole; a TRIM or an erase makes its
   * region so again. */
  unwritten = t->is_device || !preset->prepare ? size : 0;
  flushing_group = FALSE;
  /* The cache the runner sizes Quick's flush by: the drive's history, or at most what
   * a write-fill earlier in the run wrote (it measures the cache inside it). */
  cache_bound = t->cache_bytes;
  seen = g_array_new (FALSE, FALSE, sizeof (const NscStep *));
  for (guint i = 0; i < preset->steps->len; i++)
    {
      const NscStep *s = &g_array_index (preset->steps, NscStep, i);
      guint64 region = step_region (t, s, size);
      gboolean flushed;
      char scratch[64];
      NscBudgetItem it = { 0 };

      /* A settled control beside fresh reads (Quick): written past the cache after its
       * data, where the group starts: an eighth more than the cache as the runner
       * knows it then, or the default. */
      if (i == 0 || s->group != g_array_index (preset->steps, NscStep, i - 1).group)
        {
          const NscStep *fresh = NULL;
          gboolean settled = FALSE;

          for (guint j = i; j < preset->steps->len
                            && g_array_index (preset->steps, NscStep, j).group == s->group; j++)
            {
              const NscStep *sj = &g_array_index (preset->steps, NscStep, j);

              settled |= g_str_equal (sj->analysis, "settled-read");
              if (fresh == NULL && g_str_equal (sj->analysis, "fresh-read"))
                fresh = sj;
            }
          flushing_group = settled && fresh;
          if (settled && fresh)
            {
              gboolean capped;
              /* As the run sizes it, in the target's blocks; where they are not
               * known, 4 KiB (at most that on the drives seen). */
              guint64 flush = nsc_settled_flush_bytes (cache_bound, t->span_cap,
                                                       t->dio_align ? t->dio_align : 4096, &capped);

              add_item (items, (int) i, N_("Writing past the SLC cache after the settled data"), flush);
              g_array_index (items, NscBudgetItem, items->len - 1).flush = TRUE;
              g_array_index (items, NscBudgetItem, items->len - 1).flush_capped = capped;
              /* Then the pause, then the fresh half written again. */
              add_item (items, (int) i, N_("Writing the fresh data again after the pause"),
                        step_region (t, fresh, size));
            }
        }
      /* A block size the target cannot do: the runner skips the step, its reads'
       * data too. */
      if (nsc_step_skipped_on (s, t->dio_align))
        continue;
      it.step = (int) i;
      g_strlcpy (it.label, nsc_job_get_label (&s->job, scratch, sizeof scratch), sizeof it.label);
      switch (s->kind)
        {
        case NSC_STEP_JOB:
          {
            guint64 bound = G_MAXUINT64;
            double share = (100 - s->job.read_percent) / 100.0;

            /* The reads of a read step meet data written first (fill). */
            /* Reads meet data written first, where nothing was written yet: all
             * those fills together cover the target once at most. */
            /* A fresh read's data beside a settled control is the flush's to write;
             * a region another read step's fill already wrote is not written again. */
            flushed = flushing_group && g_str_equal (s->analysis, "fresh-read");
            if (nsc_job_has_reads (&s->job) && !s->no_prefill && unwritten > 0
                && !region_seen (seen, s))
              {
                guint64 fill = MIN (region, unwritten);

                if (!flushed)
                  add_item (items, (int) i, N_("Writing the data that the test reads"), fill);
                unwritten -= fill;
              }
            if (!nsc_job_has_writes (&s->job))
              continue;
            if (s->job.once)
              bound = region;
            if (s->job.bytes)
              bound = MIN (bound, t->span_cap ? MIN (s->job.bytes, t->span_cap) : s->job.bytes);
            if (bound == G_MAXUINT64)
              {
                it.timed = TRUE;
                /* As the runner runs it: its length (the option, the step's own, the
                 * default, the preset's or its group's; scaled), every run. */
                it.time_ns = nsc_duration_mul (nsc_timing_step_run_time (&timing, s),
                                               nsc_timing_step_runs (&timing, s));
                timed = TRUE;
              }
            else
              {
                it.bytes = (guint64) ceil (bound * share) * nsc_timing_step_runs (&timing, s);
                it.stops_early = s->stop.enabled;
              }
          }
          break;
        case NSC_STEP_FILL:
          it.bytes = region;
          g_strlcpy (it.label, N_("Fill"), sizeof it.label);
          break;
        case NSC_STEP_SURFACE:
          if (!nsc_job_has_writes (&s->job))
            continue;
          it.timed = s->job.time_ns > 0 && !s->job.bytes;
          {
            guint points = nsc_surface_points (s->points, s->job.block_size, region);

            it.bytes = it.timed ? 0 : (guint64) points * nsc_surface_place_bytes (s->job.bytes, s->job.block_size,
                                                                                 points, region);
          }
          it.time_ns = s->job.time_ns * s->points;
          timed |= it.timed;
          break;
        case NSC_STEP_COPY:
          {
            /* A source written, then its copy; both scaled to half the free space. */
            guint64 bytes = s->job.bytes ? s->job.bytes : G_GUINT64_CONSTANT (100000000000);

            if (t->span_cap)
              bytes = MIN (bytes, t->span_cap);
            if (!t->is_device)
              bytes = MIN (bytes, t->capacity / 2);
            it.bytes = 2 * bytes;
            g_strlcpy (it.label, s->job.label[0] ? s->job.label : N_("Copy"), sizeof it.label);
          }
          break;
        case NSC_STEP_PROBE:
          {
            guint64 cache_max = nsc_probe_cache_limit (size, s->cache_max);

            if (!t->is_device || size < NSC_PROBE_MIN_SIZE)
              continue;
            it.bytes = nsc_probe_write_bound (size, cache_max);
            /* A good drive: the places, and the writes past a cache that is not there. */
            it.probe_usual = nsc_probe_good_bytes (size, cache_max);
            g_strlcpy (it.label, s->job.label[0] ? s->job.label : N_("Probe"), sizeof it.label);
          }
          break;
        case NSC_STEP_TRIM:
          unwritten = MIN (size, unwritten + region);
          continue;
        case NSC_STEP_ERASE:   /* a TRIM or the controller's erase: no data written */
          unwritten = size;
          continue;
        case NSC_STEP_IDLE:
        default:
          continue;
        }
      g_array_append_val (items, it);
      if (g_str_equal (s->analysis, "write-fill"))
        cache_bound = MAX (cache_bound, it.timed ? region : it.bytes);
    }

  for (guint i = 0; i < items->len; i++)
    total += g_array_index (items, NscBudgetItem, i).bytes;
  if (out_total)
    *out_total = total;
  if (out_timed)
    *out_timed = timed;
  return items;
}

gboolean
nsc_write_budget_folder (const char *dir,
                         guint64     file_size,
                         guint64    *out_free,
                         guint64    *out_file_size,
                         gboolean   *out_fits,
                         guint64    *out_largest,
                         GError    **error)
{
  struct statvfs vfs;
  guint64 free_bytes, size = file_size;
  gboolean fits;

  if (statvfs (dir, &vfs) != 0)
    {
      nsc_error_set_errno (error, NSC_PROBLEM_BUDGET_FREE_SPACE, errno,
                           &(NscErrorFields) { .path = dir });
      return FALSE;
    }
  free_bytes = (guint64) vfs.f_bavail * vfs.f_frsize;
  /* As the target sizes it (its direct-I/O alignment is not known here: 4 KiB). */
  fits = nsc_target_file_size (file_size, free_bytes, (guint64) vfs.f_blocks * vfs.f_frsize, 4096,
                               &size, out_largest);
  *out_free = free_bytes;
  *out_file_size = size;
  if (out_fits)
    *out_fits = fits;
  return TRUE;
}

guint64
nsc_budget_item_expected (const NscBudgetItem *item)
{
  return item->probe_usual ? MIN (item->probe_usual, item->bytes) : item->bytes;
}

guint64
nsc_budget_paced_reads (const NscPreset       *preset,
                        const NscBudgetTarget *t)
{
  NscTiming timing;
  guint64 size = t->is_device ? t->capacity : t->file_size;
  guint64 total = 0;

  g_return_val_if_fail (preset != NULL && t != NULL, 0);

  budget_timing (&timing, preset, t);
  if (t->leave_free && t->capacity > t->leave_free)
    size = t->is_device ? t->leave_free : MIN (size, t->leave_free);

  for (guint i = 0; i < preset->steps->len; i++)
    {
      const NscStep *s = &g_array_index (preset->steps, NscStep, i);
      guint64 region = step_region (t, s, size);
      double share = s->job.read_percent / 100.0;
      guint64 bound = G_MAXUINT64;

      /* The quick probe reads a block in every 128 across half the drive. */
      if (s->kind == NSC_STEP_PROBE && t->is_device)
        total += nsc_probe_read_estimate (size);
      if (!nsc_job_has_reads (&s->job))
        continue;
      if (s->kind == NSC_STEP_SURFACE)
        {
          if (s->job.bytes)
            {
              guint points = nsc_surface_points (s->points, s->job.block_size, region);

              total += (guint64) points * nsc_surface_place_bytes (s->job.bytes, s->job.block_size,
                                                                   points, region);
            }
          continue;
        }
      if (s->kind != NSC_STEP_JOB)
        continue;
      if (s->job.once)
        bound = region;
      if (s->job.bytes)
        bound = MIN (bound, t->span_cap ? MIN (s->job.bytes, t->span_cap) : s->job.bytes);
      if (bound != G_MAXUINT64)
        total += (guint64) ceil (bound * share) * nsc_timing_step_runs (&timing, s);
    }
  return total;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a finished run means: the pure analyses of nsc-analysis applied to the steps a
 * preset tagged, collected in the result's "analysis" and "warnings". */
#include "config.h"

#include <math.h>

#include "nsc-analysis.h"
#include "nsc-json.h"
#include "nsc-run-analysis.h"
#include "nsc-units.h"

#define SECOND 1e9
/* Reads of data written less than this long before may come from the SLC cache. */
#define FRESH_DATA_NS (G_GINT64_CONSTANT (60) * 1000000000)
/* An idle this long lets an SM2263-class drive flush its cache (004: several seconds). */
#define SETTLED_IDLE_NS (G_GINT64_CONSTANT (30) * 1000000000)

static const NscJobResult *
headline (const NscStepResult *s)
{
  return (s->step.kind == NSC_STEP_JOB || s->step.kind == NSC_STEP_COPY) && !s->skipped
         ? nsc_step_result_headline (s) : NULL;
}

static gboolean
is (const NscStepResult *s,
    const char          *tag)
{
  return g_strcmp0 (s->step.analysis, tag) == 0;
}

static double
mib (double bps)
{
  return bps / NSC_BYTES_PER_MIB;
}

static void
set_double (JsonObject *o,
            const char *name,
            double      v)
{
  if (isfinite (v))
    json_object_set_double_member (o, name, v);
  else
    json_object_set_null_member (o, name);
}

/* ---- the SLC cache --------------------------------------------------------- */

/* The drive's own temperature thresholds (NVMe WCTEMP and CCTEMP), in °C. */
static guint
drive_thresholds (NscRunResult *r,
                  double        out[2])
{
  static const char *names[] = { "wctemp_c", "cctemp_c" };
  JsonObject *device = r->device && JSON_NODE_HOLDS_OBJECT (r->device)
                       ? json_node_get_object (r->device) : NULL;
  JsonObject *identify = nsc_json_get_object (nsc_json_get_object (device, "nvme"), "identify");
  guint n = 0;

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      JsonNode *v = identify ? json_object_get_member (identify, names[k]) : NULL;

      if (v && JSON_NODE_HOLDS_VALUE (v) && json_node_get_value_type (v) == G_TYPE_DOUBLE
          && isfinite (json_node_get_double (v)))
        out[n++] = json_node_get_double (v);
    }
  return n;
}

/* What may hold the run's writes in memory before the drive: what the front end
 * found under the target (a buffered loop device, a virtual or network disk), else
 * the test file's filesystem (in memory, over a network, or ZFS's own write cache). */
static void
run_system_cache (const NscRunResult *r,
                  NscSystemCacheInfo *out)
{
  static const struct { const char *fs; NscSystemCache certainty; const char *kind; } fs[] = {
    { "tmpfs", NSC_SYSTEM_CACHE_MEMORY, "memory-fs" },
    { "ramfs", NSC_SYSTEM_CACHE_MEMORY, "memory-fs" },
    { "nfs", NSC_SYSTEM_CACHE_POSSIBLE, "network-fs" },
    { "cifs", NSC_SYSTEM_CACHE_POSSIBLE, "network-fs" },
    { "fuse", NSC_SYSTEM_CACHE_POSSIBLE, "network-fs" },
    { "zfs", NSC_SYSTEM_CACHE_POSSIBLE, "zfs" },
  };

  nsc_system_cache_info_copy (out, &r->system_cache);
  if (out->certainty != NSC_SYSTEM_CACHE_NONE || g_strcmp0 (r->target_kind, "file") != 0)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (fs); i++)
    if (g_strcmp0 (r->filesystem, fs[i].fs) == 0)
      {
        out->certainty = fs[i].certainty;
        out->kind = g_strdup (fs[i].kind);
        out->detail = g_strdup (fs[i].fs);
      }
}

/* What a system-cache warning names, for the words of the front ends. */
static void
warning_set_cache (NscWarning               *w,
                   const NscSystemCacheInfo *cache)
{
  w->cache_kind = g_strdup (cache->kind);
  w->cache_device = g_strdup (cache->device);
  w->cache_detail = g_strdup (cache->detail);
}

static NscSlcAnalysis *
analyze_fill (NscRunResult *r,
              JsonObject   *analysis,
              const char   *tag,
              const char   *member)
{
  double thresholds[2];
  guint n_thresholds = drive_thresholds (r, thresholds);

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *s = g_ptr_array_index (r->steps, i);
      const NscJobResult *head = headline (s);
      g_autoptr(GError) error = NULL;
      g_autofree gint64 *temp_t = NULL;
      g_autofree double *celsius = NULL;
      guint nt;
      NscSlcAnalysis *slc;

      if (!is (s, tag) || head == NULL)
        continue;
      /* The temperature of the step, to tell throttling from the cache's end. */
      nt = s->temperature ? s->temperature->len : 0;
      temp_t = g_new (gint64, MAX (nt, 1u));
      celsius = g_new (double, MAX (nt, 1u));
      for (guint k = 0; k < nt; k++)
        {
          temp_t[k] = g_array_index (s->temperature, NscTempSample, k).t_ns;
          celsius[k] = g_array_index (s->temperature, NscTempSample, k).celsius;
        }
      slc = nsc_analyze_write_fill_series_thermal (head->series, temp_t, celsius, nt,
                                                   thresholds, n_thresholds, NULL);
      /* Temperatures it cannot use do not cost the fill its analysis. */
      if (slc == NULL)
        slc = nsc_analyze_write_fill_series (head->series, &error);
      if (slc == NULL)
        {
          JsonObject *o = json_object_new ();
          json_object_set_string_member (o, "error", error->message);
          json_object_set_int_member (o, "step", i);
          json_object_set_object_member (analysis, member, o);
          return NULL;
        }
      {
        NscSystemCacheInfo cache = { 0 };
        JsonNode *node;

        run_system_cache (r, &cache);
        nsc_slc_analysis_set_system_cache (slc, &cache);
        if (cache.certainty != NSC_SYSTEM_CACHE_NONE)
          {
            g_autofree char *via = nsc_system_cache_phrase (&cache);
            gboolean memory = cache.certainty == NSC_SYSTEM_CACHE_MEMORY;
            NscWarning *w;

            w = nsc_run_result_add_warning (r, (int) i, memory ? NSC_WARNING_SYSTEM_CACHE_MEMORY
                                                                : NSC_WARNING_SYSTEM_CACHE_POSSIBLE,
                                            memory ? "%s: the writes went through this machine's "
                                                     "memory (%s): a fast start is not the "
                                                     "drive's SLC cache"
                                                   : "%s: the writes went through %s, which may "
                                                     "keep them in memory: the drive's SLC cache "
                                                     "is not verified",
                                            s->step.job.label, via);
            w->test = g_strdup (s->step.job.label);
            /* The fast start the fill found (0: none): the words differ. */
            w->bytes = slc->has_cache || slc->drop_cause == NSC_DROP_SYSTEM_CACHE
                       ? (gint64) slc->cache_bytes : 0;
            warning_set_cache (w, &cache);
          }
        nsc_system_cache_info_clear (&cache);
        node = nsc_slc_analysis_to_json (slc);
        json_object_set_int_member (json_node_get_object (node), "step", i);
        json_object_set_member (analysis, member, node);
      }
      if (slc->drop_cause == NSC_DROP_THERMAL)
        {
          g_autofree char *at = nsc_format_size (slc->throttle_bytes);
          NscWarning *w;

          w = nsc_run_result_add_warning (r, (int) i, NSC_WARNING_THERMAL_THROTTLING,
                                          "%s: the speed fell from %.0f to %.0f MiB/s after %s as "
                                          "the drive reached %.0f °C (its %.0f °C threshold): the "
                                          "drive throttles, and this drop is not the end of the "
                                          "SLC cache",
                                          s->step.job.label, mib (slc->throttle_bps_before),
                                          mib (slc->throttle_bps_after), at,
                                          slc->throttle_celsius, slc->throttle_threshold_c);
          w->test = g_strdup (s->step.job.label);
          w->bps_before = slc->throttle_bps_before;
          w->bps_after = slc->throttle_bps_after;
          w->bytes = (gint64) slc->throttle_bytes;
          w->celsius = slc->throttle_celsius;
          w->celsius_limit = slc->throttle_threshold_c;
        }
      return slc;
    }
  return NULL;
}

/* Where a run's writes fell against the SLC cache: everything written since the
 * drive last rested (idle, erase, TRIM) counts, across steps and runs. */
static const char *
cache_position (guint64 before,
                guint64 written,
                guint64 cache)
{
  if (cache == 0)
    return "unknown";
  if (before + written <= cache)
    return "inside";
  if (before >= cache)
    return "after";
  return "across";
}

static NscWarning *
add_position_warning (NscRunResult *r,
                      guint         step,
                      const char   *position,
                      const char   *format,
                      ...) G_GNUC_PRINTF (4, 5);

static NscWarning *
add_position_warning (NscRunResult *r,
                      guint         step,
                      const char   *position,
                      const char   *format,
                      ...)
{
  g_autofree char *msg = NULL;
  NscWarning *w;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  w = nsc_run_result_add_warning (r, (int) step, NSC_WARNING_INSIDE_SLC_CACHE, "%s", msg);
  w->position = g_strdup (position);
  return w;
}

/* A write result that fits in the cache measured the cache; one whose speed fell
 * inside the step measured a mix; one after tens of GB written without rest measured
 * what follows the cache, whatever the step alone wrote. */
static void
label_writes (NscRunResult         *r,
              JsonObject           *analysis,
              const NscSlcAnalysis *slc)
{
  JsonArray *inside = NULL;
  JsonArray *positions = NULL;
  guint64 cache = 0;
  const char *source = NULL;
  NscSystemCacheInfo memory = { 0 };
  g_autofree char *via = NULL;

  /* Writes into this machine's memory (a disk in memory, a folder in memory, a loop
   * device over a file without direct I/O) measure no drive's flash or SLC cache:
   * said so instead. */
  run_system_cache (r, &memory);
  if (memory.certainty == NSC_SYSTEM_CACHE_MEMORY)
    via = nsc_system_cache_phrase (&memory);

  if (slc && slc->has_cache)
    cache = slc->cache_bytes, source = "this-run";
  else if (r->history_cache_bytes)
    cache = r->history_cache_bytes, source = "history";

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *s = g_ptr_array_index (r->steps, i);
      const NscJobResult *head = headline (s);
      g_autoptr(NscSlcAnalysis) within = NULL;
      g_autofree char *written = NULL;
      g_autofree char *before_s = NULL;
      g_autofree char *cache_s = NULL;
      const char *label = s->step.job.label;
      const char *position = NULL;
      guint64 before = s->written_before_bytes, head_before = 0;
      JsonArray *runs;
      JsonObject *o;

      if (head == NULL || head->dir[NSC_DIR_WRITE].bytes == 0 || is (s, "write-fill")
          || s->step.kind != NSC_STEP_JOB
          || is (s, "write-fill-second") || is (s, "cache-recovery") || is (s, "degradation"))
        continue;

      runs = json_array_new ();
      for (guint k = 0; k < s->runs->len; k++)
        {
          const NscJobResult *run = g_ptr_array_index (s->runs, k);
          const char *pos;

          /* CrystalDiskMark's way rests between runs. */
          if (k > 0 && s->headline_best)
            before = 0;
          pos = cache_position (before, run->dir[NSC_DIR_WRITE].bytes, cache);
          json_array_add_string_element (runs, pos);
          if (run == head)
            position = pos, head_before = before;
          before += run->dir[NSC_DIR_WRITE].bytes;
        }
      o = json_object_new ();
      json_object_set_int_member (o, "step", i);
      json_object_set_string_member (o, "position", position);
      json_object_set_int_member (o, "written_before_bytes", (gint64) head_before);
      if (cache)
        json_object_set_int_member (o, "cache_bytes", (gint64) cache);
      else
        json_object_set_null_member (o, "cache_bytes");
      if (source)
        json_object_set_string_member (o, "cache_source", source);
      else
        json_object_set_null_member (o, "cache_source");
      json_object_set_array_member (o, "runs", runs);
      if (positions == NULL)
        positions = json_array_new ();
      json_array_add_object_element (positions, o);

      if (via != NULL)
        {
          NscWarning *w;

          /* Where the cache's words would have stood: a test that wrote inside or
           * across a known cache, or any that only wrote when none is known. */
          if (g_str_equal (position, "after")
              || (g_str_equal (position, "unknown") && head->job.read_percent > 0))
            continue;
          w = nsc_run_result_add_warning (r, (int) i, NSC_WARNING_SYSTEM_CACHE_MEMORY,
                                          "%s: the writes went through this machine's memory "
                                          "(%s): their speed is not a drive's flash or its SLC "
                                          "cache", label, via);
          w->test = g_strdup (label);
          w->bytes = 0;
          warning_set_cache (w, &memory);
          continue;
        }
      written = nsc_format_size (head->dir[NSC_DIR_WRITE].bytes);
      before_s = nsc_format_size (head_before);
      cache_s = nsc_format_size (cache);
      if (nsc_series_get_len (head->series) >= NSC_WRITE_FILL_MIN_SAMPLES)
        within = nsc_analyze_write_fill_series (head->series, NULL);
      if (within && within->has_cache)
        {
          g_autofree char *at = nsc_format_size (within->cache_bytes);
          NscWarning *w;

          w = nsc_run_result_add_warning (r, (int) i, NSC_WARNING_CACHE_EXHAUSTED_DURING_TEST,
                                          "%s: the write speed fell from %.0f to %.0f MiB/s after "
                                          "%s; the result mixes the SLC cache and what follows it",
                                          label, mib (within->in_cache_bps),
                                          mib (within->post_cache_bps), at);
          w->test = g_strdup (label);
          w->bps_before = within->in_cache_bps;
          w->bps_after = within->post_cache_bps;
          w->bytes = (gint64) within->cache_bytes;
          continue;
        }
      if (g_str_equal (position, "inside") || g_str_equal (position, "across")
          || (g_str_equal (position, "unknown") && head->job.read_percent == 0))
        {
          NscWarning *w;

          if (g_str_equal (position, "inside"))
            w = add_position_warning (r, i, position,
                                      "%s: the %s it wrote, after %s written since the drive "
                                      "last rested, fit in the measured SLC cache (%s): this is "
                                      "the cache's speed, not the flash's", label, written,
                                      before_s, cache_s);
          else if (g_str_equal (position, "across"))
            w = add_position_warning (r, i, position,
                                      "%s: it began inside the measured SLC cache (%s; %s "
                                      "written since the drive last rested) and ended past it: "
                                      "the result mixes both", label, cache_s, before_s);
          else
            w = add_position_warning (r, i, position,
                                      "%s: this drive's SLC cache was not measured (no "
                                      "write-fill in this run or in its saved results), so "
                                      "this may be the cache's speed", label);
          w->test = g_strdup (label);
          if (cache > 0)
            {
              w->bytes = (gint64) head->dir[NSC_DIR_WRITE].bytes;
              w->bytes_before = (gint64) head_before;
              w->cache_bytes = (gint64) cache;
            }
        }
      else
        continue;
      if (inside == NULL)
        inside = json_array_new ();
      json_array_add_int_element (inside, i);
    }

  nsc_system_cache_info_clear (&memory);
  if (inside)
    json_object_set_array_member (analysis, "inside_slc_cache", inside);
  if (positions)
    json_object_set_array_member (analysis, "cache_position", positions);
}

static void
analyze_recovery (NscRunResult         *r,
                  JsonObject           *analysis,
                  const NscSlcAnalysis *slc)
{
  JsonArray *points = NULL;
  NscSystemCacheInfo cache = { 0 };
  double threshold;
  guint64 burst = 0;

  if (slc == NULL || !slc->has_cache)
    return;
  run_system_cache (r, &cache);
  /* Between the two levels, on a log scale: fast is what the cache does. */
  threshold = sqrt (slc->in_cache_bps * slc->post_cache_bps);
  /* The longest burst of the drive's own after its cache in the fill (0: none). */
  for (guint b = 0; b < slc->n_bursts; b++)
    burst = MAX (burst, slc->bursts[b].bytes);

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *s = g_ptr_array_index (r->steps, i);
      const NscJobResult *head = headline (s);
      JsonObject *o;
      guint n;
      g_autofree guint64 *pos = NULL;
      g_autofree double *bps = NULL;
      guint64 fast = 0;

      if (!is (s, "cache-recovery") || head == NULL)
        continue;
      n = nsc_series_get_len (head->series);
      pos = g_new (guint64, MAX (n, 1u));
      bps = g_new (double, MAX (n, 1u));
      for (guint k = 0; k < n; k++)
        {
          const NscSample *x = nsc_series_get (head->series, k);
          pos[k] = x->position;
          bps[k] = nsc_sample_bps (x);
        }
      if (points == NULL)
        points = json_array_new ();
      o = json_object_new ();
      json_object_set_int_member (o, "step", i);
      json_object_set_int_member (o, "idle_before_ns", s->idle_before_ns);
      if (nsc_analyze_fast_bytes (pos, bps, n, threshold, &fast, NULL))
        {
          guint64 back_at = 0, back_bytes = 0;

          json_object_set_int_member (o, "fast_bytes", (gint64) fast);
          /* Fast again after the drop, for longer than any burst of the drive's own
           * after its cache in the fill (none when it had none): the drop was a
           * slowdown the speed climbed back from (the host's, or the drive's
           * housekeeping), or the drive freed cache while writing. Which stretch
           * was the cache is not known. */
          if (nsc_analyze_fast_back (pos, bps, n, threshold, &back_at, &back_bytes)
              && (double) back_bytes > 1.5 * (double) burst)
            {
              json_object_set_string_member (o, "verdict", "not-verified");
              json_object_set_string_member (o, "reason", "fast-again");
              json_object_set_int_member (o, "back_at_bytes", (gint64) back_at);
              json_object_set_int_member (o, "back_bytes", (gint64) back_bytes);
            }
          else if (cache.certainty != NSC_SYSTEM_CACHE_NONE)
            {
              /* Memory in front of the drive that may hold writes (a virtual disk's
               * host, a network server) empties while idle too: what came back fast
               * may be its room, not the drive's cache. */
              json_object_set_string_member (o, "verdict", "not-verified");
              json_object_set_string_member (o, "reason", "system-cache");
            }
          else
            json_object_set_string_member (o, "verdict", "measured");
        }
      else
        json_object_set_null_member (o, "fast_bytes");
      json_array_add_object_element (points, o);
    }
  if (points)
    {
      JsonObject *o = json_object_new ();
      set_double (o, "fast_threshold_bps", threshold);
      json_object_set_array_member (o, "points", points);
      json_object_set_object_member (analysis, "cache_recovery", o);
    }
  nsc_system_cache_info_clear (&cache);
}

/* ---- reads that the cache may have served ------------------------------------ */

/* Why alike fresh and settled reads (CrystalDiskMark's way against a control) cannot
 * be called clean, or NULL when they can. The premise: the settled data had left
 * the cache and the fresh data sat in it. For a settled control written over (Quick),
 * against the cache's speed (the faster of the flush's start and the fresh data's
 * write after the pause: a cache still full from earlier writes makes the flush start
 * slow, and the pause then shows what an empty one takes): the flush slowed to
 * NSC_SLC_MIN_DROP or more below it by its end (the cache was full once more than the
 * cache had been written after the settled data; not shown when the span capped it),
 * and the fresh data went in at no less than that speed less the drop (the cache had
 * room again: the pause, or folding while writing, emptied it). For one settled by
 * idle alone: SETTLED_IDLE_NS of it. */
static const char *
inflation_premise (const NscStepResult      *settled,
                   const NscStepResult      *fresh,
                   const NscSystemCacheInfo *cache,
                   double                    f,
                   double                    st)
{
  if (nsc_read_settled_faster (f, st))
    return "settled-faster";
  if (cache->certainty != NSC_SYSTEM_CACHE_NONE)
    return "system-cache";
  if (settled->flush_source)
    {
      double written = isfinite (fresh->data_written_bps) ? fresh->data_written_bps : 0;
      double cache_bps = MAX (settled->flush_first_bps, written);

      if (settled->flush_capped)
        return "flush-capped";
      if (!(settled->flush_first_bps > 0)
          || settled->flush_last_bps >= (1 - NSC_SLC_MIN_DROP) * cache_bps)
        return "cache-not-filled";
      if (!(written >= (1 - NSC_SLC_MIN_DROP) * cache_bps))
        return "fresh-not-in-cache";
      return NULL;
    }
  if (g_strcmp0 (settled->settled_by, "idle") == 0 && settled->idle_since_data_ns >= SETTLED_IDLE_NS)
    return NULL;
  return "cache-may-hold-both";
}

static void
analyze_read_inflation (NscRunResult *r,
                        JsonObject   *analysis)
{
  JsonArray *pairs = NULL;
  NscSystemCacheInfo cache = { 0 };

  run_system_cache (r, &cache);
  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *settled = g_ptr_array_index (r->steps, i);
      const NscJobResult *sh = headline (settled);
      g_autofree char *base = NULL;

      if (!is (settled, "settled-read") || sh == NULL)
        continue;
      base = g_strdup (settled->step.job.label);
      if (g_str_has_suffix (base, " settled"))
        base[strlen (base) - strlen (" settled")] = '\0';

      for (guint j = 0; j < r->steps->len; j++)
        {
          NscStepResult *fresh = g_ptr_array_index (r->steps, j);
          const NscJobResult *fh = headline (fresh);
          double f, st, ratio = 0;
          gboolean faster;
          const char *reason;
          g_autofree char *since = nsc_format_size (settled->bytes_written_since);
          JsonObject *o;

          if (!is (fresh, "fresh-read") || fh == NULL || !g_str_equal (fresh->step.job.label, base))
            continue;
          f = fh->dir[NSC_DIR_READ].bw_bps;
          st = sh->dir[NSC_DIR_READ].bw_bps;

          o = json_object_new ();
          json_object_set_string_member (o, "label", base);
          json_object_set_int_member (o, "fresh_step", j);
          json_object_set_int_member (o, "settled_step", i);
          set_double (o, "fresh_bps", f);
          set_double (o, "settled_bps", st);
          json_object_set_int_member (o, "fresh_data_age_ns", fresh->data_age_ns);
          json_object_set_int_member (o, "settled_data_age_ns", settled->data_age_ns);
          json_object_set_int_member (o, "settled_bytes_written_since",
                                      (gint64) settled->bytes_written_since);
          if (settled->settled_by)
            json_object_set_string_member (o, "settled_by", settled->settled_by);
          if (settled->flush_source)
            {
              json_object_set_string_member (o, "flush_source", settled->flush_source);
              json_object_set_int_member (o, "flush_bytes", (gint64) settled->flush_bytes);
              json_object_set_boolean_member (o, "flush_capped", settled->flush_capped);
              if (settled->flush_first_bps > 0)
                {
                  set_double (o, "flush_first_bps", settled->flush_first_bps);
                  set_double (o, "flush_last_bps", settled->flush_last_bps);
                }
            }
          if (fresh->data_written_bps > 0)
            set_double (o, "fresh_written_bps", fresh->data_written_bps);

          faster = nsc_read_inflation (f, st, &ratio);
          if (faster && cache.certainty == NSC_SYSTEM_CACHE_NONE)
            {
              g_autofree char *msg = nsc_read_inflation_message (f, st, fresh->data_age_ns >= 0
                                                                 ? fresh->data_age_ns / SECOND : -1);
              NscWarning *w = nsc_run_result_add_warning (r, (int) j,
                                                          NSC_WARNING_READ_INFLATION, "%s: %s",
                                                          base, msg);

              w->test = g_strdup (base);
              w->bps_fresh = f;
              w->bps_settled = st;
              if (fresh->data_age_ns >= 0)
                w->seconds = (double) fresh->data_age_ns / SECOND;
              json_object_set_string_member (o, "verdict", "inflated");
            }
          else if (!faster && (reason = inflation_premise (settled, fresh, &cache, f, st)) == NULL)
            /* Alike, and the settled data had left the cache (the flush after it
             * filled the cache, the fresh data went into it again after the idle, or
             * it rested long enough): the fresh reads are clean. */
            json_object_set_string_member (o, "verdict", "not-inflated");
          else
            {
              NscWarning *w;

              if (faster || g_str_equal (reason, "system-cache"))
                {
                  /* Through memory that may hold what was just written (a virtual
                   * disk's host, a network server): fresh reads faster show the same
                   * sign as the drive's cache, and nothing here tells the two apart;
                   * alike, both may have come from that memory. */
                  g_autofree char *via = nsc_system_cache_phrase (&cache);

                  reason = "system-cache";
                  w = nsc_run_result_add_warning (r, (int) j,
                                                  NSC_WARNING_READ_INFLATION_NOT_VERIFIED,
                                                  faster
                                                  ? "%s: fresh data read at %.0f MiB/s, faster than "
                                                    "settled data at %.0f MiB/s, but the reads went "
                                                    "through %s, which may hold data just written in "
                                                    "memory; whether the drive's SLC cache made them "
                                                    "faster is not known"
                                                  : "%s: fresh data read at %.0f MiB/s, settled data "
                                                    "at %.0f MiB/s; the reads went through %s, which "
                                                    "may serve them from memory, so these reads are "
                                                    "not proven to be the drive's",
                                                  base, mib (f), mib (st), via);
                  warning_set_cache (w, &cache);
                }
              else if (g_str_equal (reason, "settled-faster"))
                /* The fresh half went to slower flash (written once the cache was
                 * full on a drive that folds only while idle), or the settled data
                 * never left the cache. */
                w = nsc_run_result_add_warning (r, (int) j, NSC_WARNING_READ_INFLATION_NOT_VERIFIED,
                                                "%s: data left to settle read at %.0f MiB/s, "
                                                "faster than fresh data at %.0f MiB/s, against "
                                                "the check's premise; whether the fresh reads "
                                                "are inflated is not known",
                                                base, mib (st), mib (f));
              else if (g_str_equal (reason, "flush-capped"))
                w = nsc_run_result_add_warning (r, (int) j, NSC_WARNING_READ_INFLATION_NOT_VERIFIED,
                                                "%s: fresh data read at %.0f MiB/s, settled data "
                                                "at %.0f MiB/s; the span let only %s be written "
                                                "after the settled data, less than the cache, "
                                                "which may still hold it",
                                                base, mib (f), mib (st), since);
              else if (g_str_equal (reason, "cache-not-filled") && settled->flush_first_bps > 0)
                {
                  w = nsc_run_result_add_warning (r, (int) j,
                                                  NSC_WARNING_READ_INFLATION_NOT_VERIFIED,
                                                  "%s: fresh data read at %.0f MiB/s, settled data "
                                                  "at %.0f MiB/s; the %s written after the settled "
                                                  "data never slowed down (%.0f MiB/s at its start, "
                                                  "%.0f MiB/s at its end), so the cache was not "
                                                  "seen to fill and may still hold the settled data",
                                                  base, mib (f), mib (st), since,
                                                  mib (settled->flush_first_bps),
                                                  mib (settled->flush_last_bps));
                  w->bps_before = settled->flush_first_bps;
                  w->bps_after = settled->flush_last_bps;
                }
              else if (g_str_equal (reason, "fresh-not-in-cache"))
                {
                  w = nsc_run_result_add_warning (r, (int) j,
                                                  NSC_WARNING_READ_INFLATION_NOT_VERIFIED,
                                                  "%s: fresh data read at %.0f MiB/s, settled data "
                                                  "at %.0f MiB/s; but the fresh data was written at "
                                                  "%.0f MiB/s, below the cache's %.0f MiB/s: it did "
                                                  "not go to the cache, so its reads do not show "
                                                  "what reads right after writing show",
                                                  base, mib (f), mib (st), mib (fresh->data_written_bps),
                                                  mib (settled->flush_first_bps));
                  w->bps_before = settled->flush_first_bps;
                  w->bps_after = fresh->data_written_bps;
                }
              else
                w = nsc_run_result_add_warning (r, (int) j, NSC_WARNING_READ_INFLATION_NOT_VERIFIED,
                                                "%s: fresh data read at %.0f MiB/s, data with %s "
                                                "written after it at %.0f MiB/s; the SLC cache may "
                                                "hold both, so these reads are not proven free of it",
                                                base, mib (f), since, mib (st));
              w->subject = g_strdup (reason);
              w->test = g_strdup (base);
              w->bps_fresh = f;
              w->bps_settled = st;
              w->bytes = (gint64) settled->bytes_written_since;
              json_object_set_string_member (o, "verdict", "not-verified");
              json_object_set_string_member (o, "reason", reason);
            }
          set_double (o, "ratio", ratio);
          if (pairs == NULL)
            pairs = json_array_new ();
          json_array_add_object_element (pairs, o);
        }
    }
  if (pairs)
    json_object_set_array_member (analysis, "read_inflation", pairs);
  nsc_system_cache_info_clear (&cache);
}

/* ---- the other presets' figures ------------------------------------------------ */

static void
analyze_mixed (NscRunResult *r,
               JsonObject   *analysis)
{
  static const char *tags[] = { "mixed-seq", "mixed-rnd" };
  static const char *names[] = { "sequential", "random" };
  JsonObject *mixed = NULL;

  for (guint t = 0; t < G_N_ELEMENTS (tags); t++)
    {
      JsonArray *points = json_array_new ();
      double sum = 0;
      guint n = 0;

      for (guint i = 0; i < r->steps->len; i++)
        {
          NscStepResult *s = g_ptr_array_index (r->steps, i);
          const NscJobResult *head = headline (s);
          JsonObject *p;
          double bw;

          if (!is (s, tags[t]) || head == NULL)
            continue;
          bw = head->dir[0].bw_bps + head->dir[1].bw_bps;
          p = json_object_new ();
          json_object_set_int_member (p, "read_percent", head->job.read_percent);
          set_double (p, "bps", bw);
          json_array_add_object_element (points, p);
          sum += bw;
          n++;
        }
      if (n == 0)
        {
          json_array_unref (points);
          continue;
        }
      if (mixed == NULL)
        mixed = json_object_new ();
      {
        JsonObject *o = json_object_new ();
        set_double (o, "mean_bps", sum / n);
        json_object_set_array_member (o, "points", points);
        json_object_set_object_member (mixed, names[t], o);
      }
    }
  if (mixed)
    json_object_set_object_member (analysis, "mixed", mixed);
}

static int
cmp_double (gconstpointer a,
            gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Worst latency and how long reads stalled after a TRIM: intervals that completed
 * nothing, or whose mean latency was ten times the run's typical one. */
static void
analyze_trim_latency (NscRunResult *r,
                      JsonObject   *analysis)
{
  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *s = g_ptr_array_index (r->steps, i);
      const NscJobResult *head = headline (s);
      g_autoptr(GArray) means = g_array_new (FALSE, FALSE, sizeof (double));
      double typical;
      gint64 stall = 0;
      guint n;
      JsonObject *o;

      if (!is (s, "trim-latency") || head == NULL)
        continue;
      n = nsc_series_get_len (head->series);
      for (guint k = 0; k < n; k++)
        {
          const NscSample *x = nsc_series_get (head->series, k);
          if (x->ios[0])
            {
              double m = (double) x->lat_sum_ns[0] / x->ios[0];
              g_array_append_val (means, m);
            }
        }
      if (means->len == 0)
        continue;
      g_array_sort (means, cmp_double);
      typical = g_array_index (means, double, means->len / 2);
      for (guint k = 0; k < n; k++)
        {
          const NscSample *x = nsc_series_get (head->series, k);
          if (x->ios[0] == 0 || (double) x->lat_sum_ns[0] / x->ios[0] > 10 * typical)
            stall += x->duration_ns;
        }
      o = json_object_new ();
      json_object_set_int_member (o, "step", i);
      json_object_set_int_member (o, "worst_latency_ns", (gint64) head->dir[0].latency->max);
      set_double (o, "typical_latency_ns", typical);
      json_object_set_int_member (o, "stall_ns", stall);
      json_object_set_object_member (analysis, "trim_latency", o);
      return;
    }
}

/* SNIA PTS steady state over one-minute rounds of a sustained write. */
static void
analyze_degradation (NscRunResult *r,
                     JsonObject   *analysis)
{
  JsonObject *o = NULL;

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *s = g_ptr_array_index (r->steps, i);
      const NscJobResult *head = headline (s);

      if (head == NULL)
        continue;
      if (is (s, "degradation"))
        {
          g_autoptr(GArray) rounds = g_array_new (FALSE, FALSE, sizeof (double));
          const gint64 round_ns = G_GINT64_CONSTANT (60) * 1000000000;
          guint64 bytes = 0;
          gint64 t = 0;
          int steady;

          for (guint k = 0; k < nsc_series_get_len (head->series); k++)
            {
              const NscSample *x = nsc_series_get (head->series, k);
              bytes += x->bytes[1];
              t += x->duration_ns;
              if (t >= round_ns)
                {
                  double v = bytes * SECOND / t;
                  g_array_append_val (rounds, v);
                  bytes = 0;
                  t = 0;
                }
            }
          o = o ? o : json_object_new ();
          json_object_set_int_member (o, "step", i);
          set_double (o, "bps", head->dir[1].bw_bps);
          json_object_set_int_member (o, "rounds", rounds->len);
          steady = nsc_steady_state ((const double *) (void *) rounds->data, rounds->len);
          if (steady >= 0)
            {
              json_object_set_int_member (o, "steady_state_round", steady);
              json_object_set_int_member (o, "steady_state_after_ns", (gint64) (steady + 1) * round_ns);
              set_double (o, "steady_state_bps", g_array_index (rounds, double, steady));
            }
          else
            json_object_set_null_member (o, "steady_state_round");
        }
      else if (is (s, "recovery-idle") || is (s, "recovery-trim"))
        {
          o = o ? o : json_object_new ();
          set_double (o, is (s, "recovery-idle") ? "after_idle_bps" : "after_trim_bps",
                      head->dir[1].bw_bps);
        }
    }
  if (o)
    json_object_set_object_member (analysis, "degradation", o);
}

static void
analyze_thermal (NscRunResult *r,
                 JsonObject   *analysis)
{
  JsonArray *events = NULL;

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *s = g_ptr_array_index (r->steps, i);
      const NscJobResult *head = headline (s);
      g_autoptr(GArray) found = NULL;
      NscThermalInput in = { 0 };
      guint n, nt;
      g_autofree double *t = NULL, *bps = NULL, *tt = NULL, *c = NULL;

      if (!is (s, "thermal") || head == NULL || s->temperature->len < 2)
        continue;
      n = nsc_series_get_len (head->series);
      nt = s->temperature->len;
      t = g_new (double, MAX (n, 1u));
      bps = g_new (double, MAX (n, 1u));
      tt = g_new (double, nt);
      c = g_new (double, nt);
      for (guint k = 0; k < n; k++)
        {
          const NscSample *x = nsc_series_get (head->series, k);
          t[k] = x->t_ns / SECOND;
          bps[k] = nsc_sample_bps (x);
        }
      for (guint k = 0; k < nt; k++)
        {
          tt[k] = g_array_index (s->temperature, NscTempSample, k).t_ns / SECOND;
          c[k] = g_array_index (s->temperature, NscTempSample, k).celsius;
        }
      in.t_s = t;
      in.bps = bps;
      in.n = n;
      in.temp_t_s = tt;
      in.celsius = c;
      in.n_temp = nt;
      found = nsc_detect_throttling (&in, NULL);
      for (guint k = 0; found && k < found->len; k++)
        {
          NscThrottleEvent *e = &g_array_index (found, NscThrottleEvent, k);
          JsonObject *o = json_object_new ();

          json_object_set_int_member (o, "step", i);
          set_double (o, "t_s", e->t_s);
          set_double (o, "bps_before", e->bps_before);
          set_double (o, "bps_after", e->bps_after);
          set_double (o, "celsius", e->celsius);
          if (events == NULL)
            events = json_array_new ();
          json_array_add_object_element (events, o);
          {
            NscWarning *w;

            w = nsc_run_result_add_warning (r, (int) i, NSC_WARNING_THERMAL_THROTTLING,
                                            "%s: the speed fell from %.0f to %.0f MiB/s after "
                                            "%.0f s, at %.0f °C: the drive throttles",
                                            s->step.job.label, mib (e->bps_before),
                                            mib (e->bps_after), e->t_s, e->celsius);
            w->test = g_strdup (s->step.job.label);
            w->bps_before = e->bps_before;
            w->bps_after = e->bps_after;
            w->seconds = e->t_s;
            w->celsius = e->celsius;
          }
        }
    }
  if (events)
    json_object_set_array_member (analysis, "throttling", events);
}

/* A controller that compresses, or skips zero blocks, writes such data faster. */
static void
analyze_compressibility (NscRunResult *r,
                         JsonObject   *analysis)
{
  double bps[3] = { 0, 0, 0 }; /* by NscDataPattern */
  JsonObject *o;

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *s = g_ptr_array_index (r->steps, i);
      const NscJobResult *head = headline (s);

      if (is (s, "compressibility") && head && head->job.data < G_N_ELEMENTS (bps))
        bps[head->job.data] = head->dir[NSC_DIR_WRITE].bw_bps;
    }
  if (bps[NSC_DATA_RANDOM] <= 0)
    return;
  o = json_object_new ();
  set_double (o, "random_bps", bps[NSC_DATA_RANDOM]);
  set_double (o, "compressible_bps", bps[NSC_DATA_COMPRESSIBLE]);
  set_double (o, "zeros_bps", bps[NSC_DATA_ZEROS]);
  json_object_set_object_member (analysis, "compressibility", o);

  if (bps[NSC_DATA_ZEROS] > 1.3 * bps[NSC_DATA_RANDOM]
      || bps[NSC_DATA_COMPRESSIBLE] > 1.3 * bps[NSC_DATA_RANDOM])
    {
      NscWarning *w;

      w = nsc_run_result_add_warning (r, -1, NSC_WARNING_COMPRESSING_CONTROLLER,
                                      "The drive writes compressible data faster (%.0f MiB/s "
                                      "random, %.0f MiB/s half compressible, %.0f MiB/s zeros): "
                                      "its controller compresses or skips zeros, and benchmarks "
                                      "that write such data overstate it",
                                      mib (bps[NSC_DATA_RANDOM]),
                                      mib (bps[NSC_DATA_COMPRESSIBLE]), mib (bps[NSC_DATA_ZEROS]));
      w->bps_random = bps[NSC_DATA_RANDOM];
      w->bps_compressible = bps[NSC_DATA_COMPRESSIBLE];
      w->bps_zeros = bps[NSC_DATA_ZEROS];
    }
}

/* ---- capacity and integrity ------------------------------------------------- */

/* A verdict's first members: what was found, on what evidence. */
static JsonObject *
capacity_new (const char *verdict,
              gboolean    complete,
              const char *coverage,
              guint64     reported,
              guint64     checked,
              guint64     usable,
              guint64     bad)
{
  JsonObject *o = json_object_new ();

  json_object_set_string_member (o, "verdict", verdict);
  json_object_set_boolean_member (o, "complete", complete);
  json_object_set_string_member (o, "coverage", coverage);
  json_object_set_int_member (o, "reported_bytes", (gint64) reported);
  json_object_set_int_member (o, "checked_bytes", (gint64) checked);
  json_object_set_int_member (o, "usable_bytes", (gint64) usable);
  json_object_set_int_member (o, "bad_bytes", (gint64) bad);
  return o;
}

/* What a check's reads found, into @o: the bytes of each kind, the first bad block and
 * its kind, the aliasing block, its echo and the period, and the slow reads (blocks the
 * drive read only after ten times the usual time). Offsets are from @base. */
static void
add_tally (JsonObject           *o,
           const NscVerifyTally *v,
           guint64               base,
           guint                 block_size)
{
  NscVerifySlow slow;
  guint64 bad = nsc_verify_bad_blocks (v) * NSC_VERIFY_UNIT;

  for (int k = NSC_VERIFY_OK + 1; k < NSC_VERIFY_N_KINDS; k++)
    {
      g_autofree char *name = g_strconcat (nsc_verify_kind_name (k), "_bytes", NULL);

      json_object_set_int_member (o, name, (gint64) (v->blocks[k] * NSC_VERIFY_UNIT));
    }
  if (bad > 0 && v->first_bad >= base)
    {
      json_object_set_int_member (o, "first_bad_offset", (gint64) (v->first_bad - base));
      json_object_set_string_member (o, "first_bad_kind", nsc_verify_kind_name (v->first_bad_kind));
    }
  if (v->alias_period > 0)
    {
      json_object_set_int_member (o, "alias_offset", (gint64) (v->alias_offset - base));
      json_object_set_int_member (o, "alias_echo", (gint64) (v->alias_echo - base));
      json_object_set_int_member (o, "alias_period", (gint64) v->alias_period);
    }
  nsc_verify_slow (v, &slow);
  if (slow.reads > 0)
    {
      json_object_set_int_member (o, "read_median_ns", (gint64) slow.median_ns);
      json_object_set_int_member (o, "slow_threshold_ns", (gint64) slow.threshold_ns);
      json_object_set_int_member (o, "slow_bytes", (gint64) (slow.slow_reads * block_size));
      if (slow.slow_reads > 0 && slow.first_offset >= base)
        json_object_set_int_member (o, "first_slow_offset", (gint64) (slow.first_offset - base));
      json_object_set_int_member (o, "slowest_read_ns", (gint64) slow.slowest_ns);
      if (slow.slowest_offset >= base)
        json_object_set_int_member (o, "slowest_offset", (gint64) (slow.slowest_offset - base));
    }
}

/* The verdict of a check (the `verify` preset): its write step filled the region with
 * data that names its place and the run, its read step ("analysis": "verify") read it
 * all back. Evidence first: a verdict only when the read covered the whole region
 * after a complete write; else "not-verified" with what was checked.
 *   verified      every block read back as written;
 *   wraps         most bad blocks hold this run's data of another offset: the drive
 *                 stores alias_period bytes and lands writes past them on earlier ones;
 *   loses-writes  from the first bad block on, most blocks are bad (zeros, other or
 *                 earlier data): the drive keeps about that many bytes;
 *   damaged       bad blocks scattered among good ones (damaged, unreadable). */
static gboolean
analyze_capacity_whole (NscRunResult *r,
                        JsonObject   *analysis)
{
  const NscJobResult *wrote = NULL, *rewrote = NULL, *read = NULL;
  const NscVerifyTally *v;
  guint64 reported, checked = 0, bad, first = 0, usable = 0;
  gboolean complete;
  const char *verdict;
  JsonObject *o;

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *s = g_ptr_array_index (r->steps, i);
      const NscJobResult *head = headline (s);

      if (head == NULL || head->job.data != NSC_DATA_VERIFY || s->step.kind == NSC_STEP_SURFACE)
        continue;
      if (head->verified && is (s, "verify"))
        read = head;
      else if (nsc_job_has_writes (&head->job) && wrote == NULL)
        wrote = head;
      else if (nsc_job_has_writes (&head->job) && read == NULL)
        rewrote = head;
    }
  if (read == NULL && wrote != NULL)
    {
      /* Checked data written, and the run ended (cancelled, failed, the drive gone)
       * before any of it was read back: nothing is verified. */
      o = capacity_new ("not-verified", FALSE, "whole", wrote->job.region_length, 0, 0, 0);
      json_object_set_object_member (analysis, "capacity", o);
      return TRUE;
    }
  if (read == NULL)
    return FALSE;
  v = &read->verify;
  reported = read->job.region_length;
  for (int k = 0; k < NSC_VERIFY_N_KINDS; k++)
    checked += v->blocks[k] * NSC_VERIFY_UNIT;
  bad = nsc_verify_bad_blocks (v) * NSC_VERIFY_UNIT;
  complete = wrote != NULL && !wrote->cancelled && wrote->error_errno == 0
             && wrote->dir[NSC_DIR_WRITE].bytes >= reported
             && wrote->job.region_offset == read->job.region_offset
             && !read->cancelled && read->error_errno == 0 && checked >= reported;
  if (v->first_bad != G_MAXUINT64 && v->first_bad >= read->job.region_offset)
    first = v->first_bad - read->job.region_offset;

  if (!complete)
    verdict = "not-verified", usable = bad ? first : checked;
  else if (bad == 0)
    verdict = "verified", usable = reported;
  else
    {
      /* Every block before the first bad one read back right. */
      guint64 ok_after = v->blocks[NSC_VERIFY_OK] * NSC_VERIFY_UNIT - MIN (first, v->blocks[NSC_VERIFY_OK] * NSC_VERIFY_UNIT);
      guint64 alias = v->blocks[NSC_VERIFY_ALIAS] * NSC_VERIFY_UNIT;

      if (v->alias_period > 0 && alias * 2 >= bad)
        verdict = "wraps", usable = MIN (v->alias_period, reported);
      else if (bad >= ok_after)
        verdict = "loses-writes", usable = first;
      else
        verdict = "damaged", usable = first;
    }

  o = capacity_new (verdict, complete, "whole", reported, checked, usable, bad);
  /* Rewritten last, before the read: a drive's own cache of recent writes holds these,
   * not the region's end, whose loss it could otherwise hide. */
  json_object_set_int_member (o, "rewritten_bytes",
                              rewrote ? (gint64) rewrote->dir[NSC_DIR_WRITE].bytes : 0);
  add_tally (o, v, read->job.region_offset, read->job.block_size);
  json_object_set_object_member (analysis, "capacity", o);
  return TRUE;
}

/* The same check on places only (a surface scan's writes read back, with --verify):
 * what the places held, never more. A sample cannot show that every block holds its
 * data, nor exactly where a fake drive's real capacity ends:
 *   sample-verified  every place read back as written: as far as a sample can tell;
 *   wraps            most bad blocks hold another place's data: the drive stores at
 *                    most the smallest distance between a place and its echo;
 *   loses-writes     every place from the first bad one on is mostly bad: the drive
 *                    keeps at most up to there;
 *   damaged          bad blocks at places between good ones;
 *   not-verified     a place was not written or read whole. */
static void
analyze_capacity_places (NscRunResult *r,
                         JsonObject   *analysis)
{
  const NscStepResult *wrote = NULL, *read = NULL;
  const NscJobResult *first_run, *last_run;
  NscVerifyTally v;
  guint64 base, reported, checked = 0, bad, first = 0, usable = 0;
  gboolean complete, tail_bad = TRUE, seen_bad = FALSE;
  const char *verdict;
  JsonObject *o;

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *s = g_ptr_array_index (r->steps, i);
      const NscJobResult *j;

      if (s->step.kind != NSC_STEP_SURFACE || s->skipped || s->runs->len == 0)
        continue;
      j = g_ptr_array_index (s->runs, 0);
      if (j->job.data != NSC_DATA_VERIFY)
        continue;
      if (j->verified)
        read = s;
      else if (nsc_job_has_writes (&j->job) && read == NULL)
        wrote = s;
    }
  if (read == NULL && wrote != NULL)
    {
      /* Places written, none read back (the run ended first): nothing is verified. */
      const NscJobResult *a = g_ptr_array_index (wrote->runs, 0);
      const NscJobResult *z = g_ptr_array_index (wrote->runs, wrote->runs->len - 1);

      reported = wrote->step.job.region_length > 0 ? wrote->step.job.region_length
                 : z->job.region_offset + z->job.region_length - a->job.region_offset;
      o = capacity_new ("not-verified", FALSE, "places", reported, 0, 0, 0);
      json_object_set_int_member (o, "places", wrote->step.points);
      json_object_set_object_member (analysis, "capacity", o);
      return;
    }
  if (read == NULL)
    return;

  nsc_verify_tally_init (&v);
  complete = wrote != NULL && wrote->runs->len == read->runs->len
             && read->runs->len == read->step.points;
  for (guint p = 0; p < read->runs->len; p++)
    {
      const NscJobResult *j = g_ptr_array_index (read->runs, p);
      const NscJobResult *w = wrote && p < wrote->runs->len ? g_ptr_array_index (wrote->runs, p) : NULL;
      guint64 place_checked = 0, place_bad = nsc_verify_bad_blocks (&j->verify);

      for (int k = 0; k < NSC_VERIFY_N_KINDS; k++)
        place_checked += j->verify.blocks[k];
      nsc_verify_merge (&v, &j->verify);
      complete = complete && w != NULL && !w->cancelled && w->error_errno == 0
                 && w->job.region_offset == j->job.region_offset
                 && w->dir[NSC_DIR_WRITE].bytes >= j->job.region_length
                 && !j->cancelled && j->error_errno == 0
                 && place_checked * NSC_VERIFY_UNIT >= j->job.region_length;
      /* After the first bad place (which may hold the real end part way): are all
       * mostly bad? */
      if (seen_bad && place_bad * 2 < place_checked)
        tail_bad = FALSE;
      if (place_bad > 0)
        seen_bad = TRUE;
    }
  first_run = g_ptr_array_index (read->runs, 0);
  last_run = g_ptr_array_index (read->runs, read->runs->len - 1);
  base = first_run->job.region_offset;
  /* What the scan spread its places over (the drive, as it reports it). */
  reported = read->step.job.region_length > 0 ? read->step.job.region_length
             : last_run->job.region_offset + last_run->job.region_length - base;
  for (int k = 0; k < NSC_VERIFY_N_KINDS; k++)
    checked += v.blocks[k] * NSC_VERIFY_UNIT;
  bad = nsc_verify_bad_blocks (&v) * NSC_VERIFY_UNIT;
  if (v.first_bad != G_MAXUINT64 && v.first_bad >= base)
    first = v.first_bad - base;

  if (!complete)
    verdict = "not-verified", usable = bad ? first : checked;
  else if (bad == 0)
    verdict = "sample-verified", usable = reported;
  else if (v.alias_period > 0 && v.blocks[NSC_VERIFY_ALIAS] * NSC_VERIFY_UNIT * 2 >= bad)
    verdict = "wraps", usable = MIN (v.alias_period, reported);
  else if (tail_bad)
    verdict = "loses-writes", usable = first;
  else
    verdict = "damaged", usable = first;

  o = capacity_new (verdict, complete, "places", reported, checked, usable, bad);
  json_object_set_int_member (o, "places", read->runs->len);
  add_tally (o, &v, base, first_run->job.block_size);
  json_object_set_object_member (analysis, "capacity", o);
}

/* The quick probe's verdict (a probe step): what its places held, past the drive's
 * own cache.
 *   probe-passed   every place kept its data: good as far as a probe can tell (a drive
 *                  that maps its flash as it is written passes too);
 *   wraps          writes past usable_bytes land on earlier blocks (the period);
 *   loses-writes   blocks from usable_bytes on do not keep their data;
 *   damaged        places that lost their data between places that kept it;
 *   not-verified   the probe did not end (cancelled, failed, the drive gone). */
static gboolean
analyze_capacity_probe (NscRunResult *r,
                        JsonObject   *analysis)
{
  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *s = g_ptr_array_index (r->steps, i);
      JsonObject *p, *o;
      const char *verdict;
      JsonArray *places;
      guint64 checked = 0, bad = 0, first = G_MAXUINT64;

      if (s->step.kind != NSC_STEP_PROBE || s->skipped || !s->started)
        continue;
      if (s->probe == NULL)
        {
          o = capacity_new ("not-verified", FALSE, "probe", r->target_size, 0, 0, 0);
          json_object_set_int_member (o, "bytes_written", (gint64) s->probe_written);
          json_object_set_object_member (analysis, "capacity", o);
          return TRUE;
        }
      p = json_node_get_object (s->probe);
      places = json_object_get_array_member (p, "places");
      for (guint k = 0; places && k < json_array_get_length (places); k++)
        {
          JsonArray *place = json_array_get_array_element (places, k);
          guint64 at = (guint64) json_array_get_int_element (place, 0);

          checked += NSC_VERIFY_UNIT;
          if (g_strcmp0 (json_array_get_string_element (place, 1), "ok") != 0)
            {
              bad += NSC_VERIFY_UNIT;
              first = MIN (first, at);
            }
        }
      verdict = json_object_get_string_member (p, "verdict");
      if (g_strcmp0 (verdict, "good") == 0)
        verdict = "probe-passed";
      o = capacity_new (verdict, TRUE, "probe",
                        (guint64) json_object_get_int_member (p, "reported_bytes"), checked,
                        (guint64) json_object_get_int_member (p, "usable_bytes"), bad);
      json_object_set_int_member (o, "places", places ? json_array_get_length (places) : 0);
      if (first != G_MAXUINT64)
        json_object_set_int_member (o, "first_bad_offset", (gint64) first);
      if (json_object_has_member (p, "alias_period"))
        json_object_set_int_member (o, "alias_period", json_object_get_int_member (p, "alias_period"));
      json_object_set_int_member (o, "cache_bytes", json_object_get_int_member (p, "cache_bytes"));
      json_object_set_boolean_member (o, "cache_beyond", json_object_get_boolean_member (p, "cache_beyond"));
      json_object_set_int_member (o, "cache_max", json_object_get_int_member (p, "cache_max"));
      json_object_set_int_member (o, "bytes_written", json_object_get_int_member (p, "bytes_written"));
      if (json_object_has_member (p, "write_bps"))
        json_object_set_double_member (o, "write_bps", json_object_get_double_member (p, "write_bps"));
      json_object_set_object_member (analysis, "capacity", o);
      return TRUE;
    }
  return FALSE;
}

static void
analyze_capacity (NscRunResult *r,
                  JsonObject   *analysis)
{
  if (!analyze_capacity_probe (r, analysis) && !analyze_capacity_whole (r, analysis))
    analyze_capacity_places (r, analysis);
}

void
nsc_run_result_analyze (NscRunResult *r)
{
  JsonObject *analysis = json_object_new ();
  g_autoptr(NscSlcAnalysis) slc = NULL;
  g_autoptr(NscSlcAnalysis) second = NULL;
  g_autoptr(NscSlcAnalysis) copy_slc = NULL;

  g_return_if_fail (r != NULL);

  slc = analyze_fill (r, analysis, "write-fill", "slc");
  second = analyze_fill (r, analysis, "write-fill-second", "slc_second_pass");
  g_clear_pointer (&copy_slc, nsc_slc_analysis_free);
  copy_slc = analyze_fill (r, analysis, "copy", "copy");
  label_writes (r, analysis, slc);
  analyze_recovery (r, analysis, slc);
  analyze_read_inflation (r, analysis);
  analyze_mixed (r, analysis);
  analyze_trim_latency (r, analysis);
  analyze_degradation (r, analysis);
  analyze_thermal (r, analysis);
  analyze_compressibility (r, analysis);
  analyze_capacity (r, analysis);

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *s = g_ptr_array_index (r->steps, i);
      s->fresh_data = s->data_age_ns >= 0 && s->data_age_ns < FRESH_DATA_NS;
    }

  g_clear_pointer (&r->analysis, json_node_unref);
  r->analysis = json_node_init_object (json_node_alloc (), analysis);
  json_object_unref (analysis);
}

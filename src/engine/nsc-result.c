/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>
#include <sys/utsname.h>

#include "nsc-error.h"
#include "nsc-result.h"
#include "nsc-result-file.h"

NscRunResult *
nsc_run_result_new (void)
{
  NscRunResult *r = g_new0 (NscRunResult, 1);

  r->steps = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_step_result_free);
  r->warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_warning_free);
  return r;
}

void
nsc_run_result_free (NscRunResult *r)
{
  if (r == NULL)
    return;
  g_free (r->preset_name);
  g_free (r->preset_title);
  g_free (r->target_path);
  g_free (r->target_kind);
  g_free (r->target_description);
  g_free (r->filesystem);
  g_free (r->caveat);
  nsc_system_cache_info_clear (&r->system_cache);
  g_free (r->backend_requested);
  g_free (r->precondition);
  g_clear_pointer (&r->started, g_date_time_unref);
  g_ptr_array_unref (r->steps);
  g_ptr_array_unref (r->warnings);
  g_clear_pointer (&r->smart_before, json_node_unref);
  g_clear_pointer (&r->smart_after, json_node_unref);
  g_free (r->error);
  g_clear_pointer (&r->device, json_node_unref);
  g_clear_pointer (&r->analysis, json_node_unref);
  g_clear_pointer (&r->bench, json_node_unref);
  g_free (r);
}

void
nsc_run_result_set_device (NscRunResult *r,
                           JsonNode     *facts)
{
  g_clear_pointer (&r->device, json_node_unref);
  r->device = facts;
}

void
nsc_run_result_set_bench (NscRunResult *r,
                          JsonNode     *bench)
{
  g_clear_pointer (&r->bench, json_node_unref);
  r->bench = bench;
}

void
nsc_run_result_set_smart (NscRunResult *r,
                          JsonNode     *before,
                          JsonNode     *after)
{
  g_clear_pointer (&r->smart_before, json_node_unref);
  g_clear_pointer (&r->smart_after, json_node_unref);
  r->smart_before = before;
  r->smart_after = after;
}

guint64
nsc_run_result_bytes_written (const NscRunResult *r)
{
  guint64 total = r->setup_bytes_written;

  for (guint i = 0; i < r->steps->len; i++)
    {
      const NscStepResult *s = g_ptr_array_index (r->steps, i);

      total += s->prefilled_bytes + s->probe_written;
      /* A copy wrote its source first, as much as it copied. */
      for (guint k = 0; s->runs && k < s->runs->len; k++)
        total += ((const NscJobResult *) g_ptr_array_index (s->runs, k))->dir[NSC_DIR_WRITE].bytes
                 * (s->step.kind == NSC_STEP_COPY ? 2 : 1);
    }
  return total;
}

NscWarning *
nsc_run_result_add_warning (NscRunResult *r,
                            int            step,
                            NscWarningKind kind,
                            const char    *format,
                            ...)
{
  NscWarning *w = nsc_warning_new (kind, step);
  va_list args;

  va_start (args, format);
  w->message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (r->warnings, w);
  return w;
}

void
nsc_run_result_take_warning (NscRunResult *r,
                             NscWarning   *warning)
{
  g_ptr_array_add (r->warnings, warning);
}

NscStepResult *
nsc_step_result_new (const NscStep *step)
{
  NscStepResult *r = g_new0 (NscStepResult, 1);

  r->step = *step;
  r->runs = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_job_result_free);
  r->temperature = g_array_new (FALSE, FALSE, sizeof (NscTempSample));
  r->data_age_ns = -1;
  return r;
}

void
nsc_step_result_free (NscStepResult *r)
{
  if (r == NULL)
    return;
  g_ptr_array_unref (r->runs);
  g_array_unref (r->temperature);
  g_free (r->erase_method);
  g_clear_pointer (&r->probe, json_node_unref);
  g_free (r->error);
  g_free (r);
}

static double
total_bw (const NscJobResult *j)
{
  return j->dir[0].bw_bps + j->dir[1].bw_bps;
}

static int
compare_bw (gconstpointer a,
            gconstpointer b)
{
  double x = total_bw (*(NscJobResult * const *) a);
  double y = total_bw (*(NscJobResult * const *) b);

  return x < y ? -1 : x > y;
}

const NscJobResult *
nsc_step_result_headline (const NscStepResult *r)
{
  g_autoptr(GPtrArray) sorted = NULL;

  if (r->runs->len == 0)
    return NULL;
  /* Not g_ptr_array_copy: it would carry over the free function. */
  sorted = g_ptr_array_sized_new (r->runs->len);
  for (guint i = 0; i < r->runs->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (r->runs, i));
  g_ptr_array_sort (sorted, compare_bw);
  if (r->headline_best)
    return g_ptr_array_index (sorted, sorted->len - 1);
  return g_ptr_array_index (sorted, (sorted->len - 1) / 2);
}

/* ---- JSON ---------------------------------------------------------------- */

static void
add_dir (JsonBuilder       *b,
         const char        *name,
         const NscDirStats *d)
{
  const NscHistogram *h = d->latency;

  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "bytes");
  json_builder_add_int_value (b, (gint64) d->bytes);
  json_builder_set_member_name (b, "ios");
  json_builder_add_int_value (b, (gint64) d->ios);
  json_builder_set_member_name (b, "bw_bps");
  json_builder_add_double_value (b, d->bw_bps);
  json_builder_set_member_name (b, "iops");
  json_builder_add_double_value (b, d->iops);
  json_builder_set_member_name (b, "lat_ns");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "min");
  json_builder_add_int_value (b, h ? (gint64) h->min : 0);
  json_builder_set_member_name (b, "max");
  json_builder_add_int_value (b, h ? (gint64) h->max : 0);
  json_builder_set_member_name (b, "mean");
  json_builder_add_double_value (b, h ? nsc_histogram_mean (h) : 0);
  json_builder_set_member_name (b, "percentiles");
  json_builder_begin_object (b);
  for (guint i = 0; h && h->count && i < nsc_histogram_n_standard_percentiles; i++)
    {
      char key[32];
      g_ascii_formatd (key, sizeof key, "%g", nsc_histogram_standard_percentiles[i]);
      json_builder_set_member_name (b, key);
      json_builder_add_int_value (b, (gint64) nsc_histogram_percentile (h, nsc_histogram_standard_percentiles[i]));
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
  json_builder_end_object (b);
}

typedef guint64 (*SampleField) (const NscSample *s);
static guint64 f_t (const NscSample *s) { return (guint64) s->t_ns; }
static guint64 f_dur (const NscSample *s) { return (guint64) s->duration_ns; }
static guint64 f_rb (const NscSample *s) { return s->bytes[0]; }
static guint64 f_wb (const NscSample *s) { return s->bytes[1]; }
static guint64 f_ri (const NscSample *s) { return s->ios[0]; }
static guint64 f_wi (const NscSample *s) { return s->ios[1]; }
static guint64 f_rl (const NscSample *s) { return s->ios[0] ? s->lat_sum_ns[0] / s->ios[0] : 0; }
static guint64 f_wl (const NscSample *s) { return s->ios[1] ? s->lat_sum_ns[1] / s->ios[1] : 0; }
static guint64 f_lmax (const NscSample *s) { return s->lat_max_ns; }
static guint64 f_pos (const NscSample *s) { return s->position; }

static void
add_series (JsonBuilder *b,
            NscSeries   *series,
            gint64       interval_ns,
            guint64      sample_bytes)
{
  static const struct { const char *name; SampleField get; } cols[] = {
    { "t_ns", f_t }, { "duration_ns", f_dur },
    { "read_bytes", f_rb }, { "write_bytes", f_wb },
    { "read_ios", f_ri }, { "write_ios", f_wi },
    { "read_lat_mean_ns", f_rl }, { "write_lat_mean_ns", f_wl },
    { "lat_max_ns", f_lmax }, { "position", f_pos },
  };
  guint n = series ? nsc_series_get_len (series) : 0;

  json_builder_set_member_name (b, "series");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "interval_ns");
  json_builder_add_int_value (b, interval_ns * (series ? nsc_series_get_merge_factor (series) : 1));
  /* Samples may also end whenever this much was done (a write-fill's points). */
  json_builder_set_member_name (b, "sample_bytes");
  json_builder_add_int_value (b, (gint64) sample_bytes * (series ? nsc_series_get_merge_factor (series) : 1));
  for (guint c = 0; c < G_N_ELEMENTS (cols); c++)
    {
      json_builder_set_member_name (b, cols[c].name);
      json_builder_begin_array (b);
      for (guint i = 0; i < n; i++)
        json_builder_add_int_value (b, (gint64) cols[c].get (nsc_series_get (series, i)));
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
}

static void
add_job (JsonBuilder  *b,
         const NscJob *job)
{
  json_builder_set_member_name (b, "job");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "rw");
  json_builder_add_string_value (b, nsc_job_get_rw (job));
  json_builder_set_member_name (b, "pattern");
  json_builder_add_string_value (b, job->pattern == NSC_PATTERN_RANDOM ? "random" : "sequential");
  json_builder_set_member_name (b, "read_percent");
  json_builder_add_int_value (b, job->read_percent);
  json_builder_set_member_name (b, "block_size");
  json_builder_add_int_value (b, (gint64) job->block_size);
  json_builder_set_member_name (b, "queue_depth");
  json_builder_add_int_value (b, job->queue_depth);
  json_builder_set_member_name (b, "workers");
  json_builder_add_int_value (b, job->workers);
  json_builder_set_member_name (b, "shared_region");
  json_builder_add_boolean_value (b, job->shared_region);
  json_builder_set_member_name (b, "region_offset");
  json_builder_add_int_value (b, (gint64) job->region_offset);
  json_builder_set_member_name (b, "region_length");
  json_builder_add_int_value (b, (gint64) job->region_length);
  json_builder_set_member_name (b, "time_ns");
  json_builder_add_int_value (b, job->time_ns);
  json_builder_set_member_name (b, "bytes");
  json_builder_add_int_value (b, (gint64) job->bytes);
  json_builder_set_member_name (b, "once");
  json_builder_add_boolean_value (b, job->once);
  json_builder_set_member_name (b, "ramp_ns");
  json_builder_add_int_value (b, job->ramp_ns);
  json_builder_set_member_name (b, "data");
  json_builder_add_string_value (b, nsc_data_pattern_to_string (job->data));
  json_builder_end_object (b);
}

/* What a checked read found (NSC_DATA_VERIFY): bytes of each kind of block, the first
 * bad one, and for a drive that wraps, its first aliasing block, the offset it echoed
 * and the smallest such distance. */
static void
add_verify (JsonBuilder          *b,
            const NscVerifyTally *v)
{
  json_builder_begin_object (b);
  for (int k = 0; k < NSC_VERIFY_N_KINDS; k++)
    {
      g_autofree char *name = g_strconcat (nsc_verify_kind_name (k), "_bytes", NULL);

      json_builder_set_member_name (b, name);
      json_builder_add_int_value (b, (gint64) (v->blocks[k] * NSC_VERIFY_UNIT));
    }
  if (v->first_bad != G_MAXUINT64)
    {
      json_builder_set_member_name (b, "first_bad_offset");
      json_builder_add_int_value (b, (gint64) v->first_bad);
      json_builder_set_member_name (b, "first_bad_kind");
      json_builder_add_string_value (b, nsc_verify_kind_name (v->first_bad_kind));
    }
  if (v->alias_period)
    {
      json_builder_set_member_name (b, "alias_offset");
      json_builder_add_int_value (b, (gint64) v->alias_offset);
      json_builder_set_member_name (b, "alias_echo");
      json_builder_add_int_value (b, (gint64) v->alias_echo);
      json_builder_set_member_name (b, "alias_period");
      json_builder_add_int_value (b, (gint64) v->alias_period);
    }
  json_builder_set_member_name (b, "corrupt_bits");
  json_builder_add_int_value (b, (gint64) v->corrupt_bits);
  json_builder_end_object (b);
}

static void
add_run_summary (JsonBuilder        *b,
                 const NscJobResult *j)
{
  g_autoptr(GDateTime) start = g_date_time_new_from_unix_utc (j->start_time_us / G_USEC_PER_SEC);
  g_autofree char *iso = start ? g_date_time_format_iso8601 (start) : NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "started");
  json_builder_add_string_value (b, iso ? iso : "");
  json_builder_set_member_name (b, "backend");
  json_builder_add_string_value (b, nsc_backend_to_string (j->backend));
  if (j->backend_note)
    {
      json_builder_set_member_name (b, "backend_note");
      json_builder_add_string_value (b, j->backend_note);
    }
  json_builder_set_member_name (b, "registered_buffers");
  json_builder_add_boolean_value (b, j->registered_buffers);
  json_builder_set_member_name (b, "runtime_ns");
  json_builder_add_int_value (b, j->runtime_ns);
  json_builder_set_member_name (b, "region_offset");
  json_builder_add_int_value (b, (gint64) j->job.region_offset);
  json_builder_set_member_name (b, "cancelled");
  json_builder_add_boolean_value (b, j->cancelled);
  json_builder_set_member_name (b, "ios_after_stop");
  json_builder_add_int_value (b, (gint64) j->ios_after_stop);
  json_builder_set_member_name (b, "drain_ns");
  json_builder_add_int_value (b, j->drain_ns);
  if (j->error_errno)
    {
      json_builder_set_member_name (b, "error_errno");
      json_builder_add_int_value (b, j->error_errno);
      json_builder_set_member_name (b, "error_offset");
      json_builder_add_int_value (b, (gint64) j->error_offset);
    }
  if (j->verified)
    {
      json_builder_set_member_name (b, "verify");
      add_verify (b, &j->verify);
    }
  add_dir (b, "read", &j->dir[NSC_DIR_READ]);
  add_dir (b, "write", &j->dir[NSC_DIR_WRITE]);
  json_builder_end_object (b);
}

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
add_temperature (JsonBuilder         *b,
                 const NscStepResult *s)
{
  if (s->temperature->len == 0)
    return;
  json_builder_set_member_name (b, "temperature");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "t_ns");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->temperature->len; i++)
    json_builder_add_int_value (b, g_array_index (s->temperature, NscTempSample, i).t_ns);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "celsius");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->temperature->len; i++)
    json_builder_add_double_value (b, g_array_index (s->temperature, NscTempSample, i).celsius);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void add_string (JsonBuilder *b, const char *name, const char *value);

static void
add_step (JsonBuilder         *b,
          guint                index,
          const NscStepResult *s)
{
  static const char *kinds[] = { "job", "idle", "fill", "trim", "surface", "erase", "copy", "probe" };
  const NscJobResult *head = s->step.kind == NSC_STEP_JOB || s->step.kind == NSC_STEP_COPY
                           ? nsc_step_result_headline (s) : NULL;
  char scratch[64];

  json_builder_begin_object (b);
  add_int (b, "index", index);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, kinds[s->step.kind]);
  json_builder_set_member_name (b, "label");
  json_builder_add_string_value (b, s->step.kind == NSC_STEP_IDLE ? "idle"
                                 : s->step.kind == NSC_STEP_TRIM ? "TRIM"
                                 : s->step.kind == NSC_STEP_ERASE ? "Erase"
                                 : nsc_job_get_label (&s->step.job, scratch, sizeof scratch));
  if (s->step.analysis[0])
    {
      json_builder_set_member_name (b, "analysis");
      json_builder_add_string_value (b, s->step.analysis);
    }
  json_builder_set_member_name (b, "completed");
  json_builder_add_boolean_value (b, s->completed);
  if (s->skipped)
    {
      json_builder_set_member_name (b, "skipped");
      json_builder_add_boolean_value (b, TRUE);
    }
  if (s->error)
    {
      json_builder_set_member_name (b, "error");
      json_builder_add_string_value (b, s->error);
    }
  if (s->step.kind == NSC_STEP_IDLE)
    {
      add_int (b, "idle_ns", s->duration_ns);
      json_builder_end_object (b);
      return;
    }

  add_job (b, head ? &head->job : &s->step.job);
  json_builder_set_member_name (b, "conditions");
  json_builder_begin_object (b);
  add_int (b, "prefilled_bytes", (gint64) s->prefilled_bytes);
  json_builder_set_member_name (b, "contents_verified");
  json_builder_add_boolean_value (b, s->contents_verified);
  add_int (b, "idle_before_ns", s->idle_before_ns);
  json_builder_set_member_name (b, "read_data_age_ns");
  if (s->data_age_ns >= 0)
    json_builder_add_int_value (b, s->data_age_ns);
  else
    json_builder_add_null_value (b);
  add_int (b, "bytes_written_since", (gint64) s->bytes_written_since);
  json_builder_set_member_name (b, "span_clamped");
  json_builder_add_boolean_value (b, s->span_clamped);
  json_builder_set_member_name (b, "fresh_data");
  json_builder_add_boolean_value (b, s->fresh_data);
  add_int (b, "trimmed_before_bytes", (gint64) s->trimmed_before_bytes);
  json_builder_set_member_name (b, "strict_applied");
  json_builder_add_boolean_value (b, s->strict_applied);
  if (s->strict_skipped)
    {
      json_builder_set_member_name (b, "strict_skipped");
      json_builder_add_boolean_value (b, TRUE);
    }
  add_int (b, "strict_trimmed_bytes", (gint64) s->strict_trimmed_bytes);
  add_int (b, "strict_idle_ns", s->strict_idle_ns);
  if (s->time_source)
    {
      add_string (b, "time_source", s->time_source);
      add_int (b, "own_time_ns", s->own_time_ns);
      add_int (b, "planned_time_ns", s->planned_time_ns);
    }
  if (s->data_expected)
    {
      add_string (b, "data_expected", s->data_expected);
      json_builder_set_member_name (b, "idle_since_data_ns");
      if (s->idle_since_data_ns >= 0)
        json_builder_add_int_value (b, s->idle_since_data_ns);
      else
        json_builder_add_null_value (b);
      add_string (b, "settled_by", s->settled_by);
    }
  if (s->flush_source)
    {
      add_int (b, "flush_bytes", (gint64) s->flush_bytes);
      add_string (b, "flush_source", s->flush_source);
      json_builder_set_member_name (b, "flush_capped");
      json_builder_add_boolean_value (b, s->flush_capped);
      if (s->flush_first_bps > 0)
        {
          json_builder_set_member_name (b, "flush_first_bps");
          json_builder_add_double_value (b, s->flush_first_bps);
          json_builder_set_member_name (b, "flush_last_bps");
          json_builder_add_double_value (b, s->flush_last_bps);
        }
    }
  if (s->data_written_bps > 0)
    {
      json_builder_set_member_name (b, "data_written_bps");
      json_builder_add_double_value (b, s->data_written_bps);
    }
  add_int (b, "written_before_bytes", (gint64) s->written_before_bytes);
  json_builder_end_object (b);

  if (s->stop_reason != NSC_STOP_NONE)
    {
      json_builder_set_member_name (b, "stop_reason");
      json_builder_add_string_value (b, nsc_stop_reason_to_string (s->stop_reason));
    }
  if (s->step.stop.enabled)
    {
      json_builder_set_member_name (b, "stop");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "below");
      json_builder_add_double_value (b, s->step.stop.drop_share);
      add_int (b, "samples", s->step.stop.hold_samples);
      add_int (b, "past_bytes", (gint64) s->step.stop.hold_bytes);
      add_int (b, "past_ns", s->step.stop.hold_ns);
      add_int (b, "cap_bytes", (gint64) s->stop_cap_bytes);
      json_builder_set_member_name (b, "reference_bps");
      json_builder_add_double_value (b, s->stop_reference_bps);
      json_builder_set_member_name (b, "drop_position");
      if (s->drop_found)
        json_builder_add_int_value (b, (gint64) s->drop_position);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  if (s->step.kind == NSC_STEP_COPY)
    {
      add_int (b, "files", s->copy_files);
      json_builder_set_member_name (b, "scaled_to_free_space");
      json_builder_add_boolean_value (b, s->copy_scaled);
    }
  if (s->step.kind == NSC_STEP_PROBE)
    {
      add_int (b, "duration_ns", s->duration_ns);
      add_int (b, "bytes_written", (gint64) s->probe_written);
      if (s->probe)
        {
          json_builder_set_member_name (b, "probe");
          json_builder_add_value (b, json_node_copy (s->probe));
        }
    }
  if (s->step.kind == NSC_STEP_ERASE)
    {
      add_int (b, "duration_ns", s->duration_ns);
      json_builder_set_member_name (b, "erase_method");
      json_builder_add_string_value (b, s->erase_method ? s->erase_method : "");
      add_int (b, "erased_bytes", (gint64) s->trimmed_bytes);
    }
  if (s->step.kind == NSC_STEP_TRIM || s->step.kind == NSC_STEP_FILL)
    {
      add_int (b, "duration_ns", s->duration_ns);
      if (s->step.kind == NSC_STEP_TRIM)
        {
          add_int (b, "trimmed_bytes", (gint64) s->trimmed_bytes);
          json_builder_set_member_name (b, "trim_method");
          json_builder_add_string_value (b, s->trim_method ? s->trim_method : "");
          json_builder_set_member_name (b, "discard_reaches_drive");
          json_builder_add_boolean_value (b, s->discard_reaches_drive);
        }
    }

  if (head)
    {
      guint idx = 0;

      for (guint i = 0; i < s->runs->len; i++)
        if (g_ptr_array_index (s->runs, i) == head)
          idx = i;
      add_int (b, "headline_run", idx);
      json_builder_set_member_name (b, "backend");
      json_builder_add_string_value (b, nsc_backend_to_string (head->backend));
      if (head->backend_note)
        {
          json_builder_set_member_name (b, "backend_note");
          json_builder_add_string_value (b, head->backend_note);
        }
      add_int (b, "runtime_ns", head->runtime_ns);
      add_dir (b, "read", &head->dir[NSC_DIR_READ]);
      add_dir (b, "write", &head->dir[NSC_DIR_WRITE]);
      add_series (b, head->series, nsc_job_sample_interval (&head->job), head->job.sample_bytes);
    }
  add_temperature (b, s);

  json_builder_set_member_name (b, "runs");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->runs->len; i++)
    add_run_summary (b, g_ptr_array_index (s->runs, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_string (JsonBuilder *b,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (b, name);
  if (value)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

JsonNode *
nsc_run_result_to_json (const NscRunResult *r)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char *started = r->started ? g_date_time_format_iso8601 (r->started) : NULL;
  struct utsname uts;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "schema");
  json_builder_add_int_value (b, NSC_RESULT_SCHEMA);

  json_builder_set_member_name (b, "app");
  json_builder_begin_object (b);
  add_string (b, "name", "Nandscope");
  add_string (b, "version", PACKAGE_VERSION);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "system");
  json_builder_begin_object (b);
  if (uname (&uts) == 0)
    {
      add_string (b, "kernel", uts.release);
      add_string (b, "machine", uts.machine);
    }
  json_builder_end_object (b);

  add_string (b, "started", started);
  json_builder_set_member_name (b, "duration_ns");
  json_builder_add_int_value (b, r->duration_ns);
  json_builder_set_member_name (b, "cancelled");
  json_builder_add_boolean_value (b, r->cancelled);
  if (r->error)
    add_string (b, "error", r->error);

  json_builder_set_member_name (b, "preset");
  json_builder_begin_object (b);
  add_string (b, "name", r->preset_name);
  add_string (b, "title", r->preset_title);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "target");
  json_builder_begin_object (b);
  add_string (b, "path", r->target_path);
  add_string (b, "kind", r->target_kind);
  add_string (b, "description", r->target_description);
  add_string (b, "filesystem", r->filesystem);
  json_builder_set_member_name (b, "size");
  json_builder_add_int_value (b, (gint64) r->target_size);
  json_builder_set_member_name (b, "logical_block_size");
  json_builder_add_int_value (b, r->logical_block_size);
  json_builder_set_member_name (b, "dio_alignment");
  json_builder_add_int_value (b, r->dio_align);
  json_builder_set_member_name (b, "tmpfile");
  json_builder_add_boolean_value (b, r->used_tmpfile);
  if (r->system_cache.certainty != NSC_SYSTEM_CACHE_NONE)
    {
      json_builder_set_member_name (b, "system_cache");
      nsc_system_cache_info_build (&r->system_cache, b);
    }
  json_builder_end_object (b);

  if (r->bench)
    {
      json_builder_set_member_name (b, "bench");
      json_builder_add_value (b, json_node_copy (r->bench));
    }

  json_builder_set_member_name (b, "device");
  if (r->device)
    json_builder_add_value (b, json_node_copy (r->device));
  else
    {
      json_builder_begin_object (b);
      json_builder_end_object (b);
    }

  if (r->smart_before || r->smart_after)
    {
      json_builder_set_member_name (b, "smart_before");
      if (r->smart_before)
        json_builder_add_value (b, json_node_copy (r->smart_before));
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "smart_after");
      if (r->smart_after)
        json_builder_add_value (b, json_node_copy (r->smart_after));
      else
        json_builder_add_null_value (b);
    }
  json_builder_set_member_name (b, "bytes_written");
  json_builder_add_int_value (b, (gint64) nsc_run_result_bytes_written (r));

  json_builder_set_member_name (b, "conditions");
  json_builder_begin_object (b);
  add_string (b, "backend_requested", r->backend_requested);
  json_builder_set_member_name (b, "runs");
  json_builder_add_int_value (b, r->runs);
  json_builder_set_member_name (b, "time_ns");
  json_builder_add_int_value (b, r->time_ns);
  json_builder_set_member_name (b, "file_size");
  json_builder_add_int_value (b, (gint64) r->file_size);
  json_builder_set_member_name (b, "idle_between_steps_ns");
  json_builder_add_int_value (b, r->idle_ns);
  json_builder_set_member_name (b, "strict");
  json_builder_add_boolean_value (b, r->strict);
  add_int (b, "default_time_ns", r->default_time_ns);
  add_int (b, "max_idle_ns", r->max_idle_ns);
  json_builder_set_member_name (b, "time_scale");
  json_builder_add_double_value (b, r->time_scale > 0 ? r->time_scale : 1.0);
  add_int (b, "span_cap", (gint64) r->span_cap);
  json_builder_set_member_name (b, "headline");
  json_builder_add_string_value (b, r->cdm ? "best" : "median");
  json_builder_set_member_name (b, "cdm_compatible");
  json_builder_add_boolean_value (b, r->cdm);
  if (r->history_cache_bytes)
    add_int (b, "history_cache_bytes", (gint64) r->history_cache_bytes);
  if (r->strict)
    {
      /* What the reviews ask for, and what this run did of it (options scale it). */
      json_builder_set_member_name (b, "strict_conditions");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "requested");
      json_builder_begin_object (b);
      add_int (b, "time_ns", NSC_STRICT_TIME_NS);
      add_int (b, "idle_ns", NSC_STRICT_IDLE_NS);
      add_int (b, "span", (gint64) NSC_STRICT_SPAN);
      add_string (b, "precondition", "device");
      add_string (b, "trim", "before each preset");
      json_builder_end_object (b);
      json_builder_set_member_name (b, "applied");
      json_builder_begin_object (b);
      add_int (b, "time_ns", r->default_time_ns);
      add_int (b, "idle_ns", r->strict_idle_ns);
      add_int (b, "span", (gint64) r->span_cap);
      add_string (b, "precondition", r->precondition);
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  json_builder_set_member_name (b, "state");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "erased_first");
  json_builder_add_boolean_value (b, r->erased_first);
  json_builder_set_member_name (b, "left_free");
  if (r->leave_free)
    json_builder_add_int_value (b, (gint64) r->leave_free);
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
  json_builder_end_object (b);

  json_builder_set_member_name (b, "steps");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->steps->len; i++)
    add_step (b, i, g_ptr_array_index (r->steps, i));
  json_builder_end_array (b);

  json_builder_set_member_name (b, "analysis");
  if (r->analysis)
    json_builder_add_value (b, json_node_copy (r->analysis));
  else
    {
      json_builder_begin_object (b);
      json_builder_end_object (b);
    }

  json_builder_set_member_name (b, "warnings");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->warnings->len; i++)
    {
      nsc_warning_to_json (g_ptr_array_index (r->warnings, i), b);
    }
  json_builder_end_array (b);

  json_builder_end_object (b);
  return json_builder_get_root (b);
}

gboolean
nsc_run_result_save (const NscRunResult  *r,
                     const char          *path,
                     GError             **error)
{
  g_autoptr(JsonNode) root = nsc_run_result_to_json (r);
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  g_autoptr(GError) local_error = NULL;

  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_indent (gen, 1);
  text = json_generator_to_data (gen, NULL);

  /* A file is written as a temporary one renamed over it: a crash never leaves
   * half a result where a whole one was. A device is refused, never replaced. */
  if (!nsc_output_check (path, TRUE, NULL, NULL, error))
    return FALSE;
  if (!nsc_output_write (path, text, strlen (text), &local_error))
    {
      nsc_error_set (error, NSC_PROBLEM_RESULT_SAVE,
                     &(NscErrorFields) { .path = path, .text = local_error->message });
      return FALSE;
    }
  return TRUE;
}

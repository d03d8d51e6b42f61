/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>

#include "nsc-engine.h"
#include "test-util.h"

#define GiB (G_GUINT64_CONSTANT (1) << 30)
#define MiB (G_GUINT64_CONSTANT (1) << 20)

/* One definition of strict: what the user set stays, the rest is the reviews'. */
static void
test_strict_options (void)
{
  NscRunOptions o = NSC_RUN_OPTIONS_INIT;
  NscRunOptions mine = NSC_RUN_OPTIONS_INIT;

  nsc_run_options_set_strict (&o);
  g_assert_true (o.strict);
  g_assert_cmpint (o.default_time_ns, ==, NSC_STRICT_TIME_NS);
  g_assert_cmpuint (o.span_cap, ==, NSC_STRICT_SPAN);
  /* Strict's 40 s is for steps without a length of their own, not every step. */
  g_assert_cmpint (o.time_ns, ==, 0);
  /* Its idle comes before each preset, not before every step. */
  g_assert_cmpint (o.idle_ns, ==, 0);

  mine.span_cap = 64 * MiB;
  mine.default_time_ns = 1000000;
  nsc_run_options_set_strict (&mine);
  g_assert_cmpuint (mine.span_cap, ==, 64 * MiB);
  g_assert_cmpint (mine.default_time_ns, ==, 1000000);

  {
    NscRunOptions cdm = NSC_RUN_OPTIONS_INIT;

    nsc_run_options_set_cdm (&cdm);
    g_assert_true (cdm.cdm);
    g_assert_cmpuint (cdm.runs, ==, 5);
    g_assert_cmpint (cdm.default_time_ns, ==, 5 * G_GINT64_CONSTANT (1000000000));
    g_assert_cmpuint (cdm.span_cap, ==, 2 * GiB);
  }
}

static NscJobResult *
write_run (guint64 bytes,
           double  bps)
{
  NscJobResult *j = g_new0 (NscJobResult, 1);

  nsc_job_init (&j->job);
  j->job.read_percent = 0;
  j->dir[NSC_DIR_WRITE].bytes = bytes;
  j->dir[NSC_DIR_WRITE].bw_bps = bps;
  j->series = nsc_series_new (16);
  for (guint d = 0; d < 2; d++)
    {
      j->dir[d].latency = g_new (NscHistogram, 1);
      nsc_histogram_init (j->dir[d].latency);
    }
  return j;
}

static NscStepResult *
write_step (const char *label,
            guint64     written_before,
            guint       n_runs,
            guint64     bytes_per_run)
{
  NscStep step = { 0 };
  NscStepResult *s;

  step.kind = NSC_STEP_JOB;
  nsc_job_init (&step.job);
  step.job.read_percent = 0;
  g_strlcpy (step.job.label, label, sizeof step.job.label);
  s = nsc_step_result_new (&step);
  s->written_before_bytes = written_before;
  for (guint k = 0; k < n_runs; k++)
    g_ptr_array_add (s->runs, write_run (bytes_per_run, 100e6 * (k + 1)));
  return s;
}

static JsonObject *
position_of (NscRunResult *r,
             guint         step)
{
  JsonArray *a = json_object_get_array_member (json_node_get_object (r->analysis), "cache_position");

  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *o = json_array_get_object_element (a, i);
      if ((guint) json_object_get_int_member (o, "step") == step)
        return o;
    }
  g_assert_not_reached ();
}

static const char *
warning_position (NscRunResult *r,
                  guint         step)
{
  for (guint i = 0; i < r->warnings->len; i++)
    {
      NscWarning *w = g_ptr_array_index (r->warnings, i);
      if (w->step == (int) step && g_str_equal (w->code, "inside-slc-cache"))
        return w->position;
    }
  return NULL;
}

/* A result is labelled by everything written since the drive last rested, not by what
 * its step wrote alone: after tens of GB without idle, a small write is past the cache. */
static void
test_cache_position (void)
{
  g_autoptr(NscRunResult) r = nsc_run_result_new ();
  g_autoptr(NscRunResult) unknown = nsc_run_result_new ();
  JsonArray *runs;

  r->history_cache_bytes = 1 * GiB;
  g_ptr_array_add (r->steps, write_step ("inside", 0, 1, 512 * MiB));
  g_ptr_array_add (r->steps, write_step ("across", 768 * MiB, 1, 512 * MiB));
  g_ptr_array_add (r->steps, write_step ("after", 20 * GiB, 1, 100 * MiB));
  /* Runs write one after the other: the third starts past the cache. */
  g_ptr_array_add (r->steps, write_step ("runs", 0, 3, 400 * MiB));
  nsc_run_result_analyze (r);

  g_assert_cmpstr (json_object_get_string_member (position_of (r, 0), "position"), ==, "inside");
  g_assert_cmpstr (json_object_get_string_member (position_of (r, 1), "position"), ==, "across");
  g_assert_cmpstr (json_object_get_string_member (position_of (r, 2), "position"), ==, "after");
  g_assert_cmpstr (json_object_get_string_member (position_of (r, 0), "cache_source"), ==, "history");
  runs = json_object_get_array_member (position_of (r, 3), "runs");
  g_assert_cmpuint (json_array_get_length (runs), ==, 3);
  g_assert_cmpstr (json_array_get_string_element (runs, 0), ==, "inside");
  g_assert_cmpstr (json_array_get_string_element (runs, 1), ==, "inside");
  g_assert_cmpstr (json_array_get_string_element (runs, 2), ==, "across");
  /* The headline (the median run, the second) was inside. */
  g_assert_cmpstr (json_object_get_string_member (position_of (r, 3), "position"), ==, "inside");

  g_assert_cmpstr (warning_position (r, 0), ==, "inside");
  g_assert_cmpstr (warning_position (r, 1), ==, "across");
  g_assert_null (warning_position (r, 2));

  /* No cache known: unknown, and said so per step. */
  g_ptr_array_add (unknown->steps, write_step ("w", 0, 1, 512 * MiB));
  nsc_run_result_analyze (unknown);
  g_assert_cmpstr (json_object_get_string_member (position_of (unknown, 0), "position"), ==, "unknown");
  g_assert_cmpstr (warning_position (unknown, 0), ==, "unknown");

  /* Written into memory (a disk in memory here): no drive's SLC cache is named, for
   * a known cache or none; the memory is, once per test that wrote. */
  for (guint known = 0; known < 2; known++)
    {
      g_autoptr(NscRunResult) ram = nsc_run_result_new ();
      guint said = 0;

      ram->history_cache_bytes = known ? 1 * GiB : 0;
      ram->system_cache.certainty = NSC_SYSTEM_CACHE_MEMORY;
      ram->system_cache.kind = g_strdup ("ram-disk");
      ram->system_cache.device = g_strdup ("zram0");
      g_ptr_array_add (ram->steps, write_step ("w", 0, 1, 512 * MiB));
      g_ptr_array_add (ram->steps, write_step ("across", 768 * MiB, 1, 512 * MiB));
      nsc_run_result_analyze (ram);
      g_assert_null (warning_position (ram, 0));
      g_assert_null (warning_position (ram, 1));
      for (guint i = 0; i < ram->warnings->len; i++)
        {
          NscWarning *w = g_ptr_array_index (ram->warnings, i);

          g_assert_cmpint (w->kind, !=, NSC_WARNING_CACHE_EXHAUSTED_DURING_TEST);
          if (w->kind == NSC_WARNING_SYSTEM_CACHE_MEMORY)
            {
              g_assert_cmpint (w->step, ==, (int) said);
              g_assert_nonnull (strstr (w->message, "zram0, a disk in memory"));
              g_assert_cmpstr (w->cache_kind, ==, "ram-disk");
              said++;
            }
        }
      g_assert_cmpuint (said, ==, 2);
      g_assert_false (json_object_has_member (json_node_get_object (ram->analysis), "inside_slc_cache"));
    }

  /* The position reaches the saved result. */
  {
    g_autoptr(JsonNode) root = nsc_run_result_to_json (r);
    JsonArray *w = json_object_get_array_member (json_node_get_object (root), "warnings");
    gboolean found = FALSE;

    for (guint i = 0; i < json_array_get_length (w); i++)
      {
        JsonObject *o = json_array_get_object_element (w, i);
        if (g_str_equal (json_object_get_string_member (o, "code"), "inside-slc-cache"))
          found |= g_strcmp0 (json_object_get_string_member_with_default (o, "position", NULL),
                              "across") == 0;
      }
    g_assert_true (found);
  }
}

/* A suite under strict on a real test file: strict's TRIM and idle where each part
 * starts and nowhere else, its 40 s only for steps with no length of their own, and
 * every read step's data settled by an idle. */
static void
test_strict_run (void)
{
  static const char suite[] =
    "{\"name\":\"s\",\"file_size\":\"8m\",\"time\":\"10s\",\"runs\":1,\"steps\":["
    "{\"rw\":\"read\",\"bs\":\"1m\",\"qd\":2},"
    "{\"rw\":\"write\",\"bs\":\"1m\",\"qd\":2,\"time\":\"2m\"},"
    "{\"kind\":\"idle\",\"time\":\"1s\"},"
    "{\"rw\":\"write\",\"bs\":\"1m\",\"qd\":2,\"label\":\"no TRIM\",\"strict\":false}]}";
  g_autoptr(NscPreset) preset = nsc_preset_new_from_data (suite, sizeof suite - 1, NULL);
  g_autofree char *dir = g_dir_make_tmp ("nsc-runner-XXXXXX", NULL);
  g_autoptr(NscRunner) runner = NULL;
  NscRunOptions o = NSC_RUN_OPTIONS_INIT;
  NscRunResult *r;

  g_assert_nonnull (preset);
  o.target = dir;
  o.max_idle_ns = 20000000;
  o.time_scale = 0.001;
  o.idle_ns = 5000000;
  o.span_cap = 8 * MiB;
  nsc_run_options_set_strict (&o);
  runner = nsc_runner_new (preset, &o);
  r = nsc_test_run_to_end (runner);
  g_assert_cmpuint (r->steps->len, ==, 4);

  {
    NscStepResult *read = g_ptr_array_index (r->steps, 0);
    NscStepResult *own = g_ptr_array_index (r->steps, 1);
    NscStepResult *no_trim = g_ptr_array_index (r->steps, 3);

    g_assert_true (read->strict_applied);
    g_assert_cmpint (read->strict_idle_ns, ==, 20000000);
    g_assert_cmpstr (read->time_source, ==, "strict");
    g_assert_cmpint (read->planned_time_ns, ==, NSC_STRICT_TIME_NS);
    g_assert_cmpstr (read->data_expected, ==, "settled");
    g_assert_cmpstr (read->settled_by, ==, "idle");
    g_assert_cmpint (read->idle_since_data_ns, >=, 20000000);

    g_assert_false (own->strict_applied);
    g_assert_cmpstr (own->time_source, ==, "own");
    g_assert_cmpint (own->planned_time_ns, ==, 120 * G_GINT64_CONSTANT (1000000000));
    g_assert_cmpint (own->step.job.time_ns, ==, 120000000);

    /* It opted out: no TRIM, and not the idle between tests, only its preset's idle. */
    g_assert_true (no_trim->strict_skipped);
    g_assert_cmpuint (no_trim->trimmed_before_bytes, ==, 0);
    g_assert_cmpuint (no_trim->strict_trimmed_bytes, ==, 0);
    g_assert_cmpint (no_trim->idle_before_ns, ==, 20000000);
  }
  g_assert_cmpint (r->strict_idle_ns, ==, 20000000);
  g_assert_cmpint (r->default_time_ns, ==, NSC_STRICT_TIME_NS);
  g_rmdir (dir);
}

/* The drive's history: the newest write-fill of the same drive, by serial. */
static void
test_history_cache (void)
{
  static const char fmt[] =
    "{\"schema\":1,\"steps\":[],\"preset\":{},\"target\":{},\"warnings\":[],"
    "\"started\":\"%s\",\"device\":{\"serial\":\"%s\"},"
    "\"analysis\":{\"slc\":{\"has_cache\":%s,\"cache_bytes\":%s}}}";
  static const char *files[][5] = {
    { "a.json", "2026-01-01T10:00:00Z", "S1", "true", "1000" },
    { "b.json", "2026-03-01T10:00:00Z", "S1", "true", "3000" },   /* the newest of S1 */
    { "c.json", "2026-05-01T10:00:00Z", "S2", "true", "5000" },   /* another drive */
    { "d.json", "2026-06-01T10:00:00Z", "S1", "false", "0" },     /* no cache found */
  };
  g_autofree char *dir = g_dir_make_tmp ("nsc-history-XXXXXX", NULL);
  g_autofree char *from = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i][0], NULL);
      g_autofree char *text = g_strdup_printf (fmt, files[i][1], files[i][2], files[i][3], files[i][4]);

      g_assert_true (g_file_set_contents (path, text, -1, NULL));
    }
  {
    g_autofree char *junk = g_build_filename (dir, "junk.json", NULL);
    g_assert_true (g_file_set_contents (junk, "{", -1, NULL));
  }

  g_assert_cmpuint (nsc_result_history_cache_bytes (dir, "S1", &from), ==, 3000);
  g_assert_true (g_str_has_suffix (from, "b.json"));
  g_assert_cmpuint (nsc_result_history_cache_bytes (dir, "S2", NULL), ==, 5000);
  g_assert_cmpuint (nsc_result_history_cache_bytes (dir, "S3", NULL), ==, 0);
  g_assert_cmpuint (nsc_result_history_cache_bytes ("/nonexistent", "S1", NULL), ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i][0], NULL);
      g_unlink (path);
    }
  {
    g_autofree char *junk = g_build_filename (dir, "junk.json", NULL);
    g_unlink (junk);
  }
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/runner/strict-options", test_strict_options);
  g_test_add_func ("/nsc/runner/cache-position", test_cache_position);
  g_test_add_func ("/nsc/runner/strict-run", test_strict_run);
  g_test_add_func ("/nsc/runner/history-cache", test_history_cache);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "nsc-device-safety.h"
#include "nsc-engine.h"

static void
test_extents (void)
{
  g_autoptr(NscExtents) e = nsc_extents_new ();
  g_autoptr(GArray) miss = NULL;

  nsc_extents_add (e, 100, 100);   /* [100,200) */
  nsc_extents_add (e, 300, 100);   /* [300,400) */
  nsc_extents_add (e, 200, 50);    /* joins the first: [100,250) */
  g_assert_cmpuint (nsc_extents_total (e), ==, 250);
  g_assert_true (nsc_extents_covers (e, 120, 130));
  g_assert_false (nsc_extents_covers (e, 120, 200));

  miss = nsc_extents_missing (e, 0, 500);
  g_assert_cmpuint (miss->len, ==, 3);
  g_assert_cmpuint (g_array_index (miss, NscRange, 0).start, ==, 0);
  g_assert_cmpuint (g_array_index (miss, NscRange, 0).end, ==, 100);
  g_assert_cmpuint (g_array_index (miss, NscRange, 1).start, ==, 250);
  g_assert_cmpuint (g_array_index (miss, NscRange, 1).end, ==, 300);
  g_assert_cmpuint (g_array_index (miss, NscRange, 2).start, ==, 400);
  g_assert_cmpuint (g_array_index (miss, NscRange, 2).end, ==, 500);

  nsc_extents_add (e, 0, 1000);
  g_assert_cmpuint (nsc_extents_total (e), ==, 1000);
  nsc_extents_remove (e, 100, 100);
  g_assert_cmpuint (nsc_extents_total (e), ==, 900);
  g_assert_false (nsc_extents_covers (e, 150, 1));
  g_assert_true (nsc_extents_covers (e, 200, 800));
}

static void
test_series_bounded (void)
{
  g_autoptr(NscSeries) s = nsc_series_new (64);
  guint64 total = 0;
  gint64 dur = 0;

  for (guint i = 0; i < 10000; i++)
    {
      NscSample x = { 0 };

      x.t_ns = (i + 1) * 1000;
      x.duration_ns = 1000;
      x.bytes[NSC_DIR_WRITE] = i;
      x.ios[NSC_DIR_WRITE] = 1;
      x.lat_max_ns = i;
      total += i;
      x.position = total;
      nsc_series_append (s, &x);
      g_assert_cmpuint (nsc_series_get_len (s), <, 64);
    }
  nsc_series_finish (s);
  g_assert_cmpuint (nsc_series_get_merge_factor (s), >=, 128);

  /* Merging keeps every byte, the whole duration and the maximum. */
  {
    guint64 seen = 0, max = 0;
    for (guint i = 0; i < nsc_series_get_len (s); i++)
      {
        const NscSample *x = nsc_series_get (s, i);
        seen += x->bytes[NSC_DIR_WRITE];
        dur += x->duration_ns;
        max = MAX (max, x->lat_max_ns);
        if (i > 0)
          g_assert_cmpint (x->t_ns, >, nsc_series_get (s, i - 1)->t_ns);
      }
    g_assert_cmpuint (seen, ==, total);
    g_assert_cmpint (dur, ==, 10000 * 1000);
    g_assert_cmpuint (max, ==, 9999);
    g_assert_cmpuint (nsc_series_get (s, nsc_series_get_len (s) - 1)->position, ==, total);
  }
}

static void
test_presets_builtin (void)
{
  g_auto(GStrv) names = nsc_preset_list_names ();

  g_assert_cmpuint (g_strv_length (names), >=, 1);
  g_assert_cmpstr (names[0], ==, "quick");
  for (guint i = 0; names[i]; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(NscPreset) p = nsc_preset_lookup (names[i], &error);

      g_assert_no_error (error);
      g_assert_nonnull (p);
      g_assert_cmpuint (p->steps->len, >, 0);
      for (guint j = 0; j < p->steps->len; j++)
        {
          NscStep *step = &g_array_index (p->steps, NscStep, j);
          NscJob job = step->job;

          if (step->kind != NSC_STEP_JOB)
            continue;
          if (!step->time_is_set && !job.bytes && !job.once)
            job.time_ns = p->time_ns;
          g_assert_true (nsc_job_validate (&job, NULL));
        }
    }
}

static void
test_preset_quick_is_crystaldiskmark (void)
{
  static const char *labels[] = { "SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1" };
  g_autoptr(NscPreset) p = nsc_preset_lookup ("quick", NULL);

  /* CrystalDiskMark's eight tests on the fresh half, then two reads of the settled half. */
  g_assert_cmpuint (p->steps->len, ==, 10);
  g_assert_cmpuint (p->file_size, ==, G_GUINT64_CONSTANT (2) << 30);
  for (guint i = 0; i < 8; i++)
    {
      NscStep *s = &g_array_index (p->steps, NscStep, i);
      g_autofree char *derived = nsc_job_describe (&s->job);

      g_assert_cmpstr (s->job.label, ==, labels[i % 4]);
      g_assert_cmpstr (derived, ==, labels[i % 4]);
      g_assert_cmpuint (s->job.read_percent, ==, i < 4 ? 100 : 0);
      g_assert_cmpfloat (s->offset_pct, ==, 0.5);
      g_assert_cmpfloat (s->span_pct, ==, 0.5);
      g_assert_cmpstr (s->analysis, ==, i < 4 ? "fresh-read" : "");
    }
  for (guint i = 8; i < 10; i++)
    {
      NscStep *s = &g_array_index (p->steps, NscStep, i);

      g_assert_cmpstr (s->analysis, ==, "settled-read");
      g_assert_cmpuint (s->job.read_percent, ==, 100);
      g_assert_cmpuint (s->job.region_offset, ==, 0);
      g_assert_cmpfloat (s->span_pct, ==, 0.5);
    }
}

static void
test_preset_suite (void)
{
  g_autoptr(NscPreset) review = nsc_preset_lookup ("review", NULL);
  g_autoptr(NscPreset) quick = nsc_preset_lookup ("quick", NULL);
  g_autoptr(NscPreset) fill = nsc_preset_lookup ("write-fill", NULL);
  g_autoptr(GError) error = NULL;
  static const char nested[] = "{\"name\":\"x\",\"include\":[\"review\"]}";
  static const char missing[] = "{\"name\":\"x\",\"include\":[\"nope\"]}";

  /* A suite is its parts in order. */
  g_assert_cmpuint (review->steps->len, >, quick->steps->len + fill->steps->len);
  g_assert_cmpint (g_array_index (review->steps, NscStep, 0).kind, ==, NSC_STEP_ERASE);
  g_assert_cmpstr (g_array_index (review->steps, NscStep, fill->steps->len - 1).analysis, ==,
                   "write-fill");
  {
    /* The whole 3DNews suite, and its parts keep their own lengths and runs: Quick
     * inside it measures what Quick alone does. */
    gboolean seen[3] = { FALSE, FALSE, FALSE };

    for (guint i = 0; i < review->steps->len; i++)
      {
        NscStep *s = &g_array_index (review->steps, NscStep, i);

        seen[0] |= g_str_equal (s->analysis, "trim-latency");
        seen[1] |= g_str_equal (s->analysis, "thermal");
        seen[2] |= g_str_equal (s->job.label, "After idle, no TRIM");
        if (g_str_equal (s->analysis, "fresh-read"))
          {
            g_assert_cmpint (s->group_time_ns, ==, quick->time_ns);
            g_assert_cmpuint (s->group_runs, ==, quick->runs);
            g_assert_cmpuint (s->group, ==, 1);
          }
      }
    g_assert_true (seen[0] && seen[1] && seen[2]);
  }
  g_assert_null (nsc_preset_new_from_data (nested, strlen (nested), &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (nsc_preset_new_from_data (missing, strlen (missing), &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND);

  /* The write-fill measures fresh space: no test file written first, all the free space. */
  g_assert_false (fill->prepare);
  g_assert_cmpuint (fill->file_size, ==, NSC_TARGET_SIZE_FREE);
  g_assert_true (fill->destructive);
}

static void
test_preset_errors (void)
{
  static const char *bad[] = {
    "", "[]", "{}", "{\"name\":\"x\"}", "{\"name\":\"x\",\"steps\":[]}",
    "{\"name\":\"x\",\"steps\":[1]}",
    "{\"name\":\"x\",\"steps\":[{\"rw\":\"sideways\"}]}",
    "{\"name\":\"x\",\"steps\":[{\"bs\":\"4q\"}]}",
    "{\"name\":\"x\",\"steps\":[{\"qd\":-1}]}",
    "{\"name\":\"x\",\"steps\":[{\"qd\":\"8\"}]}",
    "{\"name\":\"x\",\"steps\":[{\"kind\":\"dance\"}]}",
    "{\"name\":\"x\",\"steps\":[{\"time\":5}]}",
    "{\"name\":\"x\",\"runs\":1.5,\"steps\":[{}]}",
    "{\"name\":\"x\",\"steps\":[{}]",
    "{\"name\":\"x\",\"steps\":[{\"span\":\"150%\"}]}",
    "{\"name\":\"x\",\"steps\":[{\"offset\":\"x%\"}]}",
    "{\"name\":\"x\",\"steps\":[{\"kind\":\"surface\"}]}",
    "{\"name\":\"x\",\"include\":\"quick\"}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(NscPreset) p = nsc_preset_new_from_data (bad[i], strlen (bad[i]), &error);

      g_assert_null (p);
      g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
    }

  {
    g_autoptr(GError) error = NULL;
    g_assert_null (nsc_preset_lookup ("../quick", &error));
    g_assert_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND);
    g_assert_nonnull (strstr (error->message, "quick"));
  }
}

static void
test_mountinfo (void)
{
  /* Captured from a machine with a mounted loop device and an escaped mount point. */
  static const char mountinfo[] =
    "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
    "23 22 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n"
    "95 22 7:0 / /mnt/test\\040disk rw,relatime shared:50 - ext4 /dev/loop0 rw\n"
    "96 22 259:3 /sub /srv rw shared:51 - xfs /dev/nvme0n1p3 rw\n";
  g_autofree char *root = nsc_device_find_mount (mountinfo, 254, 0);
  g_autofree char *loop = nsc_device_find_mount (mountinfo, 7, 0);
  g_autofree char *part = nsc_device_find_mount (mountinfo, 259, 3);
  g_autofree char *none = nsc_device_find_mount (mountinfo, 7, 1);

  g_assert_cmpstr (root, ==, "/");
  g_assert_cmpstr (loop, ==, "/mnt/test disk");
  g_assert_cmpstr (part, ==, "/srv");
  g_assert_null (none);
}

static void
test_result_file (void)
{
  static const char *bad[] = {
    "", "[]", "{}", "{\"schema\":2,\"steps\":[],\"preset\":{},\"target\":{}}",
    "{\"schema\":\"1\",\"steps\":[],\"preset\":{},\"target\":{}}",
    "{\"schema\":1,\"steps\":{},\"preset\":{},\"target\":{}}",
    "{\"schema\":1,\"steps\":[1],\"preset\":{},\"target\":{}}",
    "{\"schema\":1,\"steps\":[{\"kind\":\"job\"}],\"preset\":{},\"target\":{}}",
    "{\"schema\":1,\"steps\":[{\"kind\":\"job\",\"label\":\"x\",\"read\":{\"bytes\":1}}],\"preset\":{},\"target\":{}}",
    "{\"schema\":1,\"steps\":[{\"kind\":\"job\",\"label\":\"x\",\"series\":{\"t_ns\":[1]}}],\"preset\":{},\"target\":{}}",
    "{\"schema\":1,\"steps\":[],\"preset\":{},\"target\":{},\"warnings\":[{\"code\":1}]}",
    "{\"schema\":1,\"steps\":[],\"preset\":{},\"target\":{},\"analysis\":[]}",
    "{\"schema\":1,\"steps\":[],\"preset\":{},\"target\":{}",
  };
  static const char good[] = "{\"schema\":1,\"steps\":[],\"preset\":{},\"target\":{},\"warnings\":[]}";
  g_autoptr(NscPreset) preset = nsc_preset_lookup ("quick", NULL);
  g_autoptr(NscRunResult) r = nsc_run_result_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) ok = NULL;
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      JsonNode *n = nsc_result_file_parse (bad[i], -1, &error);

      if (n != NULL)
        g_error ("accepted: %s", bad[i]);
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, "result"));
      g_clear_error (&error);
    }
  ok = nsc_result_file_parse (good, -1, &error);
  g_assert_no_error (error);

  /* What the engine writes, it reads: a result with a step of each kind and series. */
  r->preset_name = g_strdup ("quick");
  for (guint i = 0; i < preset->steps->len; i++)
    {
      NscStepResult *s = nsc_step_result_new (&g_array_index (preset->steps, NscStep, i));
      g_ptr_array_add (r->steps, s);
    }
  nsc_run_result_add_warning (r, 0, "read-inflation", "test");
  nsc_run_result_analyze (r);
  root = nsc_run_result_to_json (r);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  g_clear_pointer (&ok, json_node_unref);
  ok = nsc_result_file_parse (text, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ok);

  g_assert_null (nsc_result_file_load ("/nonexistent/result.json", &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND);
  g_clear_error (&error);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/extents/basic", test_extents);
  g_test_add_func ("/nsc/series/bounded", test_series_bounded);
  g_test_add_func ("/nsc/preset/builtin", test_presets_builtin);
  g_test_add_func ("/nsc/preset/quick", test_preset_quick_is_crystaldiskmark);
  g_test_add_func ("/nsc/preset/errors", test_preset_errors);
  g_test_add_func ("/nsc/preset/suite", test_preset_suite);
  g_test_add_func ("/nsc/result/file", test_result_file);
  g_test_add_func ("/nsc/device/mountinfo", test_mountinfo);
  return g_test_run ();
}

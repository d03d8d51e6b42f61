/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsc-device-safety.h"
#include "nsc-engine.h"
#include "nsc-words-problem.h"

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

/* The one answer to "does this run write, trim or erase?": every step kind that
 * changes the target counts, and so do the drive states and consent with reads. */
static void
test_run_writes (void)
{
  g_auto(GStrv) names = nsc_preset_list_names ();
  g_autoptr(NscPreset) surface = nsc_preset_lookup ("surface", NULL);
  g_autoptr(NscPreset) single = NULL;
  NscRunOptions none = NSC_RUN_OPTIONS_INIT;
  NscRunOptions o;
  NscJob job;

  g_assert_cmpint (none.device_fd, ==, -1);
  none.target = "/dev/null";
  for (guint i = 0; names[i]; i++)
    {
      g_autoptr(NscPreset) p = nsc_preset_lookup (names[i], NULL);
      gboolean changes = FALSE;

      for (guint j = 0; j < p->steps->len; j++)
        {
          NscStep *step = &g_array_index (p->steps, NscStep, j);

          if (step->kind == NSC_STEP_FILL || step->kind == NSC_STEP_TRIM
              || step->kind == NSC_STEP_ERASE || step->kind == NSC_STEP_COPY
              || step->kind == NSC_STEP_PROBE
              || ((step->kind == NSC_STEP_JOB || step->kind == NSC_STEP_SURFACE)
                  && nsc_job_has_writes (&step->job)))
            changes = TRUE;
        }
      g_assert_cmpint (nsc_run_writes (p, &none), ==, changes);
      /* A destructive preset always changes the target. */
      if (p->destructive)
        g_assert_true (nsc_run_writes (p, &none));
    }
  g_assert_false (nsc_run_writes (surface, &none));

  /* A read-only preset writes once a state or consent is asked for. */
  o = none;
  o.erase_first = TRUE;
  g_assert_true (nsc_run_writes (surface, &o));
  o = none;
  o.leave_free = 1 << 30;
  g_assert_true (nsc_run_writes (surface, &o));
  o = none;
  o.destroy_data = "/dev/sdz";
  g_assert_true (nsc_run_writes (surface, &o));
  /* The erase method alone changes nothing: it is how an erase step erases. */
  o = none;
  o.erase_method = "format";
  g_assert_false (nsc_run_writes (surface, &o));

  nsc_job_init (&job);
  g_assert_true (nsc_job_set_rw (&job, "randread", NULL));
  single = nsc_preset_new_single (&job);
  g_assert_false (nsc_run_writes (single, &none));
  g_assert_true (nsc_job_set_rw (&job, "randrw", NULL));
  g_clear_pointer (&single, nsc_preset_free);
  single = nsc_preset_new_single (&job);
  g_assert_true (nsc_run_writes (single, &none));
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

  /* The fields after the separator, found however many optional fields come first. */
  {
    g_autoptr(GPtrArray) mounts = nsc_mountinfo_parse (mountinfo);
    const NscMountEntry *m = nsc_mountinfo_find (mounts, 7, 0);

    g_assert_cmpuint (mounts->len, ==, 4);
    g_assert_nonnull (m);
    g_assert_cmpstr (m->fstype, ==, "ext4");
    g_assert_cmpstr (m->source, ==, "/dev/loop0");
    g_assert_cmpstr (m->mount_options, ==, "rw,relatime");
    g_assert_cmpstr (m->super_options, ==, "rw");
    g_assert_null (nsc_mountinfo_find (mounts, 7, 1));
    g_ptr_array_unref (nsc_mountinfo_parse (NULL));
  }

  /* Shown as one list: the filesystem's options that the mount repeats, once. */
  {
    static const char *cases[][3] = {
      { "rw,relatime", "rw", "rw,relatime" },
      { "rw,noatime", "rw,errors=remount-ro", "rw,noatime,errors=remount-ro" },
      { "ro", NULL, "ro" },
      { NULL, "rw,discard", "rw,discard" },
      { "", "", "" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autofree char *joined = nsc_mount_options_join (cases[i][0], cases[i][1]);
        g_assert_cmpstr (joined, ==, cases[i][2]);
      }
  }
}

/* What the words say of an engine error (no words are installed here: the engine's
 * own message is the problem's name). */
static char *
said (const GError *error)
{
  return nsc_words_problem (nsc_error_get_problem (error), nsc_error_get_fields (error));
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
      g_assert_true (g_str_has_prefix (nsc_problem_name (nsc_error_get_problem (error)), "RESULT_"));
      {
        g_autofree char *words = said (error);
        g_assert_nonnull (strstr (words, "result"));
      }
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
  nsc_run_result_add_warning (r, 0, NSC_WARNING_READ_INFLATION, "test");
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
  g_assert_true (nsc_error_get_problem (error) == NSC_PROBLEM_RESULT_NOT_FOUND);
  g_clear_error (&error);
}

/* Files from elsewhere (the history folder, Open, the chart command) may be hostile:
 * nesting that would exhaust json-glib's recursion, a FIFO that never ends, a file
 * too large to be a result, a device. Each is refused with a clear error, at once. */
static void
test_result_file_hostile (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nsc-result-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo.json", NULL);
  g_autofree char *huge = g_build_filename (dir, "huge.json", NULL);
  g_autofree char *deep_path = g_build_filename (dir, "deep.json", NULL);
  g_autoptr(GString) deep = g_string_new ("{\"schema\":1,\"steps\":");
  g_autoptr(GString) brackets = g_string_new (NULL);
  g_autofree char *in_string = NULL;
  g_autoptr(JsonNode) ok = NULL;
  GError *error = NULL;
  int fd;

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  g_assert_null (nsc_result_file_parse (deep->str, -1, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_true (nsc_error_get_problem (error) == NSC_PROBLEM_RESULT_TOO_DEEP);
  {
    g_autofree char *words = said (error);
    g_assert_nonnull (strstr (words, "nests deeper than 64 levels"));
  }
  g_clear_error (&error);
  g_assert_null (nsc_result_file_parse (deep->str, (gssize) deep->len, &error));
  g_assert_true (nsc_error_get_problem (error) == NSC_PROBLEM_RESULT_TOO_DEEP);
  g_clear_error (&error);
  g_assert_true (g_file_set_contents (deep_path, deep->str, -1, NULL));
  g_assert_null (nsc_result_file_load (deep_path, &error));
  g_assert_true (nsc_error_get_problem (error) == NSC_PROBLEM_RESULT_TOO_DEEP);
  g_clear_error (&error);

  /* Depth is nesting, not a count of openings: many shallow objects one after
   * another (a long run's steps) are shallow. */
  {
    g_autoptr(GString) wide = g_string_new ("{\"schema\":1,\"preset\":{},\"target\":{},\"steps\":[");
    g_autoptr(JsonNode) wide_ok = NULL;
    for (guint i = 0; i < 200; i++)
      g_string_append_printf (wide, "%s{\"a\":{\"b\":[{\"c\":[%u]}]}}", i ? "," : "", i);
    g_string_append (wide, "]}");
    wide_ok = nsc_result_file_parse (wide->str, -1, &error);
    g_assert_true (nsc_error_get_problem (error) != NSC_PROBLEM_RESULT_TOO_DEEP);
    g_clear_error (&error);
  }

  /* Brackets inside strings (an escaped quote too) are text, not nesting. */
  for (guint i = 0; i < 200; i++)
    g_string_append (brackets, "[{");
  in_string = g_strdup_printf ("{\"schema\":1,\"steps\":[],\"preset\":{\"title\":\"\\\"%s\"},"
                               "\"target\":{}}", brackets->str);
  ok = nsc_result_file_parse (in_string, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ok);

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_null (nsc_result_file_load (fifo, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_true (nsc_error_get_problem (error) == NSC_PROBLEM_RESULT_NOT_REGULAR);
  {
    g_autofree char *words = said (error);
    g_assert_nonnull (strstr (words, "fifo.json: not a regular file"));
  }
  g_clear_error (&error);

  g_assert_null (nsc_result_file_load (dir, &error));
  g_assert_true (nsc_error_get_problem (error) == NSC_PROBLEM_RESULT_NOT_REGULAR);
  g_clear_error (&error);
  g_assert_null (nsc_result_file_load ("/dev/zero", &error));
  g_assert_true (nsc_error_get_problem (error) == NSC_PROBLEM_RESULT_NOT_REGULAR);
  g_clear_error (&error);

  fd = open (huge, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, (off_t) 300 << 20), ==, 0);
  close (fd);
  g_assert_null (nsc_result_file_load (huge, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_true (nsc_error_get_problem (error) == NSC_PROBLEM_RESULT_TOO_LARGE);
  {
    g_autofree char *words = said (error);
    g_assert_nonnull (strstr (words, "300 MiB, more than any Nandscope result (at most 256 MiB)"));
  }
  g_clear_error (&error);

  g_unlink (fifo);
  g_unlink (huge);
  g_unlink (deep_path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/extents/basic", test_extents);
  g_test_add_func ("/nsc/series/bounded", test_series_bounded);
  g_test_add_func ("/nsc/preset/builtin", test_presets_builtin);
  g_test_add_func ("/nsc/preset/run-writes", test_run_writes);
  g_test_add_func ("/nsc/preset/quick", test_preset_quick_is_crystaldiskmark);
  g_test_add_func ("/nsc/preset/errors", test_preset_errors);
  g_test_add_func ("/nsc/preset/suite", test_preset_suite);
  g_test_add_func ("/nsc/result/file", test_result_file);
  g_test_add_func ("/nsc/result/file-hostile", test_result_file_hostile);
  g_test_add_func ("/nsc/device/mountinfo", test_mountinfo);
  return g_test_run ();
}

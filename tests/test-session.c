/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "nsc-result-info.h"
#include "nsc-session.h"
#include "test-util.h"

#define MiB (G_GUINT64_CONSTANT (1) << 20)
#define GiB (G_GUINT64_CONSTANT (1) << 30)

/* What the user set stays; strict's defaults, then CrystalDiskMark's, fill the rest;
 * the hooks both front ends need are always there. */
static void
test_options (void)
{
  NscRunOptions user = NSC_RUN_OPTIONS_INIT;
  NscRunOptions o;

  user.target = "/somewhere/else";
  user.device_fd = 7;
  user.read_temperature = (NscTemperatureFunc) test_options;
  user.runs = 2;
  user.file_size = 64 * MiB;
  nsc_session_options (&o, "/tmp", &user);
  g_assert_cmpstr (o.target, ==, "/tmp");
  g_assert_cmpint (o.device_fd, ==, -1);
  g_assert_null (o.read_temperature);
  g_assert_cmpuint (o.runs, ==, 2);
  g_assert_cmpuint (o.file_size, ==, 64 * MiB);
  g_assert_false (o.strict);
  g_assert_false (o.cdm);
  g_assert_cmpuint (o.span_cap, ==, 0);
  g_assert_nonnull (o.check_device);
  g_assert_nonnull (o.erase);

  /* Strict and CrystalDiskMark's way together: strict's span and length win, the
   * user's runs stay. */
  user.strict = TRUE;
  user.cdm = TRUE;
  nsc_session_options (&o, "/tmp", &user);
  g_assert_true (o.strict);
  g_assert_true (o.cdm);
  g_assert_cmpuint (o.runs, ==, 2);
  g_assert_cmpuint (o.span_cap, ==, NSC_STRICT_SPAN);
  g_assert_cmpint (o.default_time_ns, ==, NSC_STRICT_TIME_NS);
  {
    /* The write budget sees the options the run gets: strict's 40 s is for steps
     * without a length of their own, not for every step. */
    NscBudgetTarget t = { 0 };

    nsc_session_budget_target (&o, &t);
    g_assert_true (t.strict);
    g_assert_cmpint (t.time_ns, ==, 0);
    g_assert_cmpint (t.default_time_ns, ==, NSC_STRICT_TIME_NS);
    g_assert_cmpuint (t.span_cap, ==, NSC_STRICT_SPAN);
    g_assert_cmpuint (t.runs, ==, 2);
  }

  /* CrystalDiskMark's way alone: its 5 runs, 5 s and 2 GiB. */
  user = (NscRunOptions) NSC_RUN_OPTIONS_INIT;
  user.cdm = TRUE;
  nsc_session_options (&o, "/tmp", &user);
  g_assert_cmpuint (o.runs, ==, 5);
  g_assert_cmpuint (o.span_cap, ==, 2 * GiB);

  /* Nothing asked: the preset's own. */
  nsc_session_options (&o, "/tmp", NULL);
  g_assert_cmpuint (o.runs, ==, 0);
  g_assert_false (o.strict);
}

/* A folder never needs consent; consent that is missing or names something else is
 * refused with NSC_ERROR_NEEDS_CONFIRMATION, and nothing is agreed to. */
static void
test_consent (void)
{
  g_autoptr(NscPreset) quick = nsc_preset_lookup ("quick", NULL);
  g_autofree char *dir = g_dir_make_tmp ("nsc-session-XXXXXX", NULL);
  g_autoptr(NscSession) s = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (quick);
  s = nsc_session_new (dir, NULL);
  g_assert_true (nsc_preset_writes (quick));
  g_assert_false (nsc_session_needs_consent (s, quick, NULL));

  g_assert_false (nsc_session_check_consent (s, NULL, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_NEEDS_CONFIRMATION);
  g_assert_null (s->options.destroy_data);
  g_clear_error (&error);

  /* /dev/null is a device node, but not a block device, and not the target. */
  g_assert_false (nsc_session_check_consent (s, "/dev/null", &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_NEEDS_CONFIRMATION);
  g_assert_null (s->options.destroy_data);
  g_clear_error (&error);

  g_rmdir (dir);
}

static gboolean
refuse_busy (gpointer     data,
             const char  *device,
             GError     **error)
{
  guint *calls = data;

  if (++(*calls) > 1)
    return TRUE;
  g_set_error (error, NSC_ERROR, NSC_ERROR_BUSY, "%s is in use (asked elsewhere)", device);
  return FALSE;
}

/* A front end with its own in-use check (an app in a sandbox asks UDisks2) gets it
 * both before consent and in the runner's hook; consent naming the target by its own
 * name is the target. */
static void
test_own_check (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nsc-session-XXXXXX", NULL);
  g_autoptr(NscSession) s = NULL;
  g_autoptr(GError) error = NULL;
  NscRunOptions user = NSC_RUN_OPTIONS_INIT;
  guint calls = 0;

  user.check_device = refuse_busy;
  user.check_data = &calls;
  s = nsc_session_new (dir, &user);
  g_assert_true (s->options.check_device == refuse_busy);
  g_assert_true (s->options.check_data == &calls);

  g_assert_false (nsc_session_check_in_use (s, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_BUSY);
  g_assert_cmpuint (calls, ==, 1);
  g_clear_error (&error);

  /* The second call says free: consent by the target's own name is taken. */
  g_assert_true (nsc_session_check_consent (s, dir, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (calls, ==, 2);
  g_assert_cmpstr (s->options.destroy_data, ==, dir);
  g_rmdir (dir);
}

/* A short run on a real folder, prepared, finished and saved by the session: the
 * result carries the drive and the bench, lands in the results folder under its
 * own name (a second one beside it), and reads back as the table, the text and the
 * caption. */
static void
test_run (void)
{
  static const char preset_json[] =
    "{\"name\":\"tiny\",\"title\":\"Tiny\",\"file_size\":\"8m\",\"runs\":1,\"time\":\"50ms\","
    "\"steps\":[{\"rw\":\"read\",\"bs\":\"1m\",\"qd\":2},{\"rw\":\"randwrite\",\"bs\":\"4k\"}]}";
  g_autoptr(NscPreset) preset = nsc_preset_new_from_data (preset_json, sizeof preset_json - 1, NULL);
  g_autofree char *dir = g_dir_make_tmp ("nsc-session-XXXXXX", NULL);
  g_autofree char *results = nsc_session_results_dir ();
  g_autoptr(NscSession) s = NULL;
  g_autoptr(NscRunner) runner = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *named = NULL;
  g_autofree char *table = NULL;
  g_autoptr(JsonNode) saved = NULL;
  NscRunOptions user = NSC_RUN_OPTIONS_INIT;
  NscRunResult *r;

  g_assert_nonnull (preset);
  /* main () pointed XDG_DATA_HOME at a folder of its own. */
  g_assert_true (g_str_has_prefix (results, g_get_user_data_dir ()));
  g_assert_true (g_str_has_suffix (results, "/nandscope/results"));

  user.backend = NSC_BACKEND_NULL;
  s = nsc_session_new (dir, &user);
  g_assert_false (nsc_session_needs_consent (s, preset, NULL));
  runner = nsc_runner_new (preset, &s->options);
  nsc_session_begin (s);
  r = nsc_test_run_to_end (runner);
  nsc_session_finish (s, r);
  g_assert_nonnull (r->bench);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (r->bench));
  g_assert_true (json_object_has_member (json_node_get_object (r->bench), "kernel"));
  /* The drive behind the folder, where sysfs knows one (not on tmpfs or overlay). */
  if (s->device != NULL)
    g_assert_nonnull (r->device);

  first = nsc_session_save (r, NULL, &error);
  g_assert_no_error (error);
  second = nsc_session_save (r, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (first, results));
  g_assert_true (g_str_has_suffix (first, "-tiny.json"));
  g_assert_true (g_str_has_suffix (second, "-tiny-2.json"));
  named = g_build_filename (dir, "r.json", NULL);
  g_free (nsc_session_save (r, named, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (named, G_FILE_TEST_IS_REGULAR));

  table = nsc_session_table (r, NSC_UNITS_MB);
  g_test_message ("%s", table);
  g_assert_nonnull (strstr (table, "Nandscope"));
  g_assert_nonnull (strstr (table, "Read MB/s"));
  g_assert_nonnull (strstr (table, "SEQ1M Q2T1"));
  g_assert_nonnull (strstr (table, "RND4K Q1T1"));

  saved = nsc_result_file_load (first, &error);
  g_assert_no_error (error);
  {
    g_autofree char *caption = nsc_result_info_caption (saved);
    g_autofree char *text = nsc_result_info_to_text (saved, NSC_UNITS_MB);

    g_assert_nonnull (strstr (caption, "Nandscope"));
    g_assert_nonnull (strstr (caption, "Tiny"));
    g_assert_nonnull (strstr (text, "[Read]"));
    g_assert_nonnull (strstr (text, "SEQ1M Q2T1"));
    g_assert_nonnull (strstr (text, "MB/s = 1,000,000 bytes/s"));
  }

  g_unlink (first);
  g_unlink (second);
  g_unlink (named);
  g_rmdir (results);
  g_rmdir (dir);
}

/* One speed formatter: three significant figures, in either unit. */
static void
test_speed (void)
{
  g_autofree char *a = nsc_format_speed (3512.4 * 1048576, NSC_UNITS_MIB);
  g_autofree char *b = nsc_format_speed (35.14e6, NSC_UNITS_MB);
  g_autofree char *c = nsc_format_speed (3.514 * 1048576, NSC_UNITS_MIB);
  g_autofree char *z = nsc_format_speed (0, NSC_UNITS_MB);

  g_assert_cmpstr (a, ==, "3512");
  g_assert_cmpstr (b, ==, "35.1");
  g_assert_cmpstr (c, ==, "3.51");
  g_assert_cmpstr (z, ==, "0");
}

/* The text report says a warning that several tests share once, and names the others
 * (as the app's list does); a different one stays apart. */
static void
test_table_groups_warnings (void)
{
  g_autoptr(NscRunResult) r = nsc_run_result_new ();
  const char *tests[] = { "SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1" };
  g_autofree char *table = NULL;
  const char *p;
  guint n = 0;

  nsc_test_use_language (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (tests); i++)
    {
      NscWarning *w = nsc_run_result_add_warning (r, (int) i, NSC_WARNING_FRESH_READS,
                                                  "%s: fresh reads", tests[i]);

      w->test = g_strdup (tests[i]);
      w->seconds = i == 3 ? 90 : 4;
    }
  table = nsc_session_table (r, NSC_UNITS_MIB);
  g_test_message ("%s", table);
  for (p = table; (p = strstr (p, "Warning (fresh-reads)")) != NULL; p++)
    n++;
  g_assert_cmpuint (n, ==, 2);
  g_assert_nonnull (strstr (table, "The same goes for 2 more tests: SEQ1M Q1T1, RND4K Q32T1."));
}

/* Cache recovery in the text report: a measured step's fast bytes as a size, a step
 * whose speed came back said to be not verified, with where, and one through memory
 * in front of the drive not verified, with its fast bytes. */
static void
test_table_recovery (void)
{
  g_autoptr(NscRunResult) r = nsc_run_result_new ();
  g_autofree char *table = NULL;
  g_autoptr(GError) error = NULL;

  nsc_test_use_language (NULL);
  r->analysis = json_from_string (
    "{\"cache_recovery\": {\"fast_threshold_bps\": 5e8, \"points\": ["
    "{\"step\": 2, \"idle_before_ns\": 30000000000, \"fast_bytes\": 5905580032, \"verdict\": \"measured\"},"
    "{\"step\": 4, \"idle_before_ns\": 60000000000, \"fast_bytes\": 2147483648, \"verdict\": \"not-verified\","
    " \"back_at_bytes\": 3221225472, \"back_bytes\": 1073741824},"
    "{\"step\": 6, \"idle_before_ns\": 90000000000, \"fast_bytes\": null},"
    "{\"step\": 8, \"idle_before_ns\": 120000000000, \"fast_bytes\": 1073741824, \"verdict\": \"not-verified\","
    " \"reason\": \"system-cache\"}]}}", &error);
  g_assert_no_error (error);
  table = nsc_session_table (r, NSC_UNITS_MIB);
  g_test_message ("%s", table);
  g_assert_nonnull (strstr (table, "After 30 s idle: 5.50 GiB fast again"));
  g_assert_nonnull (strstr (table, "After 60 s idle: not verified: 2 GiB fast, then slow, then fast again from 3 GiB"));
  g_assert_null (strstr (table, "After 90 s"));
  g_assert_nonnull (strstr (table, "After 120 s idle: 1 GiB fast again, not verified: memory in front "
                                   "of the drive may have taken it"));
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *data = g_dir_make_tmp ("nsc-session-data-XXXXXX", NULL);
  int status;

  /* The results folder of this test, before GLib reads the variable. */
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/session/options", test_options);
  g_test_add_func ("/nsc/session/consent", test_consent);
  g_test_add_func ("/nsc/session/own-check", test_own_check);
  g_test_add_func ("/nsc/session/run", test_run);
  g_test_add_func ("/nsc/session/speed", test_speed);
  g_test_add_func ("/nsc/session/table-groups-warnings", test_table_groups_warnings);
  g_test_add_func ("/nsc/session/table-recovery", test_table_recovery);
  status = g_test_run ();
  {
    g_autofree char *nandscope = g_build_filename (data, "nandscope", NULL);
    g_rmdir (nandscope);
  }
  g_rmdir (data);
  return status;
}

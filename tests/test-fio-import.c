/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fio's results as Nandscope results (nsc-fio-import): outputs fio 3.33 wrote on this
 * machine (tests/data/fio: three jobs in three groups, one with two clones, with their
 * bandwidth logs; three psync clones under group_reporting, then a job of one; a
 * --client run against two servers on localhost, with the lines fio prints before its
 * JSON, and one against two servers on their own addresses, with a log each), a write-fill whose log draws a cache (a synthetic curve, for the analysis),
 * and outputs that are not fio's or are hostile. */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "nsc-error.h"
#include "nsc-fio-import.h"
#include "nsc-json.h"
#include "nsc-result-file.h"
#include "test-util.h"

#define MIB (1024.0 * 1024.0)

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "fio", name, NULL);
}

static JsonObject *
fio_job (JsonObject *fio,
         guint       i)
{
  return json_array_get_object_element (json_object_get_array_member (fio, "jobs"), i);
}

static JsonNode *
parse_file (const char *name,
            char      **text)
{
  g_autofree char *path = data_path (name);
  g_autoptr(JsonParser) parser = json_parser_new ();
  gsize len;
  const char *start;

  g_assert_true (g_file_get_contents (path, text, &len, NULL));
  start = strstr (*text, "\n{");
  g_assert_true (json_parser_load_from_data (parser, start ? start + 1 : *text, -1, NULL));
  return json_node_ref (json_parser_get_root (parser));
}

/* fio's output in tests/data/fio, read into *@text (and parsed into *@fio when
 * asked) and imported with the logs there. */
static GPtrArray *
import_data (const char  *name,
             char       **text,
             JsonNode   **fio)
{
  g_autofree char *path = data_path (name);
  g_autofree char *logs = data_path ("");
  g_autoptr(GError) error = NULL;
  GPtrArray *results;

  if (fio)
    *fio = parse_file (name, text);
  else
    g_assert_true (g_file_get_contents (path, text, NULL, NULL));
  results = nsc_fio_import (*text, -1, logs, &error);
  g_assert_no_error (error);
  return results;
}

/* Three jobs, a clone: each a step with fio's figures, its log its series. */
static void
test_jobs (void)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) fio = NULL;
  g_autoptr(GPtrArray) results = import_data ("multi.json", &text, &fio);
  g_autoptr(GError) error = NULL;
  static const struct { const char *label, *rw; guint bs, qd; } want[] = {
    { "seq-write", "write", 1048576, 8 }, { "rand-read", "randread", 4096, 32 },
    { "mixed", "randrw", 4096, 4 }, { "mixed #2", "randrw", 4096, 4 },
  };
  JsonObject *r, *source;
  JsonArray *steps;

  g_assert_no_error (error);
  g_assert_cmpuint (results->len, ==, 1);
  g_assert_true (nsc_result_file_validate (g_ptr_array_index (results, 0), &error));
  g_assert_no_error (error);
  r = json_node_get_object (g_ptr_array_index (results, 0));
  source = nsc_json_get_object (r, "source");
  g_assert_cmpstr (nsc_json_get_string (source, "tool"), ==, "fio");
  g_assert_cmpstr (nsc_json_get_string (source, "version"), ==, "fio-3.33");
  g_assert_cmpstr (nsc_json_get_string (source, "ioengines"), ==, "io_uring");
  g_assert_nonnull (nsc_json_get_array (source, "not_supported"));
  /* The target was not seen here: what stood before the drive is "possible". */
  g_assert_cmpstr (nsc_json_get_string (nsc_json_get_object (nsc_json_get_object (r, "target"), "system_cache"),
                                        "certainty"), ==, "possible");
  steps = json_object_get_array_member (r, "steps");
  g_assert_cmpuint (json_array_get_length (steps), ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      JsonObject *s = json_array_get_object_element (steps, i);
      JsonObject *job = nsc_json_get_object (s, "job");
      JsonObject *series = nsc_json_get_object (s, "series");
      JsonObject *fj = fio_job (json_node_get_object (fio), i);

      g_assert_cmpstr (nsc_json_get_string (s, "label"), ==, want[i].label);
      g_assert_cmpstr (nsc_json_get_string (job, "rw"), ==, want[i].rw);
      g_assert_cmpint (nsc_json_get_number (job, "block_size", 0), ==, want[i].bs);
      g_assert_cmpint (nsc_json_get_number (job, "queue_depth", 0), ==, want[i].qd);
      g_assert_cmpstr (nsc_json_get_string (s, "backend"), ==, "io_uring");
      for (int d = 0; d < 2; d++)
        {
          const char *dir = d ? "write" : "read";
          JsonObject *mine = nsc_json_get_object (s, dir), *theirs = nsc_json_get_object (fj, dir);
          JsonObject *clat = nsc_json_get_object (theirs, "clat_ns");
          JsonObject *lat = nsc_json_get_object (mine, "lat_ns");
          JsonArray *col = nsc_json_get_array (series, d ? "write_bytes" : "read_bytes");
          double logged = 0;

          /* fio's figures, as fio gave them. */
          g_assert_cmpfloat (nsc_json_get_number (mine, "bytes", -1), ==, nsc_json_get_number (theirs, "io_bytes", -2));
          g_assert_cmpfloat (nsc_json_get_number (mine, "ios", -1), ==, nsc_json_get_number (theirs, "total_ios", -2));
          g_assert_cmpfloat (nsc_json_get_number (mine, "bw_bps", -1), ==, nsc_json_get_number (theirs, "bw_bytes", -2));
          g_assert_cmpfloat (fabs (nsc_json_get_number (mine, "iops", -1) - nsc_json_get_number (theirs, "iops", -2)), <, 1e-6);
          if (nsc_json_get_number (theirs, "io_bytes", 0) > 0)
            {
              JsonObject *p = nsc_json_get_object (lat, "percentiles");
              JsonObject *fp = nsc_json_get_object (clat, "percentile");

              g_assert_cmpfloat (nsc_json_get_number (lat, "max", -1), ==, nsc_json_get_number (clat, "max", -2));
              g_assert_cmpfloat (nsc_json_get_number (lat, "min", -1), ==, nsc_json_get_number (clat, "min", -2));
              g_assert_cmpfloat (nsc_json_get_number (p, "99", -1), ==, nsc_json_get_number (fp, "99.000000", -2));
              g_assert_cmpfloat (nsc_json_get_number (p, "50", -1), ==, nsc_json_get_number (fp, "50.000000", -2));
              g_assert_cmpfloat (nsc_json_get_number (p, "99.99", -1), ==, nsc_json_get_number (fp, "99.990000", -2));
            }
          /* The log's windows add up to about what fio moved (its averages over
           * 100 ms windows, the last one cut short). */
          for (guint k = 0; col && k < json_array_get_length (col); k++)
            logged += json_array_get_int_element (col, k);
          if (nsc_json_get_number (theirs, "io_bytes", 0) > 0)
            {
              double ratio = logged / nsc_json_get_number (theirs, "io_bytes", 1);

              g_test_message ("%s %s: the log's windows hold %.3f of fio's bytes", want[i].label, dir, ratio);
              g_assert_cmpfloat (ratio, >, 0.8);
              g_assert_cmpfloat (ratio, <, 1.2);
            }
        }
      g_assert_cmpuint (json_array_get_length (nsc_json_get_array (series, "t_ns")), >=, 5);
    }
}

/* fio --client with two servers on one machine: a result each, "All clients" none. */
static void
test_client (void)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) results = import_data ("client.json", &text, NULL);

  g_assert_true (g_str_has_prefix (text, "<"));   /* fio's lines before its JSON */
  g_assert_true (nsc_fio_text_is_fio (text, strlen (text)));
  g_assert_cmpuint (results->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *r = json_node_get_object (g_ptr_array_index (results, i));
      JsonArray *steps = json_object_get_array_member (r, "steps");
      JsonObject *s = json_array_get_object_element (steps, 0);
      g_autofree char *host = g_strdup_printf ("localhost:%u", 8771 + i);

      g_assert_true (nsc_result_file_validate (g_ptr_array_index (results, i), &error));
      g_assert_cmpstr (nsc_json_get_string (nsc_json_get_object (r, "source"), "host"), ==, host);
      g_assert_cmpuint (json_array_get_length (steps), ==, 1);
      g_assert_cmpstr (nsc_json_get_string (s, "label"), ==, "w");
      g_assert_cmpfloat (nsc_json_get_number (nsc_json_get_object (s, "write"), "bytes", 0), >, 0);
      g_assert_cmpstr (nsc_json_get_string (s, "backend"), ==, "psync");
      /* The client's log (both servers wrote one name: the later's). */
      g_assert_cmpuint (json_array_get_length (nsc_json_get_array (nsc_json_get_object (s, "series"), "t_ns")), >=, 5);
    }
}

/* The bytes a bandwidth log holds, each line its speed over the time since the last. */
static double
log_bytes (const char *name)
{
  g_autofree char *path = data_path (name);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  double sum = 0, last = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      double t, kib;

      if (sscanf (lines[i], "%lf, %lf", &t, &kib) != 2)
        continue;
      sum += kib * 1024 * (t - last) / 1000;
      last = t;
    }
  return sum;
}

/* fio --client with two hosts (two servers on their own addresses): each result's
 * series is its own host's log, which the client named after the host. */
static void
test_client_hosts (void)
{
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) results = import_data ("two.json", &text, NULL);
  double want[2];

  g_assert_cmpuint (results->len, ==, 2);
  want[0] = log_bytes ("two_bw.1.log.127.0.0.2");
  want[1] = log_bytes ("two_bw.1.log.127.0.0.3");
  /* The two logs differ, so a host given the other's shows. */
  g_assert_cmpfloat (fabs (want[0] - want[1]), >, 0.05 * want[0]);
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *r = json_node_get_object (g_ptr_array_index (results, i));
      JsonObject *s = json_array_get_object_element (json_object_get_array_member (r, "steps"), 0);
      JsonArray *col = nsc_json_get_array (nsc_json_get_object (s, "series"), "write_bytes");
      const char *host = nsc_json_get_string (nsc_json_get_object (r, "source"), "host");
      double logged = 0;
      guint k;

      g_assert_true (g_strcmp0 (host, "127.0.0.2") == 0 || g_strcmp0 (host, "127.0.0.3") == 0);
      g_assert_nonnull (col);
      for (k = 0; k < json_array_get_length (col); k++)
        logged += json_array_get_int_element (col, k);
      g_test_message ("%s: its series %.0f B, its log %.0f B", host, logged,
                      want[g_str_equal (host, "127.0.0.3")]);
      /* Within a byte a window of its own log's sum. */
      g_assert_cmpfloat (fabs (logged - want[g_str_equal (host, "127.0.0.3")]), <=, k + 1);
    }
}

/* group_reporting over three clones (psync threads, as export-fio writes Nandscope's
 * psync path), then a job of one: the clones' logs summed window by window into the
 * step's series, the next job's log numbered after them. */
static void
test_group_clones (void)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) fio = NULL;
  g_autoptr(GPtrArray) results = import_data ("group.json", &text, &fio);
  JsonArray *steps;

  g_assert_cmpuint (results->len, ==, 1);
  steps = json_object_get_array_member (json_node_get_object (g_ptr_array_index (results, 0)), "steps");
  g_assert_cmpuint (json_array_get_length (steps), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *s = json_array_get_object_element (steps, i);
      JsonObject *series = nsc_json_get_object (s, "series");
      JsonObject *fj = fio_job (json_node_get_object (fio), i);
      const char *dir = i == 0 ? "write" : "read";
      JsonArray *col = nsc_json_get_array (series, i == 0 ? "write_bytes" : "read_bytes");
      double logged = 0, ratio;

      g_assert_null (nsc_json_get_string (s, "fio_note"));
      g_assert_cmpfloat (nsc_json_get_number (nsc_json_get_object (s, dir), "bytes", -1), ==,
                         nsc_json_get_number (nsc_json_get_object (fj, dir), "io_bytes", -2));
      g_assert_nonnull (col);
      g_assert_cmpuint (json_array_get_length (col), >=, 5);
      for (guint k = 0; k < json_array_get_length (col); k++)
        logged += json_array_get_int_element (col, k);
      ratio = logged / nsc_json_get_number (nsc_json_get_object (fj, dir), "io_bytes", 1);
      g_test_message ("%s: the logs' windows hold %.3f of fio's bytes", nsc_json_get_string (s, "label"), ratio);
      /* Three clones' logs summed: not one clone's third. */
      g_assert_cmpfloat (ratio, >, 0.8);
      g_assert_cmpfloat (ratio, <, 1.2);
      /* One window per log_avg_msec, the clones' lines of a time together: about
       * ten a second, not thirty. */
      g_assert_cmpfloat (json_array_get_length (col), <=,
                         nsc_json_get_number (nsc_json_get_object (fj, dir), "runtime", 0) / 100 + 2);
    }
}

/* A sequential write over its whole region with a log that draws a cache: 280 MiB
 * at 400 MiB/s, then 120 MiB/s to 1 GiB. The write-fill analysis finds it, and says
 * it is not verified: fio's target was not seen. */
static void
test_write_fill (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nsc-fio-XXXXXX", NULL);
  g_autofree char *prefix = g_build_filename (dir, "fill", NULL);
  g_autofree char *log = g_strconcat (prefix, "_bw.1.log", NULL);
  g_autoptr(GString) lines = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autofree char *text = NULL;
  double written = 0, t_ms = 0;
  JsonObject *slc;

  for (guint k = 0; written < 1024 * MIB; k++)
    {
      /* Seven windows of 40 MiB in the cache: 280 MiB. */
      double bps = k < 7 ? 400 * MIB : 120 * MIB;

      t_ms += 100;
      written += bps / 10;
      g_string_append_printf (lines, "%.0f, %.0f, 1, 0, 0\n", t_ms, bps / 1024);
    }
  g_assert_true (g_file_set_contents (log, lines->str, -1, NULL));
  text = g_strdup_printf ("{\"fio version\": \"fio-3.33\", \"timestamp\": 1796400000, \"jobs\": [{"
                          "\"jobname\": \"fill\", \"groupid\": 0, \"error\": 0, \"job_runtime\": %.0f,"
                          "\"job options\": {\"rw\": \"write\", \"bs\": \"1M\", \"iodepth\": \"8\","
                          " \"size\": \"1G\", \"direct\": \"1\", \"filename\": \"/dev/nvme0n1\","
                          " \"write_bw_log\": \"fill\", \"log_avg_msec\": \"100\"},"
                          "\"read\": {\"io_bytes\": 0, \"bw_bytes\": 0, \"iops\": 0, \"runtime\": 0, \"total_ios\": 0},"
                          "\"write\": {\"io_bytes\": 1073741824, \"bw_bytes\": %.0f, \"iops\": %.1f,"
                          " \"runtime\": %.0f, \"total_ios\": 1024,"
                          " \"clat_ns\": {\"min\": 1000, \"max\": 900000, \"mean\": 5000.5,"
                          " \"percentile\": {\"50.000000\": 4000, \"99.000000\": 80000}}}}]}",
                          t_ms, 1024 * MIB / (t_ms / 1000), 1024 / (t_ms / 1000), t_ms);
  results = nsc_fio_import (text, -1, dir, &error);
  g_assert_no_error (error);
  slc = nsc_json_get_object (nsc_json_get_object (json_node_get_object (g_ptr_array_index (results, 0)),
                                                  "analysis"), "slc");
  g_assert_nonnull (slc);
  g_test_message ("cache %.1f MiB, verdict %s", nsc_json_get_number (slc, "cache_bytes", 0) / MIB,
                  nsc_json_get_string (slc, "verdict"));
  g_assert_true (nsc_json_get_bool (slc, "has_cache"));
  g_assert_cmpfloat (fabs (nsc_json_get_number (slc, "cache_bytes", 0) / (280 * MIB) - 1), <, 0.05);
  g_assert_cmpstr (nsc_json_get_string (slc, "verdict"), ==, "not-verified");
  g_assert_cmpstr (nsc_json_get_string (nsc_json_get_object (nsc_json_get_object (
                     json_node_get_object (g_ptr_array_index (results, 0)), "target"), "system_cache"), "kind"),
                   ==, "fio");
  nsc_test_rm_rf (dir);
}

/* What is not fio's, or is hostile, is refused with a problem that says so. */
static void
test_refused (void)
{
  static const struct { const char *text; NscProblem problem; } cases[] = {
    { "not json at all", NSC_PROBLEM_FIO_DAMAGED },
    { "{\"jobs\": []}", NSC_PROBLEM_FIO_NOT_FIO },
    { "[1, 2, 3]", NSC_PROBLEM_FIO_NOT_FIO },
    { "{\"fio version\": \"fio-3.33\"}", NSC_PROBLEM_FIO_NO_JOBS },
    { "{\"fio version\": \"fio-3.33\", \"jobs\": []}", NSC_PROBLEM_FIO_NO_JOBS },
    { "{\"fio version\": \"fio-3.33\", \"jobs\": [7]}", NSC_PROBLEM_FIO_JOB_MEMBER },
    { "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"groupid\": 0}]}", NSC_PROBLEM_FIO_JOB_MEMBER },
    /* Members missing, of the wrong type, negative, huge, not finite. */
    { "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"a\"}]}", NSC_PROBLEM_FIO_JOB_MEMBER },
    { "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"a\", \"read\": {\"io_bytes\": \"12\","
      " \"bw_bytes\": 0, \"iops\": 0}, \"write\": {}}]}", NSC_PROBLEM_FIO_JOB_MEMBER },
    { "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"a\", \"read\": {\"io_bytes\": -5,"
      " \"bw_bytes\": 0, \"iops\": 0}, \"write\": {}}]}", NSC_PROBLEM_FIO_JOB_MEMBER },
    { "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"a\", \"read\": {\"io_bytes\": 1e300,"
      " \"bw_bytes\": 0, \"iops\": 0}, \"write\": {}}]}", NSC_PROBLEM_FIO_JOB_MEMBER },
    { "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"a\", \"read\": {\"io_bytes\": 4096,"
      " \"bw_bytes\": 10, \"iops\": 1, \"clat_ns\": {\"min\": 1, \"max\": 2, \"mean\": 1,"
      " \"percentile\": {\"50.000000\": \"fast\"}}}, \"write\": {\"io_bytes\": 0, \"bw_bytes\": 0,"
      " \"iops\": 0}}]}", NSC_PROBLEM_FIO_JOB_MEMBER },
    { "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"a\", \"job options\": {\"bs\": \"huge\"},"
      " \"read\": {\"io_bytes\": 0, \"bw_bytes\": 0, \"iops\": 0}, \"write\": {\"io_bytes\": 0,"
      " \"bw_bytes\": 0, \"iops\": 0}}]}", NSC_PROBLEM_FIO_JOB_MEMBER },
    { "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"a\", \"job options\": {\"iodepth\": \"99999999\"},"
      " \"read\": {\"io_bytes\": 0, \"bw_bytes\": 0, \"iops\": 0}, \"write\": {\"io_bytes\": 0,"
      " \"bw_bytes\": 0, \"iops\": 0}}]}", NSC_PROBLEM_FIO_JOB_MEMBER },
    { "{\"fio version\": \"fio-3.33\", \"client_stats\": [{\"jobname\": \"a\", \"read\": {}, \"write\": {}}]}",
      NSC_PROBLEM_FIO_JOB_MEMBER },
  };
  g_autoptr(GString) deep = g_string_new ("{\"fio version\": \"fio-3.33\", \"jobs\": ");
  g_autoptr(GString) many = g_string_new ("{\"fio version\": \"fio-3.33\", \"jobs\": [");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) results = nsc_fio_import (cases[i].text, -1, NULL, &error);

      g_assert_null (results);
      g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
      g_test_message ("%u: %s", i, error->message);
      g_assert_cmpint (nsc_error_get_problem (error), ==, cases[i].problem);
    }
  for (guint i = 0; i < 200; i++)
    g_string_append_c (deep, '[');
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) results = nsc_fio_import (deep->str, -1, NULL, &error);

    g_assert_null (results);
    g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_FIO_TOO_DEEP);
  }
  for (guint i = 0; i < 5000; i++)
    g_string_append_printf (many, "%s{\"jobname\": \"j\"}", i ? "," : "");
  g_string_append (many, "]}");
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GPtrArray) results = nsc_fio_import (many->str, -1, NULL, &error);

    g_assert_null (results);
    g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_FIO_TOO_MANY_JOBS);
  }
}

/* A log line that is not fio's is refused, naming the file and the line. */
static void
test_bad_log (void)
{
  g_autofree char *dir = g_dir_make_tmp ("nsc-fio-XXXXXX", NULL);
  g_autofree char *prefix = g_build_filename (dir, "x", NULL);
  g_autofree char *log = g_strconcat (prefix, "_bw.1.log", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) results = NULL;
  const char *text = "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"a\", \"job options\":"
                     " {\"rw\": \"write\", \"log_avg_msec\": \"100\", \"write_bw_log\": \"x\"}, \"read\": {\"io_bytes\": 0,"
                     " \"bw_bytes\": 0, \"iops\": 0}, \"write\": {\"io_bytes\": 0, \"bw_bytes\": 0, \"iops\": 0}}]}";

  g_assert_true (g_file_set_contents (log, "100, 5000, 1, 0, 0\n200, lots, 1, 0, 0\n", -1, NULL));
  results = nsc_fio_import (text, -1, dir, &error);
  g_assert_null (results);
  g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_FIO_LOG_LINE);
  g_assert_nonnull (strstr (error->message, "2"));
  g_clear_error (&error);
  /* Speeds and times no drive reaches: more bytes than fio could have moved. */
  g_assert_true (g_file_set_contents (log, "1000000000000, 900000000000000, 1, 0, 0\n", -1, NULL));
  g_assert_null (nsc_fio_import (text, -1, dir, &error));
  g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_FIO_LOG_LINE);
  nsc_test_rm_rf (dir);
}

/* A file export-fio wrote: runs with CrystalDiskMark's pause between them come back
 * as one step of their runs, the pause an idle step, the result the preset's. */
static void
test_exported (void)
{
#define job \
    "{\"jobname\": \"%s\", \"job_runtime\": 1000, \"job options\": {%s}," \
    " \"read\": {\"io_bytes\": %u, \"bw_bytes\": %u, \"iops\": 1, \"total_ios\": 1," \
    " \"clat_ns\": {\"min\": 1, \"max\": %u, \"mean\": 1}}," \
    " \"write\": {\"io_bytes\": 0, \"bw_bytes\": 0, \"iops\": 0}}"
  g_autofree char *r1 = g_strdup_printf (job, "s01-r1-SEQ1M-Q8T1", "\"rw\": \"read\", \"bs\": \"1048576\","
                                         " \"iodepth\": \"8\", \"description\": \"nandscope preset=quick step=1 run=1"
                                         " analysis=- label=SEQ1M Q8T1\"", 100, 100, 11);
  g_autofree char *pause = g_strdup_printf (job, "s01-idle", "\"ioengine\": \"exec\"", 0, 0, 0);
  g_autofree char *r2 = g_strdup_printf (job, "s01-r2-SEQ1M-Q8T1", "\"rw\": \"read\", \"bs\": \"1048576\","
                                         " \"iodepth\": \"8\", \"description\": \"nandscope preset=quick step=1 run=2"
                                         " analysis=- label=SEQ1M Q8T1\"", 300, 300, 33);
  g_autofree char *r3 = g_strdup_printf (job, "s02-r1-RND4K-Q1T1", "\"rw\": \"randread\", \"bs\": \"4096\","
                                         " \"description\": \"nandscope preset=quick step=2 run=1"
                                         " analysis=- label=RND4K Q1T1\"", 50, 50, 5);
  g_autofree char *text = g_strdup_printf ("{\"fio version\": \"fio-3.33\", \"jobs\": [%s, %s, %s, %s]}",
                                           r1, pause, r2, r3);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) results = nsc_fio_import (text, -1, NULL, &error);
  JsonObject *r, *s1;
  JsonArray *steps, *runs;

  g_assert_no_error (error);
  r = json_node_get_object (g_ptr_array_index (results, 0));
  g_assert_cmpstr (nsc_json_get_string (nsc_json_get_object (r, "preset"), "name"), ==, "quick");
  g_assert_cmpstr (nsc_json_get_string (nsc_json_get_object (r, "preset"), "title"), ==, "Quick");
  steps = json_object_get_array_member (r, "steps");
  g_assert_cmpuint (json_array_get_length (steps), ==, 3);
  s1 = json_array_get_object_element (steps, 0);
  g_assert_cmpstr (nsc_json_get_string (s1, "label"), ==, "SEQ1M Q8T1");
  runs = json_object_get_array_member (s1, "runs");
  g_assert_cmpuint (json_array_get_length (runs), ==, 2);
  /* Each run its own latency. */
  g_assert_cmpfloat (nsc_json_get_number (nsc_json_get_object (nsc_json_get_object (json_array_get_object_element (runs, 1),
                                                                                    "read"), "lat_ns"), "max", 0), ==, 33);
  g_assert_cmpstr (nsc_json_get_string (json_array_get_object_element (steps, 1), "kind"), ==, "idle");
  g_assert_cmpstr (nsc_json_get_string (json_array_get_object_element (steps, 2), "label"), ==, "RND4K Q1T1");
#undef job
}

/* fio's sizes and times as fio reads them: "k" 1024 and "ki" 1000 by default
 * (kb_base=1024, the old way round), the other way with kb_base=1000. */
static void
test_units (void)
{
  static const struct { const char *size, *base; guint64 bytes; } cases[] = {
    { "4k", NULL, 4096 }, { "4KB", NULL, 4096 }, { "4KiB", NULL, 4000 }, { "1m", NULL, 1048576 },
    { "2MiB", NULL, 2000000 }, { "1g", NULL, 1073741824 }, { "12345", NULL, 12345 },
    { "4k", "1000", 4000 }, { "4kB", "1000", 4000 }, { "4KiB", "1000", 4096 }, { "1Gi", "1000", 1073741824 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *base = cases[i].base ? g_strdup_printf (", \"kb_base\": \"%s\"", cases[i].base) : g_strdup ("");
      g_autofree char *text = g_strdup_printf ("{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"a\","
                                               " \"job options\": {\"size\": \"%s\", \"time_based\": \"1\","
                                               " \"runtime\": \"1500msec\"%s}, \"read\": {\"io_bytes\": 0,"
                                               " \"bw_bytes\": 0, \"iops\": 0}, \"write\": {\"io_bytes\": 0,"
                                               " \"bw_bytes\": 0, \"iops\": 0}}]}", cases[i].size, base);
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) results = nsc_fio_import (text, -1, NULL, &error);
      JsonObject *job;

      g_assert_no_error (error);
      job = nsc_json_get_object (json_array_get_object_element (json_object_get_array_member (
              json_node_get_object (g_ptr_array_index (results, 0)), "steps"), 0), "job");
      g_test_message ("size=%s kb_base=%s: %.0f", cases[i].size, cases[i].base ? cases[i].base : "1024",
                      nsc_json_get_number (job, "region_length", 0));
      g_assert_cmpfloat (nsc_json_get_number (job, "region_length", 0), ==, (double) cases[i].bytes);
      g_assert_cmpfloat (nsc_json_get_number (job, "time_ns", 0), ==, 1.5e9);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  nsc_test_use_language ("C");
  g_test_add_func ("/nsc/fio-import/jobs", test_jobs);
  g_test_add_func ("/nsc/fio-import/client", test_client);
  g_test_add_func ("/nsc/fio-import/client-hosts", test_client_hosts);
  g_test_add_func ("/nsc/fio-import/group-clones", test_group_clones);
  g_test_add_func ("/nsc/fio-import/write-fill", test_write_fill);
  g_test_add_func ("/nsc/fio-import/refused", test_refused);
  g_test_add_func ("/nsc/fio-import/bad-log", test_bad_log);
  g_test_add_func ("/nsc/fio-import/exported", test_exported);
  g_test_add_func ("/nsc/fio-import/units", test_units);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "nsc-engine.h"
#include "nsc-fio-import.h"
#include "nsc-json.h"
#include "nsc-result-file.h"
#include "nsc-result-info.h"
#include "nsc-words.h"

static JsonObject *
root_object (JsonNode *result)
{
  return result && JSON_NODE_HOLDS_OBJECT (result) ? json_node_get_object (result) : NULL;
}

GPtrArray *
nsc_result_info_open (const char  *path,
                      GError     **error)
{
  g_autofree char *text = NULL;
  g_autofree char *dir = NULL;
  GPtrArray *results;
  GError *local = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  /* Read once, bounded as a result is; fio's output goes to the importer. */
  if (!(text = nsc_result_file_read (path, (gsize) 256 << 20, NSC_PROBLEM_RESULT_NOT_REGULAR,
                                     NSC_PROBLEM_RESULT_TOO_LARGE, &length, error)))
    return NULL;
  if (!nsc_fio_text_is_fio (text, length))
    {
      JsonNode *root = nsc_result_file_parse (text, (gssize) length, &local);

      if (root == NULL)
        {
          g_propagate_prefixed_error (error, local, "%s: ", path);
          return NULL;
        }
      results = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
      g_ptr_array_add (results, root);
      return results;
    }
  dir = g_path_get_dirname (path);
  if (!(results = nsc_fio_import (text, (gssize) length, dir, &local)))
    {
      g_propagate_prefixed_error (error, local, "%s: ", path);
      return NULL;
    }
  return results;
}

char *
nsc_units_format (NscUnits units,
                  double   bw_bps,
                  double   iops,
                  double   lat_mean_ns)
{
  switch (units)
    {
    case NSC_UNITS_IOPS:
      return g_strdup_printf ("%.0f", iops);
    case NSC_UNITS_US:
      return nsc_format_significant (lat_mean_ns / 1e3);
    case NSC_UNITS_MIB:
    case NSC_UNITS_MB:
    default:
      return nsc_format_speed (bw_bps, units);
    }
}

void
nsc_result_row_free (NscResultRow *row)
{
  if (row == NULL)
    return;
  g_free (row->label);
  g_free (row->description);
  g_free (row);
}

static char *
describe_job (JsonObject *job)
{
  g_autofree char *bs = nsc_words_size ((guint64) nsc_json_get_number (job, "block_size", 0));
  const char *pattern = g_strcmp0 (nsc_json_get_string (job, "pattern"), "random") == 0
                        ? _("Random") : _("Sequential");
  guint workers = (guint) nsc_json_get_number (job, "workers", 1);

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s, %s blocks, queue depth %u, %u thread",
                                       "%s, %s blocks, queue depth %u, %u threads",
                                       workers),
                          pattern, bs, (guint) nsc_json_get_number (job, "queue_depth", 1), workers);
}

GPtrArray *
nsc_result_info_rows (JsonNode *result)
{
  static const char *dirs[] = { "read", "write" };
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_result_row_free);
  JsonObject *root = root_object (result);
  JsonNode *steps_node = root ? json_object_get_member (root, "steps") : NULL;
  JsonArray *steps = steps_node && JSON_NODE_HOLDS_ARRAY (steps_node)
                     ? json_node_get_array (steps_node) : NULL;

  for (guint i = 0; steps && i < json_array_get_length (steps); i++)
    {
      JsonNode *sn = json_array_get_element (steps, i);
      JsonObject *step = JSON_NODE_HOLDS_OBJECT (sn) ? json_node_get_object (sn) : NULL;
      JsonObject *job = nsc_json_get_object (step, "job");
      const char *label = nsc_json_get_string (step, "label");
      const char *kind = nsc_json_get_string (step, "kind");
      NscResultRow *row = NULL;
      double read_percent;

      if (job == NULL || label == NULL || (kind && g_strcmp0 (kind, "job") != 0))
        continue;
      for (guint r = 0; r < rows->len && row == NULL; r++)
        if (g_str_equal (((NscResultRow *) g_ptr_array_index (rows, r))->label, label))
          row = g_ptr_array_index (rows, r);
      if (row == NULL)
        {
          row = g_new0 (NscResultRow, 1);
          row->label = g_strdup (label);
          row->description = describe_job (job);
          row->completed = TRUE;
          g_ptr_array_add (rows, row);
        }
      read_percent = nsc_json_get_number (job, "read_percent", 100);
      row->completed = row->completed && nsc_json_get_bool (step, "completed");
      for (guint d = 0; d < 2; d++)
        {
          JsonObject *dir = nsc_json_get_object (step, dirs[d]);
          gboolean wanted = d == 0 ? read_percent > 0 : read_percent < 100;

          if (!wanted || row->has[d])
            continue;
          row->has[d] = TRUE;
          if (nsc_json_get_number (dir, "ios", 0) > 0)
            {
              row->bw_bps[d] = nsc_json_get_number (dir, "bw_bps", 0);
              row->iops[d] = nsc_json_get_number (dir, "iops", 0);
              row->lat_mean_ns[d] = nsc_json_get_number (nsc_json_get_object (dir, "lat_ns"), "mean", 0);
            }
        }
    }
  return rows;
}

char *
nsc_result_info_drive (JsonNode *result)
{
  JsonObject *root = root_object (result);
  JsonObject *dev = nsc_json_get_object (root, "device");
  const char *model = nsc_json_get_string (dev, "model");
  const char *vendor = nsc_json_get_string (dev, "vendor");
  const char *description;

  if (model != NULL && *model != '\0')
    return vendor && *vendor && !g_str_has_prefix (model, vendor)
           ? g_strdup_printf ("%s %s", vendor, model) : g_strdup (model);
  if (nsc_json_get_string (dev, "name"))
    /* TRANSLATORS: a drive without a model name, e.g. "Drive vda" */
    return g_strdup_printf (_("Drive %s"), nsc_json_get_string (dev, "name"));
  description = nsc_json_get_string (nsc_json_get_object (root, "target"), "description");
  if (description && *description)
    return g_strdup (description);
  return g_strdup (_("Unknown drive"));
}

char *
nsc_result_info_drive_facts (JsonNode *result)
{
  g_autofree char *name = nsc_result_info_drive (result);
  g_autofree char *details = nsc_result_info_drive_details (result);

  return *details ? g_strdup_printf ("%s · %s", name, details) : g_steal_pointer (&name);
}

char *
nsc_result_info_drive_details (JsonNode *result)
{
  JsonObject *root = root_object (result);
  JsonObject *dev = nsc_json_get_object (root, "device");
  JsonObject *link = nsc_json_get_object (dev, "link");
  double capacity = nsc_json_get_number (dev, "capacity", 0);
  const char *fw = nsc_json_get_string (dev, "firmware");
  const char *transport = nsc_json_get_string (dev, "transport");
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  if (capacity > 0)
    g_ptr_array_add (parts, nsc_words_drive_size ((guint64) capacity, FALSE));
  if (fw)
    /* TRANSLATORS: firmware version */
    g_ptr_array_add (parts, g_strdup_printf (_("FW %s"), fw));
  if (link && nsc_json_get_number (link, "generation", 0) > 0)
    g_ptr_array_add (parts, g_strdup_printf ("%s PCIe %.0f.0 x%.0f", transport ? transport : "",
                                             nsc_json_get_number (link, "generation", 0),
                                             nsc_json_get_number (link, "width", 0)));
  else if (transport)
    g_ptr_array_add (parts, g_strdup (transport));
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (" · ", (char **) parts->pdata);
}

static char *
make_caption (JsonNode *result)
{
  JsonObject *root = json_node_get_object (result);
  JsonObject *dev = nsc_json_get_object (root, "device");
  JsonObject *target = nsc_json_get_object (root, "target");
  JsonObject *link = nsc_json_get_object (dev, "link");
  JsonObject *app = nsc_json_get_object (root, "app");
  JsonObject *bench = nsc_json_get_object (root, "bench");
  const char *kernel = nsc_json_get_string (bench, "kernel");
  const char *model = nsc_json_get_string (dev, "model");
  const char *vendor = nsc_json_get_string (dev, "vendor");
  const char *fw = nsc_json_get_string (dev, "firmware");
  const char *transport = nsc_json_get_string (dev, "transport");
  const char *started = nsc_json_get_string (root, "started");
  const char *preset = nsc_result_info_preset_title (result);
  double capacity = nsc_json_get_number (dev, "capacity", 0);
  GPtrArray *parts = g_ptr_array_new_with_free_func (g_free);
  char *caption;

  if (model)
    g_ptr_array_add (parts, vendor && !g_str_has_prefix (model, vendor)
                            ? g_strdup_printf ("%s %s", vendor, model) : g_strdup (model));
  else if (nsc_json_get_string (dev, "name"))
    g_ptr_array_add (parts, g_strdup (nsc_json_get_string (dev, "name")));
  if (capacity > 0)
    /* Drives are sold in decimal units: say both. */
    g_ptr_array_add (parts, nsc_words_drive_size ((guint64) capacity, TRUE));
  if (fw)
    /* Translators: the drive's firmware version in a chart's caption */
    g_ptr_array_add (parts, g_strdup_printf (_("FW %s"), fw));
  if (link && nsc_json_get_number (link, "generation", 0) > 0)
    g_ptr_array_add (parts, g_strdup_printf ("%s PCIe %.0f.0 x%.0f",
                                             transport ? transport : "",
                                             nsc_json_get_number (link, "generation", 0),
                                             nsc_json_get_number (link, "width", 0)));
  else if (transport)
    g_ptr_array_add (parts, g_strdup (transport));
  if (g_strcmp0 (nsc_json_get_string (target, "kind"), "file") == 0)
    g_ptr_array_add (parts, nsc_json_get_string (target, "filesystem")
                            /* Translators: in a chart's caption; %s is a file system, "ext4" */
                            ? g_strdup_printf (_("test file on %s"), nsc_json_get_string (target, "filesystem"))
                            /* Translators: in a chart's caption: the test ran on a file */
                            : g_strdup (_("test file")));
  /* The test bench's essentials: how a USB drive is attached, the kernel. */
  if (nsc_json_get_string (bench, "usb_transport"))
    g_ptr_array_add (parts, g_strdup (nsc_json_get_string (bench, "usb_transport")));
  if (kernel == NULL)
    kernel = nsc_json_get_string (nsc_json_get_object (root, "system"), "kernel");
  if (kernel)
    g_ptr_array_add (parts, g_strdup_printf ("Linux %s", kernel));
  if (started && strlen (started) >= 10)
    g_ptr_array_add (parts, g_strndup (started, 10));
  g_ptr_array_add (parts, g_strdup_printf ("%s %s",
                                           nsc_json_get_string (app, "name") ? nsc_json_get_string (app, "name") : "Nandscope",
                                           nsc_json_get_string (app, "version") ? nsc_json_get_string (app, "version") : PACKAGE_VERSION));
  if (preset)
    /* Translators: in a chart's caption; %s is the title of a test preset */
    g_ptr_array_add (parts, g_strdup_printf (_("preset: %s"), preset));
  g_ptr_array_add (parts, NULL);
  caption = g_strjoinv (" · ", (char **) parts->pdata);
  g_ptr_array_unref (parts);
  return caption;
}

char *
nsc_result_info_caption (JsonNode *result)
{
  g_return_val_if_fail (result != NULL && JSON_NODE_HOLDS_OBJECT (result), NULL);
  return make_caption (result);
}

const char *
nsc_result_info_preset_title (JsonNode *result)
{
  JsonObject *preset = nsc_json_get_object (root_object (result), "preset");
  const char *title = nsc_json_get_string (preset, "title");

  /* Saved in English; shown in the user's language. */
  return title ? nsc_words_preset_text (title) : nsc_json_get_string (preset, "name");
}

GDateTime *
nsc_result_info_started (JsonNode *result)
{
  const char *started = nsc_json_get_string (root_object (result), "started");
  g_autoptr(GDateTime) utc = started ? g_date_time_new_from_iso8601 (started, NULL) : NULL;

  return utc ? g_date_time_to_local (utc) : NULL;
}

/* A capacity check's verdict and findings (analysis.capacity), or NULL. */
static JsonObject *
capacity_of (JsonNode *result)
{
  return nsc_json_get_object (nsc_json_get_object (root_object (result), "analysis"), "capacity");
}

char *
nsc_result_info_headline (JsonNode *result,
                          NscUnits  units)
{
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GString) text = NULL;
  JsonObject *capacity = capacity_of (result);

  /* A capacity check's line is its verdict (History keeps it). */
  if (capacity)
    return nsc_words_capacity (capacity, NULL);
  rows = nsc_result_info_rows (result);
  text = g_string_new (NULL);
  /* The first two tests: for Quick, sequential and random 4K. */
  for (guint i = 0; i < rows->len && i < 2; i++)
    {
      NscResultRow *row = g_ptr_array_index (rows, i);
      g_autofree char *r = nsc_units_format (units, row->bw_bps[0], row->iops[0], row->lat_mean_ns[0]);
      g_autofree char *w = nsc_units_format (units, row->bw_bps[1], row->iops[1], row->lat_mean_ns[1]);

      if (text->len)
        g_string_append (text, "   ");
      if (row->has[0] && row->has[1])
        /* TRANSLATORS: "SEQ1M Q8T1 R 3512 / W 2987" */
        g_string_append_printf (text, _("%s R %s / W %s"), nsc_words_test_label (row->label), r, w);
      else if (row->has[0])
        g_string_append_printf (text, _("%s R %s"), nsc_words_test_label (row->label), r);
      else if (row->has[1])
        g_string_append_printf (text, _("%s W %s"), nsc_words_test_label (row->label), w);
    }
  if (text->len == 0)
    return NULL;
  g_string_append_printf (text, " %s", nsc_units_label (units));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
append_direction (GString   *text,
                  GPtrArray *rows,
                  guint      d,
                  NscUnits   units)
{
  double scale = nsc_units_divisor (units);
  const char *unit = units == NSC_UNITS_MB ? "MB/s" : "MiB/s";

  for (guint i = 0; i < rows->len; i++)
    {
      NscResultRow *row = g_ptr_array_index (rows, i);

      if (!row->has[d])
        continue;
      g_string_append_printf (text, "  %-20s %10.3f %s [%10.1f IOPS] <%10.2f us>\n",
                              row->label, row->bw_bps[d] / scale, unit, row->iops[d],
                              row->lat_mean_ns[d] / 1e3);
    }
}

char *
nsc_result_info_to_text (JsonNode *result,
                         NscUnits  units)
{
  JsonObject *root = root_object (result);
  JsonObject *app = nsc_json_get_object (root, "app");
  JsonObject *target = nsc_json_get_object (root, "target");
  JsonObject *conditions = nsc_json_get_object (root, "conditions");
  g_autoptr(GPtrArray) rows = nsc_result_info_rows (result);
  g_autoptr(GDateTime) started = nsc_result_info_started (result);
  g_autofree char *facts = nsc_result_info_drive_facts (result);
  g_autofree char *date = started ? g_date_time_format (started, "%Y/%m/%d %H:%M:%S") : NULL;
  g_autofree char *size = nsc_format_size ((guint64) nsc_json_get_number (target, "size", 0));
  const char *line = "------------------------------------------------------------------------------\n";
  GString *text = g_string_new (NULL);

  if (units != NSC_UNITS_MB)
    units = NSC_UNITS_MIB;

  g_string_append (text, line);
  g_string_append_printf (text, "%s %s\n",
                          nsc_json_get_string (app, "name") ? nsc_json_get_string (app, "name") : "Nandscope",
                          nsc_json_get_string (app, "version") ? nsc_json_get_string (app, "version") : PACKAGE_VERSION);
  g_string_append (text, line);
  if (units == NSC_UNITS_MB)
    g_string_append (text, "* MB/s = 1,000,000 bytes/s\n");
  else
    g_string_append (text, "* MiB/s = 1,048,576 bytes/s\n");
  g_string_append (text, "\n[Read]\n");
  append_direction (text, rows, 0, units);
  g_string_append (text, "\n[Write]\n");
  append_direction (text, rows, 1, units);
  g_string_append (text, "\n");
  g_string_append_printf (text, "Profile: %s\n", nsc_result_info_preset_title (result)
                                                  ? nsc_result_info_preset_title (result) : "-");
  g_string_append_printf (text, "   Test: %s (x%.0f)%s%s\n", size,
                          nsc_json_get_number (conditions, "runs", 1),
                          nsc_json_get_string (target, "filesystem") ? ", file on " : "",
                          nsc_json_get_string (target, "filesystem") ? nsc_json_get_string (target, "filesystem") : "");
  g_string_append_printf (text, "  Drive: %s\n", facts);
  if (date)
    g_string_append_printf (text, "   Date: %s\n", date);
  if (nsc_json_get_bool (root, "cancelled"))
    g_string_append (text, "   Note: cancelled, partial result\n");
  return g_string_free (text, FALSE);
}

gboolean
nsc_result_info_cancelled (JsonNode *result)
{
  return nsc_json_get_bool (root_object (result), "cancelled");
}

gboolean
nsc_result_info_strict (JsonNode *result)
{
  return nsc_json_get_bool (nsc_json_get_object (root_object (result), "conditions"), "strict");
}

char *
nsc_result_info_marks (JsonNode *result)
{
  g_autoptr(GPtrArray) marks = g_ptr_array_new ();
  JsonObject *root = root_object (result);

  if (nsc_result_info_cancelled (result))
    g_ptr_array_add (marks, (gpointer) _("cancelled"));
  else if (root != NULL && json_object_has_member (root, "error"))
    g_ptr_array_add (marks, (gpointer) _("stopped by an error"));
  if (nsc_result_info_strict (result))
    g_ptr_array_add (marks, (gpointer) _("strict"));
  if (nsc_json_get_object (root, "source"))
    /* Translators: a mark of a result another tool measured (fio's, imported) */
    g_ptr_array_add (marks, (gpointer) _("imported"));
  if (marks->len == 0)
    return NULL;
  g_ptr_array_add (marks, NULL);
  return g_strjoinv (", ", (char **) marks->pdata);
}

char *
nsc_result_info_format_date (GDateTime *started)
{
  return started ? nsc_words_date (started, FALSE) : g_strdup (_("Unknown date"));
}

const char *
nsc_result_info_status (JsonNode *result)
{
  JsonObject *root = root_object (result);

  if (nsc_result_info_cancelled (result))
    return _("Cancelled");
  if (root != NULL && json_object_has_member (root, "error"))
    return _("Stopped by an error");
  return _("Complete");
}

/* The backends the result's tests ran on, in the order they first ran: "io_uring,
 * psync"; NULL when none says. */
static char *
backends_used (JsonNode *result)
{
  JsonArray *steps = nsc_json_get_array (root_object (result), "steps");
  g_autoptr(GPtrArray) seen = g_ptr_array_new ();

  for (guint i = 0; steps && i < json_array_get_length (steps); i++)
    {
      JsonObject *step = json_array_get_object_element (steps, i);
      const char *backend = nsc_json_get_string (step, "backend");

      if (backend && !g_ptr_array_find_with_equal_func (seen, backend, g_str_equal, NULL))
        g_ptr_array_add (seen, (gpointer) backend);
    }
  if (seen->len == 0)
    return NULL;
  g_ptr_array_add (seen, NULL);
  return g_strjoinv (", ", (char **) seen->pdata);
}

char *
nsc_result_info_capacity (JsonNode *result)
{
  JsonObject *capacity = capacity_of (result);
  g_autofree char *details = NULL;
  g_autofree char *verdict = NULL;

  if (capacity == NULL)
    return NULL;
  verdict = nsc_words_capacity (capacity, &details);
  return details ? g_strdup_printf ("%s.\n%s.", verdict, details) : g_strdup_printf ("%s.", verdict);
}

char *
nsc_result_info_header (JsonNode *result)
{
  JsonObject *root = root_object (result);
  JsonObject *target = nsc_json_get_object (root, "target");
  g_autofree char *drive = nsc_result_info_drive_facts (result);
  g_autoptr(GDateTime) started = nsc_result_info_started (result);
  g_autofree char *date = nsc_result_info_format_date (started);
  g_autofree char *conditions = nsc_result_info_conditions (result);
  g_autofree char *backends = backends_used (result);
  const char *preset = nsc_result_info_preset_title (result);
  double duration_ns = nsc_json_get_number (root, "duration_ns", -1);
  GString *text = g_string_new (NULL);
  g_autoptr(GPtrArray) last = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *capacity = nsc_result_info_capacity (result);
  g_autofree char *source = nsc_words_result_source (root);

  /* Another tool's figures, imported: said before anything else. */
  if (source)
    {
      const char *rest = g_utf8_next_char (source);
      g_autofree char *first = g_utf8_strup (source, rest - source);

      g_string_append_printf (text, "%s%s\n", first, rest);
    }
  /* A capacity check's verdict comes first: a drive that lies matters more than its
   * speeds. */
  if (capacity)
    g_string_append_printf (text, "%s\n", capacity);
  /* TRANSLATORS: "Quick · Samsung 980 PRO · 1.00 TB · 30 Nov 2026, 06:18" */
  g_string_append_printf (text, _("%s · %s · %s"), preset ? preset : _("Result"), drive, date);
  g_string_append_c (text, '\n');
  if (duration_ns >= 0)
    {
      g_autofree char *took = nsc_words_duration (duration_ns / 1e9);

      g_string_append_printf (text, nsc_result_info_cancelled (result) ? _("Cancelled after %s")
                                    : json_object_has_member (root, "error") ? _("Stopped after %s")
                                    : _("Finished in %s"), took);
    }
  else
    g_string_append (text, nsc_result_info_status (result));
  /* TRANSLATORS: how a result ended, then its conditions: "Finished in 3 minutes ·
   * normal conditions · 3 runs per test, the median shown" */
  g_string_append_printf (text, _(" · %s"), conditions);

  if (g_strcmp0 (nsc_json_get_string (target, "kind"), "file") == 0)
    {
      double size = nsc_json_get_number (target, "size", 0);
      const char *fs = nsc_json_get_string (target, "filesystem");
      /* A size the free space stood for (write-fill's "all of it") is no size. */
      g_autofree char *words = size > 0 && size < 0x1p60 ? nsc_words_size ((guint64) size) : NULL;

      if (words && fs)
        /* TRANSLATORS: "2 GiB test file on ext4" */
        g_ptr_array_add (last, g_strdup_printf (_("%s test file on %s"), words, fs));
      else if (words)
        g_ptr_array_add (last, g_strdup_printf (_("%s test file"), words));
      else if (fs)
        /* TRANSLATORS: "test file on ext4" */
        g_ptr_array_add (last, g_strdup_printf (_("test file on %s"), fs));
    }
  if (backends)
    g_ptr_array_add (last, g_steal_pointer (&backends));
  if (last->len > 0)
    {
      g_autofree char *joined = NULL;

      g_ptr_array_add (last, NULL);
      joined = g_strjoinv (" · ", (char **) last->pdata);
      g_string_append_c (text, '\n');
      g_string_append (text, joined);
    }
  return g_string_free (text, FALSE);
}

char *
nsc_result_info_conditions (JsonNode *result)
{
  JsonObject *conditions = nsc_json_get_object (root_object (result), "conditions");
  JsonObject *state = nsc_json_get_object (conditions, "state");
  guint runs = (guint) nsc_json_get_number (conditions, "runs", 1);
  gboolean best = g_strcmp0 (nsc_json_get_string (conditions, "headline"), "best") == 0;
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (parts, g_strdup (nsc_result_info_strict (result) ? _("strict conditions")
                                                                      : _("normal conditions")));
  if (runs <= 1)
    g_ptr_array_add (parts, g_strdup (_("1 run per test")));
  else
    g_ptr_array_add (parts, g_strdup_printf (best ? _("%u runs per test, the best shown")
                                                  : _("%u runs per test, the median shown"), runs));
  if (nsc_json_get_bool (state, "erased_first"))
    g_ptr_array_add (parts, g_strdup (_("drive erased first")));
  if (nsc_json_get_number (state, "left_free", 0) > 0)
    {
      g_autofree char *size = nsc_words_size ((guint64) nsc_json_get_number (state, "left_free", 0));
      /* TRANSLATORS: the drive state of a run: "drive filled, 10 GiB left free" */
      g_ptr_array_add (parts, g_strdup_printf (_("drive filled, %s left free"), size));
    }
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (" · ", (char **) parts->pdata);
}

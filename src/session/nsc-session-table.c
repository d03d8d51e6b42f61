/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "nsc-session.h"
#include "nsc-words.h"

/* The command line's report of a run: the table in CrystalDiskMark's layout, the
 * backends, the analysis's sentences and the warnings. */

typedef struct
{
  char label[64];
  guint group;                  /* the preset of a suite the row's steps come from */
  const NscJobResult *dir[2];
  gboolean mark[2];             /* a warning concerns this result */
} Row;

/* Warnings that say a result is not what it seems: its cell gets a mark. */
static gboolean
step_is_marked (NscRunResult *r,
                guint         step)
{
  for (guint i = 0; i < r->warnings->len; i++)
    {
      NscWarning *w = g_ptr_array_index (r->warnings, i);

      if (w->step == (int) step && nsc_warning_kind_marks_result (w->kind)
          && g_strcmp0 (w->position, "after") != 0)
        return TRUE;
    }
  return FALSE;
}

static void
print_surface (GString             *out,
               const NscStepResult *sr,
               NscUnits             unit)
{
  double min = G_MAXDOUBLE, max = 0, sum = 0;
  guint n = 0;

  for (guint i = 0; i < sr->runs->len; i++)
    {
      const NscJobResult *j = g_ptr_array_index (sr->runs, i);
      double bw = j->dir[0].bw_bps + j->dir[1].bw_bps;

      min = MIN (min, bw);
      max = MAX (max, bw);
      sum += bw;
      n++;
    }
  if (n)
    {
      g_autofree char *lowest = nsc_words_speed (min, unit);
      g_autofree char *average = nsc_words_speed (sum / n, unit);
      g_autofree char *highest = nsc_words_speed (max, unit);

      /* TRANSLATORS: a surface read or write across the drive: its test, how many
       * places were measured, then three speeds ("412 MiB/s") */
      g_string_append_printf (out, _("\n%s: %u places, %s lowest, %s average, %s highest\n"),
                              nsc_words_test_label (sr->step.job.label), n, lowest, average,
                              highest);
    }
}

/* The summary of a fill's analysis (@member of @a) in the user's words and units (the
 * JSON's summary is English, for scripts), or why it has none. */
static char *
fill_summary (JsonObject   *a,
              const char   *member,
              NscUnits      unit)
{
  JsonObject *o = json_object_get_object_member (a, member);

  if (json_object_has_member (o, "summary"))
    return nsc_words_slc_summary (o, unit);
  return g_strdup (json_object_get_string_member_with_default (o, "error", _("not analysed")));
}

/* The sentences of the analysis that stand on their own. */
static void
print_analysis (GString      *out,
                NscRunResult *r,
                NscUnits      unit)
{
  JsonObject *a;

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *sr = g_ptr_array_index (r->steps, i);
      if (sr->step.kind == NSC_STEP_SURFACE)
        print_surface (out, sr, unit);
    }

  if (r->analysis == NULL || !JSON_NODE_HOLDS_OBJECT (r->analysis))
    return;
  a = json_node_get_object (r->analysis);
  if (json_object_has_member (a, "slc"))
    {
      g_autofree char *summary = fill_summary (a, "slc", unit);
      g_string_append_printf (out, _("\nWrite-fill: %s\n"), summary);
    }
  if (json_object_has_member (a, "copy"))
    {
      g_autofree char *summary = fill_summary (a, "copy", unit);
      g_string_append_printf (out, _("\nCopy: %s\n"), summary);
    }
  if (json_object_has_member (a, "slc_second_pass"))
    {
      g_autofree char *summary = fill_summary (a, "slc_second_pass", unit);
      g_string_append_printf (out, _("Second pass: %s\n"), summary);
    }
  if (json_object_has_member (a, "mixed"))
    {
      JsonObject *m = json_object_get_object_member (a, "mixed");
      if (json_object_has_member (m, "sequential"))
        {
          g_autofree char *v = nsc_words_speed (
              json_object_get_double_member (json_object_get_object_member (m, "sequential"),
                                             "mean_bps"), unit);

          g_string_append_printf (out, _("\nMixed, sequential: mean of the points %s\n"), v);
        }
      if (json_object_has_member (m, "random"))
        {
          g_autofree char *v = nsc_words_speed (
              json_object_get_double_member (json_object_get_object_member (m, "random"),
                                             "mean_bps"), unit);

          g_string_append_printf (out, _("Mixed, random: mean of the points %s\n"), v);
        }
    }
  if (json_object_has_member (a, "trim_latency"))
    {
      JsonObject *t = json_object_get_object_member (a, "trim_latency");
      g_string_append_printf (out, _("\nAfter TRIM: worst read latency %.1f ms; reads stalled for %.1f s\n"),
              json_object_get_int_member (t, "worst_latency_ns") / 1e6,
              json_object_get_int_member (t, "stall_ns") / 1e9);
    }
  if (json_object_has_member (a, "cache_recovery"))
    {
      JsonArray *pts = json_object_get_array_member (json_object_get_object_member (a, "cache_recovery"), "points");
      for (guint i = 0; i < json_array_get_length (pts); i++)
        {
          g_autofree char *line = nsc_words_recovery_point (json_array_get_object_element (pts, i));
          if (line)
            g_string_append_printf (out, "%s\n", line);
        }
    }
}

/* @text in @width characters (not bytes), after a space but for the first cell. */
static void
append_cell (GString    *out,
             const char *text,
             int         width,
             gboolean    left)
{
  int pad = MAX (0, width - (int) g_utf8_strlen (text, -1));

  if (left)
    g_string_append_printf (out, "%s%*s", text, pad, "");
  else
    g_string_append_printf (out, "%*s%s", pad, "", text);
}

static void
print_table (GString      *out,
             NscRunResult *r,
             NscUnits      units)
{
  JsonObject *dev = r->device && JSON_NODE_HOLDS_OBJECT (r->device)
                  ? json_node_get_object (r->device) : NULL;
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (Row));
  const char *unit = nsc_units_label (units);
  g_autoptr(GPtrArray) groups = NULL;
  /* What the test really covered: a write-fill's "all the free space" is a size only
   * once the file is made. */
  g_autofree char *size = r->target_size ? nsc_words_size (r->target_size)
                          : r->file_size == NSC_TARGET_SIZE_FREE ? g_strdup (_("free space"))
                          : nsc_words_size (r->file_size);
  g_autofree char *runs = nsc_session_describe_runs (r);
  g_autofree char *read_head = g_strdup_printf (_("Read %s"), unit);
  g_autofree char *write_head = g_strdup_printf (_("Write %s"), unit);
  g_autoptr(GString) backend = g_string_new (NULL);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  gboolean marks = FALSE;
  int width = 16;

  for (guint i = 0; i < r->steps->len; i++)
    {
      NscStepResult *sr = g_ptr_array_index (r->steps, i);
      const NscJobResult *head = nsc_step_result_headline (sr);
      Row *row = NULL;

      if ((sr->step.kind != NSC_STEP_JOB && sr->step.kind != NSC_STEP_COPY) || sr->skipped
          || head == NULL)
        continue;
      /* auto picks per job: every backend that ran, and why, once each. */
      {
        const char *name = nsc_backend_to_string (head->backend);
        g_autofree char *list = g_strdup_printf (", %s, ", backend->str);
        g_autofree char *needle = g_strdup_printf (", %s, ", name);
        g_autofree char *why = nsc_words_backend_note (head);
        /* Translators: under the results table: a backend's name, and why it ran */
        g_autofree char *note = why ? g_strdup_printf (_("Backend %s: %s"), name, why) : NULL;

        if (strstr (list, needle) == NULL)
          g_string_append_printf (backend, "%s%s", backend->len ? ", " : "", name);
        if (note && !g_ptr_array_find_with_equal_func (notes, note, g_str_equal, NULL))
          g_ptr_array_add (notes, g_steal_pointer (&note));
      }
      /* A read and a write of the same test in the same preset share a row; the same
       * label in another preset of a suite, or a second result for a cell, gets its own. */
      for (guint j = 0; j < rows->len && row == NULL; j++)
        {
          Row *cand = &g_array_index (rows, Row, j);

          if (g_str_equal (cand->label, sr->step.job.label) && cand->group == sr->step.group
              && (!nsc_job_has_reads (&head->job) || cand->dir[NSC_DIR_READ] == NULL)
              && (!nsc_job_has_writes (&head->job) || cand->dir[NSC_DIR_WRITE] == NULL))
            row = cand;
        }
      if (row == NULL)
        {
          Row fresh = { 0 };
          g_strlcpy (fresh.label, sr->step.job.label, sizeof fresh.label);
          fresh.group = sr->step.group;
          g_array_append_val (rows, fresh);
          row = &g_array_index (rows, Row, rows->len - 1);
        }
      for (guint d = 0; d < 2; d++)
        if (d == NSC_DIR_READ ? nsc_job_has_reads (&head->job) : nsc_job_has_writes (&head->job))
          {
            row->dir[d] = head;
            row->mark[d] = step_is_marked (r, i);
            marks |= row->mark[d];
          }
    }

  /* Translators: the report's first line: version, preset, target (its kind and
   * filesystem), size */
  g_string_append_printf (out, _("Nandscope %s · %s · %s (%s%s%s) · %s\n"), PACKAGE_VERSION,
          r->preset_title ? nsc_words_preset_text (r->preset_title) : "",
          r->target_path ? r->target_path : "",
          g_strcmp0 (r->target_kind, "file") == 0 ? C_("target", "file")
          : g_strcmp0 (r->target_kind, "device") == 0 ? C_("target", "device") : "?",
          r->filesystem ? ", " : "", r->filesystem ? r->filesystem : "", size);
  if (dev && json_object_has_member (dev, "name"))
    g_string_append_printf (out, _("Drive %s%s%s\n"), json_object_get_string_member (dev, "name"),
            json_object_get_string_member_with_default (dev, "model", NULL) ? " · " : "",
            json_object_get_string_member_with_default (dev, "model", ""));
  /* The capacity check's verdict comes first: a drive that lies matters more than
   * its speeds. */
  if (r->analysis && JSON_NODE_HOLDS_OBJECT (r->analysis)
      && json_object_has_member (json_node_get_object (r->analysis), "capacity"))
    {
      g_autofree char *details = NULL;
      g_autofree char *verdict = nsc_words_capacity (
          json_object_get_object_member (json_node_get_object (r->analysis), "capacity"), &details);

      g_string_append_printf (out, "\n%s.\n", verdict);
      if (details)
        g_string_append_printf (out, "%s.\n", details);
      g_string_append_c (out, '\n');
    }
  /* A run without tests of speed (the quick probe) has no table. */
  if (rows->len == 0)
    goto analysis;
  /* Translators: the I/O backends that ran, then how many runs of what length */
  g_string_append_printf (out, _("Backend %s · %s\n\n"), backend->len ? backend->str : "-", runs);
  for (guint j = 0; j < rows->len; j++)
    width = MAX (width, (int) g_utf8_strlen (nsc_words_test_label (g_array_index (rows, Row, j).label), -1));
  /* The headings padded by characters: in other languages they need not be ASCII. */
  append_cell (out, C_("table", "Test"), width, TRUE);
  append_cell (out, read_head, 13, FALSE);
  append_cell (out, write_head, 13, FALSE);
  append_cell (out, C_("table", "Read IOPS"), 12, FALSE);
  append_cell (out, C_("table", "Write IOPS"), 12, FALSE);
  append_cell (out, C_("table", "Read µs"), 12, FALSE);
  append_cell (out, C_("table", "Write µs"), 12, FALSE);
  g_string_append_c (out, '\n');

  for (guint j = 0; j < rows->len; j++)
    {
      Row *row = &g_array_index (rows, Row, j);
      char *cells[6] = { 0 };

      for (guint d = 0; d < 2; d++)
        {
          const NscJobResult *res = row->dir[d];
          if (res == NULL)
            {
              cells[d] = g_strdup ("-");
              cells[2 + d] = g_strdup ("-");
              cells[4 + d] = g_strdup ("-");
              continue;
            }
          cells[d] = nsc_format_speed (res->dir[d].bw_bps, units);
          if (row->mark[d])
            {
              char *marked = g_strconcat (cells[d], "*", NULL);
              g_free (cells[d]);
              cells[d] = marked;
            }
          cells[2 + d] = g_strdup_printf ("%.0f", res->dir[d].iops);
          cells[4 + d] = res->dir[d].latency->count
                       ? g_strdup_printf ("%.1f", nsc_histogram_mean (res->dir[d].latency) / 1000.0)
                       : g_strdup ("-");
        }
      append_cell (out, nsc_words_test_label (row->label), width, TRUE);
      g_string_append_printf (out, " %12s %12s %11s %11s %11s %11s\n",
              cells[0], cells[1], cells[2], cells[3], cells[4], cells[5]);
      for (guint k = 0; k < 6; k++)
        g_free (cells[k]);
    }

  if (marks)
    g_string_append (out, _("* a warning below concerns this result\n"));
  for (guint j = 0; j < notes->len; j++)
    g_string_append_printf (out, "%s%s\n", j == 0 ? "\n" : "", (const char *) g_ptr_array_index (notes, j));

analysis:
  print_analysis (out, r, units);

  /* Warnings that say the same of several tests are said once, as the app does. */
  groups = nsc_warnings_group (r->warnings, units);
  for (guint i = 0; i < groups->len; i++)
    {
      GPtrArray *like = g_ptr_array_index (groups, i);
      NscWarning *w = g_ptr_array_index (like, 0);
      g_autofree char *details = NULL;
      g_autofree char *also = nsc_warnings_group_also (like);
      const char *settle = NULL;
      g_autofree char *title = nsc_warning_describe (w, units, &details, &settle);

      /* Translators: a warning under the results; %s: its code (kept for scripts), the
       * sentence */
      g_string_append_printf (out, _("\nWarning (%s): %s."), w->code, title);
      if (details)
        g_string_append_printf (out, "\n  %s", details);
      if (also)
        g_string_append_printf (out, "\n  %s", also);
      if (settle)
        {
          g_autoptr(NscPreset) p = nsc_preset_lookup (settle, NULL);

          /* Translators: the preset's title, "Write-fill (SLC cache)", then its name
           * (a command's word, "write-fill") */
          g_string_append_printf (out, _("\n  The %s test settles it: nandscope-cli run --preset %s"),
                                  p ? nsc_words_preset_title (p) : settle, settle);
        }
    }
  if (r->warnings->len)
    g_string_append_printf (out, "\n");
}

char *
nsc_session_table (NscRunResult *r,
                   NscUnits      units)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (r != NULL, NULL);
  print_table (out, r, units);
  return g_string_free (out, FALSE);
}

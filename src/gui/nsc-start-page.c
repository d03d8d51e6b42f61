/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "nsc-start-page.h"
#include "nsc-display.h"
#include "nsc-words.h"

/* Where no result of the drive says how fast it writes, the time is given at a pace
 * most SSDs keep after their cache, a round number in the user's units, and said. */
static double
assumed_bps (NscUnits units)
{
  return 500 * nsc_units_divisor (units);
}

static guint64
preset_file_size (const NscPreset     *preset,
                  const NscStartFacts *f)
{
  return f->plan->options.file_size ? f->plan->options.file_size : preset->file_size;
}

/* The bytes written at the drive's pace (not bounded by time) that the time is
 * reckoned on, as the plan (and the runner) have them. */
static guint64
paced_bytes (const NscStartFacts *f)
{
  return f->plan->budget_known ? f->plan->expected_bytes : 0;
}

static double
history_bps (const NscStartFacts *f)
{
  return f->history_write_bps;
}

/* The bytes read at the drive's pace (a capacity check's read-back, a surface scan). */
static guint64
paced_reads (const NscStartFacts *f)
{
  return f->plan->budget_known ? f->plan->read_bytes : 0;
}

gint64
nsc_start_page_estimate_ns (const NscPreset     *preset,
                            const NscStartFacts *f,
                            gboolean            *out_from_history)
{
  gint64 timed = f->plan->timed_ns;
  guint64 bytes = paced_bytes (f);
  guint64 reads = paced_reads (f);
  double bps = bytes > 0 ? history_bps (f) : 0;

  if (out_from_history)
    *out_from_history = bps > 0;
  /* Reads at the pace assumed for writes, or the drive's last write speed when it was
   * faster: most drives read faster than they write after their cache. */
  if (reads > 0)
    timed = nsc_duration_add (timed, (gint64) ((double) reads / MAX (history_bps (f), assumed_bps (f->units)) * 1e9));
  if (bytes == 0)
    return timed;
  if (bps <= 0)
    bps = assumed_bps (f->units);
  return nsc_duration_add (timed, (gint64) ((double) bytes / bps * 1e9));
}

static char *
format_speed (double bps, NscUnits units)
{
  g_autofree char *number = nsc_format_speed (bps, units);

  return nsc_words_speed_label (number, units);
}

char *
nsc_start_page_target_markup (const NscPreset     *preset,
                              const NscStartFacts *f)
{
  g_autofree char *path = nsc_display_path (f->target);
  guint64 file_size = f->plan->budget_target.file_size;

  g_return_val_if_fail (f->device == NULL, NULL);

  if (!f->plan->budget_known)
    return g_markup_printf_escaped (_("The test runs in <b>%s</b>, which cannot be read now."),
                                    path);
  if (preset_file_size (preset, f) == NSC_TARGET_SIZE_FREE)
    {
      g_autofree char *size = nsc_words_size (file_size);
      /* TRANSLATORS: "Fills the free space of ~/Videos: about 412 GiB, …" */
      return g_markup_printf_escaped (_("Fills the free space of <b>%s</b>: about <b>%s</b>, in "
                                        "a hidden test file that is deleted at the end. Nothing "
                                        "else in the folder is touched."), path, size);
    }
  {
    g_autofree char *size = nsc_words_size (file_size);
    return g_markup_printf_escaped (_("Writes a hidden test file of <b>%s</b> in <b>%s</b>, "
                                      "measures on it and deletes it at the end. Nothing else "
                                      "in the folder is touched."), size, path);
  }
}

char *
nsc_start_page_preset_markup (const NscPreset     *preset,
                              const NscStartFacts *f)
{
  GString *out = g_string_new (NULL);
  gboolean from_history = FALSE;
  gint64 est = nsc_start_page_estimate_ns (preset, f, &from_history);
  g_autofree char *duration = nsc_words_duration (est / 1e9);
  guint64 bytes = paced_bytes (f);

  {
    g_autofree char *text = g_markup_printf_escaped ("<b>%s</b>: %s",
                                                     nsc_words_preset_title (preset),
                                                     nsc_words_preset_description (preset));
    g_string_append (out, text);
  }
  g_string_append (out, "\n\n");

  /* How long. */
  if (bytes > 0 && from_history)
    {
      g_autofree char *speed = format_speed (history_bps (f), f->units);
      g_string_append_printf (out, _("Takes about %s at the speed this drive showed last time "
                                     "(%s)."), duration, speed);
    }
  else if (bytes > 0 && paced_reads (f) > 0)
    {
      g_autofree char *speed = format_speed (assumed_bps (f->units), f->units);
      g_autofree char *size = nsc_words_size (bytes);
      g_autofree char *read = nsc_words_size (paced_reads (f));
      /* Translators: the time, what is written and read back, the speed assumed */
      g_string_append_printf (out, _("Takes about %s if the drive writes %s and reads %s at %s; "
                                     "no earlier result of this drive tells its speed."),
                              duration, size, read, speed);
    }
  else if (bytes > 0)
    {
      g_autofree char *speed = format_speed (assumed_bps (f->units), f->units);
      g_autofree char *size = nsc_words_size (bytes);
      g_string_append_printf (out, _("Takes about %s if the drive writes %s at %s; no earlier "
                                     "result of this drive tells its speed."), duration, size,
                              speed);
    }
  else
    g_string_append_printf (out, _("Takes about %s."), duration);

  /* How much it writes. */
  if (f->plan->budget_known)
    {
      g_autofree char *line = nsc_write_budget_describe (preset, &f->plan->budget_target);
      g_autofree char *escaped = g_markup_escape_text (line, -1);
      g_string_append_printf (out, " %s.", escaped);
    }
  /* The read-backs the preference added are in the time above: say what they are for. */
  if (f->writes_checked)
    g_string_append_printf (out, " %s", _("What the write tests wrote is read back and every "
                                          "block checked."));
  /* Why Quick writes past the cache, and how to write less. */
  {
    g_autofree char *flush = nsc_plan_describe_flush (f->plan);

    if (flush)
      {
        g_autofree char *escaped = g_markup_escape_text (flush, -1);
        g_string_append_printf (out, " %s", escaped);
      }
  }

  /* What it leaves. */
  g_string_append_c (out, ' ');
  if (f->device == NULL)
    g_string_append (out, _("Afterwards the folder is as it was."));
  else if (f->plan->writes)
    g_string_append (out, _("Afterwards the drive holds test data only: what was on it is "
                            "gone."));
  else
    g_string_append (out, _("Nothing on the drive is changed."));
  return g_string_free (out, FALSE);
}

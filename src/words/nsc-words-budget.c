/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "nsc-words.h"
#include "nsc-words-budget.h"

char *
nsc_write_budget_describe (const NscPreset       *preset,
                           const NscBudgetTarget *target)
{
  guint64 total = 0;
  gboolean timed = FALSE;
  g_autoptr(GArray) items = nsc_write_budget (preset, target, &total, &timed);
  g_autofree char *size = nsc_words_size (total);
  GString *out = g_string_new (NULL);
  guint early = 0;
  gint64 timed_ns = 0;
  guint64 probe_usual = 0;

  for (guint i = 0; i < items->len; i++)
    {
      const NscBudgetItem *it = &g_array_index (items, NscBudgetItem, i);
      early += it->stops_early;
      probe_usual += it->probe_usual;
      if (it->timed)
        timed_ns = nsc_duration_add (timed_ns, it->time_ns);
    }
  if (items->len == 0)
    {
      g_string_free (out, TRUE);
      return g_strdup (_("Writes nothing"));
    }
  if (timed)
    {
      g_autofree char *dur = nsc_words_duration (timed_ns / 1e9);

      if (total > 0)
        /* Translators: the write budget; "Writes at most 12 GiB, plus writes for 40 seconds, …" */
        g_string_append_printf (out, _("Writes at most %s, plus writes for %s, as fast as the "
                                       "drive takes it"), size, dur);
      else
        /* Translators: the write budget; %s is a duration, "40 seconds" */
        g_string_append_printf (out, _("Writes for %s, as fast as the drive takes it"), dur);
    }
  else
    /* Translators: the write budget; %s is a size, "12 GiB" */
    g_string_append_printf (out, _("Writes at most %s"), size);
  if (probe_usual)
    {
      g_autofree char *usual = nsc_words_size (probe_usual);

      g_string_append_c (out, ' ');
      /* Translators: after "Writes at most 4.4 GiB": the quick probe's usual cost */
      g_string_append_printf (out, _("(that much only on a fake with a large cache of its own; "
                                     "a good drive takes about %s)"), usual);
    }
  if (early)
    {
      g_string_append_c (out, ' ');
      g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE,
                                                "(%u step stops once the speed drop has held, "
                                                "so usually less)",
                                                "(%u steps stop once the speed drop has held, "
                                                "so usually less)", early), early);
    }
  return g_string_free (out, FALSE);
}

char *
nsc_write_budget_describe_wear (guint64 budget,
                                guint64 drive_written,
                                int     percentage_used)
{
  g_autofree char *written = nsc_words_size (drive_written);

  if (drive_written == 0)
    return g_strdup_printf (_("The drive reports nothing written so far and %d %% of its "
                              "endurance used"), percentage_used);
  return g_strdup_printf (_("That is %.2g %% of the %s this drive has written so far; it "
                            "reports %d %% of its endurance used"),
                          100.0 * (double) budget / (double) drive_written, written,
                          percentage_used);
}

char *
nsc_wear_describe (guint64   run_bytes,
                   guint64   smart_before_bytes,
                   guint64   smart_after_bytes,
                   char    **out_amplified)
{
  guint64 diff = smart_after_bytes > smart_before_bytes ? smart_after_bytes - smart_before_bytes : 0;
  g_autofree char *d = nsc_words_size (diff);
  g_autofree char *own = nsc_words_size (run_bytes);

  if (out_amplified)
    *out_amplified = NULL;
  if (out_amplified && diff > 2 * run_bytes && diff - run_bytes > (G_GUINT64_CONSTANT (1) << 30))
    *out_amplified = g_strdup_printf (_("The drive counted %.1f× what the run wrote: write "
                                        "amplification, or other writes to the drive during the "
                                        "run"),
                                      run_bytes ? (double) diff / (double) run_bytes : 0.0);
  return g_strdup_printf (_("Written: %s by this run's count, %s by the drive's (SMART data "
                            "units, to 512 000 bytes)"), own, d);
}

char *
nsc_wear_describe_result (JsonObject  *result,
                          char       **out_amplified)
{
  JsonObject *before, *after;

  if (out_amplified)
    *out_amplified = NULL;
  if (!json_object_has_member (result, "smart_before") || !json_object_has_member (result, "smart_after")
      || !JSON_NODE_HOLDS_OBJECT (json_object_get_member (result, "smart_before"))
      || !JSON_NODE_HOLDS_OBJECT (json_object_get_member (result, "smart_after")))
    return NULL;
  before = json_object_get_object_member (result, "smart_before");
  after = json_object_get_object_member (result, "smart_after");
  return nsc_wear_describe ((guint64) json_object_get_int_member_with_default (result, "bytes_written", 0),
                            (guint64) json_object_get_int_member_with_default (before, "bytes_written", 0),
                            (guint64) json_object_get_int_member_with_default (after, "bytes_written", 0),
                            out_amplified);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "nsc-engine.h"
#include "nsc-words.h"
#include "nsc-words-problem.h"
#include "test-util.h"

/* A warning's fields go into the result's JSON and come back the same; its English
 * message stays. */
static void
test_warning_json (void)
{
  g_autoptr(NscWarning) w = nsc_warning_new (NSC_WARNING_CACHE_EXHAUSTED_DURING_TEST, 3);
  g_autoptr(NscWarning) back = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;
  JsonObject *o;

  w->test = g_strdup ("SEQ1M Q8T1");
  w->bps_before = 2000e6;
  w->bps_after = 500e6;
  w->bytes = 12 * G_GINT64_CONSTANT (1073741824);
  nsc_warning_set_message (w, "SEQ1M Q8T1: the write speed fell");
  nsc_warning_to_json (w, b);
  node = json_builder_get_root (b);
  o = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (o, "code"), ==, "cache-exhausted-during-test");
  g_assert_cmpstr (json_object_get_string_member (o, "message"), ==,
                   "SEQ1M Q8T1: the write speed fell");
  g_assert_cmpint (json_object_get_int_member (o, "step"), ==, 3);
  g_assert_cmpfloat (json_object_get_double_member (o, "bps_before"), ==, 2000e6);
  g_assert_cmpint (json_object_get_int_member (o, "bytes"), ==, 12 * G_GINT64_CONSTANT (1073741824));
  /* Unset fields are left out, not written as zeros. */
  g_assert_false (json_object_has_member (o, "celsius"));
  g_assert_false (json_object_has_member (o, "cache_bytes"));
  g_assert_false (json_object_has_member (o, "link_width"));

  back = nsc_warning_from_json (o);
  g_assert_nonnull (back);
  g_assert_cmpstr (back->test, ==, "SEQ1M Q8T1");
  g_assert_cmpfloat (back->bps_after, ==, 500e6);
  g_assert_cmpint (back->bytes, ==, w->bytes);
  g_assert_cmpint (back->cache_bytes, ==, -1);
  g_assert_true (isnan (back->celsius));
  g_assert_cmpint (back->step, ==, 3);
}

/* The sentence follows the units asked for: the same speed in MB/s and in MiB/s. */
static void
test_warning_units (void)
{
  g_autoptr(NscWarning) w = nsc_warning_new (NSC_WARNING_READ_INFLATION, 0);
  g_autofree char *mib_details = NULL, *mb_details = NULL;
  g_autofree char *mib = NULL, *mb = NULL;
  const char *settle = NULL;

  nsc_test_use_language (NULL);
  w->test = g_strdup ("SEQ1M Q8T1");
  w->bps_fresh = 2000e6;
  w->bps_settled = 1000e6;
  mib = nsc_warning_describe (w, NSC_UNITS_MIB, &mib_details, &settle);
  mb = nsc_warning_describe (w, NSC_UNITS_MB, &mb_details, NULL);
  g_test_message ("%s: %s", mib, mib_details);
  g_assert_cmpstr (mib, ==, "Read speeds may be inflated by the drive's cache");
  g_assert_cmpstr (mib, ==, mb);
  g_assert_nonnull (strstr (mib_details, "1907 MiB/s"));
  g_assert_nonnull (strstr (mib_details, "954 MiB/s"));
  g_assert_null (strstr (mib_details, "MB/s"));
  g_assert_nonnull (strstr (mb_details, "2000 MB/s"));
  g_assert_nonnull (strstr (mb_details, "1000 MB/s"));
  g_assert_cmpstr (settle, ==, "write-fill");
}

/* A fill through memory in front of the drive: a found fast start is "not the drive's
 * cache"; with none found, the words do not speak of a cache found. */
static void
test_warning_system_cache (void)
{
  nsc_test_use_language (NULL);
  for (int k = NSC_WARNING_SYSTEM_CACHE_MEMORY; k <= NSC_WARNING_SYSTEM_CACHE_POSSIBLE; k++)
    {
      g_autoptr(NscWarning) found = nsc_warning_new (k, 2);
      g_autoptr(NscWarning) none = nsc_warning_new (k, 2);
      g_autofree char *with = NULL, *without = NULL;

      g_assert_true (k == NSC_WARNING_SYSTEM_CACHE_MEMORY || k == NSC_WARNING_SYSTEM_CACHE_POSSIBLE);
      found->test = g_strdup ("Write-fill");
      none->test = g_strdup ("Write-fill");
      found->bytes = G_GINT64_CONSTANT (3) << 30;
      with = nsc_warning_describe (found, NSC_UNITS_MIB, NULL, NULL);
      without = nsc_warning_describe (none, NSC_UNITS_MIB, NULL, NULL);
      g_test_message ("%s / %s", with, without);
      g_assert_true (strstr (with, "cache") != NULL);
      g_assert_null (strstr (without, "found"));
      g_assert_null (strstr (without, "fast start"));
      g_assert_cmpstr (with, !=, without);
    }
}

/* Every kind of warning the registry declares (NSC_WARNING_KINDS) has a code of its
 * own that reads back to it, a sentence of its own (not its English message), and
 * every status a line. */
/* Whether @text has a Cyrillic letter. */
static gboolean
has_cyrillic (const char *text)
{
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      if (c >= 0x0400 && c <= 0x04FF)
        return TRUE;
    }
  return FALSE;
}

static void
test_every_code (void)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  nsc_test_use_language (NULL);
  g_assert_cmpint (NSC_N_WARNING_KINDS, >=, 19);
  for (int k = 0; k < NSC_N_WARNING_KINDS; k++)
    {
      g_autoptr(NscWarning) w = nsc_warning_new (k, -1);
      g_autofree char *title = NULL;
      const char *code = nsc_warning_kind_code (k);

      g_assert_nonnull (code);
      g_assert_false (g_hash_table_contains (seen, code));
      g_hash_table_add (seen, (gpointer) code);
      g_assert_cmpint (nsc_warning_kind_from_code (code), ==, k);
      g_assert_cmpstr (w->code, ==, code);
      g_assert_cmpint (w->kind, ==, k);
      nsc_warning_set_message (w, "MESSAGE");
      title = nsc_warning_describe (w, NSC_UNITS_MIB, NULL, NULL);
      if (title == NULL || g_str_equal (title, "MESSAGE") || strlen (title) <= 10)
        g_error ("%s has no words of its own: %s", code, title);
    }
  {
    /* Two kinds, or two variants of one, never share a title: the list shows titles. */
    g_autoptr(GHashTable) titles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
    static const char *positions[] = { NULL, "inside", "across" };

    for (int k = 0; k < NSC_N_WARNING_KINDS; k++)
      for (guint p = 0; p < G_N_ELEMENTS (positions); p++)
        {
          g_autoptr(NscWarning) w = nsc_warning_new (k, 0);
          g_autofree char *title = NULL;
          g_autofree char *who = g_strdup_printf ("%s/%s", nsc_warning_kind_code (k),
                                                  positions[p] ? positions[p] : "-");
          const char *other;

          g_free (w->position);
          w->position = g_strdup (positions[p]);
          title = nsc_warning_describe (w, NSC_UNITS_MIB, NULL, NULL);
          other = g_hash_table_lookup (titles, title);
          /* The same kind may keep its title whatever the position. */
          if (other != NULL && !g_str_has_prefix (other, nsc_warning_kind_code (k)))
            g_error ("%s and %s share the title \"%s\"", other, who, title);
          if (other == NULL)
            g_hash_table_insert (titles, g_steal_pointer (&title), g_steal_pointer (&who));
        }
  }
  {
    /* An unknown code (a newer result) keeps its own words. */
    g_autoptr(JsonNode) n = json_from_string ("{\"code\": \"from-the-future\", \"step\": null, "
                                              "\"message\": \"Something new\"}", NULL);
    g_autoptr(NscWarning) w = nsc_warning_from_json (json_node_get_object (n));
    g_autofree char *title = NULL;

    g_assert_cmpint (w->kind, ==, NSC_WARNING_UNKNOWN);
    g_assert_cmpint (nsc_warning_kind_from_code ("from-the-future"), ==, NSC_WARNING_UNKNOWN);
    g_assert_null (nsc_warning_kind_code (NSC_WARNING_UNKNOWN));
    title = nsc_warning_describe (w, NSC_UNITS_MIB, NULL, NULL);
    g_assert_cmpstr (title, ==, "Something new");
  }
  for (int k = NSC_STATUS_STARTING; k <= NSC_STATUS_WRITING_COPY_FOLDER; k++)
    {
      NscStatus st = { .kind = k, .label = "SEQ1M Q8T1", .method = "format", .count = 3,
                       .ns = G_GINT64_CONSTANT (900000000000) };
      g_autofree char *line = nsc_status_describe (&st);

      g_assert_cmpuint (strlen (line), >, 3);
    }
  /* Every pause says its own reason. */
  {
    g_autoptr(GHashTable) said = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

    for (int reason = NSC_PAUSE_REST; reason <= NSC_PAUSE_OPTION; reason++)
      {
        NscStatus st = { .kind = NSC_STATUS_IDLE, .reason = reason, .ns = 30 * G_GINT64_CONSTANT (1000000000) };
        char *line = nsc_status_describe (&st);

        g_assert_nonnull (strstr (line, "30 seconds"));
        g_assert_false (g_hash_table_contains (said, line));
        g_hash_table_add (said, line);
      }
  }
}

/* Russian, from the compiled catalogue: sentences, units and the three plural forms
 * ("около 61 секунды", "Около 3 минут", "около 5 минут", "около 21 минуты"). */
/* One way to say when a result was taken: local time, the day unpadded. */
static void
test_date (void)
{
  g_autoptr(GDateTime) when = NULL;
  g_autofree char *minutes = NULL;
  g_autofree char *seconds = NULL;
  g_autofree char *iso = NULL;
  g_autofree char *none = NULL;

  g_setenv ("TZ", "UTC", TRUE);
  nsc_test_use_language (NULL);
  when = g_date_time_new_utc (2026, 12, 2, 20, 3, 41);
  minutes = nsc_words_date (when, FALSE);
  seconds = nsc_words_date (when, TRUE);
  iso = nsc_words_date_iso ("2026-12-02T20:03:41.5Z", FALSE);
  none = nsc_words_date_iso ("yesterday", FALSE);
  g_assert_cmpstr (minutes, ==, "2 Dec 2026, 20:03");
  g_assert_cmpstr (seconds, ==, "2 Dec 2026, 20:03:41");
  g_assert_cmpstr (iso, ==, minutes);
  g_assert_null (none);
}

static void
test_russian (void)
{
  const char *localedir = g_getenv ("NSC_TEST_LOCALEDIR");
  g_autoptr(NscWarning) w = nsc_warning_new (NSC_WARNING_READ_INFLATION, 0);
  g_autofree char *title = NULL, *details = NULL, *about1 = NULL, *about3 = NULL;
  g_autofree char *about5 = NULL, *about21 = NULL, *secs = NULL, *size = NULL;
  g_autofree char *status = NULL;
  NscStatus st = { .kind = NSC_STATUS_IDLE_BEFORE, .reason = NSC_PAUSE_STRICT, .ns = G_GINT64_CONSTANT (900000000000) };

  g_assert_nonnull (localedir);
  g_assert_nonnull (bindtextdomain (GETTEXT_PACKAGE, localedir));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  nsc_test_use_language ("ru");

  w->test = g_strdup ("SEQ1M Q8T1");
  w->bps_fresh = 2000e6;
  w->bps_settled = 1000e6;
  title = nsc_warning_describe (w, NSC_UNITS_MB, &details, NULL);
  g_test_message ("%s. %s", title, details);
  g_assert_cmpstr (title, ==, "Скорость чтения может быть завышена кешем накопителя");
  g_assert_nonnull (strstr (details, "2000 МБ/с"));
  about1 = nsc_words_about (61, FALSE);
  about3 = nsc_words_about (180, TRUE);
  about5 = nsc_words_about (300, FALSE);
  about21 = nsc_words_about (21 * 60, FALSE);
  g_assert_cmpstr (about1, ==, "около 61 секунды");
  g_assert_cmpstr (about3, ==, "Около 3 минут");
  g_assert_cmpstr (about5, ==, "около 5 минут");
  g_assert_cmpstr (about21, ==, "около 21 минуты");
  secs = nsc_words_duration (2);
  g_assert_cmpstr (secs, ==, "2 секунды");
  size = nsc_words_size (G_GUINT64_CONSTANT (3) << 30);
  g_assert_cmpstr (size, ==, "3 ГиБ");
  status = nsc_status_describe (&st);
  g_assert_cmpstr (status, ==, "Пауза перед тестом: 15 минут, как в обзорах, чтобы накопитель "
                               "закончил фоновую работу");
  /* A phase written at the drive's pace says how far it is. */
  {
    NscStatus flush = { .kind = NSC_STATUS_FLUSHING_CACHE, .bytes_done = G_GUINT64_CONSTANT (3) << 30,
                        .bytes_total = G_GUINT64_CONSTANT (9) << 30 };
    g_autofree char *text = nsc_status_describe (&flush);

    g_assert_cmpstr (text, ==, "Запись сверх кеша накопителя, чтобы записанные ранее данные "
                               "покинули его · 3 ГиБ из 9 ГиБ");
  }

  /* The write-fill's summary, from a result's JSON. */
  {
    g_autoptr(JsonNode) slc = json_from_string ("{\"has_cache\": true, \"cache_bytes\": 6979321856, "
                                                "\"in_cache_bps\": 2000000000, "
                                                "\"post_cache_bps\": 500000000, \"phases\": ["
                                                "{\"start_bytes\": 0, \"end_bytes\": 6979321856, "
                                                "\"bps\": 2000000000}, {\"start_bytes\": 6979321856, "
                                                "\"end_bytes\": 100000000000, \"bps\": 500000000}]}",
                                                NULL);
    g_autofree char *summary = nsc_words_slc_summary (json_node_get_object (slc), NSC_UNITS_MB);

    /* C.UTF-8's decimal point: the separator follows LC_NUMERIC, not the language. */
    g_assert_cmpstr (summary, ==, "SLC-кеш около 6.5 ГиБ со скоростью 2000 МБ/с; после него 500 МБ/с");
  }

  /* Every warning, with every field set, and every status line is Russian. */
  for (int i = 0; i < NSC_N_WARNING_KINDS; i++)
    {
      const char *positions[] = { "inside", "across", "unknown" };
      const char *subjects[] = { "surface", "read-only", "tmpfs", "nfs", "fuse", "overlay",
                                 "btrfs", "zfs", "ext4" };

      for (guint k = 0; k < G_N_ELEMENTS (subjects); k++)
        {
          g_autoptr(NscWarning) f = nsc_warning_new (i, 1);
          g_autofree char *t = NULL, *d = NULL;

          f->test = g_strdup ("SEQ1M Q8T1");
          f->position = g_strdup (positions[k % G_N_ELEMENTS (positions)]);
          f->subject = g_strdup (subjects[k]);
          f->bps_before = f->bps_fresh = f->bps_random = 2e9;
          f->bps_after = f->bps_settled = f->bps_compressible = f->bps_zeros = 1e9;
          f->bytes = f->bytes_before = f->cache_bytes = G_GINT64_CONSTANT (1) << 33;
          f->seconds = 42;
          f->celsius = 80;
          f->celsius_limit = 75;
          f->link_generation = 3, f->link_width = 4, f->link_max_generation = 4, f->link_max_width = 4;
          nsc_warning_set_message (f, "MESSAGE");
          t = nsc_warning_describe (f, NSC_UNITS_MIB, &d, NULL);
          if (!has_cyrillic (t) || (d != NULL && !has_cyrillic (d)))
            g_error ("%s/%s is not Russian: %s / %s", f->code, subjects[k], t, d);
        }
    }
  for (int k = NSC_STATUS_STARTING; k <= NSC_STATUS_WRITING_COPY_FOLDER; k++)
    {
      NscStatus s = { .kind = k, .label = "Surface", .method = "sanitize", .count = 3,
                      .ns = G_GINT64_CONSTANT (30000000000) };
      g_autofree char *line = nsc_status_describe (&s);

      if (!has_cyrillic (line) && k != NSC_STATUS_TEST && k != NSC_STATUS_TRIM)
        g_error ("status %d is not Russian: %s", k, line);
    }
  /* Every reason auto gives for its backend is Russian, after a probe that read and
   * one that wrote; a backend named has none. */
  for (int k = NSC_BACKEND_WHY_NONE; k <= NSC_BACKEND_WHY_INLINE_ONE_RING; k++)
    for (int wrote = 0; wrote < 2; wrote++)
      {
        NscJobResult r = { .backend_why = k, .backend_errno = EPERM,
                           .backend_probe_bps = { 1520 * 1048576.0, 1810 * 1048576.0 },
                           .backend_probe_write = wrote };
        g_autofree char *note = NULL;

        r.job.queue_depth = 8;
        note = nsc_words_backend_note (&r);
        if (k == NSC_BACKEND_WHY_NONE)
          g_assert_null (note);
        else if (note == NULL || !has_cyrillic (note))
          g_error ("backend reason %d is not Russian: %s", k, note);
      }
  nsc_test_use_language (NULL);
}

/* The capacity check's verdicts in one sentence each, with what the bad blocks held,
 * in English and Russian. */
static void
test_capacity (void)
{
  static const struct { const char *json; const char *en; } cases[] = {
    { "{\"verdict\": \"verified\", \"checked_bytes\": 1073741824, \"reported_bytes\": 1073741824}",
      "All 1 GiB read back as written: every block was checked" },
    { "{\"verdict\": \"wraps\", \"usable_bytes\": 67108864, \"reported_bytes\": 1099511627776, "
      "\"bad_bytes\": 1048576, \"alias_bytes\": 1048576}",
      "This drive stores about 64 MiB, not the 1 TiB it reports: writes past that land on "
      "earlier blocks and destroy them" },
    { "{\"verdict\": \"loses-writes\", \"usable_bytes\": 67108864, \"reported_bytes\": 268435456, "
      "\"bad_bytes\": 201326592, \"zeros_bytes\": 201326592}",
      "This drive stores about 64 MiB, not the 256 MiB it reports: what is written past that is lost" },
    { "{\"verdict\": \"damaged\", \"checked_bytes\": 268435456, \"bad_bytes\": 8192, "
      "\"corrupt_bytes\": 4096, \"unreadable_bytes\": 4096, \"first_bad_offset\": 1048576}",
      "8 KiB of the 256 MiB checked did not read back as written, the first at 1 MiB" },
    { "{\"verdict\": \"not-verified\", \"checked_bytes\": 1048576, \"reported_bytes\": 268435456}",
      "Not verified: the check stopped after 1 MiB of 256 MiB; all of that read back as written" },
    { "{\"verdict\": \"not-verified\", \"checked_bytes\": 1048576, \"reported_bytes\": 268435456, "
      "\"bad_bytes\": 4096, \"other_bytes\": 4096, \"first_bad_offset\": 0}",
      "Not verified: the check stopped after 1 MiB of 256 MiB, and 4 KiB of that did not read "
      "back as written, the first at 0 bytes" },
    /* A surface scan's places: a sample's words. */
    { "{\"verdict\": \"sample-verified\", \"coverage\": \"places\", \"places\": 100, "
      "\"checked_bytes\": 6710886400, \"reported_bytes\": 1099511627776}",
      "The 100 places written across the drive (6.25 GiB of 1 TiB) read back as written: a "
      "sample, not every block (the capacity check reads them all)" },
    { "{\"verdict\": \"wraps\", \"coverage\": \"places\", \"places\": 100, \"usable_bytes\": 68719476736, "
      "\"reported_bytes\": 1099511627776, \"bad_bytes\": 4096, \"alias_bytes\": 4096}",
      "This drive stores at most about 64 GiB, not the 1 TiB it reports: writes at places past "
      "that landed on earlier places" },
    { "{\"verdict\": \"loses-writes\", \"coverage\": \"places\", \"places\": 100, \"usable_bytes\": 68719476736, "
      "\"reported_bytes\": 1099511627776, \"bad_bytes\": 4096, \"zeros_bytes\": 4096}",
      "This drive stores at most about 64 GiB, not the 1 TiB it reports: what was written at "
      "places past that is lost" },
    { "{\"verdict\": \"damaged\", \"coverage\": \"places\", \"places\": 100, \"checked_bytes\": 6710886400, "
      "\"bad_bytes\": 4096, \"corrupt_bytes\": 4096, \"first_bad_offset\": 1048576}",
      "4 KiB of the 6.25 GiB checked at places across the drive did not read back as written, "
      "the first at 1 MiB" },
    { "{\"verdict\": \"not-verified\", \"coverage\": \"places\", \"places\": 99, \"checked_bytes\": 1048576, "
      "\"bad_bytes\": 4096, \"other_bytes\": 4096}",
      "Not verified: the places written were not all read back (1 MiB checked, 4 KiB of it not "
      "as written)" },
    /* Ended while it wrote (cancelled, the drive gone): nothing read back. */
    { "{\"verdict\": \"not-verified\", \"checked_bytes\": 0, \"reported_bytes\": 268435456}",
      "Not verified: the run ended before it read back anything it wrote" },
    { "{\"verdict\": \"not-verified\", \"coverage\": \"places\", \"places\": 100, \"checked_bytes\": 0, "
      "\"reported_bytes\": 268435456}",
      "Not verified: the run ended before it read back anything it wrote" },
  };
  const char *localedir = g_getenv ("NSC_TEST_LOCALEDIR");

  g_assert_nonnull (bindtextdomain (GETTEXT_PACKAGE, localedir));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = json_from_string (cases[i].json, NULL);
      JsonObject *o = json_node_get_object (node);
      g_autofree char *details = NULL, *en = NULL, *ru = NULL, *ru_details = NULL;

      nsc_test_use_language (NULL);
      en = nsc_words_capacity (o, &details);
      g_assert_cmpstr (en, ==, cases[i].en);
      g_assert_true ((details != NULL) == json_object_has_member (o, "bad_bytes"));
      if (details)
        g_assert_true (g_str_has_prefix (details, "Blocks that did not read back as written: "));
      nsc_test_use_language ("ru");
      ru = nsc_words_capacity (o, &ru_details);
      if (!has_cyrillic (ru) || (ru_details && !has_cyrillic (ru_details)))
        g_error ("capacity %u is not Russian: %s / %s", i, ru, ru_details);
    }
  /* The quick probe's verdicts: one sentence, then what it saw, what a probe cannot
   * prove and the full check's cost where it passed or did not end. */
  {
    static const struct { const char *json; const char *en; const char *details; } probe[] = {
      { "{\"verdict\": \"probe-passed\", \"coverage\": \"probe\", \"places\": 192, "
        "\"reported_bytes\": 4294967296, \"usable_bytes\": 4294967296, \"cache_bytes\": 0, "
        "\"cache_beyond\": true, \"cache_max\": 1073741824, \"bytes_written\": 1074790400, "
        "\"write_bps\": 1073741824}",
        "The 192 places the probe wrote across the drive kept their data: good as far as a quick "
        "probe can tell",
        "The drive's end still held its data after 1 GiB more was written: it stores its end, or a "
        "cache of its own is larger than that. The probe wrote 1.00 GiB. A probe cannot prove a drive "
        "good: a fake that maps its flash as it is written keeps every block a probe writes and "
        "loses data only once more than it really stores has been written. The capacity check "
        "settles it: it writes 5 GiB and reads 4 GiB back, its writes alone 5 seconds or more "
        "at the speed the probe wrote" },
      { "{\"verdict\": \"wraps\", \"coverage\": \"probe\", \"places\": 0, "
        "\"reported_bytes\": 1099511627776, \"usable_bytes\": 68719472640, \"cache_bytes\": 0, "
        "\"bytes_written\": 790528}",
        "This drive stores 64.0 GiB, not the 1 TiB it reports: writes past that land on earlier "
        "blocks and destroy them",
        "Usable: 68719472640 bytes, to the 4 KiB block. The probe wrote 772 KiB" },
      { "{\"verdict\": \"loses-writes\", \"coverage\": \"probe\", \"places\": 700, "
        "\"reported_bytes\": 4294967296, \"usable_bytes\": 2461323264, \"cache_bytes\": 221708288, "
        "\"bytes_written\": 740294656}",
        "This drive stores 2.29 GiB, not the 4 GiB it reports: what is written past that is lost",
        "Usable: 2461323264 bytes, to the 4 KiB block. The drive returned up to its last 211.4 MiB "
        "of writes from a cache of its own: the probe wrote past it before it read. The probe wrote "
        "706 MiB" },
      { "{\"verdict\": \"damaged\", \"coverage\": \"probe\", \"places\": 192, "
        "\"reported_bytes\": 4294967296, \"usable_bytes\": 0, \"first_bad_offset\": 0, "
        "\"bytes_written\": 790528}",
        "Places the probe wrote lost their data between places that kept it, the first at 0 bytes: "
        "the drive is damaged, or a fake a probe cannot measure",
        "The probe wrote 772 KiB" },
      { "{\"verdict\": \"not-verified\", \"coverage\": \"probe\", \"reported_bytes\": 4294967296, "
        "\"checked_bytes\": 0, \"bytes_written\": 33554432}",
        "Not verified: the probe ended before it could tell",
        "The probe wrote 32 MiB. The capacity check settles it: it writes 5 GiB and reads 4 GiB back" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (probe); i++)
      {
        g_autoptr(JsonNode) node = json_from_string (probe[i].json, NULL);
        JsonObject *o = json_node_get_object (node);
        g_autofree char *details = NULL, *en = NULL, *ru = NULL, *ru_details = NULL;

        nsc_test_use_language (NULL);
        en = nsc_words_capacity (o, &details);
        g_assert_cmpstr (en, ==, probe[i].en);
        g_assert_cmpstr (details, ==, probe[i].details);
        nsc_test_use_language ("ru");
        ru = nsc_words_capacity (o, &ru_details);
        if (!has_cyrillic (ru) || !has_cyrillic (ru_details))
          g_error ("probe %u is not Russian: %s / %s", i, ru, ru_details);
      }
  }
  {
    g_autoptr(JsonNode) node = json_from_string ("{\"verdict\": \"damaged\", \"bad_bytes\": 20480, "
                                                 "\"zeros_bytes\": 4096, \"alias_bytes\": 4096, "
                                                 "\"stale_bytes\": 4096, \"corrupt_bytes\": 4096, "
                                                 "\"other_bytes\": 4096, \"unreadable_bytes\": 0}", NULL);
    g_autofree char *details = NULL;
    g_autofree char *v = NULL;

    nsc_test_use_language (NULL);
    v = nsc_words_capacity (json_node_get_object (node), &details);
    g_assert_cmpstr (details, ==, "Blocks that did not read back as written: zeros (lost writes) "
                                  "4 KiB · other places' data 4 KiB · data older than this check "
                                  "4 KiB · damaged 4 KiB · other data 4 KiB");
  }
  {
    /* Slow blocks follow what the bad blocks held, or stand alone. */
    g_autoptr(JsonNode) node = json_from_string ("{\"verdict\": \"verified\", \"checked_bytes\": 1073741824, "
                                                 "\"read_median_ns\": 4000000, \"slow_threshold_ns\": 50000000, "
                                                 "\"slow_bytes\": 3145728, \"first_slow_offset\": 12884901888, "
                                                 "\"slowest_read_ns\": 1200000000, "
                                                 "\"slowest_offset\": 42949672960}", NULL);
    g_autofree char *details = NULL, *v = NULL, *ru = NULL, *ru_details = NULL;

    nsc_test_use_language (NULL);
    v = nsc_words_capacity (json_node_get_object (node), &details);
    g_assert_cmpstr (details, ==, "3 MiB read slowly (over 50 ms each, against 4 ms usually), the "
                                  "first at 12 GiB; the slowest took 1 second, at 40 GiB");
    json_object_set_int_member (json_node_get_object (node), "bad_bytes", 4096);
    json_object_set_int_member (json_node_get_object (node), "zeros_bytes", 4096);
    g_clear_pointer (&details, g_free);
    g_clear_pointer (&v, g_free);
    v = nsc_words_capacity (json_node_get_object (node), &details);
    g_assert_cmpstr (details, ==, "Blocks that did not read back as written: zeros (lost writes) "
                                  "4 KiB. 3 MiB read slowly (over 50 ms each, against 4 ms "
                                  "usually), the first at 12 GiB; the slowest took 1 second, at "
                                  "40 GiB");
    nsc_test_use_language ("ru");
    ru = nsc_words_capacity (json_node_get_object (node), &ru_details);
    if (!has_cyrillic (ru_details) || strstr (ru_details, "read slowly"))
      g_error ("slow blocks are not Russian: %s", ru_details);
    /* No slow reads: nothing said of them. */
    nsc_test_use_language (NULL);
    json_object_set_int_member (json_node_get_object (node), "slow_bytes", 0);
    g_clear_pointer (&details, g_free);
    g_clear_pointer (&v, g_free);
    v = nsc_words_capacity (json_node_get_object (node), &details);
    g_assert_null (strstr (details, "slowly"));
  }
  nsc_test_use_language (NULL);
}

/* The fields a problem's row in nsc-error.h declares: each field's name followed by
 * ':' or ',' or the end of its comment ("n, text: the preset, text2: what is wrong"). */
enum { F_PATH, F_TEXT, F_TEXT2, F_BYTES, F_BYTES2, F_BYTES3, F_N, F_N2, F_X, N_FIELDS };
static const char *field_names[N_FIELDS] = { "path", "text", "text2", "bytes", "bytes2",
                                             "bytes3", "n", "n2", "x" };

static void
set_field (NscErrorFields *f,
           int             which,
           gboolean        on)
{
  switch (which)
    {
    case F_PATH: f->path = on ? "/MARK/path" : NULL; break;
    case F_TEXT: f->text = on ? "MARK-text" : NULL; break;
    case F_TEXT2: f->text2 = on ? "MARK-other" : NULL; break;
    case F_BYTES: f->bytes = on ? G_GUINT64_CONSTANT (3) << 10 : 0; break;
    case F_BYTES2: f->bytes2 = on ? G_GUINT64_CONSTANT (5) << 20 : 0; break;
    case F_BYTES3: f->bytes3 = on ? G_GUINT64_CONSTANT (7) << 30 : 0; break;
    case F_N: f->n = on ? 4242 : 0; break;
    case F_N2: f->n2 = on ? 5353 : 0; break;
    case F_X: f->x = on ? 6161.5e6 : 0; break;
    default: g_assert_not_reached ();
    }
}

/* Every problem the engine declares is said in words that name exactly the fields its
 * row declares (the sentence changes when, and only when, a declared field does), with
 * the class the row gives, its fields kept in the error, and in Russian. */
static void
test_problems (void)
{
  const char *localedir = g_getenv ("NSC_TEST_LOCALEDIR");
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "src", "engine",
                                            "nsc-error.h", NULL);
  g_autofree char *header = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) row = g_regex_new ("^\\s*X \\((\\w+),\\s*(\\w+)\\)\\s*/\\*(.*)\\*/",
                                       G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) m = NULL;
  gboolean seen[NSC_N_PROBLEMS] = { FALSE };
  guint rows = 0;

  g_assert_true (g_file_get_contents (path, &header, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (localedir);
  g_assert_nonnull (bindtextdomain (GETTEXT_PACKAGE, localedir));
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  nsc_words_problem_install ();

  for (g_regex_match (row, header, 0, &m); g_match_info_matches (m); g_match_info_next (m, NULL))
    {
      g_autofree char *name = g_match_info_fetch (m, 1);
      g_autofree char *class = g_match_info_fetch (m, 2);
      g_autofree char *comment = g_match_info_fetch (m, 3);
      g_autofree char *full = NULL, *ru = NULL;
      NscProblem p = NSC_PROBLEM_NONE;
      gboolean declared[N_FIELDS];
      NscErrorFields all = { 0 };
      g_autoptr(GError) raised = NULL;

      for (int k = 1; k < NSC_N_PROBLEMS; k++)
        if (g_str_equal (nsc_problem_name (k), name))
          p = k;
      if (p == NSC_PROBLEM_NONE)
        g_error ("%s is declared in nsc-error.h but has no problem", name);
      g_assert_false (seen[p]);
      seen[p] = TRUE;
      rows++;

      for (int k = 0; k < N_FIELDS; k++)
        {
          g_autofree char *pattern = g_strdup_printf ("\\b%s\\s*([:,]|$)", field_names[k]);

          declared[k] = g_regex_match_simple (pattern, g_strstrip (comment), 0, 0);
          set_field (&all, k, TRUE);
        }

      nsc_test_use_language (NULL);
      full = nsc_words_problem (p, &all);
      g_test_message ("%s: %s", name, full);
      if (full[0] == '\0' || g_str_equal (full, name) || strstr (full, "(null)"))
        g_error ("%s is not said: “%s”", name, full);
      for (int k = 0; k < N_FIELDS; k++)
        {
          NscErrorFields less = all;
          g_autofree char *without = NULL;

          set_field (&less, k, FALSE);
          without = nsc_words_problem (p, &less);
          if (declared[k] != !g_str_equal (without, full))
            g_error ("%s: the field %s is %s, but the words %s it: “%s”", name, field_names[k],
                     declared[k] ? "declared" : "not declared",
                     declared[k] ? "do not use" : "use", full);
        }

      /* Raised, it keeps its class, problem and fields; an errno follows its sentence. */
      nsc_error_set (&raised, p, &all);
      g_assert_true (raised->domain == NSC_ERROR);
      g_assert_cmpstr (raised->message, ==, full);
      g_assert_cmpint (nsc_error_get_problem (raised), ==, p);
      g_assert_cmpstr (nsc_error_get_fields (raised)->text, ==, "MARK-text");
      {
        g_autofree char *want = g_strconcat ("NSC_ERROR_", class, NULL);
        static const char *classes[] = {
          "NSC_ERROR_INVALID_ARGUMENT", "NSC_ERROR_NOT_FOUND", "NSC_ERROR_PERMISSION",
          "NSC_ERROR_NO_SPACE", "NSC_ERROR_BUSY", "NSC_ERROR_NEEDS_CONFIRMATION",
          "NSC_ERROR_UNSUPPORTED", "NSC_ERROR_IO", "NSC_ERROR_CANCELLED", "NSC_ERROR_FAILED",
          "NSC_ERROR_NOT_AGREED", "NSC_ERROR_NEEDS_ROOT",
        };

        g_assert_cmpint (raised->code, <, G_N_ELEMENTS (classes));
        g_assert_cmpstr (classes[raised->code], ==, want);
      }
      {
        g_autoptr(GError) copy = g_error_copy (raised);
        g_autoptr(GError) with_errno = NULL;

        g_assert_cmpint (nsc_error_get_problem (copy), ==, p);
        g_assert_cmpstr (nsc_error_get_fields (copy)->path, ==, "/MARK/path");
        nsc_error_set_errno (&with_errno, p, ENOENT, &all);
        g_assert_cmpint (with_errno->code, ==, NSC_ERROR_NOT_FOUND);
        g_assert_true (g_str_has_prefix (with_errno->message, full));
        g_assert_true (g_str_has_suffix (with_errno->message, g_strerror (ENOENT)));
      }

      nsc_test_use_language ("ru");
      ru = nsc_words_problem (p, &all);
      if (!has_cyrillic (ru))
        g_error ("%s is not Russian: %s", name, ru);
    }
  nsc_test_use_language (NULL);
  g_assert_cmpuint (rows, ==, NSC_N_PROBLEMS - 1);
  for (int k = 1; k < NSC_N_PROBLEMS; k++)
    g_assert_true (seen[k]);
}

/* One unit type: its names, labels and divisors; a speed's number and its label, in a
 * table's figures or a sentence's, in English and Russian. */
static void
test_speed (void)
{
  g_autofree char *table = NULL, *label = NULL, *sentence = NULL, *small = NULL;
  g_autofree char *iops = NULL, *ru = NULL;

  for (NscUnits u = NSC_UNITS_MIB; u <= NSC_UNITS_US; u++)
    g_assert_cmpint (nsc_units_from_string (nsc_units_to_string (u)), ==, u);
  g_assert_cmpint (nsc_units_from_string (NULL), ==, NSC_UNITS_MIB);
  g_assert_cmpint (nsc_units_from_string ("furlongs"), ==, NSC_UNITS_MIB);
  g_assert_cmpfloat (nsc_units_divisor (NSC_UNITS_MB), ==, 1e6);
  g_assert_cmpfloat (nsc_units_divisor (NSC_UNITS_MIB), ==, 1048576.0);
  g_assert_cmpstr (nsc_units_label (NSC_UNITS_MB), ==, "MB/s");

  table = nsc_format_speed (35.14e6, NSC_UNITS_MB);
  label = nsc_words_speed_label (table, NSC_UNITS_MB);
  sentence = nsc_words_speed (35.14e6, NSC_UNITS_MB);
  small = nsc_words_speed (1.94 * 1048576, NSC_UNITS_MIB);
  /* The grid's IOPS and latency columns leave the speeds in sentences in MiB/s. */
  iops = nsc_words_speed (470 * 1048576.0, NSC_UNITS_IOPS);
  g_assert_cmpstr (table, ==, "35.1");
  g_assert_cmpstr (label, ==, "35.1 MB/s");
  g_assert_cmpstr (sentence, ==, "35 MB/s");
  g_assert_cmpstr (small, ==, "1.9 MiB/s");
  g_assert_cmpstr (iops, ==, "470 MiB/s");

  nsc_test_use_language ("ru");
  ru = nsc_words_speed (2000e6, NSC_UNITS_MB);
  g_assert_cmpstr (ru, ==, "2000 МБ/с");
  nsc_test_use_language (NULL);
}

/* A drive's size as drives are sold, the one formatter of the app, reports, captions
 * and sheets: a 256 MiB drive is not "0 GB". */
static void
test_drive_size (void)
{
  static const struct { guint64 bytes; const char *dec; const char *both; } cases[] = {
    { 268435456, "268.4 MB", "268.4 MB (256 MiB)" },
    { 500107862016, "500.1 GB", "500.1 GB (465.8 GiB)" },
    { 1000204886016, "1.00 TB", "1.00 TB (931.5 GiB)" },
    { 64000000000, "64 GB", "64 GB (59.6 GiB)" },
    { 999, "999 bytes", "999 bytes (999 bytes)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *dec = NULL, *both = NULL, *ru = NULL;

      nsc_test_use_language (NULL);
      dec = nsc_words_drive_size (cases[i].bytes, FALSE);
      both = nsc_words_drive_size (cases[i].bytes, TRUE);
      g_assert_cmpstr (dec, ==, cases[i].dec);
      g_assert_cmpstr (both, ==, cases[i].both);
      nsc_test_use_language ("ru");
      ru = nsc_words_drive_size (cases[i].bytes, TRUE);
      if (!has_cyrillic (ru))
        g_error ("drive size %u is not Russian: %s", i, ru);
    }
  nsc_test_use_language (NULL);
}

int
main (int    argc,
      char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/words/warning-json", test_warning_json);
  g_test_add_func ("/nsc/words/warning-units", test_warning_units);
  g_test_add_func ("/nsc/words/warning-system-cache", test_warning_system_cache);
  g_test_add_func ("/nsc/words/every-code", test_every_code);
  g_test_add_func ("/nsc/words/russian", test_russian);
  g_test_add_func ("/nsc/words/date", test_date);
  g_test_add_func ("/nsc/words/speed", test_speed);
  g_test_add_func ("/nsc/words/problems", test_problems);
  g_test_add_func ("/nsc/words/capacity", test_capacity);
  g_test_add_func ("/nsc/words/drive-size", test_drive_size);
  return g_test_run ();
}

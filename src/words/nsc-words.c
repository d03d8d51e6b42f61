/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "nsc-words.h"
#include "nsc-words-problem.h"
#include "nsc-analysis.h"
#include "nsc-json.h"
#include "nsc-units.h"

void
nsc_bind_text_domain (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  const char *dir = LOCALEDIR;

  /* Run from the build folder (tools/run-app, the tests): the catalogues compiled
   * beside the program, not those of an installed copy, which may be older or none. */
  if (exe != NULL && g_str_has_prefix (exe, BUILD_ROOT "/"))
    dir = BUILD_LOCALEDIR;
  bindtextdomain (GETTEXT_PACKAGE, dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  nsc_words_problem_install ();
}

NscUnits
nsc_units_from_string (const char *name)
{
  if (g_strcmp0 (name, "mb") == 0)
    return NSC_UNITS_MB;
  if (g_strcmp0 (name, "iops") == 0)
    return NSC_UNITS_IOPS;
  if (g_strcmp0 (name, "us") == 0)
    return NSC_UNITS_US;
  return NSC_UNITS_MIB;
}

const char *
nsc_units_to_string (NscUnits units)
{
  static const char *names[] = { "mib", "mb", "iops", "us" };
  return names[units <= NSC_UNITS_US ? units : 0];
}

const char *
nsc_units_label (NscUnits units)
{
  switch (units)
    {
    case NSC_UNITS_MB:
      return _("MB/s");
    case NSC_UNITS_IOPS:
      return _("IOPS");
    case NSC_UNITS_US:
      /* TRANSLATORS: microseconds */
      return _("µs");
    case NSC_UNITS_MIB:
    default:
      return _("MiB/s");
    }
}

double
nsc_units_divisor (NscUnits units)
{
  return units == NSC_UNITS_MB ? NSC_BYTES_PER_MB : NSC_BYTES_PER_MIB;
}

char *
nsc_format_speed (double   bps,
                  NscUnits units)
{
  return nsc_format_significant (bps / nsc_units_divisor (units));
}

/* The label of a speed's unit: IOPS and µs show their speeds in MiB/s. */
static NscUnits
speed_units (NscUnits units)
{
  return units == NSC_UNITS_MB ? NSC_UNITS_MB : NSC_UNITS_MIB;
}

char *
nsc_words_speed_label (const char *number,
                       NscUnits    units)
{
  /* TRANSLATORS: a speed, "480 MB/s": the number, then the unit */
  return g_strdup_printf (_("%s %s"), number, nsc_units_label (speed_units (units)));
}

char *
nsc_words_speed (double   bps,
                 NscUnits units)
{
  double v = bps / nsc_units_divisor (units);
  g_autofree char *number = nsc_format_rounded (isfinite (v) ? v : 0);

  return nsc_words_speed_label (number, units);
}

char *
nsc_words_size (guint64 bytes)
{
  /* Translators: binary size units, as in "1.50 GiB" */
  static const char *units[] = { N_("KiB"), N_("MiB"), N_("GiB"), N_("TiB"), N_("PiB") };
  double v = bytes;
  int u = -1;
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  if (bytes < 1024)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u byte", "%u bytes", (gulong) bytes),
                            (guint) bytes);
  while (v >= 1024 && u + 1 < (int) G_N_ELEMENTS (units))
    v /= 1024, u++;
  /* The user's decimal separator: printf under the user's locale. */
  g_snprintf (number, sizeof number, v == floor (v) ? "%.0f" : v < 10 ? "%.2f" : "%.1f", v);
  /* Translators: a size, "1.50 GiB": the number, then the unit */
  return g_strdup_printf (C_("size", "%s %s"), number, _(units[u]));
}

char *
nsc_words_result_source (JsonObject *root)
{
  JsonObject *source = nsc_json_get_object (root, "source");
  const char *version = nsc_json_get_string (source, "version");
  const char *host = nsc_json_get_string (source, "host");

  if (source == NULL)
    return NULL;
  if (version == NULL || *version == '\0')
    version = nsc_json_get_string (source, "tool");
  if (host)
    /* Translators: a result imported from another tool: "run by fio-3.33 on host1,
     * imported" */
    return g_strdup_printf (_("run by %s on %s, imported"), version ? version : "?", host);
  /* Translators: a result imported from another tool: "run by fio-3.33, imported" */
  return g_strdup_printf (_("run by %s, imported"), version ? version : "?");
}

char *
nsc_words_drive_size (guint64  bytes,
                      gboolean binary)
{
  /* Translators: decimal size units, as drives are sold: "500.1 GB" */
  static const char *units[] = { N_("kB"), N_("MB"), N_("GB"), N_("TB"), N_("PB") };
  double v = bytes;
  int u = -1;
  char number[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *dec = NULL;
  g_autofree char *bin = NULL;

  if (bytes < 1000)
    dec = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u byte", "%u bytes", (gulong) bytes),
                           (guint) bytes);
  else
    {
      while (v >= 1000 && u + 1 < (int) G_N_ELEMENTS (units))
        v /= 1000, u++;
      g_snprintf (number, sizeof number, v == floor (v) ? "%.0f" : v < 10 ? "%.2f" : "%.1f", v);
      dec = g_strdup_printf (C_("size", "%s %s"), number, _(units[u]));
    }
  if (!binary)
    return g_steal_pointer (&dec);
  bin = nsc_words_size (bytes);
  /* Translators: a drive's capacity in decimal units, then in binary ones: "1.00 TB
   * (931.5 GiB)" */
  return g_strdup_printf (C_("size", "%s (%s)"), dec, bin);
}

char *
nsc_words_duration (double seconds)
{
  guint n;

  if (!isfinite (seconds) || seconds < 0)
    seconds = 0;
  if (seconds < 0.95)
    {
      n = (guint) MAX (lround (seconds * 1000), 1);
      /* Translators: a short duration in milliseconds, "200 ms" */
      return g_strdup_printf (_("%u ms"), n);
    }
  if (seconds < 90)
    {
      n = (guint) MAX (lround (seconds), 1);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u second", "%u seconds", n), n);
    }
  if (seconds < 90 * 60)
    {
      n = (guint) lround (seconds / 60);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u minute", "%u minutes", n), n);
    }
  n = (guint) lround (seconds / 3600);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u hour", "%u hours", n), n);
}

char *
nsc_words_date (GDateTime *when,
                gboolean   seconds)
{
  g_autoptr(GDateTime) local = NULL;

  g_return_val_if_fail (when != NULL, NULL);

  local = g_date_time_to_local (when);
  return g_date_time_format (local, seconds
                             /* Translators: when a result was taken, to the second: see
                              * strftime; %-d is the day without padding */
                             ? _("%-d %b %Y, %H:%M:%S")
                             /* Translators: when a result was taken, in the history, on
                              * its page, in legends: see strftime; %-d is the day
                              * without padding */
                             : _("%-d %b %Y, %H:%M"));
}

char *
nsc_words_date_iso (const char *iso8601,
                    gboolean    seconds)
{
  g_autoptr(GDateTime) when = iso8601 ? g_date_time_new_from_iso8601 (iso8601, NULL) : NULL;

  return when ? nsc_words_date (when, seconds) : NULL;
}

char *
nsc_words_clock (gint64 ns)
{
  gint64 s = ns / G_GINT64_CONSTANT (1000000000);

  if (ns < 1000000000)
    /* Translators: a time left or taken, in milliseconds */
    return g_strdup_printf (_("%.0f ms"), ns / 1e6);
  if (s < 60)
    /* Translators: a time left or taken, in seconds, "4.5 s" */
    return g_strdup_printf (_("%.1f s"), ns / 1e9);
  if (s < 3600)
    /* Translators: a time left or taken, "2 min 05 s" */
    return g_strdup_printf (_("%d min %02d s"), (int) (s / 60), (int) (s % 60));
  /* Translators: a time left or taken, "1 h 05 min" */
  return g_strdup_printf (_("%d h %02d min"), (int) (s / 3600), (int) ((s / 60) % 60));
}

char *
nsc_words_about (double   seconds,
                 gboolean capital)
{
  guint n;

  if (!isfinite (seconds) || seconds < 0)
    seconds = 0;
  if (seconds < 90)
    {
      n = (guint) MAX (lround (seconds), 1);
      return g_strdup_printf (capital
                              /* Translators: an estimate at the start of a line, "About 40
                               * seconds"; the whole phrase, so that it can be declined */
                              ? g_dngettext (GETTEXT_PACKAGE, "About %u second", "About %u seconds", n)
                              /* Translators: an estimate inside a sentence, "about 40 seconds" */
                              : g_dngettext (GETTEXT_PACKAGE, "about %u second", "about %u seconds", n),
                              n);
    }
  if (seconds < 90 * 60)
    {
      n = (guint) lround (seconds / 60);
      return g_strdup_printf (capital
                              /* Translators: an estimate at the start of a line */
                              ? g_dngettext (GETTEXT_PACKAGE, "About %u minute", "About %u minutes", n)
                              /* Translators: an estimate inside a sentence */
                              : g_dngettext (GETTEXT_PACKAGE, "about %u minute", "about %u minutes", n),
                              n);
    }
  n = (guint) lround (seconds / 3600);
  return g_strdup_printf (capital
                          /* Translators: an estimate at the start of a line */
                          ? g_dngettext (GETTEXT_PACKAGE, "About %u hour", "About %u hours", n)
                          /* Translators: an estimate inside a sentence */
                          : g_dngettext (GETTEXT_PACKAGE, "about %u hour", "about %u hours", n),
                          n);
}

/* ---- the write-fill's summary ------------------------------------------------------ */

/* "6.5 GiB", "700 MiB": a size as a summary rounds it. */
static char *
size_approx (double bytes)
{
  double gib = bytes / 1073741824.0, mib = bytes / 1048576.0;
  char number[32];
  const char *unit;

  if (gib >= 9.95)
    g_snprintf (number, sizeof number, "%.0f", gib), unit = _("GiB");
  else if (gib >= 1)
    g_snprintf (number, sizeof number, "%.1f", gib), unit = _("GiB");
  else if (mib >= 1)
    g_snprintf (number, sizeof number, "%.0f", mib), unit = _("MiB");
  else
    g_snprintf (number, sizeof number, "%.0f", bytes / 1024.0), unit = _("KiB");
  return g_strdup_printf (C_("size", "%s %s"), number, unit);
}

static double
member_number (JsonObject *o,
               const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return NAN;
  if (json_node_get_value_type (n) == G_TYPE_INT64)
    return (double) json_node_get_int (n);
  if (json_node_get_value_type (n) == G_TYPE_DOUBLE)
    return json_node_get_double (n);
  return NAN;
}

static JsonArray *
member_array (JsonObject *o,
              const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  return n && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
}

/* "; then 620 MiB/s for 40 GiB; then 590 MiB/s for the last 140 GiB" */
static void
append_phases (GString      *s,
               JsonArray    *phases,
               guint         from,
               NscUnits      unit)
{
  guint n = phases ? json_array_get_length (phases) : 0;

  for (guint i = from; i < n; i++)
    {
      JsonObject *p = json_array_get_object_element (phases, i);
      g_autofree char *len = size_approx (member_number (p, "end_bytes")
                                          - member_number (p, "start_bytes"));
      g_autofree char *v = nsc_words_speed (member_number (p, "bps"), unit);

      if (i + 1 == n)
        /* Translators: the write-fill summary's last phase: "; then 590 MiB/s for the
         * last 140 GiB" */
        g_string_append_printf (s, _("; then %s for the last %s"), v, len);
      else
        /* Translators: a phase of the write-fill summary: "; then 620 MiB/s for 40 GiB" */
        g_string_append_printf (s, _("; then %s for %s"), v, len);
    }
}

static char *
drive_summary (JsonObject   *slc,
               NscUnits      unit)
{
  JsonArray *phases = member_array (slc, "phases");
  JsonArray *bursts = member_array (slc, "bursts");
  guint n_phases = phases ? json_array_get_length (phases) : 0;
  guint n_bursts = bursts ? json_array_get_length (bursts) : 0;
  JsonNode *has = slc ? json_object_get_member (slc, "has_cache") : NULL;
  gboolean has_cache = has && JSON_NODE_HOLDS_VALUE (has) && json_node_get_boolean (has);
  const char *cause = NULL;
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (slc != NULL, NULL);

  if (json_object_has_member (slc, "drop_cause")
      && JSON_NODE_HOLDS_VALUE (json_object_get_member (slc, "drop_cause")))
    cause = json_object_get_string_member (slc, "drop_cause");

  if (has_cache)
    {
      g_autofree char *size = size_approx (member_number (slc, "cache_bytes"));
      g_autofree char *in = nsc_words_speed (member_number (slc, "in_cache_bps"), unit);
      g_autofree char *post = nsc_words_speed (member_number (slc, "post_cache_bps"), unit);

      if (n_bursts > 0)
        {
          g_autofree char *avg = nsc_words_speed (member_number (slc, "post_cache_avg_bps"), unit);
          g_autofree char *fastest = NULL, *all = NULL;
          double top = 0, sum = 0;

          for (guint i = 0; i < n_bursts; i++)
            {
              JsonObject *b = json_array_get_object_element (bursts, i);
              top = MAX (top, member_number (b, "bps"));
              sum += member_number (b, "bytes");
            }
          fastest = nsc_words_speed (top, unit);
          all = size_approx (sum);
          g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                                  /* Translators: the write-fill summary with
                                                   * fast bursts after the cache */
                                                  "SLC cache about %s at %s; after it mostly %s, "
                                                  "with %u later burst at up to %s (%s in all): "
                                                  "%s on average",
                                                  "SLC cache about %s at %s; after it mostly %s, "
                                                  "with %u later bursts at up to %s (%s in all): "
                                                  "%s on average", n_bursts),
                                  size, in, post, n_bursts, fastest, all, avg);
        }
      else
        {
          /* After the cache, the phase that holds most of the data. */
          guint longest = 1;
          double longest_bytes = -1;

          for (guint k = 1; k < n_phases; k++)
            {
              JsonObject *p = json_array_get_object_element (phases, k);
              double len = member_number (p, "end_bytes") - member_number (p, "start_bytes");
              if (len > longest_bytes)
                longest = k, longest_bytes = len;
            }
          if (longest == 1)
            {
              /* Translators: the write-fill summary: the cache's size and speed, then the
               * speed after it */
              g_string_append_printf (s, _("SLC cache about %s at %s; after it %s"), size, in, post);
              append_phases (s, phases, 2, unit);
            }
          else
            {
              /* Translators: as above, when a short stretch came first after the cache */
              g_string_append_printf (s, _("SLC cache about %s at %s; after it mostly %s"),
                                      size, in, post);
              append_phases (s, phases, 1, unit);
            }
        }
    }
  else if (g_strcmp0 (cause, "thermal-throttling") == 0)
    {
      JsonObject *t = json_object_has_member (slc, "throttle")
                      && JSON_NODE_HOLDS_OBJECT (json_object_get_member (slc, "throttle"))
                      ? json_object_get_object_member (slc, "throttle") : NULL;
      g_autofree char *at = size_approx (member_number (t, "bytes"));
      g_autofree char *before = nsc_words_speed (member_number (t, "bps_before"), unit);
      g_autofree char *after = nsc_words_speed (member_number (t, "bps_after"), unit);

      g_string_append_printf (s, _("No SLC cache end seen: the speed fell from %s to %s after %s "
                                   "as the drive reached %.0f °C (its %.0f °C throttle "
                                   "threshold): thermal throttling, not the cache's end"),
                              before, after, at, member_number (t, "celsius"),
                              member_number (t, "threshold_celsius"));
    }
  else if (n_phases == 1)
    {
      g_autofree char *v = nsc_words_speed (member_number (json_array_get_object_element (phases, 0),
                                                           "bps"), unit);
      /* Translators: the write-fill summary of a drive without a cache */
      g_string_append_printf (s, _("No SLC cache seen: %s throughout"), v);
    }
  else if (n_phases > 1)
    {
      g_autofree char *first = nsc_words_speed (member_number (json_array_get_object_element (phases, 0),
                                                               "bps"), unit);
      g_string_append_printf (s, _("No SLC cache seen: %s at first"), first);
      append_phases (s, phases, 1, unit);
    }
  else
    {
      g_string_free (s, TRUE);
      return NULL;
    }
  return g_string_free (s, FALSE);
}

char *
nsc_words_system_cache_phrase (const NscSystemCacheInfo *info)
{
  const char *first, *second;
  const char *format;

  g_return_val_if_fail (info != NULL, NULL);

  format = nsc_system_cache_phrase_format (info, &first, &second);
  if (format == NULL)
    return nsc_system_cache_phrase (info);
  return nsc_phrase_fill (g_dgettext (GETTEXT_PACKAGE, format), first, second);
}

/* The "system_cache" member of an analysis, or of a result's target. */
static void
system_cache_from_json (JsonObject         *o,
                        NscSystemCacheInfo *out)
{
  JsonObject *sc = o && json_object_has_member (o, "system_cache")
                   && JSON_NODE_HOLDS_OBJECT (json_object_get_member (o, "system_cache"))
                   ? json_object_get_object_member (o, "system_cache") : NULL;
  memset (out, 0, sizeof *out);
  out->certainty = nsc_system_cache_from_string (sc ? nsc_json_get_string (sc, "certainty") : NULL);
  if (out->certainty == NSC_SYSTEM_CACHE_NONE)
    return;
  out->kind = g_strdup (nsc_json_get_string (sc, "kind"));
  out->device = g_strdup (nsc_json_get_string (sc, "device"));
  out->detail = g_strdup (nsc_json_get_string (sc, "detail"));
}

char *
nsc_words_slc_summary (JsonObject   *slc,
                       NscUnits      unit)
{
  NscSystemCacheInfo cache;
  g_autofree char *via = NULL;
  g_autofree char *drive = NULL;
  char *out;

  g_return_val_if_fail (slc != NULL, NULL);

  system_cache_from_json (slc, &cache);
  via = cache.certainty != NSC_SYSTEM_CACHE_NONE ? nsc_words_system_cache_phrase (&cache) : NULL;
  if (g_strcmp0 (nsc_json_get_string (slc, "drop_cause"), "system-cache") == 0)
    {
      g_autofree char *size = size_approx (member_number (slc, "cache_bytes"));
      g_autofree char *in = nsc_words_speed (member_number (slc, "in_cache_bps"), unit);
      g_autofree char *post = nsc_words_speed (member_number (slc, "post_cache_bps"), unit);

      /* Translators: the write-fill summary when this machine's memory (a loop device
       * over a file, a folder in memory) took the fast start: "the first 170 MiB went at
       * 2100 MiB/s into this machine's memory, through loop0, a loop device over
       * /var/tmp/disk.img without direct I/O; after it 300 MiB/s" */
      out = g_strdup_printf (_("No SLC cache measured: the first %s went at %s into this "
                               "machine's memory, through %s; after it %s"), size, in, via, post);
    }
  else
    {
      drive = drive_summary (slc, unit);
      if (drive == NULL)
        out = NULL;
      else if (cache.certainty == NSC_SYSTEM_CACHE_MEMORY)
        /* Translators: after the write-fill summary */
        out = g_strdup_printf (_("%s. Not verified: the writes went through this machine's "
                                 "memory (%s), which hides the drive's own behaviour"), drive, via);
      else if (cache.certainty == NSC_SYSTEM_CACHE_POSSIBLE)
        /* Translators: after the write-fill summary; %s is "vda, a virtual disk (virtio)" */
        out = g_strdup_printf (_("%s. Not verified as the drive's own: the writes went through "
                                 "%s, which may keep them in memory first"), drive, via);
      else
        out = g_steal_pointer (&drive);
    }
  nsc_system_cache_info_clear (&cache);
  return out;
}

char *
nsc_words_recovery_point (JsonObject *point)
{
  JsonNode *fast_node;
  g_autofree char *fast = NULL;
  double idle_s;

  g_return_val_if_fail (point != NULL, NULL);

  fast_node = json_object_get_member (point, "fast_bytes");
  if (fast_node == NULL || !JSON_NODE_HOLDS_VALUE (fast_node))
    return NULL;
  idle_s = member_number (point, "idle_before_ns") / 1e9;
  fast = nsc_words_size ((guint64) member_number (point, "fast_bytes"));
  if (g_strcmp0 (nsc_json_get_string (point, "verdict"), "not-verified") == 0
      && g_strcmp0 (nsc_json_get_string (point, "reason"), "system-cache") == 0)
    /* Translators: a cache-recovery step through memory in front of the drive (a
     * virtual disk's host); %.0f is seconds, %s a size ("2 GiB") */
    return g_strdup_printf (_("After %.0f s idle: %s fast again, not verified: memory in "
                              "front of the drive may have taken it"), idle_s, fast);
  if (g_strcmp0 (nsc_json_get_string (point, "verdict"), "not-verified") == 0)
    {
      g_autofree char *back = nsc_words_size ((guint64) member_number (point, "back_at_bytes"));

      /* Translators: a cache-recovery step whose speed fell and came back; %.0f is
       * seconds, then two sizes ("2 GiB") */
      return g_strdup_printf (_("After %.0f s idle: not verified: %s fast, then slow, "
                                "then fast again from %s"), idle_s, fast, back);
    }
  /* Translators: a cache-recovery step: %.0f is seconds, %s a size ("2 GiB") */
  return g_strdup_printf (_("After %.0f s idle: %s fast again"), idle_s, fast);
}

const char *
nsc_words_test_label (const char *label)
{
  /* gettext of "" is the catalogue's header. */
  if (label == NULL || *label == '\0')
    return label;
  return g_dgettext (GETTEXT_PACKAGE, label);
}

char *
nsc_words_backend_note (const NscJobResult *r)
{
  guint qd = r->job.queue_depth;

  switch (r->backend_why)
    {
    case NSC_BACKEND_WHY_NO_IO_URING:
      /* Translators: why the tests ran on the psync backend; %s is the system's error */
      return g_strdup_printf (_("io_uring is not available (%s); psync threads were used"),
                              g_strerror (r->backend_errno));
    case NSC_BACKEND_WHY_QUEUE_DEPTH_1:
      /* Translators: why a test ran on the psync backend; pread/pwrite are system calls */
      return g_strdup (_("queue depth 1: a pread/pwrite loop per worker, the lowest-overhead path"));
    case NSC_BACKEND_WHY_NO_NOWAIT:
      /* Translators: why a test ran on the psync backend; NOWAIT is a flag's name, io_uring
       * and psync the backends' names; %u the queue depth, twice */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "queue depth %u: the target refuses non-blocking I/O "
                                           "(NOWAIT), so io_uring would hand every request to "
                                           "kernel workers; %u psync thread per worker is faster",
                                           "queue depth %u: the target refuses non-blocking I/O "
                                           "(NOWAIT), so io_uring would hand every request to "
                                           "kernel workers; %u psync threads per worker are faster",
                                           qd), qd, qd);
    case NSC_BACKEND_WHY_NOWAIT:
      /* Translators: why a test ran on the io_uring backend; %u is the queue depth */
      return g_strdup_printf (_("queue depth %u: io_uring, the target takes non-blocking I/O"), qd);
    case NSC_BACKEND_WHY_NOWAIT_UNKNOWN:
      /* Translators: why a test ran on the io_uring backend; %u is the queue depth */
      return g_strdup_printf (_("queue depth %u: io_uring (whether the target takes "
                                "non-blocking I/O is unknown)"), qd);
    case NSC_BACKEND_WHY_PUNTED_POLLED:
      /* Translators: why a test that ran on io_uring, as asked, used more CPU; NOWAIT is
       * a flag's name; %u is a number of microseconds */
      return g_strdup_printf (_("io_uring as asked; the target refuses non-blocking I/O "
                                "(NOWAIT), so kernel workers run every request, and each I/O "
                                "thread polls for their completions for up to %u µs before "
                                "it sleeps"), NSC_IO_PUNT_POLL_US);
    case NSC_BACKEND_WHY_INLINE:
      /* Translators: why a test ran on the psync backend; io_uring and psync are the
       * backends' names; %u the queue depth, twice */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "queue depth %u: the target completes every request "
                                           "within the call that submits it, so io_uring would "
                                           "do the whole queue's work on one CPU; %u psync "
                                           "thread per worker spreads it over the CPUs",
                                           "queue depth %u: the target completes every request "
                                           "within the call that submits it, so io_uring would "
                                           "do the whole queue's work on one CPU; %u psync "
                                           "threads per worker spread it over the CPUs",
                                           qd), qd, qd);
    case NSC_BACKEND_WHY_INLINE_ONE_RING:
      {
        g_autofree char *ring = nsc_words_speed (r->backend_probe_bps[0], NSC_UNITS_MIB);
        g_autofree char *threads = nsc_words_speed (r->backend_probe_bps[1], NSC_UNITS_MIB);

        if (r->backend_probe_write)
          /* Translators: why a test that writes ran on the io_uring backend; io_uring
           * and psync are the backends' names; %u the queue depth, then two speeds
           * ("1520 MiB/s") */
          return g_strdup_printf (_("queue depth %u: the target completes every request "
                                    "within the call that submits it, and one io_uring "
                                    "thread wrote %s in an untimed probe against %s through "
                                    "psync threads, so io_uring ran"), qd, ring, threads);
        /* Translators: why a test ran on the io_uring backend; io_uring and psync are
         * the backends' names; %u the queue depth, then two speeds ("1520 MiB/s") */
        return g_strdup_printf (_("queue depth %u: the target completes every request within "
                                  "the call that submits it, and one io_uring thread read %s "
                                  "in an untimed probe against %s through psync threads, so "
                                  "io_uring ran"), qd, ring, threads);
      }
    case NSC_BACKEND_WHY_NONE:
    default:
      return NULL;
    }
}

/* ---- warnings -------------------------------------------------------------------- */

typedef struct
{
  const NscWarning *w;
  NscUnits          unit;
  const char       *test;  /* the test's label, or a word for "the test" */
} Ctx;

static char *
speed (const Ctx *c,
       double     bps)
{
  return nsc_words_speed (bps, c->unit);
}

static char *
size (gint64 bytes)
{
  return nsc_words_size (bytes > 0 ? (guint64) bytes : 0);
}

/* Filesystems whose folders do not measure a drive directly, as a sentence. */
static char *
describe_filesystem (const Ctx  *c,
                     char      **details)
{
  const char *fs = c->w->subject ? c->w->subject : "";

  if (g_str_equal (fs, "tmpfs") || g_str_equal (fs, "ramfs"))
    {
      *details = g_strdup (_("The folder is kept in memory, so the figures are the memory's. "
                              "Choose a folder on a drive, or the drive itself."));
      return g_strdup (_("This folder is in memory, so no drive is measured"));
    }
  if (g_str_equal (fs, "nfs") || g_str_equal (fs, "cifs"))
    {
      *details = g_strdup (_("The folder is on another computer, so the figures are the "
                              "network's. Choose a folder on a drive of this computer."));
      return g_strdup (_("This folder is on a network share, so the network is measured, "
                         "not a drive"));
    }
  if (g_str_equal (fs, "fuse"))
    {
      *details = g_strdup (_("FUSE filesystems pass reads and writes through a program; direct "
                              "access does not reach the drive. Choose a folder on an ext4 or "
                              "XFS filesystem, or the drive itself."));
      return g_strdup (_("This folder's filesystem stands between the test and the drive"));
    }
  if (g_str_equal (fs, "overlay"))
    {
      *details = g_strdup (_("An overlay filesystem (as in containers) may not pass direct "
                              "access on to the drive. Choose a folder on the drive's own "
                              "filesystem."));
      return g_strdup (_("This folder's filesystem may stand between the test and the drive"));
    }
  if (g_str_equal (fs, "btrfs"))
    {
      *details = g_strdup (_("Btrfs may checksum or compress the test file; the figures "
                              "include that work, which the drive alone does not do."));
      return g_strdup (_("The filesystem adds its own work to the results"));
    }
  if (g_str_equal (fs, "zfs"))
    {
      *details = g_strdup (_("ZFS may answer reads from its cache in memory (ARC) instead of "
                              "the drive, so read speeds may be too high."));
      return g_strdup (_("Read speeds may come from the filesystem's memory cache"));
    }
  *details = NULL;
  return g_strdup (_("The drive may not be measured directly through this folder"));
}

/* What a warning says stood between the test and the drive, in the user's words. */
static char *
warning_cache_phrase (const NscWarning *w)
{
  NscSystemCacheInfo cache = { NSC_SYSTEM_CACHE_POSSIBLE, w->cache_kind, w->cache_device,
                               w->cache_detail };

  return nsc_words_system_cache_phrase (&cache);
}

/* A kind's words: returns the title; sets *details and *settle (both NULL on entry)
 * where it has them. */
typedef char *(*Describer) (const Ctx   *c,
                            char       **details,
                            const char **settle);

static char *
describe_inside_slc_cache (const Ctx   *c,
                           char       **details,
                           const char **settle)
{
  const NscWarning *w = c->w;
  char *title = NULL;

  g_autofree char *written = size (w->bytes);
  g_autofree char *before = size (w->bytes_before);
  g_autofree char *cache = size (w->cache_bytes);

  if (g_strcmp0 (w->position, "inside") == 0)
    {
      /* Translators: %s is a test, "SEQ1M Q8T1" */
      title = g_strdup_printf (_("The write speed of %s is the drive's fast cache, not its "
                                 "lasting speed"), c->test);
      if (w->cache_bytes > 0)
        *details = g_strdup_printf (_("The test wrote %s, after %s written since the drive "
                                      "last rested; that fits in the cache measured (%s). "
                                      "Large copies get slower once the cache is full."),
                                    written, before, cache);
    }
  else if (g_strcmp0 (w->position, "across") == 0)
    {
      title = g_strdup_printf (_("The write speed of %s mixes the drive's fast cache and "
                                 "the slower speed after it"), c->test);
      if (w->cache_bytes > 0)
        *details = g_strdup_printf (_("The test began inside the cache measured (%s, with %s "
                                      "written since the drive last rested) and ended past "
                                      "it."), cache, before);
    }
  else
    {
      title = g_strdup_printf (_("The write speed of %s may be the drive's fast cache"),
                               c->test);
      *details = g_strdup (_("The size of this drive's cache is not known: no write-fill "
                             "test ran on it, in this run or before. The write-fill test "
                             "shows how much the drive writes fast and how fast it writes "
                             "after that."));
      *settle = "write-fill";
    }
  return title;
}

static char *
describe_cache_exhausted_during_test (const Ctx   *c,
                                      char       **details,
                                      const char **settle)
{
  const NscWarning *w = c->w;
  char *title = NULL;

  g_autofree char *from = speed (c, w->bps_before);
  g_autofree char *to = speed (c, w->bps_after);
  g_autofree char *at = size (w->bytes);

  /* Translators: %s is a test, "SEQ1M Q8T1" */
  title = g_strdup_printf (_("The drive's fast cache filled up during %s: its write speed "
                             "mixes the cache and the slower speed after it"), c->test);
  if (isfinite (w->bps_before))
    *details = g_strdup_printf (_("The speed fell from %s to %s after %s: the cache filled "
                                  "up during the test. The write-fill test measures both "
                                  "speeds and the cache's size."), from, to, at);
  *settle = "write-fill";
  return title;
}

static char *
describe_thermal_throttling (const Ctx   *c,
                             char       **details,
                             const char **settle)
{
  const NscWarning *w = c->w;
  char *title = NULL;

  g_autofree char *from = speed (c, w->bps_before);
  g_autofree char *to = speed (c, w->bps_after);

  title = g_strdup (_("The drive slowed down because it got too hot"));
  if (w->bytes >= 0 && isfinite (w->celsius_limit))
    {
      g_autofree char *at = size (w->bytes);
      *details = g_strdup_printf (_("During %s the speed fell from %s to %s after %s, when "
                                    "the drive reached %.0f °C (its limit is %.0f °C). "
                                    "This drop is the heat, not the end of the cache; "
                                    "better cooling helps."),
                                  c->test, from, to, at, w->celsius, w->celsius_limit);
    }
  else if (isfinite (w->seconds))
    {
      g_autofree char *after = nsc_words_duration (w->seconds);
      *details = g_strdup_printf (_("During %s the speed fell from %s to %s after %s, at "
                                    "%.0f °C. Better cooling helps."),
                                  c->test, from, to, after, w->celsius);
    }
  *settle = "thermal";
  return title;
}

static char *
describe_read_inflation (const Ctx   *c,
                         char       **details,
                         const char **settle)
{
  const NscWarning *w = c->w;
  char *title = NULL;

  g_autofree char *fresh = speed (c, w->bps_fresh);
  g_autofree char *settled = speed (c, w->bps_settled);

  title = g_strdup (_("Read speeds may be inflated by the drive's cache"));
  if (isfinite (w->bps_fresh))
    *details = g_strdup_printf (_("%s read data just written at %s, but data left to settle "
                                  "at %s: the fast reads came from the cache. Files you "
                                  "read days after writing them are read at the lower "
                                  "speed."), c->test, fresh, settled);
  *settle = "write-fill";
  return title;
}

static char *
describe_read_inflation_not_verified (const Ctx   *c,
                                      char       **details,
                                      const char **settle)
{
  const NscWarning *w = c->w;
  char *title = NULL;

  g_autofree char *fresh = speed (c, w->bps_fresh);
  g_autofree char *settled = speed (c, w->bps_settled);
  g_autofree char *since = size (w->bytes);

  title = g_strdup (_("Read speeds may include the drive's cache"));
  if (w->cache_kind != NULL)
    {
      g_autofree char *via = warning_cache_phrase (w);

      g_free (title);
      title = g_strdup (_("Read speeds may include memory in front of the drive"));
      if (nsc_read_inflation (w->bps_fresh, w->bps_settled, NULL))
        /* Translators: %s (4th) is "nvme0n1, a disk that a virtual machine emulates
         * (QEMU NVMe Ctrl)" */
        *details = g_strdup_printf (_("%s read data just written at %s, faster than data left "
                                      "to settle at %s: the fast figure is likely inflated. "
                                      "But its reads went through %s, which may hold data just "
                                      "written in memory: whether the drive's cache or that "
                                      "memory made them faster is not known."),
                                    c->test, fresh, settled, via);
      else
        /* Translators: %s (3rd) is "loop0, a loop device over /var/tmp/disk.img
         * without direct I/O" */
        *details = g_strdup_printf (_("%s read data just written at %s and data left to settle "
                                      "at %s, but its reads went through %s, which may serve "
                                      "them from memory: they are not proven to be the "
                                      "drive's."), c->test, fresh, settled, via);
    }
  else if (nsc_read_settled_faster (w->bps_fresh, w->bps_settled))
    *details = g_strdup_printf (_("%s read data left to settle at %s, faster than data just "
                                  "written at %s. Settled data should not read faster: "
                                  "the fresh data may have gone to slower flash once the "
                                  "cache was full, or the settled data had not left the "
                                  "cache. Whether the fresh reads are inflated is not known. "
                                  "The write-fill test measures how large the cache is."),
                                c->test, settled, fresh);
  else if (g_strcmp0 (w->subject, "flush-capped") == 0 && isfinite (w->bps_fresh))
    /* Translators: "SEQ1M Q8T1 read data just written at 2000 MiB/s and data left to
     * settle at 1990 MiB/s, but the span let only 2 GiB be written after …" */
    *details = g_strdup_printf (_("%s read data just written at %s and data left to settle "
                                  "at %s, but the span let only %s be written after the "
                                  "settled data, less than the drive's cache, which may still "
                                  "hold it: these reads are not proven free of it. A larger "
                                  "span, or none, lets Quick write past the cache."),
                                c->test, fresh, settled, since);
  else if (g_strcmp0 (w->subject, "cache-not-filled") == 0 && isfinite (w->bps_fresh)
           && isfinite (w->bps_before) && w->bps_before > 0)
    {
      g_autofree char *start = speed (c, w->bps_before);
      g_autofree char *end = speed (c, w->bps_after);

      /* Translators: "SEQ1M Q8T1 read data just written at 2000 MiB/s and data left to
       * settle at 1990 MiB/s, but the 9 GiB written after the settled data never
       * slowed down (3000 MiB/s at its start, 2950 MiB/s at its end): …" */
      *details = g_strdup_printf (_("%s read data just written at %s and data left to settle "
                                    "at %s, but the %s written after the settled data never "
                                    "slowed down (%s at its start, %s at its end): the cache "
                                    "was not seen to fill, so it may still hold the settled "
                                    "data, and these reads are not proven free of it. The "
                                    "write-fill test measures how large the cache is; Quick "
                                    "then writes past it."), c->test, fresh, settled, since,
                                  start, end);
    }
  else if (g_strcmp0 (w->subject, "fresh-not-in-cache") == 0 && isfinite (w->bps_fresh))
    {
      g_autofree char *cache = speed (c, w->bps_before);
      g_autofree char *written = speed (c, w->bps_after);

      /* Translators: "SEQ1M Q8T1 read data just written at 112 MiB/s and data left to
       * settle at 110 MiB/s, but the fresh data was written at 40 MiB/s, slower than
       * the cache's 1500 MiB/s: …" */
      *details = g_strdup_printf (_("%s read data just written at %s and data left to settle "
                                    "at %s, but the fresh data was written at %s, slower than "
                                    "the cache's %s: the cache had no room for it after the "
                                    "pause, so its reads do not show what reads right after "
                                    "writing show. The cache-recovery test measures how long "
                                    "this drive needs to empty its cache."),
                                  c->test, fresh, settled, written, cache);
      *settle = "cache-recovery";
    }
  else if (isfinite (w->bps_fresh))
    *details = g_strdup_printf (_("%s read data just written at %s, and data with %s written "
                                  "after it at %s. The cache may hold both, so these reads "
                                  "are not proven free of it. The write-fill test measures "
                                  "how large the cache is."), c->test, fresh, since, settled);
  if (*settle == NULL)
    *settle = "write-fill";
  return title;
}

static char *
describe_fresh_reads (const Ctx   *c,
                      char       **details,
                      const char **settle)
{
  const NscWarning *w = c->w;
  char *title = NULL;

  title = g_strdup_printf (_("The read speed of %s may be inflated by the drive's cache"),
                           c->test);
  if (isfinite (w->seconds))
    {
      g_autofree char *age = nsc_words_duration (w->seconds);
      *details = g_strdup_printf (_("It read data written %s before, with no pause since: "
                                    "the cache may still hold it, and older files are often "
                                    "read more slowly."), age);
    }
  return title;
}

static char *
describe_unverified_contents (const Ctx   *c,
                              char       **details,
                              const char **settle)
{
  const NscWarning *w = c->w;
  char *title = NULL;

  if (g_strcmp0 (w->subject, "surface") == 0)
    {
      title = g_strdup (_("The surface scan may have read empty parts of the drive"));
      *details = g_strdup (_("Parts never written are answered by the controller without "
                             "reading flash, so on an empty drive the scan shows the "
                             "controller's speed. The scan that writes first shows the "
                             "flash."));
      *settle = "surface-write";
    }
  else
    {
      title = g_strdup_printf (_("%s may have read empty parts of the drive"), c->test);
      *details = g_strdup (_("The drive was opened for reading only, so the test could not "
                             "write its own data first. Empty or trimmed parts read faster "
                             "than real data."));
    }
  return title;
}

static char *
describe_block_size_unsupported (const Ctx   *c,
                                 char       **details,
                                 const char **settle)
{
  const NscWarning *w = c->w;
  char *title = NULL;

  g_autofree char *unit_size = size (w->bytes);

  title = g_strdup_printf (_("%s was skipped: the drive cannot use blocks that small"),
                           c->test);
  if (w->bytes > 0)
    *details = g_strdup_printf (_("Direct reads and writes on %s take blocks of at least %s."),
                                w->subject ? w->subject : _("this drive"), unit_size);
  return title;
}

static char *
describe_backend_fallback (const Ctx   *c,
                           char       **details,
                           const char **settle)
{
  char *title = NULL;

  title = g_strdup (_("The fast input/output interface was not available, so a slower "
                      "one was used"));
  *details = g_strdup (_("The system refused io_uring, so threads doing plain reads and "
                         "writes ran the tests. Results at deep queues may be lower than "
                         "the drive can do."));
  return title;
}

static char *
describe_trim_not_passed_down (const Ctx   *c,
                               char       **details,
                               const char **settle)
{
  char *title = NULL;

  title = g_strdup (_("The drive was not told at once which space was freed"));
  *details = g_strdup (_("The test freed parts of its file, but the filesystem is not "
                         "mounted with the discard option: the drive learns of the freed "
                         "space only at the next scheduled TRIM (fstrim)."));
  return title;
}

static char *
describe_strict_skipped (const Ctx   *c,
                         char       **details,
                         const char **settle)
{
  char *title = NULL;

  title = g_strdup_printf (_("%s ran without the pause and TRIM of the chosen conditions"),
                           c->test);
  *details = g_strdup (_("Its test set measures the drive without them on purpose."));
  return title;
}

static char *
describe_not_direct_to_drive (const Ctx   *c,
                              char       **details,
                              const char **settle)
{
  char *title = NULL;

  title = describe_filesystem (c, details);
  return title;
}

static char *
describe_system_cache (const Ctx   *c,
                       char       **details,
                       const char **settle)
{
  const NscWarning *w = c->w;
  char *title = NULL;

  g_autofree char *via = warning_cache_phrase (w);

  if (w->kind == NSC_WARNING_SYSTEM_CACHE_MEMORY && w->bytes <= 0)
    {
      /* Translators: %s is a test, "Write fill": it found no fast start */
      title = g_strdup_printf (_("%s measured through this machine's memory, not the drive "
                                 "alone"), c->test);
      *details = g_strdup_printf (_("Its writes went through %s: the system kept them in "
                                    "memory before the drive. Test the drive itself, or a "
                                    "folder on it, to measure its cache."), via);
    }
  else if (w->kind == NSC_WARNING_SYSTEM_CACHE_MEMORY)
    {
      /* Translators: %s is a test, "Write fill" */
      title = g_strdup_printf (_("The fast start of %s was this machine's memory, not the "
                                 "drive's SLC cache"), c->test);
      /* Translators: %s is "loop0, a loop device over /var/tmp/disk.img without direct
       * I/O" or "a folder in memory (tmpfs)" */
      *details = g_strdup_printf (_("Its writes went through %s: the system kept them in "
                                    "memory before the drive. Test the drive itself, or a "
                                    "folder on it, to measure its cache."), via);
    }
  else
    {
      if (w->bytes > 0)
        title = g_strdup_printf (_("The SLC cache that %s found is not verified as the "
                                   "drive's"), c->test);
      else
        /* Translators: %s is a test, "Write fill": it found no cache */
        title = g_strdup_printf (_("The speeds %s measured are not verified as the drive's"),
                                 c->test);
      /* Translators: %s is "vda, a virtual disk (virtio)" */
      *details = g_strdup_printf (_("Its writes went through %s, which may keep writes in "
                                    "memory before the drive: a fast start may be that "
                                    "memory."), via);
    }
  return title;
}

static char *
describe_encryption_measured (const Ctx   *c,
                              char       **details,
                              const char **settle)
{
  char *title = NULL;

  title = g_strdup (_("The results include the work of encryption"));
  *details = g_strdup (_("The test file lies on an encrypted volume (dm-crypt): the "
                         "processor encrypts everything written, which the drive alone "
                         "does not do."));
  return title;
}

static char *
describe_raid_measured (const Ctx   *c,
                        char       **details,
                        const char **settle)
{
  char *title = NULL;

  title = g_strdup (_("The results are those of a software RAID array, not of one drive"));
  *details = g_strdup (_("The test file lies on several drives joined by the system "
                         "(md RAID)."));
  return title;
}

static char *
describe_write_cache_off (const Ctx   *c,
                          char       **details,
                          const char **settle)
{
  char *title = NULL;

  title = g_strdup (_("The drive's write cache is off, so writes are slower than usual"));
  *details = g_strdup (_("The drive reports its write cache as “write through”; drives "
                         "usually come with it on."));
  return title;
}

static char *
describe_compressing_controller (const Ctx   *c,
                                 char       **details,
                                 const char **settle)
{
  const NscWarning *w = c->w;
  char *title = NULL;

  g_autofree char *random = speed (c, w->bps_random);
  g_autofree char *half = speed (c, w->bps_compressible);
  g_autofree char *zeros = speed (c, w->bps_zeros);

  title = g_strdup (_("The drive writes easily compressed data faster"));
  if (isfinite (w->bps_random))
    *details = g_strdup_printf (_("Random data: %s; half compressible: %s; zeros: %s. Its "
                                  "controller compresses data or skips zeros, so benchmarks "
                                  "that write such data overstate it."), random, half, zeros);
  return title;
}

static char *
describe_pcie_link_below_max (const Ctx   *c,
                              char       **details,
                              const char **settle)
{
  const NscWarning *w = c->w;
  char *title = NULL;

  title = g_strdup (_("The drive's connection is slower than the drive supports"));
  if (w->link_generation > 0)
    *details = g_strdup_printf (_("It runs at PCIe %d.0 x%d, but the drive supports PCIe "
                                  "%d.0 x%d, so sequential speeds may be capped. Check "
                                  "which slot it sits in (an M.2 slot attached to the "
                                  "processor, the PCIe setting of the firmware); an idle "
                                  "drive may also slow its link to save power."),
                                w->link_generation, w->link_width, w->link_max_generation,
                                w->link_max_width);
  return title;
}

static char *
describe_identity_suspect (const Ctx   *c,
                           char       **details,
                           const char **settle)
{
  const NscWarning *w = c->w;
  const char *maker = w->subject ? w->subject : "?";

  *settle = "probe";
  if (w->vendor_id >= 0 && w->expected_vendor_id >= 0)
    /* Translators: the maker's name, the controller's PCI vendor ID, the maker again,
     * its ID: "0x1e4b, not Samsung's (0x144d)" */
    *details = g_strdup_printf (_("Its controller reports PCI vendor ID 0x%04x, not %s's (0x%04x). "
                                  "A fake sold under a known name often shows this; the quick "
                                  "probe tells whether it stores what it reports."),
                                w->vendor_id, maker, w->expected_vendor_id);
  /* Translators: %s is a maker, "Samsung" */
  return g_strdup_printf (_("The drive calls itself %s, but its controller is another maker's"), maker);
}

/* One describer per kind of NSC_WARNING_KINDS (test-words checks that none is missing). */
static const Describer describers[NSC_N_WARNING_KINDS] = {
  [NSC_WARNING_INSIDE_SLC_CACHE] = describe_inside_slc_cache,
  [NSC_WARNING_CACHE_EXHAUSTED_DURING_TEST] = describe_cache_exhausted_during_test,
  [NSC_WARNING_THERMAL_THROTTLING] = describe_thermal_throttling,
  [NSC_WARNING_READ_INFLATION] = describe_read_inflation,
  [NSC_WARNING_READ_INFLATION_NOT_VERIFIED] = describe_read_inflation_not_verified,
  [NSC_WARNING_FRESH_READS] = describe_fresh_reads,
  [NSC_WARNING_UNVERIFIED_CONTENTS] = describe_unverified_contents,
  [NSC_WARNING_BLOCK_SIZE_UNSUPPORTED] = describe_block_size_unsupported,
  [NSC_WARNING_BACKEND_FALLBACK] = describe_backend_fallback,
  [NSC_WARNING_TRIM_NOT_PASSED_DOWN] = describe_trim_not_passed_down,
  [NSC_WARNING_STRICT_SKIPPED] = describe_strict_skipped,
  [NSC_WARNING_NOT_DIRECT_TO_DRIVE] = describe_not_direct_to_drive,
  [NSC_WARNING_SYSTEM_CACHE_MEMORY] = describe_system_cache,
  [NSC_WARNING_SYSTEM_CACHE_POSSIBLE] = describe_system_cache,
  [NSC_WARNING_ENCRYPTION_MEASURED] = describe_encryption_measured,
  [NSC_WARNING_RAID_MEASURED] = describe_raid_measured,
  [NSC_WARNING_WRITE_CACHE_OFF] = describe_write_cache_off,
  [NSC_WARNING_COMPRESSING_CONTROLLER] = describe_compressing_controller,
  [NSC_WARNING_PCIE_LINK_BELOW_MAX] = describe_pcie_link_below_max,
  [NSC_WARNING_IDENTITY_SUSPECT] = describe_identity_suspect,
};

char *
nsc_warning_describe (const NscWarning  *w,
                      NscUnits           unit,
                      char             **details_out,
                      const char       **settle_out)
{
  Ctx c = { w, unit, NULL };
  g_autofree char *details = NULL;
  const char *settle = NULL;
  char *title = NULL;

  g_return_val_if_fail (w != NULL && w->code != NULL, NULL);

  /* Translators: stands for the test's name when a result does not record it */
  c.test = w->test ? nsc_words_test_label (w->test) : _("the test");
  if (w->kind >= 0 && w->kind < NSC_N_WARNING_KINDS && describers[w->kind] != NULL)
    title = describers[w->kind] (&c, &details, &settle);
  if (title == NULL)
    /* A code this version does not know (a newer result): its own words. */
    title = g_strdup (w->message ? w->message : w->code);
  if (details_out)
    *details_out = g_steal_pointer (&details);
  if (settle_out)
    *settle_out = settle;
  return title;
}

/* Whether @a and @b say the same of different tests. */
static gboolean
warnings_alike (const NscWarning *a,
                const NscWarning *b,
                NscUnits          unit)
{
  g_autofree char *da = NULL, *db = NULL;
  g_autofree char *ta = NULL, *tb = NULL;

  if (g_strcmp0 (a->code, b->code) != 0 || g_strcmp0 (a->position, b->position) != 0
      || g_strcmp0 (a->subject, b->subject) != 0 || a->test == NULL || b->test == NULL
      || g_str_equal (a->test, b->test))
    return FALSE;
  ta = nsc_warning_describe (a, unit, &da, NULL);
  tb = nsc_warning_describe (b, unit, &db, NULL);
  /* The titles name each its own test; the details say the same or not. */
  return g_strcmp0 (da, db) == 0;
}

GPtrArray *
nsc_warnings_group (GPtrArray    *warnings,
                    NscUnits      unit)
{
  GPtrArray *groups = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

  for (guint i = 0; warnings && i < warnings->len; i++)
    {
      NscWarning *w = g_ptr_array_index (warnings, i);
      GPtrArray *like = NULL;

      for (guint k = 0; k < groups->len && like == NULL; k++)
        {
          GPtrArray *g = g_ptr_array_index (groups, k);

          if (warnings_alike (g_ptr_array_index (g, 0), w, unit))
            like = g;
        }
      if (like == NULL)
        {
          like = g_ptr_array_new ();
          g_ptr_array_add (groups, like);
        }
      g_ptr_array_add (like, w);
    }
  return groups;
}

char *
nsc_warnings_group_also (GPtrArray *group)
{
  g_autoptr(GStrvBuilder) names = NULL;
  g_auto(GStrv) list = NULL;
  g_autofree char *joined = NULL;

  if (group == NULL || group->len < 2)
    return NULL;
  names = g_strv_builder_new ();
  for (guint i = 1; i < group->len; i++)
    g_strv_builder_add (names, nsc_words_test_label (((const NscWarning *) g_ptr_array_index (group, i))->test));
  list = g_strv_builder_end (names);
  /* Translators: joins the names of tests, "SEQ1M Q1T1, RND4K Q32T1" */
  joined = g_strjoinv (C_("list", ", "), list);
  /* Translators: under a warning that several tests share; %s names the others */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The same goes for %u more test: %s.",
                                       "The same goes for %u more tests: %s.",
                                       group->len - 1), group->len - 1, joined);
}

/* ---- status ---------------------------------------------------------------------- */

/* "3.1 GiB of 9.0 GiB": how far a phase written at the drive's pace is, once it has
 * written something. */
char *
nsc_status_describe_bytes (const NscStatus *st)
{
  g_autofree char *done = NULL;
  g_autofree char *total = NULL;

  g_return_val_if_fail (st != NULL, NULL);

  if (st->bytes_total == 0 || st->bytes_done == 0)
    return NULL;
  done = nsc_words_size (MIN (st->bytes_done, st->bytes_total));
  total = nsc_words_size (st->bytes_total);
  /* Translators: how much of a write is done, "3.1 GiB of 9.0 GiB" */
  return g_strdup_printf (_("%s of %s"), done, total);
}

static char *
describe_pause (const NscStatus *st)
{
  g_autofree char *d = nsc_words_duration (st->ns / 1e9);

  switch (st->reason)
    {
    case NSC_PAUSE_STRICT:
      /* Translators: %s is a duration, "15 minutes" */
      return g_strdup_printf (_("Pause before the test: %s, as the reviews do, so that the drive "
                                "finishes its background work"), d);
    case NSC_PAUSE_SETTLE:
      /* Translators: %s is a duration, "30 seconds" */
      return g_strdup_printf (_("Pause: %s, so that the data just written settles before it is "
                                "read"), d);
    case NSC_PAUSE_OPTION:
      /* Translators: %s is a duration, "5 seconds" */
      return g_strdup_printf (_("Pause between tests: %s, as asked"), d);
    case NSC_PAUSE_AFTER_TRIM:
      /* Translators: %s is a duration, "30 seconds" */
      return g_strdup_printf (_("Pause: %s, so that the drive finishes the TRIM before the next "
                                "test"), d);
    case NSC_PAUSE_RECOVERY:
      /* Translators: %s is a duration, "30 seconds" */
      return g_strdup_printf (_("Idle for %s: the drive may free its cache meanwhile, and the "
                                "next write measures how much"), d);
    case NSC_PAUSE_REST:
    default:
      /* Translators: %s is a duration, "30 seconds" */
      return g_strdup_printf (_("Pause: %s, so that the drive finishes what it was writing "
                                "before the next test"), d);
    }
}

static char *
describe_kind (const NscStatus *st)
{
  switch (st->kind)
    {
    case NSC_STATUS_STARTING:
      return g_strdup (_("Starting"));
    case NSC_STATUS_PREPARING_FILE:
      return g_strdup (_("Preparing the test file"));
    case NSC_STATUS_FILLING_STATE:
      return g_strdup (_("Filling the drive to the chosen state"));
    case NSC_STATUS_PRECONDITIONING:
      return g_strdup (_("Preconditioning: writing the whole drive once"));
    case NSC_STATUS_STRICT_TRIM:
      return g_strdup (_("TRIM before the test"));
    case NSC_STATUS_WRITING_READ_DATA:
      return g_strdup (_("Writing the data that the tests read"));
    case NSC_STATUS_WRITING_STEP_DATA:
      return g_strdup (_("Writing the data that the test reads"));
    case NSC_STATUS_FLUSHING_CACHE:
      return g_strdup (_("Writing past the drive's cache, so that the data written before "
                         "leaves it"));
    case NSC_STATUS_IDLE_BEFORE:
    case NSC_STATUS_IDLE_BETWEEN:
    case NSC_STATUS_IDLE:
      return describe_pause (st);
    case NSC_STATUS_TEST:
      return g_strdup (nsc_words_test_label (st->label));
    case NSC_STATUS_SURFACE_POINT:
      /* Translators: "Surface: place 3 of 100" */
      return g_strdup_printf (_("%s: place %u of %u"), nsc_words_test_label (st->label),
                              st->index + 1, st->count);
    case NSC_STATUS_TRIM:
      return g_strdup (_("TRIM"));
    case NSC_STATUS_FILLING:
      return g_strdup (_("Filling"));
    case NSC_STATUS_ERASE_TRIM_FREE:
      return g_strdup (_("Erasing: TRIM of the free part"));
    case NSC_STATUS_ERASE_TRIM_ALL:
      return g_strdup (_("Erasing: TRIM of everything"));
    case NSC_STATUS_ERASE_NVME:
      if (g_str_equal (st->method, "sanitize"))
        return g_strdup (_("Erasing: NVMe Sanitize"));
      return g_strdup (_("Erasing: NVMe Format"));
    case NSC_STATUS_WRITING_COPY_FILE:
      return g_strdup (_("Writing the file to copy"));
    case NSC_STATUS_WRITING_COPY_FOLDER:
      return g_strdup (_("Writing the folder to copy"));
    case NSC_STATUS_PROBE:
      return g_strdup (_("Probing what the drive really stores"));
    default:
      g_return_val_if_reached (g_strdup (""));
    }
}

char *
nsc_status_title (const NscStatus *st)
{
  g_return_val_if_fail (st != NULL, NULL);

  switch (st->kind)
    {
    case NSC_STATUS_FLUSHING_CACHE:
      return g_strdup (_("Writing past the drive's cache"));
    case NSC_STATUS_PRECONDITIONING:
      return g_strdup (_("Preconditioning"));
    case NSC_STATUS_WRITING_READ_DATA:
    case NSC_STATUS_WRITING_STEP_DATA:
      return g_strdup (_("Writing the data to read"));
    case NSC_STATUS_STARTING:
    case NSC_STATUS_PREPARING_FILE:
    case NSC_STATUS_FILLING_STATE:
    case NSC_STATUS_STRICT_TRIM:
    case NSC_STATUS_IDLE_BEFORE:
    case NSC_STATUS_IDLE_BETWEEN:
    case NSC_STATUS_IDLE:
    case NSC_STATUS_TEST:
    case NSC_STATUS_SURFACE_POINT:
    case NSC_STATUS_TRIM:
    case NSC_STATUS_FILLING:
    case NSC_STATUS_ERASE_TRIM_FREE:
    case NSC_STATUS_ERASE_TRIM_ALL:
    case NSC_STATUS_ERASE_NVME:
    case NSC_STATUS_WRITING_COPY_FILE:
    case NSC_STATUS_WRITING_COPY_FOLDER:
    case NSC_STATUS_PROBE:
    default:
      return describe_kind (st);
    }
}

char *
nsc_status_describe (const NscStatus *st)
{
  g_autofree char *what = NULL;
  g_autofree char *bytes = NULL;

  g_return_val_if_fail (st != NULL, NULL);

  what = describe_kind (st);
  /* A surface point's bytes are the point's: the place says how far it is. */
  if (st->kind == NSC_STATUS_SURFACE_POINT || (bytes = nsc_status_describe_bytes (st)) == NULL)
    return g_steal_pointer (&what);
  /* Translators: "Writing the data that the tests read · 1.2 GiB of 2.0 GiB" */
  return g_strdup_printf (_("%s · %s"), what, bytes);
}

const char *
nsc_words_preset_text (const char *text)
{
  /* gettext of "" is the catalogue's header. */
  if (text == NULL || *text == '\0')
    return text;
  return g_dgettext (GETTEXT_PACKAGE, text);
}

const char *
nsc_words_preset_title (const NscPreset *preset)
{
  g_return_val_if_fail (preset != NULL, NULL);

  return nsc_words_preset_text (preset->title);
}

const char *
nsc_words_preset_description (const NscPreset *preset)
{
  g_return_val_if_fail (preset != NULL, NULL);

  return nsc_words_preset_text (preset->description);
}

static guint64
capacity_bytes (JsonObject *o,
                const char *name)
{
  double v = nsc_json_get_number (o, name, 0);

  return v > 0 ? (guint64) v : 0;
}

/* The quick probe's verdict in one sentence. */
static char *
probe_verdict (JsonObject *capacity,
               const char *verdict)
{
  g_autofree char *reported = nsc_words_size (capacity_bytes (capacity, "reported_bytes"));
  g_autofree char *usable = nsc_words_size (capacity_bytes (capacity, "usable_bytes"));
  g_autofree char *first = nsc_words_size (capacity_bytes (capacity, "first_bad_offset"));
  guint places = (guint) capacity_bytes (capacity, "places");

  if (g_str_equal (verdict, "probe-passed"))
    /* Translators: the quick probe found nothing wrong; %u places */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "The %u place the probe wrote across the drive kept its "
                                         "data: good as far as a quick probe can tell",
                                         "The %u places the probe wrote across the drive kept their "
                                         "data: good as far as a quick probe can tell", places),
                            places);
  if (g_str_equal (verdict, "wraps"))
    /* Translators: a fake drive found by the quick probe; the size it stores, then the
     * size it reports */
    return g_strdup_printf (_("This drive stores %s, not the %s it reports: writes past that land "
                              "on earlier blocks and destroy them"), usable, reported);
  if (g_str_equal (verdict, "loses-writes"))
    return g_strdup_printf (_("This drive stores %s, not the %s it reports: what is written past "
                              "that is lost"), usable, reported);
  if (g_str_equal (verdict, "damaged"))
    /* Translators: the quick probe; where the first place that lost its data is */
    return g_strdup_printf (_("Places the probe wrote lost their data between places that kept it, "
                              "the first at %s: the drive is damaged, or a fake a probe cannot "
                              "measure"), first);
  return g_strdup (_("Not verified: the probe ended before it could tell"));
}

/* What the quick probe saw and what it cannot prove, with the full check's cost. */
static char *
probe_details (JsonObject *capacity)
{
  const char *verdict = json_object_get_string_member_with_default (capacity, "verdict", "");
  GString *s = g_string_new (NULL);
  guint64 reported = capacity_bytes (capacity, "reported_bytes");
  guint64 usable = capacity_bytes (capacity, "usable_bytes");
  guint64 cache = capacity_bytes (capacity, "cache_bytes");
  g_autofree char *written = nsc_words_size (capacity_bytes (capacity, "bytes_written"));
  double bps = nsc_json_get_number (capacity, "write_bps", 0);

  if (g_str_equal (verdict, "wraps") || g_str_equal (verdict, "loses-writes"))
    {
      g_autofree char *exact = g_strdup_printf ("%" G_GUINT64_FORMAT, usable);

      /* Translators: the quick probe's exact size: a count of bytes */
      g_string_append_printf (s, _("Usable: %s bytes, to the 4 KiB block. "), exact);
    }
  if (cache > 0)
    {
      g_autofree char *c = nsc_words_size (cache);

      /* Translators: the quick probe found the drive's own cache of recent writes */
      g_string_append_printf (s, _("The drive returned up to its last %s of writes from a cache of "
                                   "its own: the probe wrote past it before it read. "), c);
    }
  else if (json_object_get_boolean_member_with_default (capacity, "cache_beyond", FALSE))
    {
      g_autofree char *c = nsc_words_size (capacity_bytes (capacity, "cache_max"));

      g_string_append_printf (s, _("The drive's end still held its data after %s more was written: "
                                   "it stores its end, or a cache of its own is larger than that. "), c);
    }
  if (capacity_bytes (capacity, "bytes_written") > 0)
    /* Translators: what the quick probe wrote */
    g_string_append_printf (s, _("The probe wrote %s. "), written);
  if (g_str_equal (verdict, "probe-passed") || g_str_equal (verdict, "not-verified"))
    {
      guint64 check_writes = reported + MIN (reported / 4, G_GUINT64_CONSTANT (1) << 30);
      g_autofree char *w = nsc_words_size (check_writes);
      g_autofree char *r = nsc_words_size (reported);

      if (g_str_equal (verdict, "probe-passed"))
        g_string_append (s, _("A probe cannot prove a drive good: a fake that maps its flash as it "
                              "is written keeps every block a probe writes and loses data only once "
                              "more than it really stores has been written. "));
      /* Translators: the full check offered after the quick probe: what it writes and reads */
      g_string_append_printf (s, _("The capacity check settles it: it writes %s and reads %s back"),
                              w, r);
      if (bps > 0)
        {
          g_autofree char *t = nsc_words_duration (check_writes / bps);

          /* Translators: after the capacity check's bytes: its writes' time at the speed
           * the probe measured, "about 20 minutes" */
          g_string_append_printf (s, _(", its writes alone %s or more at the speed the probe wrote"), t);
        }
    }
  /* The caller ends the last sentence. */
  while (s->len && (s->str[s->len - 1] == ' ' || s->str[s->len - 1] == '.'))
    g_string_truncate (s, s->len - 1);
  return g_string_free (s, s->len == 0);
}

char *
nsc_words_capacity (JsonObject  *capacity,
                    char       **details)
{
  const char *verdict = json_object_get_string_member_with_default (capacity, "verdict", "");
  g_autofree char *reported = nsc_words_size (capacity_bytes (capacity, "reported_bytes"));
  g_autofree char *checked = nsc_words_size (capacity_bytes (capacity, "checked_bytes"));
  g_autofree char *usable = nsc_words_size (capacity_bytes (capacity, "usable_bytes"));
  g_autofree char *bad = nsc_words_size (capacity_bytes (capacity, "bad_bytes"));
  g_autofree char *first = nsc_words_size (capacity_bytes (capacity, "first_bad_offset"));
  gboolean any_bad = capacity_bytes (capacity, "bad_bytes") > 0;

  if (details)
    {
      GString *s = g_string_new (NULL);
      const char *members[] = { "zeros_bytes", "alias_bytes", "stale_bytes", "corrupt_bytes",
                                "other_bytes", "unreadable_bytes" };

      for (guint k = 0; k < G_N_ELEMENTS (members); k++)
        {
          guint64 n = capacity_bytes (capacity, members[k]);
          g_autofree char *size = NULL;

          if (n == 0)
            continue;
          size = nsc_words_size (n);
          if (s->len)
            g_string_append (s, " · ");
          /* Translators: what blocks that did not read back held, each with its size */
          switch (k)
            {
            case 0: g_string_append_printf (s, _("zeros (lost writes) %s"), size); break;
            case 1: g_string_append_printf (s, _("other places' data %s"), size); break;
            case 2: g_string_append_printf (s, _("data older than this check %s"), size); break;
            case 3: g_string_append_printf (s, _("damaged %s"), size); break;
            case 4: g_string_append_printf (s, _("other data %s"), size); break;
            default: g_string_append_printf (s, _("unreadable %s"), size); break;
            }
        }
      if (s->len)
        {
          /* Translators: the blocks that did not read back, by what they held */
          g_autofree char *held = g_strdup_printf (_("Blocks that did not read back as written: %s"),
                                                   s->str);

          g_string_assign (s, held);
        }
      /* Slow blocks: read, but only after many times the usual time. */
      if (capacity_bytes (capacity, "slow_bytes") > 0)
        {
          g_autofree char *slow = nsc_words_size (capacity_bytes (capacity, "slow_bytes"));
          g_autofree char *at = nsc_words_size (capacity_bytes (capacity, "first_slow_offset"));
          g_autofree char *limit = nsc_words_duration (capacity_bytes (capacity, "slow_threshold_ns") / 1e9);
          g_autofree char *usual = nsc_words_duration (capacity_bytes (capacity, "read_median_ns") / 1e9);
          g_autofree char *worst = nsc_words_duration (capacity_bytes (capacity, "slowest_read_ns") / 1e9);
          g_autofree char *worst_at = nsc_words_size (capacity_bytes (capacity, "slowest_offset"));

          if (s->len)
            g_string_append (s, ". ");
          /* Translators: slow blocks of a capacity check: the size read slowly, each
           * read's limit, the usual read's time, where the first was, the slowest's time
           * and place: "3 MiB read slowly (over 50 ms each, against 4 ms usually), the
           * first at 12 GiB; the slowest took 1 second, at 40 GiB" */
          g_string_append_printf (s, _("%s read slowly (over %s each, against %s usually), the "
                                       "first at %s; the slowest took %s, at %s"),
                                  slow, limit, usual, at, worst, worst_at);
        }
      *details = s->len ? g_strdup (s->str) : NULL;
      g_string_free (s, TRUE);
    }

  if (g_strcmp0 (json_object_get_string_member_with_default (capacity, "coverage", "whole"),
                 "probe") == 0)
    {
      if (details)
        {
          g_free (*details);
          *details = probe_details (capacity);
        }
      return probe_verdict (capacity, verdict);
    }
  if (g_str_equal (verdict, "not-verified") && capacity_bytes (capacity, "checked_bytes") == 0)
    /* Translators: a capacity check, or a write test with --verify, ended while it wrote */
    return g_strdup (_("Not verified: the run ended before it read back anything it wrote"));
  if (g_strcmp0 (json_object_get_string_member_with_default (capacity, "coverage", "whole"),
                 "places") == 0)
    {
      guint places = (guint) capacity_bytes (capacity, "places");

      if (g_str_equal (verdict, "sample-verified"))
        /* Translators: a surface scan's writes read back; %u places, %s the size they
         * hold, then the drive's size */
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "The %u place written across the drive (%s of %s) "
                                             "read back as written: a sample, not every block "
                                             "(the capacity check reads them all)",
                                             "The %u places written across the drive (%s of %s) "
                                             "read back as written: a sample, not every block "
                                             "(the capacity check reads them all)", places),
                                places, checked, reported);
      if (g_str_equal (verdict, "wraps"))
        /* Translators: a fake drive found by a sample; the most it can store, then the
         * size it reports */
        return g_strdup_printf (_("This drive stores at most about %s, not the %s it reports: "
                                  "writes at places past that landed on earlier places"),
                                usable, reported);
      if (g_str_equal (verdict, "loses-writes"))
        /* Translators: a fake drive found by a sample; the most it can store, then the
         * size it reports */
        return g_strdup_printf (_("This drive stores at most about %s, not the %s it reports: "
                                  "what was written at places past that is lost"),
                                usable, reported);
      if (g_str_equal (verdict, "damaged"))
        /* Translators: the bad part, the part checked at places, where the first bad
         * block is */
        return g_strdup_printf (_("%s of the %s checked at places across the drive did not "
                                  "read back as written, the first at %s"), bad, checked, first);
      /* Translators: a sample of places stopped before its end; what it checked */
      return g_strdup_printf (_("Not verified: the places written were not all read back "
                                "(%s checked, %s of it not as written)"), checked, bad);
    }
  if (g_str_equal (verdict, "verified"))
    /* Translators: the capacity check's verdict on an honest drive; %s: its size */
    return g_strdup_printf (_("All %s read back as written: every block was checked"), checked);
  if (g_str_equal (verdict, "wraps"))
    /* Translators: a fake drive; the size it stores, then the size it reports */
    return g_strdup_printf (_("This drive stores about %s, not the %s it reports: writes past "
                              "that land on earlier blocks and destroy them"), usable, reported);
  if (g_str_equal (verdict, "loses-writes"))
    return g_strdup_printf (_("This drive stores about %s, not the %s it reports: what is written "
                              "past that is lost"), usable, reported);
  if (g_str_equal (verdict, "damaged"))
    /* Translators: the bad part, the part checked, where the first bad block is */
    return g_strdup_printf (_("%s of the %s checked did not read back as written, the first "
                              "at %s"), bad, checked, first);
  if (any_bad)
    return g_strdup_printf (_("Not verified: the check stopped after %s of %s, and %s of that did "
                              "not read back as written, the first at %s"), checked, reported, bad,
                            first);
  return g_strdup_printf (_("Not verified: the check stopped after %s of %s; all of that read "
                            "back as written"), checked, reported);
}

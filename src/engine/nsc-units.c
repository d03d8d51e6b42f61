/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "nsc-error.h"
#include "nsc-units.h"

static const char *
skip_space (const char *p)
{
  while (*p == ' ' || *p == '\t')
    p++;
  return p;
}

/* Parses the leading decimal number; refuses signs, hex, inf and nan. */
static gboolean
parse_number (const char  *text,
              double      *out,
              const char **end)
{
  const char *p = skip_space (text);
  const char *start = p;
  char *e = NULL;

  if (!g_ascii_isdigit (*p) && *p != '.')
    return FALSE;
  while (g_ascii_isdigit (*p) || *p == '.')
    p++;
  *out = g_ascii_strtod (start, &e);
  if (e != p || !isfinite (*out))
    return FALSE;
  *end = p;
  return TRUE;
}

gboolean
nsc_parse_size (const char  *text,
                guint64     *out_bytes,
                GError     **error)
{
  static const struct { const char *suffix; double mult; } suffixes[] = {
    { "", 1 }, { "b", 1 },
    { "k", 1024.0 }, { "kib", 1024.0 }, { "kb", 1e3 },
    { "m", 1048576.0 }, { "mib", 1048576.0 }, { "mb", 1e6 },
    { "g", 1073741824.0 }, { "gib", 1073741824.0 }, { "gb", 1e9 },
    { "t", 1099511627776.0 }, { "tib", 1099511627776.0 }, { "tb", 1e12 },
  };
  const char *rest = NULL;
  g_autofree char *suffix = NULL;
  double value;

  g_return_val_if_fail (out_bytes != NULL, FALSE);

  if (text == NULL || !parse_number (text, &value, &rest))
    goto invalid;

  suffix = g_ascii_strdown (skip_space (rest), -1);
  g_strchomp (suffix);

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      if (strcmp (suffix, suffixes[i].suffix) == 0)
        {
          double bytes = value * suffixes[i].mult;

          if (bytes >= 18446744073709551615.0)
            {
              nsc_error_set (error, NSC_PROBLEM_SIZE_TOO_LARGE, &(NscErrorFields) { .text = text });
              return FALSE;
            }
          if (bytes != floor (bytes))
            {
              nsc_error_set (error, NSC_PROBLEM_SIZE_NOT_WHOLE, &(NscErrorFields) { .text = text });
              return FALSE;
            }
          *out_bytes = (guint64) bytes;
          return TRUE;
        }
    }

invalid:
  nsc_error_set (error, NSC_PROBLEM_SIZE_INVALID, &(NscErrorFields) { .text = text ? text : "" });
  return FALSE;
}

gboolean
nsc_parse_duration (const char  *text,
                    gint64      *out_ns,
                    GError     **error)
{
  const char *p = text;
  double total = 0;
  gboolean any = FALSE;

  g_return_val_if_fail (out_ns != NULL, FALSE);

  if (text == NULL)
    goto invalid;

  p = skip_space (p);
  while (*p != '\0')
    {
      const char *rest = NULL;
      double value, mult;

      if (!parse_number (p, &value, &rest))
        goto invalid;
      p = skip_space (rest);

      if (g_str_has_prefix (p, "ms"))
        mult = 1e-3, p += 2;
      else if (g_str_has_prefix (p, "us"))
        mult = 1e-6, p += 2;
      else if (g_str_has_prefix (p, "µs"))
        mult = 1e-6, p += strlen ("µs");
      else if (g_str_has_prefix (p, "min"))
        mult = 60, p += 3;
      else if (*p == 's')
        mult = 1, p++;
      else if (*p == 'm')
        mult = 60, p++;
      else if (*p == 'h')
        mult = 3600, p++;
      else if (*p == '\0' && !any)
        mult = 1;
      else
        goto invalid;

      total += value * mult;
      any = TRUE;
      p = skip_space (p);
    }

  if (!any)
    goto invalid;
  if (total * 1e9 > (double) G_MAXINT64 / 2)
    {
      nsc_error_set (error, NSC_PROBLEM_DURATION_TOO_LONG, &(NscErrorFields) { .text = text });
      return FALSE;
    }

  *out_ns = (gint64) llround (total * 1e9);
  return TRUE;

invalid:
  nsc_error_set (error, NSC_PROBLEM_DURATION_INVALID, &(NscErrorFields) { .text = text ? text : "" });
  return FALSE;
}

char *
nsc_format_size (guint64 bytes)
{
  static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
  double v = bytes;
  guint u = 0;

  while (v >= 1024 && u + 1 < G_N_ELEMENTS (units))
    v /= 1024, u++;

  if (u == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " B", bytes);
  if (v == floor (v))
    return g_strdup_printf ("%.0f %s", v, units[u]);
  return g_strdup_printf ("%.2f %s", v, units[u]);
}

char *
nsc_format_size_short (guint64 bytes)
{
  if (bytes >= 1048576 && bytes % 1048576 == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "M", bytes / 1048576);
  if (bytes >= 1024 && bytes % 1024 == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "K", bytes / 1024);
  return g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
}

char *
nsc_format_duration (gint64 ns)
{
  gint64 s = ns / G_GINT64_CONSTANT (1000000000);

  if (ns < 1000000000)
    return g_strdup_printf ("%.0f ms", ns / 1e6);
  if (s < 60)
    return g_strdup_printf ("%.1f s", ns / 1e9);
  if (s < 3600)
    return g_strdup_printf ("%d min %02d s", (int) (s / 60), (int) (s % 60));
  return g_strdup_printf ("%d h %02d min", (int) (s / 3600), (int) ((s / 60) % 60));
}

char *
nsc_format_significant (double v)
{
  double a = fabs (v);

  if (a >= 100 || a == 0)
    return g_strdup_printf ("%.0f", v);
  if (a >= 10)
    return g_strdup_printf ("%.1f", v);
  return g_strdup_printf ("%.2f", v);
}

char *
nsc_format_rounded (double v)
{
  return g_strdup_printf (v < 9.95 ? "%.1f" : "%.0f", v);
}

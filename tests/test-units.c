/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "nsc-engine.h"

static void
test_sizes (void)
{
  static const struct { const char *text; guint64 bytes; } good[] = {
    { "512", 512 }, { "4k", 4096 }, { "4K", 4096 }, { "4KiB", 4096 }, { "4 KiB", 4096 },
    { "128k", 131072 }, { "1m", 1048576 }, { "1M", 1048576 }, { "1.5g", 1610612736 },
    { "2g", G_GUINT64_CONSTANT (2147483648) }, { "1t", G_GUINT64_CONSTANT (1099511627776) },
    { "1kB", 1000 }, { "1MB", 1000000 }, { "100GB", G_GUINT64_CONSTANT (100000000000) },
    { "0", 0 }, { "64m", 67108864 },
  };
  static const char *bad[] = {
    "", "k", "-4k", "4x", "4kk", "1.5", "0x10", "inf", "nan", "4 k k", "1e3", "99999999999t",
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      guint64 v = 1;

      g_assert_true (nsc_parse_size (good[i].text, &v, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (v, ==, good[i].bytes);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      guint64 v = 7;

      g_assert_false (nsc_parse_size (bad[i], &v, &error));
      g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
      g_assert_true (nsc_error_get_problem (error) == NSC_PROBLEM_SIZE_INVALID
                     || nsc_error_get_problem (error) == NSC_PROBLEM_SIZE_TOO_LARGE
                     || nsc_error_get_problem (error) == NSC_PROBLEM_SIZE_NOT_WHOLE);
      g_assert_cmpuint (v, ==, 7);
    }
}

static void
test_durations (void)
{
  static const struct { const char *text; gint64 ns; } good[] = {
    { "5s", G_GINT64_CONSTANT (5000000000) }, { "5", G_GINT64_CONSTANT (5000000000) },
    { "250ms", 250000000 }, { "2m", G_GINT64_CONSTANT (120000000000) },
    { "1h30m", G_GINT64_CONSTANT (5400000000000) }, { "1.5s", 1500000000 },
    { "100us", 100000 }, { "2min", G_GINT64_CONSTANT (120000000000) }, { "40 s", G_GINT64_CONSTANT (40000000000) },
  };
  static const char *bad[] = { "", "s", "-5s", "5x", "5 parsecs", "1h30", "ms5", "5s5" };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      gint64 v = 0;

      g_assert_true (nsc_parse_duration (good[i].text, &v, &error));
      g_assert_no_error (error);
      g_assert_cmpint (v, ==, good[i].ns);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      gint64 v = 3;

      g_assert_false (nsc_parse_duration (bad[i], &v, &error));
      g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
      g_assert_cmpint (v, ==, 3);
    }
}

static void
test_formatting (void)
{
  g_autofree char *a = nsc_format_size (4096);
  g_autofree char *b = nsc_format_size (1536 * 1024 * 1024ull);
  g_autofree char *c = nsc_format_size (100);
  g_autofree char *d = nsc_format_size_short (1 << 20);
  g_autofree char *e = nsc_format_size_short (4096);
  g_autofree char *f = nsc_format_size_short (512);

  g_assert_cmpstr (a, ==, "4 KiB");
  g_assert_cmpstr (b, ==, "1.50 GiB");
  g_assert_cmpstr (c, ==, "100 B");
  g_assert_cmpstr (d, ==, "1M");
  g_assert_cmpstr (e, ==, "4K");
  g_assert_cmpstr (f, ==, "512");
}

/* Numbers as sentences write them (the result's summary): one decimal below 10. */
static void
test_rounded (void)
{
  g_autofree char *a = nsc_format_rounded (1.94);
  g_autofree char *b = nsc_format_rounded (9.96);
  g_autofree char *c = nsc_format_rounded (35.14);
  g_autofree char *d = nsc_format_rounded (2956.4);

  g_assert_cmpstr (a, ==, "1.9");
  g_assert_cmpstr (b, ==, "10");
  g_assert_cmpstr (c, ==, "35");
  g_assert_cmpstr (d, ==, "2956");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/units/sizes", test_sizes);
  g_test_add_func ("/nsc/units/durations", test_durations);
  g_test_add_func ("/nsc/units/formatting", test_formatting);
  g_test_add_func ("/nsc/units/rounded", test_rounded);
  return g_test_run ();
}

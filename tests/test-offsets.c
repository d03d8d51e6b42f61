/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "nsc-engine.h"

static void
check_pass (NscPattern pattern,
            guint64    start,
            guint64    length,
            guint64    bs,
            guint64    seed)
{
  g_autoptr(GError) error = NULL;
  NscOffsetGen gen;
  guint64 n;
  g_autofree guint8 *seen = NULL;

  g_assert_true (nsc_offset_gen_init (&gen, pattern, start, length, bs, seed, &error));
  g_assert_no_error (error);
  n = length / bs;
  g_assert_cmpuint (gen.n_blocks, ==, n);
  seen = g_new0 (guint8, n);

  /* Two passes: each covers every block exactly once. */
  for (guint pass = 0; pass < 2; pass++)
    {
      memset (seen, 0, n);
      for (guint64 t = pass * n; t < (pass + 1) * n; t++)
        {
          guint64 off = nsc_offset_gen_at (&gen, t);

          g_assert_cmpuint (off % bs, ==, start % bs);
          g_assert_cmpuint (off, >=, start);
          g_assert_cmpuint (off + bs, <=, start + length);
          g_assert_cmpuint (seen[(off - start) / bs], ==, 0);
          seen[(off - start) / bs] = 1;
        }
    }
}

static void
test_coverage (void)
{
  static const guint64 counts[] = { 1, 2, 3, 7, 64, 100, 1000, 4097, 65536, 100003 };

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      check_pass (NSC_PATTERN_RANDOM, 1 << 20, counts[i] * 4096, 4096, 99 + i);
      check_pass (NSC_PATTERN_SEQUENTIAL, 0, counts[i] * 512, 512, 1);
    }
  /* A region that is not a whole number of blocks: the tail is never touched. */
  check_pass (NSC_PATTERN_RANDOM, 0, 10 * 4096 + 100, 4096, 3);
}

static void
test_sequential_order (void)
{
  NscOffsetGen gen;

  g_assert_true (nsc_offset_gen_init (&gen, NSC_PATTERN_SEQUENTIAL, 8192, 4 * 4096, 4096, 0, NULL));
  for (guint64 t = 0; t < 12; t++)
    g_assert_cmpuint (nsc_offset_gen_at (&gen, t), ==, 8192 + (t % 4) * 4096);
}

/* Random order must actually be shuffled, and differ between passes and seeds. */
static void
test_randomness (void)
{
  NscOffsetGen a, b;
  const guint64 n = 10000;
  guint in_order = 0, same_as_next_pass = 0, same_as_other_seed = 0;
  double mean_jump = 0;

  g_assert_true (nsc_offset_gen_init (&a, NSC_PATTERN_RANDOM, 0, n * 4096, 4096, 1, NULL));
  g_assert_true (nsc_offset_gen_init (&b, NSC_PATTERN_RANDOM, 0, n * 4096, 4096, 2, NULL));
  for (guint64 t = 0; t + 1 < n; t++)
    {
      guint64 x = nsc_offset_gen_block (&a, t), y = nsc_offset_gen_block (&a, t + 1);

      in_order += y == x + 1;
      same_as_next_pass += x == nsc_offset_gen_block (&a, t + n);
      same_as_other_seed += x == nsc_offset_gen_block (&b, t);
      mean_jump += (double) (x > y ? x - y : y - x) / (n - 1);
    }
  g_assert_cmpuint (in_order, <, n / 100);
  g_assert_cmpuint (same_as_next_pass, <, n / 100);
  g_assert_cmpuint (same_as_other_seed, <, n / 100);
  /* Uniform random pairs are n/3 apart on average. */
  g_assert_cmpfloat (mean_jump, >, n / 4.0);
  g_assert_cmpfloat (mean_jump, <, n / 2.5);
}

static void
test_invalid (void)
{
  g_autoptr(GError) error = NULL;
  NscOffsetGen gen;

  g_assert_false (nsc_offset_gen_init (&gen, NSC_PATTERN_RANDOM, 0, 1000, 4096, 0, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_cmpint (nsc_error_get_problem (error), ==, NSC_PROBLEM_REGION_BELOW_BLOCK);
  g_assert_cmpuint (nsc_error_get_fields (error)->bytes, ==, 1000);
  g_assert_cmpuint (nsc_error_get_fields (error)->bytes2, ==, 4096);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/offsets/coverage", test_coverage);
  g_test_add_func ("/nsc/offsets/sequential-order", test_sequential_order);
  g_test_add_func ("/nsc/offsets/randomness", test_randomness);
  g_test_add_func ("/nsc/offsets/invalid", test_invalid);
  return g_test_run ();
}

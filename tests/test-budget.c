/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "nsc-engine.h"
#include "nsc-words.h"
#include "nsc-words-problem.h"

#define MIB (G_GUINT64_CONSTANT (1) << 20)
#define GIB (G_GUINT64_CONSTANT (1) << 30)
#define S   G_GINT64_CONSTANT (1000000000)

/* Feeds samples of 0.5 s at @fast_bps until @drop_at bytes, then @slow_bps, into a
 * state, up to @limit bytes. Returns the bytes written when it said stop (0: never). */
static guint64
feed_curve (NscStopState *st,
            double        fast_bps,
            double        slow_bps,
            guint64       drop_at,
            guint64       limit)
{
  NscSample s = { 0 };
  guint64 pos = 0;
  gint64 t = 0;

  while (pos < limit)
    {
      double bps = pos < drop_at ? fast_bps : slow_bps;
      guint64 b = (guint64) (bps / 2);

      /* A sample that crosses the drop ends at it, as the sampler's byte trigger does. */
      if (pos < drop_at && pos + b > drop_at)
        b = drop_at - pos;
      s.duration_ns = (gint64) (b / bps * S);
      t += s.duration_ns;
      pos += b;
      s.t_ns = t;
      s.bytes[1] = b;
      s.position = pos;
      if (nsc_stop_state_feed (st, &s))
        return pos;
    }
  return 0;
}

static void
test_stop_drop_held (void)
{
  NscStopRule rule;
  NscStopState st;
  guint64 stopped;

  nsc_stop_rule_init (&rule);
  rule.enabled = TRUE;
  nsc_stop_state_init (&st, &rule, 0);
  /* 1 GiB/s, dropping to 200 MiB/s at 2 GiB. */
  stopped = feed_curve (&st, 1024.0 * MIB, 200.0 * MIB, 2 * GIB, 64 * GIB);
  g_assert_true (st.held);
  g_assert_cmpuint (st.drop_position, ==, 2 * GIB);
  g_assert_cmpfloat_with_epsilon (st.reference_bps, 1024.0 * MIB, 1.0);
  /* Held after 8 samples below (4 s, 800 MiB), which is more than the 256 MiB and 3 s
   * past the drop: at the eighth slow sample, not one later. */
  g_assert_cmpuint (stopped - 2 * GIB, ==, 8 * 100 * MIB);
}

static void
test_stop_dip_is_not_a_drop (void)
{
  NscStopRule rule;
  NscStopState st;
  NscSample s = { 0 };
  guint64 pos = 0;

  nsc_stop_rule_init (&rule);
  rule.enabled = TRUE;
  nsc_stop_state_init (&st, &rule, 0);
  /* Fast, with a dip of 5 slow samples every 20: never held. */
  for (guint i = 0; i < 400; i++)
    {
      double bps = (i % 20) >= 15 ? 100.0 * MIB : 1000.0 * MIB;
      s.duration_ns = S / 2;
      s.bytes[1] = (guint64) (bps / 2);
      pos += s.bytes[1];
      s.position = pos;
      s.t_ns = (i + 1) * S / 2;
      g_assert_false (nsc_stop_state_feed (&st, &s));
    }
  g_assert_false (st.held);
}

static void
test_stop_never_drops (void)
{
  NscStopRule rule;
  NscStopState st;

  nsc_stop_rule_init (&rule);
  rule.enabled = TRUE;
  nsc_stop_state_init (&st, &rule, 0);
  g_assert_cmpuint (feed_curve (&st, 500.0 * MIB, 500.0 * MIB, 0, 16 * GIB), ==, 0);
  g_assert_false (st.dropped);
}

static void
test_stop_reference_from_fill (void)
{
  NscStopRule rule;
  NscStopState st;

  /* Nothing recovered: slow from the start, measured against the fill's cache speed. */
  nsc_stop_rule_init (&rule);
  rule.enabled = TRUE;
  nsc_stop_state_init (&st, &rule, 1000.0 * MIB);
  g_assert_cmpuint (feed_curve (&st, 150.0 * MIB, 150.0 * MIB, 0, 16 * GIB), >, 0);
  g_assert_cmpuint (st.drop_position, ==, 0);
  /* The same step with its own early level as the reference would never stop. */
  nsc_stop_state_init (&st, &rule, 0);
  g_assert_cmpuint (feed_curve (&st, 150.0 * MIB, 150.0 * MIB, 0, 16 * GIB), ==, 0);
}

/* One sample of half a second at @bps, the @i-th of a step, into @st. */
static void
feed_one (NscStopState *st,
          guint         i,
          double        bps,
          guint64      *pos)
{
  NscSample s = { 0 };

  s.duration_ns = S / 2;
  s.bytes[1] = (guint64) (bps / 2);
  *pos += s.bytes[1];
  s.position = *pos;
  s.t_ns = (i + 1) * S / 2;
  nsc_stop_state_feed (st, &s);
}

/* A drive's slow speed is noisy (garbage collection, the host): samples drawn about a
 * slow level below the line, some of them above it, never halfway back to the
 * cache's speed. Each step, with its cache and speeds drawn at random, holds its
 * drop where the speed fell, not after the last sample that crossed the line. */
static void
test_stop_noise_about_line (void)
{
  const double ref = 1000.0 * MIB;
  guint shifted = 0, trials = 400;

  for (guint k = 0; k < trials; k++)
    {
      NscStopRule rule;
      NscStopState st;
      double fast = g_test_rand_double_range (0.9, 1.1) * ref;
      double slow = g_test_rand_double_range (0.45, 0.6) * ref;
      guint drop_at = (guint) g_test_rand_int_range (0, 24);   /* samples of cache */
      guint64 pos = 0, true_drop = 0;
      guint i;

      nsc_stop_rule_init (&rule);
      rule.enabled = TRUE;
      nsc_stop_state_init (&st, &rule, ref);
      for (i = 0; i < 200 && !st.held; i++)
        {
          /* ±8 % about the cache's speed, ±25 % about the slow one: up to
           * 0.6 × 1.25 = 0.75 of the reference, above the line (0.7) but below
           * halfway back (0.85). */
          double bps = i < drop_at ? fast * g_test_rand_double_range (0.92, 1.08)
                                   : slow * g_test_rand_double_range (0.75, 1.25);

          if (i == drop_at)
            true_drop = pos;
          feed_one (&st, i, bps, &pos);
        }
      g_assert_true (st.held);
      g_assert_cmpuint (st.drop_position, >=, true_drop);
      /* The first slow sample may sit above the line; the drop then begins at the
       * next. More than that is a reset the noise caused. */
      if (st.drop_position > true_drop + (guint64) (1.25 * slow / 2))
        shifted++;
      /* Held its margin past where it began, and not long after. */
      g_assert_cmpuint (pos - st.drop_position, >=, rule.hold_bytes);
      g_assert_cmpuint (i - drop_at, <=, 20);
    }
  /* With these speeds, a rule where any sample above the line resets the drop begins
   * it more than a sample late in about 1 step of 8, and never holds in some; this
   * one in under 1 of 100 (a simulation of 20000 steps: 0.7 %). */
  g_test_message ("%u of %u drops begun more than a sample late", shifted, trials);
  g_assert_cmpuint (shifted, <=, trials / 25);
}

/* After a one-sample dip, the cache's speed at 0.8 of the reference (above the line,
 * below halfway back) is not a drop: the dip is forgotten and the drop is where the
 * cache really ended. */
static void
test_stop_dip_then_slower_cache (void)
{
  NscStopRule rule;
  NscStopState st;
  guint64 pos = 0, true_drop = 0;

  nsc_stop_rule_init (&rule);
  rule.enabled = TRUE;
  nsc_stop_state_init (&st, &rule, 1000.0 * MIB);
  for (guint i = 0; i < 60 && !st.held; i++)
    {
      double bps = (i < 5 ? 1000.0 : i == 5 ? 300.0 : i < 20 ? 800.0 : 500.0) * MIB;

      if (i == 20)
        true_drop = pos;
      feed_one (&st, i, bps, &pos);
    }
  g_assert_true (st.held);
  g_assert_cmpuint (st.drop_position, ==, true_drop);
}

static void
test_stop_cap (void)
{
  NscStopRule rule;

  nsc_stop_rule_init (&rule);
  g_assert_cmpuint (nsc_stop_rule_cap (&rule, 0, 100 * GIB), ==, 100 * GIB);  /* no rule */
  rule.enabled = TRUE;
  /* 1.25 × a 4 GiB cache + 1 GiB. */
  g_assert_cmpuint (nsc_stop_rule_cap (&rule, 4 * GIB, 100 * GIB), ==, 6 * GIB);
  /* Never more than the step's own bound. */
  g_assert_cmpuint (nsc_stop_rule_cap (&rule, 40 * GIB, 3 * GIB), ==, 3 * GIB);
  /* No cache measured: half the region. */
  g_assert_cmpuint (nsc_stop_rule_cap (&rule, G_MAXUINT64, 100 * GIB), ==, 50 * GIB);
  /* A drive without a cache: the margin, room for the hold at least. */
  g_assert_cmpuint (nsc_stop_rule_cap (&rule, 0, 100 * GIB), ==, 1 * GIB);
}

static void
test_stop_parse (void)
{
  static const struct { const char *json; gboolean ok; NscProblem problem; } cases[] = {
    { "{}", TRUE, NSC_PROBLEM_NONE },
    { "{\"stop\": {\"when\": \"drop-held\"}}", TRUE, NSC_PROBLEM_NONE },
    { "{\"stop\": {\"when\": \"drop-held\", \"below\": 0.6, \"samples\": 4, \"past_bytes\": \"1g\","
      " \"past_time\": \"5s\", \"cap_cache_factor\": 2, \"cap_margin\": \"2g\", \"cap_share\": 0.25}}",
      TRUE, NSC_PROBLEM_NONE },
    { "{\"stop\": {\"when\": \"later\"}}", FALSE, NSC_PROBLEM_STOP_WHEN },
    { "{\"stop\": \"drop-held\"}", FALSE, NSC_PROBLEM_STOP_NOT_OBJECT },
    { "{\"stop\": {\"when\": \"drop-held\", \"below\": 1.5}}", FALSE, NSC_PROBLEM_STOP_BELOW },
    { "{\"stop\": {\"when\": \"drop-held\", \"past_bytes\": \"lots\"}}", FALSE, NSC_PROBLEM_SIZE_INVALID },
    { "{\"stop\": {\"when\": \"drop-held\", \"cap_cache_factor\": 0.5}}", FALSE, NSC_PROBLEM_STOP_CAP_FACTOR },
    { "{\"stop\": {\"when\": \"drop-held\", \"early_samples\": 17}}", FALSE, NSC_PROBLEM_STOP_COUNT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = json_from_string (cases[i].json, NULL);
      g_autoptr(GError) error = NULL;
      NscStopRule rule;
      gboolean ok = nsc_stop_rule_parse (json_node_get_object (node), &rule, &error);

      g_assert_cmpint (ok, ==, cases[i].ok);
      g_assert_cmpstr (nsc_problem_name (nsc_error_get_problem (error)), ==,
                       nsc_problem_name (cases[i].problem));
      if (cases[i].problem == NSC_PROBLEM_STOP_COUNT)
        {
          /* The words say the rule and the member's range. */
          g_autofree char *said = nsc_words_problem (cases[i].problem, nsc_error_get_fields (error));
          g_assert_cmpstr (said, ==, "“stop”: “early_samples” must be a whole number from 1 to 16");
        }
    }
  {
    g_autoptr(JsonNode) node = json_from_string (cases[2].json, NULL);
    NscStopRule rule;

    g_assert_true (nsc_stop_rule_parse (json_node_get_object (node), &rule, NULL));
    g_assert_true (rule.enabled);
    g_assert_cmpfloat (rule.drop_share, ==, 0.6);
    g_assert_cmpuint (rule.hold_samples, ==, 4);
    g_assert_cmpuint (rule.hold_bytes, ==, GIB);
    g_assert_cmpint (rule.hold_ns, ==, 5 * S);
    g_assert_cmpuint (nsc_stop_rule_cap (&rule, GIB, 100 * GIB), ==, 4 * GIB);
  }
}

/* The presets whose purpose is to find a drop carry a rule; the budget on a 3 GiB
 * drive is bounded by the drive, not by a fixed 32 GiB a step. */
static void
test_budget_presets (void)
{
  NscBudgetTarget t = { .is_device = TRUE, .capacity = 3 * GIB };
  static const struct { const char *name; guint early; guint64 total; } cases[] = {
    { "cache-recovery", 5, 18 * GIB },     /* the fill, then at most the drive 5 times */
    { "write-fill", 0, 3 * GIB },
    { "write-fill-twice", 1, 6 * GIB },
    { "hardcore", 1, 6 * GIB },
    { "quick", 0, 11 * GIB },              /* the settled half, 8 GiB past the cache over the fresh half, the fresh half again; timed writes */
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(NscPreset) p = nsc_preset_lookup (cases[i].name, NULL);
      g_autoptr(GArray) items = NULL;
      guint64 total = 0;
      gboolean timed = FALSE;
      guint early = 0;

      g_assert_nonnull (p);
      items = nsc_write_budget (p, &t, &total, &timed);
      for (guint k = 0; k < items->len; k++)
        early += g_array_index (items, NscBudgetItem, k).stops_early;
      g_test_message ("%s: %" G_GUINT64_FORMAT " bytes, %u early", cases[i].name, total, early);
      g_assert_cmpuint (early, ==, cases[i].early);
      if (cases[i].total)
        g_assert_cmpuint (total, ==, cases[i].total);
    }
}

static void
test_budget_file (void)
{
  g_autoptr(NscPreset) p = nsc_preset_lookup ("quick", NULL);
  NscBudgetTarget t = { .capacity = 100 * GIB, .file_size = GIB };
  g_autoptr(GArray) items = NULL;
  g_autofree char *line = NULL;
  guint64 total = 0;
  gboolean timed = FALSE;

  items = nsc_write_budget (p, &t, &total, &timed);
  g_assert_true (timed);
  /* The test file written whole first, 8 GiB past the cache after the settled
   * control's data, the fresh half again after the pause; the timed writes said as
   * such. */
  g_assert_cmpuint (total, ==, 9 * GIB + GIB / 2);
  g_assert_cmpint (g_array_index (items, NscBudgetItem, 0).step, ==, -1);
  line = nsc_write_budget_describe (p, &t);
  g_assert_nonnull (strstr (line, "9.50 GiB"));
  g_assert_nonnull (strstr (line, "plus writes for"));
}

/* The bytes of Quick's flush item ("written past the cache"), 0 when it has none. */
static guint64
flush_bytes (const char            *preset,
             const NscBudgetTarget *t)
{
  g_autoptr(NscPreset) p = nsc_preset_lookup (preset, NULL);
  g_autoptr(GArray) items = NULL;
  guint64 bytes = 0;

  g_assert_nonnull (p);
  items = nsc_write_budget (p, t, NULL, NULL);
  for (guint k = 0; k < items->len; k++)
    {
      const NscBudgetItem *it = &g_array_index (items, NscBudgetItem, k);

      if (g_str_equal (it->label, "Writing past the SLC cache after the settled data"))
        bytes += it->bytes;
    }
  return bytes;
}

/* Quick's flush is sized as the runner sizes it: an eighth more than the drive's
 * cache from its history, or than what a write-fill earlier in the run wrote (the
 * cache it measures lies inside it), or the 8 GiB default; never past the span. */
static void
test_budget_flush (void)
{
  NscBudgetTarget t = { .is_device = TRUE, .capacity = 512 * GIB };
  guint64 review, fill;

  g_assert_cmpuint (flush_bytes ("quick", &t), ==, 8 * GIB);
  t.cache_bytes = 16 * GIB;
  g_assert_cmpuint (flush_bytes ("quick", &t), ==, 18 * GIB);
  t.span_cap = 4 * GIB;
  g_assert_cmpuint (flush_bytes ("quick", &t), ==, 4 * GIB);
  t.span_cap = 0;
  /* A measured cache is any number of bytes: whole 4 KiB blocks, as the run writes. */
  t.cache_bytes = 304452077;
  g_assert_cmpuint (flush_bytes ("quick", &t), ==, 342511616);
  g_assert_cmpuint (nsc_settled_flush_bytes (304452077, 0, 512, NULL), ==, 342509056);
  g_assert_cmpuint (nsc_settled_flush_bytes (304452077, 300 << 20, 4096, NULL), ==, 300 << 20);
  t.cache_bytes = 0;
  /* The review suite: its write-fill, over the whole drive, comes before Quick. */
  fill = flush_bytes ("write-fill", &t);
  review = flush_bytes ("review", &t);
  g_test_message ("review's flush: %" G_GUINT64_FORMAT " B", review);
  g_assert_cmpuint (fill, ==, 0);
  g_assert_cmpuint (review, >=, 512 * GIB);
}

/* Timed writes are as long as the runner will make them: the option for every step,
 * else the step's own, else the default (strict's 40 s), else the preset's; then the
 * time scale. */
static void
test_budget_times (void)
{
  static const char json[] =
    "{\"name\":\"t\",\"file_size\":\"8m\",\"time\":\"10s\",\"runs\":1,\"prepare\":false,"
    "\"steps\":[{\"rw\":\"write\",\"bs\":\"1m\",\"time\":\"2m\"},{\"rw\":\"write\",\"bs\":\"1m\"}]}";
  g_autoptr(NscPreset) p = nsc_preset_new_from_data (json, sizeof json - 1, NULL);
  struct { gint64 time, def; double scale; gint64 own, other; } cases[] = {
    { 0, 0, 0, 120, 10 },
    { 0, 40, 0, 120, 40 },          /* strict: only the step without a length */
    { 5, 40, 0, 5, 5 },             /* --time: every step */
    { 0, 40, 0.5, 60, 20 },         /* --time-scale on top */
  };

  g_assert_nonnull (p);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      NscBudgetTarget t = { .capacity = 100 * GIB, .file_size = 8 << 20 };
      g_autoptr(GArray) items = NULL;
      gboolean timed = FALSE;

      t.time_ns = cases[i].time * G_GINT64_CONSTANT (1000000000);
      t.default_time_ns = cases[i].def * G_GINT64_CONSTANT (1000000000);
      t.time_scale = cases[i].scale;
      items = nsc_write_budget (p, &t, NULL, &timed);
      g_assert_true (timed);
      g_assert_cmpuint (items->len, ==, 2);
      g_assert_cmpint (g_array_index (items, NscBudgetItem, 0).time_ns, ==,
                       cases[i].own * G_GINT64_CONSTANT (1000000000));
      g_assert_cmpint (g_array_index (items, NscBudgetItem, 1).time_ns, ==,
                       cases[i].other * G_GINT64_CONSTANT (1000000000));
    }
}

/* A target whose direct I/O takes 4 KiB units: the steps the runner skips there (a
 * smaller block, in a step that says to skip it) take no time and write nothing,
 * where the unit is known; a "min" block is the unit. */
static void
test_budget_unit (void)
{
  static const char json[] =
    "{\"name\":\"t\",\"file_size\":\"8m\",\"time\":\"10s\",\"runs\":2,\"prepare\":false,"
    "\"steps\":[{\"rw\":\"randread\",\"bs\":\"512\",\"skip_unaligned\":true},"
    "{\"rw\":\"randwrite\",\"bs\":\"2k\",\"skip_unaligned\":true},"
    "{\"rw\":\"randwrite\",\"bs\":\"4k\",\"skip_unaligned\":true},"
    "{\"rw\":\"randwrite\",\"bs\":\"min\"},{\"rw\":\"randwrite\",\"bs\":\"1k\"}]}";
  g_autoptr(NscPreset) p = nsc_preset_new_from_data (json, sizeof json - 1, NULL);
  NscRunOptions options = NSC_RUN_OPTIONS_INIT;
  struct { guint align; gint64 seconds; guint items; guint64 min_block; } cases[] = {
    { 0, 5 * 20, 4, 4096 },     /* not known: nothing skipped */
    { 512, 5 * 20, 4, 512 },
    { 4096, 3 * 20, 3, 4096 },  /* 512 B and 2 KiB skipped; 1 KiB has no say */
    { 8192, 2 * 20, 2, 8192 },  /* 4 KiB too */
  };

  g_assert_nonnull (p);
  options.idle_ns = G_GINT64_CONSTANT (500000000);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      NscBudgetTarget t = { .capacity = 100 * GIB, .file_size = 8 << 20 };
      g_autoptr(GArray) items = NULL;
      NscTiming timing;
      gint64 idle;

      nsc_timing_init (&timing, p, &options);
      timing.dio_align = cases[i].align;
      /* The idle between tests stays: the runner rests before a step it then skips. */
      idle = nsc_timing_estimate_ns (&timing, p) - cases[i].seconds * G_GINT64_CONSTANT (1000000000);
      g_assert_cmpint (idle, ==, 4 * options.idle_ns);
      g_assert_cmpuint (nsc_step_block_size (&g_array_index (p->steps, NscStep, 3), cases[i].align), ==,
                        cases[i].min_block);
      t.dio_align = cases[i].align;
      items = nsc_write_budget (p, &t, NULL, NULL);
      /* The read step's data, when it runs, and the writes that run. */
      g_assert_cmpuint (items->len, ==, cases[i].items + (cases[i].align <= 512 ? 1 : 0));
      for (guint j = 0; j < items->len; j++)
        g_assert_false (nsc_step_skipped_on (&g_array_index (p->steps, NscStep,
                                                             g_array_index (items, NscBudgetItem, j).step),
                                             cases[i].align));
    }
}

static void
test_wear_lines (void)
{
  g_autofree char *a = NULL, *b = NULL, *amp = NULL;

  a = nsc_wear_describe (3 * GIB, 1000 * GIB, 1000 * GIB + 3 * GIB + 100 * MIB, &amp);
  g_assert_null (amp);
  g_assert_nonnull (strstr (a, "3 GiB by this run"));
  /* Four times what the run wrote, and more than 1 GiB above it: a note. */
  b = nsc_wear_describe (GIB, 0, 4 * GIB, &amp);
  g_assert_nonnull (amp);
  g_assert_nonnull (strstr (amp, "4.0×"));
  g_clear_pointer (&amp, g_free);
  /* Far above in ratio but not in bytes: no note. */
  g_clear_pointer (&b, g_free);
  b = nsc_wear_describe (10 * MIB, 0, 500 * MIB, &amp);
  g_assert_null (amp);
}

/* The one rule for a folder's test file, which the run applies and the plan says
 * before it: room left beside it (2 % of the filesystem, at most 256 MiB). */
static void
test_file_fits (void)
{
  const guint64 MiB = 1 << 20, GiB = G_GUINT64_CONSTANT (1) << 30;
  guint64 size = 0, largest = 0;

  /* 1.46 GiB free of a 1.46 GiB filesystem: 2 GiB does not fit, 1.43 GiB would. */
  g_assert_false (nsc_target_file_size (2 * GiB, 1500 * MiB, 1500 * MiB, 4096, &size, &largest));
  g_assert_cmpuint (size, ==, 2 * GiB);
  g_assert_cmpuint (largest, ==, 1500 * MiB - 30 * MiB);
  g_assert_true (nsc_target_file_size (largest, 1500 * MiB, 1500 * MiB, 4096, &size, NULL));
  g_assert_false (nsc_target_file_size (largest + 4096, 1500 * MiB, 1500 * MiB, 4096, &size, NULL));
  /* A large filesystem keeps 256 MiB at most; sizes in the alignment's multiples. */
  g_assert_true (nsc_target_file_size (100 * GiB + 1000, 200 * GiB, 1000 * GiB, 4096, &size, &largest));
  g_assert_cmpuint (size, ==, 100 * GiB);
  g_assert_cmpuint (largest, ==, 200 * GiB - 256 * MiB);
  /* The free space (write-fill): all but the floor, always "fits" when anything is left. */
  g_assert_true (nsc_target_file_size (NSC_TARGET_SIZE_FREE, 200 * GiB, 1000 * GiB, 4096, &size, NULL));
  g_assert_cmpuint (size, ==, 200 * GiB - 20 * GiB);
  g_assert_false (nsc_target_file_size (NSC_TARGET_SIZE_FREE, GiB / 2, 1000 * GiB, 4096, &size, NULL));
  g_assert_cmpuint (size, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/budget/stop/drop-held", test_stop_drop_held);
  g_test_add_func ("/budget/stop/dip-is-not-a-drop", test_stop_dip_is_not_a_drop);
  g_test_add_func ("/budget/stop/never-drops", test_stop_never_drops);
  g_test_add_func ("/budget/stop/reference-from-fill", test_stop_reference_from_fill);
  g_test_add_func ("/budget/stop/noise-about-line", test_stop_noise_about_line);
  g_test_add_func ("/budget/stop/dip-then-slower-cache", test_stop_dip_then_slower_cache);
  g_test_add_func ("/budget/stop/cap", test_stop_cap);
  g_test_add_func ("/budget/stop/parse", test_stop_parse);
  g_test_add_func ("/budget/presets", test_budget_presets);
  g_test_add_func ("/budget/file", test_budget_file);
  g_test_add_func ("/budget/flush", test_budget_flush);
  g_test_add_func ("/budget/times", test_budget_times);
  g_test_add_func ("/budget/unit", test_budget_unit);
  g_test_add_func ("/budget/wear-lines", test_wear_lines);
  g_test_add_func ("/budget/file-fits", test_file_fits);
  return g_test_run ();
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nsc-analysis.h"
#include "nsc-error.h"
#include "nsc-units.h"

/* Isolated outliers (a sample at 10× or 0.1×) are replaced by the median of their
 * neighbourhood before segmenting; a real step survives because every sample is in
 * the majority of its own centred window. */
#define HAMPEL_HALF_WINDOW   3
#define HAMPEL_NSIGMA        3.0
#define HAMPEL_FLOOR         0.18   /* log(1.2): jitter below 20 % is never an outlier */
/* Change points: Gaussian cost on log speed, a penalty a little above BIC's. */
#define PELT_MIN_SEGMENT     3
#define PELT_PENALTY_PER_LOG 3.0
/* Longer series are segmented on block medians first. */
#define PELT_MAX_POINTS      4096
#define NOISE_FLOOR          0.02   /* log-speed noise assumed at least 2 % */
/* Segments shorter than this (except the first, which may be a small cache) are
 * blips, not phases: they join a neighbour. */
#define SUSTAIN_SAMPLES      5
/* The level of a segment: mean of log speed with 20 % trimmed on each side. */
#define TRIM_FRACTION        0.2
/* The step itself, between the few samples either side of it, must be at least this
 * share of the required drop (in log terms): a slope is not a step. */
#define LOCAL_STEP_SHARE     0.75
#define LOCAL_STEP_SAMPLES   5
/* Without known thresholds, a step is thermal if the temperature rose this much. */
#define THROTTLE_MIN_RISE_C  5.0
#define THROTTLE_NEAR_MAX_C  2.0
#define THROTTLE_MIN_SAMPLES 10

#define MIB NSC_BYTES_PER_MIB
#define GIB 1073741824.0

typedef struct
{
  guint  start;   /* first sample */
  guint  end;     /* one past the last sample */
  double level;   /* log bytes/s */
} Segment;

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Sorts @v in place. */
static double
median_in_place (double *v,
                 guint   n)
{
  g_assert (n > 0);
  qsort (v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double
median_of (const double *x,
           guint         start,
           guint         end)
{
  g_autofree double *v = g_memdup2 (x + start, (end - start) * sizeof *x);
  return median_in_place (v, end - start);
}

static double
trimmed_mean (const double *x,
              guint         start,
              guint         end)
{
  guint n = end - start;
  g_autofree double *v = g_memdup2 (x + start, n * sizeof *x);
  guint k = (guint) (n * TRIM_FRACTION);
  double sum = 0;

  g_assert (n > 0);
  /* A short segment (a small cache of a few samples, one of them straddling its
   * end) loses its extremes too. */
  if (n >= 3)
    k = MAX (k, 1);
  qsort (v, n, sizeof *v, cmp_double);
  for (guint i = k; i < n - k; i++)
    sum += v[i];
  return sum / (n - 2 * k);
}

static void
hampel (const double *x,
        guint         n,
        double       *out)
{
  double win[2 * HAMPEL_HALF_WINDOW + 1];
  double dev[2 * HAMPEL_HALF_WINDOW + 1];

  for (guint i = 0; i < n; i++)
    {
      guint lo = i >= HAMPEL_HALF_WINDOW ? i - HAMPEL_HALF_WINDOW : 0;
      guint hi = MIN (n, i + HAMPEL_HALF_WINDOW + 1);
      guint m = hi - lo;
      double med, mad, thr;

      memcpy (win, x + lo, m * sizeof *x);
      med = median_in_place (win, m);
      for (guint j = 0; j < m; j++)
        dev[j] = fabs (x[lo + j] - med);
      mad = median_in_place (dev, m);
      thr = MAX (HAMPEL_NSIGMA * 1.4826 * mad, HAMPEL_FLOOR);
      out[i] = fabs (x[i] - med) > thr ? med : x[i];
    }
}

/* Robust noise level of a piecewise-constant signal: from first differences, which
 * steps barely affect. */
static double
noise_sigma (const double *x,
             guint         n)
{
  g_autofree double *d = NULL;
  double sigma;

  if (n < 3)
    return NOISE_FLOOR;
  d = g_new (double, n - 1);
  for (guint i = 1; i < n; i++)
    d[i - 1] = fabs (x[i] - x[i - 1]);
  sigma = median_in_place (d, n - 1) / (0.6745 * G_SQRT2);
  return MAX (sigma, NOISE_FLOOR);
}

/* PELT (Killick et al. 2012) with a minimum segment length. Returns the first sample
 * of every segment after the first, in order. */
static GArray *
pelt (const double *x,
      guint         n)
{
  g_autofree double *s1 = g_new0 (double, n + 1);
  g_autofree double *s2 = g_new0 (double, n + 1);
  g_autofree double *f = g_new (double, n + 1);
  g_autofree guint *last = g_new0 (guint, n + 1);
  g_autofree guint *cand = g_new (guint, n + 1);
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (guint));
  double sigma = noise_sigma (x, n);
  double inv_var = 1.0 / (sigma * sigma);
  double beta = PELT_PENALTY_PER_LOG * log (MAX (n, 2));
  guint n_cand = 0;
  double mean = 0;
  guint t;

  if (n < 2 * PELT_MIN_SEGMENT)
    return starts;

  for (guint i = 0; i < n; i++)
    mean += x[i] / n;
  for (guint i = 0; i < n; i++)
    {
      double v = x[i] - mean;  /* centred: the sums cancel less */
      s1[i + 1] = s1[i] + v;
      s2[i + 1] = s2[i] + v * v;
    }

#define COST(s, t) ((s2[t] - s2[s] - (s1[t] - s1[s]) * (s1[t] - s1[s]) / ((t) - (s))) * inv_var)

  f[0] = -beta;
  for (t = 1; t <= n; t++)
    {
      double best = INFINITY;
      guint arg = 0, kept = 0;

      if (t >= PELT_MIN_SEGMENT)
        {
          guint s_new = t - PELT_MIN_SEGMENT;
          if (s_new == 0 || s_new >= PELT_MIN_SEGMENT)
            cand[n_cand++] = s_new;
        }
      for (guint c = 0; c < n_cand; c++)
        {
          double v = f[cand[c]] + COST (cand[c], t) + beta;
          if (v < best)
            {
              best = v;
              arg = cand[c];
            }
        }
      f[t] = best;
      last[t] = arg;
      if (!isfinite (best))
        continue;
      for (guint c = 0; c < n_cand; c++)
        if (f[cand[c]] + COST (cand[c], t) <= best)
          cand[kept++] = cand[c];
      n_cand = kept;
    }
#undef COST

  for (t = n; t > 0; t = last[t])
    if (last[t] > 0)
      g_array_prepend_val (starts, last[t]);
  return starts;
}

static void
merge_into (GArray       *segs,
            guint         i,
            const double *x)
{
  Segment *a = &g_array_index (segs, Segment, i);
  Segment *b = &g_array_index (segs, Segment, i + 1);

  a->end = b->end;
  a->level = trimmed_mean (x, a->start, a->end);
  g_array_remove_index (segs, i + 1);
}

/* Joins neighbours closer than NSC_SEGMENT_MERGE_RATIO, the closest pair first. */
static void
merge_close (GArray       *segs,
             const double *x)
{
  double limit = log (NSC_SEGMENT_MERGE_RATIO);

  while (segs->len > 1)
    {
      double best = INFINITY;
      guint arg = 0;

      for (guint i = 0; i + 1 < segs->len; i++)
        {
          double d = fabs (g_array_index (segs, Segment, i).level -
                           g_array_index (segs, Segment, i + 1).level);
          if (d < best)
            {
              best = d;
              arg = i;
            }
        }
      if (best >= limit)
        break;
      merge_into (segs, arg, x);
    }
}

/* Short segments after the first join the neighbour nearer in speed. */
static void
absorb_blips (GArray       *segs,
              const double *x)
{
  while (segs->len > 1)
    {
      guint arg = 0, shortest = G_MAXUINT;
      Segment *s;

      for (guint i = 1; i < segs->len; i++)
        {
          Segment *c = &g_array_index (segs, Segment, i);
          if (c->end - c->start < SUSTAIN_SAMPLES && c->end - c->start < shortest)
            {
              shortest = c->end - c->start;
              arg = i;
            }
        }
      if (arg == 0)
        break;
      s = &g_array_index (segs, Segment, arg);
      if (arg + 1 < segs->len &&
          fabs (g_array_index (segs, Segment, arg + 1).level - s->level) <
          fabs (g_array_index (segs, Segment, arg - 1).level - s->level))
        merge_into (segs, arg, x);
      else
        merge_into (segs, arg - 1, x);
    }
}

/* PELT costs O(n²) on a curve without changes, so a long series is first cut on
 * the medians of blocks of @k samples; each change is then placed to the sample
 * within a block either side. */
static GArray *
pelt_coarse (const double *x,
             guint         n,
             guint         k)
{
  guint nb = (n + k - 1) / k;
  g_autofree double *blocks = g_new (double, nb);
  g_autofree double *s1 = g_new0 (double, n + 1);
  g_autofree double *s2 = g_new0 (double, n + 1);
  GArray *starts;

  for (guint i = 0; i < nb; i++)
    blocks[i] = median_of (x, i * k, MIN (n, (i + 1) * k));
  for (guint i = 0; i < n; i++)
    {
      double v = x[i] - blocks[0];
      s1[i + 1] = s1[i] + v;
      s2[i + 1] = s2[i] + v * v;
    }
#define SSE(a, b) (s2[b] - s2[a] - (s1[b] - s1[a]) * (s1[b] - s1[a]) / ((b) - (a)))
  starts = pelt (blocks, nb);
  for (guint j = 0; j < starts->len; j++)
    {
      guint *b = &g_array_index (starts, guint, j);
      guint lo = j > 0 ? g_array_index (starts, guint, j - 1) : 0;
      guint hi = j + 1 < starts->len ? g_array_index (starts, guint, j + 1) * k : n;
      guint from = MAX (lo + PELT_MIN_SEGMENT, *b * k - k);
      guint to = MIN (hi - PELT_MIN_SEGMENT, *b * k + k);
      double best = INFINITY;
      guint arg = *b * k;

      /* lo is already in samples: the earlier starts were refined in place. */
      for (guint c = from; c <= to; c++)
        {
          double v = SSE (lo, c) + SSE (c, hi);
          if (v < best)
            {
              best = v;
              arg = c;
            }
        }
      *b = arg;
    }
#undef SSE
  return starts;
}

/* @x: filtered log speeds. Returns Segments covering [0, n). */
static GArray *
segment (const double *x,
         guint         n)
{
  g_autoptr(GArray) starts = n > PELT_MAX_POINTS
                             ? pelt_coarse (x, n, (n + PELT_MAX_POINTS - 1) / PELT_MAX_POINTS)
                             : pelt (x, n);
  GArray *segs = g_array_new (FALSE, FALSE, sizeof (Segment));
  guint prev = 0;

  for (guint i = 0; i <= starts->len; i++)
    {
      Segment s;

      s.start = prev;
      s.end = i < starts->len ? g_array_index (starts, guint, i) : n;
      s.level = trimmed_mean (x, s.start, s.end);
      g_array_append_val (segs, s);
      prev = s.end;
    }
  merge_close (segs, x);
  absorb_blips (segs, x);
  merge_close (segs, x);
  return segs;
}

/* Is the drop at the start of segment @j a step, seen from the samples either side,
 * of at least @share of @min_drop_log? */
static gboolean
is_local_step (GArray       *segs,
               guint         j,
               const double *x,
               double        min_drop_log)
{
  const Segment *a = &g_array_index (segs, Segment, j - 1);
  const Segment *b = &g_array_index (segs, Segment, j);
  guint ma = MIN (LOCAL_STEP_SAMPLES, a->end - a->start);
  guint mb = MIN (LOCAL_STEP_SAMPLES, b->end - b->start);
  double before = median_of (x, a->end - ma, a->end);
  double after = median_of (x, b->start, b->start + mb);

  return before - after >= LOCAL_STEP_SHARE * min_drop_log;
}

/* Share of sample @i's amount (bytes or time) done at @va rather than @vb, for a
 * sample whose mean speed is @s. @harmonic: amounts are bytes, so speeds average
 * by time (harmonically); otherwise amounts are time. */
static double
share_at (double   s,
          double   va,
          double   vb,
          gboolean harmonic)
{
  double share;

  if (va == vb)
    return 0.5;
  share = harmonic ? (1 / s - 1 / vb) / (1 / va - 1 / vb) : (s - vb) / (va - vb);
  return CLAMP (share, 0.0, 1.0);
}

/* Share at @va of a sample next to a change from @va to @vb. The sample that
 * straddles the change has a speed in between, which the Hampel filter may have
 * flattened when other outliers are near, so the raw reading counts when it is
 * plausible. An outlier there may or may not be the straddling sample: calling it
 * half-way bounds the error to half a sample either way. */
static double
boundary_share (double   raw,
                double   va,
                double   vb,
                gboolean harmonic)
{
  if (raw >= MIN (va, vb) / 1.25 && raw <= MAX (va, vb) * 1.25)
    return share_at (raw, va, vb, harmonic);
  return 0.5;
}

/* Byte position of the change from @va to @vb between samples @b - 1 and @b: the
 * sample that straddles it has a speed between the two and says where it is. */
static guint64
refine_bytes (const guint64 *position,
              const double  *bps,
              guint          b,
              double         va,
              double         vb)
{
  guint64 base = b >= 2 ? position[b - 2] : 0;
  double fast = 0;

  g_assert (b >= 1);
  for (guint i = b - 1; i <= b; i++)
    {
      guint64 start = i > 0 ? position[i - 1] : 0;
      fast += boundary_share (bps[i], va, vb, TRUE) * (double) (position[i] - start);
    }
  return base + (guint64) llround (fast);
}

static gboolean
validate_fill (const guint64 *position,
               const double  *bps,
               guint          n,
               guint          min_n,
               GError       **error)
{
  if (n == 0)
    {
      nsc_error_set (error, NSC_PROBLEM_FILL_EMPTY, NULL);
      return FALSE;
    }
  if (n < min_n)
    {
      nsc_error_set (error, NSC_PROBLEM_FILL_TOO_FEW, &(NscErrorFields) { .n = n, .n2 = min_n });
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    {
      guint64 prev = i > 0 ? position[i - 1] : 0;

      if (position[i] <= prev)
        {
          nsc_error_set (error, NSC_PROBLEM_FILL_POSITION_ORDER,
                         &(NscErrorFields) { .n = i, .bytes = position[i], .bytes2 = prev });
          return FALSE;
        }
      if (!isfinite (bps[i]) || bps[i] <= 0)
        {
          nsc_error_set (error, NSC_PROBLEM_FILL_SPEED, &(NscErrorFields) { .n = i, .x = bps[i] });
          return FALSE;
        }
    }
  return TRUE;
}

static double *
filtered_log_speeds (const double *bps,
                     guint         n)
{
  g_autofree double *logs = g_new (double, n);
  double *out = g_new (double, n);

  for (guint i = 0; i < n; i++)
    logs[i] = log (bps[i]);
  hampel (logs, n, out);
  return out;
}

static char *
format_size_approx (guint64 bytes)
{
  double gib = bytes / GIB, mib = bytes / MIB;

  if (gib >= 9.95)
    return g_strdup_printf ("%.0f GiB", gib);
  if (gib >= 1)
    return g_strdup_printf ("%.1f GiB", gib);
  if (mib >= 1)
    return g_strdup_printf ("%.0f MiB", mib);
  return g_strdup_printf ("%.0f KiB", bytes / 1024.0);
}

/* The summary's English: "470 MiB/s", "1.9 MiB/s" (nsc_words_speed () says the same
 * in the user's language and units). */
static char *
format_speed (double bps)
{
  g_autofree char *n = nsc_format_rounded (bps / NSC_BYTES_PER_MIB);

  return g_strdup_printf ("%s MiB/s", n);
}

/* "; then 620 MiB/s for 40 GiB; then 590 MiB/s for the last 140 GiB" */
static void
append_phases (GString              *s,
               const NscSlcAnalysis *a,
               guint                 from)
{
  for (guint i = from; i < a->n_phases; i++)
    {
      const NscPhase *p = &a->phases[i];
      g_autofree char *len = format_size_approx (p->end_bytes - p->start_bytes);
      g_autofree char *v = format_speed (p->bps);

      g_string_append_printf (s, "; then %s for %s%s", v,
                              i + 1 == a->n_phases ? "the last " : "", len);
    }
}

static gboolean
is_burst (const NscSlcAnalysis *a,
          guint                 k)
{
  for (guint i = 0; i < a->n_bursts; i++)
    if (a->phases[k].start_bytes >= a->bursts[i].start_bytes
        && a->phases[k].start_bytes < a->bursts[i].start_bytes + a->bursts[i].bytes)
      return TRUE;
  return FALSE;
}

/* After the cache, the phase that holds most of the data, bursts aside: a drive that
 * writes a long burst now and then still writes at the slow speed in between. */
static guint
longest_post_phase (const NscSlcAnalysis *a)
{
  guint longest = 1;

  for (guint k = 2; k < a->n_phases; k++)
    if (!is_burst (a, k) && a->phases[k].end_bytes - a->phases[k].start_bytes
                            > a->phases[longest].end_bytes - a->phases[longest].start_bytes)
      longest = k;
  return longest;
}

static char *
build_drive_summary (const NscSlcAnalysis *a)
{
  GString *s = g_string_new (NULL);

  if (a->has_cache && a->n_bursts > 0)
    {
      g_autofree char *size = format_size_approx (a->cache_bytes);
      g_autofree char *in = format_speed (a->in_cache_bps);
      g_autofree char *post = format_speed (a->post_cache_bps);
      g_autofree char *avg = format_speed (a->post_cache_avg_bps);
      g_autofree char *fastest = NULL;
      g_autofree char *burst_bytes = NULL;
      guint64 sum = 0;
      double top = 0;

      for (guint i = 0; i < a->n_bursts; i++)
        {
          sum += a->bursts[i].bytes;
          top = MAX (top, a->bursts[i].bps);
        }
      fastest = format_speed (top);
      burst_bytes = format_size_approx (sum);
      /* The cache is the first fast stretch; what the drive frees later and writes
       * fast again is named as bursts, with the average over all of it. */
      g_string_append_printf (s, "SLC cache about %s at %s; after it mostly %s, with %u later "
                              "burst%s at up to %s (%s in all): %s on average", size, in, post,
                              a->n_bursts, a->n_bursts == 1 ? "" : "s", fastest, burst_bytes, avg);
    }
  else if (a->has_cache)
    {
      g_autofree char *size = format_size_approx (a->cache_bytes);
      g_autofree char *in = format_speed (a->in_cache_bps);
      g_autofree char *post = format_speed (a->post_cache_bps);

      if (longest_post_phase (a) == 1)
        {
          g_string_append_printf (s, "SLC cache about %s at %s; after it %s", size, in, post);
          append_phases (s, a, 2);
        }
      else
        {
          /* A short stretch came first: name the speed that holds most of the rest,
           * then every phase in order. */
          g_string_append_printf (s, "SLC cache about %s at %s; after it mostly %s", size, in, post);
          append_phases (s, a, 1);
        }
    }
  else if (a->drop_cause == NSC_DROP_THERMAL)
    {
      g_autofree char *at = format_size_approx (a->throttle_bytes);
      g_autofree char *before = format_speed (a->throttle_bps_before);
      g_autofree char *after = format_speed (a->throttle_bps_after);

      g_string_append_printf (s, "No SLC cache end seen: the speed fell from %s to %s after %s "
                              "as the drive reached %.0f °C (its %.0f °C throttle threshold): "
                              "thermal throttling, not the cache's end",
                              before, after, at, a->throttle_celsius, a->throttle_threshold_c);
    }
  else if (a->n_phases == 1)
    {
      g_autofree char *v = format_speed (a->phases[0].bps);
      g_string_append_printf (s, "No SLC cache seen: %s throughout", v);
    }
  else
    {
      g_autofree char *first = format_speed (a->phases[0].bps);

      g_string_append_printf (s, "No SLC cache seen: %s at first", first);
      append_phases (s, a, 1);
    }
  return g_string_free (s, FALSE);
}

/* The drive's sentence, then what a cache in front of it changes: a fast region
 * that was this machine's memory is named as such; otherwise the sentence stands,
 * not verified. */
static char *
build_summary (const NscSlcAnalysis *a)
{
  g_autofree char *drive = NULL;
  g_autofree char *via = NULL;

  if (a->system_cache.certainty == NSC_SYSTEM_CACHE_NONE)
    return build_drive_summary (a);
  via = nsc_system_cache_phrase (&a->system_cache);
  if (a->drop_cause == NSC_DROP_SYSTEM_CACHE)
    {
      g_autofree char *size = format_size_approx (a->cache_bytes);
      g_autofree char *in = format_speed (a->in_cache_bps);
      g_autofree char *post = format_speed (a->post_cache_bps);

      return g_strdup_printf ("No SLC cache measured: the first %s went at %s into this "
                              "machine's memory, through %s; after it %s", size, in, via, post);
    }
  drive = build_drive_summary (a);
  if (a->system_cache.certainty == NSC_SYSTEM_CACHE_MEMORY)
    return g_strdup_printf ("%s. Not verified: the writes went through this machine's "
                            "memory (%s), which hides the drive's own behaviour", drive, via);
  return g_strdup_printf ("%s. Not verified as the drive's own: the writes went through "
                          "%s, which may keep them in memory first", drive, via);
}

const char *
nsc_system_cache_to_string (NscSystemCache cache)
{
  switch (cache)
    {
    case NSC_SYSTEM_CACHE_POSSIBLE:
      return "possible";
    case NSC_SYSTEM_CACHE_MEMORY:
      return "memory";
    case NSC_SYSTEM_CACHE_NONE:
    default:
      return "none";
    }
}

NscSystemCache
nsc_system_cache_from_string (const char *text)
{
  for (NscSystemCache c = NSC_SYSTEM_CACHE_POSSIBLE; c <= NSC_SYSTEM_CACHE_MEMORY; c++)
    if (g_strcmp0 (text, nsc_system_cache_to_string (c)) == 0)
      return c;
  return NSC_SYSTEM_CACHE_NONE;
}

void
nsc_system_cache_info_clear (NscSystemCacheInfo *info)
{
  g_clear_pointer (&info->kind, g_free);
  g_clear_pointer (&info->device, g_free);
  g_clear_pointer (&info->detail, g_free);
  info->certainty = NSC_SYSTEM_CACHE_NONE;
}

void
nsc_system_cache_info_copy (NscSystemCacheInfo       *dest,
                            const NscSystemCacheInfo *src)
{
  nsc_system_cache_info_clear (dest);
  if (src == NULL)
    return;
  dest->certainty = src->certainty;
  dest->kind = g_strdup (src->kind);
  dest->device = g_strdup (src->device);
  dest->detail = g_strdup (src->detail);
}

/* Each kind's phrase, with the device and the detail it takes, in that order: the
 * result's English here, the words library's translation of the same format. */
static const struct
{
  const char *kind;
  const char *format;
  gboolean    device;
} system_cache_phrases[] = {
  /* Translators: what stands between the test and the drive: "loop0, a loop device
   * over /var/tmp/disk.img without direct I/O" */
  { "loop", N_("%s, a loop device over %s without direct I/O"), TRUE },
  { "nbd", N_("%s, a network block device"), TRUE },
  /* Translators: "zram0, a disk in memory" */
  { "ram-disk", N_("%s, a disk in memory"), TRUE },
  { "virtio", N_("%s, a virtual disk (virtio)"), TRUE },
  { "xen", N_("%s, a virtual disk (Xen)"), TRUE },
  /* Translators: "sda, a disk that a virtual machine emulates (QEMU HARDDISK)" */
  { "emulated", N_("%s, a disk that a virtual machine emulates (%s)"), TRUE },
  /* Translators: "a folder in memory (tmpfs)" */
  { "memory-fs", N_("a folder in memory (%s)"), FALSE },
  /* Translators: "a network or user-space filesystem (nfs)" */
  { "network-fs", N_("a network or user-space filesystem (%s)"), FALSE },
  { "zfs", N_("ZFS, which gathers writes in memory"), FALSE },
  /* Translators: an imported fio run's target: "/dev/nvme0n1, fio's target, whose
   * path to the drive Nandscope did not see" */
  { "fio", N_("%s, fio's target, whose path to the drive Nandscope did not see"), TRUE },
  { "fio-buffered", N_("%s through the page cache of fio's machine (fio without direct=1)"), TRUE },
};

char *
nsc_phrase_fill (const char *format,
                 const char *first,
                 const char *second)
{
  GString *s = g_string_new (NULL);
  const char *args[2] = { first, second };
  guint used = 0;

  for (const char *p = format; *p; p++)
    if (p[0] == '%' && p[1] == 's' && used < 2)
      {
        g_string_append (s, args[used++]);
        p++;
      }
    else
      g_string_append_c (s, *p);
  return g_string_free (s, FALSE);
}

const char *
nsc_system_cache_phrase_format (const NscSystemCacheInfo  *info,
                                const char               **first,
                                const char               **second)
{
  g_return_val_if_fail (info != NULL && first != NULL && second != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (system_cache_phrases); i++)
    if (g_strcmp0 (info->kind, system_cache_phrases[i].kind) == 0)
      {
        const char *dev = info->device ? info->device : "?";
        const char *det = info->detail ? info->detail : "?";

        *first = system_cache_phrases[i].device ? dev : det;
        *second = det;
        return system_cache_phrases[i].format;
      }
  *first = *second = NULL;
  return NULL;
}

char *
nsc_system_cache_phrase (const NscSystemCacheInfo *info)
{
  const char *first, *second;
  const char *format;

  g_return_val_if_fail (info != NULL, NULL);

  format = nsc_system_cache_phrase_format (info, &first, &second);
  if (format)
    return nsc_phrase_fill (format, first, second);
  return g_strdup (info->device ? info->device : info->kind ? info->kind : "?");
}

void
nsc_system_cache_info_build (const NscSystemCacheInfo *info,
                             JsonBuilder              *b)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "certainty");
  json_builder_add_string_value (b, nsc_system_cache_to_string (info->certainty));
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, info->kind ? info->kind : "");
  if (info->device)
    {
      json_builder_set_member_name (b, "device");
      json_builder_add_string_value (b, info->device);
    }
  if (info->detail)
    {
      json_builder_set_member_name (b, "detail");
      json_builder_add_string_value (b, info->detail);
    }
  json_builder_end_object (b);
}

void
nsc_slc_analysis_set_system_cache (NscSlcAnalysis           *a,
                                   const NscSystemCacheInfo *cache)
{
  g_return_if_fail (a != NULL);

  if (cache == NULL || cache->certainty == NSC_SYSTEM_CACHE_NONE)
    return;
  nsc_system_cache_info_copy (&a->system_cache, cache);
  /* This machine's memory took the fast region: no SLC cache is measured. */
  if (cache->certainty == NSC_SYSTEM_CACHE_MEMORY && a->has_cache)
    {
      a->has_cache = FALSE;
      a->drop_cause = NSC_DROP_SYSTEM_CACHE;
    }
  g_free (a->summary);
  a->summary = build_summary (a);
}

static double
interpolate (const double *t,
             const double *v,
             guint         n,
             double        at)
{
  guint lo = 0, hi = n - 1;

  if (at <= t[0])
    return v[0];
  if (at >= t[n - 1])
    return v[n - 1];
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;
      if (t[mid] <= at)
        lo = mid;
      else
        hi = mid;
    }
  return v[lo] + (v[hi] - v[lo]) * (at - t[lo]) / (t[hi] - t[lo]);
}

static gboolean
validate_times (NscAnalysisSeries  series,
                const double      *t,
                guint              n,
                GError           **error)
{
  for (guint i = 0; i < n; i++)
    if (!isfinite (t[i]) || (i > 0 && t[i] <= t[i - 1]))
      {
        nsc_error_set (error, NSC_PROBLEM_SERIES_TIME_ORDER,
                       &(NscErrorFields) { .n = i, .n2 = series, .x = t[i] });
        return FALSE;
      }
  return TRUE;
}

static gboolean
validate_celsius (const double *celsius,
                  guint         n,
                  GError      **error)
{
  for (guint i = 0; i < n; i++)
    if (!isfinite (celsius[i]))
      {
        nsc_error_set (error, NSC_PROBLEM_TEMPERATURE_NOT_NUMBER, &(NscErrorFields) { .n = i });
        return FALSE;
      }
  return TRUE;
}

/* The upward crossing of one of @thresholds nearest to @at, if one lies within
 * NSC_THROTTLE_COINCIDENCE_S of it. */
static gboolean
threshold_crossing (const double *temp_t_s,
                    const double *celsius,
                    guint         n_temp,
                    const double *thresholds,
                    guint         n_thresholds,
                    double        at,
                    double       *out_threshold)
{
  double best = INFINITY;

  for (guint k = 0; k < n_thresholds; k++)
    for (guint i = 1; i < n_temp; i++)
      {
        double thr = thresholds[k], c0 = celsius[i - 1], c1 = celsius[i];
        double tc;

        if (!(c0 < thr && c1 >= thr))
          continue;
        tc = temp_t_s[i - 1] + (temp_t_s[i] - temp_t_s[i - 1]) * (thr - c0) / (c1 - c0);
        if (fabs (tc - at) <= NSC_THROTTLE_COINCIDENCE_S && fabs (tc - at) < best)
          {
            best = fabs (tc - at);
            *out_threshold = thr;
          }
      }
  return isfinite (best);
}

/* Seconds of writing until byte @p, from the samples' speeds; @t[i] is the end of
 * sample i − 1. */
static double
time_at_bytes (const guint64 *position,
               const double  *bps,
               const double  *t,
               guint          n,
               guint64        p)
{
  for (guint i = 0; i < n; i++)
    if (position[i] >= p)
      {
        guint64 start = i > 0 ? position[i - 1] : 0;
        return t[i] + (double) (p > start ? p - start : 0) / bps[i];
      }
  return t[n];
}

/* Post-cache runs of phases a step as big as the cache's end above the phase before
 * them: the drive freed some cache and wrote it fast again. A run goes on until the
 * speed falls back to within that step of the slow phase before it, so a burst that
 * fades (fast, then less fast) is one burst. Its speed is that of the samples wholly
 * inside it, bytes over time: a sample that straddles its edge is mostly slow. */
static void
find_bursts (NscSlcAnalysis *a,
             const guint64  *position,
             const double   *bps,
             guint           n)
{
  double ratio = 1 - NSC_SLC_MIN_DROP;

  a->bursts = g_new0 (NscBurst, MAX (a->n_phases, 1));
  for (guint k = 2; k < a->n_phases; k++)
    {
      double slow = a->phases[k - 1].bps, seconds = 0, inside_s = 0;
      guint64 inside = 0;
      NscBurst *b = &a->bursts[a->n_bursts];
      guint m = k;

      if (slow > ratio * a->phases[k].bps)
        continue;
      while (m + 1 < a->n_phases && slow <= ratio * a->phases[m + 1].bps)
        m++;
      b->start_bytes = a->phases[k].start_bytes;
      b->bytes = a->phases[m].end_bytes - b->start_bytes;
      for (guint i = k; i <= m; i++)
        seconds += (a->phases[i].end_bytes - a->phases[i].start_bytes) / a->phases[i].bps;
      for (guint i = 0; i < n; i++)
        {
          guint64 from = i > 0 ? position[i - 1] : 0;

          if (from >= b->start_bytes && position[i] <= b->start_bytes + b->bytes)
            {
              inside += position[i] - from;
              inside_s += (position[i] - from) / bps[i];
            }
        }
      b->bps = inside_s > 0 ? inside / inside_s : seconds > 0 ? b->bytes / seconds : a->phases[k].bps;
      a->n_bursts++;
      k = m;
    }
}

NscSlcAnalysis *
nsc_analyze_write_fill (const guint64 *position,
                        const double  *bps,
                        guint          n,
                        GError       **error)
{
  return nsc_analyze_write_fill_thermal (position, bps, n, NULL, error);
}

/* A slow stretch after a drop is sustained when it lasts 2 s or holds 3 % of the fill:
 * no phase may hold one below ⅔ of its speed. */
#define SUSTAINED_S      2.0
#define SUSTAINED_SHARE  0.03

/* From segment @j on, the runs of segments below the cache's speed by @min_drop or
 * more, each ended by a faster one (a burst): how many are sustained, and
 * (@out_first) whether the first, which starts at @j, is. @t[i] is when sample i - 1
 * ended. */
static guint
sustained_slow_runs (GArray        *segs,
                     guint          j,
                     const guint64 *position,
                     const double  *t,
                     double         cache_level,
                     double         min_drop,
                     guint64        total,
                     gboolean      *out_first)
{
  double slow = cache_level - min_drop;
  guint runs = 0, k = j;

  *out_first = FALSE;
  while (k < segs->len)
    {
      guint first = g_array_index (segs, Segment, k).start, last = first;
      gboolean sustained;

      if (g_array_index (segs, Segment, k).level > slow)
        {
          k++;
          continue;
        }
      while (k < segs->len && g_array_index (segs, Segment, k).level <= slow)
        last = g_array_index (segs, Segment, k++).end;
      sustained = t[last] - t[first] >= SUSTAINED_S
                  || position[last - 1] - (first > 0 ? position[first - 1] : 0) >= SUSTAINED_SHARE * total;
      if (first == g_array_index (segs, Segment, j).start)
        *out_first = sustained;
      runs += sustained;
    }
  return runs;
}

NscSlcAnalysis *
nsc_analyze_write_fill_thermal (const guint64             *position,
                                const double              *bps,
                                guint                      n,
                                const NscFillTemperature  *temp,
                                GError                   **error)
{
  g_autoptr(NscSlcAnalysis) a = NULL;
  g_autofree double *x = NULL;
  g_autoptr(GArray) segs = NULL;
  double min_drop = -log (1 - NSC_SLC_MIN_DROP);
  double seconds = 0, cache_level = 0;
  g_autofree double *t = NULL;
  gboolean thermal = FALSE;
  guint j, first_after, out;

  g_return_val_if_fail (n == 0 || (position != NULL && bps != NULL), NULL);
  g_return_val_if_fail (temp == NULL || temp->n_temp == 0
                        || (temp->temp_t_s != NULL && temp->celsius != NULL), NULL);
  g_return_val_if_fail (temp == NULL || temp->n_thresholds == 0 || temp->thresholds_c != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!validate_fill (position, bps, n, NSC_WRITE_FILL_MIN_SAMPLES, error))
    return NULL;
  if (temp != NULL &&
      ((temp->t_s != NULL && !validate_times (NSC_ANALYSIS_SERIES_SPEED, temp->t_s, n, error)) ||
       !validate_times (NSC_ANALYSIS_SERIES_TEMPERATURE, temp->temp_t_s, temp->n_temp, error) ||
       !validate_celsius (temp->celsius, temp->n_temp, error)))
    return NULL;

  a = g_new0 (NscSlcAnalysis, 1);
  a->total_bytes = position[n - 1];
  for (guint i = 0; i < n; i++)
    seconds += (double) (position[i] - (i > 0 ? position[i - 1] : 0)) / bps[i];
  a->average_bps = a->total_bytes / seconds;

  x = filtered_log_speeds (bps, n);
  segs = segment (x, n);

  /* When each sample ended, in seconds of writing. */
  t = g_new (double, n + 1);
  t[0] = 0;
  for (guint i = 0; i < n; i++)
    t[i + 1] = t[i] + (double) (position[i] - (i > 0 ? position[i - 1] : 0)) / bps[i];

  /* The cache ends at the first step down that is big against both its neighbour
   * and everything before it, that is a step rather than a slope, and after which
   * the drive stays slow (not a short dip it recovers from). What counts is bytes
   * and samples: a fast drive empties a small cache in a fraction of a second. A
   * sustained slow stretch that comes back again after the drive recovered is a
   * sawtooth (the drive freeing cache while it writes): its first drop ends the
   * cache, however long the bursts between. */
  for (j = 1; j < segs->len; j++)
    {
      const Segment *prev = &g_array_index (segs, Segment, j - 1);
      const Segment *cur = &g_array_index (segs, Segment, j);
      guint b = cur->start;
      gboolean sustained = FALSE, sawtooth;

      if (prev->level - cur->level < min_drop)
        continue;
      /* The last sample before the drop may straddle it: a small cache of a few
       * samples would take its level from it. */
      cache_level = trimmed_mean (x, 0, b > 2 ? b - 1 : b);
      if (cache_level - cur->level < min_drop)
        continue;
      if (!is_local_step (segs, j, x, min_drop))
        continue;
      sawtooth = sustained_slow_runs (segs, j, position, t, cache_level, min_drop,
                                      a->total_bytes, &sustained) >= 2 && sustained;
      if (!sawtooth && cache_level - median_of (x, b, n) < min_drop)
        continue;
      /* The first sample may be no more than the queue filling the drive's buffer:
       * the fast stretch must go on after it, for samples and bytes no buffer holds. */
      {
        guint64 fast_bytes = 0;

        for (guint i = 1; i < b; i++)
          if (x[i] >= cur->level + min_drop)
            fast_bytes += position[i] - position[i - 1];
        if (fast_bytes < NSC_SLC_MIN_BYTES)
          continue;
      }
      /* Nor is a slowdown in the last moments of a fill: too little to tell. */
      if (a->total_bytes - position[b - 1] < NSC_SLC_MIN_BYTES)
        continue;
      /* A dip the drive recovers from to near the cache's speed is no cache end when
       * it holds fewer bytes than the fast stretches either side of it. When it holds
       * more, the cache has ended and the drive writes fast again only for a burst. */
      {
        gboolean dip = FALSE;

        for (guint k = j + 1; k < segs->len; k++)
          {
            const Segment *later = &g_array_index (segs, Segment, k);
            guint64 slow, fast_after;
            guint e = k;

            if (later->level < cache_level + log (NSC_SLC_RECOVERY_SHARE))
              continue;
            while (e + 1 < segs->len &&
                   g_array_index (segs, Segment, e + 1).level >= cache_level + log (NSC_SLC_RECOVERY_SHARE))
              e++;
            slow = position[later->start - 1] - position[b - 1];
            fast_after = position[g_array_index (segs, Segment, e).end - 1] - position[later->start - 1];
            dip = !sawtooth && slow < position[b - 1] && slow < fast_after;
            break;
          }
        if (dip)
          continue;
      }
      break;
    }

  /* A drop as the drive reaches a throttle temperature is throttling. */
  if (j < segs->len && temp != NULL && temp->t_s != NULL && temp->n_temp > 0 && temp->n_thresholds > 0)
    {
      const Segment *cur = &g_array_index (segs, Segment, j);
      double at = temp->t_s[cur->start - 1], thr = NAN;

      if (threshold_crossing (temp->temp_t_s, temp->celsius, temp->n_temp,
                              temp->thresholds_c, temp->n_thresholds, at, &thr))
        {
          thermal = TRUE;
          a->throttle_t_s = at;
          a->throttle_celsius = interpolate (temp->temp_t_s, temp->celsius, temp->n_temp, at);
          a->throttle_threshold_c = thr;
          a->throttle_bps_before = exp (cache_level);
          a->throttle_bps_after = exp (cur->level);
          a->throttle_bytes = refine_bytes (position, bps, cur->start,
                                            exp (g_array_index (segs, Segment, j - 1).level),
                                            exp (cur->level));
        }
    }
  a->drop_cause = j == segs->len ? NSC_DROP_NONE : thermal ? NSC_DROP_THERMAL : NSC_DROP_CACHE_END;
  a->has_cache = a->drop_cause == NSC_DROP_CACHE_END;
  first_after = a->has_cache ? j : 1;

  a->n_phases = a->has_cache ? segs->len - j + 1 : segs->len;
  a->phases = g_new0 (NscPhase, a->n_phases);
  a->phases[0].bps = exp (a->has_cache ? cache_level
                                       : g_array_index (segs, Segment, 0).level);
  out = 1;
  for (guint k = first_after; k < segs->len; k++, out++)
    {
      const Segment *prev = &g_array_index (segs, Segment, k - 1);
      const Segment *cur = &g_array_index (segs, Segment, k);
      double va = a->has_cache && k == first_after ? cache_level : prev->level;
      guint64 at = refine_bytes (position, bps, cur->start, exp (va), exp (cur->level));

      at = MAX (at, a->phases[out - 1].start_bytes);
      a->phases[out - 1].end_bytes = at;
      a->phases[out].start_bytes = at;
      a->phases[out].bps = exp (cur->level);
    }
  a->phases[a->n_phases - 1].end_bytes = a->total_bytes;

  if (a->has_cache)
    {
      double t_end;

      a->cache_bytes = a->phases[0].end_bytes;
      a->in_cache_bps = a->phases[0].bps;
      find_bursts (a, position, bps, n);
      /* After the cache, the phase that holds most of the data: a short stretch
       * right after the drop (a stall, the drive switching modes) is not its speed. */
      a->post_cache_bps = a->phases[longest_post_phase (a)].bps;
      t_end = time_at_bytes (position, bps, t, n, a->cache_bytes);
      a->post_cache_avg_bps = t[n] > t_end ? (a->total_bytes - a->cache_bytes) / (t[n] - t_end)
                                           : a->post_cache_bps;
    }
  a->summary = build_summary (a);
  return g_steal_pointer (&a);
}

NscSlcAnalysis *
nsc_analyze_write_fill_series (NscSeries  *series,
                               GError    **error)
{
  return nsc_analyze_write_fill_series_thermal (series, NULL, NULL, 0, NULL, 0, error);
}

NscSlcAnalysis *
nsc_analyze_write_fill_series_thermal (NscSeries     *series,
                                       const gint64  *temp_t_ns,
                                       const double  *celsius,
                                       guint          n_temp,
                                       const double  *thresholds_c,
                                       guint          n_thresholds,
                                       GError       **error)
{
  guint len, n = 0;
  g_autofree guint64 *position = NULL;
  g_autofree double *bps = NULL;
  g_autofree double *t_s = NULL;
  g_autofree double *temp_t_s = NULL;
  NscFillTemperature temp = { 0 };
  guint64 prev_pos = 0;
  gint64 pending_ns = 0;

  g_return_val_if_fail (series != NULL, NULL);
  g_return_val_if_fail (n_temp == 0 || (temp_t_ns != NULL && celsius != NULL), NULL);
  g_return_val_if_fail (n_thresholds == 0 || thresholds_c != NULL, NULL);

  len = nsc_series_get_len (series);
  position = g_new (guint64, MAX (len, 1));
  bps = g_new (double, MAX (len, 1));
  t_s = g_new (double, MAX (len, 1));
  for (guint i = 0; i < len; i++)
    {
      const NscSample *s = nsc_series_get (series, i);
      gint64 ns = s->duration_ns + pending_ns;

      /* A stall wrote nothing: its time belongs to the bytes that follow it. A sample
       * that took no measurable time (a starved sampler) has no speed of its own: its
       * bytes go with the next sample's time. */
      if ((s->position == prev_pos && s->duration_ns >= 0)
          || (ns <= 0 && i + 1 < len && s->position > prev_pos))
        {
          pending_ns = MAX (ns, 0);
          continue;
        }
      position[n] = s->position;
      bps[n] = ns > 0 && s->position > prev_pos ? (s->position - prev_pos) * 1e9 / ns : 0;
      t_s[n] = s->t_ns / 1e9;
      prev_pos = s->position;
      pending_ns = 0;
      n++;
    }
  if (n_temp == 0 || n_thresholds == 0)
    return nsc_analyze_write_fill (position, bps, n, error);

  temp_t_s = g_new (double, n_temp);
  for (guint i = 0; i < n_temp; i++)
    temp_t_s[i] = temp_t_ns[i] / 1e9;
  temp.t_s = t_s;
  temp.temp_t_s = temp_t_s;
  temp.celsius = celsius;
  temp.n_temp = n_temp;
  temp.thresholds_c = thresholds_c;
  temp.n_thresholds = n_thresholds;
  return nsc_analyze_write_fill_thermal (position, bps, n, &temp, error);
}

void
nsc_slc_analysis_free (NscSlcAnalysis *analysis)
{
  if (analysis == NULL)
    return;
  g_free (analysis->phases);
  g_free (analysis->bursts);
  nsc_system_cache_info_clear (&analysis->system_cache);
  g_free (analysis->summary);
  g_free (analysis);
}

JsonNode *
nsc_slc_analysis_to_json (const NscSlcAnalysis *a)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (a != NULL, NULL);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "has_cache");
  json_builder_add_boolean_value (b, a->has_cache);
  json_builder_set_member_name (b, "cache_bytes");
  json_builder_add_int_value (b, (gint64) a->cache_bytes);
  json_builder_set_member_name (b, "in_cache_bps");
  if (a->has_cache || a->drop_cause == NSC_DROP_SYSTEM_CACHE)
    json_builder_add_double_value (b, a->in_cache_bps);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "post_cache_bps");
  if (a->has_cache || a->drop_cause == NSC_DROP_SYSTEM_CACHE)
    json_builder_add_double_value (b, a->post_cache_bps);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "post_cache_avg_bps");
  if (a->has_cache || a->drop_cause == NSC_DROP_SYSTEM_CACHE)
    json_builder_add_double_value (b, a->post_cache_avg_bps);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "average_bps");
  json_builder_add_double_value (b, a->average_bps);
  json_builder_set_member_name (b, "total_bytes");
  json_builder_add_int_value (b, (gint64) a->total_bytes);
  json_builder_set_member_name (b, "phases");
  json_builder_begin_array (b);
  for (guint i = 0; i < a->n_phases; i++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "start_bytes");
      json_builder_add_int_value (b, (gint64) a->phases[i].start_bytes);
      json_builder_set_member_name (b, "end_bytes");
      json_builder_add_int_value (b, (gint64) a->phases[i].end_bytes);
      json_builder_set_member_name (b, "bps");
      json_builder_add_double_value (b, a->phases[i].bps);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "bursts");
  json_builder_begin_array (b);
  for (guint i = 0; i < a->n_bursts; i++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "start_bytes");
      json_builder_add_int_value (b, (gint64) a->bursts[i].start_bytes);
      json_builder_set_member_name (b, "bytes");
      json_builder_add_int_value (b, (gint64) a->bursts[i].bytes);
      json_builder_set_member_name (b, "bps");
      json_builder_add_double_value (b, a->bursts[i].bps);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "drop_cause");
  if (a->drop_cause == NSC_DROP_CACHE_END)
    json_builder_add_string_value (b, "cache-end");
  else if (a->drop_cause == NSC_DROP_THERMAL)
    json_builder_add_string_value (b, "thermal-throttling");
  else if (a->drop_cause == NSC_DROP_SYSTEM_CACHE)
    json_builder_add_string_value (b, "system-cache");
  else
    json_builder_add_null_value (b);
  /* The verdict and what it stands on: a cache in front of the drive leaves it not
   * verified. */
  json_builder_set_member_name (b, "verdict");
  json_builder_add_string_value (b, a->drop_cause == NSC_DROP_SYSTEM_CACHE ? "system-cache"
                                    : a->system_cache.certainty != NSC_SYSTEM_CACHE_NONE ? "not-verified"
                                    : a->has_cache ? "cache"
                                    : a->drop_cause == NSC_DROP_THERMAL ? "thermal-throttling"
                                    : "no-cache");
  if (a->system_cache.certainty != NSC_SYSTEM_CACHE_NONE)
    {
      json_builder_set_member_name (b, "system_cache");
      nsc_system_cache_info_build (&a->system_cache, b);
    }
  if (a->drop_cause == NSC_DROP_THERMAL)
    {
      json_builder_set_member_name (b, "throttle");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "bytes");
      json_builder_add_int_value (b, (gint64) a->throttle_bytes);
      json_builder_set_member_name (b, "t_s");
      json_builder_add_double_value (b, a->throttle_t_s);
      json_builder_set_member_name (b, "celsius");
      json_builder_add_double_value (b, a->throttle_celsius);
      json_builder_set_member_name (b, "threshold_celsius");
      json_builder_add_double_value (b, a->throttle_threshold_c);
      json_builder_set_member_name (b, "bps_before");
      json_builder_add_double_value (b, a->throttle_bps_before);
      json_builder_set_member_name (b, "bps_after");
      json_builder_add_double_value (b, a->throttle_bps_after);
      json_builder_end_object (b);
    }
  json_builder_set_member_name (b, "summary");
  json_builder_add_string_value (b, a->summary);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* The first slow sample whose next few samples are mostly slow too, from @from (@n
 * when none): where fast bytes end. */
static guint
sustained_drop (const double *x,
                guint         from,
                guint         n,
                double        thr)
{
  guint i;

  for (i = from; i < n; i++)
    if (x[i] < thr && median_of (x, i, MIN (n, i + SUSTAIN_SAMPLES)) < thr)
      break;
  return i;
}

gboolean
nsc_analyze_fast_bytes (const guint64 *position,
                        const double  *bps,
                        guint          n,
                        double         fast_threshold_bps,
                        guint64       *out_fast_bytes,
                        GError       **error)
{
  g_autofree double *x = NULL;
  double thr;
  guint i;

  g_return_val_if_fail (n == 0 || (position != NULL && bps != NULL), FALSE);
  g_return_val_if_fail (out_fast_bytes != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *out_fast_bytes = 0;
  if (!isfinite (fast_threshold_bps) || fast_threshold_bps <= 0)
    {
      nsc_error_set (error, NSC_PROBLEM_FAST_THRESHOLD, &(NscErrorFields) { .x = fast_threshold_bps });
      return FALSE;
    }
  if (!validate_fill (position, bps, n, 1, error))
    return FALSE;

  x = filtered_log_speeds (bps, n);
  thr = log (fast_threshold_bps);
  i = sustained_drop (x, 0, n, thr);
  if (i == n)
    *out_fast_bytes = position[n - 1];
  else if (i > 0)
    {
      double va = exp (median_of (x, 0, i));
      double vb = exp (median_of (x, i, MIN (n, i + 4 * SUSTAIN_SAMPLES)));

      *out_fast_bytes = va > vb ? refine_bytes (position, bps, i, va, vb) : position[i - 1];
    }
  return TRUE;
}

gboolean
nsc_analyze_fast_back (const guint64 *position,
                       const double  *bps,
                       guint          n,
                       double         fast_threshold_bps,
                       guint64       *out_back_at,
                       guint64       *out_back_bytes)
{
  g_autofree double *x = NULL;
  double thr;
  guint i, j, k;

  g_return_val_if_fail (n == 0 || (position != NULL && bps != NULL), FALSE);
  if (out_back_at)
    *out_back_at = 0;
  if (out_back_bytes)
    *out_back_bytes = 0;
  if (!isfinite (fast_threshold_bps) || fast_threshold_bps <= 0 || !validate_fill (position, bps, n, 1, NULL))
    return FALSE;

  x = filtered_log_speeds (bps, n);
  thr = log (fast_threshold_bps);
  /* The drop nsc_analyze_fast_bytes ends the fast bytes at; past its stretch, a
   * fast sample whose next few (a whole window of them) are mostly fast too: the
   * speed came back. */
  i = sustained_drop (x, 0, n, thr);
  for (j = i + SUSTAIN_SAMPLES; j + SUSTAIN_SAMPLES <= n; j++)
    if (x[j] >= thr && median_of (x, j, j + SUSTAIN_SAMPLES) >= thr)
      break;
  if (j + SUSTAIN_SAMPLES > n)
    return FALSE;
  /* Until the next sustained drop, or the end. */
  k = sustained_drop (x, j + 1, n, thr);
  if (out_back_at)
    *out_back_at = position[j - 1];
  if (out_back_bytes)
    *out_back_bytes = position[k - 1] - position[j - 1];
  return TRUE;
}

gboolean
nsc_read_inflation (double  fresh_bps,
                    double  settled_bps,
                    double *ratio)
{
  double r = 0;

  if (isfinite (fresh_bps) && isfinite (settled_bps) && fresh_bps > 0 && settled_bps > 0)
    r = fresh_bps / settled_bps;
  if (ratio != NULL)
    *ratio = r;
  return r > NSC_READ_INFLATION_RATIO;
}

gboolean
nsc_read_settled_faster (double fresh_bps,
                         double settled_bps)
{
  return nsc_read_inflation (settled_bps, fresh_bps, NULL);
}

char *
nsc_read_inflation_message (double fresh_bps,
                            double settled_bps,
                            double fresh_age_s)
{
  g_autofree char *fresh = format_speed (fresh_bps);
  g_autofree char *settled = format_speed (settled_bps);
  g_autofree char *when = NULL;

  if (fresh_age_s < 0 || !isfinite (fresh_age_s))
    when = g_strdup ("freshly written data");
  else if (fresh_age_s < 90)
    when = g_strdup_printf ("data written %.0f s earlier", fresh_age_s);
  else
    when = g_strdup_printf ("data written %.0f min earlier", fresh_age_s / 60);

  return g_strdup_printf ("Read speed likely inflated by the SLC cache: %s on %s, "
                          "%s on settled data", fresh, when, settled);
}

int
nsc_steady_state (const double *rounds,
                  guint         n)
{
  const guint w = NSC_STEADY_STATE_ROUNDS;

  g_return_val_if_fail (n == 0 || rounds != NULL, -1);

  for (guint s = 0; s + w <= n; s++)
    {
      double sum = 0, min = INFINITY, max = -INFINITY, mean, sxy = 0, sxx = 0, slope;
      gboolean finite = TRUE;

      for (guint i = 0; i < w; i++)
        {
          double v = rounds[s + i];
          finite = finite && isfinite (v);
          sum += v;
          min = MIN (min, v);
          max = MAX (max, v);
        }
      mean = sum / w;
      if (!finite || mean <= 0)
        continue;
      for (guint i = 0; i < w; i++)
        {
          double dx = i - (w - 1) / 2.0;
          sxy += dx * (rounds[s + i] - mean);
          sxx += dx * dx;
        }
      slope = sxy / sxx;
      if (max - min <= NSC_STEADY_STATE_RANGE * mean &&
          fabs (slope) * (w - 1) <= NSC_STEADY_STATE_SLOPE * mean)
        return (int) (s + w - 1);
    }
  return -1;
}

GArray *
nsc_detect_throttling (const NscThermalInput *in,
                       GError               **error)
{
  g_autoptr(GArray) events = NULL;
  g_autoptr(GArray) segs = NULL;
  g_autofree double *x = NULL;
  double min_drop = -log (1 - NSC_THROTTLE_MIN_DROP);
  guint n;

  g_return_val_if_fail (in != NULL, NULL);
  g_return_val_if_fail (in->n == 0 || (in->t_s != NULL && in->bps != NULL), NULL);
  g_return_val_if_fail (in->n_temp == 0 || (in->temp_t_s != NULL && in->celsius != NULL), NULL);
  g_return_val_if_fail (in->n_thresholds == 0 || in->thresholds_c != NULL, NULL);
  g_return_val_if_fail (in->n_transitions == 0 || in->transitions_s != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  n = in->n;
  if (n < THROTTLE_MIN_SAMPLES)
    {
      nsc_error_set (error, NSC_PROBLEM_THROTTLE_TOO_FEW,
                     &(NscErrorFields) { .n = n, .n2 = THROTTLE_MIN_SAMPLES });
      return NULL;
    }
  if (!validate_times (NSC_ANALYSIS_SERIES_SPEED, in->t_s, n, error) ||
      !validate_times (NSC_ANALYSIS_SERIES_TEMPERATURE, in->temp_t_s, in->n_temp, error))
    return NULL;
  for (guint i = 0; i < n; i++)
    if (!isfinite (in->bps[i]) || in->bps[i] <= 0)
      {
        nsc_error_set (error, NSC_PROBLEM_THROTTLE_SPEED, &(NscErrorFields) { .n = i, .x = in->bps[i] });
        return NULL;
      }
  if (!validate_celsius (in->celsius, in->n_temp, error))
    return NULL;

  events = g_array_new (FALSE, FALSE, sizeof (NscThrottleEvent));
  x = filtered_log_speeds (in->bps, n);
  segs = segment (x, n);

  for (guint j = 1; j < segs->len; j++)
    {
      const Segment *prev = &g_array_index (segs, Segment, j - 1);
      const Segment *cur = &g_array_index (segs, Segment, j);
      double va = exp (prev->level), vb = exp (cur->level);
      double tb;
      NscThrottleEvent ev;
      guint b = cur->start;

      if (prev->level - cur->level < min_drop || !is_local_step (segs, j, x, min_drop))
        continue;

      /* When the step happened: the straddling sample's speed says where. */
      tb = b >= 2 ? in->t_s[b - 2] : in->t_s[0] - (in->t_s[1] - in->t_s[0]);
      for (guint i = b - 1; i <= b; i++)
        {
          double start = i > 0 ? in->t_s[i - 1] : in->t_s[0] - (in->t_s[1] - in->t_s[0]);
          tb += boundary_share (in->bps[i], va, vb, FALSE) * (in->t_s[i] - start);
        }

      ev.t_s = tb;
      ev.bps_before = va;
      ev.bps_after = vb;
      ev.celsius = in->n_temp > 0 ? interpolate (in->temp_t_s, in->celsius, in->n_temp, tb) : NAN;
      ev.threshold_celsius = NAN;
      ev.cause = NSC_THROTTLE_CAUSE_THRESHOLD;

      /* An upward crossing of a known threshold near the step, the nearest one. */
      if (threshold_crossing (in->temp_t_s, in->celsius, in->n_temp, in->thresholds_c,
                              in->n_thresholds, tb, &ev.threshold_celsius))
        {
          g_array_append_val (events, ev);
          continue;
        }

      for (guint k = 0; k < in->n_transitions; k++)
        if (fabs (in->transitions_s[k] - tb) <= NSC_THROTTLE_COINCIDENCE_S)
          {
            ev.cause = NSC_THROTTLE_CAUSE_COUNTER;
            g_array_append_val (events, ev);
            break;
          }
      if (ev.cause == NSC_THROTTLE_CAUSE_COUNTER)
        continue;

      /* Nothing known about the drive's limits: the step must come at the hottest
       * point so far of a temperature that has risen. */
      if (in->n_thresholds == 0 && in->n_transitions == 0 && in->n_temp > 0)
        {
          double lo = INFINITY, hi = -INFINITY;

          for (guint i = 0; i < in->n_temp && in->temp_t_s[i] <= tb; i++)
            {
              lo = MIN (lo, in->celsius[i]);
              hi = MAX (hi, in->celsius[i]);
            }
          if (isfinite (lo) &&
              ev.celsius >= hi - THROTTLE_NEAR_MAX_C &&
              ev.celsius >= lo + THROTTLE_MIN_RISE_C)
            {
              ev.cause = NSC_THROTTLE_CAUSE_TEMPERATURE;
              g_array_append_val (events, ev);
            }
        }
    }
  return g_steal_pointer (&events);
}

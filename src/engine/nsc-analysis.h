/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "nsc-series.h"

G_BEGIN_DECLS

/* The analysis turns raw series into what a reviewer would say about them. Pure
 * functions: no I/O, no threads, no global state; speeds in bytes/s, sizes in bytes. */

/* A drop of at least this fraction (after ≤ 0.70 × before) ends the SLC cache. */
#define NSC_SLC_MIN_DROP              0.30
/* A cache is decided by bytes and samples, not seconds (a fast drive empties a small
 * or shrunken cache in well under a second). Its fast samples after the first one
 * (which may be no more than the queue filling the drive's buffer) must hold at least
 * this many bytes, and so must the slow stretch after the drop. In samples, the
 * segmentation asks for 3 in the first segment and 5 in any later one. */
#define NSC_SLC_MIN_BYTES             (G_GUINT64_CONSTANT (128) << 20)
/* After a drop, a stretch back at this share of the cache's speed makes the slow part
 * a passing dip, if the dip holds fewer bytes than the fast stretch before it and the
 * one after it; otherwise the drop ends the cache and the later stretch is a burst. */
#define NSC_SLC_RECOVERY_SHARE        0.85
/* Neighbouring segments whose speeds differ by less than this ratio are one phase. */
#define NSC_SEGMENT_MERGE_RATIO       1.15
/* The series whose times an analysis checks, in the n2 of NSC_PROBLEM_SERIES_TIME_ORDER. */
typedef enum
{
  NSC_ANALYSIS_SERIES_SPEED,
  NSC_ANALYSIS_SERIES_TEMPERATURE,
} NscAnalysisSeries;

/* A write-fill series shorter than this says nothing about a cache. */
#define NSC_WRITE_FILL_MIN_SAMPLES    10
/* Fresh reads this much faster than settled ones are likely served by the cache. */
#define NSC_READ_INFLATION_RATIO      1.3
/* SNIA PTS steady state: window, data excursion and slope excursion. */
#define NSC_STEADY_STATE_ROUNDS       5
#define NSC_STEADY_STATE_RANGE        0.20
#define NSC_STEADY_STATE_SLOPE        0.10
/* A speed step down of at least this fraction may be throttling… */
#define NSC_THROTTLE_MIN_DROP         0.25
/* …when a threshold crossing or a thermal transition lies within this many seconds. */
#define NSC_THROTTLE_COINCIDENCE_S    5.0

typedef struct
{
  guint64 start_bytes;
  guint64 end_bytes;
  double  bps;            /* robust level of the phase (outliers ignored) */
} NscPhase;

/* A later fast stretch after the cache (the drive freeing cache while writing). */
typedef struct
{
  guint64 start_bytes;
  guint64 bytes;
  double  bps;
} NscBurst;

/* What may hold the target's writes in memory before the drive: nothing known; a
 * virtual or network disk's host or server, or a filesystem with a write cache of
 * its own (possible); this machine's memory (a loop device over a file without
 * direct I/O, a folder in memory: certain). Ordered by certainty. */
typedef enum
{
  NSC_SYSTEM_CACHE_NONE,
  NSC_SYSTEM_CACHE_POSSIBLE,
  NSC_SYSTEM_CACHE_MEMORY,
} NscSystemCache;

const char    *nsc_system_cache_to_string   (NscSystemCache  cache);
/* The other way; NSC_SYSTEM_CACHE_NONE for NULL or anything else. */
NscSystemCache nsc_system_cache_from_string (const char     *text);

/* What that is: @kind "loop" (@device over the file @detail, without direct I/O),
 * "nbd", "virtio", "xen", "ram-disk" (zram, brd: @device), "emulated" (@device, its model @detail),
 * "memory-fs" (a folder on the filesystem @detail in memory), "network-fs" (@detail:
 * nfs, cifs, fuse), "zfs". */
typedef struct
{
  NscSystemCache certainty;
  char          *kind;
  char          *device;
  char          *detail;
} NscSystemCacheInfo;

void  nsc_system_cache_info_clear (NscSystemCacheInfo       *info);
void  nsc_system_cache_info_copy  (NscSystemCacheInfo       *dest,
                                   const NscSystemCacheInfo *src);
/* "loop0, a loop device over /var/tmp/disk.img without direct I/O", in English (the
 * result's summary); nsc_words_system_cache_phrase says it in the user's language. */
char *nsc_system_cache_phrase     (const NscSystemCacheInfo *info);
/* The English format of @info's phrase (marked for the translators) and the device or
 * detail it takes first and second; NULL for a kind without one. */
const char *nsc_system_cache_phrase_format (const NscSystemCacheInfo  *info,
                                            const char               **first,
                                            const char               **second);
/* @format with its first "%s" replaced by @first and its second by @second (formats
 * from a table or a catalogue: no printf on them). */
char *nsc_phrase_fill             (const char               *format,
                                   const char               *first,
                                   const char               *second);
/* {"certainty", "kind", "device"?, "detail"?} as the next value of @builder. */
void  nsc_system_cache_info_build (const NscSystemCacheInfo *info,
                                   JsonBuilder              *builder);

typedef enum
{
  NSC_DROP_NONE,              /* no sustained drop: no cache seen */
  NSC_DROP_CACHE_END,         /* the first sustained drop ends the SLC cache */
  NSC_DROP_THERMAL,           /* the drop came as the drive reached a throttle temperature */
  NSC_DROP_SYSTEM_CACHE,      /* the fast region was this machine's memory, not the drive's */
} NscDropCause;

typedef struct
{
  gboolean  has_cache;
  guint64   cache_bytes;    /* where the first sustained drop begins; 0 without a cache */
  double    in_cache_bps;   /* 0 without a cache */
  double    post_cache_bps; /* 0 without a cache */
  double    average_bps;    /* total bytes / total time, outliers included */
  guint64   total_bytes;
  NscPhase *phases;         /* in order, contiguous from 0 to total_bytes */
  guint     n_phases;
  /* Bytes after the cache over their time, bursts and slow stretches alike; 0 without
   * a cache. */
  double    post_cache_avg_bps;
  NscBurst *bursts;         /* post-cache runs of phases a step above the one before */
  guint     n_bursts;
  NscDropCause drop_cause;
  /* With NSC_DROP_THERMAL: the drop (has_cache is then FALSE: the cache's end is not
   * seen). throttle_threshold_c is the crossed threshold. */
  guint64   throttle_bytes;
  double    throttle_t_s;
  double    throttle_celsius;
  double    throttle_threshold_c;
  double    throttle_bps_before;
  double    throttle_bps_after;
  /* What may hold writes in memory before the drive: with NSC_SYSTEM_CACHE_MEMORY a
   * fast region is this machine's (has_cache FALSE, NSC_DROP_SYSTEM_CACHE, the
   * region's figures kept in cache_bytes, in_cache_bps and post_cache_bps); with
   * either, the verdict is "not verified" but for that. */
  NscSystemCacheInfo system_cache;
  char     *summary;        /* "SLC cache about 6.5 GiB at 970 MiB/s; after it 470 MiB/s" */
} NscSlcAnalysis;

/* The drive's temperature during a fill, to tell throttling from the cache's end. */
typedef struct
{
  const double *t_s;            /* end of each speed sample, on the clock of temp_t_s */
  const double *temp_t_s;       /* temperature samples, increasing */
  const double *celsius;
  guint         n_temp;
  const double *thresholds_c;   /* the drive's throttle temperatures (WCTEMP, TMT1…) */
  guint         n_thresholds;
} NscFillTemperature;

/**
 * nsc_analyze_write_fill:
 * @position: bytes written at the end of each sample, strictly increasing
 * @bps: speed of each sample, > 0
 * @n: number of samples, at least %NSC_WRITE_FILL_MIN_SAMPLES
 *
 * Segments the speed-vs-bytes curve of a fill (change points on log speed, after a
 * Hampel filter removes isolated outliers) and finds the SLC cache: the part before
 * the first sustained drop of at least %NSC_SLC_MIN_DROP.
 *
 * Returns: the analysis, or %NULL with @error set for input that cannot be analysed.
 */
NscSlcAnalysis *nsc_analyze_write_fill        (const guint64        *position,
                                               const double         *bps,
                                               guint                 n,
                                               GError              **error);
/**
 * nsc_analyze_write_fill_thermal:
 * @temperature: (nullable): the drive's temperature and throttle thresholds
 *
 * The same, and a first sustained drop that coincides (within
 * %NSC_THROTTLE_COINCIDENCE_S) with the temperature crossing one of the thresholds
 * upwards is thermal throttling, not the cache's end (drop_cause %NSC_DROP_THERMAL).
 * Without thresholds no drop is called thermal: a drive warms as it fills, and its
 * cache's end comes at its hottest point so far whether it throttles or not.
 */
NscSlcAnalysis *nsc_analyze_write_fill_thermal (const guint64             *position,
                                                const double              *bps,
                                                guint                      n,
                                                const NscFillTemperature  *temperature,
                                                GError                   **error);
/* The same on a recorded series; samples that completed nothing (stalls) add their
 * time to the next sample instead of being dropped. */
NscSlcAnalysis *nsc_analyze_write_fill_series (NscSeries            *series,
                                               GError              **error);
/* …with the step's temperature (t_ns from the start of the step, as the series') and
 * the drive's throttle thresholds; any of them may be empty. */
NscSlcAnalysis *nsc_analyze_write_fill_series_thermal (NscSeries     *series,
                                                       const gint64  *temp_t_ns,
                                                       const double  *celsius,
                                                       guint          n_temp,
                                                       const double  *thresholds_c,
                                                       guint          n_thresholds,
                                                       GError       **error);
void            nsc_slc_analysis_free         (NscSlcAnalysis       *analysis);
/* What may hold the writes in memory before the drive: with NSC_SYSTEM_CACHE_MEMORY a cache found is this
 * machine's memory (NSC_DROP_SYSTEM_CACHE); with either, the summary says the drive's
 * behaviour is not verified. */
void            nsc_slc_analysis_set_system_cache (NscSlcAnalysis           *analysis,
                                                   const NscSystemCacheInfo *cache);
/* {"has_cache", "cache_bytes", "in_cache_bps", "post_cache_bps", "post_cache_avg_bps",
 *  "average_bps", "total_bytes", "phases": [{"start_bytes", "end_bytes", "bps"}],
 *  "bursts": [{"start_bytes", "bytes", "bps"}], "drop_cause": "cache-end" |
 *  "thermal-throttling" | "system-cache" | null, "throttle"?: {"bytes", "t_s",
 *  "celsius", "threshold_celsius", "bps_before", "bps_after"}, "verdict": "cache" |
 *  "no-cache" | "thermal-throttling" | "system-cache" | "not-verified",
 *  "system_cache"?: {"certainty": "memory" | "possible", "kind", "device"?, "detail"?},
 *  "summary"};
 * the speeds of a missing cache are null. */
JsonNode       *nsc_slc_analysis_to_json      (const NscSlcAnalysis *analysis);

/**
 * nsc_analyze_fast_bytes:
 * @fast_threshold_bps: what counts as fast, e.g. the geometric mean of a fill's
 *   in-cache and post-cache speeds
 * @out_fast_bytes: (out): bytes written at or above the threshold from the start,
 *   before the first sustained drop below it
 *
 * How much cache a drive has (again): after an idle pause, the bytes it takes fast.
 */
gboolean        nsc_analyze_fast_bytes        (const guint64        *position,
                                               const double         *bps,
                                               guint                 n,
                                               double                fast_threshold_bps,
                                               guint64              *out_fast_bytes,
                                               GError              **error);

/**
 * nsc_analyze_fast_back:
 * @out_back_at: (out) (optional): bytes into the step where the speed came back
 * @out_back_bytes: (out) (optional): how long it stayed fast then
 *
 * Whether, after the drop nsc_analyze_fast_bytes() ends the fast bytes at and its
 * slow stretch, the speed came back above @fast_threshold_bps for a sustained stretch
 * (as long as the one that made the drop): then that drop was not plainly the cache's
 * end. FALSE when it did not, or the samples are not a fill.
 */
gboolean        nsc_analyze_fast_back         (const guint64        *position,
                                               const double         *bps,
                                               guint                 n,
                                               double                fast_threshold_bps,
                                               guint64              *out_back_at,
                                               guint64              *out_back_bytes);

/* TRUE when fresh/settled > %NSC_READ_INFLATION_RATIO. @ratio (optional) gets
 * fresh/settled, or 0 when either speed is not a positive number. */
gboolean        nsc_read_inflation            (double                fresh_bps,
                                               double                settled_bps,
                                               double               *ratio);
/* TRUE when settled/fresh > %NSC_READ_INFLATION_RATIO: settled data should read no
 * faster than fresh data, so the check's premise does not hold. FALSE when either
 * speed is not a positive number. */
gboolean        nsc_read_settled_faster       (double                fresh_bps,
                                               double                settled_bps);
/* "Read speed likely inflated by the SLC cache: 2956 MiB/s on data written 1 s
 * earlier, 1144 MiB/s on settled data". @fresh_age_s < 0 when unknown. */
char           *nsc_read_inflation_message    (double                fresh_bps,
                                               double                settled_bps,
                                               double                fresh_age_s);

/* Index of the last round of the first SNIA PTS steady-state window (range ≤ 20 % of
 * the window mean, least-squares excursion ≤ 10 %), or -1 if there is none. */
int             nsc_steady_state              (const double         *rounds,
                                               guint                 n);

typedef enum
{
  NSC_THROTTLE_CAUSE_THRESHOLD,    /* the temperature crossed a known threshold */
  NSC_THROTTLE_CAUSE_COUNTER,      /* a thermal-management transition was counted */
  NSC_THROTTLE_CAUSE_TEMPERATURE,  /* no threshold known: the step came at the hottest
                                    * point so far of a temperature that rose */
} NscThrottleCause;

typedef struct
{
  double           t_s;               /* time of the step */
  double           bps_before;
  double           bps_after;
  double           celsius;           /* temperature at the step; NAN if not sampled */
  double           threshold_celsius; /* the crossed threshold; NAN otherwise */
  NscThrottleCause cause;
} NscThrottleEvent;

typedef struct
{
  const double *t_s;            /* speed samples: end time of each, increasing */
  const double *bps;
  guint         n;
  const double *temp_t_s;       /* temperature samples, increasing; optional */
  const double *celsius;
  guint         n_temp;
  const double *thresholds_c;   /* WCTEMP, CCTEMP, TMT1, TMT2…; optional */
  guint         n_thresholds;
  const double *transitions_s;  /* times at which a thermal transition count grew */
  guint         n_transitions;
} NscThermalInput;

/**
 * nsc_detect_throttling:
 *
 * Finds sustained speed steps down of at least %NSC_THROTTLE_MIN_DROP that coincide
 * (within %NSC_THROTTLE_COINCIDENCE_S) with the temperature crossing a threshold
 * upwards or with a thermal transition. Without thresholds and transitions, a step
 * counts when it comes at the hottest point so far of a temperature that rose by
 * at least 5 °C.
 *
 * Returns: (transfer full): an array of #NscThrottleEvent (possibly empty), or %NULL
 *   with @error set.
 */
GArray         *nsc_detect_throttling         (const NscThermalInput *input,
                                               GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscSlcAnalysis, nsc_slc_analysis_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "nsc-offsets.h"

G_BEGIN_DECLS

typedef enum
{
  NSC_DATA_RANDOM,  /* incompressible, every 4 KiB block different */
  NSC_DATA_ZEROS,
  NSC_DATA_COMPRESSIBLE,  /* half of every 4 KiB random, half zeros: compresses to ~50 % */
  NSC_DATA_VERIFY,  /* blocks that name their place and the run (nsc-verify): writes carry
                     * them, reads check them and count bad blocks instead of failing */
} NscDataPattern;

#define NSC_JOB_MIN_BLOCK_SIZE   512
#define NSC_JOB_MAX_BLOCK_SIZE   (G_GUINT64_CONSTANT (64) << 20)
#define NSC_JOB_MAX_QUEUE_DEPTH  1024
#define NSC_JOB_MAX_WORKERS      64
/* Every in-flight I/O has a buffer of its own; this bounds their sum for one job. */
#define NSC_JOB_MAX_BUFFER_BYTES (G_GUINT64_CONSTANT (1) << 30)

/* One I/O job: a plain value, copied freely. */
typedef struct
{
  char            label[64];          /* "SEQ1M Q8T1"; empty: derived */
  NscPattern      pattern;
  guint           read_percent;       /* 0 .. 100 */
  guint64         block_size;
  guint           queue_depth;        /* per worker */
  guint           workers;
  gboolean        shared_region;      /* all workers over the whole region, else disjoint slices */
  guint64         region_offset;
  guint64         region_length;      /* 0: to the end of the target */
  gint64          time_ns;            /* stop after this long (0: no limit) */
  guint64         bytes;              /* stop after this many bytes (0: no limit) */
  gboolean        once;               /* stop when every block of the region was done once */
  gint64          ramp_ns;            /* run, but do not count, this long first */
  NscDataPattern  data;
  gint64          sample_interval_ns; /* 0: automatic (1 s, finer for short jobs) */
  guint64         sample_bytes;       /* also sample whenever this much was done (0: no) */
  guint64         seed;
  guint64         verify_key;         /* NSC_DATA_VERIFY: the run's key its data carries */
} NscJob;

void         nsc_job_init          (NscJob      *job);
/* "read", "write", "randread", "randwrite", "rw", "randrw" (fio's names). */
gboolean     nsc_job_set_rw        (NscJob      *job,
                                    const char  *rw,
                                    GError     **error);
const char  *nsc_job_get_rw        (const NscJob *job);
/* Checks the job on its own: bounds and a stop condition. */
gboolean     nsc_job_validate      (const NscJob *job,
                                    GError     **error);
/* The CrystalDiskMark-style name: "SEQ1M Q8T1", "RND4K Q32T16". */
char        *nsc_job_describe      (const NscJob *job);
const char  *nsc_job_get_label     (const NscJob *job,
                                    char         *scratch,
                                    gsize         scratch_len);
gboolean     nsc_job_has_reads     (const NscJob *job);
gboolean     nsc_job_has_writes    (const NscJob *job);
gint64       nsc_job_sample_interval (const NscJob *job);

const char  *nsc_data_pattern_to_string   (NscDataPattern  data);
gboolean     nsc_data_pattern_from_string (const char     *text,
                                           NscDataPattern *out,
                                           GError        **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Data that names its own place: every 4 KiB block written for a check carries a
 * header (a mark, its offset, the run's key) and a body drawn from those two, so a
 * read can tell, with nothing stored, whether a block holds what was written there,
 * another block's data (a drive that wraps past its real capacity), an earlier run's,
 * zeros (writes lost or trimmed), damaged data or something else. */
#define NSC_VERIFY_UNIT 4096u
#define NSC_VERIFY_LAT_BUCKETS 176   /* up to 2^44 ns, over four hours */

typedef enum
{
  NSC_VERIFY_OK,          /* the data written there */
  NSC_VERIFY_ZEROS,       /* all zeros: the write was lost, or the block was trimmed */
  NSC_VERIFY_ALIAS,       /* this run's data of another offset: the drive wraps */
  NSC_VERIFY_STALE,       /* this offset's or another's data from an earlier run */
  NSC_VERIFY_CORRUPT,     /* this run's block with bits changed */
  NSC_VERIFY_OTHER,       /* none of the above: unwritten flash, someone's old data */
  NSC_VERIFY_UNREADABLE,  /* the read failed */
  NSC_VERIFY_N_KINDS
} NscVerifyKind;

typedef struct
{
  guint64       blocks[NSC_VERIFY_N_KINDS];  /* 4 KiB blocks of each kind */
  guint64       first_bad;        /* offset of the first block that is not OK, or G_MAXUINT64 */
  NscVerifyKind first_bad_kind;
  guint64       alias_offset;     /* the first aliasing block (lowest offset) */
  guint64       alias_echo;       /* the offset whose data it returned */
  guint64       alias_period;     /* the smallest distance between a block and its echo:
                                   * the capacity a wrapping drive really has */
  guint64       corrupt_bits;     /* bits that differ in corrupt blocks */
  /* The reads checked, by how long each took (a quarter of an octave of ns a bucket),
   * with the first offset of each bucket: which reads were slow is known only once
   * their usual time is (nsc_verify_slow). */
  guint64       read_count[NSC_VERIFY_LAT_BUCKETS];
  guint64       read_first[NSC_VERIFY_LAT_BUCKETS];
  guint64       slowest_ns;       /* the slowest read, and its offset */
  guint64       slowest_offset;
} NscVerifyTally;

/* The slow reads of a check: those that took at least ten times the usual (median)
 * read, and at least NSC_VERIFY_SLOW_FLOOR_NS (a drive's hiccup at queue depth is not
 * a weak block): a block the drive reads only after retries, or flash wearing out. */
typedef struct
{
  guint64 reads;          /* the reads timed */
  guint64 median_ns;      /* the usual read */
  guint64 threshold_ns;   /* slow from here */
  guint64 slow_reads;
  guint64 first_offset;   /* the first slow read's offset (G_MAXUINT64: none) */
  guint64 slowest_ns;
  guint64 slowest_offset;
} NscVerifySlow;

#define NSC_VERIFY_SLOW_FACTOR   10
#define NSC_VERIFY_SLOW_FLOOR_NS G_GUINT64_CONSTANT (50000000)

void          nsc_verify_tally_init (NscVerifyTally       *tally);
/* Fills @buf (@len a multiple of NSC_VERIFY_UNIT) with the data of @offset for @key. */
void          nsc_verify_fill       (guint8               *buf,
                                     gsize                 len,
                                     guint64               offset,
                                     guint64               key);
/* Checks what a read of @offset returned, block by block, into @tally. */
void          nsc_verify_check      (const guint8         *buf,
                                     gsize                 len,
                                     guint64               offset,
                                     guint64               key,
                                     NscVerifyTally       *tally);
/* One block's verdict; @echo gets the offset named in an alias's or stale block's header. */
NscVerifyKind nsc_verify_block      (const guint8         *block,
                                     guint64               offset,
                                     guint64               key,
                                     guint64              *echo,
                                     guint64              *bits);
void          nsc_verify_unreadable (NscVerifyTally       *tally,
                                     guint64               offset,
                                     gsize                 len);
/* A read of @offset (checked, or failed) took @ns. */
void          nsc_verify_timed      (NscVerifyTally       *tally,
                                     guint64               offset,
                                     guint64               ns);
void          nsc_verify_slow       (const NscVerifyTally *tally,
                                     NscVerifySlow        *slow);
void          nsc_verify_merge      (NscVerifyTally       *into,
                                     const NscVerifyTally *from);
guint64       nsc_verify_bad_blocks (const NscVerifyTally *tally);
const char   *nsc_verify_kind_name  (NscVerifyKind         kind);

G_END_DECLS

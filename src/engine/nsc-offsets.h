/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  NSC_PATTERN_SEQUENTIAL,
  NSC_PATTERN_RANDOM,
} NscPattern;

/* Maps an I/O's sequence number (its "ticket") to an offset, with no state of its own:
 * any number of threads can share one generator and one atomic ticket counter.
 * Sequential: block (ticket mod n). Random: a keyed permutation of the region's
 * blocks, fresh for every pass, so each pass touches every block exactly once (what
 * fio does with its random map) at a few nanoseconds per I/O. */
typedef struct
{
  NscPattern pattern;
  guint64    start;
  guint64    block_size;
  guint64    n_blocks;
  guint64    first_block;  /* sequential: where ticket 0 starts */
  guint64    seed;
  guint64    mask;
  guint      bits;
} NscOffsetGen;

gboolean nsc_offset_gen_init  (NscOffsetGen  *gen,
                               NscPattern     pattern,
                               guint64        start,
                               guint64        length,
                               guint64        block_size,
                               guint64        seed,
                               GError       **error);
/* Block index (0 .. n_blocks-1) of @ticket. */
guint64  nsc_offset_gen_block (const NscOffsetGen *gen,
                               guint64             ticket);

static inline guint64
nsc_offset_gen_at (const NscOffsetGen *gen,
                   guint64             ticket)
{
  return gen->start + nsc_offset_gen_block (gen, ticket) * gen->block_size;
}

/* A well-mixed 64-bit hash (splitmix64's finaliser). */
static inline guint64
nsc_mix64 (guint64 x)
{
  x += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return x ^ (x >> 31);
}

G_END_DECLS

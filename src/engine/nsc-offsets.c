/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "nsc-error.h"
#include "nsc-offsets.h"

gboolean
nsc_offset_gen_init (NscOffsetGen  *gen,
                     NscPattern     pattern,
                     guint64        start,
                     guint64        length,
                     guint64        block_size,
                     guint64        seed,
                     GError       **error)
{
  g_return_val_if_fail (gen != NULL, FALSE);

  if (block_size == 0 || length < block_size)
    {
      nsc_error_set (error, NSC_PROBLEM_REGION_BELOW_BLOCK,
                     &(NscErrorFields) { .bytes = length, .bytes2 = block_size });
      return FALSE;
    }

  gen->pattern = pattern;
  gen->start = start;
  gen->block_size = block_size;
  gen->n_blocks = length / block_size;
  gen->first_block = 0;
  gen->seed = seed;
  gen->bits = 0;
  while (gen->bits < 64 && (G_GUINT64_CONSTANT (1) << gen->bits) < gen->n_blocks)
    gen->bits++;
  gen->mask = gen->bits >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << gen->bits) - 1;

  return TRUE;
}

/* A bijection on [0, 2^bits): rounds of add-key, multiply by an odd constant and
 * xorshift, each invertible modulo 2^bits. */
static inline guint64
permute_pow2 (const NscOffsetGen *gen,
              guint64             x,
              guint64             key)
{
  guint shift = MAX (1u, gen->bits / 2);

  for (guint r = 0; r < 3; r++)
    {
      x = (x + (key >> (r * 8))) & gen->mask;
      x = (x * (G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) | 1)) & gen->mask;
      x ^= x >> shift;
    }
  return x;
}

guint64
nsc_offset_gen_block (const NscOffsetGen *gen,
                      guint64             ticket)
{
  guint64 pass = ticket / gen->n_blocks;
  guint64 index = ticket % gen->n_blocks;
  guint64 key, x;

  if (gen->pattern == NSC_PATTERN_SEQUENTIAL)
    return (index + gen->first_block) % gen->n_blocks;

  if (gen->n_blocks == 1)
    return 0;

  /* Cycle-walking keeps the permutation inside [0, n): since 2^bits < 2n, fewer
   * than two steps are needed on average. */
  key = nsc_mix64 (gen->seed ^ nsc_mix64 (pass));
  x = permute_pow2 (gen, index, key);
  while (x >= gen->n_blocks)
    x = permute_pow2 (gen, x, key);

  return x;
}

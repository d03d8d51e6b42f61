/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Every warning Nandscope gives, declared once: X (NAME, "code", MARKS), where the
 * code is the stable name results and scripts use, and MARKS says whether the warning
 * puts a mark on the test it concerns (its figure is not what it seems). The words are
 * nsc_warning_describe ()'s, one describer per kind (nsc-words.c); tests iterate this
 * list, so a kind without words, Russian or a producer fails them. */
#define NSC_WARNING_KINDS(X)                                                   \
  X (INSIDE_SLC_CACHE, "inside-slc-cache", TRUE)                               \
  X (CACHE_EXHAUSTED_DURING_TEST, "cache-exhausted-during-test", TRUE)         \
  X (THERMAL_THROTTLING, "thermal-throttling", FALSE)                          \
  X (READ_INFLATION, "read-inflation", TRUE)                                   \
  X (READ_INFLATION_NOT_VERIFIED, "read-inflation-not-verified", TRUE)         \
  X (FRESH_READS, "fresh-reads", TRUE)                                         \
  X (UNVERIFIED_CONTENTS, "unverified-contents", TRUE)                         \
  X (BLOCK_SIZE_UNSUPPORTED, "block-size-unsupported", FALSE)                  \
  X (BACKEND_FALLBACK, "backend-fallback", FALSE)                              \
  X (TRIM_NOT_PASSED_DOWN, "trim-not-passed-down", FALSE)                      \
  X (STRICT_SKIPPED, "strict-skipped", TRUE)                                   \
  X (NOT_DIRECT_TO_DRIVE, "not-direct-to-drive", FALSE)                        \
  X (SYSTEM_CACHE_MEMORY, "system-cache-memory", FALSE)                        \
  X (SYSTEM_CACHE_POSSIBLE, "system-cache-possible", FALSE)                    \
  X (ENCRYPTION_MEASURED, "encryption-measured", FALSE)                        \
  X (RAID_MEASURED, "raid-measured", FALSE)                                    \
  X (WRITE_CACHE_OFF, "write-cache-off", FALSE)                                \
  X (COMPRESSING_CONTROLLER, "compressing-controller", FALSE)                  \
  X (PCIE_LINK_BELOW_MAX, "pcie-link-below-max", FALSE)                        \
  X (IDENTITY_SUSPECT, "identity-suspect", FALSE)

typedef enum
{
  NSC_WARNING_UNKNOWN = -1,  /* a code this version does not know (a newer result's) */
#define NSC_WARNING_ENUM_(name, code, marks) NSC_WARNING_##name,
  NSC_WARNING_KINDS (NSC_WARNING_ENUM_)
#undef NSC_WARNING_ENUM_
  NSC_N_WARNING_KINDS
} NscWarningKind;

/* The kind's stable code; NULL for NSC_WARNING_UNKNOWN. */
const char     *nsc_warning_kind_code         (NscWarningKind kind);
/* The kind of @code, NSC_WARNING_UNKNOWN when this version does not know it. */
NscWarningKind  nsc_warning_kind_from_code    (const char    *code);
/* Whether a warning of @kind marks the test it concerns. */
gboolean        nsc_warning_kind_marks_result (NscWarningKind kind);

/* A warning: a stable code and the numbers behind it. Front ends make the sentence
 * from the code and the fields (nsc_warning_describe (), in the user's language and
 * units); @message is the same in English, kept in the result for scripts.
 *
 * Fields a code sets (unset: NULL, NAN or -1):
 *   test                             the test's label ("SEQ1M Q8T1"), where one applies
 *   bps_before, bps_after            speeds before and after a drop (thermal-throttling,
 *                                    cache-exhausted-during-test)
 *   bytes                            where it dropped (the same), what a write wrote
 *                                    (inside-slc-cache), the direct-I/O unit
 *                                    (block-size-unsupported), written since
 *                                    (read-inflation-not-verified)
 *   bytes_before, cache_bytes        written since the drive rested, the cache measured
 *                                    (inside-slc-cache)
 *   seconds                          when it dropped (thermal-throttling without
 *                                    bytes), the data's age (fresh-reads, read-inflation)
 *   celsius, celsius_limit           the temperature, and the drive's threshold
 *   bps_fresh, bps_settled           read-inflation, read-inflation-not-verified
 *   bps_random, bps_compressible,
 *   bps_zeros                        compressing-controller
 *   subject                          the filesystem (not-direct-to-drive), the reason
 *                                    (unverified-contents: "read-only" or "surface";
 *                                    backend-fallback: the error), the device
 *                                    (block-size-unsupported)
 *   link_generation, link_width,
 *   link_max_generation,
 *   link_max_width                   pcie-link-below-max
 *   subject, vendor_id,
 *   expected_vendor_id               identity-suspect: the maker the model names, the
 *                                    controller's PCI vendor ID, that maker's */
typedef struct
{
  NscWarningKind kind;
  char   *code;      /* the kind's code, or a newer result's unknown one */
  char   *message;   /* in English, for scripts */
  int     step;      /* the step it concerns, -1 for the whole run */
  char   *position;  /* "inside-slc-cache": inside, across, after or unknown; else NULL */
  char   *test;
  char   *subject;
  /* system-cache-*: what may hold writes in memory (NscSystemCacheInfo's kind,
   * device and detail) */
  char   *cache_kind;
  char   *cache_device;
  char   *cache_detail;
  double  bps_before;
  double  bps_after;
  double  bps_fresh;
  double  bps_settled;
  double  bps_random;
  double  bps_compressible;
  double  bps_zeros;
  gint64  bytes;
  gint64  bytes_before;
  gint64  cache_bytes;
  double  seconds;
  double  celsius;
  double  celsius_limit;
  int     link_generation;
  int     link_width;
  int     link_max_generation;
  int     link_max_width;
  int     vendor_id;
  int     expected_vendor_id;
} NscWarning;

/* A warning of @kind about @step (-1: the whole run), every field unset. */
NscWarning *nsc_warning_new       (NscWarningKind    kind,
                                   int               step);
void        nsc_warning_free      (NscWarning       *warning);
NscWarning *nsc_warning_copy      (const NscWarning *warning);
void        nsc_warning_set_message (NscWarning     *warning,
                                     const char     *format,
                                     ...) G_GNUC_PRINTF (2, 3);
/* The result's JSON of a warning: code, message, step, position and the set fields. */
void        nsc_warning_to_json   (const NscWarning *warning,
                                   JsonBuilder      *builder);
/* Back from a saved result (older results have only code, message and step). */
NscWarning *nsc_warning_from_json (JsonObject       *object);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscWarning, nsc_warning_free)

G_END_DECLS

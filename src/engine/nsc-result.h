/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "nsc-analysis.h"
#include "nsc-io.h"
#include "nsc-preset.h"
#include "nsc-warning.h"

G_BEGIN_DECLS

#define NSC_RESULT_SCHEMA 1


typedef struct
{
  gint64 t_ns;     /* from the start of the step */
  double celsius;
} NscTempSample;

typedef struct
{
  NscStep    step;               /* as planned, label resolved */
  GPtrArray *runs;               /* NscJobResult, one per run */
  guint64    prefilled_bytes;    /* written first so that reads met real data */
  gboolean   contents_verified;  /* every read went to blocks this run wrote */
  gint64     idle_before_ns;     /* idle right before the step */
  gint64     data_age_ns;        /* reads: since the newest write to their region; -1 none */
  guint64    bytes_written_since; /* reads: written to the target after that write */
  gboolean   span_clamped;       /* the region was cut to the target or to --span */
  gboolean   fresh_data;         /* reads met data written less than a minute before */
  guint64    trimmed_bytes;      /* TRIM steps */
  guint64    trimmed_before_bytes; /* job steps in strict mode: TRIM right before */
  const char *trim_method;
  char      *erase_method;       /* erase steps: "BLKDISCARD", "punch hole", "format", "sanitize" */
  gboolean   discard_reaches_drive;  /* TRIM steps: the drive learnt of it at once */
  gint64     duration_ns;        /* idle, fill and TRIM steps */
  guint      copy_files;         /* copy steps: how many files were copied */
  gboolean   copy_scaled;        /* copy steps: less than asked, for the free space */
  JsonNode  *probe;              /* probe steps: what the probe found (an object, see
                                  * DESIGN.md), or NULL before it ended */
  guint64    probe_written;      /* probe steps: bytes written, also when it failed */
  GArray    *temperature;        /* NscTempSample */
  gboolean   started;
  gboolean   completed;
  gboolean   skipped;            /* not run: the target cannot do it (a warning says why) */
  char      *error;
  /* Conditions, as they applied (see DESIGN.md). */
  gboolean   strict_applied;     /* strict TRIM and idle right before (a preset starts) */
  gboolean   strict_skipped;     /* the step opted out of conditions it would have got */
  guint64    strict_trimmed_bytes;
  gint64     strict_idle_ns;
  const char *time_source;       /* timed jobs: "option", "own", "strict" or "preset" */
  gint64     own_time_ns;        /* the step's own length in its preset, 0 none */
  gint64     planned_time_ns;    /* before --time-scale */
  const char *data_expected;     /* reads: "settled", "fresh" or "any" */
  gint64     idle_since_data_ns; /* reads: idle between the newest write to the region and now */
  const char *settled_by;        /* reads: "idle", "written-after" or NULL (fresh) */
  guint64    flush_bytes;        /* settled control: written after its data to leave the cache */
  const char *flush_source;      /* how much that had to be: "this-run", "history", "default" */
  gboolean   flush_capped;       /* less than that, for --span */
  double     flush_first_bps;    /* the flush's speed at its start (the cache's), 0: unknown */
  double     flush_last_bps;     /* and over its last quarter: below 0.7 × the first, the cache filled */
  double     data_written_bps;   /* fresh reads beside a settled control: the speed their data
                                  * was written at, after the idle; 0: unknown */
  guint64    written_before_bytes; /* writes: since the last idle, erase or TRIM, to the first run */
  gboolean   headline_best;      /* the headline is the best run (CrystalDiskMark) */
  /* Why the step's (last) run ended, and for a step that stops once it knows
   * (step.stop), where its speed dropped and what bounded it. */
  NscStopReason stop_reason;
  guint64    stop_cap_bytes;     /* the cap applied; 0 without a rule */
  double     stop_reference_bps; /* the level a drop was measured against */
  gboolean   drop_found;         /* a drop was under way when it ended */
  guint64    drop_position;      /* bytes written when it began */
} NscStepResult;

typedef struct
{
  char       *preset_name;
  char       *preset_title;
  char       *target_path;
  char       *target_kind;       /* "file" or "device" */
  char       *target_description;
  char       *filesystem;
  char       *caveat;
  guint64     target_size;
  guint       logical_block_size;
  guint       dio_align;
  gboolean    used_tmpfile;
  char       *backend_requested;
  guint       runs;
  gint64      time_ns;
  guint64     file_size;
  gint64      idle_ns;
  gboolean    strict;
  gint64      default_time_ns;   /* timed steps without a length of their own, 0 the preset's */
  gint64      max_idle_ns;
  double      time_scale;        /* 0, or the factor on every timed step */
  guint64     span_cap;
  gint64      strict_idle_ns;    /* strict's idle before each preset, as applied */
  char       *precondition;      /* strict: "device", "span", "test file" or NULL */
  guint64     history_cache_bytes; /* the drive's SLC cache from an earlier result, 0 unknown */
  NscSystemCacheInfo system_cache; /* what may hold writes in memory before the drive */
  gboolean    cdm;               /* CrystalDiskMark-compatible: best of 5 runs */
  gboolean    erased_first;      /* state "empty": erased before the first step */
  guint64     leave_free;        /* state "filled": only this much was left free */
  GDateTime  *started;
  gint64      duration_ns;
  GPtrArray  *steps;             /* NscStepResult */
  GPtrArray  *warnings;          /* NscWarning */
  gboolean    cancelled;
  char       *error;
  JsonNode   *device;            /* facts about the drive, set by the caller, or NULL */
  JsonNode   *analysis;          /* set by nsc_run_result_analyze (), or NULL */
  JsonNode   *bench;             /* the test bench, set by the caller, or NULL */
  guint64     setup_bytes_written; /* the test file, a drive state, a preconditioning */
  JsonNode   *smart_before;      /* {data_units_written, bytes_written, percentage_used} */
  JsonNode   *smart_after;       /*   read by the caller around the run, or NULL */
} NscRunResult;

NscRunResult        *nsc_run_result_new        (void);
void                 nsc_run_result_free       (NscRunResult       *result);
/* Adds a warning with its English message; returns it, for the caller to set the
 * fields the sentence in the user's language is made from. */
NscWarning          *nsc_run_result_add_warning (NscRunResult      *result,
                                                 int                step,
                                                 NscWarningKind     kind,
                                                 const char        *format,
                                                 ...) G_GNUC_PRINTF (4, 5);
/* Takes @warning. */
void                 nsc_run_result_take_warning (NscRunResult     *result,
                                                  NscWarning       *warning);
/* Takes @facts (a JSON object from the device library) for the result's "device". */
void                 nsc_run_result_set_device (NscRunResult      *result,
                                                JsonNode          *facts);
/* Takes @bench (CPU, kernel, mitigations, scheduler… from the device library). */
void                 nsc_run_result_set_bench  (NscRunResult      *result,
                                                JsonNode          *bench);
/* Takes @before and @after (either may be NULL): the drive's SMART write counters
 * read before and after the run. */
void                 nsc_run_result_set_smart  (NscRunResult      *result,
                                                JsonNode          *before,
                                                JsonNode          *after);
/* Bytes the run's own I/O wrote, every step and run counted. */
guint64              nsc_run_result_bytes_written (const NscRunResult *result);
NscStepResult       *nsc_step_result_new       (const NscStep      *step);
void                 nsc_step_result_free      (NscStepResult      *result);
/* The run whose total bandwidth is the median of the step's runs. */
const NscJobResult  *nsc_step_result_headline  (const NscStepResult *result);

JsonNode            *nsc_run_result_to_json    (const NscRunResult *result);
gboolean             nsc_run_result_save       (const NscRunResult *result,
                                                const char         *path,
                                                GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscRunResult, nsc_run_result_free)

G_END_DECLS

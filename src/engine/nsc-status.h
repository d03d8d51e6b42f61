/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What the runner is doing, as a code and its numbers; nsc_status_describe () makes
 * the line a person reads, in their language. */
typedef enum
{
  NSC_STATUS_STARTING,
  NSC_STATUS_PREPARING_FILE,       /* the test file is written before anything is timed */
  NSC_STATUS_FILLING_STATE,        /* a drive state: filled but for what stays free */
  NSC_STATUS_PRECONDITIONING,      /* strict: the whole drive written once */
  NSC_STATUS_STRICT_TRIM,          /* strict: TRIM before a part */
  NSC_STATUS_WRITING_READ_DATA,    /* the data a part's reads read */
  NSC_STATUS_WRITING_STEP_DATA,    /* the data one test reads */
  NSC_STATUS_FLUSHING_CACHE,       /* writing past the SLC cache after the settled data */
  NSC_STATUS_IDLE_BEFORE,          /* ns: time left */
  NSC_STATUS_IDLE_BETWEEN,
  NSC_STATUS_IDLE,                 /* an idle step; ns: time left */
  NSC_STATUS_TEST,                 /* label: the test measured */
  NSC_STATUS_SURFACE_POINT,        /* label; index of count places */
  NSC_STATUS_TRIM,
  NSC_STATUS_FILLING,
  NSC_STATUS_ERASE_TRIM_FREE,      /* TRIM of the free part (a fill state) */
  NSC_STATUS_ERASE_TRIM_ALL,
  NSC_STATUS_ERASE_NVME,           /* method: "format" or "sanitize" */
  NSC_STATUS_WRITING_COPY_FILE,
  NSC_STATUS_WRITING_COPY_FOLDER,
  NSC_STATUS_PROBE,                /* the quick probe: bytes written of at most */
} NscStatusKind;

/* Why the runner leaves the drive alone (the idle kinds). */
typedef enum
{
  NSC_PAUSE_REST,          /* before the next test, the drive finishes what it was doing */
  NSC_PAUSE_AFTER_TRIM,    /* after an erase or a TRIM, so that the drive finishes it */
  NSC_PAUSE_RECOVERY,      /* the drive may free its cache meanwhile: the next write measures it */
  NSC_PAUSE_SETTLE,        /* the data just written settles before it is read */
  NSC_PAUSE_STRICT,        /* the reviews' idle before a test */
  NSC_PAUSE_OPTION,        /* the idle between tests the user asked for */
} NscPauseReason;

typedef struct
{
  NscStatusKind kind;
  NscPauseReason reason;     /* the idle kinds */
  guint64       bytes_done;  /* what this phase wrote at the drive's pace so far, of */
  guint64       bytes_total; /* at most this much (0: not such a phase) */
  gboolean      time_left_open; /* the time left counts only what is known: writes whose
                                 * speed nothing has told yet come on top */
  char          label[64];   /* NSC_STATUS_TEST, NSC_STATUS_SURFACE_POINT */
  char          method[16];  /* NSC_STATUS_ERASE_NVME */
  guint         index;       /* from 0 */
  guint         count;
  gint64        ns;          /* time left of an idle */
} NscStatus;

G_END_DECLS

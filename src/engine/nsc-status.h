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
} NscStatusKind;

typedef struct
{
  NscStatusKind kind;
  char          label[64];   /* NSC_STATUS_TEST, NSC_STATUS_SURFACE_POINT */
  char          method[16];  /* NSC_STATUS_ERASE_NVME */
  guint         index;       /* from 0 */
  guint         count;
  gint64        ns;          /* time left of an idle */
} NscStatus;

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define NSC_ERROR (nsc_error_quark ())

/**
 * NscError:
 * Errors of the engine. Messages are meant for people: they name what went
 * wrong and what to do about it. Where the remedy is a front end's own (a flag of
 * the CLI, a dialog of the app), the message says only what is wrong and the code
 * tells the front end to add its remedy.
 */
typedef enum
{
  NSC_ERROR_INVALID_ARGUMENT,   /* a nonsense option or job parameter */
  NSC_ERROR_NOT_FOUND,          /* a target that does not exist */
  NSC_ERROR_PERMISSION,         /* not allowed to open or write the target */
  NSC_ERROR_NO_SPACE,           /* the test does not fit on the target */
  NSC_ERROR_BUSY,               /* the device is mounted, held or in use */
  NSC_ERROR_NEEDS_CONFIRMATION, /* a destructive test without explicit consent */
  NSC_ERROR_UNSUPPORTED,        /* e.g. O_DIRECT refused, block size below DIO alignment */
  NSC_ERROR_IO,                 /* the device answered an I/O with an error */
  NSC_ERROR_CANCELLED,
  NSC_ERROR_FAILED,
  NSC_ERROR_NOT_AGREED,         /* a write to a device whose consent does not name it */
  NSC_ERROR_NEEDS_ROOT,         /* a raw device the process may not open */
} NscError;

GQuark nsc_error_quark (void);

/* Sets @error from an errno value with a prefix such as "Cannot open /x". */
void   nsc_set_error_from_errno (GError    **error,
                                 int         errsv,
                                 const char *format,
                                 ...) G_GNUC_PRINTF (3, 4);

G_END_DECLS

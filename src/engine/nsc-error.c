/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>

#include "nsc-error.h"

G_DEFINE_QUARK (nsc-error-quark, nsc_error)

static NscError
code_from_errno (int errsv)
{
  switch (errsv)
    {
    case ENOENT:
    case ENOTDIR:
      return NSC_ERROR_NOT_FOUND;
    case EACCES:
    case EPERM:
    case EROFS:
      return NSC_ERROR_PERMISSION;
    case ENOSPC:
    case EDQUOT:
    case EFBIG:
      return NSC_ERROR_NO_SPACE;
    case EBUSY:
      return NSC_ERROR_BUSY;
    case EINVAL:
    case EOPNOTSUPP:
      return NSC_ERROR_UNSUPPORTED;
    case EIO:
    case ENXIO:
    case ENODEV:
      return NSC_ERROR_IO;
    case ECANCELED:
      return NSC_ERROR_CANCELLED;
    default:
      return NSC_ERROR_FAILED;
    }
}

void
nsc_set_error_from_errno (GError    **error,
                          int         errsv,
                          const char *format,
                          ...)
{
  g_autofree char *prefix = NULL;
  va_list args;

  va_start (args, format);
  prefix = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, NSC_ERROR, code_from_errno (errsv),
               "%s: %s", prefix, g_strerror (errsv));
}

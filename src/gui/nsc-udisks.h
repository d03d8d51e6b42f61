/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define NSC_UDISKS_ERROR (nsc_udisks_error_quark ())

typedef enum
{
  NSC_UDISKS_ERROR_UNAVAILABLE,     /* no system bus, or UDisks2 not running nor activatable */
  NSC_UDISKS_ERROR_NOT_FOUND,       /* UDisks2 does not know the device */
  NSC_UDISKS_ERROR_NOT_AUTHORIZED,  /* polkit said no, or the user dismissed the dialog */
  NSC_UDISKS_ERROR_BUSY,            /* the kernel refused an exclusive open (mounted, held) */
  NSC_UDISKS_ERROR_FAILED,
} NscUdisksError;

GQuark nsc_udisks_error_quark         (void);

/* Opens @devnode ("/dev/sdb") through UDisks2's Block.OpenDevice on the system bus,
 * so that polkit, not root, decides. Read-only, or read-write and exclusive
 * (O_EXCL: the kernel refuses a device that is mounted or held) when @writable;
 * always O_DIRECT. The errors are NSC_UDISKS_ERROR, with messages that say what
 * happened and what to do instead. */
void   nsc_udisks_open_device_async   (const char          *devnode,
                                       gboolean             writable,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data);
/* The descriptor (the caller owns it, also when it cancelled meanwhile: it must close
 * it then), or -1 with @error set. */
int    nsc_udisks_open_device_finish  (GAsyncResult        *result,
                                       GError             **error);

/* Whether UDisks2 can be asked at all (running, or activatable on the system bus),
 * so that the drive picker can say so before anyone chooses a drive. FALSE with
 * NSC_UDISKS_ERROR_UNAVAILABLE and a short reason in @error. */
void     nsc_udisks_probe_async   (GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data);
gboolean nsc_udisks_probe_finish  (GAsyncResult        *result,
                                   GError             **error);

G_END_DECLS

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

/* Running inside Flatpak (/.flatpak-info exists): /dev and /proc/self/mountinfo are the
 * sandbox's, so a drive's node, mounts and swap are learnt from UDisks2 instead. */
gboolean nsc_udisks_is_sandboxed      (void);

/* A drive as UDisks2 describes it (org.freedesktop.UDisks2.Drive and the Block,
 * Filesystem and Swapspace objects on it). */
typedef struct
{
  char      *devnode;        /* the whole drive's node, e.g. "/dev/nvme0n1" */
  char      *model;
  char      *serial;
  guint64    size;           /* bytes */
  guint64    device_number;  /* Block.DeviceNumber (dev_t) */
  GPtrArray *mounts;         /* "NODE\tMOUNT POINT" for the drive and its partitions */
  GPtrArray *swaps;          /* nodes of the drive or its partitions in use as swap */
} NscUdisksDrive;

void            nsc_udisks_drive_free       (NscUdisksDrive *drive);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscUdisksDrive, nsc_udisks_drive_free)

/* Every drive UDisks2 knows of (whole block devices with a Drive), in object order. */
GPtrArray      *nsc_udisks_list_drives_sync (GCancellable   *cancellable,
                                             GError        **error);
/* The same in a thread of GTask's pool (one GetManagedObjects call; the drive
 * picker's list). The errors are NSC_UDISKS_ERROR_UNAVAILABLE, or
 * G_IO_ERROR_CANCELLED. */
void            nsc_udisks_list_drives_async  (GCancellable        *cancellable,
                                               GAsyncReadyCallback  callback,
                                               gpointer             user_data);
GPtrArray      *nsc_udisks_list_drives_finish (GAsyncResult        *result,
                                               GError             **error);
/* The drive whose whole block device is @devnode (compared as UDisks2 names it:
 * Device, PreferredDevice or a symlink), or NULL with NSC_UDISKS_ERROR_NOT_FOUND. */
NscUdisksDrive *nsc_udisks_describe_sync    (const char     *devnode,
                                             GCancellable   *cancellable,
                                             GError        **error);
/* FALSE with NSC_UDISKS_ERROR_BUSY and a message naming what UDisks2 reports when
 * the drive or a partition of it is mounted or used as swap, or (read-only /sys)
 * held by another device. What the sandbox checks before a test that writes. */
gboolean        nsc_udisks_check_writable_sync (const char   *devnode,
                                                GCancellable *cancellable,
                                                GError      **error);
/* nsc_udisks_check_writable_sync () as the runner's NscDeviceCheckFunc (any thread). */
gboolean        nsc_udisks_check_func          (gpointer      user_data,
                                                const char   *device,
                                                GError      **error);

G_END_DECLS

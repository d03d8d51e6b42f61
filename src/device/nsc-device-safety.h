/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* Where the in-use check looks. The running system is { "/sys", "/proc", its
 * mountinfo and swaps, getpid (), TRUE }; tests pass captured trees. */
typedef struct
{
  const char *sysfs_root;  /* "/sys" */
  const char *proc_root;   /* "/proc": <pid>/fd/<n> and <pid>/comm */
  const char *mountinfo;   /* text of /proc/self/mountinfo */
  const char *swaps;       /* text of /proc/swaps, or NULL */
  pid_t       self_pid;    /* descriptors of this process are ours and ignored */
  gboolean    live;        /* device paths may be stat()ed (compared by number) */
} NscUsageTables;

/* Refuses a test that writes, trims or erases the block device @name ("sdb",
 * "sdb1", "nvme0n1") when anything uses it. For a whole disk, that is the disk or
 * any partition; for a partition, the partition itself or the whole disk under it
 * (sibling partitions may stay in use):
 *   - a filesystem mounted from it (btrfs too, whose mountinfo numbers are
 *     anonymous: the mount source is compared), or a mounted btrfs it belongs to;
 *   - swap on it;
 *   - a holder (LVM, RAID, dm-crypt, multipath);
 *   - a loop device whose backing file is it (losetup /dev/sdb, mount -o loop);
 *   - a process other than @tables->self_pid with it open (a VM's raw disk, dd,
 *     a partition editor), named in the error.
 * @device is the name the user gave, for the message. The error (NSC_ERROR_BUSY)
 * says what uses it and the way out. A process whose descriptors cannot be read
 * (another user's, without root) is not seen; O_EXCL at open stands behind this
 * for everything that claims a device (mounts, holders, other exclusive opens). */
gboolean nsc_device_check_unused_at (const NscUsageTables *tables,
                                     const char           *name,
                                     const char           *device,
                                     GError              **error);

/* Whether process @pid (under @proc_root) opens devices for a moment on its own
 * after a writer closed them: udev (its daemon, a worker, or anything a worker ran,
 * such as blkid) or UDisks2. On the running system the check above gives such an
 * opener 2 s to go away before it refuses; any other opener is refused at once. */
gboolean nsc_device_opener_is_prober (const char           *proc_root,
                                      const char           *pid);

/* The same on the running system for the block device at @device (a path to a
 * whole disk or a partition). The one check that the command line and the app run
 * before anything writes, trims or erases a device, and again once the device is
 * held open exclusively. */
gboolean nsc_device_check_writable  (const char  *device,
                                     GError     **error);

/* nsc_device_check_writable () in the shape of an NscDeviceCheckFunc (nsc-runner.h);
 * @user_data unused. */
gboolean nsc_device_check_func      (gpointer     user_data,
                                     const char  *device,
                                     GError     **error);

/* Where the mount table says @dev_major:@dev_minor is mounted, or NULL. For tests,
 * @mountinfo is the text of /proc/self/mountinfo. */
char    *nsc_device_find_mount      (const char  *mountinfo,
                                     guint        dev_major,
                                     guint        dev_minor);

G_END_DECLS

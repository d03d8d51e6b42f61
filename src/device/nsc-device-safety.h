/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Refuses a destructive test on a block device that anything uses: a mounted
 * filesystem on it or on one of its partitions, swap, a holder (LVM, RAID,
 * dm-crypt), or the root filesystem. The error names the reason and the way out.
 * The kernel's own guard (O_EXCL at open) stands behind this check. */
gboolean nsc_device_check_writable (const char  *device,
                                    GError     **error);

/* Where the mount table says @dev_major:@dev_minor is mounted, or NULL. For tests,
 * @mountinfo is the text of /proc/self/mountinfo. */
char    *nsc_device_find_mount     (const char  *mountinfo,
                                    guint        dev_major,
                                    guint        dev_minor);

G_END_DECLS

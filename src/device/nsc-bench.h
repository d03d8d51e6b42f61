/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "nsc-device.h"
#include "nsc-result.h"

G_BEGIN_DECLS

/* What a reviewer lists under "test bench": CPU, kernel, CPU vulnerability
 * mitigations, the drive's I/O scheduler and write cache, NVMe power-state
 * latency (APST), USB transport (UAS or BOT), and for a test file its filesystem,
 * mount options and what lies between it and the drive (dm-crypt, LVM, RAID).
 * @target: the folder, file or device tested; @device: the drive behind it, or NULL.
 * @sysfs_root and @mountinfo: "/sys" and /proc/self/mountinfo's text, or others in
 * tests. Fields that cannot be read are absent. */
JsonNode *nsc_bench_describe_at (const char          *sysfs_root,
                                 const char          *proc_root,
                                 const char          *mountinfo,
                                 const char          *target,
                                 const NscDeviceInfo *device);
JsonNode *nsc_bench_describe    (const char          *target,
                                 const NscDeviceInfo *device);
/* What may keep the target's writes in memory before they reach the drive, in the
 * stack under it (a partition's disk, device-mapper and RAID members): a loop device
 * over a file without direct I/O is this machine's page cache, and a disk in memory
 * (zram, brd) has no drive behind it, both certain; nbd, virtio,
 * Xen and disks with an emulator's model are a host's or server's, possible. Fills
 * @out (cleared first) for the run options; returns its certainty. */
NscSystemCache nsc_bench_system_cache_at (const char         *sysfs_root,
                                          const char         *target,
                                          NscSystemCacheInfo *out);
NscSystemCache nsc_bench_system_cache    (const char         *target,
                                          NscSystemCacheInfo *out);
/* The result's warnings from a description: encryption or software RAID under the
 * test file, a write cache that is off. An array of NscWarning, maybe empty. */
GPtrArray *nsc_bench_warnings   (JsonNode            *bench);

G_END_DECLS

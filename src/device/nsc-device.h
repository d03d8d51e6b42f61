/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "nsc-nvme.h"
#include "nsc-warning.h"

G_BEGIN_DECLS

/* A filesystem mounted from the disk or one of its partitions (or a device
 * stacked on them, such as LVM or dm-crypt). */
typedef struct
{
  char *source;       /* the block device it comes from: "sda1", "dm-0" */
  char *mountpoint;
  char *fstype;
} NscMount;

typedef struct
{
  char     *name;       /* "sda1" */
  char     *devnode;    /* "/dev/sda1" */
  guint     major;
  guint     minor;
  guint     number;     /* partition number */
  guint64   start;      /* bytes */
  guint64   size;       /* bytes */
  GStrv     holders;    /* "dm-0", … */
} NscPartition;

/**
 * NscDeviceInfo:
 * Facts about one whole block device, from sysfs, the mount table and the swap
 * table, optionally completed by NVMe Identify/SMART (info->nvme). Strings the
 * system did not give are NULL.
 */
typedef struct
{
  char      *name;               /* "nvme0n1", "sda", "loop3" */
  char      *devnode;            /* "/dev/nvme0n1" */
  guint      major;
  guint      minor;
  char      *transport;          /* nvme, sata, scsi, usb, virtio, mmc, loop, zram, dm, md, other */
  char      *sysfs_path;         /* the resolved device directory, for people debugging */
  char      *model;
  char      *vendor;
  char      *serial;
  char      *firmware;
  char      *controller;         /* NVMe: "nvme0" */
  guint32    nsid;               /* NVMe namespace id, 0 otherwise */
  char      *backing_file;       /* loop devices */
  guint64    capacity;           /* bytes */
  guint      logical_block_size;
  guint      physical_block_size;
  gboolean   rotational;
  gboolean   removable;
  gboolean   read_only;
  guint64    discard_max_bytes;  /* 0: the device takes no TRIM/discard */
  GPtrArray *partitions;         /* NscPartition */
  GPtrArray *mounts;             /* NscMount, of the disk, its partitions and their holders */
  GStrv      swaps;              /* names of the disk/partitions used as swap */
  GStrv      holders;            /* holders of the disk or of any partition */
  gboolean   hosts_root;         /* "/" lives here, directly or through a holder */
  /* PCIe link of the PCI function behind an NVMe controller */
  char      *link_speed;         /* "8.0 GT/s PCIe" as sysfs says */
  guint      link_width;
  char      *link_max_speed;
  guint      link_max_width;
  char      *link_warning;       /* set when the link runs below what both ends support */
  /* temperature */
  gboolean   have_temperature;
  double     temperature_c;
  char      *temperature_source; /* "hwmon" or "smart" */
  NscNvmeInfo *nvme;             /* Identify/SMART, when asked for and allowed */
  GPtrArray *unavailable;        /* "field: why" */
  /* What udev's probe (blkid) found on the whole disk, from its database (readable
   * without root): signature_known is FALSE without one (no udev, a sandbox). */
  gboolean   signature_known;
  char      *fs_type;            /* ID_FS_TYPE: "ext4", "LVM2_member"; NULL for none */
  char      *part_table_type;    /* ID_PART_TABLE_TYPE: "gpt", "dos"; NULL for none */
} NscDeviceInfo;

typedef enum
{
  NSC_DISCOVER_DEFAULT = 0,
  NSC_DISCOVER_NVME    = 1 << 0,   /* ask NVMe controllers through libnvme (root) */
  NSC_DISCOVER_ALL     = 1 << 1,   /* include unattached loop and unsized zram devices */
} NscDiscoverFlags;

void           nsc_device_info_free    (NscDeviceInfo *info);

/* Every whole block device under @sysfs_root ("/sys" or a captured tree), with
 * @mountinfo (text of /proc/self/mountinfo) and @swaps (text of /proc/swaps, may be
 * NULL). Returns NscDeviceInfo sorted by name. */
GPtrArray     *nsc_device_discover_at  (const char       *sysfs_root,
                                        const char       *mountinfo,
                                        const char       *swaps,
                                        NscDiscoverFlags  flags,
                                        GError          **error);

/* The same on the running system. */
GPtrArray     *nsc_device_discover     (NscDiscoverFlags  flags,
                                        GError          **error);

/* The one device @name ("sda") under @sysfs_root. */
NscDeviceInfo *nsc_device_info_new_at  (const char       *sysfs_root,
                                        const char       *name,
                                        const char       *mountinfo,
                                        const char       *swaps,
                                        NscDiscoverFlags  flags,
                                        GError          **error);

/* The whole disk behind @path: a block device (whole or partition) or a file or
 * folder on a filesystem of one. For a result's "device" member. */
NscDeviceInfo *nsc_device_info_for_path (const char      *path,
                                         NscDiscoverFlags flags,
                                         GError         **error);

/* One line for people: "mounted at /, /boot", "swap (sda2)", "held by dm-0",
 * "in use by / (through dm-0)", "free". */
char          *nsc_device_info_describe_state (const NscDeviceInfo *info);

/* "PCIe 3.0 x4" from the current link, or NULL. */
char          *nsc_device_info_describe_link  (const NscDeviceInfo *info);

/* Nothing is mounted, swapped or held on it and it does not host "/". */
gboolean       nsc_device_info_is_free (const NscDeviceInfo *info);

/* A new drive: free, writable, with no partition and, where udev's database says,
 * no partition table and no filesystem. */
gboolean       nsc_device_info_is_new  (const NscDeviceInfo *info);

JsonNode      *nsc_device_info_to_json (const NscDeviceInfo *info);
JsonNode      *nsc_device_list_to_json (GPtrArray           *infos);

/* The temperature of the drive behind @devnode (a whole disk, a partition, or an NVMe
 * controller node), cheap enough to call once a second: hwmon first (no root), else
 * the NVMe SMART log through libnvme (root). */
gboolean       nsc_device_read_temperature (const char  *devnode,
                                            double      *celsius,
                                            GError     **error);

/* The same as an NscTemperatureFunc (nsc-runner.h) for NscRunOptions.read_temperature,
 * with the drive's node (a string that outlives the run) as @devnode. For a file
 * target pass the whole disk's node, from nsc_device_info_for_path(). */
gboolean       nsc_device_temperature_func (gpointer     devnode,
                                            double      *celsius);

/* The drive's write counters from its NVMe SMART log, read now (root):
 * {"data_units_written", "bytes_written" (units × 512 000), "percentage_used"}, or
 * NULL with @error set when the drive has no such log or it cannot be read. */
JsonNode      *nsc_device_read_wear    (const NscDeviceInfo *info,
                                        GError             **error);

/* PCIe generation of a sysfs link speed ("16.0 GT/s PCIe" → 4), 0 when unknown. */
guint          nsc_pcie_generation     (const char *speed);
/* The "pcie-link-below-max" warning with its link fields, or NULL when the link runs
 * as fast as both ends support. */
NscWarning    *nsc_device_info_link_warning (const NscDeviceInfo *info);
/* An NVMe drive whose model names a maker whose PCI vendor ID its controller does not
 * report (nsc_nvme_identity_mismatch): a warning, else NULL. Nothing is written to
 * learn it. */
NscWarning    *nsc_device_info_identity_warning (const NscDeviceInfo *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscDeviceInfo, nsc_device_info_free)

G_END_DECLS

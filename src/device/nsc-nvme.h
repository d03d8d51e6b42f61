/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* One LBA format of a namespace (Identify Namespace LBAF). */
typedef struct
{
  guint32 data_size;        /* bytes: 512, 4096, … */
  guint16 metadata_size;
  guint8  relative_performance;   /* 0 best … 3 degraded */
} NscNvmeLbaFormat;

/**
 * NscNvmeInfo:
 * What an NVMe controller says about itself (Identify Controller), about one of
 * its namespaces (Identify Namespace) and its health (SMART / Health log).
 * Temperatures are in kelvin as the controller reports them, 0 when unreported.
 */
typedef struct
{
  char     *controller;     /* "nvme0" */
  /* Identify Controller */
  gboolean  have_identify;
  char     *model;
  char     *serial;
  char     *firmware;
  guint16   vendor_id;
  guint8    mdts;           /* max data transfer, 2^mdts pages; 0 = no limit */
  guint16   wctemp_k;       /* warning composite temperature threshold */
  guint16   cctemp_k;       /* critical composite temperature threshold */
  guint16   mntmt_k;        /* min/max thermal management temperature */
  guint16   mxtmt_k;
  guint16   oncs;
  guint32   sanicap;
  guint8    fna;
  /* Identify Namespace */
  gboolean  have_namespace;
  guint32   nsid;
  guint64   nsze;           /* namespace size in logical blocks */
  guint64   ncap;
  guint64   nuse;
  guint     current_lba_format;
  guint32   lba_size;       /* bytes of the current LBA format */
  GArray   *lba_formats;    /* NscNvmeLbaFormat */
  /* SMART / Health log */
  gboolean  have_smart;
  guint8    critical_warning;
  guint16   composite_temp_k;
  guint16   sensor_temp_k[8];
  guint8    available_spare;
  guint8    spare_threshold;
  guint8    percent_used;
  guint64   data_units_read;      /* units of 1000 × 512 bytes */
  guint64   data_units_written;
  guint64   host_read_commands;
  guint64   host_write_commands;
  guint64   power_cycles;
  guint64   power_on_hours;
  guint64   unsafe_shutdowns;
  guint64   media_errors;
  guint32   warning_temp_minutes;
  guint32   critical_temp_minutes;
  guint32   thermal_transitions[2];   /* TMT1TC, TMT2TC */
  guint32   thermal_seconds[2];       /* TTTMT1, TTTMT2 */
  /* "what: why" for everything asked for and not obtained */
  GPtrArray *unavailable;
} NscNvmeInfo;

void         nsc_nvme_info_free      (NscNvmeInfo       *info);

/* Whether @model names a maker whose NVMe drives carry that maker's own PCI vendor ID
 * (Samsung, Western Digital and SanDisk, Intel, SK hynix, Kioxia and Toshiba,
 * Solidigm), and the controller's @vendor_id is none of that maker's: the maker's
 * name, with its usual ID in @expected, else NULL. Fakes sold as a known brand often
 * show this (CrystalDiskInfo's [FAKE]); makers that ship other controllers' IDs
 * (Crucial, Kingston, Seagate…) are not judged. */
const char  *nsc_nvme_identity_mismatch (const char    *model,
                                         guint16        vendor_id,
                                         guint16       *expected);

/* Asks the controller @controller ("nvme0") through /dev/@controller for Identify
 * Controller, Identify Namespace @nsid (0: none) and the SMART log. Needs root
 * (CAP_SYS_ADMIN for admin commands). Returns NULL with an error only when the
 * controller cannot be opened at all; a part that fails is listed in
 * info->unavailable and the rest is still returned. */
NscNvmeInfo *nsc_nvme_query          (const char        *controller,
                                      guint32            nsid,
                                      GError           **error);

/* Reads the composite temperature from the SMART log through @fd_path (a
 * controller or namespace node). Needs root. */
gboolean     nsc_nvme_read_temperature (const char      *fd_path,
                                        double          *celsius,
                                        GError         **error);

/* Builds a JSON object of @info (kelvin and °C both, bytes for data units). */
JsonNode    *nsc_nvme_info_to_json   (const NscNvmeInfo *info);

/* Names of the critical-warning bits set in @bits, e.g. "temperature". */
GStrv        nsc_nvme_critical_warning_names (guint8    bits);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscNvmeInfo, nsc_nvme_info_free)

/* How many namespaces (distinct NSIDs) the kernel shows in the NVM subsystem of the
 * namespace @ns_name ("nvme0n1"), across every controller of the subsystem under
 * @sysfs_root; 0 when @ns_name is not an NVMe namespace there. */
guint        nsc_nvme_subsystem_namespaces_at (const char *sysfs_root,
                                               const char *ns_name);

/* What a Format or Sanitize of one namespace would reach, as the drive and the
 * kernel tell it. */
typedef struct
{
  guint8   fna;             /* Identify Controller FNA: bit 0 format, bit 1 secure erase
                             * apply to all namespaces */
  guint8   cmic;            /* bits 0-1: the subsystem may have other ports/controllers */
  guint32  nn;              /* the largest NSID the controller supports */
  guint    active;          /* this controller's active namespace list */
  guint    allocated;       /* the subsystem's allocated list (namespace management) */
  gboolean have_allocated;
  guint    in_sysfs;        /* namespaces the kernel shows in the subsystem */
} NscNvmeEraseScope;

/* Refuses @method ("format", "sanitize") of the one namespace @device when it would
 * reach others: a Format the controller applies to all namespaces (FNA) while more
 * than one is seen; a Sanitize (always subsystem-wide) unless the subsystem surely
 * has one namespace. The error says why and what to do instead. */
gboolean     nsc_nvme_check_erase_scope (const NscNvmeEraseScope *scope,
                                         const char              *device,
                                         const char              *method,
                                         GError                 **error);

/* Erases the NVMe namespace open as @fd: "format" (Format NVM, user data erase, the
 * LBA format kept) or "sanitize" (block erase, waited for). Needs root; says plainly
 * when the controller does not support the method. Refuses, with the reason: a
 * descriptor not open read-write or not held exclusively (O_EXCL) through @device;
 * a partition (the command would erase its whole namespace); a Format that the
 * controller applies to every namespace (FNA) while the subsystem has more than one;
 * a Sanitize (always subsystem-wide) unless the subsystem surely has one namespace. */
gboolean     nsc_nvme_erase          (int                fd,
                                      const char        *device,
                                      const char        *method,
                                      GCancellable      *cancellable,
                                      GError           **error);
/* nsc_nvme_erase () as an NscEraseFunc (nsc-runner.h); @user_data unused. */
gboolean     nsc_nvme_erase_func     (gpointer           user_data,
                                      int                fd,
                                      const char        *device,
                                      const char        *method,
                                      GCancellable      *cancellable,
                                      GError           **error);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <sys/types.h>

#include "nsc-extents.h"

G_BEGIN_DECLS

typedef enum
{
  NSC_TARGET_FILE,
  NSC_TARGET_DEVICE,
} NscTargetKind;

/* file_size: all the free space but a reserve (a write-fill that keeps the user's data). */
#define NSC_TARGET_SIZE_FREE G_MAXUINT64

typedef struct
{
  guint64     file_size;     /* file targets: the test file's size, or NSC_TARGET_SIZE_FREE */
  gboolean    need_write;    /* devices: open for writing (needs destroy_data) */
  const char *destroy_data;  /* devices: the device the user agreed to wipe */
  gboolean    no_tmpfile;    /* files: use create + unlink even where O_TMPFILE works */
  int         device_fd;     /* devices: already open (UDisks2 OpenDevice), or -1 for none
                              * (0 is a descriptor like any other); nsc_target_open ()
                              * owns it from the call on, success or not, and it must be
                              * @path's device */
} NscTargetOptions;

/* Options with nothing set: no descriptor handed over. */
#define NSC_TARGET_OPTIONS_INIT { .device_fd = -1 }

typedef struct _NscTarget NscTarget;

/* The least free space a filesystem of @fs_bytes keeps when a test fills it (a
 * write-fill's file, a nearly-full state's filler): 2 % of it, at least 1 GiB, at
 * most a quarter of it. */
guint64        nsc_target_free_space_floor (guint64 fs_bytes);

/* The test file a folder gets, the one rule for the run and its plan: @requested
 * (NSC_TARGET_SIZE_FREE: the free space but the floor above) in multiples of
 * @align, into *out_size. FALSE when it does not fit beside the room a run leaves
 * (2 % of the filesystem, at most 256 MiB); *out_largest (may be NULL) is the largest
 * test file that fits, 0 for none. */
gboolean       nsc_target_file_size        (guint64  requested,
                                            guint64  free_bytes,
                                            guint64  fs_bytes,
                                            guint    align,
                                            guint64 *out_size,
                                            guint64 *out_largest);

/* @path: a folder (a hidden test file is made in it), a file name that does not
 * exist yet (made, then unlinked at once), or a block device. */
NscTarget     *nsc_target_open            (const char             *path,
                                           const NscTargetOptions *options,
                                           GError                **error);
void           nsc_target_free            (NscTarget              *target);
/* The direct-I/O unit that nsc_target_open () will find at @path, before it is
 * opened (a plan, an export): a device's logical block size, a file's own (statx), or
 * that of the device under a folder (or a new file's folder). 0 when @path cannot be
 * looked at. */
guint          nsc_target_path_dio_align  (const char             *path);

int            nsc_target_get_fd          (NscTarget *target);
NscTargetKind  nsc_target_get_kind        (NscTarget *target);
const char    *nsc_target_get_path        (NscTarget *target);
/* The device node for devices; for files, where the file was made. */
const char    *nsc_target_get_description (NscTarget *target);
guint64        nsc_target_get_size        (NscTarget *target);
guint          nsc_target_get_logical_block_size (NscTarget *target);
guint          nsc_target_get_dio_offset_align   (NscTarget *target);
guint          nsc_target_get_dio_mem_align      (NscTarget *target);
/* "ext4", "xfs", … for files; NULL for devices. */
const char    *nsc_target_get_filesystem  (NscTarget *target);
gboolean       nsc_target_get_used_tmpfile (NscTarget *target);
gboolean       nsc_target_get_writable    (NscTarget *target);
/* Devices: open for writing and held exclusively (O_EXCL) for as long as the target
 * lives: what anything that writes, trims or erases a device needs. */
gboolean       nsc_target_get_exclusive   (NscTarget *target);
/* Why direct I/O on this file may not reach a drive (tmpfs, FUSE, NFS…), or NULL. */
const char    *nsc_target_get_caveat      (NscTarget *target);
NscExtents    *nsc_target_get_written     (NscTarget *target);

/* Discards [offset, offset+length): BLKDISCARD on a device, a punched hole in a file,
 * in chunks so that cancel is prompt. The range no longer holds data we wrote. */
gboolean       nsc_target_trim            (NscTarget     *target,
                                           guint64        offset,
                                           guint64        length,
                                           GCancellable  *cancellable,
                                           guint64       *out_trimmed,
                                           GError       **error);
/* A test file: what was written to it is made durable (fdatasync), so that the
 * filesystem's journal and the drive's cache take it in before a measurement rather
 * than during one. A device: nothing to do. */
gboolean       nsc_target_sync            (NscTarget     *target,
                                           GError       **error);
/* After an I/O error: whether the device is no longer there (removed, unplugged). */
gboolean       nsc_target_is_gone         (NscTarget *target);
/* "BLKDISCARD" or "punch hole". */
const char    *nsc_target_get_trim_method (NscTarget *target);
/* Whether a TRIM reaches the drive at once: always for a device; for a file, when its
 * filesystem is mounted with the discard option (otherwise only at the next fstrim). */
gboolean       nsc_target_get_discard_reaches_drive (NscTarget *target);

/* Write history, for the conditions of a read: when a range was last written and how
 * much was written to the target since. */
void           nsc_target_note_written    (NscTarget *target,
                                           guint64    offset,
                                           guint64    length,
                                           guint64    bytes);
/* FALSE when nothing in the range was written by us. */
gboolean       nsc_target_last_write      (NscTarget *target,
                                           guint64    offset,
                                           guint64    length,
                                           gint64    *age_ns,
                                           guint64   *bytes_since);

/* Checks that a job region fits and is aligned for direct I/O on this target. */
gboolean       nsc_target_check_io        (NscTarget  *target,
                                           guint64     block_size,
                                           guint64     offset,
                                           guint64     length,
                                           GError    **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscTarget, nsc_target_free)

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "nsc-error.h"
#include "nsc-mountinfo.h"
#include "nsc-target.h"

struct _NscTarget
{
  NscTargetKind kind;
  int           fd;
  char         *path;
  char         *description;
  char         *filesystem;
  const char   *caveat;
  guint64       size;
  guint         logical_block_size;
  guint         dio_mem_align;
  guint         dio_offset_align;
  gboolean      used_tmpfile;
  gboolean      writable;
  gboolean      exclusive;      /* devices: O_RDWR | O_EXCL, held until freed */
  gboolean      fs_discard;     /* the file's filesystem is mounted with discard */
  dev_t         rdev;           /* devices: the device's number */
  NscExtents   *written;
  GMutex        log_lock;
  GArray       *write_log;      /* WriteRecord, newest last */
  guint64       total_written;
};

typedef struct
{
  guint64 start;
  guint64 end;
  gint64  time_ns;
  guint64 total_after;
} WriteRecord;

#define WRITE_LOG_MAX 256

static gint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static NscTarget *
target_new (NscTargetKind kind,
            const char   *path)
{
  NscTarget *self = g_new0 (NscTarget, 1);

  self->kind = kind;
  self->fd = -1;
  self->path = g_strdup (path);
  self->written = nsc_extents_new ();
  self->write_log = g_array_new (FALSE, FALSE, sizeof (WriteRecord));
  g_mutex_init (&self->log_lock);
  return self;
}

void
nsc_target_free (NscTarget *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0)
    close (self->fd);
  nsc_extents_free (self->written);
  g_array_unref (self->write_log);
  g_mutex_clear (&self->log_lock);
  g_free (self->path);
  g_free (self->description);
  g_free (self->filesystem);
  g_free (self);
}

static guint
read_sysfs_uint (const char *path,
                 guint       fallback)
{
  g_autofree char *contents = NULL;
  guint64 v;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return fallback;
  v = g_ascii_strtoull (contents, NULL, 10);
  return v > 0 && v <= G_MAXUINT ? (guint) v : fallback;
}

/* The logical block size of device @dev (a file's st_dev, a device node's st_rdev),
 * from sysfs, else @fallback; a partition's queue/ lives in its parent's directory. */
static guint
backing_logical_block_size (dev_t dev,
                            guint fallback)
{
  g_autofree char *p1 = g_strdup_printf ("/sys/dev/block/%u:%u/queue/logical_block_size",
                                         major (dev), minor (dev));
  g_autofree char *p2 = g_strdup_printf ("/sys/dev/block/%u:%u/../queue/logical_block_size",
                                         major (dev), minor (dev));
  guint v = read_sysfs_uint (p1, 0);

  return v ? v : read_sysfs_uint (p2, fallback);
}

/* The direct-I/O offset unit statx reports for @path (AT_EMPTY_PATH: @dirfd itself),
 * with the memory unit in @mem_align; 0 where the kernel or filesystem does not say. */
static guint
statx_dio_align (int         dirfd,
                 const char *path,
                 int         flags,
                 guint      *mem_align)
{
#ifdef STATX_DIOALIGN
  struct statx stx = { 0 };

  if (statx (dirfd, path, flags, STATX_DIOALIGN, &stx) == 0
      && (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align > 0)
    {
      if (mem_align)
        *mem_align = MAX (stx.stx_dio_mem_align, 1u);
      return stx.stx_dio_offset_align;
    }
#else
  (void) dirfd, (void) path, (void) flags, (void) mem_align;
#endif
  return 0;
}

guint
nsc_target_path_dio_align (const char *path)
{
  struct stat st;
  g_autofree char *dir = NULL;

  g_return_val_if_fail (path != NULL, 0);

  if (stat (path, &st) != 0)
    {
      /* A new file's name: its folder's device. */
      dir = g_path_get_dirname (path);
      if (stat (dir, &st) != 0 || !S_ISDIR (st.st_mode))
        return 0;
    }
  if (S_ISBLK (st.st_mode))
    return backing_logical_block_size (st.st_rdev, 0);
  if (S_ISREG (st.st_mode))
    {
      guint v = statx_dio_align (AT_FDCWD, path, 0, NULL);

      if (v > 0)
        return v;
    }
  if (!S_ISREG (st.st_mode) && !S_ISDIR (st.st_mode))
    return 0;
  return MAX (backing_logical_block_size (st.st_dev, 512), 512u);
}

static void
query_dio_alignment (NscTarget *self,
                     guint      fallback)
{
  self->dio_offset_align = statx_dio_align (self->fd, "", AT_EMPTY_PATH, &self->dio_mem_align);
  if (self->dio_offset_align > 0)
    return;
  self->dio_offset_align = fallback;
  self->dio_mem_align = fallback;
}

static const struct {
  gint64      magic;
  const char *name;
  const char *caveat;
} filesystems[] = {
  { EXT4_SUPER_MAGIC, "ext4", NULL },
  { XFS_SUPER_MAGIC, "xfs", NULL },
  { F2FS_SUPER_MAGIC, "f2fs", NULL },
  { BTRFS_SUPER_MAGIC, "btrfs", "btrfs may checksum or compress the test file; results include that work" },
  { MSDOS_SUPER_MAGIC, "vfat", NULL },
  { 0x2011BAB0, "exfat", NULL },
  { 0x7366746e, "ntfs3", NULL },
  { TMPFS_MAGIC, "tmpfs", "the folder is in memory (tmpfs): no drive is measured" },
  { RAMFS_MAGIC, "ramfs", "the folder is in memory (ramfs): no drive is measured" },
  { OVERLAYFS_SUPER_MAGIC, "overlay", "the folder is on an overlay filesystem; direct I/O may not reach the drive" },
  { 0x65735546, "fuse", "the folder is on a FUSE filesystem; direct I/O does not reach the drive" },
  { NFS_SUPER_MAGIC, "nfs", "the folder is on a network filesystem: the network is measured, not a drive" },
  { 0xFF534D42, "cifs", "the folder is on a network filesystem: the network is measured, not a drive" },
  { 0x2FC12FC1, "zfs", "ZFS may serve reads from its ARC cache, not from the drive" },
};

static void
query_filesystem (NscTarget *self)
{
  struct statfs sfs;

  if (fstatfs (self->fd, &sfs) != 0)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (filesystems); i++)
    {
      if ((gint64) (guint32) sfs.f_type == (gint64) (guint32) filesystems[i].magic)
        {
          self->filesystem = g_strdup (filesystems[i].name);
          self->caveat = filesystems[i].caveat;
          return;
        }
    }
  self->filesystem = g_strdup_printf ("0x%lx", (unsigned long) sfs.f_type);
}

/* Mount options of the filesystem on @dev, from the mount table: "discard" (ext4, xfs,
 * f2fs) or "discard=async" (btrfs) among them means punched holes reach the drive. */
static gboolean
mounted_with_discard (dev_t dev)
{
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) mounts = NULL;

  if (!g_file_get_contents ("/proc/self/mountinfo", &text, NULL, NULL))
    return FALSE;
  mounts = nsc_mountinfo_parse (text);
  for (guint i = 0; i < mounts->len; i++)
    {
      const NscMountEntry *m = g_ptr_array_index (mounts, i);
      g_autofree char *all = NULL;
      g_auto(GStrv) opts = NULL;

      if (m->major != major (dev) || m->minor != minor (dev))
        continue;
      all = nsc_mount_options_join (m->mount_options, m->super_options);
      opts = g_strsplit (all, ",", -1);
      for (guint o = 0; opts[o]; o++)
        if (g_str_equal (opts[o], "discard") || g_str_has_prefix (opts[o], "discard="))
          return TRUE;
    }
  return FALSE;
}

guint64
nsc_target_free_space_floor (guint64 fs_bytes)
{
  /* Room for the filesystem to breathe: 2 % of it, at least 1 GiB (less on a tiny
   * one), so that nothing else on the system fails. */
  guint64 keep = MAX (fs_bytes / 50, G_GUINT64_CONSTANT (1) << 30);
  return MIN (keep, fs_bytes / 4);
}

gboolean
nsc_target_file_size (guint64  requested,
                      guint64  free_bytes,
                      guint64  fs_bytes,
                      guint    align,
                      guint64 *out_size,
                      guint64 *out_largest)
{
  guint64 reserve = MIN (fs_bytes / 50, G_GUINT64_CONSTANT (256) << 20);
  guint64 size = requested, largest;

  align = MAX (align, 4096u);
  largest = free_bytes > reserve ? free_bytes - reserve : 0;
  largest -= largest % align;
  if (out_largest)
    *out_largest = largest;
  if (size == NSC_TARGET_SIZE_FREE)
    {
      guint64 keep = nsc_target_free_space_floor (fs_bytes);

      size = free_bytes > keep ? free_bytes - keep : 0;
      size -= size % align;
      *out_size = size;
      return size > 0;
    }
  size -= size % align;
  *out_size = size;
  return size > 0 && size <= largest;
}

static int
open_new_file (const char *dir,
               const char *name,
               gboolean    no_tmpfile,
               gboolean    direct,
               gboolean   *used_tmpfile,
               int        *out_errno)
{
  int flags = O_RDWR | O_CLOEXEC | (direct ? O_DIRECT : 0);
  int fd;

  *used_tmpfile = FALSE;

  if (name == NULL && !no_tmpfile)
    {
      fd = open (dir, flags | O_TMPFILE, 0600);
      if (fd >= 0)
        {
          *used_tmpfile = TRUE;
          return fd;
        }
      if (errno != EOPNOTSUPP && errno != EISDIR)
        {
          *out_errno = errno;
          return -1;
        }
    }

  /* No O_TMPFILE: create under a name nobody else uses, and unlink at once so that
   * nothing outlives the process (except in the instant between the two calls). */
  for (guint attempt = 0; attempt < 100; attempt++)
    {
      g_autofree char *tmpname = name ? g_strdup (name)
        : g_strdup_printf (".nandscope-%08x.tmp", g_random_int ());
      g_autofree char *full = g_build_filename (dir, tmpname, NULL);

      fd = open (full, flags | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
      if (fd >= 0)
        {
          unlink (full);
          return fd;
        }
      if (errno != EEXIST || name != NULL)
        break;
    }
  *out_errno = errno;
  return -1;
}

static NscTarget *
open_file_target (const char              *path,
                  const NscTargetOptions  *options,
                  GError                 **error)
{
  g_autoptr(NscTarget) self = target_new (NSC_TARGET_FILE, path);
  g_autofree char *dir = NULL;
  g_autofree char *name = NULL;
  struct stat st;
  struct statvfs vfs;
  guint64 free_bytes, size;
  gboolean fits;
  int errsv = 0;

  if (stat (path, &st) == 0)
    {
      if (!S_ISDIR (st.st_mode))
        {
          nsc_error_set (error, NSC_PROBLEM_TARGET_FILE_EXISTS, &(NscErrorFields) { .path = path });
          return NULL;
        }
      dir = g_strdup (path);
    }
  else if (errno == ENOENT)
    {
      dir = g_path_get_dirname (path);
      name = g_path_get_basename (path);
      if (stat (dir, &st) != 0 || !S_ISDIR (st.st_mode))
        {
          nsc_error_set (error, NSC_PROBLEM_TARGET_FOLDER_MISSING, &(NscErrorFields) { .path = dir });
          return NULL;
        }
    }
  else
    {
      nsc_error_set_errno (error, NSC_PROBLEM_TARGET_CANNOT_USE, errno,
                           &(NscErrorFields) { .path = path });
      return NULL;
    }

  self->fd = open_new_file (dir, name, options->no_tmpfile, TRUE, &self->used_tmpfile, &errsv);
  if (self->fd < 0 && errsv == EINVAL)
    {
      gboolean unused;
      int fd2 = open_new_file (dir, name, options->no_tmpfile, FALSE, &unused, &errsv);

      if (fd2 >= 0)
        {
          close (fd2);
          nsc_error_set (error, NSC_PROBLEM_TARGET_NO_DIRECT_IO, &(NscErrorFields) { .path = dir });
          return NULL;
        }
    }
  if (self->fd < 0)
    {
      nsc_error_set_errno (error,
                           errsv == EACCES || errsv == EPERM || errsv == EROFS
                           ? NSC_PROBLEM_TARGET_CANNOT_CREATE_DENIED : NSC_PROBLEM_TARGET_CANNOT_CREATE,
                           errsv, &(NscErrorFields) { .path = dir });
      return NULL;
    }

  if (fstat (self->fd, &st) != 0)
    {
      nsc_error_set_errno (error, NSC_PROBLEM_TARGET_CANNOT_INSPECT, errno,
                           &(NscErrorFields) { .path = dir });
      return NULL;
    }
  self->logical_block_size = backing_logical_block_size (st.st_dev, 512);
  query_dio_alignment (self, MAX (self->logical_block_size, 512u));
  query_filesystem (self);
  self->fs_discard = mounted_with_discard (st.st_dev);
  self->description = g_strdup (dir);
  self->writable = TRUE;

  if (fstatvfs (self->fd, &vfs) != 0)
    {
      nsc_error_set_errno (error, NSC_PROBLEM_TARGET_CANNOT_READ_FREE, errno,
                           &(NscErrorFields) { .path = dir });
      return NULL;
    }
  free_bytes = (guint64) vfs.f_bavail * vfs.f_frsize;
  fits = nsc_target_file_size (options->file_size, free_bytes, (guint64) vfs.f_blocks * vfs.f_frsize,
                               self->dio_offset_align, &size, NULL);
  if (size == 0)
    {
      nsc_error_set (error,
                     options->file_size == NSC_TARGET_SIZE_FREE
                     ? NSC_PROBLEM_TARGET_NOTHING_TO_FILL : NSC_PROBLEM_TARGET_FILE_TOO_SMALL,
                     &(NscErrorFields) { .path = dir });
      return NULL;
    }

  if (!fits)
    {
      nsc_error_set (error, NSC_PROBLEM_TARGET_NO_SPACE,
                     &(NscErrorFields) { .path = dir, .bytes = size, .bytes2 = free_bytes });
      return NULL;
    }

  if (fallocate (self->fd, 0, 0, (off_t) size) != 0)
    {
      if (errno == ENOSPC || errno == EDQUOT)
        {
          nsc_error_set (error, NSC_PROBLEM_TARGET_NO_SPACE_ALLOCATING,
                         &(NscErrorFields) { .path = dir, .bytes = size });
          return NULL;
        }
      if (ftruncate (self->fd, (off_t) size) != 0)
        {
          nsc_error_set_errno (error, NSC_PROBLEM_TARGET_CANNOT_SIZE, errno,
                               &(NscErrorFields) { .path = dir });
          return NULL;
        }
    }
  self->size = size;

  return g_steal_pointer (&self);
}

static NscTarget *
open_device_target (const char              *path,
                    const struct stat       *st_path,
                    const NscTargetOptions  *options,
                    GError                 **error)
{
  g_autoptr(NscTarget) self = target_new (NSC_TARGET_DEVICE, path);
  struct stat st;
  guint64 size = 0;
  int lbs = 0, pbs = 0;
  int flags = O_DIRECT | O_CLOEXEC;

  /* A handed-over descriptor is ours from here on: freeing the target closes it. */
  if (options->device_fd >= 0)
    self->fd = options->device_fd;

  if (options->need_write)
    {
      struct stat confirm;

      /* Consent names a device; it must be this very device, compared by number
       * so that another name (a symlink, /dev/disk/by-id/…) for it counts too. */
      /* Where the node cannot be seen (a sandbox), consent names the very path the
       * descriptor was handed over for. */
      gboolean hidden = self->fd >= 0 && options->destroy_data != NULL
                        && stat (options->destroy_data, &confirm) != 0 && errno == ENOENT
                        && g_strcmp0 (options->destroy_data, path) == 0;

      if (!hidden
          && (options->destroy_data == NULL || stat (options->destroy_data, &confirm) != 0
              || !S_ISBLK (confirm.st_mode) || confirm.st_rdev != st_path->st_rdev))
        {
          nsc_error_set (error, NSC_PROBLEM_TARGET_NOT_AGREED, &(NscErrorFields) { .path = path });
          return NULL;
        }
      flags |= O_RDWR | O_EXCL;
    }
  else
    flags |= O_RDONLY;

  /* A descriptor handed over by a privileged service (UDisks2 after polkit asked the
   * user) stands in for our own open; it is checked like one below. */
  if (self->fd >= 0)
    {
      int mode = fcntl (self->fd, F_GETFL);

      if (mode < 0 || (options->need_write && (mode & O_ACCMODE) != O_RDWR))
        {
          nsc_error_set (error, NSC_PROBLEM_TARGET_FD_NOT_WRITABLE, &(NscErrorFields) { .path = path });
          return NULL;
        }
      if (!(mode & O_DIRECT) && fcntl (self->fd, F_SETFL, mode | O_DIRECT) != 0)
        {
          nsc_error_set_errno (error, NSC_PROBLEM_TARGET_FD_NO_DIRECT_IO, errno,
                               &(NscErrorFields) { .path = path });
          return NULL;
        }
      if (options->need_write)
        {
          /* O_EXCL leaves no trace in the descriptor's flags, but while it holds the
           * device a second exclusive open fails with EBUSY. Where we may not open the
           * node at all (no root: the reason it was handed over; a sandbox without
           * it), the service that opened it was asked for O_EXCL and the kernel
           * enforces it. */
          int probe = open (path, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);

          if (probe >= 0)
            {
              close (probe);
              nsc_error_set (error, NSC_PROBLEM_TARGET_FD_NOT_EXCLUSIVE,
                             &(NscErrorFields) { .path = path });
              return NULL;
            }
          if (errno != EBUSY && errno != EACCES && errno != EPERM && errno != ENOENT)
            {
              nsc_error_set_errno (error, NSC_PROBLEM_TARGET_CANNOT_CHECK_EXCLUSIVE, errno,
                                   &(NscErrorFields) { .path = path });
              return NULL;
            }
        }
    }
  else
    {
      /* After a writer closes a device, udev may rescan its partitions, which claims
       * the device for a moment: EBUSY then is not "in use", so wait it out (2 s). */
      for (guint attempt = 0; attempt < 20; attempt++)
        {
          self->fd = open (path, flags);
          if (self->fd >= 0 || errno != EBUSY || !(flags & O_EXCL))
            break;
          g_usleep (G_USEC_PER_SEC / 10);
        }
    }
  if (self->fd < 0)
    {
      int errsv = errno;

      if (errsv == EBUSY)
        nsc_error_set (error, NSC_PROBLEM_TARGET_IN_USE, &(NscErrorFields) { .path = path });
      else if (errsv == EACCES || errsv == EPERM)
        nsc_error_set (error, NSC_PROBLEM_TARGET_NEEDS_ROOT, &(NscErrorFields) { .path = path });
      else
        nsc_error_set_errno (error, NSC_PROBLEM_TARGET_CANNOT_OPEN, errsv,
                             &(NscErrorFields) { .path = path });
      return NULL;
    }

  /* Check what was opened, not what the name pointed to a moment earlier. */
  if (fstat (self->fd, &st) != 0 || !S_ISBLK (st.st_mode) || st.st_rdev != st_path->st_rdev)
    {
      nsc_error_set (error, NSC_PROBLEM_TARGET_CHANGED, &(NscErrorFields) { .path = path });
      return NULL;
    }

  if (ioctl (self->fd, BLKGETSIZE64, &size) != 0 || ioctl (self->fd, BLKSSZGET, &lbs) != 0)
    {
      nsc_error_set_errno (error, NSC_PROBLEM_TARGET_CANNOT_READ_SIZE, errno,
                           &(NscErrorFields) { .path = path });
      return NULL;
    }
  if (ioctl (self->fd, BLKPBSZGET, &pbs) != 0)
    pbs = lbs;

  self->size = size;
  self->rdev = st.st_rdev;
  self->logical_block_size = (guint) lbs;
  query_dio_alignment (self, (guint) lbs);
  self->writable = options->need_write;
  self->exclusive = options->need_write;
  self->description = g_strdup (path);

  if (size == 0)
    {
      nsc_error_set (error, NSC_PROBLEM_TARGET_NO_CAPACITY, &(NscErrorFields) { .path = path });
      return NULL;
    }

  return g_steal_pointer (&self);
}

NscTarget *
nsc_target_open (const char              *path,
                 const NscTargetOptions  *options,
                 GError                 **error)
{
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  if (*path == '\0')
    {
      nsc_error_set (error, NSC_PROBLEM_TARGET_NONE, NULL);
      return NULL;
    }

  if (stat (path, &st) == 0 && S_ISBLK (st.st_mode))
    return open_device_target (path, &st, options, error);
  /* In a sandbox (Flatpak) /dev has no drives: the descriptor UDisks2 handed over,
   * checked against /sys by the front end, is the device; its fstat stands for the
   * node's. */
  if (options->device_fd >= 0 && errno == ENOENT && fstat (options->device_fd, &st) == 0
      && S_ISBLK (st.st_mode))
    return open_device_target (path, &st, options, error);
  if (options->device_fd >= 0)
    {
      close (options->device_fd);
      nsc_error_set (error, NSC_PROBLEM_TARGET_FD_NOT_DEVICE, &(NscErrorFields) { .path = path });
      return NULL;
    }
  if (stat (path, &st) == 0 && !S_ISDIR (st.st_mode) && !S_ISREG (st.st_mode))
    {
      nsc_error_set (error, NSC_PROBLEM_TARGET_KIND, &(NscErrorFields) { .path = path });
      return NULL;
    }
  return open_file_target (path, options, error);
}

gboolean
nsc_target_check_io (NscTarget  *self,
                     guint64     block_size,
                     guint64     offset,
                     guint64     length,
                     GError    **error)
{
  guint align = self->dio_offset_align;

  if (block_size % align != 0)
    {
      nsc_error_set (error, NSC_PROBLEM_TARGET_BLOCK_UNALIGNED,
                     &(NscErrorFields) { .path = self->description, .bytes = block_size, .n = align });
      return FALSE;
    }
  if (offset % align != 0)
    {
      nsc_error_set (error, NSC_PROBLEM_TARGET_OFFSET_UNALIGNED,
                     &(NscErrorFields) { .bytes = offset, .n = align });
      return FALSE;
    }
  if (offset > self->size || length > self->size - offset || length < block_size)
    {
      nsc_error_set (error, NSC_PROBLEM_TARGET_REGION_OUTSIDE,
                     &(NscErrorFields) { .path = self->description, .bytes = offset,
                                         .bytes2 = length, .bytes3 = self->size });
      return FALSE;
    }
  return TRUE;
}

gboolean
nsc_target_sync (NscTarget  *self,
                 GError    **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->kind != NSC_TARGET_FILE || self->fd < 0)
    return TRUE;
  if (fdatasync (self->fd) != 0)
    {
      nsc_error_set_errno (error, NSC_PROBLEM_TARGET_CANNOT_SYNC, errno,
                           &(NscErrorFields) { .path = self->description });
      return FALSE;
    }
  return TRUE;
}

gboolean
nsc_target_trim (NscTarget     *self,
                 guint64        offset,
                 guint64        length,
                 GCancellable  *cancellable,
                 guint64       *out_trimmed,
                 GError       **error)
{
  /* 1 GiB at a time: a drive may stall on a large discard, and cancel waits for at
   * most one chunk. */
  const guint64 chunk = G_GUINT64_CONSTANT (1) << 30;
  guint64 done = 0;

  if (out_trimmed)
    *out_trimmed = 0;
  if (offset > self->size || length > self->size - offset)
    {
      nsc_error_set (error, NSC_PROBLEM_TRIM_RANGE_OUTSIDE,
                     &(NscErrorFields) { .path = self->description });
      return FALSE;
    }
  if (!self->writable)
    {
      nsc_error_set (error, NSC_PROBLEM_TRIM_READ_ONLY, &(NscErrorFields) { .path = self->description });
      return FALSE;
    }

  while (done < length)
    {
      guint64 n = MIN (chunk, length - done);
      int ret;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        break;
      if (self->kind == NSC_TARGET_DEVICE)
        {
          guint64 range[2] = { offset + done, n };
          ret = ioctl (self->fd, BLKDISCARD, range);
        }
      else
        ret = fallocate (self->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                         (off_t) (offset + done), (off_t) n);
      if (ret != 0)
        {
          int errsv = errno;
          if (errsv == EOPNOTSUPP || errsv == EINVAL)
            nsc_error_set (error, NSC_PROBLEM_TRIM_UNSUPPORTED,
                           &(NscErrorFields) {
                             .path = self->description,
                             .text = self->kind == NSC_TARGET_DEVICE ? "discard" : "punching holes" });
          else
            nsc_error_set_errno (error, NSC_PROBLEM_TRIM_FAILED, errsv,
                                 &(NscErrorFields) { .path = self->description });
          break;
        }
      nsc_extents_remove (self->written, offset + done, n);
      done += n;
    }

  if (out_trimmed)
    *out_trimmed = done;
  return done == length;
}

gboolean
nsc_target_is_gone (NscTarget *self)
{
  g_autofree char *sys = NULL;
  guint64 size = 0;

  if (self->kind != NSC_TARGET_DEVICE)
    return FALSE;
  /* A removed disk keeps its node a while, but its size drops to 0 and its sysfs
   * entry goes. */
  if (ioctl (self->fd, BLKGETSIZE64, &size) != 0 || size == 0)
    return TRUE;
  sys = g_strdup_printf ("/sys/dev/block/%u:%u", major (self->rdev), minor (self->rdev));
  return !g_file_test (sys, G_FILE_TEST_EXISTS);
}

const char *
nsc_target_get_trim_method (NscTarget *self)
{
  return self->kind == NSC_TARGET_DEVICE ? "BLKDISCARD" : "punch hole";
}

gboolean
nsc_target_get_discard_reaches_drive (NscTarget *self)
{
  return self->kind == NSC_TARGET_DEVICE || self->fs_discard;
}

void
nsc_target_note_written (NscTarget *self,
                         guint64    offset,
                         guint64    length,
                         guint64    bytes)
{
  WriteRecord rec = { offset, offset + length, now_ns (), 0 };

  g_mutex_lock (&self->log_lock);
  self->total_written += bytes;
  rec.total_after = self->total_written;
  /* Drop records the new one covers; keep the log short. */
  for (guint i = self->write_log->len; i > 0; i--)
    {
      WriteRecord *r = &g_array_index (self->write_log, WriteRecord, i - 1);
      if (r->start >= rec.start && r->end <= rec.end)
        g_array_remove_index (self->write_log, i - 1);
    }
  if (self->write_log->len >= WRITE_LOG_MAX)
    g_array_remove_index (self->write_log, 0);
  g_array_append_val (self->write_log, rec);
  g_mutex_unlock (&self->log_lock);
}

gboolean
nsc_target_last_write (NscTarget *self,
                       guint64    offset,
                       guint64    length,
                       gint64    *age_ns,
                       guint64   *bytes_since)
{
  gboolean found = FALSE;

  g_mutex_lock (&self->log_lock);
  for (guint i = self->write_log->len; i > 0 && !found; i--)
    {
      WriteRecord *r = &g_array_index (self->write_log, WriteRecord, i - 1);

      if (r->end <= offset || r->start >= offset + length)
        continue;
      found = TRUE;
      if (age_ns)
        *age_ns = now_ns () - r->time_ns;
      if (bytes_since)
        *bytes_since = self->total_written - r->total_after;
    }
  g_mutex_unlock (&self->log_lock);
  return found;
}

int            nsc_target_get_fd          (NscTarget *self) { return self->fd; }
NscTargetKind  nsc_target_get_kind        (NscTarget *self) { return self->kind; }
const char    *nsc_target_get_path        (NscTarget *self) { return self->path; }
const char    *nsc_target_get_description (NscTarget *self) { return self->description; }
guint64        nsc_target_get_size        (NscTarget *self) { return self->size; }
guint          nsc_target_get_logical_block_size (NscTarget *self) { return self->logical_block_size; }
guint          nsc_target_get_dio_offset_align   (NscTarget *self) { return self->dio_offset_align; }
guint          nsc_target_get_dio_mem_align      (NscTarget *self) { return self->dio_mem_align; }
const char    *nsc_target_get_filesystem  (NscTarget *self) { return self->filesystem; }
gboolean       nsc_target_get_used_tmpfile (NscTarget *self) { return self->used_tmpfile; }
gboolean       nsc_target_get_writable    (NscTarget *self) { return self->writable; }
gboolean       nsc_target_get_exclusive   (NscTarget *self) { return self->exclusive; }
const char    *nsc_target_get_caveat      (NscTarget *self) { return self->caveat; }
NscExtents    *nsc_target_get_written     (NscTarget *self) { return self->written; }

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "nsc-device-safety.h"
#include "nsc-device-private.h"
#include "nsc-error.h"

char *
nsc_device_find_mount (const char *mountinfo,
                       guint       dev_major,
                       guint       dev_minor)
{
  g_autoptr(GPtrArray) mounts = nsc_mountinfo_parse (mountinfo);
  const NscMountEntry *m = nsc_mountinfo_find (mounts, dev_major, dev_minor);

  return m ? g_strdup (m->mountpoint) : NULL;
}

/* ---- the devices a test would touch -------------------------------------------- */

typedef struct
{
  char  *name;      /* "sdb1" */
  char  *sysdir;    /* its resolved sysfs folder */
  guint  major;
  guint  minor;
} Dev;

static void
dev_free (Dev *d)
{
  g_free (d->name);
  g_free (d->sysdir);
  g_free (d);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Dev, dev_free)

static gboolean
read_dev_file (const char *dir,
               guint      *ma,
               guint      *mi)
{
  g_autofree char *path = g_build_filename (dir, "dev", NULL);
  g_autofree char *text = NULL;

  return g_file_get_contents (path, &text, NULL, NULL) && sscanf (text, "%u:%u", ma, mi) == 2;
}

static Dev *
dev_new (const char *sysdir)
{
  Dev *d = g_new0 (Dev, 1);

  d->sysdir = g_strdup (sysdir);
  d->name = g_path_get_basename (sysdir);
  if (!read_dev_file (sysdir, &d->major, &d->minor))
    {
      dev_free (d);
      return NULL;
    }
  return d;
}

static gboolean
is_partition_dir (const char *sysdir)
{
  g_autofree char *p = g_build_filename (sysdir, "partition", NULL);
  return g_file_test (p, G_FILE_TEST_EXISTS);
}

/* Whether @path (a mount source, a swap file name, a loop's backing file, the
 * target of a /proc/<pid>/fd link) is the node of @d: by its name, and on the
 * running system by its device number. */
static gboolean
names_dev (const NscUsageTables *t,
           const char           *path,
           const Dev            *d)
{
  g_autofree char *node = g_strdup_printf ("/dev/%s", d->name);
  struct stat st;

  if (path == NULL || *path == '\0')
    return FALSE;
  if (g_str_equal (path, node))
    return TRUE;
  /* Device nodes live under a /dev (devtmpfs, or a container's): stat()ing any other
   * path could wait on a network filesystem, so only those are asked. */
  return t->live && strstr (path, "/dev/") != NULL && stat (path, &st) == 0
         && S_ISBLK (st.st_mode) && major (st.st_rdev) == d->major && minor (st.st_rdev) == d->minor;
}

/* ---- one device: mounts, swap, holders, btrfs ------------------------------------ */

/* Where @d is mounted, or NULL: by number, or by the mount's source (btrfs shows
 * anonymous numbers, 0:N, in mountinfo). */
static const NscMountEntry *
find_mount (const NscUsageTables *t,
            GPtrArray            *mounts,
            const Dev            *d)
{
  for (guint i = 0; i < mounts->len; i++)
    {
      const NscMountEntry *m = g_ptr_array_index (mounts, i);

      if ((m->major == d->major && m->minor == d->minor) || names_dev (t, m->source, d))
        return m;
    }
  return NULL;
}

static gboolean
check_dev (const NscUsageTables *t,
           GPtrArray            *mounts,
           const Dev            *d,
           const char           *device,
           GError              **error)
{
  g_autofree char *node = g_strdup_printf ("/dev/%s", d->name);
  g_autofree char *hdir = g_build_filename (d->sysdir, "holders", NULL);
  g_autofree char *btrfs = g_build_filename (t->sysfs_root, "fs", "btrfs", NULL);
  g_autoptr(GDir) dir = NULL;
  const NscMountEntry *m = find_mount (t, mounts, d);
  const char *e;

  if (m != NULL)
    {
      const char *system = g_str_equal (m->mountpoint, "/") ? " (the system drive)" : "";

      if (g_str_equal (node, device) || g_str_has_prefix (node, device))
        g_set_error (error, NSC_ERROR, NSC_ERROR_BUSY,
                     _("%s is mounted at %s%s; unmount it, or choose a test folder on it instead"),
                     node, m->mountpoint, system);
      else
        g_set_error (error, NSC_ERROR, NSC_ERROR_BUSY,
                     _("%s is mounted at %s%s, on the same disk as %s; unmount it before a "
                       "test that writes to %s, or choose a test folder on it instead"),
                     node, m->mountpoint, system, device, device);
      return FALSE;
    }

  if (t->swaps != NULL)
    {
      g_auto(GStrv) lines = g_strsplit (t->swaps, "\n", -1);

      for (guint i = 1; lines[0] && lines[i]; i++)
        {
          g_auto(GStrv) f = g_strsplit_set (lines[i], " \t", 2);
          g_autofree char *file = f[0] ? g_strcompress (f[0]) : NULL;

          if (names_dev (t, file, d))
            {
              g_set_error (error, NSC_ERROR, NSC_ERROR_BUSY,
                           _("%s is used as swap; turn it off (swapoff %s) before a test that "
                             "writes to %s"), node, node, device);
              return FALSE;
            }
        }
    }

  dir = g_dir_open (hdir, 0, NULL);
  if (dir != NULL && (e = g_dir_read_name (dir)) != NULL)
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_BUSY,
                   _("%s is held by %s (LVM, RAID, dm-crypt or multipath); stop that device "
                     "before a test that writes to %s"), node, e, device);
      return FALSE;
    }
  g_clear_pointer (&dir, g_dir_close);

  /* A mounted btrfs lists every device it spans; mountinfo names only one. */
  dir = g_dir_open (btrfs, 0, NULL);
  while (dir != NULL && (e = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *member = g_build_filename (btrfs, e, "devices", d->name, NULL);

      if (g_file_test (member, G_FILE_TEST_EXISTS))
        {
          g_set_error (error, NSC_ERROR, NSC_ERROR_BUSY,
                       _("%s belongs to the mounted btrfs filesystem %s; unmount it before a "
                         "test that writes to %s"), node, e, device);
          return FALSE;
        }
    }
  return TRUE;
}

/* ---- users that do not claim the device: loop devices, open descriptors ---------- */

static gboolean
check_loops (const NscUsageTables *t,
             GPtrArray            *mounts,
             GPtrArray            *devs,
             const char           *device,
             GError              **error)
{
  g_autofree char *blockdir = g_build_filename (t->sysfs_root, "block", NULL);
  g_autoptr(GDir) dir = g_dir_open (blockdir, 0, NULL);
  const char *e;

  while (dir != NULL && (e = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *loopdir = NULL;
      g_autofree char *bf_path = NULL;
      g_autofree char *backing = NULL;

      if (!g_str_has_prefix (e, "loop"))
        continue;
      loopdir = g_build_filename (blockdir, e, NULL);
      bf_path = g_build_filename (loopdir, "loop", "backing_file", NULL);
      if (!g_file_get_contents (bf_path, &backing, NULL, NULL))
        continue;   /* not attached */
      g_strchomp (backing);

      for (guint i = 0; i < devs->len; i++)
        {
          const Dev *d = g_ptr_array_index (devs, i);
          g_autofree char *real = NULL;
          g_autoptr(Dev) loop = NULL;
          const NscMountEntry *m;

          if (!names_dev (t, backing, d))
            continue;
          real = _nsc_sysfs_resolve (loopdir);
          loop = dev_new (real);
          m = loop ? find_mount (t, mounts, loop) : NULL;
          if (m != NULL)
            g_set_error (error, NSC_ERROR, NSC_ERROR_BUSY,
                         _("/dev/%s backs the loop device /dev/%s, mounted at %s; unmount it and "
                           "detach the loop device (losetup -d /dev/%s) before a test that writes "
                           "to %s"), d->name, e, m->mountpoint, e, device);
          else
            g_set_error (error, NSC_ERROR, NSC_ERROR_BUSY,
                         _("/dev/%s backs the loop device /dev/%s; detach it (losetup -d /dev/%s) "
                           "before a test that writes to %s"), d->name, e, e, device);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
nsc_device_opener_is_prober (const char *proc_root,
                             const char *pid)
{
  static const char *const probers[] = { "systemd-udevd", "(udev-worker)", "udevd", "udisksd" };
  g_autofree char *at = g_strdup (pid);

  g_return_val_if_fail (proc_root != NULL && pid != NULL, FALSE);

  /* The process and its ancestors: what a udev worker runs is its child. */
  for (guint depth = 0; depth < 16; depth++)
    {
      g_autofree char *path = g_build_filename (proc_root, at, "stat", NULL);
      g_autofree char *stat = NULL;
      const char *open_paren, *close_paren;
      g_autofree char *comm = NULL;
      guint64 ppid;
      char state;

      /* "PID (COMM) STATE PPID …", where COMM may hold spaces and parentheses. */
      if (!g_file_get_contents (path, &stat, NULL, NULL)
          || (open_paren = strchr (stat, '(')) == NULL
          || (close_paren = strrchr (stat, ')')) == NULL || close_paren < open_paren)
        return FALSE;
      comm = g_strndup (open_paren + 1, close_paren - open_paren - 1);
      for (guint i = 0; i < G_N_ELEMENTS (probers); i++)
        if (g_str_equal (comm, probers[i]))
          return TRUE;
      if (sscanf (close_paren + 1, " %c %" G_GUINT64_FORMAT, &state, &ppid) != 2 || ppid <= 1)
        return FALSE;
      g_free (at);
      at = g_strdup_printf ("%" G_GUINT64_FORMAT, ppid);
    }
  return FALSE;
}

/* @out_prober: set to whether the opener found gives way on its own (see above). */
static gboolean
check_openers (const NscUsageTables *t,
               GPtrArray            *devs,
               const char           *device,
               gboolean             *out_prober,
               GError              **error)
{
  g_autoptr(GDir) proc = g_dir_open (t->proc_root, 0, NULL);
  const char *pid;

  while (proc != NULL && (pid = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *fddir = NULL;
      g_autoptr(GDir) fds = NULL;
      guint64 n;
      const char *fd;

      if (!g_ascii_string_to_unsigned (pid, 10, 1, G_MAXINT, &n, NULL) || (pid_t) n == t->self_pid)
        continue;
      fddir = g_build_filename (t->proc_root, pid, "fd", NULL);
      /* Another user's process without root: not readable, not seen (see the header). */
      fds = g_dir_open (fddir, 0, NULL);
      while (fds != NULL && (fd = g_dir_read_name (fds)) != NULL)
        {
          g_autofree char *link = g_build_filename (fddir, fd, NULL);
          g_autofree char *target = g_file_read_link (link, NULL);

          if (target == NULL || *target != '/')
            continue;   /* socket:[…], pipe:[…], anon_inode:…, or gone */
          for (guint i = 0; i < devs->len; i++)
            {
              const Dev *d = g_ptr_array_index (devs, i);
              g_autofree char *comm_path = NULL;
              g_autofree char *comm = NULL;

              /* The link's own path stat()s the open file itself, whatever its name. */
              if (!names_dev (t, target, d)
                  && !(t->live && strstr (target, "/dev/") != NULL && names_dev (t, link, d)))
                continue;
              comm_path = g_build_filename (t->proc_root, pid, "comm", NULL);
              if (g_file_get_contents (comm_path, &comm, NULL, NULL))
                g_strstrip (comm);
              *out_prober = nsc_device_opener_is_prober (t->proc_root, pid);
              g_set_error (error, NSC_ERROR, NSC_ERROR_BUSY,
                           _("/dev/%s is open in %s (process %s); close it there or stop that "
                             "program before a test that writes to %s"),
                           d->name, comm && *comm ? comm : "another program", pid, device);
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* ---- the check ------------------------------------------------------------------- */

gboolean
nsc_device_check_unused_at (const NscUsageTables *t,
                            const char           *name,
                            const char           *device,
                            GError              **error)
{
  g_autofree char *link = NULL;
  g_autofree char *real = NULL;
  g_autoptr(GPtrArray) devs = g_ptr_array_new_with_free_func ((GDestroyNotify) dev_free);
  g_autoptr(GPtrArray) mounts = NULL;
  Dev *target;

  g_return_val_if_fail (t != NULL && name != NULL, FALSE);
  if (device == NULL)
    device = name;

  link = g_build_filename (t->sysfs_root, "class", "block", name, NULL);
  real = _nsc_sysfs_resolve (link);
  if (!g_file_test (real, G_FILE_TEST_IS_DIR) || (target = dev_new (real)) == NULL)
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND,
                   _("%s is not a block device that sysfs knows, so it cannot be proven unused"),
                   device);
      return FALSE;
    }
  g_ptr_array_add (devs, target);

  {
    /* A partition is checked with its whole disk and every sibling partition: a VM or
     * a loop device on the whole disk reaches into it, and a sibling that is mounted
     * or open means the disk is in use (its partition table, a mistaken partition
     * number), so a writer must wait until the whole disk is free. */
    g_autofree char *disk = is_partition_dir (real) ? g_path_get_dirname (real)
                                                    : g_strdup (real);
    g_autoptr(GDir) dir = g_dir_open (disk, 0, NULL);
    const char *e;

    if (g_strcmp0 (disk, real) != 0)
      {
        Dev *whole = dev_new (disk);

        if (whole != NULL)
          g_ptr_array_add (devs, whole);
      }
    while (dir != NULL && (e = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *sub = g_build_filename (disk, e, NULL);
        Dev *part;

        if (g_strcmp0 (sub, real) != 0 && is_partition_dir (sub)
            && (part = dev_new (sub)) != NULL)
          g_ptr_array_add (devs, part);
      }
  }

  mounts = nsc_mountinfo_parse (t->mountinfo);
  for (guint i = 0; i < devs->len; i++)
    if (!check_dev (t, mounts, g_ptr_array_index (devs, i), device, error))
      return FALSE;
  if (!check_loops (t, mounts, devs, device, error))
    return FALSE;
  /* udev probes a device for a moment after a writer closed it (blkid, a partition
   * rescan), and UDisks2 after it: on the running system such an opener counts once it
   * stays for 2 s. Any other opener is refused at once. */
  for (guint attempt = 0; ; attempt++)
    {
      g_autoptr(GError) local = NULL;
      gboolean prober = FALSE;

      if (check_openers (t, devs, device, &prober, &local))
        return TRUE;
      if (!t->live || !prober || attempt >= 20)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      g_usleep (G_USEC_PER_SEC / 10);
    }
}

gboolean
nsc_device_check_writable (const char  *device,
                           GError     **error)
{
  g_autofree char *mountinfo = NULL;
  g_autofree char *swaps = NULL;
  g_autofree char *sysdir = NULL;
  g_autofree char *real = NULL;
  g_autofree char *name = NULL;
  NscUsageTables t = { "/sys", "/proc", NULL, NULL, getpid (), TRUE };
  struct stat st;

  if (stat (device, &st) != 0)
    {
      nsc_set_error_from_errno (error, errno, _("Cannot use %s"), device);
      return FALSE;
    }
  if (!S_ISBLK (st.st_mode))
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   _("%s is not a block device"), device);
      return FALSE;
    }
  if (!g_file_get_contents ("/proc/self/mountinfo", &mountinfo, NULL, NULL))
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_FAILED,
                   _("Cannot read the mount table, so %s cannot be proven unused"), device);
      return FALSE;
    }
  g_file_get_contents ("/proc/swaps", &swaps, NULL, NULL);
  t.mountinfo = mountinfo;
  t.swaps = swaps;

  sysdir = g_strdup_printf ("/sys/dev/block/%u:%u", major (st.st_rdev), minor (st.st_rdev));
  real = _nsc_sysfs_resolve (sysdir);
  name = g_path_get_basename (real);
  return nsc_device_check_unused_at (&t, name, device, error);
}

gboolean
nsc_device_check_func (gpointer     user_data,
                       const char  *device,
                       GError     **error)
{
  return nsc_device_check_writable (device, error);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "nsc-device-safety.h"
#include "nsc-error.h"

char *
nsc_device_find_mount (const char *mountinfo,
                       guint       dev_major,
                       guint       dev_minor)
{
  g_auto(GStrv) lines = g_strsplit (mountinfo, "\n", -1);

  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], " ", 6);
      guint ma, mi;

      /* id parent major:minor root mountpoint … */
      if (g_strv_length (f) < 5 || sscanf (f[2], "%u:%u", &ma, &mi) != 2)
        continue;
      if (ma == dev_major && mi == dev_minor)
        return g_strcompress (f[4]);
    }
  return NULL;
}

static gboolean
dir_has_entries (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  return dir != NULL && g_dir_read_name (dir) != NULL;
}

static gboolean
check_one (const char  *device,
           const char  *name,
           dev_t        dev,
           const char  *mountinfo,
           const char  *swaps,
           GError     **error)
{
  g_autofree char *mount = nsc_device_find_mount (mountinfo, major (dev), minor (dev));
  g_autofree char *holders = g_strdup_printf ("/sys/dev/block/%u:%u/holders",
                                              major (dev), minor (dev));
  g_autofree char *devnode = g_strdup_printf ("/dev/%s", name);

  if (mount != NULL)
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_BUSY,
                   "%s is mounted at %s%s; unmount it, or choose a test folder on it instead",
                   devnode, mount, g_str_equal (mount, "/") ? " (the system drive)" : "");
      return FALSE;
    }
  if (swaps != NULL)
    {
      g_auto(GStrv) lines = g_strsplit (swaps, "\n", -1);
      for (guint i = 1; lines[i]; i++)
        {
          struct stat st;
          g_auto(GStrv) f = g_strsplit_set (lines[i], " \t", 2);

          if (f[0] && *f[0] && stat (f[0], &st) == 0 && S_ISBLK (st.st_mode) && st.st_rdev == dev)
            {
              g_set_error (error, NSC_ERROR, NSC_ERROR_BUSY,
                           "%s is used as swap; turn it off (swapoff %s) before a write test",
                           devnode, devnode);
              return FALSE;
            }
        }
    }
  if (dir_has_entries (holders))
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_BUSY,
                   "%s is held by another device (LVM, RAID or dm-crypt); "
                   "stop that device before a write test on %s", devnode, device);
      return FALSE;
    }
  return TRUE;
}

gboolean
nsc_device_check_writable (const char  *device,
                           GError     **error)
{
  g_autofree char *mountinfo = NULL;
  g_autofree char *swaps = NULL;
  g_autofree char *sysdir = NULL;
  g_autofree char *name = NULL;
  g_autofree char *real = NULL;
  g_autoptr(GDir) dir = NULL;
  struct stat st;
  const char *entry;

  if (stat (device, &st) != 0)
    {
      nsc_set_error_from_errno (error, errno, "Cannot use %s", device);
      return FALSE;
    }
  if (!S_ISBLK (st.st_mode))
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   "%s is not a block device", device);
      return FALSE;
    }
  if (!g_file_get_contents ("/proc/self/mountinfo", &mountinfo, NULL, NULL))
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_FAILED,
                   "Cannot read the mount table, so %s cannot be proven unused", device);
      return FALSE;
    }
  g_file_get_contents ("/proc/swaps", &swaps, NULL, NULL);

  sysdir = g_strdup_printf ("/sys/dev/block/%u:%u", major (st.st_rdev), minor (st.st_rdev));
  real = g_canonicalize_filename (sysdir, "/");
  {
    char target[4096];
    ssize_t n = readlink (sysdir, target, sizeof target - 1);
    if (n > 0)
      {
        g_autofree char *parent = g_path_get_dirname (sysdir);
        target[n] = '\0';
        g_free (real);
        real = g_canonicalize_filename (target, parent);
      }
  }
  name = g_path_get_basename (real);

  if (!check_one (device, name, st.st_rdev, mountinfo, swaps, error))
    return FALSE;

  /* Partitions are subdirectories with a "partition" file. */
  dir = g_dir_open (real, 0, NULL);
  while (dir && (entry = g_dir_read_name (dir)))
    {
      g_autofree char *part = g_build_filename (real, entry, "partition", NULL);
      g_autofree char *devf = g_build_filename (real, entry, "dev", NULL);
      g_autofree char *devs = NULL;
      guint ma, mi;

      if (!g_file_test (part, G_FILE_TEST_EXISTS)
          || !g_file_get_contents (devf, &devs, NULL, NULL)
          || sscanf (devs, "%u:%u", &ma, &mi) != 2)
        continue;
      if (!check_one (device, entry, makedev (ma, mi), mountinfo, swaps, error))
        return FALSE;
    }

  return TRUE;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <gio/gunixfdlist.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "nsc-udisks.h"

/* Plain GDBus, no libudisks: two calls on the system bus. */
#define UDISKS_NAME      "org.freedesktop.UDisks2"
#define UDISKS_MANAGER   "/org/freedesktop/UDisks2/Manager"
#define UDISKS_BLOCKS    "/org/freedesktop/UDisks2/block_devices/"

G_DEFINE_QUARK (nsc-udisks-error-quark, nsc_udisks_error)

typedef struct
{
  char            *devnode;
  gboolean         writable;
  dev_t            rdev;
  GDBusConnection *bus;
} OpenData;

static void
open_data_free (OpenData *data)
{
  g_free (data->devnode);
  g_clear_object (&data->bus);
  g_free (data);
}

static void
return_unavailable (GTask      *task,
                    const char *why)
{
  g_task_return_new_error (task, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_UNAVAILABLE,
                           /* TRANSLATORS: %s says why, e.g. "the system bus is not running" */
                           _("UDisks2 is not available (%s), so Nandscope cannot open raw devices "
                             "without root; run nandscope-cli as root, or test a folder on the "
                             "drive"), why);
}

/* The bus answered for UDisks2 itself: it is neither running nor activatable. */
static gboolean
is_service_missing (const GError *error)
{
  g_autofree char *remote = g_dbus_error_get_remote_error (error);

  return g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SPAWN_EXEC_FAILED)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SPAWN_CHILD_EXITED)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SPAWN_FAILED)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SPAWN_SERVICE_INVALID)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_TIMED_OUT)
         || g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY)
         || g_strcmp0 (remote, "org.freedesktop.systemd1.NoSuchUnit") == 0
         || g_strcmp0 (remote, "org.freedesktop.systemd1.UnitMasked") == 0;
}

static void
on_open_device (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OpenData *data = g_task_get_task_data (task);
  g_autoptr(GUnixFDList) fds = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  struct stat st;
  gint32 handle = -1;
  int fd;

  reply = g_dbus_connection_call_with_unix_fd_list_finish (G_DBUS_CONNECTION (source), &fds,
                                                           result, &error);
  if (reply == NULL)
    {
      g_autofree char *remote = g_dbus_error_get_remote_error (error);

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_dbus_error_strip_remote_error (error);

      if (remote != NULL && g_str_has_prefix (remote, "org.freedesktop.UDisks2.Error.NotAuthorized"))
        g_task_return_new_error (task, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_NOT_AUTHORIZED,
                                 _("Opening %s was not authorized (%s). Testing a raw device "
                                   "needs an administrator's consent; ask one, run "
                                   "nandscope-cli as root, or test a folder on the drive"),
                                 data->devnode, error->message);
      else if (is_service_missing (error))
        return_unavailable (task, error->message);
      /* UDisks2 says "Error opening device /dev/sdb: Device or resource busy" (its
       * %m, in the daemon's language: usually C). */
      else if (g_strcmp0 (remote, "org.freedesktop.UDisks2.Error.DeviceBusy") == 0
               || strstr (error->message, "Device or resource busy") != NULL
               || strstr (error->message, g_strerror (EBUSY)) != NULL)
        g_task_return_new_error (task, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_BUSY,
                                 _("%s is in use: something on it is mounted, used as swap or "
                                   "held by another device. Unmount it (in Files or Disks) "
                                   "and try again, or test a folder on it"), data->devnode);
      else
        g_task_return_new_error (task, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_FAILED,
                                 _("UDisks2 could not open %s: %s"), data->devnode,
                                 error->message);
      return;
    }

  g_variant_get (reply, "(h)", &handle);
  fd = fds != NULL ? g_unix_fd_list_get (fds, handle, &error) : -1;
  /* Cancelled while UDisks2 answered: the descriptor is ours to close, or the
   * drive stays open (and, exclusive, busy) as long as the app runs. */
  if (fd >= 0 && g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      close (fd);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("Cancelled before the drive was opened"));
      return;
    }
  if (fd < 0)
    {
      g_task_return_new_error (task, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_FAILED,
                               _("UDisks2 opened %s but sent no descriptor%s%s"), data->devnode,
                               error ? ": " : "", error ? error->message : "");
      return;
    }

  /* The descriptor must be the device the user chose, whatever the object path
   * turned out to name. */
  if (fstat (fd, &st) != 0 || !S_ISBLK (st.st_mode) || st.st_rdev != data->rdev)
    {
      close (fd);
      g_task_return_new_error (task, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_FAILED,
                               _("UDisks2 opened another device than %s; nothing was tested"),
                               data->devnode);
      return;
    }

  g_task_return_int (task, fd);
}

static void
open_object (GTask      *task,
             const char *object_path)
{
  OpenData *data = g_task_get_task_data (task);
  GVariantBuilder options;
  /* UDisks 2.9 takes any open(2) flags but the access mode, which "mode" sets.
   * O_EXCL makes the kernel refuse a device that is mounted or held: the guard
   * that stands behind our own checks. */
  gint32 flags = O_DIRECT | O_CLOEXEC | (data->writable ? O_EXCL : 0);

  g_debug ("UDisks2: opening %s (%s) %s", data->devnode, object_path,
           data->writable ? "rw" : "r");

  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&options, "{sv}", "flags", g_variant_new_int32 (flags));

  /* No timeout: polkit may be waiting for the user to type a password. */
  g_dbus_connection_call_with_unix_fd_list (data->bus, UDISKS_NAME, object_path,
                                            "org.freedesktop.UDisks2.Block", "OpenDevice",
                                            g_variant_new ("(sa{sv})",
                                                           data->writable ? "rw" : "r",
                                                           &options),
                                            G_VARIANT_TYPE ("(h)"),
                                            G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION,
                                            G_MAXINT, NULL, g_task_get_cancellable (task),
                                            on_open_device, g_object_ref (task));
}

/* UDisks2 names its objects after the kernel's name, with non-alphanumerics escaped;
 * for the names the kernel gives whole disks ("sdb", "nvme0n1", "loop3") that is the
 * name itself. Used only when ResolveDevice is missing (UDisks2 < 2.7.3). */
static char *
fallback_object_path (const char *devnode)
{
  g_autofree char *real = realpath (devnode, NULL);
  g_autofree char *base = g_path_get_basename (real ? real : devnode);
  GString *path = g_string_new (UDISKS_BLOCKS);

  for (const char *p = base; *p; p++)
    {
      if (g_ascii_isalnum (*p))
        g_string_append_c (path, *p);
      else
        g_string_append_printf (path, "_%02x", (guchar) *p);
    }
  return g_string_free (path, FALSE);
}

static void
on_resolved (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OpenData *data = g_task_get_task_data (task);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree const char **paths = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  if (reply == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else if (g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD))
        {
          g_autofree char *path = fallback_object_path (data->devnode);
          open_object (task, path);
        }
      else if (is_service_missing (error))
        {
          g_dbus_error_strip_remote_error (error);
          return_unavailable (task, error->message);
        }
      else
        {
          g_dbus_error_strip_remote_error (error);
          g_task_return_new_error (task, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_FAILED,
                                   _("UDisks2 could not look up %s: %s"), data->devnode,
                                   error->message);
        }
      return;
    }

  g_variant_get (reply, "(^a&o)", &paths);
  if (paths == NULL || paths[0] == NULL)
    {
      g_task_return_new_error (task, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_NOT_FOUND,
                               _("UDisks2 does not know %s, so Nandscope cannot open it "
                                 "without root; run nandscope-cli as root, or test a folder "
                                 "on the drive"), data->devnode);
      return;
    }
  open_object (task, paths[0]);
}

static void
on_bus (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OpenData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  GVariantBuilder spec;

  data->bus = g_bus_get_finish (result, &error);
  if (data->bus == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        {
          g_autofree char *why = g_strdup_printf (_("no system bus: %s"), error->message);
          return_unavailable (task, why);
        }
      return;
    }

  g_variant_builder_init (&spec, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&spec, "{sv}", "path", g_variant_new_string (data->devnode));
  g_dbus_connection_call (data->bus, UDISKS_NAME, UDISKS_MANAGER,
                          "org.freedesktop.UDisks2.Manager", "ResolveDevice",
                          g_variant_new ("(a{sv}a{sv})", &spec, NULL),
                          G_VARIANT_TYPE ("(ao)"), G_DBUS_CALL_FLAGS_NONE,
                          60 * 1000, g_task_get_cancellable (task), on_resolved,
                          g_object_ref (task));
}

/* The "MAJOR:MINOR" in /sys/class/block/NAME/dev for /dev/NAME. */
static gboolean sysfs_device_number (const char *devnode,
                                     dev_t      *rdev);

/**
 * nsc_udisks_open_device_async:
 * See nsc-udisks.h.
 */
void
nsc_udisks_open_device_async (const char          *devnode,
                              gboolean             writable,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  OpenData *data;
  struct stat st;

  g_return_if_fail (devnode != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, nsc_udisks_open_device_async);
  /* GTask would turn a descriptor returned after a cancel into G_IO_ERROR_CANCELLED
   * and drop it, open; on_open_device () closes it itself instead, and the caller
   * closes one that arrives after it cancelled. */
  g_task_set_check_cancellable (task, FALSE);

  /* In a sandbox /dev has no drives: the number comes from the read-only /sys, and
   * the descriptor UDisks2 hands over must carry it (fstat in on_open_device ()). */
  if ((stat (devnode, &st) != 0 || !S_ISBLK (st.st_mode))
      && !(nsc_udisks_is_sandboxed () && sysfs_device_number (devnode, &st.st_rdev)))
    {
      g_task_return_new_error (task, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_NOT_FOUND,
                               _("%s is not a block device"), devnode);
      return;
    }

  data = g_new0 (OpenData, 1);
  data->devnode = g_strdup (devnode);
  data->writable = writable;
  data->rdev = st.st_rdev;
  g_task_set_task_data (task, data, (GDestroyNotify) open_data_free);

  g_bus_get (G_BUS_TYPE_SYSTEM, cancellable, on_bus, g_steal_pointer (&task));
}

int
nsc_udisks_open_device_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), -1);
  return (int) g_task_propagate_int (G_TASK (result), error);
}

/* ---- is UDisks2 there? ---------------------------------------------------------- */

static void
probe_unavailable (GTask      *task,
                   const char *why)
{
  g_task_return_new_error (task, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_UNAVAILABLE,
                           /* TRANSLATORS: %s says why, e.g. "no system bus" */
                           _("UDisks2 is not available (%s): the app cannot open drives here. "
                             "Test a folder on the drive instead"), why);
}

static void
on_probe_activatable (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result,
                                                             &error);
  g_autofree const char **names = NULL;

  if (reply == NULL)
    {
      probe_unavailable (task, error->message);
      return;
    }
  g_variant_get (reply, "(^a&s)", &names);
  if (names != NULL && g_strv_contains (names, UDISKS_NAME))
    g_task_return_boolean (task, TRUE);
  else
    probe_unavailable (task, _("it is not installed on this system"));
}

static void
on_probe_owner (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result,
                                                             &error);
  gboolean running = FALSE;

  if (reply != NULL)
    g_variant_get (reply, "(b)", &running);
  if (running)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  /* Not running: D-Bus may still start it on the first call. */
  g_dbus_connection_call (G_DBUS_CONNECTION (source), "org.freedesktop.DBus",
                          "/org/freedesktop/DBus", "org.freedesktop.DBus",
                          "ListActivatableNames", NULL, G_VARIANT_TYPE ("(as)"),
                          G_DBUS_CALL_FLAGS_NONE, 5000, g_task_get_cancellable (task),
                          on_probe_activatable, g_object_ref (task));
}

static void
on_probe_bus (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) bus = g_bus_get_finish (result, &error);

  if (bus == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        probe_unavailable (task, _("no system bus"));
      return;
    }
  g_dbus_connection_call (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                          "org.freedesktop.DBus", "NameHasOwner",
                          g_variant_new ("(s)", UDISKS_NAME), G_VARIANT_TYPE ("(b)"),
                          G_DBUS_CALL_FLAGS_NONE, 5000, g_task_get_cancellable (task),
                          on_probe_owner, g_object_ref (task));
}

void
nsc_udisks_probe_async (GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, nsc_udisks_probe_async);
  g_bus_get (G_BUS_TYPE_SYSTEM, cancellable, on_probe_bus, task);
}

gboolean
nsc_udisks_probe_finish (GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ---- drives, mounts and swap as UDisks2 reports them --------------------------- */

gboolean
nsc_udisks_is_sandboxed (void)
{
  return g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS);
}

void
nsc_udisks_drive_free (NscUdisksDrive *drive)
{
  if (drive == NULL)
    return;
  g_free (drive->devnode);
  g_free (drive->model);
  g_free (drive->serial);
  g_clear_pointer (&drive->mounts, g_ptr_array_unref);
  g_clear_pointer (&drive->swaps, g_ptr_array_unref);
  g_free (drive);
}

/* ObjectManager.GetManagedObjects: (a{oa{sa{sv}}}), or NULL with an NSC_UDISKS_ERROR. */
static GVariant *
get_managed_objects (GCancellable  *cancellable,
                     GError       **error)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GError) local_error = NULL;
  GVariant *reply;

  bus = g_bus_get_sync (G_BUS_TYPE_SYSTEM, cancellable, &local_error);
  if (bus == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      g_set_error (error, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_UNAVAILABLE,
                   _("UDisks2 is not available (no system bus: %s); run nandscope-cli as "
                     "root, or test a folder on the drive"), local_error->message);
      return NULL;
    }
  reply = g_dbus_connection_call_sync (bus, UDISKS_NAME, "/org/freedesktop/UDisks2",
                                       "org.freedesktop.DBus.ObjectManager", "GetManagedObjects",
                                       NULL, G_VARIANT_TYPE ("(a{oa{sa{sv}}})"),
                                       G_DBUS_CALL_FLAGS_NONE, 30 * 1000, cancellable,
                                       &local_error);
  if (reply == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      g_dbus_error_strip_remote_error (local_error);
      g_set_error (error, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_UNAVAILABLE,
                   _("UDisks2 is not available (%s); run nandscope-cli as root, or test a "
                     "folder on the drive"), local_error->message);
    }
  return reply;
}

static GVariant *
iface (GVariant   *ifaces,
       const char *name)
{
  return g_variant_lookup_value (ifaces, name, G_VARIANT_TYPE_VARDICT);
}

static char *
prop_bytestring (GVariant   *props,
                 const char *name)
{
  g_autoptr(GVariant) v = g_variant_lookup_value (props, name, G_VARIANT_TYPE_BYTESTRING);

  return v ? g_variant_dup_bytestring (v, NULL) : NULL;
}

static char *
prop_string (GVariant   *props,
             const char *name)
{
  g_autoptr(GVariant) v = g_variant_lookup_value (props, name, NULL);

  if (v == NULL)
    return NULL;
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_STRING)
      || g_variant_is_of_type (v, G_VARIANT_TYPE_OBJECT_PATH))
    return g_variant_dup_string (v, NULL);
  return NULL;
}

/* @devnode names this block: its Device, PreferredDevice or one of its Symlinks. */
static gboolean
block_has_name (GVariant   *block,
                const char *devnode)
{
  g_autofree char *device = prop_bytestring (block, "Device");
  g_autofree char *preferred = prop_bytestring (block, "PreferredDevice");
  g_autoptr(GVariant) links = g_variant_lookup_value (block, "Symlinks",
                                                      G_VARIANT_TYPE_BYTESTRING_ARRAY);

  if (g_strcmp0 (device, devnode) == 0 || g_strcmp0 (preferred, devnode) == 0)
    return TRUE;
  if (links != NULL)
    {
      g_autofree const char **names = g_variant_get_bytestring_array (links, NULL);

      for (guint i = 0; names[i] != NULL; i++)
        if (g_strcmp0 (names[i], devnode) == 0)
          return TRUE;
    }
  return FALSE;
}

/* Mounts and swap of the block at @block_path and of every partition on it. */
static void
collect_usage (GVariant       *objects,
               const char     *block_path,
               NscUdisksDrive *drive)
{
  GVariantIter iter;
  const char *path;
  GVariant *ifaces;

  g_variant_iter_init (&iter, objects);
  while (g_variant_iter_next (&iter, "{&o@a{sa{sv}}}", &path, &ifaces))
    {
      g_autoptr(GVariant) owned = ifaces;
      g_autoptr(GVariant) block = iface (ifaces, "org.freedesktop.UDisks2.Block");
      g_autoptr(GVariant) part = iface (ifaces, "org.freedesktop.UDisks2.Partition");
      g_autoptr(GVariant) fs = iface (ifaces, "org.freedesktop.UDisks2.Filesystem");
      g_autoptr(GVariant) swap = iface (ifaces, "org.freedesktop.UDisks2.Swapspace");
      g_autofree char *table = part ? prop_string (part, "Table") : NULL;
      g_autofree char *node = NULL;

      if (block == NULL || (g_strcmp0 (path, block_path) != 0 && g_strcmp0 (table, block_path) != 0))
        continue;
      node = prop_bytestring (block, "Device");
      if (fs != NULL)
        {
          g_autoptr(GVariant) points = g_variant_lookup_value (fs, "MountPoints",
                                                               G_VARIANT_TYPE_BYTESTRING_ARRAY);
          g_autofree const char **list = points ? g_variant_get_bytestring_array (points, NULL) : NULL;

          for (guint i = 0; list != NULL && list[i] != NULL; i++)
            g_ptr_array_add (drive->mounts, g_strdup_printf ("%s\t%s", node, list[i]));
        }
      if (swap != NULL)
        {
          gboolean active = FALSE;

          if (g_variant_lookup (swap, "Active", "b", &active) && active)
            g_ptr_array_add (drive->swaps, g_strdup (node));
        }
    }
}

/* The whole drive at @block_path with @ifaces, described; NULL when it has no Drive. */
static NscUdisksDrive *
describe_block (GVariant   *objects,
                const char *block_path,
                GVariant   *ifaces)
{
  g_autoptr(GVariant) block = iface (ifaces, "org.freedesktop.UDisks2.Block");
  g_autoptr(GVariant) part = iface (ifaces, "org.freedesktop.UDisks2.Partition");
  g_autofree char *drive_path = block ? prop_string (block, "Drive") : NULL;
  g_autoptr(GVariant) drive_ifaces = NULL;
  g_autoptr(GVariant) props = NULL;
  NscUdisksDrive *drive;

  if (block == NULL || part != NULL || drive_path == NULL || g_strcmp0 (drive_path, "/") == 0)
    return NULL;
  drive_ifaces = g_variant_lookup_value (objects, drive_path, G_VARIANT_TYPE ("a{sa{sv}}"));
  props = drive_ifaces ? iface (drive_ifaces, "org.freedesktop.UDisks2.Drive") : NULL;
  if (props == NULL)
    return NULL;

  drive = g_new0 (NscUdisksDrive, 1);
  drive->devnode = prop_bytestring (block, "Device");
  drive->model = prop_string (props, "Model");
  drive->serial = prop_string (props, "Serial");
  g_variant_lookup (props, "Size", "t", &drive->size);
  g_variant_lookup (block, "DeviceNumber", "t", &drive->device_number);
  drive->mounts = g_ptr_array_new_with_free_func (g_free);
  drive->swaps = g_ptr_array_new_with_free_func (g_free);
  collect_usage (objects, block_path, drive);
  return drive;
}

/* The drives in a GetManagedObjects reply. */
static GPtrArray *
drives_from_reply (GVariant *reply)
{
  g_autoptr(GVariant) objects = g_variant_get_child_value (reply, 0);
  GPtrArray *drives = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_udisks_drive_free);
  GVariantIter iter;
  const char *path;
  GVariant *ifaces;

  g_variant_iter_init (&iter, objects);
  while (g_variant_iter_next (&iter, "{&o@a{sa{sv}}}", &path, &ifaces))
    {
      g_autoptr(GVariant) owned = ifaces;
      NscUdisksDrive *drive = describe_block (objects, path, ifaces);

      if (drive != NULL)
        g_ptr_array_add (drives, drive);
    }
  return drives;
}

/**
 * nsc_udisks_list_drives_sync:
 * See nsc-udisks.h.
 */
GPtrArray *
nsc_udisks_list_drives_sync (GCancellable  *cancellable,
                             GError       **error)
{
  g_autoptr(GVariant) reply = get_managed_objects (cancellable, error);

  return reply ? drives_from_reply (reply) : NULL;
}

/* The asynchronous list is the synchronous one in a thread of GTask's pool: one
 * place says what UDisks2's answer, or its absence, means. */
static void
list_drives_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  GError *error = NULL;
  GPtrArray *drives = nsc_udisks_list_drives_sync (cancellable, &error);

  if (drives == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, drives, (GDestroyNotify) g_ptr_array_unref);
}

/**
 * nsc_udisks_list_drives_async:
 * See nsc-udisks.h.
 */
void
nsc_udisks_list_drives_async (GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, nsc_udisks_list_drives_async);
  g_task_run_in_thread (task, list_drives_thread);
}

GPtrArray *
nsc_udisks_list_drives_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The object of the block named @devnode, with its interfaces; NULL if none. */
static const char *
find_block (GVariant    *objects,
            const char  *devnode,
            GVariant   **ifaces_out)
{
  GVariantIter iter;
  const char *path;
  GVariant *ifaces;

  g_variant_iter_init (&iter, objects);
  while (g_variant_iter_next (&iter, "{&o@a{sa{sv}}}", &path, &ifaces))
    {
      g_autoptr(GVariant) block = iface (ifaces, "org.freedesktop.UDisks2.Block");

      if (block != NULL && block_has_name (block, devnode))
        {
          *ifaces_out = ifaces;
          return path;
        }
      g_variant_unref (ifaces);
    }
  return NULL;
}

/**
 * nsc_udisks_describe_sync:
 * See nsc-udisks.h.
 */
NscUdisksDrive *
nsc_udisks_describe_sync (const char    *devnode,
                          GCancellable  *cancellable,
                          GError       **error)
{
  g_autoptr(GVariant) reply = get_managed_objects (cancellable, error);
  g_autoptr(GVariant) objects = NULL;
  g_autoptr(GVariant) ifaces = NULL;
  const char *path;
  NscUdisksDrive *drive = NULL;

  if (reply == NULL)
    return NULL;
  objects = g_variant_get_child_value (reply, 0);
  path = find_block (objects, devnode, &ifaces);
  if (path != NULL)
    drive = describe_block (objects, path, ifaces);
  if (drive == NULL)
    {
      /* A loop device has no Drive; its mounts and swap are still UDisks2's. */
      if (path != NULL)
        {
          g_autoptr(GVariant) block = iface (ifaces, "org.freedesktop.UDisks2.Block");

          drive = g_new0 (NscUdisksDrive, 1);
          drive->devnode = prop_bytestring (block, "Device");
          g_variant_lookup (block, "Size", "t", &drive->size);
          g_variant_lookup (block, "DeviceNumber", "t", &drive->device_number);
          drive->mounts = g_ptr_array_new_with_free_func (g_free);
          drive->swaps = g_ptr_array_new_with_free_func (g_free);
          collect_usage (objects, path, drive);
          return drive;
        }
      g_set_error (error, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_NOT_FOUND,
                   _("UDisks2 does not know %s; choose a drive from the list, or test a "
                     "folder on it"), devnode);
    }
  return drive;
}

/* The first holder (device-mapper, md, bcache) of @name or a partition of it, from
 * /sys (read-only in a sandbox, as outside). */
static char *
first_holder (const char *name)
{
  g_autofree char *sysdir = g_build_filename ("/sys/class/block", name, NULL);
  g_autoptr(GDir) dir = g_dir_open (sysdir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *entry;

  g_ptr_array_add (names, g_strdup ("."));
  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *part = g_build_filename (sysdir, entry, "partition", NULL);

      if (g_file_test (part, G_FILE_TEST_EXISTS))
        g_ptr_array_add (names, g_strdup (entry));
    }
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *holders = g_build_filename (sysdir, g_ptr_array_index (names, i),
                                                   "holders", NULL);
      g_autoptr(GDir) hd = g_dir_open (holders, 0, NULL);
      const char *holder = hd ? g_dir_read_name (hd) : NULL;

      if (holder != NULL)
        return g_strdup (holder);
    }
  return NULL;
}

/**
 * nsc_udisks_check_writable_sync:
 * See nsc-udisks.h.
 */
gboolean
nsc_udisks_check_writable_sync (const char    *devnode,
                                GCancellable  *cancellable,
                                GError       **error)
{
  g_autoptr(NscUdisksDrive) drive = nsc_udisks_describe_sync (devnode, cancellable, error);
  g_autofree char *name = NULL;
  g_autofree char *holder = NULL;

  if (drive == NULL)
    return FALSE;
  if (drive->mounts->len > 0)
    {
      g_auto(GStrv) fields = g_strsplit (g_ptr_array_index (drive->mounts, 0), "\t", 2);

      g_set_error (error, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_BUSY,
                   /* TRANSLATORS: "/dev/nvme1n1p1 is mounted at /mnt/data (UDisks2 …) */
                   _("%s is mounted at %s (as UDisks2 reports it), so a test that writes "
                     "cannot run on %s; unmount it in Files or Disks first, or test a folder "
                     "on it"), fields[0], fields[1], devnode);
      return FALSE;
    }
  if (drive->swaps->len > 0)
    {
      g_set_error (error, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_BUSY,
                   _("%s is in use as swap (as UDisks2 reports it), so a test that writes "
                     "cannot run on %s; turn that swap off first"),
                   (const char *) g_ptr_array_index (drive->swaps, 0), devnode);
      return FALSE;
    }
  name = g_path_get_basename (drive->devnode ? drive->devnode : devnode);
  holder = first_holder (name);
  if (holder != NULL)
    {
      g_set_error (error, NSC_UDISKS_ERROR, NSC_UDISKS_ERROR_BUSY,
                   _("%s is held by %s (a device built on it), so a test that writes cannot "
                     "run on it; stop %s first"), devnode, holder, holder);
      return FALSE;
    }
  return TRUE;
}

static gboolean
sysfs_device_number (const char *devnode,
                     dev_t      *rdev)
{
  g_autofree char *name = g_path_get_basename (devnode);
  g_autofree char *path = g_build_filename ("/sys/class/block", name, "dev", NULL);
  g_autofree char *text = NULL;
  guint major_nr, minor_nr;

  if (!g_str_has_prefix (devnode, "/dev/")
      || !g_file_get_contents (path, &text, NULL, NULL)
      || sscanf (text, "%u:%u", &major_nr, &minor_nr) != 2)
    return FALSE;
  *rdev = makedev (major_nr, minor_nr);
  return TRUE;
}

gboolean
nsc_udisks_check_func (gpointer      user_data,
                       const char   *device,
                       GError      **error)
{
  return nsc_udisks_check_writable_sync (device, NULL, error);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The app's UDisks2 client against a UDisks2 of our own on a private bus (as the
 * system bus): a descriptor it hands over must never stay open in the app once the
 * user cancelled, whenever the cancel comes. The service opens a loop device of the
 * test's own (root) read-only, as UDisks2 would. */
#include "config.h"

#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <gio/gunixfdlist.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsc-udisks.h"
#include "test-loop.h"

static const char introspection[] =
  "<node>"
  "  <interface name='org.freedesktop.UDisks2.Manager'>"
  "    <method name='ResolveDevice'>"
  "      <arg type='a{sv}' direction='in'/><arg type='a{sv}' direction='in'/>"
  "      <arg type='ao' direction='out'/>"
  "    </method>"
  "  </interface>"
  "  <interface name='org.freedesktop.UDisks2.Block'>"
  "    <method name='OpenDevice'>"
  "      <arg type='s' direction='in'/><arg type='a{sv}' direction='in'/>"
  "      <arg type='h' direction='out'/>"
  "    </method>"
  "  </interface>"
  "</node>";

#define BLOCK_PATH "/org/freedesktop/UDisks2/block_devices/test0"

typedef enum
{
  CANCEL_BEFORE_REPLY,     /* the user cancels while polkit asks: the answer comes late */
  CANCEL_BEFORE_FINISH,    /* the user cancels after UDisks2 answered */
} When;

typedef struct
{
  const char            *devnode;
  When                   when;
  GCancellable          *cancellable;
  GDBusMethodInvocation *pending;
  gboolean               done;
  int                    fd;
  GError                *error;
} Fixture;

static void
reply_with_fd (Fixture               *f,
               GDBusMethodInvocation *invocation)
{
  g_autoptr(GUnixFDList) fds = g_unix_fd_list_new ();
  int fd = open (f->devnode, O_RDONLY | O_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (g_unix_fd_list_append (fds, fd, NULL), ==, 0);
  close (fd);
  g_dbus_method_invocation_return_value_with_unix_fd_list (invocation,
                                                           g_variant_new ("(h)", 0), fds);
}

static void
on_method (GDBusConnection       *connection,
           const char            *sender,
           const char            *path,
           const char            *interface,
           const char            *method,
           GVariant              *params,
           GDBusMethodInvocation *invocation,
           gpointer               user_data)
{
  Fixture *f = user_data;

  if (g_str_equal (method, "ResolveDevice"))
    {
      const char *paths[] = { BLOCK_PATH, NULL };
      g_dbus_method_invocation_return_value (invocation, g_variant_new ("(^ao)", paths));
    }
  else if (f->when == CANCEL_BEFORE_REPLY)
    {
      /* The user gives up while "polkit" waits; the answer comes afterwards. */
      f->pending = g_object_ref (invocation);
      g_cancellable_cancel (f->cancellable);
    }
  else
    reply_with_fd (f, invocation);
}

static void
on_opened (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Fixture *f = user_data;

  /* The cancel lands between UDisks2's answer and the caller reading it. */
  if (f->when == CANCEL_BEFORE_FINISH)
    g_cancellable_cancel (f->cancellable);
  f->fd = nsc_udisks_open_device_finish (result, &f->error);
  f->done = TRUE;
}


/* Descriptors of this process open on @rdev. */
static guint
count_open (dev_t rdev)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  const char *e;
  guint n = 0;

  while (dir && (e = g_dir_read_name (dir)))
    {
      g_autofree char *path = g_build_filename ("/proc/self/fd", e, NULL);
      struct stat st;

      if (stat (path, &st) == 0 && S_ISBLK (st.st_mode) && st.st_rdev == rdev)
        n++;
    }
  return n;
}

static void
spin (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE), g_usleep (1000);
}

static GTestDBus *bus;

static void
run_case (gconstpointer data)
{
  When when = GPOINTER_TO_INT (data);
  g_autoptr(GDBusConnection) service = NULL;
  g_autoptr(GDBusNodeInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  GDBusInterfaceVTable vtable = { on_method, NULL, NULL, { 0 } };
  Fixture f = { .when = when, .fd = -1 };
  g_autofree char *backing = NULL;
  g_autofree char *loop = NULL;
  struct stat st;
  guint owner;

  if (bus == NULL)
    {
      g_test_skip ("dbus-daemon is missing");
      return;
    }
  if (geteuid () != 0)
    {
      g_test_skip ("needs root for a loop device");
      return;
    }
  backing = g_build_filename (g_get_tmp_dir (), "nsc-test-udisks-XXXXXX", NULL);
  g_close (g_mkstemp (backing), NULL);
  g_assert_cmpint (truncate (backing, 1 << 20), ==, 0);
  if ((loop = nsc_test_attach_loop (backing)) == NULL)
    {
      g_unlink (backing);
      g_test_skip ("no loop device available");
      return;
    }
  f.devnode = loop;

  service = g_dbus_connection_new_for_address_sync (g_test_dbus_get_bus_address (bus),
                                                    G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT
                                                    | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                    NULL, NULL, &error);
  g_assert_no_error (error);
  info = g_dbus_node_info_new_for_xml (introspection, &error);
  g_assert_no_error (error);
  g_dbus_connection_register_object (service, "/org/freedesktop/UDisks2/Manager",
                                     info->interfaces[0], &vtable, &f, NULL, &error);
  g_assert_no_error (error);
  g_dbus_connection_register_object (service, BLOCK_PATH, info->interfaces[1], &vtable, &f,
                                     NULL, &error);
  g_assert_no_error (error);
  owner = g_bus_own_name_on_connection (service, "org.freedesktop.UDisks2",
                                        G_BUS_NAME_OWNER_FLAGS_NONE, NULL, NULL, NULL, NULL);
  spin (100);

  g_assert_true (stat (f.devnode, &st) == 0);
  g_assert_cmpuint (count_open (st.st_rdev), ==, 0);

  f.cancellable = g_cancellable_new ();
  nsc_udisks_open_device_async (f.devnode, FALSE, f.cancellable, on_opened, &f);
  while (!f.done)
    g_main_context_iteration (NULL, TRUE);

  if (f.pending != NULL)
    {
      /* The late answer: GDBus drops it, and its descriptor with it. */
      reply_with_fd (&f, f.pending);
      g_clear_object (&f.pending);
    }
  spin (300);

  if (when == CANCEL_BEFORE_REPLY)
    {
      g_assert_cmpint (f.fd, ==, -1);
      g_assert_error (f.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    }
  else
    {
      /* Handed over despite the cancel: the caller owns it and closes it. */
      g_assert_no_error (f.error);
      g_assert_cmpint (f.fd, >=, 0);
      g_assert_cmpuint (count_open (st.st_rdev), ==, 1);
      close (f.fd);
    }
  g_assert_cmpuint (count_open (st.st_rdev), ==, 0);

  g_clear_error (&f.error);
  g_clear_object (&f.cancellable);
  g_bus_unown_name (owner);
  g_dbus_connection_close_sync (service, NULL, NULL);
  g_clear_object (&service);
  nsc_test_detach_loop (loop);
  g_unlink (backing);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *daemon = g_find_program_in_path ("dbus-daemon");
  int status;

  g_test_init (&argc, &argv, NULL);
  if (daemon != NULL)
    {
      bus = g_test_dbus_new (G_TEST_DBUS_NONE);
      g_test_dbus_up (bus);
      /* nsc-udisks talks to the system bus: let it be ours. */
      g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", g_test_dbus_get_bus_address (bus), TRUE);
    }
  g_test_add_data_func ("/nsc/udisks/cancel-before-reply", GINT_TO_POINTER (CANCEL_BEFORE_REPLY),
                        run_case);
  g_test_add_data_func ("/nsc/udisks/cancel-before-finish", GINT_TO_POINTER (CANCEL_BEFORE_FINISH),
                        run_case);
  status = g_test_run ();
  if (bus != NULL)
    {
      g_test_dbus_down (bus);
      g_object_unref (bus);
    }
  return status;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The app's drive path without its window, for the desktop guest: the same UDisks2
 * client (src/gui/nsc-udisks.c), in-use checks, runner and result as the window uses,
 * run as an ordinary user against the real udisksd and polkitd.
 *
 *   desktop-probe drives                   UDisks2's drives, as JSON
 *   desktop-probe check DEV                the checks before a test that writes
 *   desktop-probe open DEV [rw] [CANCEL_MS] [HOLD_MS]
 *                                          Block.OpenDevice (rw: read-write, O_EXCL);
 *                                          CANCEL_MS > 0 cancels that long after the call
 *   desktop-probe quick DEV OUT.json TIME  what Run does once the erase is confirmed:
 *                                          check, open through UDisks2, Quick, save
 *
 * Lines "@@CHECK …", "@@OPEN …", "@@RESULT …" carry what happened; exit 0 when it
 * went as asked, 2 refused or failed (the message on stdout), 3 cancelled. */
#include "config.h"

#include <fcntl.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "nsc-device.h"
#include "nsc-device-safety.h"
#include "nsc-preset.h"
#include "nsc-result.h"
#include "nsc-runner.h"
#include "nsc-udisks.h"
#include "nsc-units.h"

typedef struct
{
  GMainLoop *loop;
  int        fd;
  GError    *error;
  gboolean   ok;
} Wait;

static void
on_opened (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  Wait *w = user_data;

  w->fd = nsc_udisks_open_device_finish (result, &w->error);
  g_main_loop_quit (w->loop);
}

static gboolean
cancel_now (gpointer cancellable)
{
  g_print ("@@OPEN cancelling@@\n");
  g_cancellable_cancel (cancellable);
  return G_SOURCE_REMOVE;
}

/* The window's open_device (): UDisks2 opens it, polkit decides. */
static int
open_through_udisks (const char  *dev,
                     gboolean     writable,
                     guint        cancel_ms,
                     GError     **error)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Wait w = { g_main_loop_new (NULL, FALSE), -1, NULL, FALSE };

  nsc_udisks_open_device_async (dev, writable, cancellable, on_opened, &w);
  if (cancel_ms > 0)
    g_timeout_add (cancel_ms, cancel_now, cancellable);
  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  /* As the window does: a descriptor that comes after the cancel is closed. */
  if (w.fd >= 0 && g_cancellable_is_cancelled (cancellable))
    {
      close (w.fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled before the drive was opened");
      return -1;
    }
  if (w.fd < 0)
    g_propagate_error (error, w.error);
  return w.fd;
}

static int
report_error (const char   *what,
              const GError *error)
{
  g_print ("@@%s error %s %d@@ %s\n", what, g_quark_to_string (error->domain), error->code,
           error->message);
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? 3 : 2;
}

static int
cmd_drives (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) drives = nsc_udisks_list_drives_sync (NULL, &error);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  if (drives == NULL)
    return report_error ("DRIVES", error);
  json_builder_begin_array (b);
  for (guint i = 0; i < drives->len; i++)
    {
      NscUdisksDrive *d = g_ptr_array_index (drives, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "device");
      json_builder_add_string_value (b, d->devnode);
      json_builder_set_member_name (b, "model");
      json_builder_add_string_value (b, d->model);
      json_builder_set_member_name (b, "serial");
      json_builder_add_string_value (b, d->serial);
      json_builder_set_member_name (b, "size");
      json_builder_add_int_value (b, (gint64) d->size);
      json_builder_set_member_name (b, "device_number");
      {
        g_autofree char *numbers = g_strdup_printf ("%u:%u", major (d->device_number),
                                                    minor (d->device_number));
        json_builder_add_string_value (b, numbers);
      }
      json_builder_set_member_name (b, "mounts");
      json_builder_begin_array (b);
      for (guint k = 0; k < d->mounts->len; k++)
        json_builder_add_string_value (b, g_ptr_array_index (d->mounts, k));
      json_builder_end_array (b);
      json_builder_set_member_name (b, "swaps");
      json_builder_begin_array (b);
      for (guint k = 0; k < d->swaps->len; k++)
        json_builder_add_string_value (b, g_ptr_array_index (d->swaps, k));
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  root = json_builder_get_root (b);
  text = json_to_string (root, TRUE);
  g_print ("%s\n", text);
  return 0;
}

/* The window's checks before the confirmation: in a sandbox only UDisks2 can say what
 * is mounted; outside, the app's own check of the system's tables. */
static gboolean
check_writable (const char  *dev,
                GError     **error)
{
  if (nsc_udisks_is_sandboxed ())
    return nsc_udisks_check_writable_sync (dev, NULL, error);
  return nsc_device_check_writable (dev, error);
}

static int
cmd_check (const char *dev)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) udisks_error = NULL;
  gboolean udisks_ok = nsc_udisks_check_writable_sync (dev, NULL, &udisks_error);

  g_autoptr(GError) tables_error = NULL;

  g_print ("@@CHECK sandboxed %d@@\n", nsc_udisks_is_sandboxed ());
  /* What the system's own tables (/dev, /proc/self/mountinfo) say from here. */
  if (nsc_device_check_writable (dev, &tables_error))
    g_print ("@@CHECK tables ok@@\n");
  else
    g_print ("@@CHECK tables refused@@ %s\n", tables_error->message);
  if (udisks_ok)
    g_print ("@@CHECK udisks ok@@\n");
  else
    g_print ("@@CHECK udisks refused@@ %s\n", udisks_error->message);
  if (!check_writable (dev, &error))
    return report_error ("CHECK", error);
  g_print ("@@CHECK writable@@\n");
  return 0;
}

static guint
count_block_fds (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  const char *name;
  guint n = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      struct stat st;

      if (fstat (atoi (name), &st) == 0 && S_ISBLK (st.st_mode))
        n++;
    }
  return n;
}

static int
cmd_open (const char *dev,
          gboolean    writable,
          guint       cancel_ms,
          guint       hold_ms)
{
  g_autoptr(GError) error = NULL;
  struct stat st;
  int fd = open_through_udisks (dev, writable, cancel_ms, &error);

  if (fd < 0 && cancel_ms > 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      int rc = report_error ("OPEN", error);

      /* Long enough for UDisks2 to have answered the cancelled call: no descriptor of
       * a block device may be open in this process, and an exclusive open succeeds. */
      g_usleep (hold_ms * 1000);
      g_print ("@@OPEN block descriptors after the cancel: %u@@\n", count_block_fds ());
      g_clear_error (&error);
      fd = open_through_udisks (dev, TRUE, 0, &error);
      if (fd < 0)
        return report_error ("OPEN-AGAIN", error);
      g_print ("@@OPEN-AGAIN ok@@\n");
      close (fd);
      return rc;
    }
  if (fd < 0)
    return report_error ("OPEN", error);
  if (fstat (fd, &st) != 0)
    return 2;
  g_print ("@@OPEN ok %u:%u %s@@\n", major (st.st_rdev), minor (st.st_rdev),
           (fcntl (fd, F_GETFL) & O_ACCMODE) == O_RDWR ? "rw" : "r");
  if (hold_ms > 0)
    g_usleep (hold_ms * 1000);
  close (fd);
  return 0;
}

static void
on_run_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Wait *w = user_data;

  w->ok = nsc_runner_run_finish (NSC_RUNNER (source), result, &w->error);
  g_main_loop_quit (w->loop);
}

static int
cmd_quick (const char *dev,
           const char *out,
           const char *time)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(NscPreset) preset = nsc_preset_lookup ("quick", &error);
  g_autoptr(NscRunner) runner = NULL;
  g_autoptr(NscDeviceInfo) info = NULL;
  NscRunOptions opts = NSC_RUN_OPTIONS_INIT;
  Wait w = { NULL, -1, NULL, FALSE };
  NscRunResult *r;
  int fd;

  g_assert (preset != NULL);
  if (!check_writable (dev, &error))
    return report_error ("CHECK", error);
  g_print ("@@CHECK writable@@\n");
  fd = open_through_udisks (dev, TRUE, 0, &error);
  if (fd < 0)
    return report_error ("OPEN", error);
  g_print ("@@OPEN ok@@\n");

  opts.target = dev;
  opts.device_fd = fd;
  opts.destroy_data = dev;
  opts.check_device = nsc_udisks_is_sandboxed () ? nsc_udisks_check_func : nsc_device_check_func;
  opts.runs = 1;
  opts.span_cap = 64 * 1024 * 1024;
  if (!nsc_parse_duration (time, &opts.time_ns, &error))
    return report_error ("RESULT", error);
  opts.backend = NSC_BACKEND_AUTO;
  info = nsc_device_info_for_path (dev, NSC_DISCOVER_DEFAULT, NULL);
  runner = nsc_runner_new (preset, &opts);
  w.loop = g_main_loop_new (NULL, FALSE);
  nsc_runner_run_async (runner, NULL, on_run_done, &w);
  g_main_loop_run (w.loop);
  g_main_loop_unref (w.loop);
  r = nsc_runner_get_result (runner);
  if (info != NULL)
    nsc_run_result_set_device (r, nsc_device_info_to_json (info));
  if (!w.ok)
    return report_error ("RESULT", w.error);
  if (!nsc_run_result_save (r, out, &error))
    return report_error ("RESULT", error);
  g_print ("@@RESULT saved %s@@\n", out);
  return 0;
}

int
main (int    argc,
      char **argv)
{
  if (argc >= 2 && strcmp (argv[1], "drives") == 0)
    return cmd_drives ();
  if (argc >= 3 && strcmp (argv[1], "check") == 0)
    return cmd_check (argv[2]);
  if (argc >= 3 && strcmp (argv[1], "open") == 0)
    return cmd_open (argv[2], argc > 3 && strcmp (argv[3], "rw") == 0,
                     argc > 4 ? (guint) atoi (argv[4]) : 0, argc > 5 ? (guint) atoi (argv[5]) : 0);
  if (argc >= 5 && strcmp (argv[1], "quick") == 0)
    return cmd_quick (argv[2], argv[3], argv[4]);
  g_printerr ("usage: desktop-probe drives | check DEV | open DEV [rw] [CANCEL_MS] [HOLD_MS] "
              "| quick DEV OUT.json TIME\n");
  return 2;
}

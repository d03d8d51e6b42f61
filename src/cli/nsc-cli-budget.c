/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsc-cli-budget.h"
#include "nsc-device.h"
#include "nsc-engine.h"
#include "nsc-session.h"

/* One line of the dry run, its columns padded by characters (not bytes). */
static void
print_budget_line (const char *step,
                   const char *label,
                   const char *amount,
                   const char *note)
{
  printf ("  %s%*s %s%*s %s%s\n", step, (int) MAX (0, 8 - (glong) g_utf8_strlen (step, -1)), "",
          label, (int) MAX (0, 36 - (glong) g_utf8_strlen (label, -1)), "", amount, note);
}

int
nsc_cli_dry_run (const RunArgs   *args,
                 const NscPreset *preset)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) items = NULL;
  g_autoptr(NscDeviceInfo) dev = NULL;
  g_autofree char *where = NULL;
  g_autofree char *cap_text = NULL;
  g_autofree char *total_text = NULL;
  NscBudgetTarget t = { 0 };
  guint64 total = 0;
  gboolean timed = FALSE;
  struct stat st;

  /* The options the run would have, strict's and CrystalDiskMark's defaults
   * included: the same the run itself gets. */
  {
    NscRunOptions user, opts;

    nsc_cli_run_args_to_options (args, &user);
    nsc_session_options (&opts, args->target, &user);
    nsc_session_budget_target (&opts, &t);
  }
  if (args->state)
    {
      g_auto(GStrv) states = g_strsplit (args->state, ",", -1);
      for (guint i = 0; states[i]; i++)
        if (g_str_has_prefix (g_strstrip (states[i]), "free:")
            && !nsc_parse_size (states[i] + 5, &t.leave_free, &error))
          {
            nsc_cli_fail (_("--state free:SIZE needs a size, not “%s”"), states[i] + 5);
            return 2;
          }
    }

  if (stat (args->target, &st) == 0 && S_ISBLK (st.st_mode))
    {
      /* Read-only, and only to learn the size. */
      int fd = open (args->target, O_RDONLY | O_CLOEXEC);
      guint64 size = 0;

      if (fd < 0 || ioctl (fd, BLKGETSIZE64, &size) != 0)
        {
          int errsv = errno;
          if (fd >= 0)
            close (fd);
          nsc_cli_fail (_("Cannot read the size of %s: %s; run as a user who may read it"),
                     args->target, g_strerror (errsv));
          return 1;
        }
      close (fd);
      t.is_device = TRUE;
      t.capacity = size;
      where = g_strdup (args->target);
    }
  else
    {
      guint64 file_size = args->size ? args->size : preset->file_size;

      where = g_file_test (args->target, G_FILE_TEST_IS_DIR) ? g_strdup (args->target)
                                                           : g_path_get_dirname (args->target);
      if (!g_file_test (where, G_FILE_TEST_IS_DIR))
        {
          nsc_cli_fail (_("The folder %s does not exist; name an existing folder, a new file in one, "
                       "or a block device"), where);
          return 1;
        }
      if (!nsc_write_budget_folder (where, file_size ? file_size : G_GUINT64_CONSTANT (1) << 30,
                                    &t.capacity, &t.file_size, &error))
        {
          nsc_cli_fail ("%s", error->message);
          return 1;
        }
    }

  items = nsc_write_budget (preset, &t, &total, &timed);
  cap_text = nsc_words_size (t.capacity);
  if (t.is_device)
    /* Translators: the dry run's first line: the preset's title, the target, the
     * device's size */
    printf (_("Write budget of %s on %s (device of %s)\n"), nsc_preset_get_display_title (preset),
            args->target, cap_text);
  else
    /* Translators: the dry run's first line: the preset's title, the target, the free
     * space of its filesystem */
    printf (_("Write budget of %s on %s (%s free)\n"), nsc_preset_get_display_title (preset),
            args->target, cap_text);
  for (guint i = 0; i < items->len; i++)
    {
      const NscBudgetItem *it = &g_array_index (items, NscBudgetItem, i);
      /* Translators: the dry run's first column: what is written before the first test */
      g_autofree char *step = it->step >= 0 ? g_strdup_printf (_("step %d"), it->step + 1)
                                             : g_strdup (C_("budget", "before"));
      g_autofree char *amount = NULL;

      if (it->timed)
        {
          g_autofree char *dur = nsc_words_clock (it->time_ns);
          amount = g_strdup_printf (_("timed, %s"), dur);
        }
      else
        {
          g_autofree char *sz = nsc_words_size (it->bytes);
          /* Translators: the dry run: the most a step that stops early writes */
          amount = it->stops_early ? g_strdup_printf (_("at most %s"), sz) : g_steal_pointer (&sz);
        }
      print_budget_line (step, nsc_words_test_label (it->label), amount,
                         it->stops_early ? _(" (stops once its speed drop has held; its cap scales "
                                             "with the cache measured)") : "");
    }
  total_text = nsc_words_size (total);
  /* Translators: the dry run's last line, under the steps */
  print_budget_line (C_("budget", "total"), "", total_text,
                     timed ? _(" plus the timed writes, as fast as the drive takes them") : "");
  for (guint i = 0; i < items->len; i++)
    if (g_array_index (items, NscBudgetItem, i).stops_early)
      {
        printf (_("  (an upper bound: the steps that stop early write about the cache they find "
                  "and a margin)\n"));
        break;
      }

  /* The drive's own counts: NVMe SMART, as root. */
  dev = nsc_device_info_for_path (where, geteuid () == 0 ? NSC_DISCOVER_NVME : NSC_DISCOVER_DEFAULT,
                                  NULL);
  if (dev && dev->nvme && dev->nvme->have_smart)
    {
      g_autofree char *line =
        nsc_write_budget_describe_wear (total, dev->nvme->data_units_written * 512000,
                                        dev->nvme->percent_used);
      printf ("%s.\n", line);
    }
  else if (dev && dev->controller)
    printf (_("The drive's written total and wear are in its SMART log, which needs root.\n"));
  printf (_("Nothing was written (--dry-run).\n"));
  return 0;
}

void
nsc_cli_print_wear (const NscRunResult *r)
{
  JsonObject *before, *after;
  g_autofree char *line = NULL;
  g_autofree char *amplified = NULL;

  if (r->smart_before == NULL || r->smart_after == NULL)
    return;
  before = json_node_get_object (r->smart_before);
  after = json_node_get_object (r->smart_after);
  line = nsc_wear_describe (nsc_run_result_bytes_written (r),
                            (guint64) json_object_get_int_member (before, "bytes_written"),
                            (guint64) json_object_get_int_member (after, "bytes_written"),
                            &amplified);
  printf ("\n%s\n", line);
  if (amplified)
    printf (_("Note: %s\n"), amplified);
}

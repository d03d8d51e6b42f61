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
#include "nsc-plan.h"
#include "nsc-session.h"
#include "nsc-words.h"

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

/* A size as --size takes it: "1g", "448m". */
static char *
size_arg (guint64 bytes)
{
  if (bytes % (G_GUINT64_CONSTANT (1) << 30) == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "g", bytes >> 30);
  return g_strdup_printf ("%" G_GUINT64_FORMAT "m", bytes >> 20);
}

/* One state's budget, from its plan: the steps, the total, and the drive's wear. */
static void
print_plan (const NscPlan       *plan,
            const NscPreset     *preset,
            const char          *target,
            const NscDriveState *state,
            const NscDeviceInfo *dev)
{
  g_autofree char *cap_text = nsc_words_size (plan->budget_target.capacity);
  g_autofree char *total_text = NULL;
  gboolean early = FALSE;

  if (plan->budget_target.is_device)
    /* Translators: the dry run's first line: the preset's title, the target, the
     * device's size */
    printf (_("Write budget of %s on %s (device of %s)\n"), nsc_words_preset_title (preset),
            target, cap_text);
  else
    /* Translators: the dry run's first line: the preset's title, the target, the free
     * space of its filesystem */
    printf (_("Write budget of %s on %s (%s free)\n"), nsc_words_preset_title (preset),
            target, cap_text);
  if (state->label)
    /* Translators: the dry run, before a drive state's budget: "Drive state: empty
     * (erased first)" */
    printf (_("Drive state: %s\n"), state->label);
  {
    g_autofree char *fit = nsc_plan_describe_fit (plan);

    if (fit != NULL && plan->fitting_file > 0)
      {
        g_autofree char *size = nsc_words_size (plan->fitting_file);
        g_autofree char *arg = size_arg (plan->fitting_file);

        /* Translators: the dry run when the test file does not fit: the sentence
         * above, then a size that fits and the option that asks for it */
        printf (_("%s A %s one would: --size %s\n"), fit, size, arg);
      }
    else if (fit != NULL)
      /* Translators: the dry run when not even a small test file fits */
      printf (_("%s Choose another folder.\n"), fit);
  }
  for (guint i = 0; i < plan->budget->len; i++)
    {
      const NscBudgetItem *it = &g_array_index (plan->budget, NscBudgetItem, i);
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
      early |= it->stops_early;
      if (it->probe_usual)
        {
          g_autofree char *usual = nsc_words_size (it->probe_usual);
          /* Translators: the dry run: the quick probe's line; %s: what a good drive costs */
          g_autofree char *why = g_strdup_printf (_(" (that much only on a fake with a cache of its "
                                                    "own as large as the probe looks past; a good "
                                                    "drive about %s)"), usual);
          g_autofree char *sz = nsc_words_size (it->bytes);

          g_free (amount);
          amount = g_strdup_printf (_("at most %s"), sz);
          print_budget_line (step, nsc_words_test_label (it->label), amount, why);
          continue;
        }
      print_budget_line (step, nsc_words_test_label (it->label), amount,
                         it->stops_early ? _(" (stops once its speed drop has held; its cap scales "
                                             "with the cache measured)") : "");
    }
  total_text = nsc_words_size (plan->total_bytes);
  /* Translators: the dry run's last line, under the steps */
  print_budget_line (C_("budget", "total"), "", total_text,
                     plan->timed_writes ? _(" plus the timed writes, as fast as the drive takes them") : "");
  if (early)
    printf (_("  (an upper bound: the steps that stop early write about the cache they find "
              "and a margin)\n"));
  {
    g_autofree char *clock = nsc_words_clock (plan->timed_ns);
    /* Translators: the dry run: the time the clock bounds (tests, pauses), "12:30" */
    printf (_("  time by the clock: %s, plus the writes bounded by bytes\n"), clock);
  }
  {
    g_autofree char *flush = nsc_plan_describe_flush (plan);

    if (flush)
      printf ("%s\n", flush);
  }

  /* The drive's own counts: NVMe SMART, as root. */
  if (dev && dev->nvme && dev->nvme->have_smart)
    {
      g_autofree char *line =
        nsc_write_budget_describe_wear (plan->total_bytes, dev->nvme->data_units_written * 512000,
                                        dev->nvme->percent_used);
      printf ("%s.\n", line);
    }
}

/* The plan as JSON, for scripts (--dry-run --json FILE): what the run will write and
 * how long the clock bounds it, per drive state. */
static void
plan_to_json (JsonBuilder         *b,
              const NscPlan       *plan,
              const NscDriveState *state)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "state");
  if (state->tag)
    json_builder_add_string_value (b, state->tag);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "is_device");
  json_builder_add_boolean_value (b, plan->budget_target.is_device);
  json_builder_set_member_name (b, "capacity");
  json_builder_add_int_value (b, (gint64) plan->budget_target.capacity);
  json_builder_set_member_name (b, "runs");
  json_builder_add_int_value (b, plan->timing.runs);
  json_builder_set_member_name (b, "writes");
  json_builder_add_boolean_value (b, plan->writes);
  json_builder_set_member_name (b, "total_bytes");
  json_builder_add_int_value (b, (gint64) plan->total_bytes);
  json_builder_set_member_name (b, "timed_writes");
  json_builder_add_boolean_value (b, plan->timed_writes);
  json_builder_set_member_name (b, "timed_ns");
  json_builder_add_int_value (b, plan->timed_ns);
  json_builder_set_member_name (b, "items");
  json_builder_begin_array (b);
  for (guint i = 0; i < plan->budget->len; i++)
    {
      const NscBudgetItem *it = &g_array_index (plan->budget, NscBudgetItem, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "step");
      if (it->step >= 0)
        json_builder_add_int_value (b, it->step);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "label");
      json_builder_add_string_value (b, it->label);
      json_builder_set_member_name (b, "bytes");
      json_builder_add_int_value (b, (gint64) it->bytes);
      json_builder_set_member_name (b, "timed");
      json_builder_add_boolean_value (b, it->timed);
      json_builder_set_member_name (b, "time_ns");
      json_builder_add_int_value (b, it->time_ns);
      json_builder_set_member_name (b, "stops_early");
      json_builder_add_boolean_value (b, it->stops_early);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

gboolean
nsc_cli_plan_target (const RunArgs *args,
                     gboolean      *is_device,
                     guint64       *capacity,
                     char         **where)
{
  struct stat st;

  *is_device = FALSE;
  *capacity = 0;
  *where = NULL;
  if (stat (args->target, &st) == 0 && S_ISBLK (st.st_mode))
    {
      /* Read-only, and only to learn the size. */
      int fd = open (args->target, O_RDONLY | O_CLOEXEC);

      if (fd < 0 || ioctl (fd, BLKGETSIZE64, capacity) != 0)
        {
          int errsv = errno;
          if (fd >= 0)
            close (fd);
          nsc_cli_fail (_("Cannot read the size of %s: %s; run as a user who may read it"),
                     args->target, g_strerror (errsv));
          return FALSE;
        }
      close (fd);
      *is_device = TRUE;
      *where = g_strdup (args->target);
    }
  else
    {
      *where = g_file_test (args->target, G_FILE_TEST_IS_DIR) ? g_strdup (args->target)
                                                           : g_path_get_dirname (args->target);
      if (!g_file_test (*where, G_FILE_TEST_IS_DIR))
        {
          nsc_cli_fail (_("The folder %s does not exist; name an existing folder, a new file in one, "
                       "or a block device"), *where);
          g_clear_pointer (where, g_free);
          return FALSE;
        }
    }

  return TRUE;
}

int
nsc_cli_dry_run (const RunArgs   *args,
                 const NscPreset *preset)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(NscDeviceInfo) dev = NULL;
  g_autoptr(GPtrArray) states = NULL;
  g_autofree char *where = NULL;
  g_autoptr(JsonBuilder) json = NULL;
  NscRunOptions user;
  gboolean is_device = FALSE;
  guint64 capacity = 0, history_cache;

  /* The plan the run would have, strict's and CrystalDiskMark's defaults included,
   * in each drive state: the same the run itself gets, and the app promises. */
  nsc_cli_run_args_to_options (args, &user);
  states = nsc_drive_states_parse (args->state, &error);
  if (states == NULL)
    {
      nsc_cli_fail ("%s", error->message);
      return 2;
    }

  if (!nsc_cli_plan_target (args, &is_device, &capacity, &where))
    return 1;

  dev = nsc_device_info_for_path (where, geteuid () == 0 ? NSC_DISCOVER_NVME : NSC_DISCOVER_DEFAULT,
                                  NULL);
  /* The drive's history sizes Quick's settled control, in the plan as in the run. */
  history_cache = nsc_session_history_cache (dev);
  json = json_builder_new ();
  json_builder_begin_object (json);
  json_builder_set_member_name (json, "preset");
  json_builder_add_string_value (json, preset->name);
  json_builder_set_member_name (json, "target");
  json_builder_add_string_value (json, args->target);
  json_builder_set_member_name (json, "states");
  json_builder_begin_array (json);
  for (guint i = 0; i < states->len; i++)
    {
      const NscDriveState *state = g_ptr_array_index (states, i);
      NscRunOptions u = user;
      g_autoptr(NscPlan) plan = NULL;

      nsc_drive_state_apply (state, &u);
      u.cache_bytes = history_cache;
      plan = nsc_plan_new (preset, is_device ? args->target : where, is_device, capacity, &u);
      if (!plan->budget_known)
        {
          nsc_cli_fail ("%s", plan->budget_error->message);
          return 1;
        }
      if (i > 0)
        printf ("\n");
      print_plan (plan, preset, args->target, state, dev);
      plan_to_json (json, plan, state);
    }
  json_builder_end_array (json);
  json_builder_end_object (json);
  if (args->json)
    {
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      g_autoptr(JsonNode) root = json_builder_get_root (json);

      json_generator_set_root (gen, root);
      json_generator_set_pretty (gen, TRUE);
      if (!json_generator_to_file (gen, args->json, &error))
        {
          nsc_cli_fail (_("Cannot write the plan to %s: %s"), args->json, error->message);
          return 1;
        }
    }
  if (dev && !(dev->nvme && dev->nvme->have_smart) && dev->controller)
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

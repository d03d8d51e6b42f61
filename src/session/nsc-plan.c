/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "nsc-plan.h"
#include "nsc-session.h"

NscPlan *
nsc_plan_new (const NscPreset     *preset,
              const char          *target,
              gboolean             is_device,
              guint64              capacity,
              const NscRunOptions *user)
{
  NscPlan *plan;
  NscBudgetTarget *t;

  g_return_val_if_fail (preset != NULL && target != NULL && user != NULL, NULL);

  plan = g_new0 (NscPlan, 1);
  plan->preset = preset;
  nsc_session_options (&plan->options, target, user);
  nsc_timing_init (&plan->timing, preset, &plan->options);
  /* The steps the target cannot do are skipped: no time, no writes, not exported. */
  plan->timing.dio_align = nsc_target_path_dio_align (target);
  plan->timed_ns = nsc_timing_estimate_ns (&plan->timing, preset);
  plan->writes = nsc_run_writes (preset, &plan->options);

  t = &plan->budget_target;
  nsc_session_budget_target (&plan->options, t);
  t->dio_align = plan->timing.dio_align;
  t->is_device = is_device;
  plan->file_fits = TRUE;
  if (is_device)
    {
      t->capacity = capacity;
      plan->budget_known = TRUE;
    }
  else
    {
      plan->budget_known = nsc_write_budget_folder (target, plan->options.file_size ? plan->options.file_size
                                                                                    : preset->file_size,
                                                    &t->capacity, &t->file_size, &plan->file_fits,
                                                    &plan->largest_file, &plan->budget_error);
      plan->free_bytes = t->capacity;
      if (plan->budget_known && !plan->file_fits)
        {
          guint64 gib = G_GUINT64_CONSTANT (1) << 30, step = G_GUINT64_CONSTANT (64) << 20;

          plan->fitting_file = plan->largest_file >= gib ? plan->largest_file / gib * gib
                                                         : plan->largest_file / step * step;
        }
    }
  if (plan->budget_known)
    {
      plan->budget = nsc_write_budget (preset, t, &plan->total_bytes, &plan->timed_writes);
      for (guint i = 0; i < plan->budget->len; i++)
        {
          const NscBudgetItem *it = &g_array_index (plan->budget, NscBudgetItem, i);

          if (!it->timed)
            plan->expected_bytes += nsc_budget_item_expected (it);
        }
      plan->read_bytes = nsc_budget_paced_reads (preset, t);
    }
  return plan;
}

char *
nsc_plan_describe_fit (const NscPlan *plan)
{
  g_autofree char *need = NULL;
  g_autofree char *have = NULL;

  g_return_val_if_fail (plan != NULL, NULL);

  if (plan->file_fits || !plan->budget_known)
    return NULL;
  need = nsc_words_size (plan->budget_target.file_size);
  have = nsc_words_size (plan->free_bytes);
  /* Translators: said before a run: the test file's size, the folder's free space */
  return g_strdup_printf (_("The %s test file does not fit in this folder: %s are free, and a "
                            "run leaves room beside it."), need, have);
}

char *
nsc_plan_describe_flush (const NscPlan *plan)
{
  const NscBudgetItem *flush = NULL;
  g_autofree char *size = NULL;
  g_autofree char *why = NULL;

  g_return_val_if_fail (plan != NULL, NULL);

  for (guint i = 0; plan->budget && i < plan->budget->len && !flush; i++)
    if (g_array_index (plan->budget, NscBudgetItem, i).flush)
      flush = &g_array_index (plan->budget, NscBudgetItem, i);
  if (flush == NULL)
    return NULL;
  size = nsc_words_size (flush->bytes);
  if (flush->flush_capped)
    /* Translators: said before Quick runs: why it writes that much; %s is a size */
    why = g_strdup_printf (_("Before its settled reads it writes %s past the drive's cache (the "
                             "test size limits it), so that the data they read has left the "
                             "cache, as data does in daily use."), size);
  else if (plan->budget_target.cache_bytes > 0)
    {
      g_autofree char *cache = nsc_words_size (plan->budget_target.cache_bytes);
      /* Translators: said before Quick runs: the bytes it writes past the cache, and
       * the cache an earlier write-fill of the drive found */
      why = g_strdup_printf (_("Before its settled reads it writes %s past the drive's cache (an "
                               "eighth more than the %s cache an earlier write-fill found), so "
                               "that the data they read has left the cache, as data does in "
                               "daily use."), size, cache);
    }
  else
    /* Translators: said before Quick runs: why it writes that much; %s is a size */
    why = g_strdup_printf (_("Before its settled reads it writes %s past the drive's cache, so "
                             "that the data they read has left it, as data does in daily use: "
                             "no earlier write-fill of this drive tells how large its cache "
                             "is."), size);
  /* Translators: follows the sentence above */
  return g_strdup_printf (_("%s To write less, run Write-fill once first (then only a little "
                            "more than the cache it finds is written), or choose Quick random, "
                            "which writes none of it but cannot tell whether its reads are "
                            "inflated by the cache."), why);
}

void
nsc_plan_free (NscPlan *plan)
{
  if (plan == NULL)
    return;
  g_clear_pointer (&plan->budget, g_array_unref);
  g_clear_error (&plan->budget_error);
  g_free (plan);
}

static void
drive_state_free (gpointer data)
{
  NscDriveState *state = data;

  g_free (state->label);
  g_free (state->name);
  g_free (state->tag);
  g_free (state);
}

GPtrArray *
nsc_drive_states_parse (const char  *spec,
                        GError     **error)
{
  g_autoptr(GPtrArray) states = g_ptr_array_new_with_free_func (drive_state_free);
  g_auto(GStrv) parts = g_strsplit (spec ? spec : "", ",", -1);

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (guint i = 0; parts[i]; i++)
    {
      const char *s = g_strstrip (parts[i]);
      NscDriveState *state;

      if (*s == '\0' && parts[1] == NULL)
        break;
      state = g_new0 (NscDriveState, 1);
      state->name = g_strdup (s);
      g_ptr_array_add (states, state);
      if (g_str_equal (s, "empty"))
        {
          state->erase_first = TRUE;
          state->label = g_strdup (_("empty (erased first)"));
          state->tag = g_strdup ("empty");
        }
      else if (g_str_has_prefix (s, "free:"))
        {
          g_autofree char *size = NULL;

          if (!nsc_parse_size (s + 5, &state->leave_free, NULL) || state->leave_free == 0)
            {
              g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                           _("The drive state free:SIZE needs a size larger than zero, not “%s”"),
                           s + 5);
              return NULL;
            }
          size = nsc_words_size (state->leave_free);
          state->label = g_strdup_printf (_("filled, %s left free"), size);
          state->tag = g_strdelimit (g_strdup (s), ":", '-');
        }
      else
        {
          g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                       _("“%s” is not a drive state; use empty or free:SIZE (e.g. free:100g)"), s);
          return NULL;
        }
    }
  /* No state named: the plain run. */
  if (states->len == 0)
    g_ptr_array_add (states, g_new0 (NscDriveState, 1));
  return g_steal_pointer (&states);
}

void
nsc_drive_state_apply (const NscDriveState *state,
                       NscRunOptions       *options)
{
  g_return_if_fail (state != NULL && options != NULL);

  options->erase_first = state->erase_first;
  options->leave_free = state->leave_free;
}

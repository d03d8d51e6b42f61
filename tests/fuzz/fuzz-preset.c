/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: the preset loader (the JSON files of data/presets, and any file a user
 * hands in). A preset that loads must also be estimable and freeable. */
#include "config.h"

#include <stdint.h>

#include "nsc-preset.h"
#include "nsc-runner.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  NscPreset *preset;

  preset = nsc_preset_new_from_data ((const char *) data, size, &error);
  if ((preset == NULL) == (error == NULL))
    __builtin_trap ();
  if (preset == NULL)
    return 0;

  /* What the CLI and the app do with a loaded preset before running it. */
  {
    /* The plan's clock with no options, with the preset's own, and with huge ones. */
    static const struct { guint runs; gint64 time_ns; double scale; gboolean strict, cdm; } choices[] = {
      { 0, 0, 0, FALSE, FALSE },
      { 1, 1000000, 0.5, TRUE, FALSE },
      { 1000, G_GINT64_CONSTANT (3600) * G_USEC_PER_SEC * 1000, 0, FALSE, TRUE },
    };

    for (guint c = 0; c < G_N_ELEMENTS (choices); c++)
      {
        NscRunOptions o = NSC_RUN_OPTIONS_INIT;
        NscTiming timing;

        o.runs = choices[c].runs;
        o.time_ns = choices[c].time_ns;
        o.time_scale = choices[c].scale;
        o.idle_ns = G_GINT64_CONSTANT (3600) * G_USEC_PER_SEC * 1000;
        if (choices[c].strict)
          nsc_run_options_set_strict (&o);
        if (choices[c].cdm)
          nsc_run_options_set_cdm (&o);
        nsc_timing_init (&timing, preset, &o);
        if (nsc_timing_estimate_ns (&timing, preset) < 0)
          __builtin_trap ();
      }
  }
  for (guint i = 0; i < preset->steps->len; i++)
    {
      const NscStep *step = &g_array_index (preset->steps, NscStep, i);
      char scratch[96];

      if (step->kind == NSC_STEP_JOB || step->kind == NSC_STEP_SURFACE)
        {
          g_autofree char *describe = nsc_job_describe (&step->job);
          (void) nsc_job_get_label (&step->job, scratch, sizeof scratch);
          (void) nsc_job_get_rw (&step->job);
        }
    }
  nsc_preset_free (preset);
  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: the preset loader (the JSON files of data/presets, and any file a user
 * hands in). A preset that loads must also be estimable and freeable. */
#include "config.h"

#include <stdint.h>

#include "nsc-preset.h"

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
  (void) nsc_preset_estimate_ns (preset, 1, 0);
  (void) nsc_preset_estimate_ns (preset, preset->runs ? preset->runs : 1, preset->time_ns);
  (void) nsc_preset_estimate_ns (preset, 1000, G_GINT64_CONSTANT (3600) * G_USEC_PER_SEC * 1000);
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

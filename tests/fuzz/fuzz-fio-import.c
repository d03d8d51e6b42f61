/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: fio's output imported as results (nsc-fio-import). Any bytes must
 * give either results that validate as Nandscope's or a GError, never a crash, a leak
 * or undefined behaviour. No logs: the importer reads no file here. */
#include "config.h"

#include <stdint.h>

#include "nsc-fio-import.h"
#include "nsc-result-file.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) results = NULL;

  results = nsc_fio_import ((const char *) data, (gssize) size, NULL, &error);
  if ((results == NULL) == (error == NULL))
    __builtin_trap ();   /* exactly one of results and error */
  for (guint i = 0; results && i < results->len; i++)
    {
      g_autoptr(GError) invalid = NULL;

      /* What it makes is a result every reader takes. */
      if (!nsc_result_file_validate (g_ptr_array_index (results, i), &invalid))
        __builtin_trap ();
    }
  (void) nsc_fio_text_is_fio ((const char *) data, size);
  return 0;
}

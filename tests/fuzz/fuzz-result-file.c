/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: the saved-result loader. Any bytes must give either a validated
 * root node or a GError, never a crash, a leak or undefined behaviour. */
#include "config.h"

#include <stdint.h>

#include "nsc-result-file.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;

  /* Both entry forms: an explicit length (bytes may hold NULs) … */
  root = nsc_result_file_parse ((const char *) data, (gssize) size, &error);
  if ((root == NULL) == (error == NULL))
    __builtin_trap ();   /* exactly one of result and error */
  if (root != NULL)
    {
      /* A validated file validates again (the validator does not mutate it). */
      g_autoptr(GError) again = NULL;
      if (!nsc_result_file_validate (root, &again))
        __builtin_trap ();
    }
  g_clear_pointer (&root, json_node_unref);
  g_clear_error (&error);

  /* … and NUL-terminated text, as a file read with g_file_get_contents gives. */
  {
    g_autofree char *text = g_strndup ((const char *) data, size);
    root = nsc_result_file_parse (text, -1, &error);
    if ((root == NULL) == (error == NULL))
      __builtin_trap ();
  }
  return 0;
}

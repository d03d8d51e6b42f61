/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: `nandscope-cli run`'s option parser (nsc-cli-args), the very
 * function the command line calls. The input is the words after "run", separated by
 * NUL bytes. The parser must fill the arguments or set a GError, never crash or leak;
 * an ad hoc job it accepts must pass the engine's own validation. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "nsc-cli-args.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_auto(RunArgs) args = { 0 };
  const uint8_t *p = data;
  size_t left = size;
  gboolean parsed;

  while (left > 0 && words->len < 64)
    {
      const uint8_t *nul = memchr (p, 0, left);
      size_t len = nul ? (size_t) (nul - p) : left;

      g_ptr_array_add (words, g_strndup ((const char *) p, len));
      p += nul ? len + 1 : len;
      left -= nul ? len + 1 : len;
    }
  g_ptr_array_add (words, NULL);

  parsed = nsc_cli_parse_run_args ((int) words->len - 1, (char **) words->pdata, &args, &error);
  if (parsed == (error != NULL))
    __builtin_trap ();   /* exactly one of success and error */
  if (parsed)
    {
      if (args.target == NULL)
        __builtin_trap ();
      if (args.have_job && !nsc_job_validate (&args.job, NULL))
        __builtin_trap ();
    }
  return 0;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Runs a fuzz harness over files, without libFuzzer: the seed corpus and every input
 * that once crashed (tests/fuzz/regressions/) replay in the ordinary unit suite, with
 * any compiler and under the sanitizer builds. Arguments: files or directories. */
#include "config.h"

#include <glib.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static guint n_inputs;

static void
replay_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;
  uint8_t *copy;

  if (!g_file_get_contents (path, &contents, &length, &error))
    g_error ("%s", error->message);
  /* An exact-size heap copy, so that ASan sees any read past the end. */
  copy = g_memdup2 (contents, length ? length : 1);
  LLVMFuzzerTestOneInput (copy, length);
  g_free (copy);
  n_inputs++;
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static void
replay (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return;   /* no regressions yet */
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      replay_file (path);
      return;
    }
  dir = g_dir_open (path, 0, NULL);
  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_ptr_array_add (names, g_build_filename (path, name, NULL));
  g_ptr_array_sort (names, compare_paths);
  for (guint i = 0; i < names->len; i++)
    replay (names->pdata[i]);
}

int
main (int    argc,
      char **argv)
{
  for (int i = 1; i < argc; i++)
    replay (argv[i]);
  if (n_inputs == 0)
    {
      fprintf (stderr, "no inputs found\n");
      return 1;
    }
  printf ("%u inputs replayed without a crash\n", n_inputs);
  return 0;
}

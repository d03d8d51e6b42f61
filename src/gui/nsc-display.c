/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "nsc-display.h"

char *
nsc_display_path (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize len = strlen (home);

  g_return_val_if_fail (path != NULL, NULL);

  if (g_str_has_prefix (path, home) && (path[len] == '/' || path[len] == '\0'))
    {
      g_autofree char *rest = g_filename_display_name (path + len);
      return g_strconcat ("~", rest, NULL);
    }
  return g_filename_display_name (path);
}

char *
nsc_display_folder_name (const char *path)
{
  g_return_val_if_fail (path != NULL, NULL);

  if (g_strcmp0 (path, g_get_home_dir ()) == 0)
    return g_strdup (_("Home"));
  return g_filename_display_basename (path);
}

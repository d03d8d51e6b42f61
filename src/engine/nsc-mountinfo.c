/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>

#include "nsc-mountinfo.h"

static void
mount_entry_free (NscMountEntry *m)
{
  g_free (m->mountpoint);
  g_free (m->mount_options);
  g_free (m->fstype);
  g_free (m->source);
  g_free (m->super_options);
  g_free (m);
}

GPtrArray *
nsc_mountinfo_parse (const char *text)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) mount_entry_free);
  g_auto(GStrv) lines = g_strsplit (text ? text : "", "\n", -1);

  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], " ", -1);
      guint n = g_strv_length (f), sep;
      NscMountEntry *m;
      guint ma, mi;

      if (n < 6 || sscanf (f[2], "%u:%u", &ma, &mi) != 2)
        continue;
      for (sep = 6; sep < n && !g_str_equal (f[sep], "-"); sep++)
        ;
      m = g_new0 (NscMountEntry, 1);
      m->major = ma;
      m->minor = mi;
      m->mountpoint = g_strcompress (f[4]);
      m->mount_options = g_strdup (f[5]);
      if (sep + 2 < n)
        {
          m->fstype = g_strdup (f[sep + 1]);
          m->source = g_strcompress (f[sep + 2]);
          if (sep + 3 < n)
            m->super_options = g_strdup (f[sep + 3]);
        }
      g_ptr_array_add (out, m);
    }
  return out;
}

const NscMountEntry *
nsc_mountinfo_find (GPtrArray *entries,
                    guint      dev_major,
                    guint      dev_minor)
{
  for (guint i = 0; entries && i < entries->len; i++)
    {
      const NscMountEntry *m = g_ptr_array_index (entries, i);

      if (m->major == dev_major && m->minor == dev_minor)
        return m;
    }
  return NULL;
}

char *
nsc_mount_options_join (const char *mount_options,
                        const char *super_options)
{
  g_auto(GStrv) mount = g_strsplit (mount_options ? mount_options : "", ",", -1);
  g_auto(GStrv) super = g_strsplit (super_options ? super_options : "", ",", -1);
  GString *out = g_string_new (NULL);

  for (guint i = 0; mount[i]; i++)
    if (mount[i][0] != '\0')
      g_string_append_printf (out, "%s%s", out->len ? "," : "", mount[i]);
  for (guint i = 0; super[i]; i++)
    if (super[i][0] != '\0' && !g_strv_contains ((const char * const *) mount, super[i]))
      g_string_append_printf (out, "%s%s", out->len ? "," : "", super[i]);
  return g_string_free (out, FALSE);
}

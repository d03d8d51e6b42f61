/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Follows a symlink (sysfs is made of them) and returns a canonical path; @path
 * itself when it is not a link. Relative targets resolve against the link's folder,
 * which is what makes captured trees under any root work. */
char *_nsc_sysfs_resolve (const char *path);

/* One line of /proc/self/mountinfo. */
typedef struct
{
  guint major;
  guint minor;
  char *source;       /* the mount source field, e.g. "/dev/sda1" */
  guint src_major;    /* the source node's device number, when it is one (live system) */
  guint src_minor;
  gboolean have_src;
  char *mountpoint;
  char *fstype;
} MountEntry;

/* mountinfo: "id parent major:minor root mountpoint options [optional…] - fstype source
 * super", octal escapes undone. Returns MountEntry items, freed with the array. */
GPtrArray *_nsc_mountinfo_parse (const char *text);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One line of /proc/self/mountinfo:
 * "id parent major:minor root mountpoint options [optional…] - fstype source super". */
typedef struct
{
  guint     major;          /* the filesystem's device number */
  guint     minor;
  char     *mountpoint;     /* octal escapes (\040 for a space) undone */
  char     *mount_options;  /* "rw,relatime,discard" */
  char     *fstype;         /* NULL when the line has no "-" separator */
  char     *source;         /* "/dev/sda1", escapes undone; NULL as fstype */
  char     *super_options;  /* NULL when absent */
  /* The source node's device number, for callers that stat it (btrfs shows
   * anonymous numbers, 0:N); the parser leaves it unset. */
  guint     src_major;
  guint     src_minor;
  gboolean  have_src;
} NscMountEntry;

/* Every well-formed line of @text (NULL reads as empty), as NscMountEntry items
 * freed with the array. The one mountinfo parser: the engine (discard), the drive
 * facts, the in-use checks and the test bench all read the table through it. */
GPtrArray *nsc_mountinfo_parse (const char *text);

/* The mount's options, then the filesystem's own (super) options it does not repeat,
 * comma-separated: "rw,relatime" and "rw,errors=remount-ro" give
 * "rw,relatime,errors=remount-ro". Either may be NULL. */
char *nsc_mount_options_join (const char *mount_options,
                              const char *super_options);

/* The first entry mounted from @dev_major:@dev_minor, or NULL. */
const NscMountEntry *nsc_mountinfo_find (GPtrArray *entries,
                                         guint      dev_major,
                                         guint      dev_minor);

G_END_DECLS

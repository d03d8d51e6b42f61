/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "nsc-mountinfo.h"

G_BEGIN_DECLS

/* Follows a symlink (sysfs is made of them) and returns a canonical path; @path
 * itself when it is not a link. Relative targets resolve against the link's folder,
 * which is what makes captured trees under any root work. */
char *_nsc_sysfs_resolve (const char *path);


G_END_DECLS

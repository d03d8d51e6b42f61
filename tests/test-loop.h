/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A loop device over @backing (root): its node, or NULL when none could be made.
 * Detach it with nsc_test_detach_loop (); the caller frees the node. */
char *nsc_test_attach_loop (const char *backing);
void  nsc_test_detach_loop (const char *node);

G_END_DECLS

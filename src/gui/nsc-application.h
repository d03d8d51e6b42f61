/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define NSC_TYPE_APPLICATION (nsc_application_get_type ())
G_DECLARE_FINAL_TYPE (NscApplication, nsc_application, NSC, APPLICATION, AdwApplication)

NscApplication *nsc_application_new             (void);
int             nsc_application_get_exit_status (NscApplication *self);

/* Takes @window through the steps of the file @path (the gui suite's walks); sets
 * *@out_status to 1 when a step could not be carried out. */
typedef void (*NscScriptFunc) (GApplication *app,
                               GtkWindow    *window,
                               const char   *path,
                               int          *out_status);

/* The app's main (): refuses root, sets up gettext, runs the application and returns
 * its exit status. With @script (tests only: tests/gui/nandscope-test.c) it also takes
 * --script FILE. */
int             nsc_application_main            (int             argc,
                                                 char          **argv,
                                                 NscScriptFunc   script);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define NSC_TYPE_APPLICATION (nsc_application_get_type ())
G_DECLARE_FINAL_TYPE (NscApplication, nsc_application, NSC, APPLICATION, AdwApplication)

NscApplication *nsc_application_new             (void);
int             nsc_application_get_exit_status (NscApplication *self);

G_END_DECLS

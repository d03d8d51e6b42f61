/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The app as it ships, and --script FILE (nsc-script.c): the gui suite's walks, the
 * screenshots and vm-desktop's guest drive it step by step. */
#include "config.h"

#include "nsc-application.h"
#include "nsc-script.h"

int
main (int    argc,
      char **argv)
{
  return nsc_application_main (argc, argv, nsc_script_run);
}

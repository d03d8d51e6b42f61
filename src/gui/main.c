/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "nsc-application.h"

int
main (int    argc,
      char **argv)
{
  return nsc_application_main (argc, argv, NULL);
}

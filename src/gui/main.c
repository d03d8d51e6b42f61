/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <unistd.h>

#include "nsc-application.h"
#include "nsc-words.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(NscApplication) app = NULL;
  int status;

  setlocale (LC_ALL, "");
  nsc_bind_text_domain ();
  textdomain (GETTEXT_PACKAGE);

  /* A desktop app running as root could write anywhere with nobody asking; raw
   * devices are for the command line (as root) or, in the app, through UDisks2. */
  if (geteuid () == 0)
    {
      g_printerr ("%s\n", _("Nandscope does not run as root. Start it as your own user; to test "
                             "a raw device as root, use nandscope-cli."));
      return 1;
    }

  app = nsc_application_new ();
  status = g_application_run (G_APPLICATION (app), argc, argv);

  /* --quit-when-done reports the run's outcome as the exit status. */
  if (status == 0)
    status = nsc_application_get_exit_status (app);
  return status;
}

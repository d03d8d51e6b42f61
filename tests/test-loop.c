/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "test-loop.h"

char *
nsc_test_attach_loop (const char *backing)
{
  int ctl = open ("/dev/loop-control", O_RDWR | O_CLOEXEC);
  int n, lfd, ffd;
  char *path;

  if (ctl < 0 || (n = ioctl (ctl, LOOP_CTL_GET_FREE)) < 0)
    {
      if (ctl >= 0)
        close (ctl);
      return NULL;
    }
  close (ctl);
  path = g_strdup_printf ("/dev/loop%d", n);
  lfd = open (path, O_RDWR | O_CLOEXEC);
  ffd = open (backing, O_RDWR | O_CLOEXEC);
  if (lfd < 0 || ffd < 0 || ioctl (lfd, LOOP_SET_FD, ffd) != 0)
    g_clear_pointer (&path, g_free);
  if (lfd >= 0)
    close (lfd);
  if (ffd >= 0)
    close (ffd);
  return path;
}

void
nsc_test_detach_loop (const char *node)
{
  int lfd = open (node, O_RDWR | O_CLOEXEC);

  if (lfd >= 0)
    {
      ioctl (lfd, LOOP_CLR_FD, 0);
      close (lfd);
    }
}

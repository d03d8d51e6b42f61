/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "nsc-device.h"

G_BEGIN_DECLS

/* How the app speaks about a drive: in the target picker, on the idle page and in
 * the erase dialog. All strings are for people and translated. */

/* "Samsung SSD 980 PRO 1TB", "Loop device loop3", … */
char      *nsc_device_row_title        (const NscDeviceInfo *info);
/* "1.0 TB · NVMe · PCIe 4.0 x4 · 41 °C" */
char      *nsc_device_row_facts        (const NscDeviceInfo *info);
/* Why tests that write cannot run on @info, and what to do, or NULL when it is free. */
char      *nsc_device_row_refusal      (const NscDeviceInfo *info);
/* Free, unpartitioned and, as far as udev's probe says, without any signature:
 * a new drive, the product's hero case. */
gboolean   nsc_device_row_is_new       (const NscDeviceInfo *info);
/* An AdwActionRow for the picker; @selected adds a check mark. @in_use: why tests
 * that write cannot run (nsc_device_check_writable's answer), or NULL; @cannot_open:
 * why the app cannot open it at all (UDisks2 missing), or NULL: the row then says so
 * and cannot be chosen. */
GtkWidget *nsc_device_row_new          (const NscDeviceInfo *info,
                                        gboolean             selected,
                                        const char          *in_use,
                                        const char          *cannot_open);

G_END_DECLS

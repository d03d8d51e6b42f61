/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "nsc-device.h"

G_BEGIN_DECLS

#define NSC_TYPE_TARGET_PICKER (nsc_target_picker_get_type ())
G_DECLARE_FINAL_TYPE (NscTargetPicker, nsc_target_picker, NSC, TARGET_PICKER, GtkPopover)

/* The popover that chooses what to test: folders (Home, the folder chosen last, Other
 * Folder… as "win.choose-target"), and the drives with their facts and what uses
 * them, read each time it opens. The drives come from UDisks2 when it answers (and
 * only from it in a sandbox), else from sysfs (nsc_device_discover ()), or from a
 * captured tree under NANDSCOPE_SYSFS_ROOT. A chosen row emits "target-chosen" with
 * its path and closes the popover. */
GtkWidget     *nsc_target_picker_new             (void);
/* What is chosen now (@devnode: the drive's node when @target is a drive): its row is
 * ticked; a folder other than Home is kept as the picker's "folder chosen last". */
void           nsc_target_picker_set_current     (NscTargetPicker *self,
                                                  const char      *target,
                                                  const char      *devnode);

/* NANDSCOPE_SYSFS_ROOT: a captured tree (tests/data/sysfs-laptop, with .mountinfo and
 * .swaps beside it) whose drives are shown and never opened; NULL when unset. */
const char    *nsc_target_picker_captured_root   (void);
/* The drive @path names (from the captured tree when there is one), or NULL for a
 * folder or file. Sandboxed, /dev has no drives; /sys still knows /dev/NAME. */
NscDeviceInfo *nsc_target_picker_device_for_path (const char      *path);

G_END_DECLS

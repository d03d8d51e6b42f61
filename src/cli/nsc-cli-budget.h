/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-cli-args.h"

G_BEGIN_DECLS

/* `run --dry-run`: what @preset would write on the target, step by step and in
 * total, against the drive's SMART counts where they can be read. Opens nothing
 * for writing. Returns the process exit status. */
/* What a plan needs of the target, read-only: whether it is a device and its size,
 * else the folder (@where: the device, or the folder). FALSE: said why. */
gboolean nsc_cli_plan_target (const RunArgs *args,
                              gboolean      *is_device,
                              guint64       *capacity,
                              char         **where);
int  nsc_cli_dry_run     (const RunArgs   *args,
                          const NscPreset *preset);

/* After a run: the drive's own count of what was written beside the run's. */
void nsc_cli_print_wear  (const NscRunResult *result);

G_END_DECLS

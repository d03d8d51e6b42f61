/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "nsc-analysis.h"
#include "nsc-copy.h"
#include "nsc-error.h"
#include "nsc-extents.h"
#include "nsc-histogram.h"
#include "nsc-io.h"
#include "nsc-job.h"
#include "nsc-offsets.h"
#include "nsc-preset.h"
#include "nsc-result.h"
#include "nsc-result-file.h"
#include "nsc-run-analysis.h"
#include "nsc-runner.h"
#include "nsc-series.h"
#include "nsc-target.h"
#include "nsc-units.h"

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "nsc-engine.h"
#include "nsc-result-info.h"

G_BEGIN_DECLS

#define NSC_TYPE_RESULTS_GRID (nsc_results_grid_get_type ())
G_DECLARE_FINAL_TYPE (NscResultsGrid, nsc_results_grid, NSC, RESULTS_GRID, GtkWidget)

GtkWidget *nsc_results_grid_new           (void);
/* One row per test label, in order of first appearance; every cell empty. */
void       nsc_results_grid_set_preset    (NscResultsGrid      *self,
                                           const NscPreset     *preset);
void       nsc_results_grid_step_started  (NscResultsGrid      *self,
                                           const NscStep       *step);
/* The live value of the running cell: the run's average so far. */
void       nsc_results_grid_add_sample    (NscResultsGrid      *self,
                                           const NscStep       *step,
                                           guint                run,
                                           const NscSample     *sample);
void       nsc_results_grid_step_finished (NscResultsGrid      *self,
                                           const NscStepResult *result);
/* The run ended: a cell still running shows nothing, not a live value. */
void       nsc_results_grid_stop          (NscResultsGrid      *self);
/* A saved result (schema 1): its tests and headline values. */
void       nsc_results_grid_show_result   (NscResultsGrid      *self,
                                           JsonNode            *result);
/* MiB/s (default), MB/s, IOPS or mean latency in µs. */
void       nsc_results_grid_set_units     (NscResultsGrid      *self,
                                           NscUnits             units);

G_END_DECLS

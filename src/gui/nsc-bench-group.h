/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The "Test bench" section of a result (its "bench", "device", "app", the steps'
 * backends and the warnings about what lies under the test file): an
 * AdwPreferencesGroup of rows, one per fact the result has. */
GtkWidget *nsc_bench_group_new              (JsonNode   *result);

/* "12 mitigations active, 1 vulnerable" for the "mitigations" object; NULL when
 * there is none. */
char      *nsc_bench_mitigations_summary    (JsonObject *mitigations);

/* The I/O backends the steps used: "io_uring", "psync (fallback)"…; NULL when none. */
char      *nsc_bench_backend_summary        (JsonNode   *result);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* fio's results as Nandscope results: fio's JSON output (fio 3.x,
 * --output-format=json or json+, one job or many, several hosts with --client) and,
 * where given, its bandwidth logs, made into results (schema 1) that charts, sheets,
 * Compare and the analysis read like a run of Nandscope's own.
 *
 * Each fio job (each clone of numjobs, each host) is a step: its direction, block size,
 * queue depth, region and length from its options (the job's, over the global ones);
 * its bytes, I/Os, bandwidth, IOPS and latency (fio's completion latency: min, max,
 * mean and percentiles, as fio reported them) per direction. A job's bandwidth log
 * (write_bw_log=NAME with log_avg_msec: NAME_bw.N.log in the logs' folder, N counting
 * the jobs from 1, and .HOST after it from a client) is its series. A job that runs
 * a program (ioengine=exec, a job file's pause) is an idle step. A sequential write that wrote its whole
 * region once, with a log, is analysed as a write-fill (the SLC cache). fio's
 * --client output gives one result per host ("All clients" is a sum, not a host).
 *
 * The result says where it came from ("source": fio's version, the time, the host,
 * the I/O engines) and what its data cannot support ("not_supported": the read
 * inflation and settled-read verdicts, cache recovery after idle, capacity, the
 * drive's facts); the target it ran on was not seen, so a cache found in it is not
 * verified (the target's system cache is "unseen", or this machine's memory when fio
 * went through the page cache).
 *
 * Bad input is refused with an #NSC_ERROR: text that is not JSON or nests too deep,
 * JSON that is not fio's, jobs without the members read, numbers out of range, a log
 * line that is not fio's. */

/* @text, @length (-1: NUL-terminated): fio's output, with anything fio printed before
 * its JSON (a client's "<host> …" lines) skipped. @logs: the folder holding the
 * bandwidth logs, or NULL for none. Returns the results (JsonNode roots, one per
 * host), or NULL. */
GPtrArray *nsc_fio_import      (const char  *text,
                                gssize       length,
                                const char  *logs,
                                GError     **error);

/* Whether @text looks like fio's JSON output (a "fio version" member near its
 * start): what Open checks before it chooses the importer. */
gboolean   nsc_fio_text_is_fio (const char  *text,
                                gsize        length);

G_END_DECLS

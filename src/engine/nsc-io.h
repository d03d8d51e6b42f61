/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "nsc-histogram.h"
#include "nsc-job.h"
#include "nsc-series.h"
#include "nsc-target.h"
#include "nsc-verify.h"

G_BEGIN_DECLS

typedef enum
{
  NSC_BACKEND_AUTO,      /* per job: psync at QD1 and on devices without NOWAIT, else io_uring */
  NSC_BACKEND_IO_URING,
  NSC_BACKEND_PSYNC,     /* a pool of threads doing pread/pwrite, one per queue slot */
  NSC_BACKEND_NULL,      /* completes every I/O at once: measures the engine itself */
} NscBackend;

/* Why auto picked the backend that ran: the user's words are composed from this
 * (nsc_words_backend_note ()); backend_note keeps the English for the result file. */
typedef enum
{
  NSC_BACKEND_WHY_NONE,            /* the backend was asked for by name */
  NSC_BACKEND_WHY_NO_IO_URING,     /* io_uring refused (backend_errno): psync instead */
  NSC_BACKEND_WHY_QUEUE_DEPTH_1,   /* one I/O in flight: a pread/pwrite loop */
  NSC_BACKEND_WHY_NO_NOWAIT,       /* the target refuses RWF_NOWAIT: psync threads */
  NSC_BACKEND_WHY_NOWAIT,          /* io_uring, the target takes non-blocking I/O */
  NSC_BACKEND_WHY_NOWAIT_UNKNOWN,  /* io_uring, whether it does is unknown */
  NSC_BACKEND_WHY_PUNTED_POLLED,   /* io_uring by name on a target that refuses NOWAIT:
                                    * kernel workers run every request, and each thread
                                    * polls briefly for their completions */
  NSC_BACKEND_WHY_INLINE,          /* the target completes requests within the submitting
                                    * call (zram, a filesystem on RAM): psync threads */
  NSC_BACKEND_WHY_INLINE_ONE_RING, /* such a target, but psync threads were not clearly
                                    * faster than one io_uring thread in the untimed
                                    * probe, reading or (a job that only writes) writing:
                                    * a machine whose other CPUs give them little time,
                                    * or writes the threads cannot spread: io_uring */
} NscBackendWhy;

/* NSC_BACKEND_WHY_PUNTED_POLLED: how long an I/O thread polls before it sleeps. */
#define NSC_IO_PUNT_POLL_US 10

const char *nsc_backend_to_string   (NscBackend   backend);
gboolean    nsc_backend_from_string (const char  *text,
                                     NscBackend  *out,
                                     GError     **error);

typedef struct
{
  guint64       bytes;
  guint64       ios;
  double        bw_bps;
  double        iops;
  NscHistogram *latency;  /* ns, submission to completion */
} NscDirStats;

typedef struct
{
  NscJob       job;              /* as run: region resolved to bytes */
  NscBackend   backend;          /* the backend that ran */
  char        *backend_note;     /* why this backend: auto's reason or a fallback's, or NULL */
  NscBackendWhy backend_why;     /* the same as a code, for the user's words */
  int          backend_errno;    /* NSC_BACKEND_WHY_NO_IO_URING: why io_uring was refused */
  double       backend_probe_bps[2]; /* NSC_BACKEND_WHY_INLINE*: the untimed probe's reads
                                      * (or writes) through one ring [0] and through psync
                                      * threads [1], bytes/s; 0: not timed */
  gboolean     backend_probe_write;  /* the probe wrote (a job that only writes) */
  gboolean     backend_fallback; /* io_uring was refused: a backend other than intended ran */
  gboolean     registered_buffers;
  gint64       start_time_us;    /* wall clock, g_get_real_time () */
  gint64       runtime_ns;       /* measured part, after the ramp */
  NscDirStats  dir[2];           /* NSC_DIR_READ, NSC_DIR_WRITE */
  NscSeries   *series;
  gboolean     cancelled;
  guint64      ios_after_stop;   /* submitted after cancel or the deadline; at most the queue depth */
  gint64       drain_ns;         /* from the stop request until the last I/O was reaped */
  gboolean     verified;         /* NSC_DATA_VERIFY with reads: what they found */
  NscVerifyTally verify;
  int          error_errno;      /* an I/O failed: errno (EIO for a short transfer) */
  guint64      error_offset;
} NscJobResult;

void nsc_job_result_free (NscJobResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NscJobResult, nsc_job_result_free)

/* Called on the thread that runs the job, once per sampling interval. */
typedef void (*NscSampleFunc) (const NscSample *sample,
                               gpointer         user_data);

/* Runs @job on @target and blocks until it ends: by its stop condition, an I/O
 * error, or @cancellable (within 250 ms, outstanding I/O reaped). Whatever was
 * measured is returned in @out_result, also when FALSE is returned. */
gboolean nsc_job_run      (NscTarget      *target,
                           const NscJob   *job,
                           NscBackend      backend,
                           NscSampleFunc   on_sample,
                           gpointer        user_data,
                           GCancellable   *cancellable,
                           NscJobResult  **out_result,
                           GError        **error);

/* Asked on the job's thread after every sample (after @on_sample): TRUE ends the
 * job there, as its own stop condition would. */
typedef gboolean (*NscStopFunc) (gpointer user_data);

/* nsc_job_run () that also stops when @should_stop says so. */
gboolean nsc_job_run_until (NscTarget      *target,
                            const NscJob   *job,
                            NscBackend      backend,
                            NscSampleFunc   on_sample,
                            gpointer        user_data,
                            NscStopFunc     should_stop,
                            gpointer        stop_data,
                            GCancellable   *cancellable,
                            NscJobResult  **out_result,
                            GError        **error);

/* Writes incompressible data over the parts of [offset, offset+length) that the
 * target does not know to hold data, so reads there measure something real. */
gboolean nsc_target_fill  (NscTarget      *target,
                           guint64         offset,
                           guint64         length,
                           NscBackend      backend,
                           NscSampleFunc   on_sample,
                           gpointer        user_data,
                           GCancellable   *cancellable,
                           guint64        *out_filled,
                           GError        **error);

/* What auto runs for @job on @target, and why (a sentence for backend_note, and as
 * a code in @out_why, @out_errno; either may be NULL). Probes
 * the target with one untimed non-blocking read (RWF_NOWAIT): a device that refuses it
 * (zram, some device-mapper and md targets) would have io_uring hand every request to
 * kernel workers. On a target that takes it, a few untimed reads at the region's start
 * (nsc_fd_probe_inline ()) tell whether the target completes requests inside the
 * submitting call: then io_uring would work on one CPU, and psync threads are used
 * while there are more CPUs than workers (nsc_usable_cpus ()), unless they are not
 * clearly faster than one ring in an untimed probe (nsc_fd_probe_paths ()), whose
 * figures go to @out_probe_bps (two doubles, or NULL) and @out_probe_write (TRUE where
 * it wrote, as a job that only writes is timed; or NULL). Returns NSC_BACKEND_AUTO
 * with @error set when io_uring was asked for and is not available. */
NscBackend nsc_backend_resolve (NscTarget     *target,
                                const NscJob  *job,
                                NscBackend     requested,
                                char         **out_note,
                                NscBackendWhy *out_why,
                                int           *out_errno,
                                gboolean      *out_fallback,
                                double        *out_probe_bps,
                                gboolean      *out_probe_write,
                                GError       **error);

/* 1: @fd completes I/O within the call that submits it: @count reads of @block bytes
 * from @offset, submitted at once through io_uring, had all completed when the
 * submitting call returned, in each of three rounds (a synchronous device such as
 * zram, brd or pmem, or a filesystem on one). 0: they had not (an interrupt completes
 * them later). -1: cannot tell. In a file the blocks must hold data: a hole or an
 * unwritten extent reads back at once from any device. */
int      nsc_fd_probe_inline (int      fd,
                              guint64  offset,
                              guint64  block,
                              guint    count,
                              guint    align);

/* Times reads (or, with @write, writes of @data's kind) from @offset (at most 64 MiB
 * of @length, @block bytes each, cycling) through one io_uring thread keeping @depth
 * in flight and through @depth psync threads, in five alternating rounds of 40 ms
 * each: @out_bps gets their speeds (one ring [0], the threads [1]). FALSE: it could
 * not tell (an I/O failed, or the span holds fewer than @depth blocks). In a file the
 * span must hold data; writes go only where the caller may write. */
gboolean nsc_fd_probe_paths (int            fd,
                             guint64        offset,
                             guint64        length,
                             guint64        block,
                             guint          depth,
                             guint          align,
                             gboolean       write,
                             NscDataPattern data,
                             double         out_bps[2]);

/* The CPUs this process may use at once: its affinity mask, bounded by its cgroup's
 * CPU quota (version 1 or 2, the least along its path), rounded up; at least 1. */
guint    nsc_usable_cpus     (void);

/* 1: @fd takes non-blocking I/O, 0: it refuses it (EOPNOTSUPP), -1: unknown. */
int      nsc_fd_probe_nowait (int      fd,
                              guint64  offset,
                              guint64  length,
                              guint    align);

/* Called by each of the engine's I/O threads when it starts: asks the scheduler for a
 * short slice (Linux 6.12; earlier kernels ignore it) so that the completion of its
 * I/O wakes it at once, not a tick later behind a busy thread. Keeps the thread's
 * nice value; does nothing to a thread that is not SCHED_OTHER. */
void     nsc_thread_wake_promptly (void);

/* The same for the thread that starts, samples and stops a job's or a copy's I/O
 * threads, for as long as they run, so that it does not wait behind them when they
 * are CPU-bound; _end () with what _begin () returned puts the default slice back. */
gboolean nsc_thread_wake_promptly_begin (void);
void     nsc_thread_wake_promptly_end   (gboolean begun);

/* CLOCK_MONOTONIC in ns, the engine's one clock. */
gint64   nsc_now_ns       (void);

/* Whether a failed read's @errsv says the drive could not read the block (EIO, or a
 * media error: ENODATA, EILSEQ, EBADMSG), as a check counts it unreadable: a drive
 * that went away fails with EIO too, which its caller asks apart. */
gboolean nsc_io_errno_unreadable (int errsv);

G_END_DECLS

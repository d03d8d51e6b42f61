/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <liburing.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "nsc-error.h"
#include "nsc-io.h"
#include "nsc-units.h"

/* How a job runs: one coordinator (the calling thread) and a set of I/O threads.
 * io_uring and null: one thread per worker, each with its own ring and queue.
 * psync: queue_depth threads per worker sharing the worker's ticket counter.
 * Threads publish cumulative counters with relaxed atomic stores after each batch;
 * the coordinator reads them every sampling interval, so sampling never pauses I/O.
 * Latency histograms are private to each thread and merged after the join. */

enum { PHASE_RAMP, PHASE_MEASURE, PHASE_STOP };

#define DRAIN_LIMIT_NS   (G_GINT64_CONSTANT (30) * 1000000000)
#define WAIT_SLICE_NS    (100 * 1000000)
#define SERIES_MAX       16384
#define STAMP_UNIT       4096
#define POOL_SIZE        (8u << 20)
#define SUBMIT_EVERY     1
#define PUNT_POLL_NS     (NSC_IO_PUNT_POLL_US * 1000)

typedef struct _Run Run;

typedef struct
{
  Run          *run;
  guint         index;
  NscOffsetGen  gen;
  guint64       next_ticket;   /* atomic for psync */
  guint64       ticket_limit;
  guint64       mix_seed;
} Worker;

typedef struct
{
  Run          *run;
  Worker       *worker;
  GThread      *thread;
  guint         serial;
  /* Published for the coordinator. */
  guint64       pub_bytes[2];
  guint64       pub_ios[2];
  guint64       pub_lat_sum[2];
  guint64       pub_lat_max;
  /* Private until the join. */
  guint64       bytes[2];
  guint64       ios[2];
  guint64       lat_sum[2];
  NscHistogram *hist[2];
  guint64       after_stop;
  gint64        end_ns;
  int           error_errno;
  guint64       error_offset;
  char         *error_message;
  gboolean      registered;
  guint64       sink;          /* null backend: keeps its offset work observable */
  NscVerifyTally verify;       /* NSC_DATA_VERIFY: what its reads found */
} IoThread;

struct _Run
{
  NscJob      job;
  int         fd;
  NscTarget  *target;       /* borrowed for the job */
  NscBackend  backend;
  guint       buffer_align;
  int         phase;        /* atomic */
  gint64      stop_ns;      /* atomic: when a stop was requested, 0 before */
  int         failed;       /* atomic */
  gboolean    cancelled;
  GMutex      lock;
  GCond       cond;
  guint       running;
  guint       ready;        /* threads set up and waiting for go */
  gboolean    go;
  Worker     *workers;
  IoThread   *threads;
  guint       n_threads;
  gboolean    punted;       /* io_uring: the target refuses NOWAIT (kernel workers run it) */
  gboolean    poll_punts;   /* io_uring: poll briefly for their completions (see below) */
};

gint64
nsc_now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

const char *
nsc_backend_to_string (NscBackend backend)
{
  switch (backend)
    {
    case NSC_BACKEND_IO_URING:
      return "io_uring";
    case NSC_BACKEND_PSYNC:
      return "psync";
    case NSC_BACKEND_NULL:
      return "null";
    case NSC_BACKEND_AUTO:
    default:
      return "auto";
    }
}

gboolean
nsc_backend_from_string (const char  *text,
                         NscBackend  *out,
                         GError     **error)
{
  static const NscBackend all[] = {
    NSC_BACKEND_AUTO, NSC_BACKEND_IO_URING, NSC_BACKEND_PSYNC, NSC_BACKEND_NULL,
  };

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      if (g_strcmp0 (text, nsc_backend_to_string (all[i])) == 0)
        {
          *out = all[i];
          return TRUE;
        }
    }
  nsc_error_set (error, NSC_PROBLEM_BACKEND_UNKNOWN, &(NscErrorFields) { .text = text ? text : "" });
  return FALSE;
}

void
nsc_job_result_free (NscJobResult *result)
{
  if (result == NULL)
    return;
  g_free (result->dir[0].latency);
  g_free (result->dir[1].latency);
  nsc_series_free (result->series);
  g_free (result->backend_note);
  g_free (result);
}

/* ---- data ---------------------------------------------------------------- */

static guint8 *random_pool;

static gpointer
make_random_pool (gpointer data)
{
  guint64 *p = g_malloc (POOL_SIZE);
  guint64 s = (guint64) g_get_real_time () ^ ((guint64) getpid () << 32);

  for (gsize i = 0; i < POOL_SIZE / 8; i++)
    p[i] = nsc_mix64 (s + i);
  random_pool = (guint8 *) p;
  return NULL;
}

static void
fill_from_pool (guint8  *buf,
                guint64  len,
                guint64  salt)
{
  static GOnce once = G_ONCE_INIT;
  guint64 pos = (nsc_mix64 (salt) % (POOL_SIZE / STAMP_UNIT)) * STAMP_UNIT;

  g_once (&once, make_random_pool, NULL);

  for (guint64 done = 0; done < len;)
    {
      guint64 n = MIN (len - done, (guint64) POOL_SIZE - pos);
      memcpy (buf + done, random_pool + pos, n);
      done += n;
      pos = 0;
    }
}

/* Every 4 KiB of written data carries its own offset and a per-write value, so no
 * two written blocks are alike (nothing to deduplicate) while the rest of the
 * buffer stays the random pool's (nothing to compress) at no per-byte cost. */
static inline void
stamp_buffer (guint8  *buf,
              guint64  len,
              guint64  offset,
              guint64  ticket,
              guint64  seed)
{
  guint64 unit = MIN (len, (guint64) STAMP_UNIT);

  for (guint64 o = 0; o < len; o += unit)
    {
      guint64 stamp[2] = { GUINT64_TO_LE (offset + o), nsc_mix64 (ticket ^ seed) + o };
      memcpy (buf + o, stamp, sizeof stamp);
    }
}

/* Half of every 4 KiB random, half zeros: a compressing controller stores about half. */
static void
fill_compressible (guint8  *buf,
                   guint64  len,
                   guint64  salt)
{
  fill_from_pool (buf, len, salt);
  for (guint64 o = 0; o < len; o += STAMP_UNIT)
    {
      guint64 unit = MIN ((guint64) STAMP_UNIT, len - o);
      memset (buf + o + unit / 2, 0, unit - unit / 2);
    }
}

static inline void
prepare_write (Run      *run,
               guint8   *buf,
               gboolean *dirty,
               guint64   offset,
               guint64   ticket)
{
  guint64 bs = run->job.block_size;

  if (run->job.data == NSC_DATA_VERIFY)
    {
      nsc_verify_fill (buf, bs, offset, run->job.verify_key);
      *dirty = FALSE;
      return;
    }
  if (run->job.data == NSC_DATA_ZEROS)
    {
      if (*dirty)
        memset (buf, 0, bs);
      *dirty = FALSE;
      return;
    }
  if (*dirty)
    {
      if (run->job.data == NSC_DATA_COMPRESSIBLE)
        fill_compressible (buf, bs, ticket);
      else
        fill_from_pool (buf, bs, ticket);
    }
  *dirty = FALSE;
  stamp_buffer (buf, bs, offset, ticket, run->job.seed);
}

static guint8 *
alloc_buffers (Run      *run,
               guint64   size,
               guint64   salt)
{
  void *mem = NULL;

  if (posix_memalign (&mem, MAX (run->buffer_align, 4096u), size) != 0)
    return NULL;
  if (run->job.data == NSC_DATA_ZEROS)
    memset (mem, 0, size);
  else if (run->job.data == NSC_DATA_COMPRESSIBLE)
    fill_compressible (mem, size, salt);
  else
    fill_from_pool (mem, size, salt);
  return mem;
}

/* ---- scheduling ---------------------------------------------------------- */

/* struct sched_attr as Linux 3.14 defined it (SCHED_ATTR_SIZE_VER0, 48 bytes);
 * glibc 2.36 does not declare it. */
typedef struct
{
  guint32 size;
  guint32 sched_policy;
  guint64 sched_flags;
  gint32  sched_nice;
  guint32 sched_priority;
  guint64 sched_runtime;
  guint64 sched_deadline;
  guint64 sched_period;
} SchedAttr;

#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif
#define NSC_SCHED_FLAG_RESET_ON_FORK 0x01

/* An I/O thread sleeps until the device answers, then works for microseconds.
 * Linux's scheduler (EEVDF) lets a waking thread run at once only when its slice
 * ends before the running thread's; with the default slice it can wait up to a
 * tick behind any busy thread of the same session or cgroup, even one at nice 19
 * (the user's build, say): 3.3 ms per wake-up on average in the run below, read
 * from the thread's schedstat. The device then idles and the result measures the
 * CPU load, not the drive. Asking for a short slice (custom slices, Linux 6.12)
 * lets completions wake it promptly. Measured in a 2-vCPU VM with a nice-19
 * CPU-bound job in the same session, a file on ext4: 128 KiB writes at QD8
 * 150-210 MiB/s before, 1450-1520 after (fio, whose job runs in a session of its
 * own, 1400-1800); 4 KiB reads at QD1 253 and 2437 IOPS before, 7528 and 9231
 * after. Earlier kernels take the call and ignore the slice.
 * The thread keeps its policy and nice value; SCHED_BATCH, SCHED_IDLE and real-
 * time threads are left as they are. */
#define IO_THREAD_SLICE_NS (100 * 1000)

/* Gives this thread a slice of @runtime_ns (0: the kernel's default), keeping its
 * nice value, when it is SCHED_OTHER. Returns whether the kernel took the call. */
static gboolean
set_own_slice (guint64 runtime_ns)
{
  SchedAttr attr;
  int policy, nice;

  policy = sched_getscheduler (0);
  if (policy < 0 || (policy & ~SCHED_RESET_ON_FORK) != SCHED_OTHER)
    return FALSE;
  /* The nice value is per thread on Linux; getpriority (PRIO_PROCESS, 0) reads
   * this thread's. Passing it back keeps it (lowering it would need privilege). */
  errno = 0;
  nice = getpriority (PRIO_PROCESS, 0);
  if (nice == -1 && errno != 0)
    return FALSE;
  memset (&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.sched_policy = SCHED_OTHER;
  attr.sched_flags = (policy & SCHED_RESET_ON_FORK) ? NSC_SCHED_FLAG_RESET_ON_FORK : 0;
  attr.sched_nice = nice;
  attr.sched_runtime = runtime_ns;
  /* A refusal (a seccomp filter, say) leaves the slice as it was: nothing to report. */
  return syscall (SYS_sched_setattr, 0, &attr, 0) == 0;
}

void
nsc_thread_wake_promptly (void)
{
  set_own_slice (IO_THREAD_SLICE_NS);
}

/* The thread that runs a job starts its I/O threads, takes the samples and stops
 * them. With a longer slice than theirs it would wait behind them whenever they are
 * CPU-bound (zram; any target under a sanitizer): EEVDF runs the earliest deadline
 * first, and a short slice makes an early one. Under ThreadSanitizer, a job of 64
 * psync threads cancelled 300 ms after its start had not begun to measure in 2 of 3
 * runs; with this, 5 of 5 had. It takes the same slice for the length of the job,
 * then goes back to the default. */
gboolean
nsc_thread_wake_promptly_begin (void)
{
  SchedAttr cur;

  memset (&cur, 0, sizeof cur);
  /* Already short (a job inside a job's thread): leave it, and leave it after. */
  if (syscall (SYS_sched_getattr, 0, &cur, sizeof cur, 0) == 0
      && cur.sched_runtime == IO_THREAD_SLICE_NS)
    return FALSE;
  return set_own_slice (IO_THREAD_SLICE_NS);
}

void
nsc_thread_wake_promptly_end (gboolean begun)
{
  if (begun)
    set_own_slice (0);
}

/* ---- per-thread bookkeeping --------------------------------------------- */

static inline gboolean
ticket_is_read (const Worker *w,
                guint64       ticket)
{
  guint pct = w->run->job.read_percent;

  if (pct >= 100)
    return TRUE;
  if (pct == 0)
    return FALSE;
  return nsc_mix64 (ticket ^ w->mix_seed) % 100 < pct;
}

static void
thread_observe_phase (IoThread *t,
                      int      *seen)
{
  int phase = g_atomic_int_get (&t->run->phase);

  if (phase == *seen)
    return;
  if (phase == PHASE_MEASURE)
    {
      /* The ramp is not measured; the coordinator takes its own counter baseline. */
      nsc_histogram_init (t->hist[0]);
      nsc_histogram_init (t->hist[1]);
    }
  *seen = phase;
}

static inline void
thread_publish (IoThread *t,
                guint64   batch_max)
{
  guint64 cur;

  for (guint d = 0; d < 2; d++)
    {
      __atomic_store_n (&t->pub_bytes[d], t->bytes[d], __ATOMIC_RELAXED);
      __atomic_store_n (&t->pub_ios[d], t->ios[d], __ATOMIC_RELAXED);
      __atomic_store_n (&t->pub_lat_sum[d], t->lat_sum[d], __ATOMIC_RELAXED);
    }
  cur = __atomic_load_n (&t->pub_lat_max, __ATOMIC_RELAXED);
  while (batch_max > cur
         && !__atomic_compare_exchange_n (&t->pub_lat_max, &cur, batch_max, TRUE,
                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
}

static inline void
thread_account (IoThread *t,
                guint     dir,
                guint64   lat)
{
  t->bytes[dir] += t->run->job.block_size;
  t->ios[dir]++;
  t->lat_sum[dir] += lat;
  nsc_histogram_add (t->hist[dir], lat);
}

static void
request_stop (Run *run)
{
  gint64 expected = 0;

  __atomic_compare_exchange_n (&run->stop_ns, &expected, nsc_now_ns (), FALSE,
                               __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  g_atomic_int_set (&run->phase, PHASE_STOP);
  g_mutex_lock (&run->lock);
  g_cond_broadcast (&run->cond);
  g_mutex_unlock (&run->lock);
}

static void
thread_fail (IoThread   *t,
             int         errsv,
             guint64     offset,
             const char *what)
{
  if (t->error_errno == 0)
    {
      t->error_errno = errsv ? errsv : EIO;
      t->error_offset = offset;
      t->error_message = g_strdup (what);
    }
  g_atomic_int_set (&t->run->failed, 1);
  request_stop (t->run);
}

/* NSC_DATA_VERIFY: a read that returned has its blocks judged, and its time kept
 * (slow blocks). */
static inline void
thread_check (IoThread     *t,
              guint         dir,
              const guint8 *buf,
              guint64       offset,
              guint64       lat_ns)
{
  if (G_UNLIKELY (t->run->job.data == NSC_DATA_VERIFY) && dir == NSC_DIR_READ)
    {
      nsc_verify_check (buf, t->run->job.block_size, offset, t->run->job.verify_key, &t->verify);
      nsc_verify_timed (&t->verify, offset, lat_ns);
    }
}

gboolean
nsc_io_errno_unreadable (int errsv)
{
  return errsv == EIO || errsv == ENODATA || errsv == EILSEQ || errsv == EBADMSG;
}

/* NSC_DATA_VERIFY: a read the drive failed (a media error, or short) is a finding of
 * the check, not its end: its blocks are counted unreadable and the job goes on.
 * Anything else (the device gone, a submission refused, a failed write) still stops
 * it. TRUE when the failure was taken so. */
static inline gboolean
thread_read_failed (IoThread *t,
                    guint     dir,
                    int       errsv,
                    guint64   offset,
                    guint64   lat_ns)
{
  if (t->run->job.data != NSC_DATA_VERIFY || dir != NSC_DIR_READ)
    return FALSE;
  if (errsv != 0 && !nsc_io_errno_unreadable (errsv))
    return FALSE;
  /* A drive that went away fails every read with EIO too: that ends the check (it
   * says so), rather than counting the rest of the drive unreadable. */
  if ((errsv == EIO || errsv == 0) && nsc_target_is_gone (t->run->target))
    return FALSE;
  nsc_verify_unreadable (&t->verify, offset, t->run->job.block_size);
  nsc_verify_timed (&t->verify, offset, lat_ns);
  return TRUE;
}

static void
thread_finish (IoThread *t)
{
  t->end_ns = nsc_now_ns ();
  thread_publish (t, 0);
  g_mutex_lock (&t->run->lock);
  t->run->running--;
  g_cond_broadcast (&t->run->cond);
  g_mutex_unlock (&t->run->lock);
}

/* Set up (ring, buffers), a thread waits for the others: the clock starts when all
 * can submit, not while a loaded machine is still creating threads. */
static void
thread_ready (IoThread *t)
{
  Run *run = t->run;

  g_mutex_lock (&run->lock);
  run->ready++;
  g_cond_broadcast (&run->cond);
  while (!run->go)
    g_cond_wait (&run->cond, &run->lock);
  g_mutex_unlock (&run->lock);
}

static inline gboolean
stop_was_requested (Run *run)
{
  return __atomic_load_n (&run->stop_ns, __ATOMIC_RELAXED) != 0;
}

/* ---- io_uring ------------------------------------------------------------ */

typedef struct
{
  guint8  *buf;
  guint64  offset;
  gint64   submit_ns;
  guint    dir;
  gboolean dirty;
} Slot;

static int
ring_init (struct io_uring *ring,
           guint            entries)
{
  struct io_uring_params p;
  int ret;

  /* One thread submits and reaps: tell the kernel so it can skip some work. With
   * DEFER_TASKRUN (6.1) completions are posted only when this thread waits for them,
   * in one go, instead of interrupting it (COOP_TASKRUN, 5.19) after every I/O. */
  static const unsigned flags[] = {
    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
    IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN,
    0,
  };

  ret = -EINVAL;
  for (guint i = 0; i < G_N_ELEMENTS (flags) && ret == -EINVAL; i++)
    {
      memset (&p, 0, sizeof p);
      p.flags = flags[i];
      ret = io_uring_queue_init_params (entries, ring, &p);
    }
  /* A registered ring fd spares the kernel an fd lookup on every io_uring_enter. */
  if (ret == 0)
    io_uring_register_ring_fd (ring);
  return ret;
}

/* A target that refuses NOWAIT (zram, some device-mapper targets) makes io_uring
 * hand every request to a kernel worker. At queue depth 1 with one thread, the
 * request then waits for that worker to wake on another CPU and the completion for
 * this thread to wake again: two cross-CPU wake-ups per I/O, costly in a VM. Keeping
 * this thread and its workers on one CPU hands the CPU back and forth instead: on
 * zram in a 2-vCPU VM, 84-108 k IOPS where they were 54-63 k, at half the CPU time
 * per GiB. The I/O itself, and its timing, are unchanged. */
static void
keep_punts_near (struct io_uring *ring,
                 Run             *run)
{
  cpu_set_t set;
  int cpu;

  if (!run->punted)
    return;
  cpu = sched_getcpu ();
  if (cpu < 0)
    return;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  if (sched_setaffinity (0, sizeof set, &set) == 0)
    io_uring_register_iowq_aff (ring, sizeof set, &set);
}

/* The quota of one cgroup directory, in CPUs (rounded up); 0: none or unreadable.
 * Version 2 says "max 100000" or "150000 100000" in cpu.max; version 1 says -1 or the
 * microseconds per period in cpu.cfs_quota_us beside cpu.cfs_period_us. */
static guint
cgroup_dir_quota (const char *dir,
                  gboolean    v2)
{
  g_autofree char *text = NULL;
  g_autofree char *period_text = NULL;
  g_autofree char *path = NULL;
  gint64 quota, period;
  char *end;

  path = g_build_filename (dir, v2 ? "cpu.max" : "cpu.cfs_quota_us", NULL);
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  quota = g_ascii_strtoll (text, &end, 10);
  if (end == text || quota <= 0)  /* "max", -1 */
    return 0;
  if (v2)
    period = g_ascii_strtoll (end, NULL, 10);
  else
    {
      g_free (path);
      path = g_build_filename (dir, "cpu.cfs_period_us", NULL);
      if (!g_file_get_contents (path, &period_text, NULL, NULL))
        return 0;
      period = g_ascii_strtoll (period_text, NULL, 10);
    }
  if (period <= 0)
    return 0;
  return (guint) MAX ((quota + period - 1) / period, 1);
}

/* The least quota along a cgroup's path up to the hierarchy's root, in CPUs; 0: none. */
static guint
cgroup_path_quota (const char *root,
                   const char *cgroup,
                   gboolean    v2)
{
  g_autofree char *rel = g_strdup (cgroup);
  guint least = 0;

  for (;;)
    {
      g_autofree char *dir = g_build_filename (root, rel, NULL);
      guint q = cgroup_dir_quota (dir, v2);
      char *slash;

      if (q > 0 && (least == 0 || q < least))
        least = q;
      slash = strrchr (rel, '/');
      if (slash == NULL || rel[0] == '\0' || strcmp (rel, "/") == 0)
        break;
      if (slash == rel)
        slash[1] = '\0';   /* "/a" → "/" */
      else
        *slash = '\0';
    }
  return least;
}

/* The CPU time this process's cgroup grants, in whole CPUs (rounded up); 0: no
 * quota, or it cannot be read. A container or a service held to one CPU's time on a
 * machine of two has both in its affinity mask, and its threads take turns on them. */
static guint
cgroup_cpu_quota (void)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint least = 0;

  if (!g_file_get_contents ("/proc/self/cgroup", &text, NULL, NULL))
    return 0;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], ":", 3);
      g_auto(GStrv) controllers = NULL;
      guint q = 0;

      if (g_strv_length (f) != 3)
        continue;
      if (f[1][0] == '\0')   /* "0::/path": version 2 */
        q = cgroup_path_quota ("/sys/fs/cgroup", f[2], TRUE);
      else
        {
          controllers = g_strsplit (f[1], ",", -1);
          if (g_strv_contains ((const char * const *) controllers, "cpu"))
            {
              g_autofree char *mount = g_build_filename ("/sys/fs/cgroup", f[1], NULL);

              q = cgroup_path_quota (g_file_test (mount, G_FILE_TEST_IS_DIR)
                                       ? mount : "/sys/fs/cgroup/cpu", f[2], FALSE);
            }
        }
      if (q > 0 && (least == 0 || q < least))
        least = q;
    }
  return least;
}

guint
nsc_usable_cpus (void)
{
  cpu_set_t set;
  guint cpus, quota;

  if (sched_getaffinity (0, sizeof set, &set) != 0)
    return 1;
  cpus = (guint) CPU_COUNT (&set);
  quota = cgroup_cpu_quota ();
  if (quota > 0 && quota < cpus)
    cpus = quota;
  return MAX (cpus, 1u);
}

/* At queue depth > 1 on such a target, the kernel worker that ran a request posts
 * its completion to this thread and, when the thread sleeps waiting for it, wakes
 * it: a cross-CPU wake-up for nearly every I/O, paid by the worker while it holds
 * the queue up. On zram one worker serves the whole ring, and the wake-ups took a
 * fifth of its time (perf, 2-vCPU VM). Polling the ring for up to PUNT_POLL_NS before
 * sleeping catches the next completion awake: 4 KiB random reads at QD32 went from
 * 393-432 k IOPS to 497-525 k, mean latency from 73-80 us to 61-64 us, at about the
 * same CPU time per GiB (0.98-1.04 s either way). It is done only while there are
 * CPUs to spare (fewer I/O threads than CPUs this process may use), and skipped while
 * completions come slower than the polling lasts (the previous wait was longer), so a
 * slow target costs nothing.
 * A target that takes NOWAIT completes from its interrupt (or within the submitting
 * call, where auto runs psync threads) instead; polling there measured slower in a
 * VM (128 KiB writes to a file, 10 % fewer) and is not done. */
static gboolean
want_poll_punts (const Run *run)
{
  if (!run->punted || run->job.queue_depth < 2)
    return FALSE;
  return run->n_threads < nsc_usable_cpus ();
}

/* An io_uring thread's queue: set up once, then read by every pass of its loop. */
typedef struct
{
  IoThread     *t;
  Worker       *w;
  Run          *run;
  guint         qd;
  guint64       bs;
  Slot         *slots;
  guint        *free_slots;    /* a stack of the slots not in flight */
  guint        *batch;         /* the slots of this pass's submissions */
  struct iovec *iov;
  guint8       *buffers;
  gboolean      fixed_file;
} UringQueue;

/* What the loop changes from pass to pass. */
typedef struct
{
  guint    n_free;
  guint    inflight;
  gboolean stop_submit;
  gint64   stop_seen_ns;
  gint64   last_wait_ns;
} UringState;

/* The ring, the buffers (registered where the memlock limit allows) and the slots;
 * FALSE with the thread failed. */
static gboolean
uring_set_up (IoThread        *t,
              struct io_uring *ring,
              UringQueue      *q)
{
  Run *run = t->run;
  int ret;

  q->t = t;
  q->w = t->worker;
  q->run = run;
  q->qd = run->job.queue_depth;
  q->bs = run->job.block_size;

  ret = ring_init (ring, q->qd);
  if (ret < 0)
    {
      /* With the system's reason: the failure is rare and its cause the kernel's. */
      g_autofree char *why = g_strdup_printf ("cannot set up io_uring: %s", g_strerror (-ret));
      thread_fail (t, -ret, 0, why);
      return FALSE;
    }

  q->buffers = alloc_buffers (run, (guint64) q->qd * q->bs, t->serial);
  if (q->buffers == NULL)
    {
      thread_fail (t, ENOMEM, 0, "cannot allocate I/O buffers");
      io_uring_queue_exit (ring);
      return FALSE;
    }

  q->slots = g_new0 (Slot, q->qd);
  q->free_slots = g_new (guint, q->qd);
  q->batch = g_new (guint, q->qd);
  q->iov = g_new (struct iovec, q->qd);
  for (guint i = 0; i < q->qd; i++)
    {
      q->slots[i].buf = q->buffers + (guint64) i * q->bs;
      q->iov[i].iov_base = q->slots[i].buf;
      q->iov[i].iov_len = q->bs;
      q->free_slots[i] = q->qd - 1 - i;
    }

  /* Registered buffers count against RLIMIT_MEMLOCK; without them I/O still works. */
  t->registered = io_uring_register_buffers (ring, q->iov, q->qd) == 0;
  q->fixed_file = io_uring_register_files (ring, &run->fd, 1) == 0;
  if (q->qd == 1 && run->n_threads == 1)
    keep_punts_near (ring, run);
  return TRUE;
}

G_ALWAYS_INLINE static inline void
uring_free (UringQueue *q)
{
  g_free (q->slots);
  g_free (q->free_slots);
  g_free (q->batch);
  g_free (q->iov);
}

G_ALWAYS_INLINE static inline void
uring_stop_submitting (UringState *s)
{
  s->stop_submit = TRUE;
  s->stop_seen_ns = nsc_now_ns ();
}

/* One read or write of @ticket into @sqe, from the free slot @idx. */
G_ALWAYS_INLINE static inline void
uring_prep (UringQueue          *q,
            struct io_uring_sqe *sqe,
            guint                idx,
            guint64              ticket)
{
  Run *run = q->run;
  Slot *slot = &q->slots[idx];
  int fd = q->fixed_file ? 0 : run->fd;

  slot->offset = nsc_offset_gen_at (&q->w->gen, ticket);
  slot->dir = ticket_is_read (q->w, ticket) ? NSC_DIR_READ : NSC_DIR_WRITE;
  if (slot->dir == NSC_DIR_READ)
    {
      slot->dirty = TRUE;
      if (q->t->registered)
        io_uring_prep_read_fixed (sqe, fd, slot->buf, q->bs, slot->offset, idx);
      else
        io_uring_prep_read (sqe, fd, slot->buf, q->bs, slot->offset);
    }
  else
    {
      prepare_write (run, slot->buf, &slot->dirty, slot->offset, ticket);
      if (q->t->registered)
        io_uring_prep_write_fixed (sqe, fd, slot->buf, q->bs, slot->offset, idx);
      else
        io_uring_prep_write (sqe, fd, slot->buf, q->bs, slot->offset);
    }
  if (q->fixed_file)
    sqe->flags |= IOSQE_FIXED_FILE;
  io_uring_sqe_set_data64 (sqe, idx);
}

/* The queue refilled up to its depth, each I/O submitted as soon as it is prepared
 * but the last; returns how many were prepared, and in @stamped how many of them
 * already have their submit time. */
G_ALWAYS_INLINE static inline guint
uring_refill (UringQueue      *q,
              struct io_uring *ring,
              UringState      *s,
              guint           *stamped)
{
  Worker *w = q->w;
  guint n = 0;
  int ret;

  while (!s->stop_submit && s->inflight < q->qd)
    {
      guint64 ticket = w->next_ticket;
      struct io_uring_sqe *sqe;
      guint idx;

      if (ticket >= w->ticket_limit)
        {
          uring_stop_submitting (s);
          break;
        }
      sqe = io_uring_get_sqe (ring);
      if (sqe == NULL)
        break;
      w->next_ticket = ticket + 1;

      idx = q->free_slots[--s->n_free];
      q->batch[n] = idx;
      uring_prep (q, sqe, idx, ticket);
      s->inflight++;
      n++;
      /* Each I/O goes to the kernel as soon as it is prepared (fio's default,
       * iodepth_batch_submit=1): the device is fed while the rest of the batch is
       * prepared. Submitting the whole refill at once measured 5-10 % slower on a
       * file at QD32, in bursts with the device's queue idling between them. The
       * one that fills the queue goes with the wait below: one system call. */
      if (n - *stamped >= SUBMIT_EVERY && s->inflight < q->qd)
        {
          gint64 t0 = nsc_now_ns ();
          for (guint i = *stamped; i < n; i++)
            q->slots[q->batch[i]].submit_ns = t0;
          *stamped = n;
          ret = io_uring_submit (ring);
          if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
            {
              thread_fail (q->t, -ret, 0, "io_uring submission failed");
              uring_stop_submitting (s);
            }
        }
    }
  return n;
}

/* What is pending submitted, then a wait for a completion (a short poll first for
 * punted I/O). FALSE with the thread failed; else @now is when the wait ended. */
G_ALWAYS_INLINE static inline gboolean
uring_wait (UringQueue      *q,
            struct io_uring *ring,
            UringState      *s,
            guint            n,
            guint            stamped,
            gint64          *now)
{
  struct __kernel_timespec slice = { 0, WAIT_SLICE_NS };
  struct io_uring_cqe *cqe = NULL;
  gint64 wait_start;
  int ret = 0;

  /* The submit time is taken after the batch was prepared (buffer stamps of large
   * writes are not latency), right before the system call, as fio does. */
  wait_start = nsc_now_ns ();
  for (guint i = stamped; i < n; i++)
    q->slots[q->batch[i]].submit_ns = wait_start;
  if (q->run->poll_punts && s->last_wait_ns < PUNT_POLL_NS)
    {
      /* Submits what is pending, then runs the completions the workers posted,
       * without sleeping. A failure here is left to the wait below, which
       * submits again and reports it. */
      io_uring_submit_and_get_events (ring);
      while (io_uring_cq_ready (ring) == 0 && nsc_now_ns () - wait_start < PUNT_POLL_NS)
        io_uring_get_events (ring);
    }
  if (io_uring_cq_ready (ring) == 0 || io_uring_sq_ready (ring) > 0)
    ret = io_uring_submit_and_wait_timeout (ring, &cqe, 1, &slice, NULL);
  if (n > 0 && stop_was_requested (q->run))
    q->t->after_stop += n;
  if (ret < 0 && ret != -ETIME && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
    {
      thread_fail (q->t, -ret, 0, "io_uring submission failed");
      return FALSE;
    }

  *now = nsc_now_ns ();
  s->last_wait_ns = *now - wait_start;
  return TRUE;
}

/* The completions counted (a failed or short one stops the thread) and their slots
 * freed; returns the longest latency among them. */
G_ALWAYS_INLINE static inline guint64
uring_reap (UringQueue      *q,
            struct io_uring *ring,
            UringState      *s,
            gint64           now)
{
  struct io_uring_cqe *cqe;
  unsigned head, count = 0;
  guint64 batch_max = 0;

  io_uring_for_each_cqe (ring, head, cqe)
    {
      guint idx = (guint) io_uring_cqe_get_data64 (cqe);
      Slot *slot = &q->slots[idx];

      count++;
      if (cqe->res != (int) q->bs
          && thread_read_failed (q->t, slot->dir, cqe->res < 0 ? -cqe->res : 0, slot->offset,
                                 (guint64) (now - slot->submit_ns)))
        ;
      else if (cqe->res != (int) q->bs)
        {
          thread_fail (q->t, cqe->res < 0 ? -cqe->res : EIO, slot->offset,
                       cqe->res < 0 ? NULL : "short transfer");
          s->stop_submit = TRUE;
          if (s->stop_seen_ns == 0)
            s->stop_seen_ns = now;
        }
      else
        {
          guint64 lat = (guint64) (now - slot->submit_ns);
          thread_account (q->t, slot->dir, lat);
          thread_check (q->t, slot->dir, slot->buf, slot->offset, lat);
          batch_max = MAX (batch_max, lat);
        }
      q->free_slots[s->n_free++] = idx;
      s->inflight--;
    }
  io_uring_cq_advance (ring, count);
  return batch_max;
}

static gpointer
uring_thread (gpointer data)
{
  IoThread *t = data;
  Run *run = t->run;
  UringQueue set_up = { 0 }, q;
  UringState s = { 0 };
  struct io_uring ring;
  int seen_phase = -1;

  if (!uring_set_up (t, &ring, &set_up))
    {
      thread_finish (t);
      return NULL;
    }
  /* A copy whose address only the inline steps see: the loop keeps it in registers. */
  q = set_up;
  s.n_free = q.qd;
  nsc_thread_wake_promptly ();
  thread_ready (t);

  for (;;)
    {
      guint n, stamped = 0;
      gint64 now;

      thread_observe_phase (t, &seen_phase);
      /* The stop time is set before the phase: either one means stop. */
      if ((seen_phase == PHASE_STOP || stop_was_requested (run)) && !s.stop_submit)
        uring_stop_submitting (&s);

      n = uring_refill (&q, &ring, &s, &stamped);
      if (s.inflight == 0)
        break;
      if (!uring_wait (&q, &ring, &s, n, stamped, &now))
        break;
      thread_publish (t, uring_reap (&q, &ring, &s, now));

      if (s.stop_submit && s.inflight > 0 && now - s.stop_seen_ns > DRAIN_LIMIT_NS)
        {
          /* The device stopped answering. Leave the ring to the kernel, which reaps
           * what is still in flight on its own when the ring is torn down. */
          thread_fail (t, ETIMEDOUT, 0, "the device did not complete I/O for 30 s");
          break;
        }
    }

  io_uring_queue_exit (&ring);
  free (q.buffers);
  thread_finish (t);
  uring_free (&q);
  return NULL;
}

/* ---- psync --------------------------------------------------------------- */

static gpointer
psync_thread (gpointer data)
{
  IoThread *t = data;
  Worker *w = t->worker;
  Run *run = t->run;
  const guint64 bs = run->job.block_size;
  guint8 *buf;
  gboolean dirty = FALSE;
  int seen_phase = -1;

  buf = alloc_buffers (run, bs, t->serial);
  if (buf == NULL)
    {
      thread_fail (t, ENOMEM, 0, "cannot allocate an I/O buffer");
      thread_finish (t);
      return NULL;
    }
  nsc_thread_wake_promptly ();
  thread_ready (t);

  for (;;)
    {
      guint64 ticket, offset;
      gboolean is_read;
      gint64 t0, t1;
      ssize_t r;

      thread_observe_phase (t, &seen_phase);
      if (seen_phase == PHASE_STOP || stop_was_requested (run))
        break;

      ticket = __atomic_fetch_add (&w->next_ticket, 1, __ATOMIC_RELAXED);
      if (ticket >= w->ticket_limit)
        break;
      offset = nsc_offset_gen_at (&w->gen, ticket);
      is_read = ticket_is_read (w, ticket);
      if (!is_read)
        prepare_write (run, buf, &dirty, offset, ticket);
      else
        dirty = TRUE;

      t0 = nsc_now_ns ();
      do
        r = is_read ? pread (run->fd, buf, bs, (off_t) offset)
                    : pwrite (run->fd, buf, bs, (off_t) offset);
      while (r < 0 && errno == EINTR);
      t1 = nsc_now_ns ();
      if (stop_was_requested (run))
        t->after_stop++;

      if (r != (ssize_t) bs)
        {
          if (thread_read_failed (t, is_read ? NSC_DIR_READ : NSC_DIR_WRITE, r < 0 ? errno : 0, offset,
                                  (guint64) (t1 - t0)))
            continue;
          thread_fail (t, r < 0 ? errno : EIO, offset, r < 0 ? NULL : "short transfer");
          break;
        }
      thread_account (t, is_read ? NSC_DIR_READ : NSC_DIR_WRITE, (guint64) (t1 - t0));
      thread_check (t, is_read ? NSC_DIR_READ : NSC_DIR_WRITE, buf, offset, (guint64) (t1 - t0));
      thread_publish (t, (guint64) (t1 - t0));
    }

  free (buf);
  thread_finish (t);
  return NULL;
}

/* ---- null ---------------------------------------------------------------- */

static gpointer
null_thread (gpointer data)
{
  IoThread *t = data;
  Worker *w = t->worker;
  Run *run = t->run;
  const guint qd = run->job.queue_depth;
  g_autofree guint64 *offsets = g_new (guint64, qd);
  g_autofree guint8 *dirs = g_new (guint8, qd);
  int seen_phase = -1;

  thread_ready (t);

  /* The work of the real backends minus the system calls: tickets, offsets, the
   * read/write choice, timestamps per batch and the accounting of each I/O. */
  for (;;)
    {
      guint n = 0;
      guint64 batch_max = 0;
      gint64 t0, now;

      thread_observe_phase (t, &seen_phase);
      if (seen_phase == PHASE_STOP || stop_was_requested (run))
        break;

      t0 = nsc_now_ns ();
      while (n < qd && w->next_ticket < w->ticket_limit)
        {
          guint64 ticket = w->next_ticket++;
          offsets[n] = nsc_offset_gen_at (&w->gen, ticket);
          dirs[n] = ticket_is_read (w, ticket) ? NSC_DIR_READ : NSC_DIR_WRITE;
          n++;
        }
      if (n == 0)
        break;
      if (stop_was_requested (run))
        t->after_stop += n;

      now = nsc_now_ns ();
      for (guint i = 0; i < n; i++)
        {
          guint64 lat = (guint64) (now - t0);
          thread_account (t, dirs[i], lat);
          batch_max = MAX (batch_max, lat);
          t->sink ^= offsets[i];
        }
      thread_publish (t, batch_max);
    }

  thread_finish (t);
  return NULL;
}

/* ---- the coordinator ----------------------------------------------------- */

static int
io_uring_probe (void)
{
  static int probe = 1; /* 1: not probed; else 0 or -errno */

  if (g_atomic_int_get (&probe) == 1)
    {
      struct io_uring ring;
      int ret = io_uring_queue_init (2, &ring, 0);

      if (ret == 0)
        io_uring_queue_exit (&ring);
      g_atomic_int_set (&probe, ret);
    }
  return g_atomic_int_get (&probe);
}

int
nsc_fd_probe_nowait (int      fd,
                     guint64  offset,
                     guint64  length,
                     guint    align)
{
  void *buf = NULL;
  struct iovec iov;
  ssize_t r;
  int errsv;

  if (length == 0 || posix_memalign (&buf, MAX (align, 4096u), length) != 0)
    return -1;
  iov.iov_base = buf;
  iov.iov_len = length;
  do
    r = preadv2 (fd, &iov, 1, (off_t) offset, RWF_NOWAIT);
  while (r < 0 && errno == EINTR);
  errsv = errno;
  free (buf);
  if (r >= 0 || errsv == EAGAIN)
    return 1;      /* done at once, or "would block": either way NOWAIT is understood */
  if (errsv == EOPNOTSUPP)
    return 0;
  return -1;       /* EBADF (write-only), EINVAL…: cannot tell */
}

/* Whether a job's target takes NOWAIT (nsc_fd_probe_nowait ()), from one read of the
 * region's first block, or its first MiB: untimed, never a write. */
static int
probe_job_nowait (int           fd,
                  const NscJob *job,
                  guint         align)
{
  return nsc_fd_probe_nowait (fd, job->region_offset, MIN (job->block_size, 1u << 20), align);
}

#define INLINE_PROBE_ROUNDS 3
#define INLINE_PROBE_MAX    8u

int
nsc_fd_probe_inline (int      fd,
                     guint64  offset,
                     guint64  block,
                     guint    count,
                     guint    align)
{
  struct io_uring ring;
  void *buf = NULL;
  int result = 1;

  if (count == 0 || block == 0)
    return -1;
  if (io_uring_queue_init (count, &ring, 0) != 0)
    return -1;
  if (posix_memalign (&buf, MAX (align, 4096u), block * count) != 0)
    {
      io_uring_queue_exit (&ring);
      return -1;
    }

  for (guint round = 0; round < INLINE_PROBE_ROUNDS && result == 1; round++)
    {
      guint ready, reaped = 0;
      int submitted;

      for (guint i = 0; i < count; i++)
        {
          struct io_uring_sqe *sqe = io_uring_get_sqe (&ring);
          guint8 *b = (guint8 *) buf + i * block;

          io_uring_prep_read (sqe, fd, b, (unsigned) block, offset + i * block);
        }
      submitted = io_uring_submit (&ring);
      /* Nothing waited for yet: what is here completed within the submitting call. */
      ready = io_uring_cq_ready (&ring);
      if (submitted < (int) count)
        result = -1;
      else if (ready < count)
        result = 0;
      while (submitted > 0 && reaped < (guint) submitted)
        {
          struct io_uring_cqe *cqe;
          int ret = io_uring_wait_cqe (&ring, &cqe);

          if (ret == -EINTR)
            continue;
          if (ret < 0)
            {
              /* cannot drain: the ring's memory must not be reused by the kernel */
              result = -1;
              break;
            }
          if (cqe->res != (int) block)
            result = -1;
          io_uring_cqe_seen (&ring, cqe);
          reaped++;
        }
      if (reaped < (guint) MAX (submitted, 0))
        {
          /* Leave the buffer to the kernel rather than free memory it may still write. */
          io_uring_queue_exit (&ring);
          return -1;
        }
    }
  io_uring_queue_exit (&ring);
  free (buf);
  return result;
}

/* ---- the paths compared: one io_uring thread against psync threads -------- */

#define PATH_PROBE_ROUNDS  5
#define PATH_PROBE_NS      (40 * G_GINT64_CONSTANT (1000000))
#define PATH_PROBE_SPAN    (G_GUINT64_CONSTANT (64) << 20)
#define PATH_PROBE_MAX_DEPTH 32u
#define PATH_PROBE_MARGIN  1.25   /* timed reading: reads gain more than the job may */
#define PATH_PROBE_MARGIN_WRITE 1.10 /* timed writing the job's own writes */

typedef struct
{
  int      fd;
  guint64  offset;
  guint64  block;
  guint64  blocks;      /* in the probed span */
  guint    align;
  gint64   deadline;
  guint64  next;        /* the next block, shared by the psync threads */
  guint64  bytes;       /* read or written by all of them */
  gboolean failed;
  gboolean write;       /* the job's writes, not reads */
  NscDataPattern data;  /* what the writes carry: the job's kind of data */
  guint8  *bufs;        /* a block per slot, filled and in memory before any timing */
  guint    slot;        /* the next psync thread's slot */
  GMutex   lock;        /* the psync threads wait for go: their start is not timed */
  GCond    cond;
  gboolean go;
} PathProbe;

/* A probe's write buffer holds the job's kind of data, as its own writes would: zram
 * compresses random data at a cost and stores a page of zeros for nothing. */
static void
path_probe_fill (const PathProbe *p,
                 guint8          *buf,
                 guint64          len,
                 guint64          salt)
{
  if (p->data == NSC_DATA_ZEROS)
    memset (buf, 0, len);
  else if (p->data == NSC_DATA_COMPRESSIBLE)
    fill_compressible (buf, len, salt);
  else
    fill_from_pool (buf, len, salt);
}

static gpointer
path_probe_psync (gpointer data)
{
  PathProbe *p = data;
  guint8 *buf = p->bufs + __atomic_fetch_add (&p->slot, 1, __ATOMIC_RELAXED) * p->block;
  guint64 bytes = 0;
  gint64 deadline;

  g_mutex_lock (&p->lock);
  while (!p->go)
    g_cond_wait (&p->cond, &p->lock);
  deadline = p->deadline;
  g_mutex_unlock (&p->lock);
  while (nsc_now_ns () < deadline)
    {
      guint64 n = __atomic_fetch_add (&p->next, 1, __ATOMIC_RELAXED) % p->blocks;
      off_t at = (off_t) (p->offset + n * p->block);
      ssize_t r;

      do
        r = p->write ? pwrite (p->fd, buf, p->block, at) : pread (p->fd, buf, p->block, at);
      while (r < 0 && errno == EINTR);
      if (r != (ssize_t) p->block)
        {
          __atomic_store_n (&p->failed, TRUE, __ATOMIC_RELAXED);
          break;
        }
      bytes += p->block;
    }
  __atomic_fetch_add (&p->bytes, bytes, __ATOMIC_RELAXED);
  return NULL;
}

/* @depth psync threads reading (or writing) for PATH_PROBE_NS: their bytes, or -1;
 * @spent_ns the time from their start (made and waiting before it) until the last
 * has ended. */
static gint64
path_probe_psync_round (PathProbe *p,
                        guint      depth,
                        gint64    *spent_ns)
{
  g_autofree GThread **threads = g_new0 (GThread *, depth);
  gint64 t0;

  p->bytes = 0;
  p->failed = FALSE;
  p->slot = 0;
  p->go = FALSE;
  for (guint i = 0; i < depth; i++)
    threads[i] = g_thread_try_new ("nsc-probe", path_probe_psync, p, NULL);
  g_mutex_lock (&p->lock);
  t0 = nsc_now_ns ();
  p->deadline = t0 + PATH_PROBE_NS;
  p->go = TRUE;
  g_cond_broadcast (&p->cond);
  g_mutex_unlock (&p->lock);
  for (guint i = 0; i < depth; i++)
    if (threads[i] != NULL)
      g_thread_join (threads[i]);
    else
      p->failed = TRUE;
  *spent_ns = nsc_now_ns () - t0;
  return p->failed ? -1 : (gint64) p->bytes;
}

static inline void
path_probe_prep (const PathProbe     *p,
                 struct io_uring_sqe *sqe,
                 guint8              *buf,
                 guint64              n)
{
  if (p->write)
    io_uring_prep_write (sqe, p->fd, buf, (unsigned) p->block, p->offset + n * p->block);
  else
    io_uring_prep_read (sqe, p->fd, buf, (unsigned) p->block, p->offset + n * p->block);
}

/* One ring keeping @depth reads (or writes) in flight for PATH_PROBE_NS: the bytes,
 * or -1 (-2: it could not drain); @spent_ns the time from its first submission until
 * the last completion. */
static gint64
path_probe_uring_round (PathProbe       *p,
                        struct io_uring *ring,
                        guint8          *bufs,
                        guint            depth,
                        gint64          *spent_ns)
{
  guint64 bytes = 0;
  guint inflight = 0;
  gboolean failed = FALSE;
  gint64 t0 = nsc_now_ns ();

  p->deadline = t0 + PATH_PROBE_NS;
  for (guint i = 0; i < depth; i++)
    {
      struct io_uring_sqe *sqe = io_uring_get_sqe (ring);
      guint64 n = p->next++ % p->blocks;

      path_probe_prep (p, sqe, bufs + i * p->block, n);
      io_uring_sqe_set_data64 (sqe, i);
    }
  if (io_uring_submit (ring) != (int) depth)
    return -1;   /* the ring's reads are not all in flight: nothing to reap reliably */
  inflight = depth;
  while (inflight > 0)
    {
      struct io_uring_cqe *cqe;
      guint64 slot;
      int ret = io_uring_wait_cqe (ring, &cqe);

      if (ret == -EINTR)
        continue;
      if (ret < 0)
        return -2;   /* cannot drain: the caller must not reuse the buffers */
      slot = io_uring_cqe_get_data64 (cqe);
      if (cqe->res != (int) p->block)
        failed = TRUE;
      else
        bytes += p->block;
      io_uring_cqe_seen (ring, cqe);
      inflight--;
      if (!failed && nsc_now_ns () < p->deadline)
        {
          struct io_uring_sqe *sqe = io_uring_get_sqe (ring);
          guint64 n = p->next++ % p->blocks;

          path_probe_prep (p, sqe, bufs + slot * p->block, n);
          io_uring_sqe_set_data64 (sqe, slot);
          if (io_uring_submit (ring) == 1)
            inflight++;
          else
            failed = TRUE;
        }
    }
  *spent_ns = nsc_now_ns () - t0;
  return failed ? -1 : (gint64) bytes;
}

gboolean
nsc_fd_probe_paths (int      fd,
                    guint64  offset,
                    guint64  length,
                    guint64  block,
                    guint    depth,
                    guint    align,
                    gboolean write,
                    NscDataPattern data,
                    double   out_bps[2])
{
  PathProbe p = { 0 };
  struct io_uring ring;
  void *bufs = NULL;
  gint64 sum[2] = { 0, 0 }, spent[2] = { 0, 0 };
  gboolean ok = TRUE;

  out_bps[0] = out_bps[1] = 0;
  if (block == 0 || depth < 2 || length / block < depth)
    return FALSE;
  p.fd = fd;
  p.offset = offset;
  p.block = block;
  p.blocks = MIN (length, MAX (PATH_PROBE_SPAN, block * depth)) / block;
  p.align = align;
  p.write = write;
  p.data = data;
  if (io_uring_queue_init (depth, &ring, 0) != 0)
    return FALSE;
  if (posix_memalign (&bufs, MAX (align, 4096u), block * depth) != 0)
    {
      io_uring_queue_exit (&ring);
      return FALSE;
    }
  g_mutex_init (&p.lock);
  g_cond_init (&p.cond);
  /* The buffers, one per slot, are the ring's and then the threads': filled (or, for
   * reads, touched) here, so that neither side's time includes faulting them in. */
  if (write)
    path_probe_fill (&p, bufs, block * depth, depth);
  else
    memset (bufs, 0, block * depth);
  p.bufs = bufs;
  /* Alternating rounds, so that whatever else the machine does falls on both alike. */
  for (guint round = 0; round < PATH_PROBE_ROUNDS && ok; round++)
    for (guint side = 0; side < 2 && ok; side++)
      {
        gint64 ns = 0;
        gint64 got = side == 0 ? path_probe_uring_round (&p, &ring, bufs, depth, &ns)
                               : path_probe_psync_round (&p, depth, &ns);

        if (got == -2)
          {
            /* Leave the buffers to the kernel rather than free memory it may still write. */
            io_uring_queue_exit (&ring);
            g_mutex_clear (&p.lock);
            g_cond_clear (&p.cond);
            return FALSE;
          }
        ok = got >= 0;
        sum[side] += got;
        spent[side] += ns;
      }
  io_uring_queue_exit (&ring);
  g_mutex_clear (&p.lock);
  g_cond_clear (&p.cond);
  free (bufs);
  if (!ok || spent[0] <= 0 || spent[1] <= 0)
    return FALSE;
  for (guint side = 0; side < 2; side++)
    out_bps[side] = (double) sum[side] * 1e9 / (double) spent[side];
  return TRUE;
}

/* A job's region in bytes before the run resolves it: its length, or (0) from its
 * offset to the end of the target. */
static guint64
job_region_length (NscTarget    *target,
                   const NscJob *job)
{
  guint64 size = nsc_target_get_size (target);

  if (job->region_length != 0)
    return job->region_length;
  return size > job->region_offset ? size - job->region_offset : 0;
}

/* Whether a job's target completes I/O within the submitting call
 * (nsc_fd_probe_inline ()): untimed, at the region's start, up to 8 reads of 4 KiB
 * (or the job's smaller block) in flight, three times; never a write. Small I/Os are
 * the stricter test: a real device cannot finish the last of them before the call
 * that submitted it returns. In a file, only where this run wrote the blocks (a new
 * test file is written whole first): a read of an unwritten extent or a hole comes
 * back at once from any device and proves nothing, so elsewhere it cannot tell. */
static int
probe_job_inline (NscTarget    *target,
                  const NscJob *job)
{
  guint64 block = job->block_size % 4096 == 0 ? 4096 : job->block_size;
  guint64 length = job_region_length (target, job);
  guint count = MIN (job->queue_depth, INLINE_PROBE_MAX);

  if (length < block * count)
    count = (guint) (length / block);
  if (count < 2)
    return -1;
  if (nsc_target_get_kind (target) == NSC_TARGET_FILE
      && !nsc_extents_covers (nsc_target_get_written (target), job->region_offset,
                              block * count))
    return -1;
  return nsc_fd_probe_inline (nsc_target_get_fd (target), job->region_offset, block, count,
                              nsc_target_get_dio_mem_align (target));
}

/* Whether the paths are timed writing: a job that only writes, but not a fill (it
 * writes each block exactly once, and its first writes are what it measures) nor the
 * checked data of a capacity check (what it reads back must be what it wrote). */
static gboolean
probe_job_writes (const NscJob *job)
{
  return job->read_percent == 0 && !job->once && job->data != NSC_DATA_VERIFY;
}

/* Where the paths can be timed (nsc_fd_probe_paths ()): from the region's start, at
 * most PATH_PROBE_SPAN, and in a file only what this run wrote; 0: nowhere. */
static guint64
probe_job_span (NscTarget    *target,
                const NscJob *job)
{
  guint64 least = job->block_size * MIN (job->queue_depth, PATH_PROBE_MAX_DEPTH);
  guint64 length = MIN (job_region_length (target, job), PATH_PROBE_SPAN);

  if (nsc_target_get_kind (target) == NSC_TARGET_FILE)
    while (length >= least
           && !nsc_extents_covers (nsc_target_get_written (target), job->region_offset, length))
      length /= 2;
  return length >= least ? length : 0;
}

NscBackend
nsc_backend_resolve (NscTarget     *target,
                     const NscJob  *job,
                     NscBackend     requested,
                     char         **out_note,
                     NscBackendWhy *out_why,
                     int           *out_errno,
                     gboolean      *out_fallback,
                     double        *out_probe_bps,
                     gboolean      *out_probe_write,
                     GError       **error)
{
  NscBackendWhy why_scratch;
  double probe_scratch[2];
  guint64 span;
  int errno_scratch;
  int probe;
  int nowait;
  guint cpus;

  if (out_why == NULL)
    out_why = &why_scratch;
  if (out_errno == NULL)
    out_errno = &errno_scratch;
  if (out_probe_bps == NULL)
    out_probe_bps = probe_scratch;
  out_probe_bps[0] = out_probe_bps[1] = 0;
  if (out_probe_write != NULL)
    *out_probe_write = FALSE;
  *out_note = NULL;
  *out_why = NSC_BACKEND_WHY_NONE;
  *out_errno = 0;
  *out_fallback = FALSE;
  if (requested == NSC_BACKEND_PSYNC || requested == NSC_BACKEND_NULL)
    return requested;

  probe = io_uring_probe ();
  if (requested == NSC_BACKEND_IO_URING)
    {
      if (probe == 0)
        return NSC_BACKEND_IO_URING;
      nsc_error_set_errno (error, NSC_PROBLEM_IO_URING_UNAVAILABLE, -probe, NULL);
      return NSC_BACKEND_AUTO;
    }

  if (probe != 0)
    {
      *out_note = g_strdup_printf ("io_uring is not available (%s); psync threads were used",
                                   g_strerror (-probe));
      *out_why = NSC_BACKEND_WHY_NO_IO_URING;
      *out_errno = -probe;
      *out_fallback = TRUE;
      return NSC_BACKEND_PSYNC;
    }
  if (job->queue_depth == 1)
    {
      *out_note = g_strdup ("queue depth 1: a pread/pwrite loop per worker, the lowest-overhead path");
      *out_why = NSC_BACKEND_WHY_QUEUE_DEPTH_1;
      return NSC_BACKEND_PSYNC;
    }

  nowait = probe_job_nowait (nsc_target_get_fd (target), job,
                             nsc_target_get_dio_mem_align (target));
  if (nowait == 0)
    {
      *out_note = g_strdup_printf ("queue depth %u: %s refuses non-blocking I/O (NOWAIT), so "
                                   "io_uring would hand every request to kernel workers; "
                                   "%u psync threads per worker are faster",
                                   job->queue_depth, nsc_target_get_description (target),
                                   job->queue_depth);
      *out_why = NSC_BACKEND_WHY_NO_NOWAIT;
      return NSC_BACKEND_PSYNC;
    }
  /* A target that completes every request inside the submitting call (zram, brd,
   * pmem, a filesystem on one) gives io_uring no overlap: one thread would do all of
   * the device's work on one CPU. psync threads spread it over the CPUs, where there
   * are more CPUs than workers to spread it to. */
  cpus = nsc_usable_cpus ();
  if (cpus >= 2 && job->workers < cpus
      && probe_job_inline (target, job) == 1)
    {
      /* Whether the other CPUs give psync threads their time is the machine's to say:
       * a host that runs this one's CPUs by turns, or other work on them, can make
       * the threads slower than one ring. Both are timed where the inline probe read.
       * Writes gain less from the threads than reads, and on some machines nothing
       * (ext4 on zram, 128 KiB at QD8, 2 CPUs: 1.6 × through 8 threads for reads
       * where the job's writes went at 0.94 × fio's one ring), so a job that only
       * writes is timed writing, with its own kind of data, over what this run has
       * written already and the job writes again; a job that reads is timed reading.
       * The threads run only where they are PATH_PROBE_MARGIN × faster, or, timed
       * writing, PATH_PROBE_MARGIN_WRITE × (1 MiB writes at QD8 and QD32 on ext4 over
       * zram: 1.27 × faster through the threads in timed runs, 0.87–2.3 × in single
       * probes of a noisy host, where the read margin chose them in 2 and 3 of 5). */
      gboolean probe_write = probe_job_writes (job);
      const char *did = probe_write ? "wrote" : "read";

      if (out_probe_write != NULL)
        *out_probe_write = probe_write;
      if (job->workers == 1
          && (span = probe_job_span (target, job)) > 0
          && nsc_fd_probe_paths (nsc_target_get_fd (target), job->region_offset, span,
                                 MIN (job->block_size, G_GUINT64_CONSTANT (1) << 20),
                                 MIN (job->queue_depth, PATH_PROBE_MAX_DEPTH),
                                 nsc_target_get_dio_mem_align (target), probe_write,
                                 job->data, out_probe_bps)
          && out_probe_bps[1] < (probe_write ? PATH_PROBE_MARGIN_WRITE : PATH_PROBE_MARGIN)
                                * out_probe_bps[0])
        {
          *out_note = g_strdup_printf ("queue depth %u: %s completes every request within the "
                                       "call that submits it, and one io_uring thread %s "
                                       "%.0f MiB/s in an untimed probe against %.0f MiB/s "
                                       "through psync threads, so io_uring ran",
                                       job->queue_depth, nsc_target_get_description (target),
                                       did, out_probe_bps[0] / 1048576.0,
                                       out_probe_bps[1] / 1048576.0);
          *out_why = NSC_BACKEND_WHY_INLINE_ONE_RING;
          return NSC_BACKEND_IO_URING;
        }
      if (out_probe_bps[1] > 0)
        *out_note = g_strdup_printf ("queue depth %u: %s completes every request within the "
                                     "call that submits it, so io_uring would do the whole "
                                     "queue's work on one CPU; %u psync threads per worker "
                                     "spread it over the CPUs (an untimed probe %s "
                                     "%.0f MiB/s through them, %.0f MiB/s through one ring)",
                                     job->queue_depth, nsc_target_get_description (target),
                                     job->queue_depth, did, out_probe_bps[1] / 1048576.0,
                                     out_probe_bps[0] / 1048576.0);
      else
        *out_note = g_strdup_printf ("queue depth %u: %s completes every request within the "
                                     "call that submits it, so io_uring would do the whole "
                                     "queue's work on one CPU; %u psync threads per worker "
                                     "spread it over the CPUs",
                                     job->queue_depth, nsc_target_get_description (target),
                                     job->queue_depth);
      *out_why = NSC_BACKEND_WHY_INLINE;
      return NSC_BACKEND_PSYNC;
    }
  *out_note = g_strdup_printf ("queue depth %u: io_uring%s", job->queue_depth,
                               nowait > 0 ? ", the target takes non-blocking I/O"
                                          : " (whether the target takes non-blocking I/O is unknown)");
  *out_why = nowait > 0 ? NSC_BACKEND_WHY_NOWAIT : NSC_BACKEND_WHY_NOWAIT_UNKNOWN;
  return NSC_BACKEND_IO_URING;
}

static void
on_cancelled (GCancellable *cancellable,
              gpointer      data)
{
  Run *run = data;

  run->cancelled = TRUE;
  request_stop (run);
}

typedef struct
{
  guint64 bytes[2];
  guint64 ios[2];
  guint64 lat_sum[2];
} Totals;

static void
read_totals (Run    *run,
             Totals *out)
{
  memset (out, 0, sizeof *out);
  for (guint i = 0; i < run->n_threads; i++)
    {
      IoThread *t = &run->threads[i];
      for (guint d = 0; d < 2; d++)
        {
          out->bytes[d] += __atomic_load_n (&t->pub_bytes[d], __ATOMIC_RELAXED);
          out->ios[d] += __atomic_load_n (&t->pub_ios[d], __ATOMIC_RELAXED);
          out->lat_sum[d] += __atomic_load_n (&t->pub_lat_sum[d], __ATOMIC_RELAXED);
        }
    }
}

/* @tail: the last, partial interval; a short one is folded into the sample before
 * it (the drain of a queue alone would read as a burst of speed), and so is any tail
 * of a step that ended at its time (@tail == TAIL_DRAIN): what comes after the
 * deadline is the queue emptying, not the drive slowing down, and drawn alone it
 * plunged towards zero. Folded, it weighs by its length. */
enum { TAIL_NONE, TAIL_LAST, TAIL_DRAIN };

static void
take_sample (Run           *run,
             Totals        *prev,
             const Totals  *base,
             gint64        *prev_ns,
             gint64         now,
             gint64         measure_start,
             int            tail,
             gint64         interval,
             NscSeries     *series,
             NscSampleFunc  on_sample,
             gpointer       user_data)
{
  NscSample s = { 0 };
  Totals cur;

  read_totals (run, &cur);
  s.t_ns = now - measure_start;
  s.duration_ns = now - *prev_ns;
  for (guint d = 0; d < 2; d++)
    {
      s.bytes[d] = cur.bytes[d] - prev->bytes[d];
      s.ios[d] = cur.ios[d] - prev->ios[d];
      s.lat_sum_ns[d] = cur.lat_sum[d] - prev->lat_sum[d];
      s.position += cur.bytes[d] - base->bytes[d];
    }
  for (guint i = 0; i < run->n_threads; i++)
    {
      /* Not inside MAX (): it would evaluate the exchange twice. */
      guint64 m = __atomic_exchange_n (&run->threads[i].pub_lat_max, 0, __ATOMIC_RELAXED);
      s.lat_max_ns = MAX (s.lat_max_ns, m);
    }
  *prev = cur;
  *prev_ns = now;

  if (s.duration_ns <= 0)
    return;
  if (tail && (tail == TAIL_DRAIN || s.duration_ns < interval / 2) && nsc_series_get_len (series) > 0)
    {
      nsc_series_extend_last (series, &s);
      return;
    }
  nsc_series_append (series, &s);
  if (on_sample)
    on_sample (&s, user_data);
}

static gboolean
setup_workers (Run           *run,
               NscTarget     *target,
               GError       **error)
{
  NscJob *job = &run->job;
  guint64 slice, total_ios = 0;

  run->workers = g_new0 (Worker, job->workers);
  slice = job->shared_region ? job->region_length
        : (job->region_length / job->workers) / job->block_size * job->block_size;

  if (job->bytes)
    total_ios = MAX (job->bytes / job->block_size, (guint64) 1);

  for (guint i = 0; i < job->workers; i++)
    {
      Worker *w = &run->workers[i];
      guint64 start = job->region_offset + (job->shared_region ? 0 : i * slice);
      guint64 limit = G_MAXUINT64;

      w->run = run;
      w->index = i;
      w->mix_seed = nsc_mix64 (job->seed ^ (0xabcdefULL + i));
      if (!nsc_offset_gen_init (&w->gen, job->pattern, start, slice, job->block_size,
                                nsc_mix64 (job->seed + i), error))
        return FALSE;
      if (job->shared_region && job->pattern == NSC_PATTERN_SEQUENTIAL)
        w->gen.first_block = w->gen.n_blocks * i / job->workers;

      if (job->once)
        limit = w->gen.n_blocks;
      if (job->bytes)
        limit = MIN (limit, total_ios / job->workers + (i < total_ios % job->workers ? 1 : 0));
      w->ticket_limit = limit;
    }
  return TRUE;
}

gboolean
nsc_job_run (NscTarget      *target,
             const NscJob   *job_in,
             NscBackend      backend,
             NscSampleFunc   on_sample,
             gpointer        user_data,
             GCancellable   *cancellable,
             NscJobResult  **out_result,
             GError        **error)
{
  return nsc_job_run_until (target, job_in, backend, on_sample, user_data, NULL, NULL,
                            cancellable, out_result, error);
}

/* The job fitted to @target: a region of 0 runs to its end, the region is whole
 * blocks, the target takes I/O of that size there, and a job that writes has a
 * target opened for writing. */
static gboolean
fit_job_to_target (Run           *run,
                   NscTarget     *target,
                   GError       **error)
{
  NscJob *job = &run->job;

  if (job->region_length == 0)
    {
      if (job->region_offset >= nsc_target_get_size (target))
        {
          nsc_error_set (error, NSC_PROBLEM_JOB_REGION_PAST_END,
                         &(NscErrorFields) { .path = nsc_target_get_description (target) });
          return FALSE;
        }
      job->region_length = nsc_target_get_size (target) - job->region_offset;
    }
  job->region_length -= job->region_length % job->block_size;
  if (!nsc_target_check_io (target, job->block_size, job->region_offset,
                            job->region_length, error))
    return FALSE;
  if (nsc_job_has_writes (job) && !nsc_target_get_writable (target))
    {
      nsc_error_set (error, NSC_PROBLEM_JOB_TARGET_READ_ONLY,
                     &(NscErrorFields) { .path = nsc_target_get_description (target) });
      return FALSE;
    }
  return TRUE;
}

/* The backend @backend resolves to on @target, and why: the result's note. */
typedef struct
{
  char          *note;
  NscBackendWhy  why;
  int            why_errno;
  gboolean       fallback;
  double         probe_bps[2];  /* auto's untimed probe of the two paths, or 0 */
  gboolean       probe_write;   /* it wrote */
} BackendChoice;

static gboolean
choose_backend (Run            *run,
                NscTarget      *target,
                NscBackend      backend,
                BackendChoice  *choice,
                GError        **error)
{
  run->backend = nsc_backend_resolve (target, &run->job, backend, &choice->note, &choice->why,
                                      &choice->why_errno, &choice->fallback,
                                      choice->probe_bps, &choice->probe_write, error);
  if (run->backend == NSC_BACKEND_AUTO)
    return FALSE;
  run->fd = nsc_target_get_fd (target);
  run->target = target;
  run->buffer_align = nsc_target_get_dio_mem_align (target);
  return TRUE;
}

/* The workers' regions and tickets, and a slot for each I/O thread: one per worker,
 * queue-depth per worker for psync. */
static gboolean
set_up_threads (Run        *run,
                NscTarget  *target,
                GError    **error)
{
  g_mutex_init (&run->lock);
  g_cond_init (&run->cond);
  if (!setup_workers (run, target, error))
    {
      g_free (run->workers);
      g_mutex_clear (&run->lock);
      g_cond_clear (&run->cond);
      return FALSE;
    }
  run->n_threads = run->job.workers * (run->backend == NSC_BACKEND_PSYNC ? run->job.queue_depth : 1);
  run->threads = g_new0 (IoThread, run->n_threads);
  for (guint i = 0; i < run->n_threads; i++)
    nsc_verify_tally_init (&run->threads[i].verify);
  return TRUE;
}

/* io_uring on a target that refuses NOWAIT: kernel workers run every request, and
 * the I/O threads may poll for their completions; a backend named was not probed
 * (auto probed already and took io_uring only where NOWAIT is not refused). */
static void
decide_punts (Run           *run,
              NscTarget     *target,
              BackendChoice *choice)
{
  run->punted = choice->why == NSC_BACKEND_WHY_NONE
                && probe_job_nowait (run->fd, &run->job, run->buffer_align) == 0;
  run->poll_punts = want_poll_punts (run);
  if (run->poll_punts && choice->why == NSC_BACKEND_WHY_NONE)
    {
      g_free (choice->note);
      choice->note = g_strdup_printf ("io_uring as asked; %s refuses non-blocking I/O (NOWAIT), so "
                                      "kernel workers run every request, and each I/O thread "
                                      "polls for their completions for up to %u µs before it "
                                      "sleeps",
                                      nsc_target_get_description (target), NSC_IO_PUNT_POLL_US);
      choice->why = NSC_BACKEND_WHY_PUNTED_POLLED;
    }
}

/* The result before the run: the job as run, its backend and why, an empty series. */
static NscJobResult *
new_job_result (const Run     *run,
                BackendChoice *choice)
{
  NscJobResult *result = g_new0 (NscJobResult, 1);

  result->job = run->job;
  result->backend = run->backend;
  result->backend_note = g_steal_pointer (&choice->note);
  result->backend_why = choice->why;
  result->backend_errno = choice->why_errno;
  result->backend_fallback = choice->fallback;
  result->backend_probe_bps[0] = choice->probe_bps[0];
  result->backend_probe_bps[1] = choice->probe_bps[1];
  result->backend_probe_write = choice->probe_write;
  result->series = nsc_series_new (SERIES_MAX);
  result->start_time_us = g_get_real_time ();
  result->verified = run->job.data == NSC_DATA_VERIFY && nsc_job_has_reads (&run->job);
  nsc_verify_tally_init (&result->verify);
  return result;
}

/* Called with the lock held; every thread it could create counts as running. On
 * failure the threads already started are stopped and @local_error says why. */
static void
start_threads (Run          *run,
               GThreadFunc   func,
               GError      **local_error)
{
  guint per_worker = run->n_threads / run->job.workers;

  for (guint i = 0; i < run->n_threads; i++)
    {
      IoThread *t = &run->threads[i];
      g_autofree char *name = g_strdup_printf ("nsc-io-%u", i);

      t->run = run;
      t->worker = &run->workers[i / per_worker];
      t->serial = i;
      t->hist[0] = g_new (NscHistogram, 1);
      t->hist[1] = g_new (NscHistogram, 1);
      nsc_histogram_init (t->hist[0]);
      nsc_histogram_init (t->hist[1]);
      t->thread = g_thread_try_new (name, func, t, local_error);
      if (t->thread == NULL)
        {
          g_mutex_unlock (&run->lock);
          request_stop (run);
          g_mutex_lock (&run->lock);
          break;
        }
      run->running++;
    }
}

/* The coordinator's clock and counters while the I/O threads run. */
typedef struct
{
  Run           *run;
  NscSeries     *series;
  NscSampleFunc  on_sample;
  gpointer       user_data;
  NscStopFunc    should_stop;
  gpointer       stop_data;
  Totals         base;           /* counters when the measurement began */
  Totals         prev;           /* counters at the last sample */
  gint64         interval;
  gint64         measure_start;
  gint64         deadline;
  gint64         next_sample;
  gint64         prev_ns;
  gboolean       measured;       /* the ramp ended (or there was none) */
  gboolean       timed_out;
} Coordinator;

/* Called with the lock held: every thread set up (or failed), then the clock
 * starts and they all go. */
static void
start_clock (Coordinator *c)
{
  Run *run = c->run;
  gint64 start_ns;

  while (run->ready < run->running)
    g_cond_wait (&run->cond, &run->lock);
  start_ns = nsc_now_ns ();
  c->measure_start = start_ns + run->job.ramp_ns;
  c->deadline = run->job.time_ns > 0 ? c->measure_start + run->job.time_ns : G_MAXINT64;
  c->next_sample = c->measure_start + c->interval;
  c->prev_ns = c->measure_start;
  run->go = TRUE;
  g_cond_broadcast (&run->cond);
}

/* The ramp is over: what it did is not counted, and the clock restarts now. */
static void
end_ramp (Coordinator *c,
          gint64       now)
{
  Run *run = c->run;

  g_atomic_int_set (&run->phase, PHASE_MEASURE);
  c->measured = TRUE;
  read_totals (run, &c->base);
  for (guint i = 0; i < run->n_threads; i++)
    __atomic_store_n (&run->threads[i].pub_lat_max, 0, __ATOMIC_RELAXED);
  c->prev = c->base;
  c->measure_start = c->prev_ns = now;
  if (run->job.time_ns > 0)
    c->deadline = now + run->job.time_ns;
  c->next_sample = now + c->interval;
}

/* A write-fill wants a point per GiB as well as per interval: the bytes since the
 * last sample, and since the measurement began. */
static guint64
bytes_since (Coordinator *c,
             guint64     *all)
{
  Totals cur;
  guint64 done = 0;

  read_totals (c->run, &cur);
  *all = 0;
  for (guint d = 0; d < 2; d++)
    {
      done += cur.bytes[d] - c->prev.bytes[d];
      *all += cur.bytes[d] - c->base.bytes[d];
    }
  return done;
}

/* Called with the lock held: one sample, then the next one's time. TRUE when the
 * caller's stop rule says the job is done. */
static gboolean
sample_and_ask_stop (Coordinator *c,
                     gint64       now)
{
  Run *run = c->run;

  g_mutex_unlock (&run->lock);
  take_sample (run, &c->prev, &c->base, &c->prev_ns, now, c->measure_start, TAIL_NONE,
               c->interval, c->series, c->on_sample, c->user_data);
  g_mutex_lock (&run->lock);
  c->next_sample += c->interval;
  if (c->next_sample <= now)
    c->next_sample = now + c->interval;
  return c->should_stop && c->should_stop (c->stop_data);
}

/* When the coordinator next has something to do: the ramp's end, the next sample
 * or the deadline; a point's bytes as they should be done; a stopping job's threads
 * every WAIT_SLICE_NS. */
static gint64
next_wake (Coordinator *c,
           int          phase,
           gint64       now)
{
  gint64 wake = phase == PHASE_RAMP ? c->measure_start : MIN (c->next_sample, c->deadline);

  if (phase == PHASE_MEASURE && c->run->job.sample_bytes > 0)
    {
      /* On a fast small target a point's bytes take a few milliseconds: wake
       * when, at the speed so far, they should be done, not a fixed 10 ms later. */
      guint64 all;
      guint64 done = bytes_since (c, &all);
      gint64 byte_wake = 10 * G_GINT64_CONSTANT (1000000);

      if (all > 0 && now > c->measure_start && done < c->run->job.sample_bytes)
        {
          double ns_per_byte = (double) (now - c->measure_start) / (double) all;
          gint64 left = (gint64) (ns_per_byte * (double) (c->run->job.sample_bytes - done));

          byte_wake = CLAMP (left, G_GINT64_CONSTANT (1000000), byte_wake);
        }
      wake = MIN (wake, now + byte_wake);
    }
  if (phase == PHASE_STOP)
    wake = now + WAIT_SLICE_NS;
  return wake;
}

/* Called with the lock held, until the last I/O thread has finished: the ramp's
 * end, the samples, the stop rule and the deadline. */
static void
coordinate (Coordinator *c)
{
  Run *run = c->run;

  while (run->running > 0)
    {
      gint64 now = nsc_now_ns ();
      int phase = g_atomic_int_get (&run->phase);
      guint64 all;

      if (phase == PHASE_RAMP && now >= c->measure_start)
        {
          end_ramp (c, now);
          phase = PHASE_MEASURE;
        }
      if (phase == PHASE_MEASURE && now < c->next_sample && run->job.sample_bytes > 0
          && bytes_since (c, &all) >= run->job.sample_bytes)
        c->next_sample = now;
      if (phase == PHASE_MEASURE && now >= c->next_sample && sample_and_ask_stop (c, now))
        {
          g_mutex_unlock (&run->lock);
          request_stop (run);
          g_mutex_lock (&run->lock);
          continue;
        }
      if (phase != PHASE_STOP && now >= c->deadline)
        {
          c->timed_out = TRUE;
          g_mutex_unlock (&run->lock);
          request_stop (run);
          g_mutex_lock (&run->lock);
          continue;
        }
      if (run->running > 0)
        g_cond_wait_until (&run->cond, &run->lock, next_wake (c, phase, now) / 1000);
    }
}

/* After the join: the last, partial interval, and each direction's totals over the
 * measured time. */
static void
sum_up (Coordinator  *c,
        NscJobResult *result)
{
  Run *run = c->run;
  Totals final;
  gint64 last_end = 0;

  for (guint i = 0; i < run->n_threads; i++)
    last_end = MAX (last_end, run->threads[i].end_ns);
  if (g_atomic_int_get (&run->phase) != PHASE_RAMP && last_end > c->prev_ns)
    take_sample (run, &c->prev, &c->base, &c->prev_ns, last_end, c->measure_start,
                 c->timed_out ? TAIL_DRAIN : TAIL_LAST, c->interval,
                 c->series, c->on_sample, c->user_data);
  nsc_series_finish (c->series);

  read_totals (run, &final);
  /* Stopped in the ramp: nothing was measured, and what the ramp did is not kept. */
  if (!c->measured)
    c->base = final;
  result->runtime_ns = last_end > c->measure_start ? last_end - c->measure_start : 0;
  result->cancelled = run->cancelled;
  result->drain_ns = run->stop_ns ? MAX (last_end - run->stop_ns, (gint64) 0) : 0;
  result->registered_buffers = run->backend == NSC_BACKEND_IO_URING;
  for (guint d = 0; d < 2; d++)
    {
      NscDirStats *ds = &result->dir[d];

      ds->latency = g_new (NscHistogram, 1);
      nsc_histogram_init (ds->latency);
      ds->bytes = final.bytes[d] - c->base.bytes[d];
      ds->ios = final.ios[d] - c->base.ios[d];
      if (result->runtime_ns > 0)
        {
          ds->bw_bps = ds->bytes * 1e9 / result->runtime_ns;
          ds->iops = ds->ios * 1e9 / result->runtime_ns;
        }
    }
}

/* A thread's failed I/O in the user's terms: a vanished drive answers EIO, ENODEV
 * or, for writes past its new size of 0, ENOSPC. */
static void
set_io_error (const IoThread  *t,
              NscTarget       *target,
              GError         **local_error)
{
  const char *desc = nsc_target_get_description (target);

  if (nsc_target_is_gone (target))
    nsc_error_set (local_error, NSC_PROBLEM_IO_TARGET_GONE, &(NscErrorFields) { .path = desc });
  else if (t->error_errno == ENODATA || t->error_errno == EILSEQ || t->error_errno == EBADMSG)
    nsc_error_set (local_error, NSC_PROBLEM_IO_MEDIA_ERROR,
                   &(NscErrorFields) { .path = desc, .bytes = t->error_offset });
  else
    nsc_error_set (local_error,
                   t->error_errno == ENOSPC && nsc_target_get_kind (target) == NSC_TARGET_FILE
                   ? NSC_PROBLEM_IO_FAILED_NO_SPACE : NSC_PROBLEM_IO_FAILED,
                   &(NscErrorFields) {
                     .path = desc,
                     .bytes = t->error_offset,
                     .text = t->error_message ? t->error_message : g_strerror (t->error_errno) });
}

/* Each thread's latencies (when measured), late I/Os and buffers into @result; the
 * first thread that failed names the error. Frees what the threads kept. */
static void
merge_threads (Run           *run,
               NscJobResult  *result,
               NscTarget     *target,
               gboolean       measured,
               GError       **local_error)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < run->n_threads; i++)
    {
      IoThread *t = &run->threads[i];

      result->ios_after_stop += t->after_stop;
      nsc_verify_merge (&result->verify, &t->verify);
      if (run->backend == NSC_BACKEND_IO_URING && !t->registered)
        result->registered_buffers = FALSE;
      for (guint d = 0; d < 2; d++)
        {
          if (measured)
            nsc_histogram_merge (result->dir[d].latency, t->hist[d]);
          g_free (t->hist[d]);
        }
      if (t->error_errno && ok)
        {
          result->error_errno = t->error_errno;
          result->error_offset = t->error_offset;
          set_io_error (t, target, local_error);
          ok = FALSE;
        }
      g_free (t->error_message);
    }
}

gboolean
nsc_job_run_until (NscTarget      *target,
                   const NscJob   *job_in,
                   NscBackend      backend,
                   NscSampleFunc   on_sample,
                   gpointer        user_data,
                   NscStopFunc     should_stop,
                   gpointer        stop_data,
                   GCancellable   *cancellable,
                   NscJobResult  **out_result,
                   GError        **error)
{
  g_autoptr(NscJobResult) result = NULL;
  BackendChoice choice = { NULL, NSC_BACKEND_WHY_NONE, 0, FALSE, { 0, 0 } };
  Run run;
  Coordinator c = { 0 };
  GError *local_error = NULL;
  gulong cancel_id = 0;
  gboolean sliced;

  g_return_val_if_fail (target != NULL, FALSE);
  g_return_val_if_fail (job_in != NULL, FALSE);
  g_return_val_if_fail (out_result != NULL, FALSE);

  *out_result = NULL;

  if (!nsc_job_validate (job_in, error))
    return FALSE;

  memset (&run, 0, sizeof run);
  run.job = *job_in;
  if (!fit_job_to_target (&run, target, error)
      || !choose_backend (&run, target, backend, &choice, error)
      || !set_up_threads (&run, target, error))
    {
      g_free (choice.note);
      return FALSE;
    }
  if (run.backend == NSC_BACKEND_IO_URING)
    decide_punts (&run, target, &choice);
  result = new_job_result (&run, &choice);

  c.run = &run;
  c.series = result->series;
  c.on_sample = on_sample;
  c.user_data = user_data;
  c.should_stop = should_stop;
  c.stop_data = stop_data;
  c.interval = nsc_job_sample_interval (&run.job);
  run.phase = run.job.ramp_ns > 0 ? PHASE_RAMP : PHASE_MEASURE;
  c.measured = run.phase == PHASE_MEASURE;

  if (cancellable)
    cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), &run, NULL);

  sliced = nsc_thread_wake_promptly_begin ();
  g_mutex_lock (&run.lock);
  start_threads (&run, run.backend == NSC_BACKEND_PSYNC ? psync_thread
                       : run.backend == NSC_BACKEND_NULL ? null_thread
                       : uring_thread, &local_error);
  start_clock (&c);
  coordinate (&c);
  g_mutex_unlock (&run.lock);

  for (guint i = 0; i < run.n_threads; i++)
    if (run.threads[i].thread)
      g_thread_join (run.threads[i].thread);
  nsc_thread_wake_promptly_end (sliced);

  if (cancel_id)
    g_cancellable_disconnect (cancellable, cancel_id);

  sum_up (&c, result);
  merge_threads (&run, result, target, c.measured, &local_error);

  if (result->dir[NSC_DIR_WRITE].bytes > 0)
    nsc_target_note_written (target, run.job.region_offset, run.job.region_length,
                             result->dir[NSC_DIR_WRITE].bytes);

  if (local_error == NULL && run.cancelled)
    nsc_error_set (&local_error,
                   result->dir[NSC_DIR_READ].ios + result->dir[NSC_DIR_WRITE].ios > 0
                   ? NSC_PROBLEM_JOB_CANCELLED : NSC_PROBLEM_JOB_CANCELLED_BEFORE_IO, NULL);

  g_free (run.threads);
  g_free (run.workers);
  g_mutex_clear (&run.lock);
  g_cond_clear (&run.cond);

  *out_result = g_steal_pointer (&result);
  if (local_error)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return TRUE;
}

gboolean
nsc_target_fill (NscTarget      *target,
                 guint64         offset,
                 guint64         length,
                 NscBackend      backend,
                 NscSampleFunc   on_sample,
                 gpointer        user_data,
                 GCancellable   *cancellable,
                 guint64        *out_filled,
                 GError        **error)
{
  NscExtents *written = nsc_target_get_written (target);
  g_autoptr(GArray) missing = nsc_extents_missing (written, offset, length);
  guint64 filled = 0;

  if (out_filled)
    *out_filled = 0;

  for (guint i = 0; i < missing->len; i++)
    {
      NscRange r = g_array_index (missing, NscRange, i);
      guint64 pos = r.start;

      while (pos < r.end)
        {
          g_autoptr(NscJobResult) res = NULL;
          guint64 left = r.end - pos;
          NscJob job;

          nsc_job_init (&job);
          g_strlcpy (job.label, "fill", sizeof job.label);
          job.pattern = NSC_PATTERN_SEQUENTIAL;
          job.read_percent = 0;
          /* 1 MiB blocks for the bulk, one smaller I/O for a ragged tail. */
          job.block_size = left >= (1u << 20) ? (1u << 20) : left;
          job.queue_depth = job.block_size >= (1u << 20) ? 8 : 1;
          job.region_offset = pos;
          job.region_length = left - left % job.block_size;
          job.time_ns = 0;
          job.once = TRUE;
          job.seed = nsc_mix64 (pos);

          if (!nsc_job_run (target, &job, backend == NSC_BACKEND_NULL ? NSC_BACKEND_AUTO : backend,
                            on_sample, user_data, cancellable, &res, error))
            {
              if (out_filled)
                *out_filled = filled;
              return FALSE;
            }
          nsc_extents_add (written, pos, job.region_length);
          filled += job.region_length;
          pos += job.region_length;
        }
    }

  if (out_filled)
    *out_filled = filled;
  /* On a new test file the writes above turned preallocated extents into written
   * ones: the filesystem commits that to its journal within seconds, and the drive
   * still holds the data in its cache. Both happen now rather than inside the
   * measurement that follows (fio's laid-out file had both done long before). */
  return filled == 0 || nsc_target_sync (target, error);
}

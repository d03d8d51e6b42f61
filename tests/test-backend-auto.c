/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the auto backend runs, on real parts: a file on the build directory's
 * filesystem (takes non-blocking I/O), a zram device of the test's own (refuses
 * it, so io_uring would punt every request to kernel workers), and a file on ext4 on
 * such a device (takes non-blocking I/O, but completes every request within the call
 * that submits it). */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "nsc-engine.h"
#include "test-util.h"

#define MiB (G_GUINT64_CONSTANT (1) << 20)
#define MS  G_GINT64_CONSTANT (1000000)

static char *test_dir;

static gboolean
io_uring_usable (void)
{
  g_autofree char *disabled = NULL;

  /* kernel.io_uring_disabled (6.6+): 2 refuses every ring. */
  if (g_file_get_contents ("/proc/sys/kernel/io_uring_disabled", &disabled, NULL, NULL))
    return atoi (disabled) == 0;
  return TRUE;
}

static void
job_for (NscJob     *job,
         const char *rw,
         guint       qd)
{
  nsc_job_init (job);
  g_assert_true (nsc_job_set_rw (job, rw, NULL));
  job->block_size = 4096;
  job->queue_depth = qd;
  job->time_ns = 200 * MS;
}

static NscBackend
resolve (NscTarget    *t,
         const NscJob *job,
         NscBackend    requested,
         char        **note)
{
  g_autoptr(GError) error = NULL;
  gboolean fallback = TRUE;
  NscBackend b = nsc_backend_resolve (t, job, requested, note, NULL, NULL, &fallback, NULL,
                                      NULL, &error);

  g_assert_no_error (error);
  g_assert_false (fallback);
  return b;
}

/* A job run with @backend (auto or named) that succeeded and moved data. */
static NscJobResult *
run_moving (NscTarget    *t,
            const NscJob *job,
            NscBackend    backend)
{
  NscJobResult *res = nsc_test_run_job (t, job, backend);

  g_assert_cmpuint (res->dir[NSC_DIR_READ].ios + res->dir[NSC_DIR_WRITE].ios, >, 0);
  return res;
}

static NscJobResult *
run_ok (NscTarget    *t,
        const NscJob *job)
{
  return run_moving (t, job, NSC_BACKEND_AUTO);
}

/* A backend named runs as named, not as a fallback. */
static NscJobResult *
run_named (NscTarget    *t,
           const NscJob *job,
           NscBackend    backend)
{
  NscJobResult *res = run_moving (t, job, backend);

  g_assert_cmpint (res->backend, ==, backend);
  g_assert_false (res->backend_fallback);
  return res;
}

/* The CPUs this process may run on. */
static guint
cpus_usable (void)
{
  cpu_set_t set;

  g_assert_cmpint (sched_getaffinity (0, sizeof set, &set), ==, 0);
  return (guint) CPU_COUNT (&set);
}

/* Writes the whole target once, as the runner does with a new test file before it
 * times anything. */
static void
lay_out (NscTarget *t)
{
  g_autoptr(GError) error = NULL;
  guint64 filled = 0;

  g_assert_true (nsc_target_fill (t, 0, nsc_target_get_size (t), NSC_BACKEND_AUTO, NULL, NULL,
                                  NULL, &filled, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (filled, ==, nsc_target_get_size (t));
}

static void
test_file (void)
{
  g_autoptr(GError) error = NULL;
  NscTargetOptions opts = { .file_size = 16 * MiB, .device_fd = -1 };
  g_autoptr(NscTarget) t = nsc_target_open (test_dir, &opts, &error);
  g_autofree char *note1 = NULL, *note8 = NULL, *note_forced = NULL, *note_read8 = NULL;
  g_autoptr(NscJobResult) res = NULL;
  NscJob job;

  g_assert_no_error (error);
  if (!io_uring_usable ())
    {
      g_test_skip ("io_uring is disabled on this machine");
      return;
    }
  g_assert_cmpint (nsc_fd_probe_nowait (nsc_target_get_fd (t), 0, 4096, 4096), ==, 1);

  /* Queue depth 1: the synchronous loop, and it says why. */
  job_for (&job, "randread", 1);
  g_assert_cmpint (resolve (t, &job, NSC_BACKEND_AUTO, &note1), ==, NSC_BACKEND_PSYNC);
  g_assert_nonnull (strstr (note1, "queue depth 1"));
  /* Deeper: io_uring, on a file that takes non-blocking I/O. */
  job_for (&job, "randwrite", 8);
  g_assert_cmpint (resolve (t, &job, NSC_BACKEND_AUTO, &note8), ==, NSC_BACKEND_IO_URING);
  g_assert_nonnull (strstr (note8, "non-blocking"));
  /* A backend asked for by name is what runs, with no note. */
  job_for (&job, "randread", 1);
  g_assert_cmpint (resolve (t, &job, NSC_BACKEND_IO_URING, &note_forced), ==, NSC_BACKEND_IO_URING);
  g_assert_null (note_forced);

  /* And the job run records the choice and its reason. */
  job_for (&job, "randwrite", 8);
  res = run_ok (t, &job);
  g_assert_cmpint (res->backend, ==, NSC_BACKEND_IO_URING);
  g_assert_false (res->backend_fallback);
  g_assert_cmpstr (res->backend_note, ==, note8);
  g_clear_pointer (&res, nsc_job_result_free);
  job_for (&job, "randread", 1);
  res = run_ok (t, &job);
  g_assert_cmpint (res->backend, ==, NSC_BACKEND_PSYNC);
  g_assert_cmpstr (res->backend_note, ==, note1);
  g_clear_pointer (&res, nsc_job_result_free);

  /* io_uring by name on a target that takes non-blocking I/O: it completes from its
   * interrupt, and the thread sleeps until it does (no polling, no note). */
  job_for (&job, "randwrite", 8);
  res = run_named (t, &job, NSC_BACKEND_IO_URING);
  g_assert_cmpint (res->backend_why, ==, NSC_BACKEND_WHY_NONE);
  g_assert_null (res->backend_note);
  g_clear_pointer (&res, nsc_job_result_free);

  /* Once the file holds data, reads of it usually complete from the disk's interrupt,
   * after the submitting call: io_uring for a deeper queue. A virtual disk whose host
   * answers from its memory may complete them within the call (seen once in CI): then
   * psync threads, with the reason said. The inline case itself is made on purpose
   * below (ext4 on zram). */
  lay_out (t);
  g_assert_cmpint (nsc_fd_probe_inline (nsc_target_get_fd (t), 0, 4096, 8, 4096), >=, 0);
  job_for (&job, "randread", 8);
  {
    NscBackend b = resolve (t, &job, NSC_BACKEND_AUTO, &note_read8);

    if (b == NSC_BACKEND_PSYNC)
      {
        g_test_message ("this disk completed reads within the submitting call: %s", note_read8);
        g_assert_nonnull (note_read8);
      }
    else
      g_assert_cmpint (b, ==, NSC_BACKEND_IO_URING);
  }
}

/* Skips the test (saying @why) unless it runs as root, and io_uring is usable. */
static gboolean
skipped_without_root (const char *why)
{
  if (geteuid () != 0)
    g_test_skip (why);
  else if (!io_uring_usable ())
    g_test_skip ("io_uring is disabled on this machine");
  else
    return FALSE;
  return TRUE;
}

/* sysfs takes a write in place (g_file_set_contents renames a temporary file). */
static gboolean
sysfs_write (const char *path,
             const char *text)
{
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  ok = write (fd, text, strlen (text)) == (ssize_t) strlen (text);
  close (fd);
  return ok;
}

/* A zram device of the test's own (hot_add), so nobody else's zram is touched. */
static char *
zram_add (int *id)
{
  g_autofree char *text = NULL, *dev_text = NULL, *size_path = NULL, *dev_path = NULL;
  char *node;
  guint maj, min;
  struct stat st;

  if (!g_file_get_contents ("/sys/class/zram-control/hot_add", &text, NULL, NULL))
    return NULL;
  *id = atoi (text);
  size_path = g_strdup_printf ("/sys/block/zram%d/disksize", *id);
  g_assert_true (sysfs_write (size_path, "64M"));
  node = g_strdup_printf ("/dev/zram%d", *id);
  if (stat (node, &st) != 0)
    {
      dev_path = g_strdup_printf ("/sys/block/zram%d/dev", *id);
      g_assert_true (g_file_get_contents (dev_path, &dev_text, NULL, NULL));
      g_assert_cmpint (sscanf (dev_text, "%u:%u", &maj, &min), ==, 2);
      g_assert_cmpint (mknod (node, S_IFBLK | 0600, makedev (maj, min)), ==, 0);
    }
  return node;
}

/* @op (@path, @arg) until it succeeds, for up to 10 s: udev opens a device to probe
 * it after a writer closes it, and a reset, a removal or an unmount meanwhile fails
 * with EBUSY. */
static gboolean
retried (gboolean  (*op) (const char *path, const char *arg),
         const char *path,
         const char *arg)
{
  for (guint i = 0; i < 200; i++)
    {
      if (op (path, arg))
        return TRUE;
      g_usleep (50 * 1000);
    }
  return FALSE;
}

static gboolean
unmount (const char *path,
         const char *unused)
{
  return umount (path) == 0;
}

static void
zram_remove (const char *node,
             int         id)
{
  g_autofree char *reset = g_strdup_printf ("/sys/block/zram%d/reset", id);
  g_autofree char *num = g_strdup_printf ("%d", id);

  /* A device left behind fails the test (it kept its 64 MiB until the next boot). */
  g_assert_true (retried (sysfs_write, reset, "1"));
  g_assert_true (retried (sysfs_write, "/sys/class/zram-control/hot_remove", num));
  g_unlink (node);
}

static void
test_zram (void)
{
  g_autofree char *node = NULL;
  g_autofree char *note1 = NULL, *note8 = NULL, *note_forced = NULL;
  g_autoptr(GError) error = NULL;
  NscTargetOptions opts = NSC_TARGET_OPTIONS_INIT;
  NscTarget *t;
  NscJobResult *res;
  NscJob job;
  int id = -1;

  if (skipped_without_root ("needs root for a zram device"))
    return;
  node = zram_add (&id);
  if (node == NULL)
    {
      g_test_skip ("no zram (modprobe zram)");
      return;
    }
  opts.need_write = TRUE;
  opts.destroy_data = node;
  t = nsc_target_open (node, &opts, &error);
  g_assert_no_error (error);

  /* zram refuses RWF_NOWAIT: io_uring would punt it to its workers. */
  g_assert_cmpint (nsc_fd_probe_nowait (nsc_target_get_fd (t), 0, 4096, 4096), ==, 0);

  job_for (&job, "randread", 1);
  g_assert_cmpint (resolve (t, &job, NSC_BACKEND_AUTO, &note1), ==, NSC_BACKEND_PSYNC);
  g_assert_nonnull (strstr (note1, "queue depth 1"));
  job_for (&job, "randread", 8);
  g_assert_cmpint (resolve (t, &job, NSC_BACKEND_AUTO, &note8), ==, NSC_BACKEND_PSYNC);
  g_assert_nonnull (strstr (note8, "NOWAIT"));
  g_assert_nonnull (strstr (note8, node));
  g_assert_cmpint (resolve (t, &job, NSC_BACKEND_IO_URING, &note_forced), ==, NSC_BACKEND_IO_URING);
  g_assert_null (note_forced);

  job_for (&job, "randwrite", 8);
  res = run_ok (t, &job);
  g_assert_cmpint (res->backend, ==, NSC_BACKEND_PSYNC);
  g_assert_false (res->backend_fallback);
  g_assert_nonnull (strstr (res->backend_note, "NOWAIT"));
  nsc_job_result_free (res);

  /* io_uring by name: kernel workers run every request. With a CPU to spare, the I/O
   * thread polls for their completions before it sleeps, and the result says so;
   * with as many I/O threads as CPUs it does not. Either way every I/O is counted. */
  job_for (&job, "randrw", 8);
  res = run_named (t, &job, NSC_BACKEND_IO_URING);
  if (cpus_usable () >= 2)
    {
      g_assert_cmpint (res->backend_why, ==, NSC_BACKEND_WHY_PUNTED_POLLED);
      g_assert_nonnull (strstr (res->backend_note, "polls"));
      g_assert_nonnull (strstr (res->backend_note, node));
    }
  else
    {
      g_assert_cmpint (res->backend_why, ==, NSC_BACKEND_WHY_NONE);
      g_assert_null (res->backend_note);
    }
  g_assert_cmpuint (res->dir[NSC_DIR_READ].ios, >, 0);
  g_assert_cmpuint (res->dir[NSC_DIR_WRITE].ios, >, 0);
  nsc_job_result_free (res);

  job.workers = cpus_usable ();
  res = run_named (t, &job, NSC_BACKEND_IO_URING);
  g_assert_cmpint (res->backend_why, ==, NSC_BACKEND_WHY_NONE);
  g_assert_null (res->backend_note);
  nsc_job_result_free (res);

  /* At queue depth 1 nothing is polled (the thread and its workers share a CPU). */
  job_for (&job, "randread", 1);
  res = run_named (t, &job, NSC_BACKEND_IO_URING);
  g_assert_cmpint (res->backend_why, ==, NSC_BACKEND_WHY_NONE);
  nsc_job_result_free (res);

  nsc_target_free (t);
  zram_remove (node, id);
}

/* A cgroup of the test's own holding the process to one CPU's time (version 1's cpu
 * controller or version 2's), entered and left whole; removed on leaving. */
static char *quota_dir;
static char *quota_home;   /* the process's cgroup before, to go back to */

static gboolean
write_text (const char *path,
            const char *text)
{
  return g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_NONE, 0644, NULL);
}

static gboolean
cgroup_enter_quota (void)
{
  g_autofree char *self = NULL, *procs = NULL, *pid = g_strdup_printf ("%d", getpid ());
  g_auto(GStrv) lines = NULL;
  const char *root = NULL, *path = NULL;
  gboolean v2 = FALSE;

  if (!g_file_get_contents ("/proc/self/cgroup", &self, NULL, NULL))
    return FALSE;
  lines = g_strsplit (self, "\n", -1);
  for (guint i = 0; lines[i] != NULL && root == NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], ":", 3);

      if (g_strv_length (f) != 3)
        continue;
      if ((strcmp (f[1], "cpu") == 0 || strcmp (f[1], "cpu,cpuacct") == 0)
          && g_file_test ("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", G_FILE_TEST_EXISTS))
        {
          root = "/sys/fs/cgroup/cpu";
          path = g_intern_string (f[2]);
        }
      else if (f[1][0] == '\0' && g_file_test ("/sys/fs/cgroup/cgroup.subtree_control",
                                                G_FILE_TEST_EXISTS))
        {
          root = "/sys/fs/cgroup";
          path = g_intern_string (f[2]);
          v2 = TRUE;
        }
    }
  if (root == NULL)
    return FALSE;
  quota_home = g_build_filename (root, path, "cgroup.procs", NULL);
  quota_dir = g_build_filename (root, path, "nsc-test-quota", NULL);
  procs = g_build_filename (quota_dir, "cgroup.procs", NULL);
  if (g_mkdir (quota_dir, 0755) != 0)
    goto fail;
  if (v2)
    {
      g_autofree char *max = g_build_filename (quota_dir, "cpu.max", NULL);

      if (!write_text (max, "100000 100000"))
        goto fail;
    }
  else
    {
      g_autofree char *period = g_build_filename (quota_dir, "cpu.cfs_period_us", NULL);
      g_autofree char *quota = g_build_filename (quota_dir, "cpu.cfs_quota_us", NULL);

      if (!write_text (period, "100000") || !write_text (quota, "100000"))
        goto fail;
    }
  if (!write_text (procs, pid))
    goto fail;
  return TRUE;

fail:
  g_rmdir (quota_dir);
  g_clear_pointer (&quota_dir, g_free);
  g_clear_pointer (&quota_home, g_free);
  return FALSE;
}

static void
cgroup_leave_quota (void)
{
  g_autofree char *pid = g_strdup_printf ("%d", getpid ());

  g_assert_true (write_text (quota_home, pid));
  g_assert_cmpint (g_rmdir (quota_dir), ==, 0);
  g_clear_pointer (&quota_dir, g_free);
  g_clear_pointer (&quota_home, g_free);
}

/* A file on ext4 on a zram device of the test's own: a filesystem in RAM. zram
 * completes every request within the call that submits it, and so does a file on it,
 * though the file takes non-blocking I/O. io_uring would then do a whole queue's work
 * on the submitting CPU; auto runs psync threads instead while there are more CPUs
 * than workers, unless they read no faster than one ring in its untimed probe. */
static void
test_ram_filesystem (void)
{
  g_autofree char *node = NULL, *mkfs = NULL, *mnt = NULL, *out = NULL, *err = NULL;
  g_autofree char *note = NULL, *note_wide = NULL, *note_new = NULL;
  g_autoptr(GError) error = NULL;
  NscTargetOptions opts = { .file_size = 16 * MiB, .device_fd = -1 };
  NscTarget *t;
  NscJobResult *res;
  NscJob job;
  int id = -1, status = -1;

  if (skipped_without_root ("needs root for a zram device and a mount"))
    return;
  if (cpus_usable () < 2)
    {
      g_test_skip ("needs two CPUs: with one, psync threads would spread nothing");
      return;
    }
  mkfs = g_find_program_in_path ("mkfs.ext4");
  if (mkfs == NULL)
    {
      g_test_skip ("no mkfs.ext4 (apt-get install e2fsprogs)");
      return;
    }
  node = zram_add (&id);
  if (node == NULL)
    {
      g_test_skip ("no zram (modprobe zram)");
      return;
    }
  {
    const char *argv[] = { mkfs, "-q", "-F", node, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                 &out, &err, &status, &error));
    g_assert_no_error (error);
    if (!g_spawn_check_wait_status (status, NULL))
      g_error ("mkfs.ext4 %s failed: %s", node, err);
  }
  mnt = g_build_filename (test_dir, "ram-fs", NULL);
  g_assert_cmpint (g_mkdir (mnt, 0700), ==, 0);
  g_assert_cmpint (mount (node, mnt, "ext4", 0, NULL), ==, 0);

  t = nsc_target_open (mnt, &opts, &error);
  g_assert_no_error (error);
  /* A new file's blocks are unwritten and read back at once from any device: auto
   * cannot tell, and keeps io_uring until the file holds data. */
  job_for (&job, "randread", 8);
  g_assert_cmpint (resolve (t, &job, NSC_BACKEND_AUTO, &note_new), ==, NSC_BACKEND_IO_URING);
  lay_out (t);

  g_assert_cmpint (nsc_fd_probe_nowait (nsc_target_get_fd (t), 0, 4096, 4096), ==, 1);
  g_assert_cmpint (nsc_fd_probe_inline (nsc_target_get_fd (t), 0, 4096, 8, 4096), ==, 1);

  /* Reads at QD8: the two paths are timed reading, psync threads run where they read
   * a quarter faster than one ring, and the note says why with both figures. A job
   * that also reads, a capacity check's writes (the data it reads back must be its
   * own) and a fill's (each block once) are timed reading too. */
  {
    const char *kinds[] = { "randread", "randrw", "verify-write", "fill" };

    for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
      {
        gboolean fallback = FALSE, wrote = TRUE;
        double probe[2] = { -1, -1 };
        NscBackend b;

        job_for (&job, k >= 2 ? "write" : kinds[k], 8);
        if (k == 2)
          job.data = NSC_DATA_VERIFY;
        if (k == 3)
          job.once = TRUE;
        g_clear_pointer (&note, g_free);
        b = nsc_backend_resolve (t, &job, NSC_BACKEND_AUTO, &note, NULL, NULL, &fallback,
                                 probe, &wrote, &error);
        g_assert_no_error (error);
        g_test_message ("%s: probe: one ring %.0f MiB/s, psync threads %.0f MiB/s",
                        kinds[k], probe[0] / MiB, probe[1] / MiB);
        g_assert_cmpfloat (probe[0], >, 0);
        g_assert_cmpfloat (probe[1], >, 0);
        g_assert_false (wrote);
        g_assert_nonnull (strstr (note, "within the call that submits it"));
        g_assert_nonnull (strstr (note, "untimed probe"));
        g_assert_nonnull (strstr (note, " read "));
        g_assert_cmpint (b, ==, probe[1] >= 1.25 * probe[0] ? NSC_BACKEND_PSYNC
                                                            : NSC_BACKEND_IO_URING);
      }
  }
  /* A job that only writes is timed writing its own kind of data, where this run has
   * written (the test file, laid out whole): the writes cost what reads do not (zram
   * compresses them), so the read figures cannot decide for them. The run records
   * which path and why; every I/O is counted. */
  job_for (&job, "randwrite", 8);
  res = run_ok (t, &job);
  g_test_message ("randwrite: probe: one ring %.0f MiB/s, psync threads %.0f MiB/s, %s",
                  res->backend_probe_bps[0] / MiB, res->backend_probe_bps[1] / MiB,
                  nsc_backend_to_string (res->backend));
  if (res->backend == NSC_BACKEND_PSYNC)
    g_assert_cmpint (res->backend_why, ==, NSC_BACKEND_WHY_INLINE);
  else
    g_assert_cmpint (res->backend_why, ==, NSC_BACKEND_WHY_INLINE_ONE_RING);
  g_assert_cmpint (res->backend == NSC_BACKEND_PSYNC, ==,
                   res->backend_probe_bps[1] >= 1.10 * res->backend_probe_bps[0]);
  g_assert_cmpfloat (res->backend_probe_bps[0], >, 0);
  g_assert_cmpfloat (res->backend_probe_bps[1], >, 0);
  g_assert_true (res->backend_probe_write);
  g_assert_nonnull (strstr (res->backend_note, " wrote "));
  g_assert_false (res->backend_fallback);
  g_assert_cmpuint (res->dir[NSC_DIR_WRITE].ios, >, 0);
  nsc_job_result_free (res);
  /* Held to one CPU's time by its cgroup, as in a container or a limited service: one
   * ring, whatever the affinity mask says. */
  if (cgroup_enter_quota ())
    {
      g_assert_cmpuint (nsc_usable_cpus (), ==, 1);
      job_for (&job, "randwrite", 8);
      res = run_ok (t, &job);
      cgroup_leave_quota ();
      g_assert_cmpint (res->backend, ==, NSC_BACKEND_IO_URING);
      g_assert_cmpint (res->backend_why, ==, NSC_BACKEND_WHY_NOWAIT);
      nsc_job_result_free (res);
      g_assert_cmpuint (nsc_usable_cpus (), ==, cpus_usable ());
    }
  else
    g_test_message ("no writable cgroup CPU controller: the quota was not tried");
  /* As many workers as CPUs: each worker's ring has a CPU already; io_uring stays. */
  job_for (&job, "randread", 8);
  job.workers = cpus_usable ();
  g_assert_cmpint (resolve (t, &job, NSC_BACKEND_AUTO, &note_wide), ==, NSC_BACKEND_IO_URING);
  g_assert_null (strstr (note_wide, "within the call"));
  /* io_uring by name runs as named. */
  job_for (&job, "randread", 8);
  res = run_named (t, &job, NSC_BACKEND_IO_URING);
  g_assert_cmpint (res->backend_why, ==, NSC_BACKEND_WHY_NONE);
  nsc_job_result_free (res);

  nsc_target_free (t);
  /* As with the device itself, a probe may hold the filesystem for a moment. */
  g_assert_true (retried (unmount, mnt, NULL));
  g_assert_cmpint (g_rmdir (mnt), ==, 0);
  zram_remove (node, id);
}

int
main (int   argc,
      char *argv[])
{
  const char *build = g_getenv ("G_TEST_BUILDDIR");
  int ret;

  g_test_init (&argc, &argv, NULL);
  test_dir = g_build_filename (build ? build : ".", "backend-auto-XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (test_dir));

  g_test_add_func ("/nsc/backend/auto/file", test_file);
  g_test_add_func ("/nsc/backend/auto/zram", test_zram);
  g_test_add_func ("/nsc/backend/auto/ram-filesystem", test_ram_filesystem);

  ret = g_test_run ();
  g_rmdir (test_dir);
  g_free (test_dir);
  return ret;
}

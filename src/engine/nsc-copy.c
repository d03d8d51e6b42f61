/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A real copy within one filesystem (Transcend 2019: a 100 GB file; 3DNews: a folder
 * of many files): sources are written first, then copied with O_DIRECT on both sides
 * so that the page cache is out of the way, by a reader and a writer thread with a
 * small queue of buffers between them, as a copy program does. Every file is an
 * O_TMPFILE: nothing is left behind, whatever happens. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "nsc-copy.h"
#include "nsc-error.h"
#include "nsc-units.h"

#define CHUNK        (1u << 20)
#define QUEUE_DEPTH  8
#define UNIT         (64u << 10)

typedef struct
{
  guint8  *buf;
  guint    file;
  guint64  offset;
  guint32  len;
} Chunk;

typedef struct
{
  int          *src;
  int          *dst;
  guint64      *sizes;
  guint         n;
  GAsyncQueue  *full;      /* Chunk* read, to be written; NULL ends */
  GAsyncQueue  *empty;     /* Chunk* free */
  GCancellable *cancellable;
  guint64       copied;    /* atomic */
  int           failed;    /* atomic errno */
  gint64        done_ns;
} Copy;

void
nsc_copy_result_free (NscCopyResult *r)
{
  if (r == NULL)
    return;
  nsc_series_free (r->series);
  g_free (r);
}

static int
open_tmp (const char *dir)
{
  return open (dir, O_TMPFILE | O_RDWR | O_DIRECT | O_CLOEXEC, 0600);
}

/* Sizes of a working set like 000/004's: many small files and a few large ones,
 * log-uniform from 64 KiB to 64 MiB, in whole 64 KiB units. */
static GArray *
plan_sizes (guint64 total,
            guint   n_files,
            guint64 seed)
{
  GArray *sizes = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 left = total, x = seed;

  if (n_files <= 1)
    {
      g_array_append_val (sizes, total);
      return sizes;
    }
  while (left >= UNIT)
    {
      double r;
      guint64 size;

      x = nsc_mix64 (x);
      r = (double) (x >> 11) / (double) (G_GUINT64_CONSTANT (1) << 53);
      size = (guint64) (UNIT * pow (1024.0, r));
      size = MAX (size / UNIT * UNIT, (guint64) UNIT);
      size = MIN (size, left);
      g_array_append_val (sizes, size);
      left -= size;
    }
  return sizes;
}

static gpointer
reader_thread (gpointer data)
{
  Copy *c = data;

  nsc_thread_wake_promptly ();
  for (guint f = 0; f < c->n && !g_atomic_int_get (&c->failed); f++)
    for (guint64 off = 0; off < c->sizes[f]; off += CHUNK)
      {
        Chunk *ch = g_async_queue_pop (c->empty);
        ssize_t r;

        if (g_atomic_int_get (&c->failed) || g_cancellable_is_cancelled (c->cancellable))
          {
            g_async_queue_push (c->empty, ch);
            goto out;
          }
        ch->file = f;
        ch->offset = off;
        ch->len = (guint32) MIN ((guint64) CHUNK, c->sizes[f] - off);
        do
          r = pread (c->src[f], ch->buf, ch->len, (off_t) off);
        while (r < 0 && errno == EINTR);
        if (r != (ssize_t) ch->len)
          {
            g_atomic_int_compare_and_exchange (&c->failed, 0, r < 0 ? errno : EIO);
            g_async_queue_push (c->empty, ch);
            goto out;
          }
        g_async_queue_push (c->full, ch);
      }
out:
  g_async_queue_push (c->full, GINT_TO_POINTER (1)); /* the end */
  return NULL;
}

static gpointer
writer_thread (gpointer data)
{
  Copy *c = data;

  nsc_thread_wake_promptly ();
  for (;;)
    {
      Chunk *ch = g_async_queue_pop (c->full);
      ssize_t r;

      if (ch == GINT_TO_POINTER (1))
        break;
      if (!g_atomic_int_get (&c->failed) && !g_cancellable_is_cancelled (c->cancellable))
        {
          do
            r = pwrite (c->dst[ch->file], ch->buf, ch->len, (off_t) ch->offset);
          while (r < 0 && errno == EINTR);
          if (r != (ssize_t) ch->len)
            g_atomic_int_compare_and_exchange (&c->failed, 0, r < 0 ? errno : EIO);
          else
            __atomic_add_fetch (&c->copied, ch->len, __ATOMIC_RELAXED);
        }
      g_async_queue_push (c->empty, ch);
    }
  __atomic_store_n (&c->done_ns, nsc_now_ns (), __ATOMIC_RELEASE);
  return NULL;
}

gboolean
nsc_copy_run (const char         *dir,
              const NscCopySpec  *spec,
              NscSampleFunc       on_sample,
              gpointer            user_data,
              GCancellable       *cancellable,
              NscCopyResult     **out_result,
              GError            **error)
{
  g_autoptr(NscCopyResult) result = g_new0 (NscCopyResult, 1);
  g_autoptr(GArray) sizes = NULL;
  g_autofree int *src = NULL;
  g_autofree int *dst = NULL;
  g_autofree guint8 *pool = NULL;
  struct statvfs vfs;
  struct rlimit rl;
  guint64 total, free_bytes, reserve, prev = 0, sample_bytes;
  gint64 start, prev_ns, interval = spec->interval_ns > 0 ? spec->interval_ns : 500 * G_GINT64_CONSTANT (1000000);
  Chunk chunks[QUEUE_DEPTH];
  Copy c = { 0 };
  GThread *reader, *writer;
  gboolean ok = FALSE, sliced;
  void *mem = NULL;

  *out_result = NULL;
  if (statvfs (dir, &vfs) != 0)
    {
      nsc_error_set_errno (error, NSC_PROBLEM_COPY_FOLDER_UNUSABLE, errno,
                           &(NscErrorFields) { .path = dir });
      return FALSE;
    }
  /* The copy needs its source and its destination: scale to the free space. */
  free_bytes = (guint64) vfs.f_bavail * vfs.f_frsize;
  reserve = MAX ((guint64) vfs.f_blocks * vfs.f_frsize / 50, G_GUINT64_CONSTANT (256) << 20);
  total = spec->bytes;
  if (free_bytes < reserve + 2 * UNIT)
    {
      nsc_error_set (error, NSC_PROBLEM_COPY_NO_ROOM, &(NscErrorFields) { .path = dir });
      return FALSE;
    }
  if (2 * total > free_bytes - reserve)
    {
      total = (free_bytes - reserve) / 2;
      result->scaled = TRUE;
    }
  total = total / UNIT * UNIT;
  sizes = plan_sizes (total, spec->files, spec->seed ? spec->seed : 0x636f7079);
  result->files = sizes->len;

  /* One descriptor per file, kept open so that the files stay nameless. */
  if (getrlimit (RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 2 * sizes->len + 64)
    {
      rl.rlim_cur = MIN (rl.rlim_max, (rlim_t) (2 * sizes->len + 64));
      setrlimit (RLIMIT_NOFILE, &rl);
    }
  src = g_new (int, sizes->len);
  dst = g_new (int, sizes->len);
  for (guint i = 0; i < sizes->len; i++)
    src[i] = dst[i] = -1;

  if (posix_memalign (&mem, 4096, CHUNK) != 0)
    {
      nsc_error_set (error, NSC_PROBLEM_COPY_OUT_OF_MEMORY, NULL);
      return FALSE;
    }
  pool = mem;

  /* The sources: written like any file, incompressible (or zeros, on request). */
  for (guint i = 0; i < sizes->len; i++)
    {
      guint64 size = g_array_index (sizes, guint64, i);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      src[i] = open_tmp (dir);
      if (src[i] < 0)
        {
          nsc_error_set_errno (error, NSC_PROBLEM_COPY_SOURCE_CREATE, errno,
                               &(NscErrorFields) { .path = dir });
          goto out;
        }
      for (guint64 off = 0; off < size; off += CHUNK)
        {
          guint32 len = (guint32) MIN ((guint64) CHUNK, size - off);

          if (spec->data == NSC_DATA_ZEROS)
            memset (pool, 0, len);
          else
            for (guint32 k = 0; k < len; k += 8)
              {
                guint64 v = nsc_mix64 (((guint64) i << 40) ^ (off + k) ^ spec->seed);
                memcpy (pool + k, &v, 8);
              }
          if (pwrite (src[i], pool, len, (off_t) off) != (ssize_t) len)
            {
              if (errno == ENOSPC)
                nsc_error_set (error, NSC_PROBLEM_COPY_SOURCE_FULL, &(NscErrorFields) { .path = dir });
              else
                nsc_error_set_errno (error, NSC_PROBLEM_COPY_SOURCE_WRITE, errno,
                                     &(NscErrorFields) { .path = dir });
              goto out;
            }
        }
    }
  /* The review copied data that had settled on the drive, not data still in its
   * cache: the sources reach the drive, then it is left alone. */
  if (spec->settle_ns > 0)
    {
      gint64 end;

      for (guint i = 0; i < sizes->len; i++)
        fdatasync (src[i]);
      end = nsc_now_ns () + spec->settle_ns;
      while (nsc_now_ns () < end && !g_cancellable_is_cancelled (cancellable))
        g_usleep (MIN ((end - nsc_now_ns ()) / 1000 + 1, 50000));
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
    }
  for (guint i = 0; i < sizes->len; i++)
    if ((dst[i] = open_tmp (dir)) < 0)
      {
        nsc_error_set_errno (error, NSC_PROBLEM_COPY_DEST_CREATE, errno,
                             &(NscErrorFields) { .path = dir });
        goto out;
      }

  c.src = src;
  c.dst = dst;
  c.sizes = (guint64 *) (void *) sizes->data;
  c.n = sizes->len;
  c.full = g_async_queue_new ();
  c.empty = g_async_queue_new ();
  c.cancellable = cancellable;
  for (guint i = 0; i < QUEUE_DEPTH; i++)
    {
      if (posix_memalign (&mem, 4096, CHUNK) != 0)
        abort ();
      chunks[i].buf = mem;
      g_async_queue_push (c.empty, &chunks[i]);
    }

  result->series = nsc_series_new (16384);
  sample_bytes = MAX (total / 256, (guint64) CHUNK);
  sliced = nsc_thread_wake_promptly_begin ();
  start = prev_ns = nsc_now_ns ();
  reader = g_thread_new ("nsc-copy-read", reader_thread, &c);
  writer = g_thread_new ("nsc-copy-write", writer_thread, &c);

  /* Sample what was copied until the writer is done; cancel wakes us within 50 ms. */
  for (;;)
    {
      gboolean done = __atomic_load_n (&c.done_ns, __ATOMIC_ACQUIRE) != 0;
      gint64 now;
      guint64 copied;

      if (!done)
        {
          g_usleep (10000);
          done = __atomic_load_n (&c.done_ns, __ATOMIC_ACQUIRE) != 0;
        }
      now = nsc_now_ns ();
      copied = __atomic_load_n (&c.copied, __ATOMIC_RELAXED);
      /* A point per interval, and per 1/256 of the copy: a curve however small. */
      if (now - prev_ns >= interval || copied - prev >= sample_bytes || done)
        {
          NscSample s = { 0 };

          s.t_ns = now - start;
          s.duration_ns = now - prev_ns;
          s.bytes[NSC_DIR_WRITE] = copied - prev;
          s.position = copied;
          /* A short last interval joins the one before it. */
          if (done && s.duration_ns < interval / 2 && nsc_series_get_len (result->series) > 0)
            nsc_series_extend_last (result->series, &s);
          else if (s.duration_ns > 0)
            {
              nsc_series_append (result->series, &s);
              if (on_sample)
                on_sample (&s, user_data);
            }
          prev = copied;
          prev_ns = now;
        }
      if (done)
        break;
    }
  g_thread_join (reader);
  g_thread_join (writer);
  nsc_thread_wake_promptly_end (sliced);
  nsc_series_finish (result->series);

  result->bytes = c.copied;
  result->runtime_ns = c.done_ns - start;
  result->bps = result->runtime_ns > 0 ? result->bytes * 1e9 / result->runtime_ns : 0;
  for (guint i = 0; i < QUEUE_DEPTH; i++)
    free (chunks[i].buf);
  g_async_queue_unref (c.full);
  g_async_queue_unref (c.empty);

  if (c.failed)
    {
      if (c.failed == ENOSPC)
        nsc_error_set (error, NSC_PROBLEM_COPY_FULL, &(NscErrorFields) { .path = dir });
      else
        nsc_error_set_errno (error, NSC_PROBLEM_COPY_FAILED, c.failed, &(NscErrorFields) { .path = dir });
    }
  else if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    ok = TRUE;

out:
  for (guint i = 0; i < result->files && src; i++)
    {
      if (src[i] >= 0)
        close (src[i]);
      if (dst[i] >= 0)
        close (dst[i]);
    }
  *out_result = g_steal_pointer (&result);
  return ok;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ThreadSanitizer cannot see GLib's locks: on Linux GMutex and GCond are futexes in
 * an uninstrumented libglib, so every hand-off through them looks like a data race.
 * Preloaded into the tests of the TSan build (meson test --wrapper, see .ci/run), this
 * wraps GLib's lock, once and async-queue functions and tells TSan about the
 * happens-before edge that each one makes. Calls between GLib's own functions inside
 * libglib (main context) do not come through here. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glib.h>

void __tsan_acquire (void *addr) __attribute__ ((weak));
void __tsan_release (void *addr) __attribute__ ((weak));

#define ACQUIRE(p) do { if (__tsan_acquire) __tsan_acquire ((void *) (p)); } while (0)
#define RELEASE(p) do { if (__tsan_release) __tsan_release ((void *) (p)); } while (0)
#define REAL(ret, name, ...) \
  static ret (*real) (__VA_ARGS__); \
  if (real == NULL) \
    real = (ret (*) (__VA_ARGS__)) dlsym (RTLD_NEXT, #name)

void
g_mutex_lock (GMutex *mutex)
{
  REAL (void, g_mutex_lock, GMutex *);
  real (mutex);
  ACQUIRE (mutex);
}

gboolean
g_mutex_trylock (GMutex *mutex)
{
  gboolean locked;
  REAL (gboolean, g_mutex_trylock, GMutex *);
  locked = real (mutex);
  if (locked)
    ACQUIRE (mutex);
  return locked;
}

void
g_mutex_unlock (GMutex *mutex)
{
  REAL (void, g_mutex_unlock, GMutex *);
  RELEASE (mutex);
  real (mutex);
}

void
g_rec_mutex_lock (GRecMutex *mutex)
{
  REAL (void, g_rec_mutex_lock, GRecMutex *);
  real (mutex);
  ACQUIRE (mutex);
}

void
g_rec_mutex_unlock (GRecMutex *mutex)
{
  REAL (void, g_rec_mutex_unlock, GRecMutex *);
  RELEASE (mutex);
  real (mutex);
}

void
g_cond_wait (GCond  *cond,
             GMutex *mutex)
{
  REAL (void, g_cond_wait, GCond *, GMutex *);
  RELEASE (mutex);
  real (cond, mutex);
  ACQUIRE (mutex);
}

gboolean
g_cond_wait_until (GCond  *cond,
                   GMutex *mutex,
                   gint64  end_time)
{
  gboolean signalled;
  REAL (gboolean, g_cond_wait_until, GCond *, GMutex *, gint64);
  RELEASE (mutex);
  signalled = real (cond, mutex, end_time);
  ACQUIRE (mutex);
  return signalled;
}

gboolean
(g_once_init_enter) (volatile void *location)
{
  gboolean first;
  REAL (gboolean, g_once_init_enter, volatile void *);
  first = real (location);
  if (!first)
    ACQUIRE (location);
  return first;
}

void
(g_once_init_leave) (volatile void *location,
                     gsize          result)
{
  REAL (void, g_once_init_leave, volatile void *, gsize);
  RELEASE (location);
  real (location, result);
}

/* GAsyncQueue locks its own mutex inside libglib: a push hands what it pushes to
 * the thread that pops it (the copy test's reader and writer pass chunks this way). */
void
g_async_queue_push (GAsyncQueue *queue,
                    gpointer     data)
{
  REAL (void, g_async_queue_push, GAsyncQueue *, gpointer);
  RELEASE (queue);
  real (queue, data);
}

gpointer
g_async_queue_pop (GAsyncQueue *queue)
{
  gpointer data;
  REAL (gpointer, g_async_queue_pop, GAsyncQueue *);
  data = real (queue);
  ACQUIRE (queue);
  return data;
}

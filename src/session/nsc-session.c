/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsc-bench.h"
#include "nsc-device-safety.h"
#include "nsc-nvme.h"
#include "nsc-session.h"

void
nsc_session_options (NscRunOptions       *out,
                     const char          *target,
                     const NscRunOptions *user)
{
  NscRunOptions opts = NSC_RUN_OPTIONS_INIT;

  g_return_if_fail (out != NULL);

  if (user != NULL)
    {
      opts.file_size = user->file_size;
      opts.runs = user->runs;
      opts.time_ns = user->time_ns;
      opts.default_time_ns = user->default_time_ns;
      opts.idle_ns = user->idle_ns;
      opts.max_idle_ns = user->max_idle_ns;
      opts.time_scale = user->time_scale;
      opts.span_cap = user->span_cap;
      opts.backend = user->backend;
      opts.no_tmpfile = user->no_tmpfile;
      /* Consent as offered (the command line's --destroy-data), which
       * nsc_session_check_consent () proves names the target. */
      opts.destroy_data = user->destroy_data;
      opts.erase_method = user->erase_method;
      opts.erase_first = user->erase_first;
      opts.leave_free = user->leave_free;
      opts.cache_bytes = user->cache_bytes;
      opts.write_bps_hint = user->write_bps_hint;
    }
  opts.target = target;
  /* The reviews' conditions, where the user did not say otherwise. */
  if (user != NULL && user->strict)
    nsc_run_options_set_strict (&opts);
  if (user != NULL && user->cdm)
    nsc_run_options_set_cdm (&opts);
  /* Once the drive is held, the same in-use check as before consent: the front
   * end's own where it has one (an app in a sandbox asks UDisks2), else /proc and
   * /sys. */
  opts.check_device = user && user->check_device ? user->check_device : nsc_device_check_func;
  opts.check_data = user && user->check_device ? user->check_data : NULL;
  opts.erase = nsc_nvme_erase_func;
  *out = opts;
}

/* The path that exists: the target, or the folder of a file still to be made. A drive
 * a sandbox's /dev lacks is still the drive when the read-only /sys knows its name
 * (nsc_device_info_for_path finds it there). */
static char *
existing_path (const char *target)
{
  if (!g_file_test (target, G_FILE_TEST_EXISTS) && g_str_has_prefix (target, "/dev/"))
    {
      g_autofree char *base = g_path_get_basename (target);
      g_autofree char *sys = g_build_filename ("/sys/class/block", base, NULL);

      if (g_file_test (sys, G_FILE_TEST_EXISTS))
        return g_strdup (target);
    }
  return g_file_test (target, G_FILE_TEST_EXISTS) ? g_strdup (target) : g_path_get_dirname (target);
}

NscSession *
nsc_session_new (const char          *target,
                 const NscRunOptions *user)
{
  return nsc_session_new_full (target, user, FALSE);
}

NscSession *
nsc_session_new_full (const char          *target,
                      const NscRunOptions *user,
                      gboolean             history_read)
{
  NscSession *s;
  g_autofree char *where = NULL;

  g_return_val_if_fail (target != NULL, NULL);

  s = g_new0 (NscSession, 1);
  s->target = g_strdup (target);
  nsc_session_options (&s->options, s->target, user);

  /* The drive behind the target: its facts go into the result, its temperature into
   * every step's series. NVMe Identify and SMART need root; without it (the app
   * never runs as root), sysfs and the hwmon sensor. */
  where = existing_path (target);
  s->device = nsc_device_info_for_path (where, geteuid () == 0 ? NSC_DISCOVER_NVME
                                                               : NSC_DISCOVER_DEFAULT, NULL);
  /* What may hold its writes in memory before the drive: a buffered loop device, a
   * virtual or network disk. */
  nsc_bench_system_cache (where, &s->system_cache);
  s->options.system_cache = &s->system_cache;
  if (s->device)
    {
      s->options.read_temperature = nsc_device_temperature_func;
      s->options.temperature_data = s->device->devnode;
    }
  /* The drive's SLC cache from its saved results, to label results and size Quick's
   * settled control when this run measures none. */
  if (s->options.cache_bytes == 0 && !history_read)
    s->options.cache_bytes = nsc_session_history_cache (s->device);
  /* And its write speed: the time left of writes bounded by bytes until this run
   * measures its own. */
  if (s->options.write_bps_hint <= 0 && !history_read && s->device)
    {
      g_autofree char *history = nsc_session_results_dir ();

      s->options.write_bps_hint = nsc_result_history_write_bps (history, s->device->serial,
                                                                s->device->devnode, NULL);
    }
  return s;
}

guint64
nsc_session_history_cache (const NscDeviceInfo *device)
{
  g_autofree char *history = NULL;

  if (device == NULL || device->serial == NULL)
    return 0;
  history = nsc_session_results_dir ();
  return nsc_result_history_cache_bytes (history, device->serial, NULL);
}

void
nsc_session_free (NscSession *session)
{
  if (session == NULL)
    return;
  g_free (session->target);
  nsc_system_cache_info_clear (&session->system_cache);
  g_clear_pointer (&session->device, nsc_device_info_free);
  g_clear_pointer (&session->smart_before, json_node_unref);
  g_free (session);
}

void
nsc_session_budget_target (const NscRunOptions *options,
                           NscBudgetTarget     *t)
{
  nsc_run_options_budget_target (options, t);
}

static gboolean
is_block_device (const char *path)
{
  struct stat st;
  return stat (path, &st) == 0 && S_ISBLK (st.st_mode);
}

gboolean
nsc_session_needs_consent (const NscSession    *session,
                           const NscPreset     *preset,
                           const NscRunOptions *options)
{
  g_return_val_if_fail (session != NULL && preset != NULL, FALSE);

  /* The engine's answer: erase, TRIM, fill, copy and surface steps and the drive
   * states count, not only writing jobs. */
  return nsc_run_writes (preset, options ? options : &session->options)
         && is_block_device (session->target);
}

gboolean
nsc_session_check_in_use (const NscSession  *session,
                          GError           **error)
{
  g_return_val_if_fail (session != NULL, FALSE);
  return session->options.check_device (session->options.check_data, session->target, error);
}

gboolean
nsc_session_check_consent (NscSession  *session,
                           const char  *consent,
                           GError     **error)
{
  struct stat target, named;

  g_return_val_if_fail (session != NULL, FALSE);

  if (consent == NULL)
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_NEEDS_CONFIRMATION,
                   "This test writes to %s and destroys everything on it; nothing was "
                   "agreed to", session->target);
      return FALSE;
    }
  /* The target by its own name (the app's confirmation names what it opens), or
   * another node of the same device. */
  if (g_strcmp0 (consent, session->target) != 0
      && (stat (session->target, &target) != 0 || stat (consent, &named) != 0
          || !S_ISBLK (named.st_mode) || named.st_rdev != target.st_rdev))
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_NEEDS_CONFIRMATION,
                   "This test writes to %s and destroys everything on it, but the consent "
                   "names %s, another device", session->target, consent);
      return FALSE;
    }
  if (!nsc_session_check_in_use (session, error))
    return FALSE;
  /* Consent names the device; the engine checks it is the very one opened. */
  session->options.destroy_data = session->target;
  return TRUE;
}

void
nsc_session_begin (NscSession *session)
{
  g_return_if_fail (session != NULL);

  /* What the drive itself counts as written, before and after (NVMe SMART, root). */
  g_clear_pointer (&session->smart_before, json_node_unref);
  if (session->device && session->device->controller)
    session->smart_before = nsc_device_read_wear (session->device, NULL);
}

void
nsc_session_finish (NscSession   *session,
                    NscRunResult *r)
{
  NscDeviceInfo *dev;

  g_return_if_fail (session != NULL && r != NULL);

  dev = session->device;
  if (session->smart_before)
    nsc_run_result_set_smart (r, g_steal_pointer (&session->smart_before), nsc_device_read_wear (dev, NULL));
  if (dev)
    {
      NscWarning *link = nsc_device_info_link_warning (dev);
      NscWarning *identity = nsc_device_info_identity_warning (dev);

      nsc_run_result_set_device (r, nsc_device_info_to_json (dev));
      if (link)
        nsc_run_result_take_warning (r, link);
      if (identity)
        nsc_run_result_take_warning (r, identity);
    }
  {
    /* The test bench, as the reviews list it, and what it implies. */
    g_autofree char *where = existing_path (session->target);
    JsonNode *bench = nsc_bench_describe (where, dev);
    g_autoptr(GPtrArray) notes = nsc_bench_warnings (bench);

    for (guint i = 0; i < notes->len; i++)
      nsc_run_result_take_warning (r, g_steal_pointer (&notes->pdata[i]));
    nsc_run_result_set_bench (r, bench);
  }
}

char *
nsc_session_results_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "nandscope", "results", NULL);
}

/* Saves under $XDG_DATA_HOME/nandscope/results/<UTC time>-<preset>.json. */
static char *
save_result (NscRunResult  *r,
             GError       **error)
{
  g_autofree char *dir = nsc_session_results_dir ();
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) utc = r->started ? g_date_time_to_utc (r->started) : g_date_time_ref (now);
  g_autofree char *stamp = g_date_time_format (utc, "%Y%m%dT%H%M%SZ");
  g_autofree char *path = NULL;

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Cannot create the folder %s for results: %s"), dir, g_strerror (errsv));
      return NULL;
    }

  for (guint i = 1; path == NULL || g_file_test (path, G_FILE_TEST_EXISTS); i++)
    {
      g_autofree char *name = NULL;

      g_free (path);
      if (i == 1)
        name = g_strdup_printf ("%s-%s.json", stamp, r->preset_name ? r->preset_name : "run");
      else
        name = g_strdup_printf ("%s-%s-%u.json", stamp, r->preset_name ? r->preset_name : "run", i);
      path = g_build_filename (dir, name, NULL);
    }

  if (!nsc_run_result_save (r, path, error))
    return NULL;
  return g_steal_pointer (&path);
}

char *
nsc_session_save (NscRunResult  *result,
                  const char    *path,
                  GError       **error)
{
  g_return_val_if_fail (result != NULL, NULL);

  if (path == NULL)
    return save_result (result, error);
  if (!nsc_run_result_save (result, path, error))
    return NULL;
  return g_strdup (path);
}

char *
nsc_session_describe_runs (const NscRunResult *r)
{
  GString *text = g_string_new (NULL);
  g_autofree char *per_test = nsc_words_clock (r->time_ns);

  if (r->runs > 1 && r->cdm)
    /* TRANSLATORS: the best run is shown as CrystalDiskMark shows it */
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                               "%u run of %s per test, the best shown "
                                               "(CrystalDiskMark's way)",
                                               "%u runs of %s per test, the best shown "
                                               "(CrystalDiskMark's way)", r->runs),
                            r->runs, per_test);
  else if (r->runs > 1)
    g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                               "%u run of %s per test, the median shown",
                                               "%u runs of %s per test, the median shown",
                                               r->runs),
                            r->runs, per_test);
  else
    g_string_append_printf (text, _("1 run of %s per test"), per_test);
  return g_string_free (text, FALSE);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nsc-error.h"
#include "nsc-fio-import.h"
#include "nsc-json.h"
#include "nsc-result.h"
#include "nsc-result-file.h"
#include "nsc-run-analysis.h"
#include "nsc-series.h"

/* The file's words are fio's and the result's, not the user's: like a result's
 * JSON, they are a format (the errors carry problems the words library says). */

#define MOST_JOBS     4096u      /* jobs in one output */
#define MOST_NUMBER   1e18       /* bytes, I/Os, ns, ms: beyond it, not fio's */
#define MOST_BLOCK    (G_GUINT64_CONSTANT (1) << 30)
#define MOST_DEPTH    65536u
#define MOST_LOG      ((gsize) 256 << 20)
#define SERIES_MOST   16384u
#define MOST_LOG_CLONES 256u     /* a job's clones whose logs are summed */

/* fio's percentiles (json: "1.000000"), and the names a result gives them ("1"). */
static const double percentiles[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99 };

typedef struct
{
  JsonObject *entry;     /* fio's job object */
  JsonObject *global;    /* fio's "global options", or NULL */
  guint       index;     /* from 1, in the output: for messages */
  guint       log;       /* its first log number, from 1 within its host */
} FioJob;

typedef struct
{
  char      *name;       /* host (and port, where two share a name); NULL: not a client run */
  char      *log_suffix; /* ".host" after a client's log names, or "" */
  GPtrArray *jobs;       /* FioJob */
} FioHost;

static void
fio_host_free (FioHost *h)
{
  g_free (h->name);
  g_free (h->log_suffix);
  g_ptr_array_unref (h->jobs);
  g_free (h);
}

static gboolean
fail_member (GError    **error,
             guint       job,
             const char *member)
{
  nsc_error_set (error, NSC_PROBLEM_FIO_JOB_MEMBER, &(NscErrorFields) { .n = job, .text = member });
  return FALSE;
}

/* A number fio wrote (an integer or not), finite and within 0 … MOST_NUMBER. */
static gboolean
get_number (JsonObject *o,
            const char *name,
            guint       job,
            gboolean    required,
            double     *out,
            GError    **error)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;
  double v;

  *out = 0;
  if (n == NULL)
    return required ? fail_member (error, job, name) : TRUE;
  if (!JSON_NODE_HOLDS_VALUE (n))
    return fail_member (error, job, name);
  switch (json_node_get_value_type (n))
    {
    case G_TYPE_INT64:
      v = (double) json_node_get_int (n);
      break;
    case G_TYPE_DOUBLE:
      v = json_node_get_double (n);
      break;
    default:
      return fail_member (error, job, name);
    }
  if (!isfinite (v) || v < 0 || v > MOST_NUMBER)
    return fail_member (error, job, name);
  *out = v;
  return TRUE;
}

/* A job's option: its own, else the global one (fio's options are strings). */
static const char *
option (const FioJob *j,
        const char   *name)
{
  const char *v = nsc_json_get_string (nsc_json_get_object (j->entry, "job options"), name);

  return v ? v : j->global ? nsc_json_get_string (j->global, name) : NULL;
}

/* fio's sizes: a number, then k, m, g, t or p, an optional "i" and an optional "b".
 * fio's default (kb_base=1024) reads its prefixes the old way round: "4k" is 4096 and
 * "4ki" 4000; with kb_base=1000, "4k" is 4000 and "4ki" 4096. */
static gboolean
fio_size (const FioJob *j,
          const char   *text,
          guint64      *out)
{
  const char *base = option (j, "kb_base");
  gboolean si = base && g_str_equal (base, "1000");
  const char *prefixes = "kmgtp", *at;
  char *end = NULL;
  guint64 v, mult = 1;

  if (text == NULL || !g_ascii_isdigit (*text))
    return FALSE;
  v = g_ascii_strtoull (text, &end, 10);
  if (*end != '\0' && (at = strchr (prefixes, g_ascii_tolower (*end))))
    {
      guint64 unit;

      end++;
      /* "i" turns the base round. */
      if (g_ascii_tolower (*end) == 'i')
        {
          si = !si;
          end++;
        }
      unit = si ? 1000 : 1024;
      for (const char *p = prefixes; p <= at; p++)
        mult *= unit;
    }
  if (g_ascii_tolower (*end) == 'b')
    end++;
  /* A list ("4k,8k") or a range ("4k-16k"): the first. */
  if (*end != '\0' && *end != ',' && *end != '-' && *end != ':')
    return FALSE;
  if (v > G_MAXUINT64 / mult || v * mult > (guint64) MOST_NUMBER)
    return FALSE;
  *out = v * mult;
  return TRUE;
}

static guint64
option_size (const FioJob *j,
             const char   *name,
             guint64       fallback,
             const char  **bad)
{
  const char *text = option (j, name);
  guint64 v;

  if (text == NULL)
    return fallback;
  if (!fio_size (j, text, &v))
    {
      *bad = name;
      return fallback;
    }
  return v;
}

static guint
option_count (const FioJob *j,
              const char   *name,
              guint         fallback,
              guint         most,
              const char  **bad)
{
  const char *text = option (j, name);
  guint64 v;

  if (text == NULL)
    return fallback;
  if (!g_ascii_string_to_unsigned (text, 10, 0, most, &v, NULL))
    {
      *bad = name;
      return fallback;
    }
  return (guint) v;
}

static gboolean
option_true (const FioJob *j,
             const char   *name)
{
  const char *v = option (j, name);

  return v && (g_str_equal (v, "1") || g_ascii_strcasecmp (v, "true") == 0);
}

/* fio's time options: a number of @unit (ns: seconds for most, ms for a few), or
 * with us (usec), ms (msec), s, m, h, d. */
static gint64
option_time_ns (const FioJob *j,
                const char   *name,
                gint64        unit)
{
  const char *text = option (j, name);
  char *end = NULL;
  double v;

  if (text == NULL || !g_ascii_isdigit (*text))
    return 0;
  v = g_ascii_strtod (text, &end);
  if (g_str_equal (end, "us") || g_str_equal (end, "usec"))
    v *= 1e3;
  else if (g_str_equal (end, "ms") || g_str_equal (end, "msec"))
    v *= 1e6;
  else if (g_str_equal (end, "m"))
    v *= 60e9;
  else if (g_str_equal (end, "h"))
    v *= 3600e9;
  else if (g_str_equal (end, "d"))
    v *= 86400e9;
  else if (g_str_equal (end, "s"))
    v *= 1e9;
  else if (*end == '\0')
    v *= (double) unit;
  else
    return 0;
  return isfinite (v) && v < MOST_NUMBER ? (gint64) v : 0;
}

/* One direction's latency as fio reported it (completion latency, else total),
 * written into the result's {min, max, mean, percentiles}. */
static gboolean
latency (const FioJob *j,
         JsonObject   *dir,
         JsonObject   *out,
         GError      **error)
{
  JsonObject *lat = nsc_json_get_object (dir, "clat_ns");
  JsonObject *pct, *mine = json_object_new ();
  double min, max, mean;

  if (lat == NULL)
    lat = nsc_json_get_object (dir, "lat_ns");
  if (lat == NULL)
    {
      json_object_unref (mine);
      return fail_member (error, j->index, "clat_ns");
    }
  if (!get_number (lat, "min", j->index, TRUE, &min, error)
      || !get_number (lat, "max", j->index, TRUE, &max, error)
      || !get_number (lat, "mean", j->index, TRUE, &mean, error))
    {
      json_object_unref (mine);
      return FALSE;
    }
  json_object_set_int_member (out, "min", (gint64) min);
  json_object_set_int_member (out, "max", (gint64) max);
  json_object_set_double_member (out, "mean", mean);
  pct = nsc_json_get_object (lat, "percentile");
  for (guint i = 0; pct && i < G_N_ELEMENTS (percentiles); i++)
    {
      char fio_key[32], key[32];
      double v;

      g_snprintf (fio_key, sizeof fio_key, "%f", percentiles[i]);
      if (!json_object_has_member (pct, fio_key))
        continue;
      if (!get_number (pct, fio_key, j->index, TRUE, &v, error))
        {
          json_object_unref (mine);
          return FALSE;
        }
      g_ascii_formatd (key, sizeof key, "%g", percentiles[i]);
      json_object_set_int_member (mine, key, (gint64) v);
    }
  json_object_set_object_member (out, "percentiles", mine);
  return TRUE;
}

typedef struct
{
  gint64  t_ms;
  guint64 bytes[2];
} LogWindow;

/* A window into @series, after the one that ended at *@end: FALSE when its sum of
 * bytes passes what fio could have moved. */
static gboolean
log_window_flush (const LogWindow *w,
                  gint64          *end,
                  guint64         *position,
                  NscSeries       *series)
{
  NscSample s = { 0 };

  if (w->t_ms <= *end)
    return TRUE;
  s.t_ns = w->t_ms * 1000000;
  s.duration_ns = (w->t_ms - *end) * 1000000;
  s.bytes[0] = w->bytes[0];
  s.bytes[1] = w->bytes[1];
  if (w->bytes[0] + w->bytes[1] > (guint64) MOST_NUMBER - *position)
    return FALSE;
  *position += w->bytes[0] + w->bytes[1];
  s.position = *position;
  nsc_series_append (series, &s);
  *end = w->t_ms;
  return TRUE;
}

/* One of a job's bandwidth logs, read line by line. */
typedef struct
{
  const char *path;
  char       *data;
  char       *next;        /* the next line, NULL at the end */
  guint64     line_no;
  gint64      last_t[2];   /* each direction's last line, ms */
  gint64      t;           /* the line read ahead: its time, KiB/s, direction */
  guint64     kib;
  guint       dir;
  gboolean    have;
} LogFile;

/* The next read or write line of @f into its look-ahead; FALSE: a line not fio's. */
static gboolean
log_file_advance (LogFile *f)
{
  f->have = FALSE;
  while (f->next && *f->next)
    {
      char *fields[5] = { 0 }, *line = f->next, *p = line;
      guint n = 0;
      guint64 dir;

      f->next = strchr (line, '\n');
      if (f->next)
        *f->next++ = '\0';
      f->line_no++;
      if (*g_strstrip (line) == '\0')
        continue;
      while (n < G_N_ELEMENTS (fields) && p)
        {
          fields[n++] = p;
          p = strchr (p, ',');
          if (p)
            *p++ = '\0';
        }
      if (n < 3
          || !g_ascii_string_to_signed (g_strstrip (fields[0]), 10, 0, (gint64) MOST_NUMBER / 1000000, &f->t, NULL)
          || !g_ascii_string_to_unsigned (g_strstrip (fields[1]), 10, 0, (guint64) MOST_NUMBER / 1024, &f->kib, NULL)
          || !g_ascii_string_to_unsigned (g_strstrip (fields[2]), 10, 0, 2, &dir, NULL))
        return FALSE;
      if (dir == 2)
        continue;
      f->dir = (guint) dir;
      f->have = TRUE;
      return TRUE;
    }
  return TRUE;
}

/* A job's bandwidth logs (one, or one per clone of numjobs): lines "time (ms), KiB/s,
 * direction (0 read, 1 write, 2 trim), block size, offset[, priority]", each the
 * average over log_avg_msec. Into @series: a sample per window, the directions and the
 * clones of one window together (each clone's clock starts with it, within a few ms
 * of the others). */
static gboolean
read_logs (const char *const *paths,
           guint              n_paths,
           gint64             avg_ms,
           NscSeries         *series,
           GError           **error)
{
  g_autofree LogFile *files = g_new0 (LogFile, n_paths);
  g_autofree gboolean *seen = g_new0 (gboolean, 2 * (gsize) n_paths);
  LogWindow w = { 0 };
  gboolean open = FALSE, ok = TRUE;
  gint64 end = 0;
  guint64 position = 0;
  gsize total = 0;
  LogFile *bad = NULL;

  for (guint i = 0; i < n_paths && ok; i++)
    {
      gsize length = 0;

      files[i].path = paths[i];
      ok = (files[i].data = nsc_result_file_read (paths[i], MOST_LOG - MIN (total, MOST_LOG),
                                                  NSC_PROBLEM_FIO_NOT_REGULAR, NSC_PROBLEM_FIO_TOO_LARGE,
                                                  &length, error)) != NULL;
      total += length;
      files[i].next = files[i].data;
      if (ok && !log_file_advance (&files[i]))
        bad = &files[i];
    }
  while (ok && !bad)
    {
      LogFile *f = NULL;
      double bytes;

      /* The earliest line of all the logs next. */
      for (guint i = 0; i < n_paths; i++)
        if (files[i].have && (f == NULL || files[i].t < f->t))
          f = &files[i];
      if (f == NULL)
        break;
      /* The window this line closes: the open one, when it is that time's (another
       * direction or clone of it), else a new one after it. */
      if (!open || llabs (w.t_ms - f->t) > (n_paths > 1 ? avg_ms / 2 : avg_ms / 4)
          || seen[2 * (gsize) (f - files) + f->dir])
        {
          if (open && !log_window_flush (&w, &end, &position, series))
            {
              bad = f;
              break;
            }
          memset (&w, 0, sizeof w);
          memset (seen, 0, 2 * (gsize) n_paths * sizeof *seen);
          w.t_ms = f->t;
          open = TRUE;
        }
      seen[2 * (gsize) (f - files) + f->dir] = TRUE;
      /* Bytes: its speed over the time since that clone's last line of the direction. */
      bytes = f->t > f->last_t[f->dir] ? f->kib * 1024.0 * (double) (f->t - f->last_t[f->dir]) / 1000.0 : 0;
      if (bytes > MOST_NUMBER - (double) w.bytes[f->dir])
        {
          bad = f;
          break;
        }
      w.bytes[f->dir] += (guint64) bytes;
      f->last_t[f->dir] = MAX (f->last_t[f->dir], f->t);
      if (!log_file_advance (f))
        bad = f;
    }
  if (ok && !bad && open && !log_window_flush (&w, &end, &position, series))
    bad = &files[0];
  for (guint i = 0; i < n_paths; i++)
    g_free (files[i].data);
  if (!ok)
    return FALSE;
  if (bad)
    {
      nsc_error_set (error, NSC_PROBLEM_FIO_LOG_LINE, &(NscErrorFields) { .path = bad->path, .n = (gint64) bad->line_no });
      return FALSE;
    }
  nsc_series_finish (series);
  return TRUE;
}

static const char *
fio_rw_to_ours (const char *rw)
{
  static const struct { const char *fio, *ours; } names[] = {
    { "read", "read" }, { "write", "write" }, { "randread", "randread" },
    { "randwrite", "randwrite" }, { "rw", "rw" }, { "readwrite", "rw" }, { "randrw", "randrw" },
  };

  /* "write:128k": sequential with a gap after each I/O, the same direction. */
  gsize n = rw ? strcspn (rw, ":") : 0;

  for (guint i = 0; rw && i < G_N_ELEMENTS (names); i++)
    if (strlen (names[i].fio) == n && strncmp (rw, names[i].fio, n) == 0)
      return names[i].ours;
  return NULL;
}

/* One direction's figures into @d (bytes, I/Os, speed), and its latency into the
 * result's object @lat (NULL: nothing moved). */
static gboolean
direction (const FioJob *j,
           const char   *name,
           NscDirStats  *d,
           JsonObject  **lat,
           GError      **error)
{
  JsonObject *o = nsc_json_get_object (j->entry, name);
  double bytes, ios, bw, iops;

  *lat = NULL;
  if (o == NULL)
    return fail_member (error, j->index, name);
  if (!get_number (o, "io_bytes", j->index, TRUE, &bytes, error)
      || !get_number (o, "total_ios", j->index, FALSE, &ios, error)
      || !get_number (o, "bw_bytes", j->index, TRUE, &bw, error)
      || !get_number (o, "iops", j->index, TRUE, &iops, error))
    return FALSE;
  d->bytes = (guint64) bytes;
  d->ios = (guint64) ios;
  d->bw_bps = bw;
  d->iops = iops;
  if (bytes > 0)
    {
      *lat = json_object_new ();
      if (!latency (j, o, *lat, error))
        {
          g_clear_pointer (lat, json_object_unref);
          return FALSE;
        }
    }
  return TRUE;
}

/* The result's step @step (from to_json) gets fio's latencies in place of the empty
 * ones the result writes for want of a histogram: each run its own, the step its
 * headline run's. */
static void
set_latency (JsonObject *step,
             GPtrArray  *lat)
{
  JsonArray *runs = nsc_json_get_array (step, "runs");
  gint64 head = (gint64) nsc_json_get_number (step, "headline_run", 0);

  for (int dir = 0; dir < 2; dir++)
    {
      const char *name = dir ? "write" : "read";
      JsonObject *d;

      for (guint i = 0; runs && i < json_array_get_length (runs) && i * 2 + dir < lat->len; i++)
        {
          JsonObject *l = g_ptr_array_index (lat, i * 2 + dir);

          if (l && (d = nsc_json_get_object (json_array_get_object_element (runs, i), name)))
            json_object_set_object_member (d, "lat_ns", json_object_ref (l));
          if (l && (gint64) i == head && (d = nsc_json_get_object (step, name)))
            json_object_set_object_member (d, "lat_ns", json_object_ref (l));
        }
    }
}

/* What a step's JSON gets after the result is written: fio's latencies, its engine. */
typedef struct
{
  GPtrArray *lat;          /* JsonObject or NULL: [run * 2 + direction] */
  char      *engine;
  gboolean   no_series;    /* group_reporting over more clones than MOST_LOG_CLONES: no series */
  gboolean   idle;         /* an exec job: an idle step */
  gint64     interval_ns;  /* its log's windows (log_avg_msec), 0: no log read */
  gint64     step;         /* the exported preset's step it runs, -1: not one */
} StepExtra;

static void
object_unref_maybe (gpointer object)
{
  if (object)
    json_object_unref (object);
}

static void
step_extra_clear (StepExtra *x)
{
  g_clear_pointer (&x->lat, g_ptr_array_unref);
  g_clear_pointer (&x->engine, g_free);
}

/* A job from a file export-fio wrote names its place in the preset (its
 * "description"): "nandscope preset=NAME step=N run=R analysis=TAG label=LABEL". */
typedef struct
{
  char   preset[64];
  gint64 step;
  char   analysis[32];
  char   label[64];
} Exported;

static gboolean
exported (const FioJob *j,
          Exported     *e)
{
  const char *d = option (j, "description");
  g_auto(GStrv) words = NULL;
  const char *label;

  memset (e, 0, sizeof *e);
  e->step = -1;
  if (d == NULL || !g_str_has_prefix (d, "nandscope ") || !(label = strstr (d, " label=")))
    return FALSE;
  g_strlcpy (e->label, label + strlen (" label="), sizeof e->label);
  words = g_strsplit (d, " ", -1);
  for (guint i = 1; words[i] && !g_str_has_prefix (words[i], "label="); i++)
    {
      if (g_str_has_prefix (words[i], "preset="))
        g_strlcpy (e->preset, words[i] + strlen ("preset="), sizeof e->preset);
      else if (g_str_has_prefix (words[i], "step="))
        g_ascii_string_to_signed (words[i] + strlen ("step="), 10, 1, 100000, &e->step, NULL);
      else if (g_str_has_prefix (words[i], "analysis="))
        g_strlcpy (e->analysis, words[i] + strlen ("analysis="), sizeof e->analysis);
    }
  return e->preset[0] && e->step > 0 && e->label[0];
}

/* One fio job as a step of @r; @e: its place in an exported preset, or NULL. */
static gboolean
add_job (NscRunResult *r,
         const FioJob *j,
         const Exported *e,
         guint         repeat,
         const char   *logs,
         const char   *log_suffix,
         GArray       *extras,
         guint        *touched,
         GError      **error)
{
  StepExtra *extra, *last = NULL;
  guint last_index = 0;
  JsonObject *lat[2] = { NULL, NULL };
  gboolean from_preset = e != NULL;
  const char *name = nsc_json_get_string (j->entry, "jobname");
  const char *rw = fio_rw_to_ours (option (j, "rw") ? option (j, "rw") : option (j, "readwrite"));
  g_autoptr(NscJobResult) run = g_new0 (NscJobResult, 1);
  NscStepResult *sr;
  NscStep step = { 0 };
  const char *bad = NULL;
  double runtime_ms = 0, error_code = 0;
  guint64 bs;
  guint clones;

  if (name == NULL)
    return fail_member (error, j->index, "jobname");
  if (!get_number (j->entry, "error", j->index, FALSE, &error_code, error)
      || !get_number (j->entry, "job_runtime", j->index, FALSE, &runtime_ms, error))
    return FALSE;
  /* A program instead of I/O (ioengine=exec: a job file's idle, "sleep"): an idle
   * step, as long as the job ran. */
  if (g_strcmp0 (option (j, "ioengine"), "exec") == 0)
    {
      g_array_set_size (extras, extras->len + 1);
      extra = &g_array_index (extras, StepExtra, extras->len - 1);
      extra->step = -1;
      step.kind = NSC_STEP_IDLE;
      nsc_job_init (&step.job);
      g_strlcpy (step.job.label, name, sizeof step.job.label);
      step.idle_ns = (gint64) (runtime_ms * 1e6);
      sr = nsc_step_result_new (&step);
      sr->started = sr->completed = TRUE;
      sr->duration_ns = step.idle_ns;
      g_ptr_array_add (r->steps, sr);
      extra->idle = TRUE;
      *touched = r->steps->len - 1;
      return TRUE;
    }
  step.kind = NSC_STEP_JOB;
  nsc_job_init (&step.job);
  /* A job's clones (numjobs) and jobs of one name: "mixed", "mixed #2", …; a job
   * export-fio wrote, the step's label. */
  if (from_preset)
    g_strlcpy (step.job.label, e->label, sizeof step.job.label);
  else if (repeat > 0)
    g_snprintf (step.job.label, sizeof step.job.label, "%s #%u", name, repeat + 1);
  else
    g_strlcpy (step.job.label, name, sizeof step.job.label);
  /* fio's default is a sequential read. */
  if (!nsc_job_set_rw (&step.job, rw ? rw : "read", NULL))
    return fail_member (error, j->index, "rw");
  if (option (j, "rwmixread"))
    step.job.read_percent = option_count (j, "rwmixread", 50, 100, &bad);
  else if (option (j, "rwmixwrite"))
    step.job.read_percent = 100 - option_count (j, "rwmixwrite", 50, 100, &bad);
  /* "bs" is read,write[,trim]: the one this job moves most. */
  bs = option_size (j, "bs", option_size (j, "blocksize", 4096, &bad), &bad);
  if (step.job.read_percent == 0 && option (j, "bs") && strchr (option (j, "bs"), ','))
    {
      guint64 w = 0;

      if (fio_size (j, strchr (option (j, "bs"), ',') + 1, &w))
        bs = w;
    }
  step.job.block_size = (guint32) CLAMP (bs, (guint64) 1, MOST_BLOCK);
  step.job.queue_depth = option_count (j, "iodepth", 1, MOST_DEPTH, &bad);
  if (step.job.queue_depth == 0)
    step.job.queue_depth = 1;
  step.job.workers = 1;
  step.job.region_offset = option_size (j, "offset", 0, &bad);
  step.job.region_length = option_size (j, "size", 0, &bad);
  step.job.time_ns = option_true (j, "time_based") ? option_time_ns (j, "runtime", 1000000000) : 0;
  step.job.once = step.job.time_ns == 0 && !option (j, "io_size") && !option (j, "loops");
  if (bad)
    return fail_member (error, j->index, bad);
  clones = option_true (j, "group_reporting") ? MAX (option_count (j, "numjobs", 1, MOST_JOBS, &bad), 1u) : 1;
  /* The clones' regions one after another (offset_increment): what they cover together. */
  if (clones > 1 && option (j, "offset_increment"))
    {
      guint64 inc = option_size (j, "offset_increment", 0, &bad);

      if (inc > 0 && inc <= (G_MAXUINT64 - step.job.region_length) / (clones - 1))
        step.job.region_length += inc * (clones - 1);
    }
  /* Clones that share a region once between them (each its io_size of it). */
  if (step.job.time_ns == 0 && !option (j, "loops") && option (j, "io_size") && clones > 1
      && option_size (j, "io_size", 0, &bad) >= step.job.region_length / clones)
    step.job.once = TRUE;
  /* One more run of the exported step before it (past the pauses between its runs,
   * CrystalDiskMark's), or a step of its own. */
  for (guint k = extras->len; from_preset && k > 0; k--)
    if (!g_array_index (extras, StepExtra, k - 1).idle)
      {
        if (g_array_index (extras, StepExtra, k - 1).step == e->step)
          {
            last = &g_array_index (extras, StepExtra, k - 1);
            last_index = k - 1;
          }
        break;
      }
  if (last)
    extra = last;
  else
    {
      g_array_set_size (extras, extras->len + 1);
      extra = &g_array_index (extras, StepExtra, extras->len - 1);
      extra->step = from_preset ? e->step : -1;
      extra->lat = g_ptr_array_new_with_free_func (object_unref_maybe);
      extra->engine = g_strdup (option (j, "ioengine") ? option (j, "ioengine") : "psync");
      last = NULL;
    }
  extra->no_series |= clones > MOST_LOG_CLONES;

  run->job = step.job;
  run->backend = NSC_BACKEND_AUTO;
  run->runtime_ns = (gint64) (runtime_ms * 1e6);
  run->start_time_us = r->started ? g_date_time_to_unix (r->started) * G_USEC_PER_SEC : 0;
  if (!direction (j, "read", &run->dir[NSC_DIR_READ], &lat[NSC_DIR_READ], error)
      || !direction (j, "write", &run->dir[NSC_DIR_WRITE], &lat[NSC_DIR_WRITE], error))
    {
      g_clear_pointer (&lat[0], json_object_unref);
      return FALSE;
    }
  g_ptr_array_add (extra->lat, lat[0]);
  g_ptr_array_add (extra->lat, lat[1]);
  if (run->runtime_ns == 0)
    {
      double ms;

      for (int d = 0; d < 2; d++)
        if (!get_number (nsc_json_get_object (j->entry, d ? "write" : "read"), "runtime", j->index, FALSE, &ms, error))
          return FALSE;
        else
          run->runtime_ns = MAX (run->runtime_ns, (gint64) (ms * 1e6));
    }
  run->series = nsc_series_new (SERIES_MOST);
  /* Its bandwidth log, in @logs as fio named it: the option's last part, "_bw", the
   * job's number, and a client's ".host". Averaged over windows only: fio's log of
   * every I/O has no durations to read. */
  if (logs && clones <= MOST_LOG_CLONES && option (j, "write_bw_log"))
    {
      g_autofree char *base = g_path_get_basename (option (j, "write_bw_log"));
      g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
      gint64 avg = option_time_ns (j, "log_avg_msec", 1000000) / 1000000;
      gboolean all = avg > 0;

      /* A clone's log for each clone (numjobs with group_reporting), numbered on. */
      for (guint c = 0; all && c < clones; c++)
        {
          g_autofree char *file = g_strdup_printf ("%s_bw.%u.log%s", base, j->log + c, log_suffix);
          char *path = g_build_filename (logs, file, NULL);

          g_ptr_array_add (paths, path);
          all = g_file_test (path, G_FILE_TEST_EXISTS);
        }
      if (all)
        {
          if (!read_logs ((const char *const *) paths->pdata, paths->len, avg, run->series, error))
            return FALSE;
          extra->interval_ns = avg * 1000000 * nsc_series_get_merge_factor (run->series);
        }
    }
  /* A sequential write over its whole region, once, with its curve: a write-fill,
   * which the analysis reads for the SLC cache; in an exported preset, the fills it
   * names (no other analysis: fio's data cannot support them). */
  if (from_preset ? g_str_equal (e->analysis, "write-fill") || g_str_equal (e->analysis, "write-fill-second")
                  : g_str_equal (nsc_job_get_rw (&step.job), "write") && step.job.once
                    && step.job.region_length > 0 && run->dir[NSC_DIR_WRITE].bytes >= step.job.region_length)
    if (nsc_series_get_len (run->series) >= 3)
      {
        g_strlcpy (step.analysis, from_preset ? e->analysis : "write-fill", sizeof step.analysis);
        step.job.bytes = step.job.region_length;
        run->job = step.job;
      }
  if (last)
    {
      /* Another run of that step (extras and steps go one for one). */
      sr = g_ptr_array_index (r->steps, last_index);
      *touched = last_index;
      sr->completed &= error_code == 0;
      if (error_code != 0 && sr->error == NULL)
        sr->error = g_strdup_printf ("fio: error %d", (int) error_code);
      g_ptr_array_add (sr->runs, g_steal_pointer (&run));
      return TRUE;
    }
  sr = nsc_step_result_new (&step);
  sr->started = TRUE;
  sr->completed = error_code == 0;
  if (error_code != 0)
    sr->error = g_strdup_printf ("fio: error %d", (int) error_code);
  g_ptr_array_add (sr->runs, g_steal_pointer (&run));
  g_ptr_array_add (r->steps, sr);
  *touched = r->steps->len - 1;
  return TRUE;
}

/* Where fio's JSON starts: a client's run prints its servers' lines first. */
static const char *
json_start (const char *text,
            gsize       length,
            gsize      *rest)
{
  for (gsize i = 0; i < length; i++)
    if (text[i] == '{' && (i == 0 || text[i - 1] == '\n'))
      {
        *rest = length - i;
        return text + i;
      }
  *rest = length;
  return text;
}

gboolean
nsc_fio_text_is_fio (const char *text,
                     gsize       length)
{
  gsize rest;
  const char *start = json_start (text, length, &rest);

  return g_strstr_len (start, MIN (rest, (gsize) 256), "\"fio version\"") != NULL;
}

static FioHost *
host_for (GPtrArray  *hosts,
          const char *name)
{
  FioHost *h;

  for (guint i = 0; i < hosts->len; i++)
    if (g_strcmp0 (((FioHost *) g_ptr_array_index (hosts, i))->name, name) == 0)
      return g_ptr_array_index (hosts, i);
  h = g_new0 (FioHost, 1);
  h->name = g_strdup (name);
  h->jobs = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (hosts, h);
  return h;
}

/* The hosts of @list (fio's "jobs", or a client's "client_stats") and their jobs. */
static GPtrArray *
group_hosts (JsonArray  *list,
             JsonObject *global,
             gboolean    client,
             GError    **error)
{
  g_autoptr(GPtrArray) hosts = g_ptr_array_new_with_free_func ((GDestroyNotify) fio_host_free);
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  guint n = json_array_get_length (list);

  if (n == 0)
    {
      nsc_error_set (error, NSC_PROBLEM_FIO_NO_JOBS, &(NscErrorFields) { 0 });
      return NULL;
    }
  if (n > MOST_JOBS)
    {
      nsc_error_set (error, NSC_PROBLEM_FIO_TOO_MANY_JOBS, &(NscErrorFields) { .n = n, .n2 = MOST_JOBS });
      return NULL;
    }
  /* A host name that two servers share (two on one machine) takes its port too. */
  for (guint i = 0; client && i < n; i++)
    {
      JsonObject *e = json_array_get_object_element (list, i);
      const char *host = e ? nsc_json_get_string (e, "hostname") : NULL;
      double port = 0;
      g_autofree char *key = NULL;

      if (host == NULL || !get_number (e, "port", i + 1, FALSE, &port, NULL))
        continue;
      key = g_strdup_printf ("%s:%u", host, (guint) port);
      if (!g_hash_table_contains (names, host))
        g_hash_table_insert (names, (gpointer) host, g_strdup (key));
      else if (g_strcmp0 (g_hash_table_lookup (names, host), key) != 0)
        g_hash_table_insert (names, (gpointer) host, NULL);
    }
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (list, i);
      JsonObject *e = node && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *jobname = e ? nsc_json_get_string (e, "jobname") : NULL;
      g_autofree char *name = NULL;
      FioHost *h;
      FioJob *j;
      const char *bad = NULL;

      if (e == NULL)
        {
          fail_member (error, i + 1, "jobs");
          return NULL;
        }
      if (jobname == NULL)
        {
          fail_member (error, i + 1, "jobname");
          return NULL;
        }
      if (client)
        {
          const char *host = nsc_json_get_string (e, "hostname");
          double port = 0;

          /* fio's sum over its clients: not a host. */
          if (g_str_equal (jobname, "All clients"))
            continue;
          if (host == NULL)
            {
              fail_member (error, i + 1, "hostname");
              return NULL;
            }
          if (!get_number (e, "port", i + 1, FALSE, &port, error))
            return NULL;
          name = g_hash_table_contains (names, host) && g_hash_table_lookup (names, host) == NULL
                 ? g_strdup_printf ("%s:%u", host, (guint) port) : g_strdup (host);
        }
      h = host_for (hosts, name);
      if (h->log_suffix == NULL)
        h->log_suffix = client ? g_strconcat (".", nsc_json_get_string (e, "hostname"), NULL) : g_strdup ("");
      j = g_new0 (FioJob, 1);
      j->entry = e;
      j->global = global;
      j->index = i + 1;
      j->log = 1;
      if (h->jobs->len > 0)
        {
          FioJob *prev = g_ptr_array_index (h->jobs, h->jobs->len - 1);
          guint clones = option_true (prev, "group_reporting")
                         ? MAX (option_count (prev, "numjobs", 1, MOST_JOBS, &bad), 1u) : 1;

          j->log = prev->log + clones;
        }
      g_ptr_array_add (h->jobs, j);
    }
  if (hosts->len == 0)
    {
      nsc_error_set (error, NSC_PROBLEM_FIO_NO_JOBS, &(NscErrorFields) { 0 });
      return NULL;
    }
  return g_steal_pointer (&hosts);
}

/* What an imported run's data cannot support, for the result's "not_supported". */
static const char *const not_supported[] = {
  "read-inflation",     /* no settled control: fio does not write past a cache first */
  "cache-recovery",     /* no idle between fills, as the presets time them */
  "capacity",           /* fio's data does not name its place */
  "device",             /* the drive's facts were not read */
  "temperature",
};

static JsonNode *
host_result (JsonObject *root,
             FioHost    *h,
             const char *logs,
             GError    **error)
{
  g_autoptr(NscRunResult) r = nsc_run_result_new ();
  g_autoptr(GArray) extras = g_array_new (FALSE, TRUE, sizeof (StepExtra));
  g_autoptr(GString) engines = g_string_new (NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  char preset[64] = "";
  gboolean one_preset = TRUE;
  const char *version = nsc_json_get_string (root, "fio version");
  const FioJob *first = g_ptr_array_index (h->jobs, 0);
  const char *filename = option (first, "filename");
  double stamp = 0;
  gboolean buffered = FALSE;
  JsonNode *node;
  JsonObject *o, *source;
  JsonArray *steps, *list;
  gboolean ok = TRUE;

  if (!get_number (root, "timestamp", 0, FALSE, &stamp, error))
    return NULL;
  r->started = stamp > 0 ? g_date_time_new_from_unix_utc ((gint64) stamp) : NULL;
  r->preset_name = g_strdup ("fio");
  r->preset_title = g_strdup_printf ("fio: %s", nsc_json_get_string (first->entry, "jobname"));
  r->target_path = g_strdup (filename ? filename : option (first, "directory") ? option (first, "directory") : "");
  r->target_kind = g_strdup (filename && g_str_has_prefix (filename, "/dev/") ? "device" : "file");
  /* What it ran on, as far as fio says: the machine and the file or device. */
  r->target_description = h->name ? g_strdup_printf ("%s: %s", h->name, r->target_path) : g_strdup (r->target_path);
  r->backend_requested = g_strdup ("fio");
  r->runs = 1;
  for (guint i = 0; ok && i < h->jobs->len; i++)
    {
      const FioJob *j = g_ptr_array_index (h->jobs, i);
      const char *jobname = nsc_json_get_string (j->entry, "jobname");
      guint repeat = GPOINTER_TO_UINT (g_hash_table_lookup (seen, jobname));
      Exported e;
      StepExtra *x;
      NscStepResult *sr;
      guint touched = 0;
      gboolean from_preset = exported (j, &e);

      g_hash_table_insert (seen, (gpointer) jobname, GUINT_TO_POINTER (repeat + 1));
      if (!(ok = add_job (r, j, from_preset ? &e : NULL, repeat, logs, h->log_suffix, extras, &touched, error)))
        break;
      x = &g_array_index (extras, StepExtra, touched);
      sr = g_ptr_array_index (r->steps, touched);
      if (x->idle)
        {
          r->duration_ns += sr->duration_ns;
          continue;
        }
      /* All of one exported preset: a result of that preset. */
      if (!from_preset)
        one_preset = FALSE;
      else if (preset[0] == '\0')
        g_strlcpy (preset, e.preset, sizeof preset);
      else
        one_preset &= g_str_equal (preset, e.preset);
      if (x->engine && !strstr (engines->str, x->engine))
        g_string_append_printf (engines, "%s%s", engines->len ? ", " : "", x->engine);
      buffered |= !option_true (j, "direct");
      r->duration_ns += ((NscJobResult *) g_ptr_array_index (sr->runs, sr->runs->len - 1))->runtime_ns;
    }
  for (guint i = 0; ok && i < r->steps->len; i++)
    r->runs = MAX (r->runs, ((NscStepResult *) g_ptr_array_index (r->steps, i))->runs->len);
  if (ok && one_preset && preset[0])
    {
      g_autoptr(NscPreset) known = nsc_preset_lookup (preset, NULL);

      g_free (r->preset_name);
      g_free (r->preset_title);
      r->preset_name = g_strdup (preset);
      r->preset_title = g_strdup (known ? known->title : preset);
    }
  if (!ok)
    {
      for (guint i = 0; i < extras->len; i++)
        step_extra_clear (&g_array_index (extras, StepExtra, i));
      return NULL;
    }
  /* The target was fio's: what stood between it and the drive was not seen here, or
   * it was this machine's memory (fio without direct I/O). */
  r->system_cache.certainty = buffered ? NSC_SYSTEM_CACHE_MEMORY : NSC_SYSTEM_CACHE_POSSIBLE;
  r->system_cache.kind = g_strdup (buffered ? "fio-buffered" : "fio");
  r->system_cache.device = g_strdup (r->target_path[0] ? r->target_path : "?");
  nsc_run_result_analyze (r);
  node = nsc_run_result_to_json (r);
  o = json_node_get_object (node);

  /* fio's own figures where the result has none of its own. */
  steps = json_object_get_array_member (o, "steps");
  for (guint i = 0; i < json_array_get_length (steps) && i < extras->len; i++)
    {
      StepExtra *x = &g_array_index (extras, StepExtra, i);
      JsonObject *s = json_array_get_object_element (steps, i);
      JsonArray *runs = nsc_json_get_array (s, "runs");

      if (x->idle)
        continue;
      if (x->interval_ns > 0 && nsc_json_get_object (s, "series"))
        json_object_set_int_member (nsc_json_get_object (s, "series"), "interval_ns", x->interval_ns);
      set_latency (s, x->lat);
      json_object_set_string_member (s, "backend", x->engine);
      for (guint k = 0; runs && k < json_array_get_length (runs); k++)
        json_object_set_string_member (json_array_get_object_element (runs, k), "backend", x->engine);
      if (x->no_series)
        json_object_set_string_member (s, "fio_note", "group_reporting over more than 256 clones: their logs are not joined");
      step_extra_clear (x);
    }
  /* Where it came from, and what its data cannot support. */
  source = json_object_new ();
  json_object_set_string_member (source, "tool", "fio");
  json_object_set_string_member (source, "version", version ? version : "");
  if (nsc_json_get_string (root, "time"))
    json_object_set_string_member (source, "time", nsc_json_get_string (root, "time"));
  if (h->name)
    json_object_set_string_member (source, "host", h->name);
  json_object_set_string_member (source, "ioengines", engines->str);
  json_object_set_boolean_member (source, "logs", logs != NULL);
  list = json_array_new ();
  for (guint i = 0; i < G_N_ELEMENTS (not_supported); i++)
    json_array_add_string_element (list, not_supported[i]);
  json_object_set_array_member (source, "not_supported", list);
  json_object_set_object_member (o, "source", source);
  /* The machine fio ran on is not this one. */
  json_object_set_object_member (o, "system", json_object_new ());
  return node;
}

GPtrArray *
nsc_fio_import (const char  *text,
                gssize       length,
                const char  *logs,
                GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) local = NULL;
  g_autoptr(GPtrArray) hosts = NULL;
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  gsize len, rest;
  const char *start;
  JsonNode *root;
  JsonObject *o;
  JsonArray *list;
  gboolean client;

  g_return_val_if_fail (text != NULL, NULL);

  len = length < 0 ? strlen (text) : (gsize) length;
  start = json_start (text, len, &rest);
  if (nsc_json_nesting_depth (start, rest, NSC_JSON_MAX_DEPTH) > NSC_JSON_MAX_DEPTH)
    {
      nsc_error_set (error, NSC_PROBLEM_FIO_TOO_DEEP, &(NscErrorFields) { .n = NSC_JSON_MAX_DEPTH });
      return NULL;
    }
  if (!json_parser_load_from_data (parser, start, (gssize) rest, &local))
    {
      nsc_error_set (error, NSC_PROBLEM_FIO_DAMAGED, &(NscErrorFields) { .text = local->message });
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root)
      || nsc_json_get_string (json_node_get_object (root), "fio version") == NULL)
    {
      nsc_error_set (error, NSC_PROBLEM_FIO_NOT_FIO, &(NscErrorFields) { 0 });
      return NULL;
    }
  o = json_node_get_object (root);
  client = (list = nsc_json_get_array (o, "client_stats")) != NULL;
  if (!client && !(list = nsc_json_get_array (o, "jobs")))
    {
      nsc_error_set (error, NSC_PROBLEM_FIO_NO_JOBS, &(NscErrorFields) { 0 });
      return NULL;
    }
  if (!(hosts = group_hosts (list, nsc_json_get_object (o, "global options"), client, error)))
    return NULL;
  for (guint i = 0; i < hosts->len; i++)
    {
      JsonNode *result = host_result (o, g_ptr_array_index (hosts, i), logs, error);

      if (result == NULL)
        return NULL;
      g_ptr_array_add (results, result);
    }
  return g_steal_pointer (&results);
}

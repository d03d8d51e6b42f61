/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include <string.h>

#include "nsc-error.h"
#include "nsc-presets-resources.h"
#include "nsc-preset.h"
#include "nsc-units.h"
#include "nsc-verify.h"

#define PRESET_PATH "/io/github/nandscope/Nandscope/presets/"

/* The engine is a static library: a constructor in it would be dropped by the
 * linker, so the presets are registered on first use. */
static void
ensure_resources (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      nsc_presets_register_resource ();
      g_once_init_leave (&done, 1);
    }
}

void
nsc_preset_free (NscPreset *preset)
{
  if (preset == NULL)
    return;
  g_free (preset->name);
  g_free (preset->title);
  g_free (preset->description);
  g_free (preset->category);
  g_clear_pointer (&preset->steps, g_array_unref);
  g_free (preset);
}

static gboolean
get_size (JsonObject  *obj,
          const char  *member,
          guint64     *out,
          GError     **error)
{
  JsonNode *node = json_object_get_member (obj, member);

  if (node == NULL)
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    {
      gint64 v = json_node_get_int (node);
      if (v < 0)
        goto bad;
      *out = (guint64) v;
      return TRUE;
    }
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return nsc_parse_size (json_node_get_string (node), out, error);
bad:
  nsc_error_set (error, NSC_PROBLEM_PRESET_MEMBER_SIZE, &(NscErrorFields) { .text = member });
  return FALSE;
}

/* A size, or a share of the target such as "50%". */
static gboolean
get_size_or_share (JsonObject  *obj,
                   const char  *member,
                   guint64     *out,
                   double      *share,
                   GError     **error)
{
  const char *s = NULL;
  JsonNode *node = json_object_get_member (obj, member);

  if (node && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    s = json_node_get_string (node);
  if (s && g_str_has_suffix (s, "%"))
    {
      char *end = NULL;
      double v = g_ascii_strtod (s, &end);

      if (end == s || *end != '%' || end[1] != '\0' || !(v >= 0 && v <= 100))
        {
          nsc_error_set (error, NSC_PROBLEM_PRESET_MEMBER_SHARE, &(NscErrorFields) { .text = member });
          return FALSE;
        }
      *share = v / 100.0;
      return TRUE;
    }
  return get_size (obj, member, out, error);
}

static gboolean
get_duration (JsonObject  *obj,
              const char  *member,
              gint64      *out,
              gboolean    *was_set,
              GError     **error)
{
  JsonNode *node = json_object_get_member (obj, member);

  if (node == NULL)
    return TRUE;
  if (was_set)
    *was_set = TRUE;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return nsc_parse_duration (json_node_get_string (node), out, error);
  nsc_error_set (error, NSC_PROBLEM_PRESET_MEMBER_DURATION, &(NscErrorFields) { .text = member });
  return FALSE;
}

static gboolean
get_uint (JsonObject  *obj,
          const char  *member,
          guint        max,
          guint       *out,
          GError     **error)
{
  JsonNode *node = json_object_get_member (obj, member);
  gint64 v;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64
      || (v = json_node_get_int (node)) < 0 || v > max)
    {
      nsc_error_set (error, NSC_PROBLEM_PRESET_MEMBER_COUNT,
                     &(NscErrorFields) { .text = member, .n = max });
      return FALSE;
    }
  *out = (guint) v;
  return TRUE;
}

static gboolean
get_bool (JsonObject  *obj,
          const char  *member,
          gboolean    *out,
          GError     **error)
{
  JsonNode *node = json_object_get_member (obj, member);

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      nsc_error_set (error, NSC_PROBLEM_PRESET_MEMBER_BOOLEAN, &(NscErrorFields) { .text = member });
      return FALSE;
    }
  *out = json_node_get_boolean (node);
  return TRUE;
}

static const char *
get_string (JsonObject *obj,
            const char *member)
{
  JsonNode *node = json_object_get_member (obj, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
parse_step (JsonObject  *obj,
            NscStep     *step,
            GError     **error)
{
  const char *kind = get_string (obj, "kind");
  const char *s;

  memset (step, 0, sizeof *step);
  nsc_job_init (&step->job);
  step->job.time_ns = 0;

  if (kind == NULL || g_str_equal (kind, "job"))
    step->kind = NSC_STEP_JOB;
  else if (g_str_equal (kind, "idle"))
    step->kind = NSC_STEP_IDLE;
  else if (g_str_equal (kind, "fill"))
    step->kind = NSC_STEP_FILL;
  else if (g_str_equal (kind, "trim"))
    step->kind = NSC_STEP_TRIM;
  else if (g_str_equal (kind, "surface"))
    step->kind = NSC_STEP_SURFACE;
  else if (g_str_equal (kind, "erase"))
    step->kind = NSC_STEP_ERASE;
  else if (g_str_equal (kind, "copy"))
    step->kind = NSC_STEP_COPY;
  else if (g_str_equal (kind, "probe"))
    step->kind = NSC_STEP_PROBE;
  else
    {
      nsc_error_set (error, NSC_PROBLEM_PRESET_STEP_KIND, &(NscErrorFields) { .text = kind });
      return FALSE;
    }

  if (step->kind == NSC_STEP_IDLE)
    return get_duration (obj, "time", &step->idle_ns, NULL, error);

  if ((s = get_string (obj, "label")))
    g_strlcpy (step->job.label, s, sizeof step->job.label);
  if ((s = get_string (obj, "rw")) && !nsc_job_set_rw (&step->job, s, error))
    return FALSE;
  if ((s = get_string (obj, "data")) && !nsc_data_pattern_from_string (s, &step->job.data, error))
    return FALSE;

  if ((s = get_string (obj, "analysis")))
    g_strlcpy (step->analysis, s, sizeof step->analysis);
  if ((s = get_string (obj, "bs")) && g_str_equal (s, "min"))
    {
      step->min_block = TRUE;
      step->job.block_size = 4096; /* resolved against the target when the step runs */
    }
  else if (!get_size (obj, "bs", &step->job.block_size, error))
    return FALSE;
  step->offset_pct = step->span_pct = -1;
  if ((s = get_string (obj, "span")) && g_str_equal (s, "all"))
    step->job.region_length = 0;
  else if (!get_size_or_share (obj, "span", &step->job.region_length, &step->span_pct, error)
           || !get_size_or_share (obj, "offset", &step->job.region_offset, &step->offset_pct, error))
    return FALSE;

  if (!get_uint (obj, "points", 10000, &step->points, error)
      || !get_uint (obj, "files", 1000000, &step->files, error)
      || !get_size (obj, "span_max", &step->span_max, error)
      || !get_size (obj, "cache_max", &step->cache_max, error)
      || !get_size (obj, "sample_bytes", &step->job.sample_bytes, error)
      || !get_duration (obj, "interval", &step->job.sample_interval_ns, NULL, error)
      || !get_uint (obj, "qd", NSC_JOB_MAX_QUEUE_DEPTH, &step->job.queue_depth, error)
      || !get_uint (obj, "threads", NSC_JOB_MAX_WORKERS, &step->job.workers, error)
      || !get_uint (obj, "mix", 100, &step->job.read_percent, error)
      || !get_bool (obj, "no_prefill", &step->no_prefill, error)
      || !get_bool (obj, "skip_unaligned", &step->skip_unaligned, error)
      || !get_size (obj, "size", &step->job.bytes, error)
      || !get_bool (obj, "once", &step->job.once, error)
      || !get_bool (obj, "shared", &step->job.shared_region, error)
      || !get_duration (obj, "time", &step->job.time_ns, &step->time_is_set, error)
      || !get_duration (obj, "ramp", &step->job.ramp_ns, NULL, error)
      || !nsc_stop_rule_parse (obj, &step->stop, error))
    return FALSE;
  {
    gboolean strict = TRUE;

    if (!get_bool (obj, "strict", &strict, error))
      return FALSE;
    step->no_strict = !strict;
  }

  if (step->kind == NSC_STEP_FILL || step->kind == NSC_STEP_TRIM || step->kind == NSC_STEP_ERASE
      || step->kind == NSC_STEP_PROBE)
    {
      step->job.read_percent = 0;
      step->job.once = TRUE;
    }
  if (step->kind == NSC_STEP_SURFACE && step->points < 2)
    {
      nsc_error_set (error, NSC_PROBLEM_PRESET_SURFACE_POINTS, NULL);
      return FALSE;
    }
  return TRUE;
}

static NscPreset *preset_lookup (const char *name, gboolean allow_include, GError **error);

static NscPreset *
preset_new_from_data (const char  *data,
                      gsize        length,
                      gboolean     allow_include,
                      GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(NscPreset) preset = g_new0 (NscPreset, 1);
  g_autoptr(GError) local_error = NULL;
  JsonObject *root;
  JsonNode *steps_node;
  JsonArray *steps;
  const char *s;
  guint own_group;

  if (!json_parser_load_from_data (parser, data, (gssize) length, &local_error))
    {
      nsc_error_set (error, NSC_PROBLEM_PRESET_NOT_JSON,
                     &(NscErrorFields) { .text = local_error->message });
      return NULL;
    }
  if (json_parser_get_root (parser) == NULL
      || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      nsc_error_set (error, NSC_PROBLEM_PRESET_NOT_OBJECT, NULL);
      return NULL;
    }
  root = json_node_get_object (json_parser_get_root (parser));

  if ((s = get_string (root, "name")) == NULL)
    {
      nsc_error_set (error, NSC_PROBLEM_PRESET_NO_NAME, NULL);
      return NULL;
    }
  preset->name = g_strdup (s);
  preset->title = g_strdup ((s = get_string (root, "title")) ? s : preset->name);
  preset->description = g_strdup ((s = get_string (root, "description")) ? s : "");
  preset->category = g_strdup (get_string (root, "category"));
  preset->file_size = G_GUINT64_CONSTANT (1) << 30;
  preset->runs = 1;
  preset->time_ns = 5 * G_GINT64_CONSTANT (1000000000);

  preset->prepare = TRUE;
  if ((s = get_string (root, "file_size")) && g_str_equal (s, "free"))
    preset->file_size = NSC_TARGET_SIZE_FREE;
  else if (!get_size (root, "file_size", &preset->file_size, error))
    return NULL;

  if (!get_bool (root, "destructive", &preset->destructive, error)
      || !get_bool (root, "needs_device", &preset->needs_device, error)
      || !get_bool (root, "prepare", &preset->prepare, error)
      || !get_uint (root, "runs", 1000, &preset->runs, error)
      || !get_duration (root, "time", &preset->time_ns, NULL, error)
      || !get_duration (root, "settle", &preset->settle_ns, NULL, error))
    return NULL;
  if (preset->runs == 0)
    preset->runs = 1;

  preset->steps = g_array_new (FALSE, TRUE, sizeof (NscStep));

  /* A suite is other presets in order ("include"), then its own steps, if any. */
  if (json_object_has_member (root, "include"))
    {
      JsonNode *inc = json_object_get_member (root, "include");

      if (!allow_include || !JSON_NODE_HOLDS_ARRAY (inc))
        {
          nsc_error_set (error, allow_include ? NSC_PROBLEM_PRESET_INCLUDE
                                              : NSC_PROBLEM_PRESET_INCLUDE_NESTED, NULL);
          return NULL;
        }
      for (guint i = 0; i < json_array_get_length (json_node_get_array (inc)); i++)
        {
          JsonNode *n = json_array_get_element (json_node_get_array (inc), i);
          g_autoptr(NscPreset) part = NULL;

          if (!JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
            {
              nsc_error_set (error, NSC_PROBLEM_PRESET_INCLUDE, NULL);
              return NULL;
            }
          if (!(part = preset_lookup (json_node_get_string (n), FALSE, error)))
            return NULL;
          /* A part keeps its own length, runs and settling: a suite's defaults do not
           * change what Quick measures inside it. */
          for (guint k = 0; k < part->steps->len; k++)
            {
              NscStep *ps = &g_array_index (part->steps, NscStep, k);

              ps->group = i;
              ps->group_time_ns = part->time_ns;
              ps->group_runs = part->runs;
              ps->group_settle_ns = part->settle_ns;
            }
          g_array_append_vals (preset->steps, part->steps->data, part->steps->len);
        }
    }

  steps_node = json_object_get_member (root, "steps");
  own_group = preset->steps->len > 0 ? g_array_index (preset->steps, NscStep, preset->steps->len - 1).group + 1 : 0;
  if (steps_node == NULL && preset->steps->len > 0)
    return g_steal_pointer (&preset);
  if (steps_node == NULL || !JSON_NODE_HOLDS_ARRAY (steps_node)
      || json_array_get_length (json_node_get_array (steps_node)) == 0)
    {
      nsc_error_set (error, NSC_PROBLEM_PRESET_NO_STEPS, NULL);
      return NULL;
    }
  steps = json_node_get_array (steps_node);

  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      JsonNode *node = json_array_get_element (steps, i);
      g_autoptr(GError) step_error = NULL;
      NscStep step;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          nsc_error_set (error, NSC_PROBLEM_PRESET_STEP_NOT_OBJECT,
                         &(NscErrorFields) { .n = i + 1, .text = preset->name });
          return NULL;
        }
      if (!parse_step (json_node_get_object (node), &step, &step_error))
        {
          nsc_error_set (error, NSC_PROBLEM_PRESET_STEP,
                         &(NscErrorFields) { .n = i + 1, .text = preset->name,
                                             .text2 = step_error->message });
          return NULL;
        }
      step.group = own_group;
      step.group_settle_ns = preset->settle_ns;
      g_array_append_val (preset->steps, step);
    }

  return g_steal_pointer (&preset);
}

NscPreset *
nsc_preset_new_from_data (const char  *data,
                          gsize        length,
                          GError     **error)
{
  return preset_new_from_data (data, length, TRUE, error);
}

char **
nsc_preset_list_names (void)
{
  g_auto(GStrv) names = NULL;
  GPtrArray *out = g_ptr_array_new ();
  /* The CrystalDiskMark-compatible set first: it is what a new user runs. */
  static const char *first[] = {
    "quick", "quick-nvme", "quick-random", "seq-qd", "rnd-qd", "bs-sweep", "bs-sweep-classic",
    "mixed", "write-fill", "write-fill-twice", "cache-recovery", "degradation", "fill-state",
    "trim-latency", "response-time", "workers", "thermal", "surface", "surface-write", "review",
    "compressibility", "mixed-block", "seq-qd-64k", "thermal-qd4", "hardcore", "recovery-no-trim", "erase", "copy", "probe", "verify",
    NULL,
  };

  ensure_resources ();
  names = g_resources_enumerate_children (PRESET_PATH, 0, NULL);

  for (guint i = 0; first[i]; i++)
    {
      g_autofree char *file = g_strconcat (first[i], ".json", NULL);
      if (names && g_strv_contains ((const char * const *) names, file))
        g_ptr_array_add (out, g_strdup (first[i]));
    }

  for (guint i = 0; names && names[i]; i++)
    {
      g_autofree char *name = NULL;

      if (!g_str_has_suffix (names[i], ".json"))
        continue;
      name = g_strndup (names[i], strlen (names[i]) - 5);
      if (!g_strv_contains ((const char * const *) first, name))
        g_ptr_array_add (out, g_steal_pointer (&name));
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

static NscPreset *
preset_lookup (const char  *name,
               gboolean     allow_include,
               GError     **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize len;
  const char *data;

  ensure_resources ();
  path = g_strconcat (PRESET_PATH, name, ".json", NULL);
  if (strchr (name, '/') != NULL
      || !(bytes = g_resources_lookup_data (path, 0, NULL)))
    {
      g_auto(GStrv) names = nsc_preset_list_names ();
      g_autofree char *known = g_strjoinv (", ", names);
      nsc_error_set (error, NSC_PROBLEM_PRESET_UNKNOWN,
                     &(NscErrorFields) { .text = name, .text2 = known });
      return NULL;
    }
  data = g_bytes_get_data (bytes, &len);
  return preset_new_from_data (data, len, allow_include, error);
}

NscPreset *
nsc_preset_lookup (const char  *name,
                   GError     **error)
{
  g_return_val_if_fail (name != NULL, NULL);
  return preset_lookup (name, TRUE, error);
}

NscPreset *
nsc_preset_new_single (const NscJob *job)
{
  NscPreset *preset = g_new0 (NscPreset, 1);
  NscStep step = { 0 };

  preset->name = g_strdup ("custom");
  /* Translators: the title of a run of one test set up on the command line */
  preset->title = g_strdup (N_("Custom job"));
  preset->description = g_strdup ("One job given on the command line");
  preset->runs = 1;
  preset->time_ns = job->time_ns;
  preset->prepare = TRUE;
  preset->file_size = G_GUINT64_CONSTANT (1) << 30;
  preset->steps = g_array_new (FALSE, TRUE, sizeof (NscStep));
  step.kind = NSC_STEP_JOB;
  step.job = *job;
  step.time_is_set = TRUE;
  step.offset_pct = step.span_pct = -1;
  g_array_append_val (preset->steps, step);
  return preset;
}

/* Durations added and multiplied without overflowing: a preset may ask for hours
 * times a thousand runs, and the answer is then "very long", not negative. */
gint64
nsc_duration_add (gint64 a,
                  gint64 b)
{
  gint64 r;

  if (a < 0 || b < 0 || __builtin_add_overflow (a, b, &r))
    return G_MAXINT64;
  return r;
}

gint64
nsc_duration_mul (gint64 a,
                  gint64 n)
{
  gint64 r;

  if (a < 0 || n < 0 || __builtin_mul_overflow (a, n, &r))
    return G_MAXINT64;
  return r;
}

NscPreset *
nsc_preset_copy (const NscPreset *p)
{
  NscPreset *c = g_new0 (NscPreset, 1);

  g_return_val_if_fail (p != NULL, NULL);

  *c = *p;
  c->name = g_strdup (p->name);
  c->title = g_strdup (p->title);
  c->description = g_strdup (p->description);
  c->category = g_strdup (p->category);
  c->steps = g_array_copy (p->steps);
  return c;
}

guint
nsc_surface_points (guint   points,
                    guint   block_size,
                    guint64 span)
{
  g_return_val_if_fail (block_size > 0, 1);

  return (guint) MAX (MIN ((guint64) points, span / block_size), 1);
}

guint64
nsc_surface_place_offset (guint   p,
                          guint   points,
                          guint64 per,
                          guint64 span,
                          guint   block_size)
{
  guint64 room = span > per ? span - per : 0, at;

  g_return_val_if_fail (block_size > 0, 0);

  if (points < 2)
    return 0;
  /* room × p / (points − 1), without room × p overflowing. */
  at = room / (points - 1) * p + room % (points - 1) * p / (points - 1);
  return at - at % block_size;
}

/* What Quick writes past the cache after its settled control's data: a bit more than
 * the cache (it is measured where its speed fell; 0: none known, the documented
 * default), in whole blocks of @align (a measured cache is any number of bytes),
 * capped by --span (@span_cap, 0: none). The run and its write budget both size it
 * here. */
guint64
nsc_settled_flush_bytes (guint64   cache_bytes,
                         guint64   span_cap,
                         guint     align,
                         gboolean *capped)
{
  guint64 want = cache_bytes ? cache_bytes + cache_bytes / 8 : NSC_SETTLED_FLUSH_DEFAULT;

  g_return_val_if_fail (align > 0, 0);

  want += (align - want % align) % align;
  if (capped)
    *capped = span_cap && want > span_cap;
  return span_cap ? MIN (want, span_cap) : want;
}

guint64
nsc_surface_place_bytes (guint64 bytes,
                         guint   block_size,
                         guint   points,
                         guint64 span)
{
  guint64 per = bytes ? bytes : G_GUINT64_CONSTANT (64) << 20;

  g_return_val_if_fail (block_size > 0, 0);

  if (points > 1)
    per = MIN (per, MAX (span / points, (guint64) block_size));
  per = MIN (per, span);
  per -= per % block_size;
  return MAX (per, (guint64) block_size);
}

NscPreset *
nsc_preset_with_verify (const NscPreset *preset)
{
  g_autoptr(NscPreset) c = NULL;
  gboolean any = FALSE;

  g_return_val_if_fail (preset != NULL, NULL);

  c = nsc_preset_copy (preset);
  /* The capacity check reads its writes back already. */
  for (guint i = 0; i < c->steps->len; i++)
    if (g_str_equal (g_array_index (c->steps, NscStep, i).analysis, "verify"))
      return g_steal_pointer (&c);
  for (guint i = 0; i < c->steps->len; i++)
    {
      NscStep *s = &g_array_index (c->steps, NscStep, i);
      NscStep back;

      if (s->kind != NSC_STEP_JOB || !g_str_equal (s->analysis, "write-fill")
          || s->job.pattern != NSC_PATTERN_SEQUENTIAL || s->job.read_percent != 0 || !s->job.once
          || s->span_pct >= 0 || s->job.region_length != 0 || s->job.region_offset != 0
          || s->offset_pct >= 0 || s->job.block_size % NSC_VERIFY_UNIT != 0)
        continue;
      s->job.data = NSC_DATA_VERIFY;
      back = *s;
      g_strlcpy (back.job.label, "Read back and check", sizeof back.job.label);
      back.job.read_percent = 100;
      g_strlcpy (back.analysis, "verify", sizeof back.analysis);
      /* The write's stop rule is the write's; the read covers all it wrote. */
      memset (&back.stop, 0, sizeof back.stop);
      back.no_strict = TRUE;
      back.no_prefill = TRUE;
      g_array_insert_val (c->steps, i + 1, back);
      i++;
      any = TRUE;
    }
  /* A surface scan that writes its places and reads the same places later (after its
   * idle): both carry checked data, and its read judges what the places held. */
  for (guint i = 0; i < c->steps->len; i++)
    {
      NscStep *w = &g_array_index (c->steps, NscStep, i);

      if (w->kind != NSC_STEP_SURFACE || w->job.read_percent != 0
          || w->job.block_size % NSC_VERIFY_UNIT != 0)
        continue;
      for (guint j = i + 1; j < c->steps->len; j++)
        {
          NscStep *r = &g_array_index (c->steps, NscStep, j);

          if (r->kind != NSC_STEP_SURFACE)
            continue;
          if (r->job.read_percent == 100 && r->points == w->points && r->job.bytes == w->job.bytes
              && r->job.block_size == w->job.block_size && r->span_pct == w->span_pct
              && r->offset_pct == w->offset_pct && r->job.region_offset == w->job.region_offset
              && r->job.region_length == w->job.region_length)
            {
              w->job.data = NSC_DATA_VERIFY;
              r->job.data = NSC_DATA_VERIFY;
              any = TRUE;
            }
          break;
        }
    }
  return any ? g_steal_pointer (&c) : NULL;
}

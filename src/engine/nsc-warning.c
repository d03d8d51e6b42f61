/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "nsc-warning.h"

static const struct
{
  const char *code;
  gboolean    marks;
} kinds[] = {
#define NSC_WARNING_ENTRY_(name, code, marks) [NSC_WARNING_##name] = { code, marks },
  NSC_WARNING_KINDS (NSC_WARNING_ENTRY_)
#undef NSC_WARNING_ENTRY_
};

G_STATIC_ASSERT (G_N_ELEMENTS (kinds) == NSC_N_WARNING_KINDS);

const char *
nsc_warning_kind_code (NscWarningKind kind)
{
  return kind >= 0 && kind < NSC_N_WARNING_KINDS ? kinds[kind].code : NULL;
}

NscWarningKind
nsc_warning_kind_from_code (const char *code)
{
  for (int k = 0; code != NULL && k < NSC_N_WARNING_KINDS; k++)
    if (g_str_equal (kinds[k].code, code))
      return (NscWarningKind) k;
  return NSC_WARNING_UNKNOWN;
}

gboolean
nsc_warning_kind_marks_result (NscWarningKind kind)
{
  return kind >= 0 && kind < NSC_N_WARNING_KINDS && kinds[kind].marks;
}

static NscWarning *
warning_new_with_code (const char *code,
                       int         step)
{
  NscWarning *w = g_new0 (NscWarning, 1);

  w->kind = nsc_warning_kind_from_code (code);
  w->code = g_strdup (code);
  w->step = step;
  w->bps_before = w->bps_after = NAN;
  w->bps_fresh = w->bps_settled = NAN;
  w->bps_random = w->bps_compressible = w->bps_zeros = NAN;
  w->bytes = w->bytes_before = w->cache_bytes = -1;
  w->seconds = w->celsius = w->celsius_limit = NAN;
  w->link_generation = w->link_width = w->link_max_generation = w->link_max_width = -1;
  w->vendor_id = w->expected_vendor_id = -1;
  return w;
}

NscWarning *
nsc_warning_new (NscWarningKind kind,
                 int            step)
{
  g_return_val_if_fail (kind >= 0 && kind < NSC_N_WARNING_KINDS, NULL);

  return warning_new_with_code (kinds[kind].code, step);
}

void
nsc_warning_free (NscWarning *w)
{
  if (w == NULL)
    return;
  g_free (w->code);
  g_free (w->message);
  g_free (w->position);
  g_free (w->test);
  g_free (w->subject);
  g_free (w->cache_kind);
  g_free (w->cache_device);
  g_free (w->cache_detail);
  g_free (w);
}

NscWarning *
nsc_warning_copy (const NscWarning *w)
{
  NscWarning *c = g_memdup2 (w, sizeof *w);

  c->code = g_strdup (w->code);
  c->message = g_strdup (w->message);
  c->position = g_strdup (w->position);
  c->test = g_strdup (w->test);
  c->subject = g_strdup (w->subject);
  c->cache_kind = g_strdup (w->cache_kind);
  c->cache_device = g_strdup (w->cache_device);
  c->cache_detail = g_strdup (w->cache_detail);
  return c;
}

void
nsc_warning_set_message (NscWarning *w,
                         const char *format,
                         ...)
{
  va_list args;

  va_start (args, format);
  g_free (w->message);
  w->message = g_strdup_vprintf (format, args);
  va_end (args);
}

/* The typed fields, by name, for the JSON both ways. */
typedef enum { FIELD_DOUBLE, FIELD_BYTES, FIELD_INT } FieldType;

static const struct {
  const char *name;
  FieldType   type;
  gsize       offset;
} fields[] = {
  { "bps_before", FIELD_DOUBLE, G_STRUCT_OFFSET (NscWarning, bps_before) },
  { "bps_after", FIELD_DOUBLE, G_STRUCT_OFFSET (NscWarning, bps_after) },
  { "bps_fresh", FIELD_DOUBLE, G_STRUCT_OFFSET (NscWarning, bps_fresh) },
  { "bps_settled", FIELD_DOUBLE, G_STRUCT_OFFSET (NscWarning, bps_settled) },
  { "bps_random", FIELD_DOUBLE, G_STRUCT_OFFSET (NscWarning, bps_random) },
  { "bps_compressible", FIELD_DOUBLE, G_STRUCT_OFFSET (NscWarning, bps_compressible) },
  { "bps_zeros", FIELD_DOUBLE, G_STRUCT_OFFSET (NscWarning, bps_zeros) },
  { "bytes", FIELD_BYTES, G_STRUCT_OFFSET (NscWarning, bytes) },
  { "bytes_before", FIELD_BYTES, G_STRUCT_OFFSET (NscWarning, bytes_before) },
  { "cache_bytes", FIELD_BYTES, G_STRUCT_OFFSET (NscWarning, cache_bytes) },
  { "seconds", FIELD_DOUBLE, G_STRUCT_OFFSET (NscWarning, seconds) },
  { "celsius", FIELD_DOUBLE, G_STRUCT_OFFSET (NscWarning, celsius) },
  { "celsius_limit", FIELD_DOUBLE, G_STRUCT_OFFSET (NscWarning, celsius_limit) },
  { "link_generation", FIELD_INT, G_STRUCT_OFFSET (NscWarning, link_generation) },
  { "link_width", FIELD_INT, G_STRUCT_OFFSET (NscWarning, link_width) },
  { "link_max_generation", FIELD_INT, G_STRUCT_OFFSET (NscWarning, link_max_generation) },
  { "link_max_width", FIELD_INT, G_STRUCT_OFFSET (NscWarning, link_max_width) },
  { "vendor_id", FIELD_INT, G_STRUCT_OFFSET (NscWarning, vendor_id) },
  { "expected_vendor_id", FIELD_INT, G_STRUCT_OFFSET (NscWarning, expected_vendor_id) },
};

void
nsc_warning_to_json (const NscWarning *w,
                     JsonBuilder      *b)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "code");
  json_builder_add_string_value (b, w->code);
  json_builder_set_member_name (b, "message");
  json_builder_add_string_value (b, w->message ? w->message : "");
  json_builder_set_member_name (b, "step");
  if (w->step >= 0)
    json_builder_add_int_value (b, w->step);
  else
    json_builder_add_null_value (b);
  if (w->position)
    {
      json_builder_set_member_name (b, "position");
      json_builder_add_string_value (b, w->position);
    }
  if (w->test)
    {
      json_builder_set_member_name (b, "test");
      json_builder_add_string_value (b, w->test);
    }
  if (w->subject)
    {
      json_builder_set_member_name (b, "subject");
      json_builder_add_string_value (b, w->subject);
    }
  {
    const char *strings[][2] = { { "cache_kind", w->cache_kind }, { "cache_device", w->cache_device },
                                 { "cache_detail", w->cache_detail } };

    for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
      if (strings[i][1])
        {
          json_builder_set_member_name (b, strings[i][0]);
          json_builder_add_string_value (b, strings[i][1]);
        }
  }
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      const guint8 *p = (const guint8 *) w + fields[i].offset;

      switch (fields[i].type)
        {
        case FIELD_DOUBLE:
          if (isfinite (*(const double *) p))
            {
              json_builder_set_member_name (b, fields[i].name);
              json_builder_add_double_value (b, *(const double *) p);
            }
          break;
        case FIELD_BYTES:
          if (*(const gint64 *) p >= 0)
            {
              json_builder_set_member_name (b, fields[i].name);
              json_builder_add_int_value (b, *(const gint64 *) p);
            }
          break;
        case FIELD_INT:
          if (*(const int *) p >= 0)
            {
              json_builder_set_member_name (b, fields[i].name);
              json_builder_add_int_value (b, *(const int *) p);
            }
          break;
        default:
          g_assert_not_reached ();
        }
    }
  json_builder_end_object (b);
}

static const char *
get_string (JsonObject *o,
            const char *name)
{
  JsonNode *n = json_object_get_member (o, name);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

static gboolean
get_number (JsonObject *o,
            const char *name,
            double     *value)
{
  JsonNode *n = json_object_get_member (o, name);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return FALSE;
  if (json_node_get_value_type (n) == G_TYPE_INT64)
    *value = (double) json_node_get_int (n);
  else if (json_node_get_value_type (n) == G_TYPE_DOUBLE)
    *value = json_node_get_double (n);
  else
    return FALSE;
  return isfinite (*value);
}

NscWarning *
nsc_warning_from_json (JsonObject *o)
{
  NscWarning *w;
  const char *code;
  double step;

  g_return_val_if_fail (o != NULL, NULL);

  code = get_string (o, "code");
  if (code == NULL)
    return NULL;
  w = warning_new_with_code (code, get_number (o, "step", &step) && step >= 0 && step < G_MAXINT
                             ? (int) step : -1);
  w->message = g_strdup (get_string (o, "message"));
  w->position = g_strdup (get_string (o, "position"));
  w->test = g_strdup (get_string (o, "test"));
  w->subject = g_strdup (get_string (o, "subject"));
  w->cache_kind = g_strdup (get_string (o, "cache_kind"));
  w->cache_device = g_strdup (get_string (o, "cache_device"));
  w->cache_detail = g_strdup (get_string (o, "cache_detail"));
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      guint8 *p = (guint8 *) w + fields[i].offset;
      double v;

      if (!get_number (o, fields[i].name, &v))
        continue;
      switch (fields[i].type)
        {
        case FIELD_DOUBLE:
          *(double *) p = v;
          break;
        case FIELD_BYTES:
          if (v >= 0 && v < 9.2e18)
            *(gint64 *) p = (gint64) v;
          break;
        case FIELD_INT:
          if (v >= 0 && v < G_MAXINT)
            *(int *) p = (int) v;
          break;
        default:
          g_assert_not_reached ();
        }
    }
  return w;
}

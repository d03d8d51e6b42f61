/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Typed reads of a result's members, for code that draws or shows a result: a
 * missing member, or one of another type, reads as NULL. */

static inline JsonObject *
nsc_json_get_object (JsonObject *o,
                     const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;
  return n && JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
}

static inline JsonArray *
nsc_json_get_array (JsonObject *o,
                    const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;
  return n && JSON_NODE_HOLDS_ARRAY (n) ? json_node_get_array (n) : NULL;
}

static inline const char *
nsc_json_get_string (JsonObject *o,
                     const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;
  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n) || json_node_get_value_type (n) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (n);
}

/* A number member, integer or not, as a double; @fallback when missing or of
 * another type. */
static inline double
nsc_json_node_number (JsonNode *n,
                      double    fallback)
{
  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return fallback;
  switch (json_node_get_value_type (n))
    {
    case G_TYPE_INT64:
      return (double) json_node_get_int (n);
    case G_TYPE_DOUBLE:
      return json_node_get_double (n);
    default:
      return fallback;
    }
}

static inline double
nsc_json_get_number (JsonObject *o,
                     const char *name,
                     double      fallback)
{
  return nsc_json_node_number (o ? json_object_get_member (o, name) : NULL, fallback);
}

/* An integer member (a double is truncated) into @value; FALSE when missing or not a
 * number, @value untouched. */
static inline gboolean
nsc_json_get_int (JsonObject *o,
                  const char *name,
                  gint64     *value)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return FALSE;
  if (json_node_get_value_type (n) == G_TYPE_INT64)
    *value = json_node_get_int (n);
  else if (json_node_get_value_type (n) == G_TYPE_DOUBLE)
    *value = (gint64) json_node_get_double (n);
  else
    return FALSE;
  return TRUE;
}

/* TRUE only for a boolean member that is true. */
static inline gboolean
nsc_json_get_bool (JsonObject *o,
                   const char *name)
{
  JsonNode *n = o ? json_object_get_member (o, name) : NULL;
  return n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_BOOLEAN
         && json_node_get_boolean (n);
}

G_END_DECLS

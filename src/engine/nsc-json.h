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

G_END_DECLS

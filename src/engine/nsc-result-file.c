/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "nsc-error.h"
#include "nsc-json.h"
#include "nsc-result.h"
#include "nsc-result-file.h"

#define MAX_FILE_SIZE ((gsize) 256 << 20)
/* A result nests six levels deep (root, steps, step, read, lat_ns, percentiles);
 * json-glib parses recursively, so tens of thousands of "[" would exhaust the stack. */
#define MAX_DEPTH NSC_JSON_MAX_DEPTH

/* Where in the file a problem lies (the n2 of its error): a step from 1, or these. */
#define PLACE_FILE    0
#define PLACE_WARNING (-1)

/* A file that is not a result of this schema: @problem names what is wrong, at
 * @place, with @member (a member or a series column) where it has one. */
static gboolean
invalid (GError     **error,
         NscProblem   problem,
         gint64       place,
         const char  *member)
{
  nsc_error_set (error, problem, &(NscErrorFields) { .n = NSC_RESULT_SCHEMA, .n2 = place,
                                                     .text = member });
  return FALSE;
}

static gboolean
is_number (JsonNode *n)
{
  GType t;

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return FALSE;
  t = json_node_get_value_type (n);
  return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

static gboolean
is_string (JsonNode *n)
{
  return n && JSON_NODE_HOLDS_VALUE (n) && json_node_get_value_type (n) == G_TYPE_STRING;
}

/* Optional members may be absent or null; present ones must have their type. */
static gboolean
check_member (JsonObject  *o,
              gint64       where,
              const char  *name,
              JsonNodeType type,
              gboolean     number,
              gboolean     required,
              GError     **error)
{
  JsonNode *n = json_object_get_member (o, name);

  if (n == NULL || JSON_NODE_HOLDS_NULL (n))
    return required ? invalid (error, NSC_PROBLEM_RESULT_MEMBER_MISSING, where, name) : TRUE;
  if (number ? !is_number (n)
      : type == JSON_NODE_VALUE ? !is_string (n) : json_node_get_node_type (n) != type)
    return invalid (error, NSC_PROBLEM_RESULT_MEMBER_TYPE, where, name);
  return TRUE;
}

static gboolean
check_dir (JsonObject  *step,
           gint64       where,
           const char  *dir,
           GError     **error)
{
  JsonObject *d, *lat;
  static const char *numbers[] = { "bytes", "ios", "bw_bps", "iops" };

  if (!json_object_has_member (step, dir))
    return TRUE;
  if (!check_member (step, where, dir, JSON_NODE_OBJECT, FALSE, TRUE, error))
    return FALSE;
  d = json_object_get_object_member (step, dir);
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    if (!check_member (d, where, numbers[i], 0, TRUE, TRUE, error))
      return FALSE;
  if (!check_member (d, where, "lat_ns", JSON_NODE_OBJECT, FALSE, FALSE, error))
    return FALSE;
  if (json_object_has_member (d, "lat_ns"))
    {
      lat = json_object_get_object_member (d, "lat_ns");
      if (!check_member (lat, where, "percentiles", JSON_NODE_OBJECT, FALSE, FALSE, error))
        return FALSE;
      if (json_object_has_member (lat, "percentiles"))
        {
          JsonObject *p = json_object_get_object_member (lat, "percentiles");
          GList *names = json_object_get_members (p);
          gboolean ok = TRUE;

          for (GList *l = names; l && ok; l = l->next)
            if (!is_number (json_object_get_member (p, l->data)))
              ok = invalid (error, NSC_PROBLEM_RESULT_PERCENTILE, where, NULL);
          g_list_free (names);
          if (!ok)
            return FALSE;
        }
    }
  return TRUE;
}

static gboolean
check_series (JsonObject  *step,
              gint64       where,
              GError     **error)
{
  static const char *columns[] = {
    "t_ns", "duration_ns", "read_bytes", "write_bytes", "read_ios", "write_ios",
    "read_lat_mean_ns", "write_lat_mean_ns", "lat_max_ns", "position",
  };
  JsonObject *s;
  gint64 len = -1;

  if (!json_object_has_member (step, "series"))
    return TRUE;
  if (!check_member (step, where, "series", JSON_NODE_OBJECT, FALSE, TRUE, error))
    return FALSE;
  s = json_object_get_object_member (step, "series");
  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    {
      JsonArray *a;

      if (!check_member (s, where, columns[c], JSON_NODE_ARRAY, FALSE, TRUE, error))
        return FALSE;
      a = json_object_get_array_member (s, columns[c]);
      if (len >= 0 && json_array_get_length (a) != (guint) len)
        return invalid (error, NSC_PROBLEM_RESULT_SERIES_LENGTH, where, NULL);
      len = json_array_get_length (a);
      for (guint i = 0; i < json_array_get_length (a); i++)
        if (!is_number (json_array_get_element (a, i)))
          return invalid (error, NSC_PROBLEM_RESULT_SERIES_VALUE, where, columns[c]);
    }
  return TRUE;
}

gboolean
nsc_result_file_validate (JsonNode  *root,
                          GError   **error)
{
  JsonObject *o;
  JsonArray *steps, *warnings;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return invalid (error, NSC_PROBLEM_RESULT_NOT_OBJECT, PLACE_FILE, NULL);
  o = json_node_get_object (root);
  if (!check_member (o, PLACE_FILE, "schema", 0, TRUE, TRUE, error))
    return FALSE;
  if (json_object_get_int_member (o, "schema") != NSC_RESULT_SCHEMA)
    {
      nsc_error_set (error, NSC_PROBLEM_RESULT_SCHEMA,
                     &(NscErrorFields) { .n = json_object_get_int_member (o, "schema"),
                                         .n2 = NSC_RESULT_SCHEMA });
      return FALSE;
    }
  if (!check_member (o, PLACE_FILE, "steps", JSON_NODE_ARRAY, FALSE, TRUE, error)
      || !check_member (o, PLACE_FILE, "preset", JSON_NODE_OBJECT, FALSE, TRUE, error)
      || !check_member (o, PLACE_FILE, "target", JSON_NODE_OBJECT, FALSE, TRUE, error)
      || !check_member (o, PLACE_FILE, "device", JSON_NODE_OBJECT, FALSE, FALSE, error)
      || !check_member (o, PLACE_FILE, "analysis", JSON_NODE_OBJECT, FALSE, FALSE, error)
      || !check_member (o, PLACE_FILE, "warnings", JSON_NODE_ARRAY, FALSE, FALSE, error)
      || !check_member (o, PLACE_FILE, "started", JSON_NODE_VALUE, FALSE, FALSE, error))
    return FALSE;

  steps = json_object_get_array_member (o, "steps");
  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      JsonNode *n = json_array_get_element (steps, i);
      gint64 where = (gint64) i + 1;
      JsonObject *s;

      if (!JSON_NODE_HOLDS_OBJECT (n))
        return invalid (error, NSC_PROBLEM_RESULT_STEP_NOT_OBJECT, where, NULL);
      s = json_node_get_object (n);
      if (!check_member (s, where, "kind", JSON_NODE_VALUE, FALSE, TRUE, error)
          || !check_member (s, where, "label", JSON_NODE_VALUE, FALSE, TRUE, error)
          || !check_member (s, where, "job", JSON_NODE_OBJECT, FALSE, FALSE, error)
          || !check_member (s, where, "runs", JSON_NODE_ARRAY, FALSE, FALSE, error)
          || !check_member (s, where, "temperature", JSON_NODE_OBJECT, FALSE, FALSE, error)
          || !check_dir (s, where, "read", error)
          || !check_dir (s, where, "write", error)
          || !check_series (s, where, error))
        return FALSE;
      if (json_object_has_member (s, "job"))
        {
          JsonObject *job = json_object_get_object_member (s, "job");
          if (!check_member (job, where, "block_size", 0, TRUE, TRUE, error)
              || !check_member (job, where, "queue_depth", 0, TRUE, TRUE, error)
              || !check_member (job, where, "read_percent", 0, TRUE, TRUE, error)
              || !check_member (job, where, "rw", JSON_NODE_VALUE, FALSE, TRUE, error))
            return FALSE;
        }
    }

  if (json_object_has_member (o, "warnings"))
    {
      warnings = json_object_get_array_member (o, "warnings");
      for (guint i = 0; i < json_array_get_length (warnings); i++)
        {
          JsonNode *n = json_array_get_element (warnings, i);
          if (!JSON_NODE_HOLDS_OBJECT (n)
              || !check_member (json_node_get_object (n), PLACE_WARNING, "code", JSON_NODE_VALUE,
                                FALSE, TRUE, error)
              || !check_member (json_node_get_object (n), PLACE_WARNING, "message", JSON_NODE_VALUE,
                                FALSE, TRUE, error))
            return error && *error ? FALSE : invalid (error, NSC_PROBLEM_RESULT_WARNING_NOT_OBJECT, PLACE_WARNING, NULL);
        }
    }
  return TRUE;
}

/* The deepest nesting of arrays and objects in @data, outside strings, scanning no
 * further than one level past @limit. */
guint
nsc_json_nesting_depth (const char *data,
                        gsize       length,
                        guint       limit)
{
  guint depth = 0, deepest = 0;
  gboolean in_string = FALSE;

  for (gsize i = 0; i < length && deepest <= limit; i++)
    {
      char c = data[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '[' || c == '{')
        {
          /* Not MAX (deepest, ++depth): the macro evaluates its arguments twice. */
          depth++;
          deepest = MAX (deepest, depth);
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return deepest;
}

JsonNode *
nsc_result_file_parse (const char  *data,
                       gssize       length,
                       GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;

  g_return_val_if_fail (data != NULL, NULL);

  if (nsc_json_nesting_depth (data, length < 0 ? strlen (data) : (gsize) length, MAX_DEPTH) > MAX_DEPTH)
    {
      nsc_error_set (error, NSC_PROBLEM_RESULT_TOO_DEEP, &(NscErrorFields) { .n = MAX_DEPTH });
      return NULL;
    }
  if (!json_parser_load_from_data (parser, data, length, &local_error))
    {
      nsc_error_set (error, NSC_PROBLEM_RESULT_DAMAGED,
                     &(NscErrorFields) { .text = local_error->message });
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (!nsc_result_file_validate (root, error))
    return NULL;
  return json_node_ref (root);
}

/* The null device, and terminals: the console's and ttys (4, 5), pseudo-terminals
 * (136-143). Opening another character device could act (a watchdog arms itself). */
static gboolean
is_stream_device (dev_t rdev)
{
  guint ma = major (rdev), mi = minor (rdev);

  return (ma == 1 && mi == 3) || ma == 4 || ma == 5 || (ma >= 136 && ma <= 143);
}

gboolean
nsc_output_check (const char     *path,
                  gboolean        streams,
                  NscOutputKind  *kind,
                  char          **resolved,
                  GError        **error)
{
  struct stat st;
  gboolean exists;
  NscOutputKind k;

  g_return_val_if_fail (path != NULL, FALSE);

  if (resolved)
    *resolved = NULL;
  exists = stat (path, &st) == 0;
  /* Nothing there (or a link to nothing) is a new file; the writer reports why it
   * cannot make one. */
  if (!exists || S_ISREG (st.st_mode))
    k = NSC_OUTPUT_FILE;
  else if (streams && (S_ISFIFO (st.st_mode) || (S_ISCHR (st.st_mode) && is_stream_device (st.st_rdev))))
    k = NSC_OUTPUT_STREAM;
  else
    {
      nsc_error_set (error, NSC_PROBLEM_OUTPUT_NOT_FILE, &(NscErrorFields) { .path = path });
      return FALSE;
    }
  if (kind)
    *kind = k;
  if (resolved)
    {
      /* A link's target is replaced, not the link. */
      char *real = exists && k == NSC_OUTPUT_FILE ? realpath (path, NULL) : NULL;

      *resolved = g_strdup (real ? real : path);
      free (real);
    }
  return TRUE;
}

gboolean
nsc_output_write (const char  *path,
                  const char  *data,
                  gsize        length,
                  GError     **error)
{
  g_autofree char *target = NULL;
  NscOutputKind kind;
  gsize done = 0;
  int fd;

  if (!nsc_output_check (path, TRUE, &kind, &target, error))
    return FALSE;
  if (kind == NSC_OUTPUT_FILE)
    return g_file_set_contents (target, data, (gssize) length, error);
  /* No O_CREAT: it exists and is not a file; nothing is truncated. */
  fd = open (target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    {
      int e = errno;
      g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (e), g_strerror (e));
      return FALSE;
    }
  while (done < length)
    {
      ssize_t n = write (fd, data + done, length - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int e = n < 0 ? errno : EIO;
          g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (e), g_strerror (e));
          close (fd);
          return FALSE;
        }
      done += (gsize) n;
    }
  if (close (fd) != 0 && errno != EINTR)
    {
      int e = errno;
      g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (e), g_strerror (e));
      return FALSE;
    }
  return TRUE;
}

char *
nsc_result_file_read (const char  *path,
                      gsize        most,
                      NscProblem   not_regular,
                      NscProblem   too_large,
                      gsize       *length,
                      GError     **error)
{
  g_autofree char *data = NULL;
  struct stat st;
  gsize got = 0;
  int fd;

  fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    {
      int e = errno;
      nsc_error_set (error, e == ENOENT ? NSC_PROBLEM_RESULT_NOT_FOUND : NSC_PROBLEM_RESULT_UNREADABLE,
                     &(NscErrorFields) { .path = path, .errnum = e });
      return NULL;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      nsc_error_set (error, not_regular, &(NscErrorFields) { .path = path });
      close (fd);
      return NULL;
    }
  if ((guint64) st.st_size > most)
    {
      nsc_error_set (error, too_large,
                     &(NscErrorFields) { .path = path, .bytes = (guint64) st.st_size,
                                         .bytes2 = most });
      close (fd);
      return NULL;
    }
  /* One byte more than it said: a file that grows while read is cut at its size. */
  data = g_malloc ((gsize) st.st_size + 1);
  while (got < (gsize) st.st_size)
    {
      ssize_t n = read (fd, data + got, (gsize) st.st_size - got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int e = errno;
          nsc_error_set (error, NSC_PROBLEM_RESULT_UNREADABLE, &(NscErrorFields) { .path = path, .errnum = e });
          close (fd);
          return NULL;
        }
      if (n == 0)
        break;
      got += (gsize) n;
    }
  close (fd);
  data[got] = '\0';
  *length = got;
  return g_steal_pointer (&data);
}

JsonNode *
nsc_result_file_load (const char  *path,
                      GError     **error)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  GError *parse_error = NULL;
  JsonNode *root;

  if (!(data = nsc_result_file_read (path, MAX_FILE_SIZE, NSC_PROBLEM_RESULT_NOT_REGULAR,
                                     NSC_PROBLEM_RESULT_TOO_LARGE, &len, error)))
    return NULL;
  root = nsc_result_file_parse (data, (gssize) len, &parse_error);
  if (root == NULL)
    {
      g_propagate_prefixed_error (error, parse_error, "%s: ", path);
      return NULL;
    }
  return root;
}

guint64
nsc_result_history_cache_bytes (const char  *dir,
                                const char  *serial,
                                char       **from_path)
{
  g_autoptr(GDir) d = NULL;
  g_autoptr(GDateTime) newest = NULL;
  guint64 cache = 0;
  const char *name;

  if (from_path)
    *from_path = NULL;
  if (dir == NULL || serial == NULL || serial[0] == '\0' || !(d = g_dir_open (dir, 0, NULL)))
    return 0;
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = NULL;
      g_autoptr(JsonNode) root = NULL;
      g_autoptr(GDateTime) when = NULL;
      JsonObject *o, *dev, *analysis, *slc;
      const char *started;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      path = g_build_filename (dir, name, NULL);
      if (!(root = nsc_result_file_load (path, NULL)))
        continue;  /* not a result, or damaged: the history is what can be read */
      o = json_node_get_object (root);
      dev = nsc_json_get_object (o, "device");
      analysis = nsc_json_get_object (o, "analysis");
      slc = analysis ? nsc_json_get_object (analysis, "slc") : NULL;
      started = nsc_json_get_string (o, "started");
      if (dev == NULL || g_strcmp0 (nsc_json_get_string (dev, "serial"), serial) != 0
          || slc == NULL || !json_object_get_boolean_member_with_default (slc, "has_cache", FALSE)
          || json_object_get_int_member_with_default (slc, "cache_bytes", 0) <= 0
          || started == NULL || !(when = g_date_time_new_from_iso8601 (started, NULL)))
        continue;
      if (newest && g_date_time_compare (when, newest) <= 0)
        continue;
      g_clear_pointer (&newest, g_date_time_unref);
      newest = g_steal_pointer (&when);
      cache = (guint64) json_object_get_int_member (slc, "cache_bytes");
      if (from_path)
        {
          g_free (*from_path);
          *from_path = g_steal_pointer (&path);
        }
    }
  return cache;
}

/* The fastest sequential write of a result: the write-fill's average when it has one
 * (the whole drive's pace, cache and after), else the best sequential write step. */
static double
result_write_bps (JsonObject *o)
{
  JsonObject *analysis = nsc_json_get_object (o, "analysis");
  JsonObject *slc = analysis ? nsc_json_get_object (analysis, "slc") : NULL;
  JsonArray *steps = nsc_json_get_array (o, "steps");
  double best = 0;

  if (slc != NULL && json_object_has_member (slc, "average_bps"))
    {
      double avg = json_object_get_double_member_with_default (slc, "average_bps", 0);
      if (avg > 0)
        return avg;
    }
  for (guint i = 0; steps != NULL && i < json_array_get_length (steps); i++)
    {
      JsonObject *s = json_array_get_object_element (steps, i);
      JsonObject *job = s ? nsc_json_get_object (s, "job") : NULL;
      JsonObject *w = s ? nsc_json_get_object (s, "write") : NULL;

      if (job == NULL || w == NULL || g_strcmp0 (nsc_json_get_string (job, "rw"), "write") != 0)
        continue;
      best = MAX (best, json_object_get_double_member_with_default (w, "bw_bps", 0));
    }
  return best;
}

double
nsc_result_history_write_bps (const char  *dir,
                              const char  *serial,
                              const char  *devnode,
                              char       **from_path)
{
  g_autoptr(GDir) d = NULL;
  g_autoptr(GDateTime) newest = NULL;
  gboolean by_serial = serial != NULL && serial[0] != '\0';
  double bps = 0;
  const char *name;

  if (from_path)
    *from_path = NULL;
  if (dir == NULL || (!by_serial && (devnode == NULL || devnode[0] == '\0'))
      || !(d = g_dir_open (dir, 0, NULL)))
    return 0;
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = NULL;
      g_autoptr(JsonNode) root = NULL;
      g_autoptr(GDateTime) when = NULL;
      JsonObject *o, *dev;
      const char *started;
      double found;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      path = g_build_filename (dir, name, NULL);
      if (!(root = nsc_result_file_load (path, NULL)))
        continue;
      o = json_node_get_object (root);
      dev = nsc_json_get_object (o, "device");
      started = nsc_json_get_string (o, "started");
      if (dev == NULL || started == NULL || !(when = g_date_time_new_from_iso8601 (started, NULL)))
        continue;
      /* A drive without a serial (virtio, some USB bridges) is known by its node. */
      if (by_serial ? g_strcmp0 (nsc_json_get_string (dev, "serial"), serial) != 0
                    : (nsc_json_get_string (dev, "serial") != NULL
                       && nsc_json_get_string (dev, "serial")[0] != '\0')
                      || g_strcmp0 (nsc_json_get_string (dev, "devnode"), devnode) != 0)
        continue;
      if (newest && g_date_time_compare (when, newest) <= 0)
        continue;
      found = result_write_bps (o);
      if (found <= 0)
        continue;
      g_clear_pointer (&newest, g_date_time_unref);
      newest = g_steal_pointer (&when);
      bps = found;
      if (from_path)
        {
          g_free (*from_path);
          *from_path = g_steal_pointer (&path);
        }
    }
  return bps;
}

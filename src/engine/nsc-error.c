/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "nsc-error.h"

typedef struct
{
  NscProblem     problem;
  NscErrorFields fields;   /* strings owned */
} NscErrorPrivate;

static void
copy_fields (NscErrorFields       *dest,
             const NscErrorFields *src)
{
  *dest = *src;
  dest->path = g_strdup (src->path);
  dest->text = g_strdup (src->text);
  dest->text2 = g_strdup (src->text2);
}

static void
nsc_error_private_init (NscErrorPrivate *priv)
{
  memset (priv, 0, sizeof *priv);
}

static void
nsc_error_private_copy (const NscErrorPrivate *src,
                        NscErrorPrivate       *dest)
{
  dest->problem = src->problem;
  copy_fields (&dest->fields, &src->fields);
}

static void
nsc_error_private_clear (NscErrorPrivate *priv)
{
  g_free ((char *) priv->fields.path);
  g_free ((char *) priv->fields.text);
  g_free ((char *) priv->fields.text2);
  memset (priv, 0, sizeof *priv);
}

G_DEFINE_EXTENDED_ERROR (NscError, nsc_error)

static const struct
{
  const char *name;
  NscError    code;
} problems[NSC_N_PROBLEMS] = {
  [NSC_PROBLEM_NONE] = { "none", NSC_ERROR_FAILED },
#define NSC_PROBLEM_ROW(name, code) [NSC_PROBLEM_##name] = { #name, NSC_ERROR_##code },
  NSC_PROBLEMS (NSC_PROBLEM_ROW)
#undef NSC_PROBLEM_ROW
};

static NscProblemWordsFunc words_func;

void
nsc_error_set_words (NscProblemWordsFunc func)
{
  g_atomic_pointer_set (&words_func, func);
}

NscError
nsc_problem_code (NscProblem problem)
{
  g_return_val_if_fail (problem < NSC_N_PROBLEMS, NSC_ERROR_FAILED);
  return problems[problem].code;
}

const char *
nsc_problem_name (NscProblem problem)
{
  g_return_val_if_fail (problem < NSC_N_PROBLEMS, NULL);
  return problems[problem].name;
}

/* The message when no words are installed: the problem's name and its fields, for
 * logs and for engine tests that see the codes alone. */
static char *
bare_message (NscProblem            problem,
              const NscErrorFields *f)
{
  GString *s = g_string_new (problems[problem].name);

  if (f->path)
    g_string_append_printf (s, " path=%s", f->path);
  if (f->text)
    g_string_append_printf (s, " text=%s", f->text);
  if (f->text2)
    g_string_append_printf (s, " text2=%s", f->text2);
  if (f->bytes || f->bytes2 || f->bytes3)
    g_string_append_printf (s, " bytes=%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT,
                            f->bytes, f->bytes2, f->bytes3);
  if (f->n || f->n2)
    g_string_append_printf (s, " n=%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT, f->n, f->n2);
  if (f->x != 0)
    g_string_append_printf (s, " x=%g", f->x);
  if (f->errnum)
    g_string_append_printf (s, ": %s", g_strerror (f->errnum));
  return g_string_free (s, FALSE);
}

static void
set_with_code (GError              **error,
               NscError              code,
               NscProblem            problem,
               const NscErrorFields *fields)
{
  static const NscErrorFields none = { 0 };
  NscProblemWordsFunc func = g_atomic_pointer_get (&words_func);
  g_autofree char *message = NULL;
  GError *e;
  NscErrorPrivate *priv;

  g_return_if_fail (problem > NSC_PROBLEM_NONE && problem < NSC_N_PROBLEMS);
  if (error == NULL)
    return;
  if (fields == NULL)
    fields = &none;
  message = func ? func (problem, fields) : bare_message (problem, fields);
  e = g_error_new_literal (NSC_ERROR, code, message);
  priv = nsc_error_get_private (e);
  priv->problem = problem;
  copy_fields (&priv->fields, fields);
  g_propagate_error (error, e);
}

void
nsc_error_set (GError              **error,
               NscProblem            problem,
               const NscErrorFields *fields)
{
  set_with_code (error, nsc_problem_code (problem), problem, fields);
}

static NscError
code_from_errno (int errsv)
{
  switch (errsv)
    {
    case ENOENT:
    case ENOTDIR:
      return NSC_ERROR_NOT_FOUND;
    case EACCES:
    case EPERM:
    case EROFS:
      return NSC_ERROR_PERMISSION;
    case ENOSPC:
    case EDQUOT:
    case EFBIG:
      return NSC_ERROR_NO_SPACE;
    case EBUSY:
      return NSC_ERROR_BUSY;
    case EINVAL:
    case EOPNOTSUPP:
      return NSC_ERROR_UNSUPPORTED;
    case EIO:
    case ENXIO:
    case ENODEV:
      return NSC_ERROR_IO;
    case ECANCELED:
      return NSC_ERROR_CANCELLED;
    default:
      return NSC_ERROR_FAILED;
    }
}

void
nsc_error_set_errno (GError              **error,
                     NscProblem            problem,
                     int                   errsv,
                     const NscErrorFields *fields)
{
  NscErrorFields f = { 0 };

  if (fields)
    f = *fields;
  f.errnum = errsv;
  set_with_code (error, code_from_errno (errsv), problem, &f);
}

NscProblem
nsc_error_get_problem (const GError *error)
{
  if (error == NULL || error->domain != NSC_ERROR)
    return NSC_PROBLEM_NONE;
  return nsc_error_get_private (error)->problem;
}

const NscErrorFields *
nsc_error_get_fields (const GError *error)
{
  if (error == NULL || error->domain != NSC_ERROR)
    return NULL;
  return &nsc_error_get_private (error)->fields;
}

void
nsc_set_error_from_errno (GError    **error,
                          int         errsv,
                          const char *format,
                          ...)
{
  g_autofree char *prefix = NULL;
  va_list args;

  va_start (args, format);
  prefix = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, NSC_ERROR, code_from_errno (errsv),
               "%s: %s", prefix, g_strerror (errsv));
}

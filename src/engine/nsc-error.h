/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define NSC_ERROR (nsc_error_quark ())

/**
 * NscError:
 * The classes of the engine's errors, which front ends branch on. The engine holds
 * no sentence: each error also carries an #NscProblem, the one situation it reports,
 * and #NscErrorFields, the values it names; the words library says it in the user's
 * language. Where the remedy is a front end's own (a flag of the CLI, a dialog of the
 * app), the words say only what is wrong and the front end adds its remedy.
 */
typedef enum
{
  NSC_ERROR_INVALID_ARGUMENT,   /* a nonsense option or job parameter */
  NSC_ERROR_NOT_FOUND,          /* a target that does not exist */
  NSC_ERROR_PERMISSION,         /* not allowed to open or write the target */
  NSC_ERROR_NO_SPACE,           /* the test does not fit on the target */
  NSC_ERROR_BUSY,               /* the device is mounted, held or in use */
  NSC_ERROR_NEEDS_CONFIRMATION, /* a destructive test without explicit consent */
  NSC_ERROR_UNSUPPORTED,        /* e.g. O_DIRECT refused, block size below DIO alignment */
  NSC_ERROR_IO,                 /* the device answered an I/O with an error */
  NSC_ERROR_CANCELLED,
  NSC_ERROR_FAILED,
  NSC_ERROR_NOT_AGREED,         /* a write to a device whose consent does not name it */
  NSC_ERROR_NEEDS_ROOT,         /* a raw device the process may not open */
} NscError;

/*
 * NSC_PROBLEMS:
 * Every situation the engine reports, declared once: its name, its #NscError class,
 * and in the comment the fields it fills. The words library has one sentence per
 * problem (a switch the compiler checks for completeness); test-words checks that each
 * is said, translated and uses the fields declared here. Problems raised with an errno
 * take their class from it (nsc_error_set_errno) and word it after their sentence.
 */
#define NSC_PROBLEMS(X) \
  /* sizes and durations as typed */ \
  X (SIZE_TOO_LARGE,          INVALID_ARGUMENT)  /* text: the size as typed */ \
  X (SIZE_NOT_WHOLE,          INVALID_ARGUMENT)  /* text */ \
  X (SIZE_INVALID,            INVALID_ARGUMENT)  /* text */ \
  X (DURATION_TOO_LONG,       INVALID_ARGUMENT)  /* text */ \
  X (DURATION_INVALID,        INVALID_ARGUMENT)  /* text */ \
  /* presets */ \
  X (PRESET_MEMBER_SIZE,      INVALID_ARGUMENT)  /* text: the member */ \
  X (PRESET_MEMBER_SHARE,     INVALID_ARGUMENT)  /* text */ \
  X (PRESET_MEMBER_DURATION,  INVALID_ARGUMENT)  /* text */ \
  X (PRESET_MEMBER_COUNT,     INVALID_ARGUMENT)  /* text, n: the largest allowed */ \
  X (PRESET_MEMBER_BOOLEAN,   INVALID_ARGUMENT)  /* text */ \
  X (PRESET_STEP_KIND,        INVALID_ARGUMENT)  /* text: the kind given */ \
  X (PRESET_SURFACE_POINTS,   INVALID_ARGUMENT)  /* none */ \
  X (PRESET_NOT_JSON,         INVALID_ARGUMENT)  /* text: the parser's message */ \
  X (PRESET_NOT_OBJECT,       INVALID_ARGUMENT)  /* none */ \
  X (PRESET_NO_NAME,          INVALID_ARGUMENT)  /* none */ \
  X (PRESET_INCLUDE,          INVALID_ARGUMENT)  /* none */ \
  X (PRESET_INCLUDE_NESTED,   INVALID_ARGUMENT)  /* none */ \
  X (PRESET_NO_STEPS,         INVALID_ARGUMENT)  /* none */ \
  X (PRESET_STEP_NOT_OBJECT,  INVALID_ARGUMENT)  /* n: the step from 1, text: the preset */ \
  X (PRESET_STEP,             INVALID_ARGUMENT)  /* n, text: the preset, text2: what is wrong */ \
  X (PRESET_UNKNOWN,          NOT_FOUND)         /* text: the name, text2: the known names */ \
  /* targets */ \
  /* jobs and I/O */ \
  /* runs and steps */ \
  /* the write-fill and throttling analysis */ \
  /* result files */ \
  /* copies */ \
  /* the write budget */ \
  /* capacity checks */ \
  X (VERIFY_UNIT,             INVALID_ARGUMENT)  /* bytes: the block size, bytes2: the offset */ \
  X (VERIFY_MIXED,            INVALID_ARGUMENT)  /* none */

typedef enum
{
  NSC_PROBLEM_NONE,
#define NSC_PROBLEM_ENUM(name, code) NSC_PROBLEM_##name,
  NSC_PROBLEMS (NSC_PROBLEM_ENUM)
#undef NSC_PROBLEM_ENUM
  NSC_N_PROBLEMS
} NscProblem;

/**
 * NscErrorFields:
 * The values a problem names. Strings are copied into the error.
 */
typedef struct
{
  const char *path;    /* a target, folder, file or device */
  const char *text;    /* a value as typed, a member, a name, a method */
  const char *text2;   /* a second one, or a library's own message */
  guint64     bytes;   /* sizes, worded as sizes */
  guint64     bytes2;
  guint64     bytes3;
  gint64      n;       /* counts, indices, limits */
  gint64      n2;
  double      x;       /* a measured value: B/s, seconds */
  int         errnum;  /* an errno, worded by the system */
} NscErrorFields;

/* Says @problem with @fields in the user's language; returns a new string. */
typedef char *(*NscProblemWordsFunc) (NscProblem            problem,
                                      const NscErrorFields *fields);

GQuark      nsc_error_quark        (void);

/* Installed once at start-up, before any thread, by the layer that holds the words.
 * Without it an error's message is its problem's name and fields. */
void        nsc_error_set_words    (NscProblemWordsFunc   func);

void        nsc_error_set          (GError              **error,
                                    NscProblem            problem,
                                    const NscErrorFields *fields);
/* As nsc_error_set, the class taken from @errsv, which the words name after the
 * problem's own sentence ("Cannot open /x: Permission denied"). */
void        nsc_error_set_errno    (GError              **error,
                                    NscProblem            problem,
                                    int                   errsv,
                                    const NscErrorFields *fields);
NscError    nsc_problem_code       (NscProblem            problem);
const char *nsc_problem_name       (NscProblem            problem);
/* The problem of an engine error, NSC_PROBLEM_NONE for any other error. */
NscProblem  nsc_error_get_problem  (const GError         *error);
/* Its fields (strings owned by @error), NULL for any other error. */
const NscErrorFields *nsc_error_get_fields (const GError *error);

/* For the layers above the engine that word their own text: sets @error from an
 * errno value with a prefix such as "Cannot open /x". */
void   nsc_set_error_from_errno (GError    **error,
                                 int         errsv,
                                 const char *format,
                                 ...) G_GNUC_PRINTF (3, 4);

G_END_DECLS

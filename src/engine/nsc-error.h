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
  X (TARGET_NONE,             INVALID_ARGUMENT)  /* none */ \
  X (TARGET_KIND,             INVALID_ARGUMENT)  /* path */ \
  X (TARGET_FD_NOT_DEVICE,    INVALID_ARGUMENT)  /* path */ \
  X (TARGET_FILE_EXISTS,      INVALID_ARGUMENT)  /* path: the file */ \
  X (TARGET_FOLDER_MISSING,   NOT_FOUND)         /* path: the folder */ \
  X (TARGET_CANNOT_USE,       FAILED)            /* path, errnum */ \
  X (TARGET_NO_DIRECT_IO,     UNSUPPORTED)       /* path: the folder */ \
  X (TARGET_CANNOT_CREATE_DENIED, FAILED)        /* path: the folder, errnum */ \
  X (TARGET_CANNOT_CREATE,    FAILED)            /* path: the folder, errnum */ \
  X (TARGET_CANNOT_INSPECT,   FAILED)            /* path: the folder, errnum */ \
  X (TARGET_CANNOT_READ_FREE, FAILED)            /* path: the folder, errnum */ \
  X (TARGET_NOTHING_TO_FILL,  INVALID_ARGUMENT)  /* path: the folder */ \
  X (TARGET_FILE_TOO_SMALL,   INVALID_ARGUMENT)  /* path: the folder */ \
  X (TARGET_NO_SPACE,         NO_SPACE)          /* path: the folder, bytes: the file, bytes2: free */ \
  X (TARGET_NO_SPACE_ALLOCATING, NO_SPACE)       /* path: the folder, bytes: the file */ \
  X (TARGET_CANNOT_SIZE,      FAILED)            /* path: the folder, errnum */ \
  X (TARGET_NOT_AGREED,       NOT_AGREED)        /* path: the device */ \
  X (TARGET_FD_NOT_WRITABLE,  PERMISSION)        /* path */ \
  X (TARGET_FD_NO_DIRECT_IO,  FAILED)            /* path, errnum */ \
  X (TARGET_FD_NOT_EXCLUSIVE, BUSY)              /* path */ \
  X (TARGET_CANNOT_CHECK_EXCLUSIVE, FAILED)      /* path, errnum */ \
  X (TARGET_IN_USE,           BUSY)              /* path */ \
  X (TARGET_NEEDS_ROOT,       NEEDS_ROOT)        /* path */ \
  X (TARGET_CANNOT_OPEN,      FAILED)            /* path, errnum */ \
  X (TARGET_CHANGED,          FAILED)            /* path */ \
  X (TARGET_CANNOT_READ_SIZE, FAILED)            /* path, errnum */ \
  X (TARGET_NO_CAPACITY,      INVALID_ARGUMENT)  /* path */ \
  X (TARGET_BLOCK_UNALIGNED,  UNSUPPORTED)       /* path, bytes: the block size, n: the smallest unit in B */ \
  X (TARGET_OFFSET_UNALIGNED, INVALID_ARGUMENT)  /* bytes: the offset, a number of B; n: the unit in B */ \
  X (TARGET_REGION_OUTSIDE,   INVALID_ARGUMENT)  /* path, bytes: offset, bytes2: length (numbers of B), bytes3: the target's size */ \
  X (TARGET_CANNOT_SYNC,      FAILED)            /* path: the folder, errnum */ \
  X (TRIM_RANGE_OUTSIDE,      INVALID_ARGUMENT)  /* path */ \
  X (TRIM_READ_ONLY,          NEEDS_CONFIRMATION) /* path */ \
  X (TRIM_UNSUPPORTED,        UNSUPPORTED)       /* path, text: the method, "discard" or "punching holes" */ \
  X (TRIM_FAILED,             FAILED)            /* path, errnum */ \
  /* jobs and I/O */ \
  X (JOB_RW_UNKNOWN,          INVALID_ARGUMENT)  /* text: the pattern as typed */ \
  X (JOB_DATA_UNKNOWN,        INVALID_ARGUMENT)  /* text: the data pattern as typed */ \
  X (JOB_BLOCK_SIZE_RANGE,    INVALID_ARGUMENT)  /* bytes: the block size, a number of B */ \
  X (JOB_BLOCK_SIZE_UNALIGNED, INVALID_ARGUMENT) /* bytes: the block size, a number of B */ \
  X (JOB_QUEUE_DEPTH_RANGE,   INVALID_ARGUMENT)  /* n: the queue depth, n2: the largest allowed */ \
  X (JOB_WORKERS_RANGE,       INVALID_ARGUMENT)  /* n: the workers, n2: the largest allowed */ \
  X (JOB_READ_SHARE_RANGE,    INVALID_ARGUMENT)  /* n: the read share in % */ \
  X (JOB_BUFFERS_TOO_LARGE,   INVALID_ARGUMENT)  /* n: workers, n2: queue depth, bytes: block size */ \
  X (JOB_NEGATIVE_DURATION,   INVALID_ARGUMENT)  /* none */ \
  X (JOB_SAMPLE_INTERVAL,     INVALID_ARGUMENT)  /* none */ \
  X (JOB_NEVER_STOPS,         INVALID_ARGUMENT)  /* none */ \
  X (JOB_DATA_LIMIT_SMALL,    INVALID_ARGUMENT)  /* bytes: the limit, a number of B */ \
  X (JOB_REGION_TOO_SMALL,    INVALID_ARGUMENT)  /* none */ \
  X (JOB_REGION_PAST_END,     INVALID_ARGUMENT)  /* path */ \
  X (JOB_TARGET_READ_ONLY,    NEEDS_CONFIRMATION) /* path */ \
  X (BACKEND_UNKNOWN,         INVALID_ARGUMENT)  /* text: the backend as typed */ \
  X (IO_URING_UNAVAILABLE,    FAILED)            /* errnum */ \
  X (IO_TARGET_GONE,          IO)                /* path */ \
  X (IO_MEDIA_ERROR,          IO)                /* path, bytes: the offset, a number of B */ \
  X (IO_FAILED,               IO)                /* path, bytes: the offset, text: the thread's or the system's words */ \
  X (IO_FAILED_NO_SPACE,      NO_SPACE)          /* path, bytes, text: as IO_FAILED, a test file whose filesystem filled */ \
  X (JOB_CANCELLED,           CANCELLED)         /* none: after I/O was measured */ \
  X (JOB_CANCELLED_BEFORE_IO, CANCELLED)         /* none */ \
  /* runs and steps */ \
  X (STEP_PAST_END,           INVALID_ARGUMENT)  /* path: the target, bytes: its size */ \
  X (STEP_TOO_SMALL,          INVALID_ARGUMENT)  /* path: the target */ \
  X (ERASE_NOT_AGREED,        NEEDS_CONFIRMATION) /* path: the target */ \
  X (ERASE_FILLED_PART,       INVALID_ARGUMENT)  /* text: the erase method */ \
  X (ERASE_UNAVAILABLE,       UNSUPPORTED)       /* text: the erase method */ \
  X (COPY_NOT_A_FOLDER,       INVALID_ARGUMENT)  /* path: the target */ \
  X (STATE_FREE_UNKNOWN,      FAILED)            /* path: the folder */ \
  X (STATE_LEAVE_TOO_LITTLE,  INVALID_ARGUMENT)  /* path: the folder, bytes: to leave free, bytes2: the least */ \
  X (STATE_NOT_ENOUGH_FREE,   NO_SPACE)          /* path: the folder, bytes: free, bytes2: to leave free */ \
  X (STATE_TARGET_TOO_SMALL,  INVALID_ARGUMENT)  /* path: the target */ \
  X (RUN_CANCELLED,           CANCELLED)         /* none */ \
  /* the write-fill and throttling analysis */ \
  X (FILL_EMPTY,              INVALID_ARGUMENT)  /* none */ \
  X (FILL_TOO_FEW,            INVALID_ARGUMENT)  /* n: the samples, n2: the fewest that show a cache */ \
  X (FILL_POSITION_ORDER,     INVALID_ARGUMENT)  /* n: the sample from 0, bytes: where it ends, bytes2: where the previous one ends */ \
  X (FILL_SPEED,              INVALID_ARGUMENT)  /* n: the sample from 0, x: its speed in B/s */ \
  X (SERIES_TIME_ORDER,       INVALID_ARGUMENT)  /* n: the sample from 0, n2: the series (NscAnalysisSeries), x: its time in s */ \
  X (TEMPERATURE_NOT_NUMBER,  INVALID_ARGUMENT)  /* n: the sample from 0 */ \
  X (FAST_THRESHOLD,          INVALID_ARGUMENT)  /* x: the threshold in B/s */ \
  X (THROTTLE_TOO_FEW,        INVALID_ARGUMENT)  /* n: the samples, n2: the fewest that show throttling */ \
  X (THROTTLE_SPEED,          INVALID_ARGUMENT)  /* n: the sample from 0, x: its speed in B/s */ \
  /* result files */ \
  X (RESULT_NOT_OBJECT,       INVALID_ARGUMENT)  /* n: the schema this version reads */ \
  X (RESULT_MEMBER_MISSING,   INVALID_ARGUMENT)  /* n, text: the member, n2: where: the step from 1, 0 the file, -1 a warning */ \
  X (RESULT_MEMBER_TYPE,      INVALID_ARGUMENT)  /* n, text: the member, n2: where */ \
  X (RESULT_PERCENTILE,       INVALID_ARGUMENT)  /* n, n2: where */ \
  X (RESULT_SERIES_LENGTH,    INVALID_ARGUMENT)  /* n, n2: where */ \
  X (RESULT_SERIES_VALUE,     INVALID_ARGUMENT)  /* n, text: the column, n2: where */ \
  X (RESULT_STEP_NOT_OBJECT,  INVALID_ARGUMENT)  /* n, n2: the step from 1 */ \
  X (RESULT_WARNING_NOT_OBJECT, INVALID_ARGUMENT) /* n */ \
  X (RESULT_SCHEMA,           UNSUPPORTED)       /* n: the file's schema, n2: the schema this version reads */ \
  X (RESULT_TOO_DEEP,         INVALID_ARGUMENT)  /* n: the deepest nesting read */ \
  X (RESULT_DAMAGED,          INVALID_ARGUMENT)  /* text: the parser's message */ \
  X (RESULT_NOT_FOUND,        NOT_FOUND)         /* path, errnum (its class kept: not from the errno) */ \
  X (RESULT_UNREADABLE,       FAILED)            /* path, errnum (its class kept: not from the errno) */ \
  X (RESULT_NOT_REGULAR,      INVALID_ARGUMENT)  /* path */ \
  X (RESULT_TOO_LARGE,        INVALID_ARGUMENT)  /* path, bytes: its size, bytes2: the largest read */ \
  X (RESULT_SAVE,             FAILED)            /* path, text: the system's message */ \
  X (OUTPUT_NOT_FILE,         INVALID_ARGUMENT)  /* path: an output that is a device, a folder or a socket */ \
  /* fio's output, imported */ \
  X (FIO_DAMAGED,             INVALID_ARGUMENT)  /* text: the parser's message */ \
  X (FIO_TOO_DEEP,            INVALID_ARGUMENT)  /* n: the deepest nesting read */ \
  X (FIO_NOT_FIO,             INVALID_ARGUMENT)  /* none: no "fio version" */ \
  X (FIO_NO_JOBS,             INVALID_ARGUMENT)  /* none */ \
  X (FIO_TOO_MANY_JOBS,       INVALID_ARGUMENT)  /* n: the jobs, n2: the most read */ \
  X (FIO_JOB_MEMBER,          INVALID_ARGUMENT)  /* n: the job from 1 (0: the file), text: the member */ \
  X (FIO_LOG_LINE,            INVALID_ARGUMENT)  /* path: the log, n: the line from 1 */ \
  X (FIO_NOT_REGULAR,         INVALID_ARGUMENT)  /* path */ \
  X (FIO_TOO_LARGE,           INVALID_ARGUMENT)  /* path, bytes: its size, bytes2: the most read */ \
  /* copies */ \
  X (COPY_FOLDER_UNUSABLE,    FAILED)            /* path: the folder, errnum */ \
  X (COPY_NO_ROOM,            NO_SPACE)          /* path: the folder */ \
  X (COPY_OUT_OF_MEMORY,      FAILED)            /* none */ \
  X (COPY_SOURCE_CREATE,      FAILED)            /* path: the folder, errnum */ \
  X (COPY_SOURCE_FULL,        NO_SPACE)          /* path: the folder */ \
  X (COPY_SOURCE_WRITE,       FAILED)            /* path: the folder, errnum */ \
  X (COPY_DEST_CREATE,        FAILED)            /* path: the folder, errnum */ \
  X (COPY_FULL,               NO_SPACE)          /* path: the folder */ \
  X (COPY_FAILED,             FAILED)            /* path: the folder, errnum */ \
  /* the write budget */ \
  X (STOP_NOT_OBJECT,         INVALID_ARGUMENT)  /* none */ \
  X (STOP_WHEN,               INVALID_ARGUMENT)  /* none */ \
  X (STOP_BELOW,              INVALID_ARGUMENT)  /* none */ \
  X (STOP_COUNT,              INVALID_ARGUMENT)  /* text: the member, n: the least, n2: the most */ \
  X (STOP_CAP_FACTOR,         INVALID_ARGUMENT)  /* none */ \
  X (STOP_CAP_SHARE,          INVALID_ARGUMENT)  /* none */ \
  X (BUDGET_FREE_SPACE,       FAILED)            /* path, errnum (class from it) */ \
  /* capacity checks */ \
  X (VERIFY_UNIT,             INVALID_ARGUMENT)  /* bytes: the block size, bytes2: the offset */ \
  X (VERIFY_MIXED,            INVALID_ARGUMENT)  /* none */ \
  X (PROBE_TOO_SMALL,         INVALID_ARGUMENT)  /* bytes: the drive's size, bytes2: the least */ \
  X (PROBE_NOT_A_DRIVE,       INVALID_ARGUMENT)  /* path: the target */ \
  X (PROBE_PARTITION,         INVALID_ARGUMENT)  /* path: the partition */ \
  X (PROBE_BLOCK_SIZE,        UNSUPPORTED)       /* path, bytes: its logical block size */ \
  X (PROBE_NOT_AGREED,        NEEDS_CONFIRMATION) /* path: the device */ \
  /* other */ \
  X (REGION_BELOW_BLOCK,      INVALID_ARGUMENT)  /* bytes: the region, bytes2: the block size */

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

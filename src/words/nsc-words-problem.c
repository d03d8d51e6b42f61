/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "nsc-words.h"
#include "nsc-words-problem.h"

/* Strings made for one sentence, freed with it. */
typedef struct
{
  GPtrArray *kept;
} Say;

static const char *
keep (Say  *say,
      char *text)
{
  g_ptr_array_add (say->kept, text);
  return text;
}

static const char *
size (Say     *say,
      guint64  bytes)
{
  return keep (say, nsc_words_size (bytes));
}

static const char *
str (const char *s)
{
  return s ? s : "";
}

/* A count of bytes as a plain number, where the sentence says "B" itself. */
static const char *
number (Say     *say,
        guint64  value)
{
  return keep (say, g_strdup_printf ("%" G_GUINT64_FORMAT, value));
}

/* Where a failed I/O was, as the middle of "I/O on %s failed %s". */
static const char *
at_offset (Say     *say,
           guint64  offset)
{
  /* Translators: where an I/O failed, "at offset 25165824" (a number of bytes) */
  return keep (say, g_strdup_printf (_("at offset %s"), number (say, offset)));
}

/* Where in a result file (an error's n2): a step from 1, 0 the file, -1 a warning. */
static const char *
place (Say    *say,
       gint64  where)
{
  if (where > 0)
    /* Translators: a place in a result file, "step 2" */
    return keep (say, g_strdup_printf (_("step %u"), (guint) where));
  if (where == 0)
    /* Translators: a place in a result file */
    return _("the file");
  /* Translators: a place in a result file */
  return _("a warning");
}

/* A file that is not a result: @detail says what is wrong. */
static char *
not_result (const NscErrorFields *f,
            const char           *detail)
{
  /* Translators: %d is the schema's number, %s what is wrong, "the file has no “steps”" */
  return g_strdup_printf (_("This is not a Nandscope result (schema %d): %s"), (int) f->n, detail);
}

/* A step's "stop" rule that cannot be read: @detail says what is wrong. */
static char *
stop (const char *detail)
{
  return g_strdup_printf (_("“stop”: %s"), detail);
}

/* One sentence per problem; the compiler checks that none is missing. */
static char *
say_problem (Say                  *say,
             NscProblem            problem,
             const NscErrorFields *f)
{
  switch (problem)
    {
    /* sizes and durations as typed */
    case NSC_PROBLEM_SIZE_TOO_LARGE:
      return g_strdup_printf (_("The size “%s” is too large"), str (f->text));
    case NSC_PROBLEM_SIZE_NOT_WHOLE:
      return g_strdup_printf (_("The size “%s” is not a whole number of bytes"), str (f->text));
    case NSC_PROBLEM_SIZE_INVALID:
      return g_strdup_printf (_("“%s” is not a size; write it like 4k, 128KiB, 1m or 2g"),
                              str (f->text));
    case NSC_PROBLEM_DURATION_TOO_LONG:
      return g_strdup_printf (_("The duration “%s” is too long"), str (f->text));
    case NSC_PROBLEM_DURATION_INVALID:
      return g_strdup_printf (_("“%s” is not a duration; write it like 5s, 500ms, 2m or 1h30m"),
                              str (f->text));

    /* presets */
    case NSC_PROBLEM_PRESET_MEMBER_SIZE:
      return g_strdup_printf (_("“%s” must be a size such as \"4k\" or a number of bytes"),
                              str (f->text));
    case NSC_PROBLEM_PRESET_MEMBER_SHARE:
      return g_strdup_printf (_("“%s” must be a size or a share from 0%% to 100%%"), str (f->text));
    case NSC_PROBLEM_PRESET_MEMBER_DURATION:
      return g_strdup_printf (_("“%s” must be a duration such as \"5s\""), str (f->text));
    case NSC_PROBLEM_PRESET_MEMBER_COUNT:
      return g_strdup_printf (_("“%s” must be a whole number from 0 to %u"), str (f->text),
                              (guint) f->n);
    case NSC_PROBLEM_PRESET_MEMBER_BOOLEAN:
      return g_strdup_printf (_("“%s” must be true or false"), str (f->text));
    case NSC_PROBLEM_PRESET_STEP_KIND:
      return g_strdup_printf (_("Unknown step kind “%s”; use job, idle, fill, trim, erase, copy or surface"),
                              str (f->text));
    case NSC_PROBLEM_PRESET_SURFACE_POINTS:
      return g_strdup (_("A surface step needs “points”, at least 2"));
    case NSC_PROBLEM_PRESET_NOT_JSON:
      return g_strdup_printf (_("The preset is not valid JSON: %s"), str (f->text));
    case NSC_PROBLEM_PRESET_NOT_OBJECT:
      return g_strdup (_("A preset must be a JSON object"));
    case NSC_PROBLEM_PRESET_NO_NAME:
      return g_strdup (_("A preset needs a “name”"));
    case NSC_PROBLEM_PRESET_INCLUDE:
      return g_strdup (_("“include” must be an array of preset names"));
    case NSC_PROBLEM_PRESET_INCLUDE_NESTED:
      return g_strdup (_("An included preset cannot include others"));
    case NSC_PROBLEM_PRESET_NO_STEPS:
      return g_strdup (_("A preset needs a non-empty “steps” array"));
    case NSC_PROBLEM_PRESET_STEP_NOT_OBJECT:
      return g_strdup_printf (_("Step %u of preset “%s” is not an object"), (guint) f->n,
                              str (f->text));
    case NSC_PROBLEM_PRESET_STEP:
      return g_strdup_printf (_("Step %u of preset “%s”: %s"), (guint) f->n, str (f->text),
                              str (f->text2));
    case NSC_PROBLEM_PRESET_UNKNOWN:
      return g_strdup_printf (_("There is no preset “%s”; the presets are: %s"), str (f->text),
                              str (f->text2));

    /* targets */
    case NSC_PROBLEM_TARGET_NONE:
      return g_strdup (_("No target given; name a folder, a new file or a block device"));
    case NSC_PROBLEM_TARGET_KIND:
      return g_strdup_printf (_("%s is neither a folder, a file nor a block device"), str (f->path));
    case NSC_PROBLEM_TARGET_FD_NOT_DEVICE:
      return g_strdup_printf (_("%s is not a block device, but a device descriptor came with it"),
                              str (f->path));
    case NSC_PROBLEM_TARGET_FILE_EXISTS:
      return g_strdup_printf (_("%s already exists and Nandscope never overwrites files; "
                                "name a folder or a file that does not exist yet"), str (f->path));
    case NSC_PROBLEM_TARGET_FOLDER_MISSING:
      return g_strdup_printf (_("The folder %s does not exist; name an existing folder, a new file "
                                "in one, or a block device"), str (f->path));
    case NSC_PROBLEM_TARGET_CANNOT_USE:
      return g_strdup_printf (_("Cannot use %s"), str (f->path));
    case NSC_PROBLEM_TARGET_NO_DIRECT_IO:
      return g_strdup_printf (_("The filesystem of %s does not support direct I/O, so a test there "
                                "would measure the page cache; choose a folder on the drive itself"),
                              str (f->path));
    case NSC_PROBLEM_TARGET_CANNOT_CREATE_DENIED:
      return g_strdup_printf (_("Cannot create a test file in %s (choose a folder you can write to)"),
                              str (f->path));
    case NSC_PROBLEM_TARGET_CANNOT_CREATE:
      return g_strdup_printf (_("Cannot create a test file in %s"), str (f->path));
    case NSC_PROBLEM_TARGET_CANNOT_INSPECT:
      return g_strdup_printf (_("Cannot inspect the test file in %s"), str (f->path));
    case NSC_PROBLEM_TARGET_CANNOT_READ_FREE:
      return g_strdup_printf (_("Cannot read the free space of %s"), str (f->path));
    case NSC_PROBLEM_TARGET_NOTHING_TO_FILL:
      return g_strdup_printf (_("There is no free space to fill in %s"), str (f->path));
    case NSC_PROBLEM_TARGET_FILE_TOO_SMALL:
      return g_strdup_printf (_("The test file in %s must be at least 4 KiB"), str (f->path));
    case NSC_PROBLEM_TARGET_NO_SPACE:
      return g_strdup_printf (_("Not enough free space in %s: the test file needs %s and %s are free; "
                                "choose a smaller test size or another folder"),
                              str (f->path), size (say, f->bytes), size (say, f->bytes2));
    case NSC_PROBLEM_TARGET_NO_SPACE_ALLOCATING:
      return g_strdup_printf (_("Not enough free space in %s for a %s test file; "
                                "choose a smaller test size or another folder"),
                              str (f->path), size (say, f->bytes));
    case NSC_PROBLEM_TARGET_CANNOT_SIZE:
      return g_strdup_printf (_("Cannot size the test file in %s"), str (f->path));
    case NSC_PROBLEM_TARGET_NOT_AGREED:
      return g_strdup_printf (_("This test writes to %s and destroys everything on it, but "
                                "destroying its data was not agreed to"), str (f->path));
    case NSC_PROBLEM_TARGET_FD_NOT_WRITABLE:
      return g_strdup_printf (_("The descriptor for %s does not allow writing"), str (f->path));
    case NSC_PROBLEM_TARGET_FD_NO_DIRECT_IO:
      return g_strdup_printf (_("Cannot use direct I/O on %s"), str (f->path));
    case NSC_PROBLEM_TARGET_FD_NOT_EXCLUSIVE:
      return g_strdup_printf (_("The descriptor for %s does not hold the device exclusively; "
                                "nothing was written"), str (f->path));
    case NSC_PROBLEM_TARGET_CANNOT_CHECK_EXCLUSIVE:
      return g_strdup_printf (_("Cannot check that %s is held exclusively"), str (f->path));
    case NSC_PROBLEM_TARGET_IN_USE:
      return g_strdup_printf (_("%s is in use (mounted, used as swap or held by another device); "
                                "unmount it or choose a test file instead"), str (f->path));
    case NSC_PROBLEM_TARGET_NEEDS_ROOT:
      return g_strdup_printf (_("Cannot open %s: permission denied; testing a raw device needs root"),
                              str (f->path));
    case NSC_PROBLEM_TARGET_CANNOT_OPEN:
      return g_strdup_printf (_("Cannot open %s"), str (f->path));
    case NSC_PROBLEM_TARGET_CHANGED:
      return g_strdup_printf (_("%s changed while it was being opened; try again"), str (f->path));
    case NSC_PROBLEM_TARGET_CANNOT_READ_SIZE:
      return g_strdup_printf (_("Cannot read the size of %s"), str (f->path));
    case NSC_PROBLEM_TARGET_NO_CAPACITY:
      return g_strdup_printf (_("%s has no capacity (an empty loop device or zram without disksize?)"),
                              str (f->path));
    case NSC_PROBLEM_TARGET_BLOCK_UNALIGNED:
      return g_strdup_printf (_("%s cannot do direct I/O in %s blocks: its smallest unit is %u B%s; "
                                "use a block size that is a multiple of %u B"),
                              str (f->path), size (say, f->bytes), (guint) f->n,
                              f->n >= 4096 ? _(" (a 4Kn device)") : "", (guint) f->n);
    case NSC_PROBLEM_TARGET_OFFSET_UNALIGNED:
      /* Translators: the offset is a number of bytes */
      return g_strdup_printf (_("The region offset %s is not a multiple of %u B"),
                              number (say, f->bytes), (guint) f->n);
    case NSC_PROBLEM_TARGET_REGION_OUTSIDE:
      /* Translators: the offset and the length are numbers of bytes; then the target and
       * its size */
      return g_strdup_printf (_("The region (offset %s, length %s) does not fit in %s (%s)"),
                              number (say, f->bytes), number (say, f->bytes2), str (f->path),
                              size (say, f->bytes3));
    case NSC_PROBLEM_TARGET_CANNOT_SYNC:
      return g_strdup_printf (_("Cannot write the test file in %s to the drive"), str (f->path));
    case NSC_PROBLEM_TRIM_RANGE_OUTSIDE:
      return g_strdup_printf (_("The range to trim does not fit in %s"), str (f->path));
    case NSC_PROBLEM_TRIM_READ_ONLY:
      return g_strdup_printf (_("%s was opened read-only; trimming it destroys data"), str (f->path));
    case NSC_PROBLEM_TRIM_UNSUPPORTED:
      return g_strdup_printf (_("%s does not support TRIM (%s)"), str (f->path), str (f->text));
    case NSC_PROBLEM_TRIM_FAILED:
      return g_strdup_printf (_("TRIM on %s failed"), str (f->path));

    /* jobs and I/O */
    case NSC_PROBLEM_JOB_RW_UNKNOWN:
      return g_strdup_printf (_("“%s” is not an I/O pattern; use read, write, randread, randwrite, rw or randrw"),
                              str (f->text));
    case NSC_PROBLEM_JOB_DATA_UNKNOWN:
      return g_strdup_printf (_("“%s” is not a data pattern; use random, compressible, zeros or verify"),
                              str (f->text));
    case NSC_PROBLEM_JOB_BLOCK_SIZE_RANGE:
      /* Translators: the block size is a number of bytes */
      return g_strdup_printf (_("Block size %s B is out of range; use 512 B to 64 MiB"),
                              number (say, f->bytes));
    case NSC_PROBLEM_JOB_BLOCK_SIZE_UNALIGNED:
      /* Translators: the block size is a number of bytes */
      return g_strdup_printf (_("Block size %s B is not a multiple of 512 B, which direct I/O needs"),
                              number (say, f->bytes));
    case NSC_PROBLEM_JOB_QUEUE_DEPTH_RANGE:
      return g_strdup_printf (_("Queue depth %u is out of range; use 1 to %u"), (guint) f->n,
                              (guint) f->n2);
    case NSC_PROBLEM_JOB_WORKERS_RANGE:
      return g_strdup_printf (_("Worker count %u is out of range; use 1 to %u"), (guint) f->n,
                              (guint) f->n2);
    case NSC_PROBLEM_JOB_READ_SHARE_RANGE:
      return g_strdup_printf (_("Read share %u %% is out of range; use 0 to 100"), (guint) f->n);
    case NSC_PROBLEM_JOB_BUFFERS_TOO_LARGE:
      return g_strdup_printf (_("%u workers × queue depth %u × %s blocks need more than 1 GiB of buffers; "
                                "lower the queue depth or the block size"),
                              (guint) f->n, (guint) f->n2, size (say, f->bytes));
    case NSC_PROBLEM_JOB_NEGATIVE_DURATION:
      return g_strdup (_("Durations cannot be negative"));
    case NSC_PROBLEM_JOB_SAMPLE_INTERVAL:
      return g_strdup (_("The sampling interval must be at least 10 ms"));
    case NSC_PROBLEM_JOB_NEVER_STOPS:
      return g_strdup (_("The job never stops; give it a time, a size of data or “once”"));
    case NSC_PROBLEM_JOB_DATA_LIMIT_SMALL:
      /* Translators: the limit is a number of bytes */
      return g_strdup_printf (_("The data limit (%s B) is smaller than one block"),
                              number (say, f->bytes));
    case NSC_PROBLEM_JOB_REGION_TOO_SMALL:
      return g_strdup (_("The region is too small to give every worker a block of its own"));
    case NSC_PROBLEM_JOB_REGION_PAST_END:
      return g_strdup_printf (_("The region offset is past the end of %s"), str (f->path));
    case NSC_PROBLEM_JOB_TARGET_READ_ONLY:
      return g_strdup_printf (_("%s was opened read-only; this job writes"), str (f->path));
    case NSC_PROBLEM_BACKEND_UNKNOWN:
      return g_strdup_printf (_("“%s” is not an I/O backend; use auto, io_uring, psync or null"),
                              str (f->text));
    case NSC_PROBLEM_IO_URING_UNAVAILABLE:
      return g_strdup (_("io_uring is not available"));
    case NSC_PROBLEM_IO_TARGET_GONE:
      return g_strdup_printf (_("%s disappeared during the test (removed or disconnected); what was "
                                "measured before is kept"), str (f->path));
    case NSC_PROBLEM_IO_MEDIA_ERROR:
      return g_strdup_printf (_("I/O on %s failed %s: the drive reported a media error (a block it "
                                "cannot read or write)"), str (f->path), at_offset (say, f->bytes));
    case NSC_PROBLEM_IO_FAILED:
    case NSC_PROBLEM_IO_FAILED_NO_SPACE:
      return g_strdup_printf (_("I/O on %s failed %s: %s"), str (f->path), at_offset (say, f->bytes),
                              str (f->text));
    case NSC_PROBLEM_JOB_CANCELLED:
      return g_strdup (_("Cancelled"));
    case NSC_PROBLEM_JOB_CANCELLED_BEFORE_IO:
      return g_strdup (_("Cancelled before any I/O was measured"));

    /* runs and steps */
    case NSC_PROBLEM_STEP_PAST_END:
      return g_strdup_printf (_("The step starts past the end of %s (%s)"), str (f->path),
                              size (say, f->bytes));
    case NSC_PROBLEM_STEP_TOO_SMALL:
      return g_strdup_printf (_("%s is too small for this step"), str (f->path));
    case NSC_PROBLEM_ERASE_NOT_AGREED:
      return g_strdup_printf (_("Erasing %s refused: it is not open for writing with consent to destroy "
                                "its data"), str (f->path));
    case NSC_PROBLEM_ERASE_FILLED_PART:
      return g_strdup_printf (_("An NVMe %s would erase the filled part of the drive too; with a fill state, "
                                "erase by trim"), str (f->text));
    case NSC_PROBLEM_ERASE_UNAVAILABLE:
      return g_strdup_printf (_("Erasing by %s is not available here; use trim"), str (f->text));
    case NSC_PROBLEM_COPY_NOT_A_FOLDER:
      return g_strdup_printf (_("A copy test needs a folder on a mounted filesystem, not %s"),
                              str (f->path));
    case NSC_PROBLEM_STATE_FREE_UNKNOWN:
      return g_strdup_printf (_("Cannot read the free space of %s"), str (f->path));
    case NSC_PROBLEM_STATE_LEAVE_TOO_LITTLE:
      return g_strdup_printf (_("Leaving only %s free would leave the filesystem of %s nearly full; "
                                "leave at least %s free (what a write-fill leaves there)"),
                              size (say, f->bytes), str (f->path), size (say, f->bytes2));
    case NSC_PROBLEM_STATE_NOT_ENOUGH_FREE:
      return g_strdup_printf (_("%s has %s free, not more than the %s to leave free"), str (f->path),
                              size (say, f->bytes), size (say, f->bytes2));
    case NSC_PROBLEM_STATE_TARGET_TOO_SMALL:
      return g_strdup_printf (_("%s is not larger than the space to leave free"), str (f->path));
    case NSC_PROBLEM_RUN_CANCELLED:
      return g_strdup (_("Cancelled"));

    /* the write-fill and throttling analysis */
    case NSC_PROBLEM_FILL_EMPTY:
      return g_strdup (_("The series is empty: nothing was measured"));
    case NSC_PROBLEM_FILL_TOO_FEW:
      return g_strdup_printf (_("Only %u samples: at least %u are needed to see an SLC cache; "
                                "write more data or sample more often"), (guint) f->n, (guint) f->n2);
    case NSC_PROBLEM_FILL_POSITION_ORDER:
      /* Translators: the sample's position and the previous one's, in bytes */
      return g_strdup_printf (_("Sample %u ends at byte %llu, not after the previous one (%llu): "
                                "positions must increase"), (guint) f->n,
                              (unsigned long long) f->bytes, (unsigned long long) f->bytes2);
    case NSC_PROBLEM_FILL_SPEED:
      return g_strdup_printf (_("Sample %u has a speed of %g B/s: every sample that wrote "
                                "bytes needs a positive speed"), (guint) f->n, f->x);
    case NSC_PROBLEM_SERIES_TIME_ORDER:
      /* Translators: %s is "Speed" or "Temperature" */
      return g_strdup_printf (_("%s sample %u is at %g s, not after the previous one: times "
                                "must increase"),
                              f->n2 == NSC_ANALYSIS_SERIES_SPEED ? _("Speed") : _("Temperature"),
                              (guint) f->n, f->x);
    case NSC_PROBLEM_TEMPERATURE_NOT_NUMBER:
      return g_strdup_printf (_("Temperature sample %u is not a number"), (guint) f->n);
    case NSC_PROBLEM_FAST_THRESHOLD:
      return g_strdup_printf (_("A threshold of %g B/s cannot tell fast writes from slow ones"), f->x);
    case NSC_PROBLEM_THROTTLE_TOO_FEW:
      return g_strdup_printf (_("Only %u speed samples: at least %u are needed to see throttling; "
                                "run the thermal test longer"), (guint) f->n, (guint) f->n2);
    case NSC_PROBLEM_THROTTLE_SPEED:
      return g_strdup_printf (_("Speed sample %u is %g B/s: every sample needs a positive speed"),
                              (guint) f->n, f->x);

    /* result files */
    case NSC_PROBLEM_RESULT_NOT_OBJECT:
      return not_result (f, _("the file does not hold a JSON object"));
    case NSC_PROBLEM_RESULT_MEMBER_MISSING:
      /* Translators: "step 2 has no “label”" */
      return not_result (f, keep (say, g_strdup_printf (_("%s has no “%s”"), place (say, f->n2),
                                                        str (f->text))));
    case NSC_PROBLEM_RESULT_MEMBER_TYPE:
      /* Translators: "“label” of step 2 has the wrong type" */
      return not_result (f, keep (say, g_strdup_printf (_("“%s” of %s has the wrong type"),
                                                        str (f->text), place (say, f->n2))));
    case NSC_PROBLEM_RESULT_PERCENTILE:
      return not_result (f, keep (say, g_strdup_printf (_("a latency percentile of %s is not a number"),
                                                        place (say, f->n2))));
    case NSC_PROBLEM_RESULT_SERIES_LENGTH:
      return not_result (f, keep (say, g_strdup_printf (_("the series columns of %s differ in length"),
                                                        place (say, f->n2))));
    case NSC_PROBLEM_RESULT_SERIES_VALUE:
      return not_result (f, keep (say, g_strdup_printf (_("the series “%s” of %s holds a non-number"),
                                                        str (f->text), place (say, f->n2))));
    case NSC_PROBLEM_RESULT_STEP_NOT_OBJECT:
      /* Translators: "step 2 is not an object" */
      return not_result (f, keep (say, g_strdup_printf (_("%s is not an object"), place (say, f->n2))));
    case NSC_PROBLEM_RESULT_WARNING_NOT_OBJECT:
      return not_result (f, _("a warning is not an object"));
    case NSC_PROBLEM_RESULT_SCHEMA:
      return g_strdup_printf (_("This result has schema %lld; this version of Nandscope reads "
                                "schema %d"), (long long) f->n, (int) f->n2);
    case NSC_PROBLEM_RESULT_TOO_DEEP:
      return g_strdup_printf (_("This is not a Nandscope result: its JSON nests deeper than %d levels"),
                              (int) f->n);
    case NSC_PROBLEM_RESULT_DAMAGED:
      return g_strdup_printf (_("This is not a Nandscope result: the JSON is damaged (%s)"),
                              str (f->text));
    case NSC_PROBLEM_RESULT_NOT_FOUND:
    case NSC_PROBLEM_RESULT_UNREADABLE:
      return g_strdup_printf (_("Cannot read %s"), str (f->path));
    case NSC_PROBLEM_RESULT_NOT_REGULAR:
      return g_strdup_printf (_("%s: not a regular file; choose a result saved by Nandscope (.json)"),
                              str (f->path));
    case NSC_PROBLEM_RESULT_TOO_LARGE:
      /* Translators: the file, its size, and the largest result read */
      return g_strdup_printf (_("%s: %s, more than any Nandscope result (at most %s); choose a "
                                "result saved by Nandscope"), str (f->path), size (say, f->bytes),
                              size (say, f->bytes2));
    case NSC_PROBLEM_RESULT_SAVE:
      return g_strdup_printf (_("Cannot save the result to %s: %s"), str (f->path), str (f->text));
    case NSC_PROBLEM_OUTPUT_NOT_FILE:
      /* Translators: %s is the path given for a result, a job file or a chart */
      return g_strdup_printf (_("%s is not a file: a device or a folder is never written over; "
                                "give the name of a new or existing file"), str (f->path));

    /* fio's output, imported */
    case NSC_PROBLEM_FIO_DAMAGED:
      return g_strdup_printf (_("This is not fio's JSON output: the JSON is damaged (%s)"), str (f->text));
    case NSC_PROBLEM_FIO_TOO_DEEP:
      return g_strdup_printf (_("This is not fio's JSON output: its JSON nests deeper than %d levels"),
                              (int) f->n);
    case NSC_PROBLEM_FIO_NOT_FIO:
      return g_strdup (_("This is not fio's JSON output: it has no “fio version”; run fio with "
                         "--output-format=json"));
    case NSC_PROBLEM_FIO_NO_JOBS:
      return g_strdup (_("This fio output holds no jobs"));
    case NSC_PROBLEM_FIO_TOO_MANY_JOBS:
      return g_strdup_printf (_("This fio output holds %lld jobs; Nandscope reads at most %lld"),
                              (long long) f->n, (long long) f->n2);
    case NSC_PROBLEM_FIO_JOB_MEMBER:
      /* Translators: "fio's job 2: “io_bytes” is missing, not a number or out of range" */
      return g_strdup_printf (_("fio's job %lld: “%s” is missing, of the wrong type or out of range"),
                              (long long) f->n, str (f->text));
    case NSC_PROBLEM_FIO_LOG_LINE:
      return g_strdup_printf (_("%s, line %lld: not a line of fio's bandwidth log (time, KiB/s, "
                                "direction, block size, offset)"), str (f->path), (long long) f->n);
    case NSC_PROBLEM_FIO_NOT_REGULAR:
      return g_strdup_printf (_("%s: not a regular file; choose fio's JSON output or its logs"),
                              str (f->path));
    case NSC_PROBLEM_FIO_TOO_LARGE:
      /* Translators: the file, its size, and the largest read */
      return g_strdup_printf (_("%s: %s, more than Nandscope reads of fio's output (at most %s)"),
                              str (f->path), size (say, f->bytes), size (say, f->bytes2));

    /* copies */
    case NSC_PROBLEM_COPY_FOLDER_UNUSABLE:
      return g_strdup_printf (_("Cannot use %s"), str (f->path));
    case NSC_PROBLEM_COPY_NO_ROOM:
      return g_strdup_printf (_("Not enough free space in %s for a copy test"), str (f->path));
    case NSC_PROBLEM_COPY_OUT_OF_MEMORY:
      return g_strdup (_("Out of memory"));
    case NSC_PROBLEM_COPY_SOURCE_CREATE:
      return g_strdup_printf (_("Cannot create a file to copy in %s"), str (f->path));
    case NSC_PROBLEM_COPY_SOURCE_FULL:
      return g_strdup_printf (_("%s filled up while the files to copy were written"), str (f->path));
    case NSC_PROBLEM_COPY_SOURCE_WRITE:
      return g_strdup_printf (_("Cannot write the files to copy in %s"), str (f->path));
    case NSC_PROBLEM_COPY_DEST_CREATE:
      return g_strdup_printf (_("Cannot create the copies in %s"), str (f->path));
    case NSC_PROBLEM_COPY_FULL:
      return g_strdup_printf (_("%s filled up during the copy"), str (f->path));
    case NSC_PROBLEM_COPY_FAILED:
      return g_strdup_printf (_("The copy in %s failed"), str (f->path));

    /* the write budget */
    case NSC_PROBLEM_STOP_NOT_OBJECT:
      return stop (_("must be an object such as {\"when\": \"drop-held\"}"));
    case NSC_PROBLEM_STOP_WHEN:
      return stop (_("“when” must be \"drop-held\""));
    case NSC_PROBLEM_STOP_BELOW:
      return stop (_("“below” must be a share of the early speed from 0.05 to 0.95"));
    case NSC_PROBLEM_STOP_COUNT:
      return stop (keep (say, g_strdup_printf (_("“%s” must be a whole number from %u to %u"),
                                               str (f->text), (guint) f->n, (guint) f->n2)));
    case NSC_PROBLEM_STOP_CAP_FACTOR:
      return stop (_("“cap_cache_factor” must be a number from 1 to 100"));
    case NSC_PROBLEM_STOP_CAP_SHARE:
      return stop (_("“cap_share” must be a share of the region from 0.01 to 1"));
    case NSC_PROBLEM_BUDGET_FREE_SPACE:
      return g_strdup_printf (_("Cannot read the free space of %s"), str (f->path));

    /* capacity checks */
    case NSC_PROBLEM_VERIFY_UNIT:
      return g_strdup_printf (_("Checked data is written and read in whole 4 KiB blocks: the block "
                                "size (%s) and the offset (%s) must be multiples of 4 KiB"),
                              size (say, f->bytes), size (say, f->bytes2));
    case NSC_PROBLEM_VERIFY_MIXED:
      return g_strdup (_("Checked data is either written or read back in one test, not both "
                         "mixed"));
    case NSC_PROBLEM_PROBE_TOO_SMALL:
      return g_strdup_printf (_("The drive (%s) is too small for the quick probe, which needs %s "
                                "or more; check it whole with the capacity check"),
                              size (say, f->bytes), size (say, f->bytes2));
    case NSC_PROBLEM_PROBE_NOT_A_DRIVE:
      return g_strdup_printf (_("The quick probe checks a whole drive, and %s is not one: choose "
                                "the drive's device (for a folder, use the capacity check)"),
                              str (f->path));
    case NSC_PROBLEM_PROBE_PARTITION:
      return g_strdup_printf (_("%s is a partition: the quick probe checks the whole drive, whose "
                                "end is not the partition's; choose the drive's device"), str (f->path));
    case NSC_PROBLEM_PROBE_BLOCK_SIZE:
      return g_strdup_printf (_("The quick probe writes 4 KiB blocks, and %s takes no less than %s: "
                                "use the capacity check"), str (f->path), size (say, f->bytes));
    case NSC_PROBLEM_PROBE_NOT_AGREED:
      return g_strdup_printf (_("Probing %s refused: it is not open for writing with consent to "
                                "destroy its data"), str (f->path));

    /* other */
    case NSC_PROBLEM_REGION_BELOW_BLOCK:
      return g_strdup_printf (_("The region (%s) is smaller than one block (%s)"),
                              size (say, f->bytes), size (say, f->bytes2));

    case NSC_PROBLEM_NONE:
    case NSC_N_PROBLEMS:
    default:
      return g_strdup (nsc_problem_name (problem));
    }
}

char *
nsc_words_problem (NscProblem            problem,
                   const NscErrorFields *fields)
{
  static const NscErrorFields none = { 0 };
  Say say = { g_ptr_array_new_with_free_func (g_free) };
  g_autofree char *sentence = NULL;

  if (fields == NULL)
    fields = &none;
  sentence = say_problem (&say, problem, fields);
  g_ptr_array_unref (say.kept);
  if (fields->errnum != 0)
    /* Translators: a problem, then the system's words for its cause */
    return g_strdup_printf (_("%s: %s"), sentence, g_strerror (fields->errnum));
  return g_steal_pointer (&sentence);
}

void
nsc_words_problem_install (void)
{
  nsc_error_set_words (nsc_words_problem);
}

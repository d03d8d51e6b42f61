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
    /* jobs and I/O */
    /* runs and steps */
    /* the write-fill and throttling analysis */
    /* result files */
    /* copies */
    /* the write budget */

    /* capacity checks */
    case NSC_PROBLEM_VERIFY_UNIT:
      return g_strdup_printf (_("Checked data is written and read in whole 4 KiB blocks: the block "
                                "size (%s) and the offset (%s) must be multiples of 4 KiB"),
                              size (say, f->bytes), size (say, f->bytes2));
    case NSC_PROBLEM_VERIFY_MIXED:
      return g_strdup (_("Checked data is either written or read back in one test, not both "
                         "mixed"));

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

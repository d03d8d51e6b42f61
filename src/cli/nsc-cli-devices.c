/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "nsc-cli-devices.h"
#include "nsc-device.h"
#include "nsc-units.h"
#include "nsc-words.h"

static void
usage (FILE *out)
{
  fputs (_("Usage: nandscope-cli devices [--json] [--all]\n"
           "  --json   every fact as a JSON array on standard output\n"
           "  --all    include unattached loop and unconfigured zram devices\n"
           "NVMe Identify and SMART data need root; without it the list says which fields\n"
           "were unavailable.\n"), out);
}

static char *
format_temperature (const NscDeviceInfo *info)
{
  if (!info->have_temperature)
    return g_strdup ("-");
  return g_strdup_printf ("%.0f °C", info->temperature_c);
}

/* Pads @s to @width display columns: printf counts bytes, and "°" or "…" are two. */
static void
print_cell (const char *s,
            guint       width)
{
  glong len = g_utf8_strlen (s, -1);
  fputs (s, stdout);
  for (glong i = len; i < (glong) width; i++)
    fputc (' ', stdout);
}

static char *
ellipsize (const char *s,
           guint       width)
{
  if (g_utf8_strlen (s, -1) <= (glong) width)
    return g_strdup (s);
  {
    g_autofree char *head = g_utf8_substring (s, 0, width - 1);
    return g_strconcat (head, "…", NULL);
  }
}

static void
print_table (GPtrArray *devices)
{
  /* Translators: the headings of the devices list; "Temp" is the temperature */
  print_cell (C_("devices", "Device"), 14); print_cell (C_("devices", "Model"), 28);
  print_cell (C_("devices", "Size"), 11); print_cell (C_("devices", "Transport"), 16);
  print_cell (C_("devices", "Temp"), 8); puts (_("State"));

  for (guint i = 0; i < devices->len; i++)
    {
      NscDeviceInfo *d = g_ptr_array_index (devices, i);
      /* As drives are sold, as the app lists them. */
      g_autofree char *size = nsc_words_drive_size (d->capacity, FALSE);
      g_autofree char *link = nsc_device_info_describe_link (d);
      g_autofree char *transport = link ? g_strdup_printf ("%s %s", d->transport,
                                                           link + strlen ("PCIe "))
                                        : g_strdup (d->transport);
      g_autofree char *temp = format_temperature (d);
      g_autofree char *state = nsc_device_info_describe_state (d);
      g_autofree char *model = ellipsize (d->model ? d->model
                                          : d->backing_file ? d->backing_file : "-", 27);

      print_cell (d->devnode, 14);
      print_cell (model, 28);
      print_cell (size, 11);
      print_cell (transport, 16);
      print_cell (temp, 8);
      puts (state);
      if (d->link_warning)
        printf ("  ⚠ %s\n", d->link_warning);
      if (d->nvme && d->nvme->have_smart && d->nvme->critical_warning)
        {
          g_auto(GStrv) names = nsc_nvme_critical_warning_names (d->nvme->critical_warning);
          g_autofree char *joined = g_strjoinv (", ", names);
          printf (_("  ⚠ the drive reports a critical warning: %s\n"), joined);
        }
    }

  /* One note for everything root would have added, instead of a line per drive. */
  for (guint i = 0; i < devices->len; i++)
    {
      NscDeviceInfo *d = g_ptr_array_index (devices, i);
      for (guint k = 0; k < d->unavailable->len; k++)
        if (g_str_has_suffix (g_ptr_array_index (d->unavailable, k), "needs root"))
          {
            puts (_("\nNVMe Identify and SMART data need root: run as root for firmware "
                    "details, health and thermal counters."));
            return;
          }
    }
}

int
nsc_cli_devices (int    argc,
                 char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) devices = NULL;
  NscDiscoverFlags flags = NSC_DISCOVER_NVME;
  gboolean json = FALSE;

  for (int i = 0; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--json"))
        json = TRUE;
      else if (g_str_equal (argv[i], "--all"))
        flags |= NSC_DISCOVER_ALL;
      else if (g_str_equal (argv[i], "--help") || g_str_equal (argv[i], "-h"))
        {
          usage (stdout);
          return 0;
        }
      else
        {
          fprintf (stderr, _("nandscope-cli: Unknown option %s for devices; "
                     "it takes --json and --all\n"), argv[i]);
          return 2;
        }
    }

  devices = nsc_device_discover (flags, &error);
  if (devices == NULL)
    {
      fprintf (stderr, "nandscope-cli: %s\n", error->message);
      return 1;
    }

  if (json)
    {
      g_autoptr(JsonNode) node = nsc_device_list_to_json (devices);
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      g_autofree char *text = NULL;

      json_generator_set_pretty (gen, TRUE);
      json_generator_set_root (gen, node);
      text = json_generator_to_data (gen, NULL);
      puts (text);
    }
  else if (devices->len == 0)
    puts (_("No block devices found."));
  else
    print_table (devices);
  return 0;
}

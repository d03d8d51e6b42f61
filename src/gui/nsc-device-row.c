/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "nsc-device-row.h"
#include "nsc-words.h"

static const char *
transport_name (const char *transport)
{
  static const struct { const char *id; const char *name; } names[] = {
    { "nvme", N_("NVMe") },
    { "sata", N_("SATA") },
    { "scsi", N_("SCSI") },
    { "usb", N_("USB") },
    { "virtio", N_("Virtio") },
    { "mmc", N_("SD card") },
    { "loop", N_("Loop device") },
    { "zram", N_("Compressed RAM") },
    { "dm", N_("Device mapper") },
    { "md", N_("Software RAID") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (transport, names[i].id) == 0)
      return _(names[i].name);
  return NULL;
}

char *
nsc_device_row_title (const NscDeviceInfo *info)
{
  g_return_val_if_fail (info != NULL, NULL);

  if (info->model != NULL && *info->model != '\0')
    return g_strdup (info->model);
  if (g_strcmp0 (info->transport, "loop") == 0)
    /* TRANSLATORS: "Loop device loop3" */
    return g_strdup_printf (_("Loop device %s"), info->name);
  if (g_strcmp0 (info->transport, "zram") == 0)
    /* TRANSLATORS: "Compressed RAM zram0" */
    return g_strdup_printf (_("Compressed RAM %s"), info->name);
  if (g_strcmp0 (info->transport, "dm") == 0)
    /* TRANSLATORS: LVM, dm-crypt and the like: "Mapped device dm-0" */
    return g_strdup_printf (_("Mapped device %s"), info->name);
  if (g_strcmp0 (info->transport, "md") == 0)
    /* TRANSLATORS: "Software RAID md0" */
    return g_strdup_printf (_("Software RAID %s"), info->name);
  /* TRANSLATORS: a drive without a model name: "Drive sdb" */
  return g_strdup_printf (_("Drive %s"), info->name);
}

char *
nsc_device_row_facts (const NscDeviceInfo *info)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *link = NULL;
  const char *transport;

  g_return_val_if_fail (info != NULL, NULL);

  /* Drives are sold in decimal units, and that is how their owners know them. */
  g_ptr_array_add (parts, nsc_words_drive_size (info->capacity, FALSE));
  transport = transport_name (info->transport);
  link = nsc_device_info_describe_link (info);
  /* "PCIe 4.0 x4" says NVMe already. */
  if (link != NULL)
    g_ptr_array_add (parts, g_steal_pointer (&link));
  else if (transport != NULL && g_strcmp0 (info->transport, "loop") != 0
           && g_strcmp0 (info->transport, "zram") != 0)
    g_ptr_array_add (parts, g_strdup (transport));
  if (info->backing_file != NULL)
    g_ptr_array_add (parts, g_filename_display_basename (info->backing_file));
  if (info->have_temperature)
    g_ptr_array_add (parts, g_strdup_printf (_("%.0f °C"), info->temperature_c));
  /* Two drives of one model are told apart by their serial numbers. */
  if (info->serial != NULL && *info->serial != '\0')
    /* TRANSLATORS: a drive's serial number, "serial S5GXNX0R123456" */
    g_ptr_array_add (parts, g_strdup_printf (_("serial %s"), info->serial));
  g_ptr_array_add (parts, g_strdup_printf ("%s", info->name));
  g_ptr_array_add (parts, NULL);

  return g_strjoinv (" · ", (char **) parts->pdata);
}

static char *
join_mountpoints (const NscDeviceInfo *info)
{
  g_autoptr(GString) text = g_string_new (NULL);
  guint shown = 0;

  for (guint i = 0; i < info->mounts->len && shown < 3; i++)
    {
      const NscMount *m = g_ptr_array_index (info->mounts, i);
      gboolean seen = FALSE;

      /* A filesystem mounted twice (bind mounts) is one place to the user. */
      for (guint j = 0; j < i && !seen; j++)
        seen = g_strcmp0 (((const NscMount *) g_ptr_array_index (info->mounts, j))->source,
                          m->source) == 0;
      if (seen)
        continue;
      if (shown++ > 0)
        g_string_append (text, ", ");
      g_string_append (text, m->mountpoint);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

char *
nsc_device_row_refusal (const NscDeviceInfo *info)
{
  g_return_val_if_fail (info != NULL, NULL);

  if (info->read_only)
    return g_strdup (_("The drive is read-only. Read tests can run on it."));
  if (info->hosts_root)
    return g_strdup (_("This is the system drive: the running system lives on it. Read tests "
                       "can run on it; for the others, choose a folder on it instead."));
  if (info->mounts != NULL && info->mounts->len > 0)
    {
      g_autofree char *where = join_mountpoints (info);
      return g_strdup_printf (_("It is mounted at %s. Unmount it (in Files or Disks) to run "
                                "tests that write, or choose a folder on it instead."), where);
    }
  if (info->swaps != NULL && info->swaps[0] != NULL)
    return g_strdup_printf (_("It is used as swap (%s). Turn that swap off to run tests "
                              "that write."), info->swaps[0]);
  if (info->holders != NULL && info->holders[0] != NULL)
    return g_strdup_printf (_("It is in use by %s (LVM, RAID or encryption). Stop that device "
                              "to run tests that write."), info->holders[0]);
  if (!nsc_device_info_is_free (info))
    return g_strdup (_("It is in use. Stop what uses it to run tests that write."));
  return NULL;
}

gboolean
nsc_device_row_is_new (const NscDeviceInfo *info)
{
  g_return_val_if_fail (info != NULL, FALSE);

  return nsc_device_info_is_new (info);
}

static const char *
device_icon (const NscDeviceInfo *info)
{
  if (info->hosts_root)
    return "drive-harddisk-system-symbolic";
  if (g_strcmp0 (info->transport, "usb") == 0)
    return "drive-harddisk-usb-symbolic";
  if (g_strcmp0 (info->transport, "mmc") == 0)
    return "media-flash-symbolic";
  if (!info->rotational)
    return "drive-harddisk-solidstate-symbolic";
  return "drive-harddisk-symbolic";
}

GtkWidget *
nsc_device_row_new (const NscDeviceInfo *info,
                    gboolean             selected,
                    const char          *in_use,
                    const char          *cannot_open)
{
  g_autofree char *title = nsc_device_row_title (info);
  g_autofree char *facts = nsc_device_row_facts (info);
  g_autofree char *state = NULL;
  g_autofree char *subtitle = NULL;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name (device_icon (info));
  gboolean is_new = nsc_device_row_is_new (info) && in_use == NULL && cannot_open == NULL;

  if (in_use != NULL && nsc_device_info_is_free (info) && !info->hosts_root)
    /* Free by the kernel's tables, yet open elsewhere: the in-use check says who. */
    /* TRANSLATORS: %s is why, e.g. "/dev/sdb is open in gparted (pid 1234); …" */
    state = g_strdup_printf (_("Read tests only: %s"), in_use);
  else if (cannot_open != NULL && nsc_device_info_is_free (info))
    state = NULL;  /* what could run on it does not matter while nothing can */
  else if (is_new)
    state = g_strdup (g_strcmp0 (info->transport, "loop") == 0
                      || g_strcmp0 (info->transport, "zram") == 0
                      ? _("Empty: the full suite can run on it")
                      : _("New drive: the full suite can run on it"));
  else if (info->hosts_root)
    state = g_strdup (_("System drive: read tests here, the rest in a folder"));
  else if (nsc_device_info_is_free (info) && !info->read_only)
    state = g_strdup (_("Not in use: every test can run on it, after you confirm"));
  else if (nsc_device_info_is_free (info))
    state = g_strdup (_("Read-only: read tests only"));
  else
    {
      g_autofree char *why = nsc_device_info_describe_state (info);
      /* TRANSLATORS: %s is the state, e.g. "mounted at /data" */
      state = g_strdup_printf (_("In use (%s): read tests only"), why);
    }

  if (cannot_open != NULL && state != NULL)
    subtitle = g_strdup_printf ("%s\n%s\n%s", facts, state, cannot_open);
  else if (cannot_open != NULL)
    subtitle = g_strdup_printf ("%s\n%s", facts, cannot_open);
  else
    subtitle = g_strdup_printf ("%s\n%s", facts, state);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), cannot_open == NULL);
  if (cannot_open != NULL)
    {
      GtkWidget *stop = gtk_image_new_from_icon_name ("action-unavailable-symbolic");

      gtk_widget_set_valign (stop, GTK_ALIGN_CENTER);
      gtk_widget_set_tooltip_text (stop, cannot_open);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), stop);
      gtk_widget_add_css_class (row, "unavailable-drive");
    }

  if (is_new)
    {
      GtkWidget *tag = gtk_label_new (_("New"));
      gtk_widget_add_css_class (tag, "new-drive-tag");
      gtk_widget_set_valign (tag, GTK_ALIGN_CENTER);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), tag);
      gtk_widget_add_css_class (row, "new-drive");
    }
  if (selected)
    {
      GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");
      gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), check);
    }
  return row;
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <sys/stat.h>

#include "nsc-device-row.h"
#include "nsc-device-safety.h"
#include "nsc-target-picker.h"
#include "nsc-udisks.h"
#include "nsc-display.h"

struct _NscTargetPicker
{
  GtkPopover    parent_instance;

  GtkListBox   *folder_list;
  GtkListBox   *drive_list;

  char         *target;          /* what is chosen now */
  char         *devnode;         /* its drive's node, when it is a drive */
  char         *other_folder;    /* the folder chosen last, other than Home */
  gboolean      captured;        /* NANDSCOPE_SYSFS_ROOT: shown, never opened */
  char         *udisks_missing;  /* why UDisks2 cannot open drives, or NULL */
  GPtrArray    *udisks_drives;   /* NscDeviceInfo, as UDisks2 last listed them, or NULL */
  char         *udisks_error;    /* why UDisks2 did not list them, or NULL */
  GCancellable *asking;          /* while UDisks2 is asked */
};

enum { SIGNAL_TARGET_CHOSEN, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (NscTargetPicker, nsc_target_picker, GTK_TYPE_POPOVER)

/* ---- the captured tree, sysfs ----------------------------------------------------- */

const char *
nsc_target_picker_captured_root (void)
{
  const char *root = g_getenv ("NANDSCOPE_SYSFS_ROOT");
  return root != NULL && *root != '\0' ? root : NULL;
}

static void
read_captured_tables (const char  *root,
                      char       **mountinfo,
                      char       **swaps)
{
  g_autofree char *m = g_strconcat (root, ".mountinfo", NULL);
  g_autofree char *w = g_strconcat (root, ".swaps", NULL);

  if (!g_file_get_contents (m, mountinfo, NULL, NULL))
    *mountinfo = g_strdup ("");
  if (!g_file_get_contents (w, swaps, NULL, NULL))
    *swaps = NULL;
}

static GPtrArray *
discover_devices (GError **error)
{
  const char *root = nsc_target_picker_captured_root ();
  g_autofree char *mountinfo = NULL;
  g_autofree char *swaps = NULL;

  if (root == NULL)
    return nsc_device_discover (NSC_DISCOVER_DEFAULT, error);
  read_captured_tables (root, &mountinfo, &swaps);
  return nsc_device_discover_at (root, mountinfo, swaps, NSC_DISCOVER_DEFAULT, error);
}

NscDeviceInfo *
nsc_target_picker_device_for_path (const char *path)
{
  const char *root = nsc_target_picker_captured_root ();
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);

  if (root != NULL)
    {
      g_autofree char *mountinfo = NULL;
      g_autofree char *swaps = NULL;
      g_autofree char *name = NULL;

      if (!g_str_has_prefix (path, "/dev/"))
        return NULL;
      name = g_path_get_basename (path);
      read_captured_tables (root, &mountinfo, &swaps);
      return nsc_device_info_new_at (root, name, mountinfo, swaps, NSC_DISCOVER_DEFAULT, NULL);
    }

  /* Sandboxed, /dev has no drives; /sys still knows /dev/NAME. */
  if (stat (path, &st) != 0)
    return nsc_udisks_is_sandboxed () && g_str_has_prefix (path, "/dev/")
           ? nsc_device_info_for_path (path, NSC_DISCOVER_DEFAULT, NULL) : NULL;
  if (!S_ISBLK (st.st_mode))
    return NULL;
  return nsc_device_info_for_path (path, NSC_DISCOVER_DEFAULT, NULL);
}

/* ---- UDisks2's drives -------------------------------------------------------------- */

static NscMount *
mount_new (const char *source,
           const char *mountpoint)
{
  NscMount *m = g_new0 (NscMount, 1);

  m->source = g_path_get_basename (source);
  m->mountpoint = g_strdup (mountpoint);
  return m;
}

/* A drive as UDisks2 reports it: its model, serial, size, mounts and swap are UDisks2's;
 * its partitions, holders and link from /sys (read-only in a sandbox, as outside). */
static NscDeviceInfo *
device_from_udisks (const NscUdisksDrive *drive)
{
  g_autofree char *name = NULL;
  NscDeviceInfo *info;

  if (drive->devnode == NULL || !g_str_has_prefix (drive->devnode, "/dev/"))
    return NULL;
  name = g_path_get_basename (drive->devnode);
  /* No mount table: the sandbox's would be wrong, and UDisks2's is the one shown. */
  info = nsc_device_info_new_at ("/sys", name, "", NULL, NSC_DISCOVER_DEFAULT, NULL);
  if (info == NULL)
    return NULL;
  g_free (info->model);
  info->model = g_strdup (drive->model != NULL && *drive->model != '\0' ? drive->model : NULL);
  g_free (info->serial);
  info->serial = g_strdup (drive->serial != NULL && *drive->serial != '\0' ? drive->serial : NULL);
  if (drive->size > 0)
    info->capacity = drive->size;
  info->hosts_root = FALSE;
  g_ptr_array_set_size (info->mounts, 0);
  for (guint i = 0; i < drive->mounts->len; i++)
    {
      g_auto(GStrv) fields = g_strsplit (g_ptr_array_index (drive->mounts, i), "\t", 2);

      if (fields[0] == NULL || fields[1] == NULL)
        continue;
      g_ptr_array_add (info->mounts, mount_new (fields[0], fields[1]));
      if (g_str_equal (fields[1], "/"))
        info->hosts_root = TRUE;
    }
  g_strfreev (info->swaps);
  info->swaps = g_new0 (char *, drive->swaps->len + 1);
  for (guint i = 0; i < drive->swaps->len; i++)
    info->swaps[i] = g_path_get_basename (g_ptr_array_index (drive->swaps, i));
  return info;
}

/* ---- the rows ---------------------------------------------------------------------- */

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))))
    gtk_list_box_remove (list, child);
}

static GtkWidget *
folder_row (const char *title,
            const char *subtitle,
            const char *icon_name,
            gboolean    selected)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  if (subtitle)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name (icon_name));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  if (selected)
    {
      GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");
      gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), check);
    }
  return row;
}

/* Drives first, then what is made of other things (loop, zram, LVM, RAID). */
static int
device_rank (const NscDeviceInfo *info)
{
  static const char *virtual[] = { "loop", "zram", "dm", "md", NULL };

  return g_strv_contains (virtual, info->transport ? info->transport : "") ? 1 : 0;
}

static int
compare_devices (gconstpointer a,
                 gconstpointer b)
{
  const NscDeviceInfo *da = *(NscDeviceInfo * const *) a;
  const NscDeviceInfo *db = *(NscDeviceInfo * const *) b;
  int ra = device_rank (da), rb = device_rank (db);

  if (ra != rb)
    return ra - rb;
  return g_strcmp0 (da->name, db->name);
}

static void
message_row (NscTargetPicker *self,
             const char      *text)
{
  GtkWidget *row = folder_row (text, NULL, "dialog-information-symbolic", FALSE);

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_append (self->drive_list, row);
}

static void
populate_drives (NscTargetPicker *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) devices = NULL;
  gboolean sandboxed = !self->captured && nsc_udisks_is_sandboxed ();
  guint shown = 0;

  clear_list (self->drive_list);
  if (self->udisks_drives != NULL && !self->captured)
    devices = g_ptr_array_ref (self->udisks_drives);
  else if (sandboxed)
    {
      /* The sandbox's /dev and mount table say nothing of the drives: UDisks2 only. */
      message_row (self, self->udisks_error ? self->udisks_error
                                            : _("Asking UDisks2 for the drives…"));
      return;
    }
  else
    devices = discover_devices (&error);
  if (devices != NULL)
    g_ptr_array_sort (devices, compare_devices);
  for (guint i = 0; devices != NULL && i < devices->len; i++)
    {
      const NscDeviceInfo *info = g_ptr_array_index (devices, i);
      gboolean selected = g_strcmp0 (self->devnode, info->devnode) == 0;
      g_autofree char *in_use = NULL;
      GtkWidget *row;

      if (info->capacity == 0)
        continue;
      /* The one in-use check, as before anything writes (who holds it open); a
       * captured tree is never opened, and a sandbox's /dev has no drives. */
      if (!self->captured && !sandboxed)
        {
          g_autoptr(GError) busy = NULL;
          if (!nsc_device_check_writable (info->devnode, &busy))
            in_use = g_strdup (busy->message);
        }
      row = nsc_device_row_new (info, selected, in_use,
                                self->captured ? NULL : self->udisks_missing);
      g_object_set_data_full (G_OBJECT (row), "target", g_strdup (info->devnode), g_free);
      gtk_list_box_append (self->drive_list, row);
      shown++;
    }
  if (shown == 0)
    message_row (self, error ? error->message : _("No drives found"));
}

/* Read when the picker opens: drives come and go, and so do mounts. */
static void
populate (NscTargetPicker *self)
{
  const char *home = g_get_home_dir ();
  GtkWidget *row;

  clear_list (self->folder_list);
  row = folder_row (_("Home"), home, "user-home-symbolic", g_strcmp0 (self->target, home) == 0);
  g_object_set_data_full (G_OBJECT (row), "target", g_strdup (home), g_free);
  gtk_list_box_append (self->folder_list, row);

  if (self->other_folder != NULL)
    {
      g_autofree char *name = g_filename_display_basename (self->other_folder);
      g_autofree char *where = nsc_display_path (self->other_folder);

      row = folder_row (name, where, "folder-symbolic",
                        g_strcmp0 (self->target, self->other_folder) == 0);
      g_object_set_data_full (G_OBJECT (row), "target", g_strdup (self->other_folder), g_free);
      gtk_list_box_append (self->folder_list, row);
    }

  row = folder_row (_("Other Folder…"), NULL, "folder-open-symbolic", FALSE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (row), "win.choose-target");
  gtk_list_box_append (self->folder_list, row);

  populate_drives (self);
}

/* UDisks2 answered: the drives as it lists them (@drives: NscUdisksDrive), or why it
 * did not (@error); the rows follow when the picker is open. */
static void
udisks_answered (NscTargetPicker *self,
                 GPtrArray       *drives,
                 const GError    *error)
{
  g_clear_object (&self->asking);
  g_clear_pointer (&self->udisks_drives, g_ptr_array_unref);
  g_clear_pointer (&self->udisks_error, g_free);
  if (drives != NULL)
    {
      self->udisks_drives = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_device_info_free);
      for (guint i = 0; i < drives->len; i++)
        {
          NscDeviceInfo *info = device_from_udisks (g_ptr_array_index (drives, i));
          if (info != NULL)
            g_ptr_array_add (self->udisks_drives, info);
        }
    }
  else
    self->udisks_error = g_strdup (error->message);
  if (gtk_widget_get_visible (GTK_WIDGET (self)))
    populate_drives (self);
}

static void
on_drives_listed (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) drives = nsc_udisks_list_drives_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  udisks_answered (NSC_TARGET_PICKER (user_data), drives, error);
}

static void
on_udisks_probed (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = nsc_udisks_probe_finish (result, &error);
  NscTargetPicker *self;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = NSC_TARGET_PICKER (user_data);
  g_free (self->udisks_missing);
  self->udisks_missing = ok ? NULL : g_strdup (error->message);
  if (ok)
    {
      /* UDisks2 is there: the drives as it reports them. */
      nsc_udisks_list_drives_async (self->asking, on_drives_listed, self);
      return;
    }
  udisks_answered (self, NULL, error);
}

/* The picker opens: its drives as they are now, and whether UDisks2 can open them. */
static void
on_show (NscTargetPicker *self)
{
  populate (self);
  if (self->asking == NULL && !self->captured)
    {
      self->asking = g_cancellable_new ();
      nsc_udisks_probe_async (self->asking, on_udisks_probed, self);
    }
}

static void
on_row_activated (GtkListBox      *list,
                  GtkListBoxRow   *row,
                  NscTargetPicker *self)
{
  g_autofree char *target = g_strdup (g_object_get_data (G_OBJECT (row), "target"));

  gtk_popover_popdown (GTK_POPOVER (self));
  if (target != NULL)
    g_signal_emit (self, signals[SIGNAL_TARGET_CHOSEN], 0, target);
}

void
nsc_target_picker_set_current (NscTargetPicker *self,
                               const char      *target,
                               const char      *devnode)
{
  g_return_if_fail (NSC_IS_TARGET_PICKER (self));

  g_free (self->target);
  self->target = g_strdup (target);
  g_free (self->devnode);
  self->devnode = g_strdup (devnode);
  if (target != NULL && devnode == NULL && g_strcmp0 (target, g_get_home_dir ()) != 0)
    {
      g_free (self->other_folder);
      self->other_folder = g_strdup (target);
    }
}

GtkWidget *
nsc_target_picker_new (void)
{
  return g_object_new (NSC_TYPE_TARGET_PICKER, NULL);
}

static void
nsc_target_picker_dispose (GObject *object)
{
  NscTargetPicker *self = NSC_TARGET_PICKER (object);

  if (self->asking != NULL)
    g_cancellable_cancel (self->asking);
  g_clear_object (&self->asking);
  gtk_widget_dispose_template (GTK_WIDGET (self), NSC_TYPE_TARGET_PICKER);
  G_OBJECT_CLASS (nsc_target_picker_parent_class)->dispose (object);
}

static void
nsc_target_picker_finalize (GObject *object)
{
  NscTargetPicker *self = NSC_TARGET_PICKER (object);

  g_free (self->target);
  g_free (self->devnode);
  g_free (self->other_folder);
  g_free (self->udisks_missing);
  g_free (self->udisks_error);
  g_clear_pointer (&self->udisks_drives, g_ptr_array_unref);
  G_OBJECT_CLASS (nsc_target_picker_parent_class)->finalize (object);
}

static void
nsc_target_picker_class_init (NscTargetPickerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nsc_target_picker_dispose;
  object_class->finalize = nsc_target_picker_finalize;

  /* A row was chosen: its path (a folder, or a drive's node). */
  signals[SIGNAL_TARGET_CHOSEN] =
    g_signal_new ("target-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/nandscope/Nandscope/nsc-target-picker.ui");
  gtk_widget_class_bind_template_child (widget_class, NscTargetPicker, folder_list);
  gtk_widget_class_bind_template_child (widget_class, NscTargetPicker, drive_list);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
}

static void
nsc_target_picker_init (NscTargetPicker *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->captured = nsc_target_picker_captured_root () != NULL;
  g_signal_connect (self, "show", G_CALLBACK (on_show), NULL);
}

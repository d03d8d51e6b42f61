/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "nsc-device.h"
#include "nsc-device-private.h"
#include "nsc-error.h"

/* ---- small sysfs helpers ------------------------------------------------------- */

/* The trimmed contents of @dir/@attr, or NULL when absent or empty. */
static char *
read_attr (const char *dir,
           const char *attr)
{
  g_autofree char *path = g_build_filename (dir, attr, NULL);
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  g_strstrip (text);
  if (*text == '\0')
    return NULL;
  return g_steal_pointer (&text);
}

static guint64
read_u64 (const char *dir,
          const char *attr,
          guint64     fallback)
{
  g_autofree char *s = read_attr (dir, attr);
  guint64 v;

  if (s == NULL || !g_ascii_string_to_unsigned (s, 10, 0, G_MAXUINT64, &v, NULL))
    return fallback;
  return v;
}

static gboolean
read_dev (const char *dir,
          guint      *ma,
          guint      *mi)
{
  g_autofree char *s = read_attr (dir, "dev");
  return s != NULL && sscanf (s, "%u:%u", ma, mi) == 2;
}

/* Follows a symlink (sysfs is made of them) and returns a canonical path; @path
 * itself when it is not a link. Relative targets resolve against the link's folder,
 * which is what makes captured trees under any root work. */
char *
_nsc_sysfs_resolve (const char *path)
{
  g_autofree char *target = g_file_read_link (path, NULL);
  g_autofree char *parent = NULL;

  if (target == NULL)
    return g_canonicalize_filename (path, NULL);
  parent = g_path_get_dirname (path);
  return g_canonicalize_filename (target, parent);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  /* Natural order (loop2 before loop10), as people count. */
  g_autofree char *ka = g_utf8_collate_key_for_filename (*(const char * const *) a, -1);
  g_autofree char *kb = g_utf8_collate_key_for_filename (*(const char * const *) b, -1);
  return strcmp (ka, kb);
}

static GStrv
list_dir (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const char *e;

  while (dir && (e = g_dir_read_name (dir)))
    g_ptr_array_add (names, (gpointer) e);
  /* Directory order is arbitrary; sorted output makes tests and tables stable. */
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    g_strv_builder_add (b, g_ptr_array_index (names, i));
  return g_strv_builder_end (b);
}

static void
add_unique (GPtrArray  *arr,
            const char *s)
{
  for (guint i = 0; i < arr->len; i++)
    if (g_str_equal (g_ptr_array_index (arr, i), s))
      return;
  g_ptr_array_add (arr, g_strdup (s));
}

static GStrv
ptr_array_to_strv (GPtrArray *arr)
{
  g_ptr_array_add (arr, NULL);
  return (GStrv) g_ptr_array_free (arr, FALSE);
}

/* ---- tables ---------------------------------------------------------------------- */

/* /proc/swaps: a header line, then "filename type size used priority". */
static GStrv
parse_swaps (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text ? text : "", "\n", -1);
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 1; lines[i] && lines[0]; i++)
    {
      g_auto(GStrv) f = g_strsplit_set (lines[i], " \t", 2);
      if (f[0] && *f[0])
        g_ptr_array_add (out, g_strcompress (f[0]));
    }
  return ptr_array_to_strv (out);
}

typedef struct
{
  char      *root;         /* "/sys" or a captured tree */
  gboolean   live;         /* the running system: stat() of /dev paths is meaningful */
  GPtrArray *mounts;       /* NscMountEntry */
  GStrv      swaps;
} Ctx;

static void
ctx_clear (Ctx *c)
{
  g_free (c->root);
  g_clear_pointer (&c->mounts, g_ptr_array_unref);
  g_clear_pointer (&c->swaps, g_strfreev);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Ctx, ctx_clear)

static void
ctx_init (Ctx        *c,
          const char *sysfs_root,
          const char *mountinfo,
          const char *swaps)
{
  c->root = g_canonicalize_filename (sysfs_root, NULL);
  c->live = g_str_equal (c->root, "/sys");
  c->mounts = nsc_mountinfo_parse (mountinfo);
  /* btrfs reports anonymous device numbers (0:N) in mountinfo, so on the running
   * system the source node (/dev/mapper/luks-…, /dev/nvme0n1p2) is asked too. */
  for (guint i = 0; c->live && i < c->mounts->len; i++)
    {
      NscMountEntry *m = g_ptr_array_index (c->mounts, i);
      struct stat st;

      if (m->source && g_str_has_prefix (m->source, "/dev/")
          && stat (m->source, &st) == 0 && S_ISBLK (st.st_mode))
        {
          m->src_major = major (st.st_rdev);
          m->src_minor = minor (st.st_rdev);
          m->have_src = TRUE;
        }
    }
  c->swaps = parse_swaps (swaps);
}

static gboolean
is_swap (const Ctx  *c,
         const char *name,
         guint       ma,
         guint       mi)
{
  g_autofree char *devnode = g_strdup_printf ("/dev/%s", name);

  for (guint i = 0; c->swaps[i]; i++)
    {
      struct stat st;

      if (g_str_equal (c->swaps[i], devnode))
        return TRUE;
      /* Swap named through a symlink (/dev/disk/by-uuid/…): compare device numbers. */
      if (c->live && stat (c->swaps[i], &st) == 0 && S_ISBLK (st.st_mode)
          && major (st.st_rdev) == ma && minor (st.st_rdev) == mi)
        return TRUE;
    }
  return FALSE;
}

/* Mounts, swap and root of the block device @name (ma:mi) and, recursively, of the
 * devices that hold it (an LVM volume on a partition mounted at / makes the disk the
 * system drive). @depth stops a malformed tree from looping. */
static void
collect_usage (const Ctx     *c,
               NscDeviceInfo *info,
               const char    *name,
               guint          ma,
               guint          mi,
               GPtrArray     *swaps,
               GPtrArray     *holders,
               guint          depth)
{
  g_autofree char *blockdir = g_build_filename (c->root, "class", "block", name, NULL);
  g_autofree char *devnode = g_strdup_printf ("/dev/%s", name);
  g_autofree char *hdir = NULL;
  g_auto(GStrv) held_by = NULL;

  for (guint i = 0; i < c->mounts->len; i++)
    {
      NscMountEntry *m = g_ptr_array_index (c->mounts, i);
      NscMount *nm;

      if (!(m->major == ma && m->minor == mi) && g_strcmp0 (m->source, devnode) != 0
          && !(m->have_src && m->src_major == ma && m->src_minor == mi))
        continue;
      nm = g_new0 (NscMount, 1);
      nm->source = g_strdup (name);
      nm->mountpoint = g_strdup (m->mountpoint);
      nm->fstype = g_strdup (m->fstype);
      g_ptr_array_add (info->mounts, nm);
      if (g_str_equal (m->mountpoint, "/"))
        info->hosts_root = TRUE;
    }
  if (is_swap (c, name, ma, mi))
    add_unique (swaps, name);

  if (depth > 8)
    return;
  /* /sys/class/block/X is a link to the device folder, partitions included. */
  {
    g_autofree char *real = _nsc_sysfs_resolve (blockdir);
    hdir = g_build_filename (real, "holders", NULL);
  }
  held_by = list_dir (hdir);
  for (guint i = 0; held_by[i]; i++)
    {
      g_autofree char *hpath = g_build_filename (c->root, "class", "block", held_by[i], NULL);
      g_autofree char *hreal = _nsc_sysfs_resolve (hpath);
      guint hma = 0, hmi = 0;

      add_unique (holders, held_by[i]);
      if (read_dev (hreal, &hma, &hmi))
        collect_usage (c, info, held_by[i], hma, hmi, swaps, holders, depth + 1);
    }
}

/* ---- transport and identity -------------------------------------------------------- */

static const char *
transport_from_path (const char *name,
                     const char *path)
{
  if (g_str_has_prefix (name, "loop"))
    return "loop";
  if (g_str_has_prefix (name, "zram"))
    return "zram";
  if (g_str_has_prefix (name, "dm-"))
    return "dm";
  if (g_str_has_prefix (name, "md"))
    return "md";
  if (strstr (path, "/nvme/") || strstr (path, "/nvme-subsystem/") || g_str_has_prefix (name, "nvme"))
    return "nvme";
  /* A USB bridge shows up as SCSI under a usbN hub path: check USB first. */
  if (strstr (path, "/usb"))
    return "usb";
  if (strstr (path, "/virtio"))
    return "virtio";
  if (strstr (path, "/mmc_host/"))
    return "mmc";
  if (strstr (path, "/ata"))
    return "sata";
  if (strstr (path, "/target") || strstr (path, "/host"))
    return "scsi";
  if (strstr (path, "/virtual/"))
    return "virtual";
  return "other";
}

/* SCSI VPD page 0x80 (unit serial number): 4 header bytes, then ASCII. */
static char *
read_vpd_serial (const char *devdir)
{
  g_autofree char *path = g_build_filename (devdir, "vpd_pg80", NULL);
  g_autofree char *data = NULL;
  gsize len = 0;
  GString *s;

  if (!g_file_get_contents (path, &data, &len, NULL) || len <= 4)
    return NULL;
  s = g_string_new (NULL);
  for (gsize i = 4; i < len; i++)
    if (g_ascii_isprint (data[i]))
      g_string_append_c (s, data[i]);
  g_strstrip (s->str);
  if (*s->str == '\0')
    {
      g_string_free (s, TRUE);
      return NULL;
    }
  return g_string_free (s, FALSE);
}

/* Returns the first hwmon temperature (°C) under @dir: hwmonN/temp1_input directly
 * (NVMe controllers) or hwmon/hwmonN/temp1_input (drivetemp on SATA disks). */
static gboolean
read_hwmon (const char *dir,
            double     *celsius)
{
  const char *subs[] = { "", "hwmon" };

  for (guint k = 0; k < G_N_ELEMENTS (subs); k++)
    {
      g_autofree char *base = g_build_filename (dir, subs[k], NULL);
      g_auto(GStrv) names = list_dir (base);

      for (guint i = 0; names[i]; i++)
        {
          g_autofree char *hw = NULL;
          g_autofree char *s = NULL;
          gint64 milli;

          if (!g_str_has_prefix (names[i], "hwmon") || g_str_equal (names[i], "hwmon"))
            continue;
          hw = g_build_filename (base, names[i], NULL);
          s = read_attr (hw, "temp1_input");
          if (s && g_ascii_string_to_signed (s, 10, -300000, 1000000, &milli, NULL))
            {
              *celsius = milli / 1000.0;
              return TRUE;
            }
        }
    }
  return FALSE;
}

NscWarning *
nsc_device_info_link_warning (const NscDeviceInfo *info)
{
  NscWarning *w;
  guint now, max;

  g_return_val_if_fail (info != NULL, NULL);

  if (info->link_warning == NULL)
    return NULL;
  now = nsc_pcie_generation (info->link_speed);
  max = nsc_pcie_generation (info->link_max_speed);
  w = nsc_warning_new (NSC_WARNING_PCIE_LINK_BELOW_MAX, -1);
  w->message = g_strdup (info->link_warning);
  w->link_generation = (int) now;
  w->link_width = (int) info->link_width;
  w->link_max_generation = (int) (max ? max : now);
  w->link_max_width = (int) (info->link_max_width ? info->link_max_width : info->link_width);
  return w;
}

NscWarning *
nsc_device_info_identity_warning (const NscDeviceInfo *info)
{
  const char *maker;
  guint16 expected = 0;
  NscWarning *w;

  g_return_val_if_fail (info != NULL, NULL);

  if (info->nvme == NULL || !info->nvme->have_identify)
    return NULL;
  maker = nsc_nvme_identity_mismatch (info->nvme->model, info->nvme->vendor_id, &expected);
  if (maker == NULL)
    return NULL;
  w = nsc_warning_new (NSC_WARNING_IDENTITY_SUSPECT, -1);
  w->subject = g_strdup (maker);
  w->vendor_id = info->nvme->vendor_id;
  w->expected_vendor_id = expected;
  nsc_warning_set_message (w, "The model \"%s\" names %s, but the controller reports PCI vendor "
                           "ID 0x%04x, not %s's (0x%04x): a fake sold under a known name often "
                           "shows this", info->nvme->model, maker, info->nvme->vendor_id, maker,
                           expected);
  return w;
}

guint
nsc_pcie_generation (const char *speed)
{
  double gts;

  if (speed == NULL || sscanf (speed, "%lf", &gts) != 1)
    return 0;
  if (gts >= 64) return 6;
  if (gts >= 32) return 5;
  if (gts >= 16) return 4;
  if (gts >= 8) return 3;
  if (gts >= 5) return 2;
  if (gts >= 2.5) return 1;
  return 0;
}

/* PCIe link of the PCI function at @pcidir. Kernels report "Unknown" speeds for
 * conventional PCI (QEMU's default machine), which are left out. */
static void
read_link (NscDeviceInfo *info,
           const char    *pcidir)
{
  g_autofree char *cur = read_attr (pcidir, "current_link_speed");
  g_autofree char *max = read_attr (pcidir, "max_link_speed");
  guint cg = nsc_pcie_generation (cur), mg = nsc_pcie_generation (max);

  if (cg == 0)
    return;
  info->link_speed = g_steal_pointer (&cur);
  info->link_width = read_u64 (pcidir, "current_link_width", 0);
  if (mg)
    info->link_max_speed = g_steal_pointer (&max);
  info->link_max_width = read_u64 (pcidir, "max_link_width", 0);

  /* max_link_* is what the device can do; the slot may be narrower, which is exactly
   * the case people need to hear about (a PCIe 4.0 drive in a 3.0 slot). */
  if ((mg && cg < mg) || (info->link_max_width && info->link_width < info->link_max_width))
    info->link_warning =
      g_strdup_printf ("The drive's PCIe link runs at PCIe %u.0 x%u but the drive supports "
                       "PCIe %u.0 x%u: sequential speeds may be capped by the slot. "
                       "Check which slot it sits in (a CPU-attached M.2 slot, the BIOS "
                       "PCIe setting); an idle drive may also lower its link to save power.",
                       cg, info->link_width, mg ? mg : cg,
                       info->link_max_width ? info->link_max_width : info->link_width);
}

static void
fill_identity (NscDeviceInfo *info,
               const char    *root,
               const char    *devpath)
{
  g_autofree char *devlink = g_build_filename (devpath, "device", NULL);
  g_autofree char *devdir = NULL;
  const char *t = info->transport;

  if (!g_file_test (devlink, G_FILE_TEST_EXISTS))
    devlink[0] = '\0';
  else
    devdir = _nsc_sysfs_resolve (devlink);

  if (g_str_equal (t, "nvme") && devdir)
    {
      /* nvme0n1/device is the controller nvme0 (or nvme-subsysN with multipath,
       * whose first controller we take). */
      g_autofree char *base = g_path_get_basename (devdir);
      g_autofree char *ctrl = NULL;
      g_autofree char *pcilink = NULL;
      g_autofree char *nsid = read_attr (devpath, "nsid");

      if (g_str_has_prefix (base, "nvme-subsys"))
        {
          g_auto(GStrv) names = list_dir (devdir);
          for (guint i = 0; names[i] && !ctrl; i++)
            /* Controllers are "nvmeN"; "nvmeNnM" beside them are namespace heads. */
            if (g_str_has_prefix (names[i], "nvme") && names[i][4]
                && strspn (names[i] + 4, "0123456789") == strlen (names[i] + 4))
              {
                g_autofree char *p = g_build_filename (devdir, names[i], NULL);
                if (g_file_test (p, G_FILE_TEST_IS_DIR))
                  ctrl = g_strdup (names[i]);
              }
        }
      else
        ctrl = g_strdup (base);

      info->model = read_attr (devdir, "model");
      info->serial = read_attr (devdir, "serial");
      info->firmware = read_attr (devdir, "firmware_rev");
      if (nsid)
        info->nsid = (guint32) g_ascii_strtoull (nsid, NULL, 10);
      if (ctrl)
        {
          g_autofree char *cpath = g_build_filename (root, "class", "nvme", ctrl, NULL);
          g_autofree char *creal = _nsc_sysfs_resolve (cpath);
          double c;

          info->controller = g_steal_pointer (&ctrl);
          if (info->model == NULL)
            info->model = read_attr (creal, "model");
          if (info->serial == NULL)
            info->serial = read_attr (creal, "serial");
          if (info->firmware == NULL)
            info->firmware = read_attr (creal, "firmware_rev");
          pcilink = g_build_filename (creal, "device", NULL);
          if (g_file_test (pcilink, G_FILE_TEST_EXISTS))
            {
              g_autofree char *pcidir = _nsc_sysfs_resolve (pcilink);
              read_link (info, pcidir);
            }
          if (read_hwmon (creal, &c))
            {
              info->have_temperature = TRUE;
              info->temperature_c = c;
              info->temperature_source = g_strdup ("hwmon");
            }
        }
      return;
    }

  if (g_str_equal (t, "loop"))
    {
      g_autofree char *loopdir = g_build_filename (devpath, "loop", NULL);
      info->backing_file = read_attr (loopdir, "backing_file");
      return;
    }

  if (devdir == NULL)
    return;

  /* SCSI disks (SATA and USB included): vendor, model, rev; serial from VPD 0x80. */
  info->vendor = read_attr (devdir, "vendor");
  info->model = read_attr (devdir, "model");
  info->firmware = read_attr (devdir, "rev");
  if (info->firmware == NULL)
    info->firmware = read_attr (devdir, "firmware_rev");
  if (info->firmware == NULL)
    info->firmware = read_attr (devdir, "fwrev");           /* MMC */
  if (info->model == NULL)
    info->model = read_attr (devdir, "name");               /* MMC */
  info->serial = read_vpd_serial (devdir);
  if (info->serial == NULL)
    info->serial = read_attr (devpath, "serial");           /* virtio-blk */
  if (info->serial == NULL)
    info->serial = read_attr (devdir, "serial");            /* MMC */
  if (g_str_equal (t, "virtio") && info->vendor && g_str_has_prefix (info->vendor, "0x"))
    g_clear_pointer (&info->vendor, g_free);                /* a PCI vendor id, not a name */

  {
    double c;
    if (read_hwmon (devdir, &c))
      {
        info->have_temperature = TRUE;
        info->temperature_c = c;
        info->temperature_source = g_strdup ("hwmon");
      }
  }
}

/* ---- the device ------------------------------------------------------------------------ */

static void
nsc_mount_free (NscMount *m)
{
  g_free (m->source);
  g_free (m->mountpoint);
  g_free (m->fstype);
  g_free (m);
}

static void
nsc_partition_free (NscPartition *p)
{
  g_free (p->name);
  g_free (p->devnode);
  g_strfreev (p->holders);
  g_free (p);
}

void
nsc_device_info_free (NscDeviceInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->name);
  g_free (info->devnode);
  g_free (info->transport);
  g_free (info->sysfs_path);
  g_free (info->model);
  g_free (info->vendor);
  g_free (info->serial);
  g_free (info->firmware);
  g_free (info->controller);
  g_free (info->backing_file);
  g_clear_pointer (&info->partitions, g_ptr_array_unref);
  g_clear_pointer (&info->mounts, g_ptr_array_unref);
  g_strfreev (info->swaps);
  g_strfreev (info->holders);
  g_free (info->link_speed);
  g_free (info->link_max_speed);
  g_free (info->link_warning);
  g_free (info->temperature_source);
  g_clear_pointer (&info->nvme, nsc_nvme_info_free);
  g_clear_pointer (&info->unavailable, g_ptr_array_unref);
  g_free (info->fs_type);
  g_free (info->part_table_type);
  g_free (info);
}

static void
add_nvme_facts (NscDeviceInfo *info)
{
  g_autoptr(GError) error = NULL;
  NscNvmeInfo *n;

  n = nsc_nvme_query (info->controller, info->nsid, &error);
  if (n == NULL)
    {
      const char *why = g_error_matches (error, NSC_ERROR, NSC_ERROR_PERMISSION)
                        ? "needs root" : error->message;
      g_ptr_array_add (info->unavailable, g_strdup_printf ("nvme.identify: %s", why));
      g_ptr_array_add (info->unavailable, g_strdup_printf ("nvme.smart: %s", why));
      return;
    }
  for (guint i = 0; i < n->unavailable->len; i++)
    g_ptr_array_add (info->unavailable, g_strdup_printf ("nvme.%s", (char *) g_ptr_array_index (n->unavailable, i)));
  /* The controller's own words win over sysfs, which may be cut short. */
  if (n->have_identify)
    {
      g_free (info->model), info->model = g_strdup (n->model);
      g_free (info->serial), info->serial = g_strdup (n->serial);
      g_free (info->firmware), info->firmware = g_strdup (n->firmware);
    }
  if (!info->have_temperature && n->have_smart && n->composite_temp_k)
    {
      info->have_temperature = TRUE;
      info->temperature_c = n->composite_temp_k - 273.15;
      info->temperature_source = g_strdup ("smart");
    }
  info->nvme = n;
}

/* udev's database entry for the disk: /run/udev/data/bMAJOR:MINOR on the running
 * system, or, for a captured tree, the same name in a folder "TREE.udev" beside it. */
static void
read_signature (const Ctx     *c,
                NscDeviceInfo *info)
{
  g_autofree char *dir = c->live ? g_strdup ("/run/udev/data") : g_strconcat (c->root, ".udev", NULL);
  g_autofree char *file = g_strdup_printf ("b%u:%u", info->major, info->minor);
  g_autofree char *path = g_build_filename (dir, file, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return;
  info->signature_known = TRUE;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "E:ID_FS_TYPE=") && lines[i][13] != '\0')
        {
          g_free (info->fs_type);
          info->fs_type = g_strdup (lines[i] + 13);
        }
      else if (g_str_has_prefix (lines[i], "E:ID_PART_TABLE_TYPE=") && lines[i][21] != '\0')
        {
          g_free (info->part_table_type);
          info->part_table_type = g_strdup (lines[i] + 21);
        }
    }
}

static NscDeviceInfo *
device_new (const Ctx        *c,
            const char       *name,
            NscDiscoverFlags  flags,
            GError          **error)
{
  g_autofree char *link = g_build_filename (c->root, "block", name, NULL);
  g_autofree char *devpath = NULL;
  g_autofree char *queue = NULL;
  g_autoptr(NscDeviceInfo) info = NULL;
  g_autoptr(GPtrArray) swaps = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) holders = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) entries = NULL;

  if (!g_file_test (link, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND,
                   _("There is no block device %s (no %s)"), name, link);
      return NULL;
    }
  devpath = _nsc_sysfs_resolve (link);

  info = g_new0 (NscDeviceInfo, 1);
  info->name = g_strdup (name);
  info->devnode = g_strdup_printf ("/dev/%s", name);
  info->sysfs_path = g_strdup (devpath);
  info->partitions = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_partition_free);
  info->mounts = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_mount_free);
  info->unavailable = g_ptr_array_new_with_free_func (g_free);
  if (!read_dev (devpath, &info->major, &info->minor))
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_FAILED,
                   _("%s has no readable device number (%s/dev)"), name, devpath);
      return NULL;
    }
  info->transport = g_strdup (transport_from_path (name, devpath));

  /* sysfs "size" counts 512-byte sectors whatever the logical block size. */
  info->capacity = read_u64 (devpath, "size", 0) * 512;
  queue = g_build_filename (devpath, "queue", NULL);
  info->logical_block_size = read_u64 (queue, "logical_block_size", 512);
  info->physical_block_size = read_u64 (queue, "physical_block_size", info->logical_block_size);
  info->rotational = read_u64 (queue, "rotational", 0) != 0;
  info->discard_max_bytes = read_u64 (queue, "discard_max_bytes", 0);
  info->removable = read_u64 (devpath, "removable", 0) != 0;
  info->read_only = read_u64 (devpath, "ro", 0) != 0;

  fill_identity (info, c->root, devpath);

  collect_usage (c, info, name, info->major, info->minor, swaps, holders, 0);

  /* Partitions are subfolders with a "partition" file. */
  entries = list_dir (devpath);
  for (guint i = 0; entries[i]; i++)
    {
      g_autofree char *pdir = g_build_filename (devpath, entries[i], NULL);
      g_autofree char *pnum = g_build_filename (pdir, "partition", NULL);
      g_autofree char *hdir = g_build_filename (pdir, "holders", NULL);
      g_autoptr(GPtrArray) own_holders = g_ptr_array_new_with_free_func (g_free);
      g_auto(GStrv) held_by = NULL;
      NscPartition *p;

      if (!g_file_test (pnum, G_FILE_TEST_EXISTS))
        continue;
      p = g_new0 (NscPartition, 1);
      p->name = g_strdup (entries[i]);
      p->devnode = g_strdup_printf ("/dev/%s", entries[i]);
      read_dev (pdir, &p->major, &p->minor);
      p->number = read_u64 (pdir, "partition", 0);
      p->start = read_u64 (pdir, "start", 0) * 512;
      p->size = read_u64 (pdir, "size", 0) * 512;
      held_by = list_dir (hdir);
      for (guint k = 0; held_by[k]; k++)
        g_ptr_array_add (own_holders, g_strdup (held_by[k]));
      p->holders = ptr_array_to_strv (g_steal_pointer (&own_holders));
      g_ptr_array_add (info->partitions, p);

      collect_usage (c, info, p->name, p->major, p->minor, swaps, holders, 0);
    }

  info->swaps = ptr_array_to_strv (g_steal_pointer (&swaps));
  info->holders = ptr_array_to_strv (g_steal_pointer (&holders));

  read_signature (c, info);

  if (flags & NSC_DISCOVER_NVME)
    {
      if (info->controller)
        add_nvme_facts (info);
    }
  if (!info->have_temperature)
    g_ptr_array_add (info->unavailable,
                     g_strdup (info->controller && !(flags & NSC_DISCOVER_NVME)
                               ? "temperature: no hwmon sensor (the SMART log was not asked)"
                               : info->controller ? "temperature: no hwmon sensor and no SMART log"
                                                  : "temperature: the device has no sensor that Linux exposes"));
  return g_steal_pointer (&info);
}

static gboolean
worth_listing (const NscDeviceInfo *info,
               NscDiscoverFlags     flags)
{
  if (flags & NSC_DISCOVER_ALL)
    return TRUE;
  /* Unattached loop devices and unconfigured zram devices are size 0: noise. */
  if (g_str_equal (info->transport, "loop") || g_str_equal (info->transport, "zram"))
    return info->capacity > 0;
  return TRUE;
}

NscDeviceInfo *
nsc_device_info_new_at (const char       *sysfs_root,
                        const char       *name,
                        const char       *mountinfo,
                        const char       *swaps,
                        NscDiscoverFlags  flags,
                        GError          **error)
{
  g_auto(Ctx) c = { 0 };

  g_return_val_if_fail (sysfs_root != NULL && name != NULL, NULL);
  ctx_init (&c, sysfs_root, mountinfo, swaps);
  return device_new (&c, name, flags, error);
}

GPtrArray *
nsc_device_discover_at (const char       *sysfs_root,
                        const char       *mountinfo,
                        const char       *swaps,
                        NscDiscoverFlags  flags,
                        GError          **error)
{
  g_auto(Ctx) c = { 0 };
  g_autofree char *blockdir = NULL;
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_device_info_free);
  g_auto(GStrv) names = NULL;
  g_autoptr(GDir) dir = NULL;

  g_return_val_if_fail (sysfs_root != NULL, NULL);
  ctx_init (&c, sysfs_root, mountinfo, swaps);
  blockdir = g_build_filename (c.root, "block", NULL);
  dir = g_dir_open (blockdir, 0, NULL);
  if (dir == NULL)
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND,
                   _("Cannot list block devices: %s is missing (is sysfs mounted?)"), blockdir);
      return NULL;
    }
  names = list_dir (blockdir);
  for (guint i = 0; names[i]; i++)
    {
      g_autoptr(GError) local = NULL;
      NscDeviceInfo *info = device_new (&c, names[i], flags, &local);

      /* A device that vanished or is half-registered is skipped, not fatal. */
      if (info == NULL)
        continue;
      if (worth_listing (info, flags))
        g_ptr_array_add (out, info);
      else
        nsc_device_info_free (info);
    }
  return g_steal_pointer (&out);
}

GPtrArray *
nsc_device_discover (NscDiscoverFlags  flags,
                     GError          **error)
{
  g_autofree char *mountinfo = NULL;
  g_autofree char *swaps = NULL;

  if (!g_file_get_contents ("/proc/self/mountinfo", &mountinfo, NULL, error))
    return NULL;
  /* No /proc/swaps (a kernel without swap) means no swap. */
  g_file_get_contents ("/proc/swaps", &swaps, NULL, NULL);
  return nsc_device_discover_at ("/sys", mountinfo, swaps, flags, error);
}

/* The whole disk name of the block device ma:mi: itself, or the parent folder of a
 * partition. */
static char *
whole_disk_name (guint ma,
                 guint mi)
{
  g_autofree char *link = g_strdup_printf ("/sys/dev/block/%u:%u", ma, mi);
  g_autofree char *real = _nsc_sysfs_resolve (link);
  g_autofree char *part = g_build_filename (real, "partition", NULL);

  if (!g_file_test (real, G_FILE_TEST_IS_DIR))
    return NULL;
  if (g_file_test (part, G_FILE_TEST_EXISTS))
    {
      g_autofree char *parent = g_path_get_dirname (real);
      return g_path_get_basename (parent);
    }
  return g_path_get_basename (real);
}

NscDeviceInfo *
nsc_device_info_for_path (const char       *path,
                          NscDiscoverFlags  flags,
                          GError          **error)
{
  g_autofree char *mountinfo = NULL;
  g_autofree char *swaps = NULL;
  g_autofree char *name = NULL;
  struct stat st;
  dev_t dev;

  g_return_val_if_fail (path != NULL, NULL);
  if (stat (path, &st) != 0)
    {
      int errsv = errno;
      g_autofree char *base = g_path_get_basename (path);
      g_autofree char *sysdev = g_build_filename ("/sys/class/block", base, "dev", NULL);
      g_autofree char *numbers = NULL;
      guint maj, min;

      /* A sandbox (Flatpak) has no drives in /dev but the host's /sys, read-only:
       * /dev/NAME is the block device sysfs calls NAME. */
      if (errsv == ENOENT && g_str_has_prefix (path, "/dev/")
          && g_file_get_contents (sysdev, &numbers, NULL, NULL)
          && sscanf (numbers, "%u:%u", &maj, &min) == 2)
        {
          memset (&st, 0, sizeof st);
          st.st_mode = S_IFBLK;
          st.st_rdev = makedev (maj, min);
        }
      else
        {
          nsc_set_error_from_errno (error, errsv, _("Cannot look at %s"), path);
          return NULL;
        }
    }
  dev = S_ISBLK (st.st_mode) ? st.st_rdev : st.st_dev;
  if (!g_file_get_contents ("/proc/self/mountinfo", &mountinfo, NULL, error))
    return NULL;
  g_file_get_contents ("/proc/swaps", &swaps, NULL, NULL);

  name = whole_disk_name (major (dev), minor (dev));
  if (name == NULL && !S_ISBLK (st.st_mode))
    {
      /* btrfs and overlay report anonymous device numbers: take the mount's source. */
      g_autoptr(GPtrArray) mounts = nsc_mountinfo_parse (mountinfo);
      for (guint i = 0; i < mounts->len && name == NULL; i++)
        {
          NscMountEntry *m = g_ptr_array_index (mounts, i);
          struct stat sst;
          if (m->major == major (dev) && m->minor == minor (dev) && m->source
              && stat (m->source, &sst) == 0 && S_ISBLK (sst.st_mode))
            name = whole_disk_name (major (sst.st_rdev), minor (sst.st_rdev));
        }
    }
  if (name == NULL)
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND,
                   _("%s is not on a block device that sysfs knows (device %u:%u)"),
                   path, major (dev), minor (dev));
      return NULL;
    }
  return nsc_device_info_new_at ("/sys", name, mountinfo, swaps, flags, error);
}

/* ---- for people --------------------------------------------------------------------------- */

gboolean
nsc_device_info_is_free (const NscDeviceInfo *info)
{
  return !info->hosts_root && info->mounts->len == 0
         && g_strv_length (info->swaps) == 0 && g_strv_length (info->holders) == 0;
}

gboolean
nsc_device_info_is_new (const NscDeviceInfo *info)
{
  g_return_val_if_fail (info != NULL, FALSE);

  return nsc_device_info_is_free (info) && !info->read_only && info->capacity > 0
         && (info->partitions == NULL || info->partitions->len == 0)
         && info->fs_type == NULL && info->part_table_type == NULL;
}

/* In the user's language for people, in English for the result's JSON. */
static const char *tr (gboolean    translate,
                       const char *text) G_GNUC_FORMAT (2);

static const char *
tr (gboolean    translate,
    const char *text)
{
  return translate ? g_dgettext (GETTEXT_PACKAGE, text) : text;
}

static char *
describe_state (const NscDeviceInfo *info,
                gboolean             translate)
{
  g_autoptr(GString) s = g_string_new (NULL);
  gboolean root_direct = FALSE;

  for (guint i = 0; i < info->mounts->len; i++)
    {
      NscMount *m = g_ptr_array_index (info->mounts, i);
      if (g_str_equal (m->mountpoint, "/") && g_str_equal (m->source, info->name))
        root_direct = TRUE;
      for (guint j = 0; j < info->partitions->len && !root_direct; j++)
        {
          NscPartition *p = g_ptr_array_index (info->partitions, j);
          if (g_str_equal (m->mountpoint, "/") && g_str_equal (m->source, p->name))
            root_direct = TRUE;
        }
    }

  if (info->hosts_root && !root_direct)
    {
      /* / sits on a holder (LVM, dm-crypt): name the way it is reached. */
      /* Translators: the state of a drive; fragments joined by "; " */
      g_string_append (s, tr (translate, N_("in use by /")));
      if (info->holders[0])
        /* Translators: after "in use by /"; %s is a device-mapper name */
        g_string_append_printf (s, tr (translate, N_(" (through %s)")), info->holders[0]);
    }
  if (info->mounts->len)
    {
      g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
      if (s->len)
        g_string_append (s, "; ");
      /* Translators: followed by the mount points, joined by ", " */
      g_string_append (s, tr (translate, N_("mounted at ")));
      for (guint i = 0; i < info->mounts->len; i++)
        {
          NscMount *m = g_ptr_array_index (info->mounts, i);
          guint before = seen->len;
          add_unique (seen, m->mountpoint);
          if (seen->len != before)
            g_string_append_printf (s, "%s%s", seen->len > 1 ? ", " : "", m->mountpoint);
        }
    }
  if (info->swaps[0])
    {
      g_autofree char *names = g_strjoinv (", ", info->swaps);
      if (s->len)
        g_string_append (s, "; ");
      /* Translators: %s lists swap areas */
      g_string_append_printf (s, tr (translate, N_("swap (%s)")), names);
    }
  if (info->holders[0] && !info->hosts_root)
    {
      g_autofree char *names = g_strjoinv (", ", info->holders);
      if (s->len)
        g_string_append (s, "; ");
      /* Translators: %s lists the devices built on this one (LVM, RAID) */
      g_string_append_printf (s, tr (translate, N_("held by %s")), names);
    }
  if (s->len == 0)
    /* Translators: the state of a drive nothing uses */
    g_string_append (s, tr (translate, N_("free")));
  return g_string_free (g_steal_pointer (&s), FALSE);
}

char *
nsc_device_info_describe_state (const NscDeviceInfo *info)
{
  return describe_state (info, TRUE);
}

char *
nsc_device_info_describe_link (const NscDeviceInfo *info)
{
  guint gen = nsc_pcie_generation (info->link_speed);

  if (gen == 0)
    return NULL;
  return g_strdup_printf ("PCIe %u.0 x%u", gen, info->link_width);
}

/* ---- JSON ---------------------------------------------------------------------------------- */

static void
add_string (JsonBuilder *b,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (b, name);
  if (value)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
add_strv (JsonBuilder *b,
          const char  *name,
          GStrv        values)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; values && values[i]; i++)
    json_builder_add_string_value (b, values[i]);
  json_builder_end_array (b);
}

JsonNode *
nsc_device_info_to_json (const NscDeviceInfo *info)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char *state = NULL;

  g_return_val_if_fail (info != NULL, NULL);
  state = describe_state (info, FALSE);

  json_builder_begin_object (b);
  add_string (b, "name", info->name);
  add_string (b, "devnode", info->devnode);
  {
    g_autofree char *dev = g_strdup_printf ("%u:%u", info->major, info->minor);
    json_builder_set_member_name (b, "dev");
    json_builder_add_string_value (b, dev);
  }
  add_string (b, "transport", info->transport);
  add_string (b, "model", info->model);
  add_string (b, "vendor", info->vendor);
  add_string (b, "serial", info->serial);
  add_string (b, "firmware", info->firmware);
  add_string (b, "controller", info->controller);
  if (info->nsid)
    add_int (b, "nsid", info->nsid);
  if (info->backing_file)
    add_string (b, "backing_file", info->backing_file);
  /* Bytes, not a rounded size: consumers format it themselves. */
  add_int (b, "capacity", (gint64) MIN (info->capacity, (guint64) G_MAXINT64));
  add_int (b, "logical_block_size", info->logical_block_size);
  add_int (b, "physical_block_size", info->physical_block_size);
  json_builder_set_member_name (b, "rotational");
  json_builder_add_boolean_value (b, info->rotational);
  json_builder_set_member_name (b, "removable");
  json_builder_add_boolean_value (b, info->removable);
  json_builder_set_member_name (b, "read_only");
  json_builder_add_boolean_value (b, info->read_only);
  json_builder_set_member_name (b, "discard");
  json_builder_add_boolean_value (b, info->discard_max_bytes > 0);
  add_int (b, "discard_max_bytes", (gint64) MIN (info->discard_max_bytes, (guint64) G_MAXINT64));

  json_builder_set_member_name (b, "partitions");
  json_builder_begin_array (b);
  for (guint i = 0; i < info->partitions->len; i++)
    {
      NscPartition *p = g_ptr_array_index (info->partitions, i);
      json_builder_begin_object (b);
      add_string (b, "name", p->name);
      add_string (b, "devnode", p->devnode);
      add_int (b, "number", p->number);
      add_int (b, "start", (gint64) p->start);
      add_int (b, "size", (gint64) p->size);
      add_strv (b, "holders", p->holders);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "mounts");
  json_builder_begin_array (b);
  for (guint i = 0; i < info->mounts->len; i++)
    {
      NscMount *m = g_ptr_array_index (info->mounts, i);
      json_builder_begin_object (b);
      add_string (b, "source", m->source);
      add_string (b, "mountpoint", m->mountpoint);
      add_string (b, "fstype", m->fstype);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_strv (b, "swap", info->swaps);
  add_strv (b, "holders", info->holders);
  json_builder_set_member_name (b, "hosts_root");
  json_builder_add_boolean_value (b, info->hosts_root);
  json_builder_set_member_name (b, "free");
  json_builder_add_boolean_value (b, nsc_device_info_is_free (info));
  add_string (b, "state", state);

  json_builder_set_member_name (b, "link");
  if (info->link_speed)
    {
      json_builder_begin_object (b);
      add_string (b, "speed", info->link_speed);
      add_int (b, "width", info->link_width);
      add_int (b, "generation", nsc_pcie_generation (info->link_speed));
      add_string (b, "max_speed", info->link_max_speed);
      add_int (b, "max_width", info->link_max_width);
      add_int (b, "max_generation", nsc_pcie_generation (info->link_max_speed));
      add_string (b, "warning", info->link_warning);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "temperature_c");
  if (info->have_temperature)
    json_builder_add_double_value (b, info->temperature_c);
  else
    json_builder_add_null_value (b);
  add_string (b, "temperature_source", info->temperature_source);

  json_builder_set_member_name (b, "nvme");
  if (info->nvme)
    json_builder_add_value (b, nsc_nvme_info_to_json (info->nvme));
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "unavailable");
  json_builder_begin_array (b);
  for (guint i = 0; i < info->unavailable->len; i++)
    {
      const char *u = g_ptr_array_index (info->unavailable, i);
      const char *colon = strstr (u, ": ");
      g_autofree char *field = colon ? g_strndup (u, colon - u) : g_strdup (u);
      json_builder_begin_object (b);
      add_string (b, "field", field);
      add_string (b, "reason", colon ? colon + 2 : "");
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  /* A new drive (nsc_device_info_is_new ()) and what udev's probe found on it. */
  json_builder_set_member_name (b, "new");
  json_builder_add_boolean_value (b, nsc_device_info_is_new (info));
  json_builder_set_member_name (b, "signature");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "known");
  json_builder_add_boolean_value (b, info->signature_known);
  add_string (b, "filesystem", info->fs_type);
  add_string (b, "partition_table", info->part_table_type);
  json_builder_end_object (b);

  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
nsc_device_list_to_json (GPtrArray *infos)
{
  JsonArray *arr = json_array_sized_new (infos->len);
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  for (guint i = 0; i < infos->len; i++)
    json_array_add_element (arr, nsc_device_info_to_json (g_ptr_array_index (infos, i)));
  json_node_take_array (node, arr);
  return node;
}

/* ---- temperature during a run ---------------------------------------------------------------- */

gboolean
nsc_device_read_temperature (const char  *devnode,
                             double      *celsius,
                             GError     **error)
{
  g_autofree char *name = NULL;
  g_autofree char *link = NULL;
  g_autofree char *real = NULL;
  g_autofree char *ctrl = NULL;
  struct stat st;

  g_return_val_if_fail (devnode != NULL && celsius != NULL, FALSE);
  if (stat (devnode, &st) != 0)
    {
      nsc_set_error_from_errno (error, errno, _("Cannot read the temperature of %s"), devnode);
      return FALSE;
    }

  if (S_ISCHR (st.st_mode))
    {
      /* An NVMe controller node, /dev/nvme0. */
      ctrl = g_path_get_basename (devnode);
    }
  else if (S_ISBLK (st.st_mode))
    {
      name = whole_disk_name (major (st.st_rdev), minor (st.st_rdev));
      if (name)
        {
          g_autofree char *dlink = NULL;
          link = g_build_filename ("/sys/class/block", name, NULL);
          real = _nsc_sysfs_resolve (link);
          dlink = g_build_filename (real, "device", NULL);
          if (g_file_test (dlink, G_FILE_TEST_EXISTS))
            {
              g_autofree char *devdir = _nsc_sysfs_resolve (dlink);
              if (read_hwmon (devdir, celsius))
                return TRUE;
              if (g_str_has_prefix (name, "nvme"))
                ctrl = g_path_get_basename (devdir);
            }
        }
    }
  else
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   _("%s is not a device node, so it has no temperature"), devnode);
      return FALSE;
    }

  if (ctrl && g_str_has_prefix (ctrl, "nvme") && !g_str_has_prefix (ctrl, "nvme-"))
    {
      g_autofree char *cdir = g_build_filename ("/sys/class/nvme", ctrl, NULL);
      g_autofree char *creal = _nsc_sysfs_resolve (cdir);
      g_autofree char *cnode = g_strdup_printf ("/dev/%s", ctrl);

      if (read_hwmon (creal, celsius))
        return TRUE;
      /* The namespace's block node takes admin commands too, so fall back to it
       * when the controller node is missing (a minimal /dev). */
      if (g_file_test (cnode, G_FILE_TEST_EXISTS))
        return nsc_nvme_read_temperature (cnode, celsius, error);
      return nsc_nvme_read_temperature (devnode, celsius, error);
    }

  g_set_error (error, NSC_ERROR, NSC_ERROR_UNSUPPORTED,
               _("%s has no temperature sensor that Linux exposes (no hwmon; not NVMe)"), devnode);
  return FALSE;
}

gboolean
nsc_device_temperature_func (gpointer  devnode,
                             double   *celsius)
{
  /* Called once a second: a drive without a sensor is not news each time. */
  return nsc_device_read_temperature (devnode, celsius, NULL);
}

JsonNode *
nsc_device_read_wear (const NscDeviceInfo  *info,
                      GError              **error)
{
  g_autoptr(NscNvmeInfo) n = NULL;
  g_autoptr(JsonBuilder) b = NULL;

  g_return_val_if_fail (info != NULL, NULL);
  if (info->controller == NULL)
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_UNSUPPORTED,
                   _("%s is not an NVMe drive; its written total is not read"), info->name);
      return NULL;
    }
  n = nsc_nvme_query (info->controller, 0, error);
  if (n == NULL)
    return NULL;
  if (!n->have_smart)
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_PERMISSION,
                   _("The SMART log of %s could not be read (it needs root)"), info->controller);
      return NULL;
    }
  b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "data_units_written");
  json_builder_add_int_value (b, (gint64) n->data_units_written);
  json_builder_set_member_name (b, "bytes_written");
  json_builder_add_int_value (b, (gint64) (n->data_units_written * 512000));
  json_builder_set_member_name (b, "percentage_used");
  json_builder_add_int_value (b, n->percent_used);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}

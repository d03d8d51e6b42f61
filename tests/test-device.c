/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Device discovery on captured sysfs trees (tests/data/sysfs-*), with their mount
 * and swap tables: every fact the trees encode is asserted, so a parser that
 * misreads a layout fails here rather than on someone's drive. */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "nsc-device.h"
#include "nsc-device-safety.h"
#include "nsc-error.h"
#include "nsc-nvme.h"

typedef struct
{
  GPtrArray *devices;
} Fixture;

static GPtrArray *
discover_tree (const char       *tree,
               NscDiscoverFlags  flags)
{
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "data", tree, NULL);
  g_autofree char *mi_name = g_strconcat (tree, ".mountinfo", NULL);
  g_autofree char *sw_name = g_strconcat (tree, ".swaps", NULL);
  g_autofree char *mi_path = g_test_build_filename (G_TEST_DIST, "data", mi_name, NULL);
  g_autofree char *sw_path = g_test_build_filename (G_TEST_DIST, "data", sw_name, NULL);
  g_autofree char *mountinfo = NULL;
  g_autofree char *swaps = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *devices;

  g_assert_true (g_file_get_contents (mi_path, &mountinfo, NULL, NULL));
  g_assert_true (g_file_get_contents (sw_path, &swaps, NULL, NULL));
  devices = nsc_device_discover_at (root, mountinfo, swaps, flags, &error);
  g_assert_no_error (error);
  g_assert_nonnull (devices);
  return devices;
}

static NscDeviceInfo *
find (GPtrArray  *devices,
      const char *name)
{
  for (guint i = 0; i < devices->len; i++)
    {
      NscDeviceInfo *d = g_ptr_array_index (devices, i);
      if (g_str_equal (d->name, name))
        return d;
    }
  g_assert_not_reached ();
  return NULL;
}

static NscMount *
mount_at (NscDeviceInfo *d,
          guint          i)
{
  g_assert_cmpuint (i, <, d->mounts->len);
  return g_ptr_array_index (d->mounts, i);
}

static gboolean
unavailable_has (NscDeviceInfo *d,
                 const char    *prefix)
{
  for (guint i = 0; i < d->unavailable->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (d->unavailable, i), prefix))
      return TRUE;
  return FALSE;
}

static void
test_laptop_list (void)
{
  g_autoptr(GPtrArray) devices = discover_tree ("sysfs-laptop", NSC_DISCOVER_DEFAULT);
  g_autoptr(GPtrArray) all = discover_tree ("sysfs-laptop", NSC_DISCOVER_ALL);
  const char *expected[] = { "dm-0", "loop0", "nvme0n1", "sda", "sdb", "zram0" };

  /* The unattached loop1 (size 0) is noise unless asked for. */
  g_assert_cmpuint (devices->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpstr (((NscDeviceInfo *) g_ptr_array_index (devices, i))->name, ==, expected[i]);
  g_assert_cmpuint (all->len, ==, 7);
  g_assert_cmpuint (find (all, "loop1")->capacity, ==, 0);
}

static void
test_laptop_nvme (void)
{
  g_autoptr(GPtrArray) devices = discover_tree ("sysfs-laptop", NSC_DISCOVER_DEFAULT);
  NscDeviceInfo *d = find (devices, "nvme0n1");
  NscPartition *p1, *p2;
  g_autofree char *state = nsc_device_info_describe_state (d);
  g_autofree char *link = nsc_device_info_describe_link (d);

  g_assert_cmpstr (d->devnode, ==, "/dev/nvme0n1");
  g_assert_cmpuint (d->major, ==, 259);
  g_assert_cmpuint (d->minor, ==, 0);
  g_assert_cmpstr (d->transport, ==, "nvme");
  g_assert_cmpstr (d->model, ==, "Samsung SSD 980 PRO 1TB");
  g_assert_cmpstr (d->serial, ==, "S5GXNF0R123456A");
  g_assert_cmpstr (d->firmware, ==, "5B2QGXA7");
  g_assert_cmpstr (d->controller, ==, "nvme0");
  g_assert_cmpuint (d->nsid, ==, 1);
  g_assert_cmpuint (d->capacity, ==, G_GUINT64_CONSTANT (1953525168) * 512);
  g_assert_cmpuint (d->logical_block_size, ==, 512);
  g_assert_cmpuint (d->physical_block_size, ==, 512);
  g_assert_false (d->rotational);
  g_assert_cmpuint (d->discard_max_bytes, ==, G_GUINT64_CONSTANT (2199023255040));

  g_assert_cmpuint (d->partitions->len, ==, 2);
  p1 = g_ptr_array_index (d->partitions, 0);
  p2 = g_ptr_array_index (d->partitions, 1);
  g_assert_cmpstr (p1->name, ==, "nvme0n1p1");
  g_assert_cmpstr (p1->devnode, ==, "/dev/nvme0n1p1");
  g_assert_cmpuint (p1->number, ==, 1);
  g_assert_cmpuint (p1->start, ==, 2048 * 512);
  g_assert_cmpuint (p1->size, ==, G_GUINT64_CONSTANT (512) << 20);
  g_assert_cmpstr (p2->name, ==, "nvme0n1p2");
  g_assert_cmpuint (p2->major, ==, 259);
  g_assert_cmpuint (p2->minor, ==, 2);

  /* Mounts in mount-table order of the disk, then each partition in turn. */
  g_assert_cmpuint (d->mounts->len, ==, 2);
  g_assert_cmpstr (mount_at (d, 0)->source, ==, "nvme0n1p1");
  g_assert_cmpstr (mount_at (d, 0)->mountpoint, ==, "/boot/efi");
  g_assert_cmpstr (mount_at (d, 0)->fstype, ==, "vfat");
  g_assert_cmpstr (mount_at (d, 1)->source, ==, "nvme0n1p2");
  g_assert_cmpstr (mount_at (d, 1)->mountpoint, ==, "/");
  g_assert_cmpstr (mount_at (d, 1)->fstype, ==, "ext4");
  g_assert_true (d->hosts_root);
  g_assert_cmpuint (g_strv_length (d->swaps), ==, 0);
  g_assert_cmpuint (g_strv_length (d->holders), ==, 0);
  g_assert_false (nsc_device_info_is_free (d));
  g_assert_cmpstr (state, ==, "mounted at /boot/efi, /");

  /* A PCIe 4.0 drive in a 3.0 slot: the warning names both. */
  g_assert_cmpstr (d->link_speed, ==, "8.0 GT/s PCIe");
  g_assert_cmpuint (d->link_width, ==, 4);
  g_assert_cmpstr (d->link_max_speed, ==, "16.0 GT/s PCIe");
  g_assert_cmpuint (d->link_max_width, ==, 4);
  g_assert_cmpstr (link, ==, "PCIe 3.0 x4");
  g_assert_nonnull (d->link_warning);
  g_assert_nonnull (strstr (d->link_warning, "PCIe 3.0 x4"));
  g_assert_nonnull (strstr (d->link_warning, "PCIe 4.0 x4"));

  g_assert_true (d->have_temperature);
  g_assert_cmpfloat_with_epsilon (d->temperature_c, 41.85, 1e-9);
  g_assert_cmpstr (d->temperature_source, ==, "hwmon");
  /* Not asked for NVMe facts: none, and nothing claimed unavailable for it. */
  g_assert_null (d->nvme);
  g_assert_false (unavailable_has (d, "nvme."));
}

static void
test_laptop_sata_usb (void)
{
  g_autoptr(GPtrArray) devices = discover_tree ("sysfs-laptop", NSC_DISCOVER_DEFAULT);
  NscDeviceInfo *sda = find (devices, "sda");
  NscDeviceInfo *sdb = find (devices, "sdb");
  g_autofree char *sda_state = nsc_device_info_describe_state (sda);
  g_autofree char *sdb_state = nsc_device_info_describe_state (sdb);

  g_assert_cmpstr (sda->transport, ==, "sata");
  g_assert_cmpstr (sda->vendor, ==, "ATA");
  g_assert_cmpstr (sda->model, ==, "WDC WD20EZRZ-00Z");
  g_assert_cmpstr (sda->firmware, ==, "0A80");
  g_assert_cmpstr (sda->serial, ==, "WD-WCC4M1ABCDEF");
  g_assert_true (sda->rotational);
  g_assert_cmpuint (sda->logical_block_size, ==, 512);
  g_assert_cmpuint (sda->physical_block_size, ==, 4096);
  g_assert_cmpuint (sda->capacity, ==, G_GUINT64_CONSTANT (3907029168) * 512);
  g_assert_cmpuint (sda->discard_max_bytes, ==, 0);
  g_assert_cmpuint (sda->partitions->len, ==, 2);
  /* sda1 twice: /data and a bind mount whose name has a space (\040 in mountinfo). */
  g_assert_cmpuint (sda->mounts->len, ==, 2);
  g_assert_cmpstr (mount_at (sda, 0)->mountpoint, ==, "/data");
  g_assert_cmpstr (mount_at (sda, 1)->mountpoint, ==, "/home/user/My Photos");
  g_assert_cmpstr (mount_at (sda, 1)->source, ==, "sda1");
  g_assert_cmpuint (g_strv_length (sda->swaps), ==, 1);
  g_assert_cmpstr (sda->swaps[0], ==, "sda2");
  g_assert_false (sda->hosts_root);
  g_assert_null (sda->link_speed);
  g_assert_null (sda->controller);
  g_assert_true (sda->have_temperature);
  g_assert_cmpfloat_with_epsilon (sda->temperature_c, 35.0, 1e-9);
  g_assert_cmpstr (sda_state, ==, "mounted at /data, /home/user/My Photos; swap (sda2)");

  g_assert_cmpstr (sdb->transport, ==, "usb");
  g_assert_cmpstr (sdb->vendor, ==, "Samsung");
  g_assert_cmpstr (sdb->model, ==, "PSSD T7");
  g_assert_cmpstr (sdb->firmware, ==, "0");
  g_assert_null (sdb->serial);
  g_assert_cmpuint (sdb->partitions->len, ==, 0);
  g_assert_true (nsc_device_info_is_free (sdb));
  g_assert_cmpstr (sdb_state, ==, "free");
  g_assert_false (sdb->have_temperature);
  g_assert_true (unavailable_has (sdb, "temperature: "));
}

static void
test_laptop_virtual (void)
{
  g_autoptr(GPtrArray) devices = discover_tree ("sysfs-laptop", NSC_DISCOVER_DEFAULT);
  NscDeviceInfo *zram = find (devices, "zram0");
  NscDeviceInfo *loop = find (devices, "loop0");
  NscDeviceInfo *dm = find (devices, "dm-0");
  g_autofree char *zram_state = nsc_device_info_describe_state (zram);
  g_autofree char *loop_state = nsc_device_info_describe_state (loop);

  g_assert_cmpstr (zram->transport, ==, "zram");
  g_assert_cmpuint (zram->capacity, ==, G_GUINT64_CONSTANT (2) << 30);
  g_assert_cmpuint (zram->logical_block_size, ==, 4096);
  g_assert_cmpuint (g_strv_length (zram->swaps), ==, 1);
  g_assert_cmpstr (zram_state, ==, "swap (zram0)");
  g_assert_null (zram->model);

  /* loop0 holds nothing mounted itself, but dm-0 on it is mounted at /srv/vm. */
  g_assert_cmpstr (loop->transport, ==, "loop");
  g_assert_cmpstr (loop->backing_file, ==, "/var/lib/images/vm.img");
  g_assert_cmpuint (loop->capacity, ==, G_GUINT64_CONSTANT (10) << 30);
  g_assert_cmpuint (g_strv_length (loop->holders), ==, 1);
  g_assert_cmpstr (loop->holders[0], ==, "dm-0");
  g_assert_cmpuint (loop->mounts->len, ==, 1);
  g_assert_cmpstr (mount_at (loop, 0)->source, ==, "dm-0");
  g_assert_cmpstr (mount_at (loop, 0)->mountpoint, ==, "/srv/vm");
  g_assert_cmpstr (mount_at (loop, 0)->fstype, ==, "xfs");
  g_assert_false (loop->hosts_root);
  g_assert_cmpstr (loop_state, ==, "mounted at /srv/vm; held by dm-0");

  g_assert_cmpstr (dm->transport, ==, "dm");
  g_assert_cmpuint (dm->mounts->len, ==, 1);
  g_assert_cmpuint (g_strv_length (dm->holders), ==, 0);
}

/* A new drive: no partition, and no partition table or filesystem where udev's
 * database (TREE.udev beside a captured tree) says. */
static void
test_new_drive (void)
{
  g_autofree char *dist = g_test_build_filename (G_TEST_DIST, "data", "sysfs-laptop", NULL);
  g_autofree char *tmp = g_dir_make_tmp ("nsc-udev-XXXXXX", NULL);
  g_autofree char *tree = g_build_filename (tmp, "sysfs", NULL);
  g_autofree char *udev = g_build_filename (tmp, "sysfs.udev", NULL);
  g_autofree char *entry = g_build_filename (udev, "b8:16", NULL);
  g_autofree char *mi_path = g_test_build_filename (G_TEST_DIST, "data", "sysfs-laptop.mountinfo", NULL);
  g_autofree char *mountinfo = NULL;
  struct { const char *db; gboolean is_new; const char *fs; const char *table; } cases[] = {
    { NULL, TRUE, NULL, NULL },                                   /* no database: partitions decide */
    { "S:disk/by-id/usb-x\nE:ID_SERIAL=x\n", TRUE, NULL, NULL },   /* probed: nothing found */
    { "E:ID_FS_TYPE=exfat\nE:ID_FS_USAGE=filesystem\n", FALSE, "exfat", NULL },
    { "E:ID_PART_TABLE_TYPE=dos\n", FALSE, NULL, "dos" },
    { "E:ID_FS_TYPE=\n", TRUE, NULL, NULL },                       /* blkid found nothing */
  };

  g_assert_nonnull (tmp);
  g_assert_true (g_file_get_contents (mi_path, &mountinfo, NULL, NULL));
  g_assert_cmpint (symlink (dist, tree), ==, 0);
  g_assert_cmpint (g_mkdir (udev, 0755), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(NscDeviceInfo) sdb = NULL;
      g_autoptr(NscDeviceInfo) nvme = NULL;
      g_autoptr(JsonNode) json = NULL;
      JsonObject *sig;

      if (cases[i].db != NULL)
        g_assert_true (g_file_set_contents (entry, cases[i].db, -1, NULL));
      sdb = nsc_device_info_new_at (tree, "sdb", mountinfo, "", NSC_DISCOVER_DEFAULT, &error);
      g_assert_no_error (error);
      g_assert_cmpint (sdb->signature_known, ==, cases[i].db != NULL);
      g_assert_cmpstr (sdb->fs_type, ==, cases[i].fs);
      g_assert_cmpstr (sdb->part_table_type, ==, cases[i].table);
      g_assert_cmpint (nsc_device_info_is_new (sdb), ==, cases[i].is_new);
      json = nsc_device_info_to_json (sdb);
      g_assert_cmpint (json_object_get_boolean_member (json_node_get_object (json), "new"), ==,
                       cases[i].is_new);
      sig = json_object_get_object_member (json_node_get_object (json), "signature");
      g_assert_cmpint (json_object_get_boolean_member (sig, "known"), ==, cases[i].db != NULL);

      /* Partitioned and mounted: never new, whatever the database says. */
      nvme = nsc_device_info_new_at (tree, "nvme0n1", mountinfo, "", NSC_DISCOVER_DEFAULT, &error);
      g_assert_no_error (error);
      g_assert_false (nsc_device_info_is_new (nvme));
    }
  g_assert_cmpint (g_remove (entry), ==, 0);
  g_assert_cmpint (g_rmdir (udev), ==, 0);
  g_assert_cmpint (g_remove (tree), ==, 0);
  g_assert_cmpint (g_rmdir (tmp), ==, 0);
}

static void
test_lvm_root (void)
{
  g_autoptr(GPtrArray) devices = discover_tree ("sysfs-lvmroot", NSC_DISCOVER_DEFAULT);
  NscDeviceInfo *vda = find (devices, "vda");
  g_autofree char *state = nsc_device_info_describe_state (vda);

  g_assert_cmpuint (devices->len, ==, 2);
  g_assert_cmpstr (vda->transport, ==, "virtio");
  g_assert_cmpstr (vda->serial, ==, "VIRTIO-ROOT-01");
  g_assert_null (vda->vendor);   /* "0x1af4" is a PCI id, not a vendor name */
  g_assert_cmpuint (vda->capacity, ==, G_GUINT64_CONSTANT (32) << 30);
  /* / is on dm-0, which sits on vda2: the disk hosts the system. */
  g_assert_true (vda->hosts_root);
  g_assert_cmpstr (vda->holders[0], ==, "dm-0");
  g_assert_cmpuint (vda->mounts->len, ==, 2);
  g_assert_cmpstr (mount_at (vda, 0)->source, ==, "vda1");
  g_assert_cmpstr (mount_at (vda, 0)->mountpoint, ==, "/boot");
  g_assert_cmpstr (mount_at (vda, 1)->source, ==, "dm-0");
  g_assert_cmpstr (mount_at (vda, 1)->mountpoint, ==, "/");
  g_assert_cmpstr (((NscPartition *) g_ptr_array_index (vda->partitions, 1))->holders[0], ==, "dm-0");
  g_assert_cmpstr (state, ==, "in use by / (through dm-0); mounted at /boot, /");
  g_assert_false (nsc_device_info_is_free (vda));
}

static void
test_multipath (void)
{
  g_autoptr(GPtrArray) devices = discover_tree ("sysfs-multipath", NSC_DISCOVER_DEFAULT);
  NscDeviceInfo *d = find (devices, "nvme0n1");
  g_autofree char *link = nsc_device_info_describe_link (d);

  g_assert_cmpuint (devices->len, ==, 1);
  g_assert_cmpstr (d->transport, ==, "nvme");
  /* The head's "device" is the subsystem; facts come from it, the link and the
   * sensor from its first controller. */
  g_assert_cmpstr (d->model, ==, "Micron_7450_MTFDKCB960TFR");
  g_assert_cmpstr (d->serial, ==, "MT2241ABCDEF");
  g_assert_cmpstr (d->firmware, ==, "E2MU110");
  g_assert_cmpstr (d->controller, ==, "nvme0");
  g_assert_cmpuint (d->logical_block_size, ==, 4096);
  g_assert_cmpuint (d->capacity, ==, G_GUINT64_CONSTANT (1875385008) * 512);
  g_assert_cmpstr (link, ==, "PCIe 4.0 x2");
  g_assert_null (d->link_warning);
  g_assert_true (d->have_temperature);
  g_assert_cmpfloat_with_epsilon (d->temperature_c, 38.85, 1e-9);
  g_assert_true (nsc_device_info_is_free (d));
}

static void
test_missing (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "data", "sysfs-laptop", NULL);
  g_autoptr(NscDeviceInfo) d = nsc_device_info_new_at (root, "sdz", "", NULL, 0, &error);
  g_autoptr(GPtrArray) none = nsc_device_discover_at ("/nonexistent-sysfs", "", NULL, 0, &error2);

  g_assert_null (d);
  g_assert_nonnull (strstr (error->message, "no block device sdz"));
  g_assert_null (none);
  g_assert_nonnull (strstr (error2->message, "is sysfs mounted?"));
}

static void
test_json (void)
{
  g_autoptr(GPtrArray) devices = discover_tree ("sysfs-laptop", NSC_DISCOVER_DEFAULT);
  g_autoptr(JsonNode) list = nsc_device_list_to_json (devices);
  g_autoptr(JsonNode) one = nsc_device_info_to_json (find (devices, "nvme0n1"));
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonObject *o, *link, *part;
  JsonArray *arr;

  g_assert_true (JSON_NODE_HOLDS_ARRAY (list));
  g_assert_cmpuint (json_array_get_length (json_node_get_array (list)), ==, 6);

  /* Through text and back, as `devices --json` consumers read it. */
  json_generator_set_root (gen, one);
  text = json_generator_to_data (gen, NULL);
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));

  g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "nvme0n1");
  g_assert_cmpstr (json_object_get_string_member (o, "dev"), ==, "259:0");
  g_assert_cmpstr (json_object_get_string_member (o, "transport"), ==, "nvme");
  g_assert_cmpstr (json_object_get_string_member (o, "model"), ==, "Samsung SSD 980 PRO 1TB");
  g_assert_cmpstr (json_object_get_string_member (o, "serial"), ==, "S5GXNF0R123456A");
  g_assert_cmpstr (json_object_get_string_member (o, "firmware"), ==, "5B2QGXA7");
  g_assert_cmpint (json_object_get_int_member (o, "capacity"), ==, G_GINT64_CONSTANT (1000204886016));
  g_assert_cmpint (json_object_get_int_member (o, "logical_block_size"), ==, 512);
  g_assert_true (json_object_get_boolean_member (o, "hosts_root"));
  g_assert_false (json_object_get_boolean_member (o, "free"));
  g_assert_true (json_object_get_boolean_member (o, "discard"));
  g_assert_cmpstr (json_object_get_string_member (o, "state"), ==, "mounted at /boot/efi, /");
  g_assert_true (json_object_get_null_member (o, "vendor"));
  g_assert_true (json_object_get_null_member (o, "nvme"));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "temperature_c"), 41.85, 1e-9);
  g_assert_cmpstr (json_object_get_string_member (o, "temperature_source"), ==, "hwmon");

  arr = json_object_get_array_member (o, "partitions");
  g_assert_cmpuint (json_array_get_length (arr), ==, 2);
  part = json_array_get_object_element (arr, 1);
  g_assert_cmpstr (json_object_get_string_member (part, "devnode"), ==, "/dev/nvme0n1p2");
  g_assert_cmpint (json_object_get_int_member (part, "start"), ==, G_GINT64_CONSTANT (1050624) * 512);
  arr = json_object_get_array_member (o, "mounts");
  g_assert_cmpuint (json_array_get_length (arr), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (arr, 1), "mountpoint"), ==, "/");

  link = json_object_get_object_member (o, "link");
  g_assert_cmpint (json_object_get_int_member (link, "generation"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (link, "max_generation"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (link, "width"), ==, 4);
  g_assert_nonnull (strstr (json_object_get_string_member (link, "warning"), "PCIe 4.0"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "unavailable")), ==, 0);
}

static void
test_nvme_json (void)
{
  g_autoptr(NscNvmeInfo) n = g_new0 (NscNvmeInfo, 1);
  g_autoptr(JsonNode) node = NULL;
  g_auto(GStrv) names = nsc_nvme_critical_warning_names (0x06);
  NscNvmeLbaFormat f512 = { 512, 0, 0 }, f4k = { 4096, 0, 0 };
  JsonObject *o, *id, *ns, *smart;

  n->controller = g_strdup ("nvme0");
  n->have_identify = TRUE;
  n->model = g_strdup ("QEMU NVMe Ctrl");
  n->serial = g_strdup ("NSCTEST123");
  n->firmware = g_strdup ("7.2.0");
  n->wctemp_k = 343;
  n->cctemp_k = 373;
  n->oncs = 0x04;     /* DSM only */
  n->fna = 0x04;      /* crypto erase */
  n->have_namespace = TRUE;
  n->nsid = 1;
  n->nsze = 524288;
  n->lba_size = 4096;
  n->current_lba_format = 1;
  n->lba_formats = g_array_new (FALSE, TRUE, sizeof (NscNvmeLbaFormat));
  g_array_append_val (n->lba_formats, f512);
  g_array_append_val (n->lba_formats, f4k);
  n->have_smart = TRUE;
  n->composite_temp_k = 323;
  n->critical_warning = 0x02;
  n->data_units_written = 3;
  n->thermal_transitions[0] = 7;
  n->thermal_seconds[1] = 60;
  n->unavailable = g_ptr_array_new_with_free_func (g_free);

  g_assert_cmpuint (g_strv_length (names), ==, 2);
  g_assert_cmpstr (names[0], ==, "temperature");
  g_assert_cmpstr (names[1], ==, "reliability-degraded");

  node = nsc_nvme_info_to_json (n);
  o = json_node_get_object (node);
  id = json_object_get_object_member (o, "identify");
  ns = json_object_get_object_member (o, "namespace");
  smart = json_object_get_object_member (o, "smart");
  g_assert_cmpstr (json_object_get_string_member (id, "firmware"), ==, "7.2.0");
  g_assert_cmpint (json_object_get_int_member (id, "wctemp_k"), ==, 343);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (id, "cctemp_c"), 99.85, 1e-9);
  g_assert_true (json_object_get_null_member (id, "mntmt_k"));
  g_assert_true (json_object_get_boolean_member (id, "dsm_deallocate"));
  g_assert_false (json_object_get_boolean_member (id, "write_zeroes"));
  g_assert_true (json_object_get_boolean_member (id, "format_crypto_erase"));
  g_assert_cmpint (json_object_get_int_member (ns, "lba_size"), ==, 4096);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (ns, "lba_formats")), ==, 2);
  g_assert_cmpint (json_object_get_int_member (smart, "temperature_k"), ==, 323);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (smart, "temperature_c"), 49.85, 1e-9);
  g_assert_cmpint (json_object_get_int_member (smart, "bytes_written"), ==, 3 * 512000);
  g_assert_cmpint (json_object_get_int_member (smart, "thermal_transitions_1"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (smart, "thermal_seconds_2"), ==, 60);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (smart, "critical_warnings"), 0),
                   ==, "temperature");
}

/* ---- in-use checks on captured trees ----------------------------------------- */

typedef struct
{
  char *sysfs;
  char *proc;
  char *mountinfo;
  char *swaps;
  NscUsageTables t;
} Tables;

static void
tables_load (Tables     *tb,
             const char *tree,
             const char *proc)
{
  g_autofree char *mi_name = g_strconcat (tree, ".mountinfo", NULL);
  g_autofree char *sw_name = g_strconcat (tree, ".swaps", NULL);
  g_autofree char *mi_path = g_test_build_filename (G_TEST_DIST, "data", mi_name, NULL);
  g_autofree char *sw_path = g_test_build_filename (G_TEST_DIST, "data", sw_name, NULL);

  tb->sysfs = g_test_build_filename (G_TEST_DIST, "data", tree, NULL);
  tb->proc = g_test_build_filename (G_TEST_DIST, "data", proc, NULL);
  g_assert_true (g_file_get_contents (mi_path, &tb->mountinfo, NULL, NULL));
  g_assert_true (g_file_get_contents (sw_path, &tb->swaps, NULL, NULL));
  tb->t = (NscUsageTables) { tb->sysfs, tb->proc, tb->mountinfo, tb->swaps, 100, FALSE };
}

static void
tables_clear (Tables *tb)
{
  g_free (tb->sysfs);
  g_free (tb->proc);
  g_free (tb->mountinfo);
  g_free (tb->swaps);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Tables, tables_clear)

/* Refused, and the message names @what (what uses it) and @hint (the way out). */
static void
assert_busy (const NscUsageTables *t,
             const char           *name,
             const char           *what,
             const char           *hint)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *node = g_strdup_printf ("/dev/%s", name);

  g_test_message ("%s: expect refusal naming “%s”", name, what);
  g_assert_false (nsc_device_check_unused_at (t, name, node, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_BUSY);
  g_test_message ("  %s", error->message);
  g_assert_nonnull (strstr (error->message, what));
  if (hint)
    g_assert_nonnull (strstr (error->message, hint));
  /* One line, naming the target the user gave. */
  g_assert_null (strchr (error->message, '\n'));
  g_assert_nonnull (strstr (error->message, node));
}

static void
assert_free (const NscUsageTables *t,
             const char           *name)
{
  g_autoptr(GError) error = NULL;

  g_test_message ("%s: expect no refusal", name);
  nsc_device_check_unused_at (t, name, NULL, &error);
  g_assert_no_error (error);
}

/* What claims a device: mounts, swap, holders (the laptop tree). */
static void
test_inuse_claimed (void)
{
  g_auto(Tables) tb = { 0 };
  g_autoptr(GError) error = NULL;

  tables_load (&tb, "sysfs-laptop", "proc-inuse");
  assert_busy (&tb.t, "nvme0n1", "mounted at /boot/efi", "unmount it");
  assert_busy (&tb.t, "nvme0n1p2", "mounted at / (the system drive)", NULL);
  assert_busy (&tb.t, "sda", "/dev/sda1 is mounted at /data", NULL);
  assert_busy (&tb.t, "sda2", "used as swap", "swapoff /dev/sda2");
  assert_busy (&tb.t, "zram0", "used as swap", NULL);
  assert_busy (&tb.t, "loop0", "held by dm-0", "stop that device");
  assert_free (&tb.t, "sdb");

  g_assert_false (nsc_device_check_unused_at (&tb.t, "sdz", "/dev/sdz", &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_NOT_FOUND);
}

/* What uses a device without claiming it, so that O_EXCL lets a writer in. */
static void
test_inuse_unclaimed (void)
{
  g_auto(Tables) tb = { 0 };

  tables_load (&tb, "sysfs-inuse", "proc-inuse");
  /* losetup /dev/sdb, the loop device mounted: the disk and both partitions. */
  assert_busy (&tb.t, "sdb", "backs the loop device /dev/loop2, mounted at /mnt/image",
               "losetup -d /dev/loop2");
  assert_busy (&tb.t, "sdb1", "/dev/sdb backs the loop device /dev/loop2", NULL);
  assert_busy (&tb.t, "sdb2", "/dev/sdb backs the loop device /dev/loop2", NULL);
  /* A partition backs a loop device: the partition and its disk. */
  assert_busy (&tb.t, "sdc1", "/dev/sdc1 backs the loop device /dev/loop3", "losetup -d /dev/loop3");
  assert_busy (&tb.t, "sdc", "/dev/sdc1 backs the loop device /dev/loop3", NULL);
  /* A VM's raw disk: the disk, and its partition through it. */
  assert_busy (&tb.t, "sdd", "/dev/sdd is open in qemu-system-x86 (process 4242)", "close it");
  assert_busy (&tb.t, "sdd1", "/dev/sdd is open in qemu-system-x86 (process 4242)", NULL);
  /* btrfs: anonymous device numbers in mountinfo; the source names the device. */
  assert_busy (&tb.t, "sde", "/dev/sde1 is mounted at /srv/pool", NULL);
  assert_busy (&tb.t, "sde1", "mounted at /srv/pool", NULL);
  /* A sibling partition in use: the disk is in use. */
  assert_busy (&tb.t, "sde2", "/dev/sde1 is mounted at /srv/pool", NULL);
  /* A two-device btrfs: mountinfo names sdg, sysfs lists sdf too. */
  assert_busy (&tb.t, "sdg", "mounted at /srv/big", NULL);
  assert_busy (&tb.t, "sdf", "belongs to the mounted btrfs filesystem", "unmount it");
  /* A partition editor with one partition open. */
  assert_busy (&tb.t, "sdh", "/dev/sdh1 is open in gparted (process 777)", NULL);
  assert_busy (&tb.t, "sdh1", "open in gparted", NULL);
  assert_busy (&tb.t, "sdh2", "/dev/sdh1 is open in gparted", NULL);
  /* Open only in the checking process itself: its own exclusive hold. */
  assert_free (&tb.t, "sdi");
  {
    NscUsageTables other = tb.t;
    other.self_pid = 1;
    assert_busy (&other, "sdi", "/dev/sdi is open in nandscope-cli (process 100)", NULL);
  }
  /* A loop device over a file; namespaces with nothing on them. */
  assert_free (&tb.t, "nvme1n1");
  assert_free (&tb.t, "nvme2n1");
}

/* How many namespaces an NVMe Format or Sanitize could reach. */
static void
test_nvme_namespaces (void)
{
  g_autofree char *inuse = g_test_build_filename (G_TEST_DIST, "data", "sysfs-inuse", NULL);
  g_autofree char *laptop = g_test_build_filename (G_TEST_DIST, "data", "sysfs-laptop", NULL);
  g_autofree char *multipath = g_test_build_filename (G_TEST_DIST, "data", "sysfs-multipath", NULL);

  g_assert_cmpuint (nsc_nvme_subsystem_namespaces_at (inuse, "nvme1n1"), ==, 2);
  g_assert_cmpuint (nsc_nvme_subsystem_namespaces_at (inuse, "nvme1n2"), ==, 2);
  g_assert_cmpuint (nsc_nvme_subsystem_namespaces_at (inuse, "nvme2n1"), ==, 1);
  /* A partition and a SATA disk are no namespaces. */
  g_assert_cmpuint (nsc_nvme_subsystem_namespaces_at (inuse, "nvme2n1p1"), ==, 0);
  g_assert_cmpuint (nsc_nvme_subsystem_namespaces_at (inuse, "sdb"), ==, 0);
  /* No nvme-subsystem class: the controller's own namespaces. */
  g_assert_cmpuint (nsc_nvme_subsystem_namespaces_at (laptop, "nvme0n1"), ==, 1);
  /* A multipath head in its subsystem folder. */
  g_assert_cmpuint (nsc_nvme_subsystem_namespaces_at (multipath, "nvme0n1"), ==, 1);
}

/* Whether a Format or Sanitize would reach namespaces nobody named. */
static void
test_nvme_erase_scope (void)
{
  /* QEMU 7.2's controller: FNA 0, NN 256, namespace management, one port. */
  NscNvmeEraseScope qemu = { 0, 0, 256, 1, 1, TRUE, 1 };
  NscNvmeEraseScope s;
  GError *error = NULL;

  g_assert_true (nsc_nvme_check_erase_scope (&qemu, "/dev/nvme0n1", "format", &error));
  g_assert_no_error (error);
  g_assert_true (nsc_nvme_check_erase_scope (&qemu, "/dev/nvme0n1", "sanitize", &error));
  g_assert_no_error (error);

  /* Two namespaces; Format per namespace: fine. Sanitize: never. */
  s = qemu;
  s.active = s.allocated = s.in_sysfs = 2;
  g_assert_true (nsc_nvme_check_erase_scope (&s, "/dev/nvme0n1", "format", &error));
  g_assert_no_error (error);
  g_assert_false (nsc_nvme_check_erase_scope (&s, "/dev/nvme0n1", "sanitize", &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "all 2 namespaces"));
  g_clear_error (&error);

  /* A controller that formats every namespace together (FNA bit 0), or erases them
   * all in a format's secure erase (bit 1): refused as soon as there are two, seen
   * by any one count. */
  for (guint bit = 0; bit < 2; bit++)
    for (guint who = 0; who < 3; who++)
      {
        s = qemu;
        s.fna = 1u << bit;
        if (who == 0)
          s.active = 2;
        else if (who == 1)
          s.allocated = 3;
        else
          s.in_sysfs = 2;
        g_assert_false (nsc_nvme_check_erase_scope (&s, "/dev/nvme0n1", "format", &error));
        g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
        g_assert_nonnull (strstr (error->message, "FNA"));
        g_assert_nonnull (strstr (error->message, "erase by trim"));
        g_clear_error (&error);
      }
  s = qemu;
  s.fna = 0x3;
  g_assert_true (nsc_nvme_check_erase_scope (&s, "/dev/nvme0n1", "format", &error));
  g_assert_no_error (error);

  /* One namespace seen, but a multi-port subsystem whose allocated list is unknown:
   * another host's controller may hold more. One that can have one only: fine. */
  s = qemu;
  s.have_allocated = FALSE;
  s.allocated = 0;
  s.cmic = 0x1;
  g_assert_false (nsc_nvme_check_erase_scope (&s, "/dev/nvme0n1", "sanitize", &error));
  g_assert_nonnull (strstr (error->message, "other controllers"));
  g_clear_error (&error);
  s.nn = 1;
  g_assert_true (nsc_nvme_check_erase_scope (&s, "/dev/nvme0n1", "sanitize", &error));
  g_assert_no_error (error);
}

static void
test_pcie_generation (void)
{
  g_assert_cmpuint (nsc_pcie_generation ("2.5 GT/s PCIe"), ==, 1);
  g_assert_cmpuint (nsc_pcie_generation ("5.0 GT/s PCIe"), ==, 2);
  g_assert_cmpuint (nsc_pcie_generation ("8.0 GT/s PCIe"), ==, 3);
  g_assert_cmpuint (nsc_pcie_generation ("16.0 GT/s PCIe"), ==, 4);
  g_assert_cmpuint (nsc_pcie_generation ("32.0 GT/s PCIe"), ==, 5);
  g_assert_cmpuint (nsc_pcie_generation ("Unknown"), ==, 0);
  g_assert_cmpuint (nsc_pcie_generation (NULL), ==, 0);
}

/* On this machine: the disk under "/" is found and known to host it. */
static void
test_live_root (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(NscDeviceInfo) d = nsc_device_info_for_path ("/", 0, &error);

  if (d == NULL)
    {
      /* Containers put / on overlay or tmpfs: no block device to find. */
      g_test_skip (error->message);
      return;
    }
  g_assert_true (d->hosts_root);
  g_assert_cmpuint (d->capacity, >, 0);
  g_assert_false (nsc_device_info_is_free (d));
}

static void
test_temperature_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) error2 = NULL;
  g_autoptr(GError) error3 = NULL;
  double c = -1;

  g_assert_false (nsc_device_read_temperature ("/", &c, &error));
  g_assert_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT);
  g_assert_false (nsc_device_read_temperature ("/dev/null", &c, &error2));
  g_assert_error (error2, NSC_ERROR, NSC_ERROR_UNSUPPORTED);
  g_assert_false (nsc_device_read_temperature ("/nonexistent/dev", &c, &error3));
  g_assert_error (error3, NSC_ERROR, NSC_ERROR_NOT_FOUND);
  g_assert_false (nsc_device_temperature_func ((gpointer) "/dev/null", &c));
  g_assert_cmpfloat (c, ==, -1);
}

/* Which openers get 2 s to go away: udev, what its workers run, and UDisks2; not
 * anything else, however it is named or started. A /proc of stat files only. */
static void
test_opener_prober (void)
{
  static const char *const procs[][2] = {
    { "300", "300 (systemd-udevd) S 1 300 300 0 -1" },
    { "400", "400 ((udev-worker)) S 300 300 300 0 -1" },
    { "500", "500 (blkid) R 400 300 300 0 -1" },
    { "600", "600 (sleep) S 601 601 601 0 -1" },
    { "601", "601 (bash) S 1 601 601 0 -1" },
    { "700", "700 (udisksd) S 1 700 700 0 -1" },
    { "800", "800 (my (odd) prog) S 500 300 300 0 -1" },
    { "810", "810 (udevd-lookalike) S 601 601 601 0 -1" },
    { "900", "900 (dd) D 999 900 900 0 -1" },
    { "950", "950 (a) S 951 950 950 0 -1" },
    { "951", "951 (b) S 950 950 950 0 -1" },
    { "960", "garbage without a name" },
  };
  g_autofree char *root = g_dir_make_tmp ("nsc-proc-XXXXXX", NULL);
  g_autofree char *self = g_strdup_printf ("%d", (int) getpid ());

  g_assert_nonnull (root);
  for (guint i = 0; i < G_N_ELEMENTS (procs); i++)
    {
      g_autofree char *dir = g_build_filename (root, procs[i][0], NULL);
      g_autofree char *stat = g_build_filename (dir, "stat", NULL);

      g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
      g_assert_true (g_file_set_contents (stat, procs[i][1], -1, NULL));
    }
  g_assert_true (nsc_device_opener_is_prober (root, "300"));
  g_assert_true (nsc_device_opener_is_prober (root, "400"));
  g_assert_true (nsc_device_opener_is_prober (root, "500"));   /* a worker's child */
  g_assert_true (nsc_device_opener_is_prober (root, "700"));
  g_assert_true (nsc_device_opener_is_prober (root, "800"));   /* parentheses in its name */
  g_assert_false (nsc_device_opener_is_prober (root, "600"));
  g_assert_false (nsc_device_opener_is_prober (root, "810"));
  g_assert_false (nsc_device_opener_is_prober (root, "900"));  /* its parent is gone */
  g_assert_false (nsc_device_opener_is_prober (root, "950"));  /* a loop ends */
  g_assert_false (nsc_device_opener_is_prober (root, "960"));
  g_assert_false (nsc_device_opener_is_prober (root, "12345"));
  /* This test's own process and its ancestors, on the running system. */
  g_assert_false (nsc_device_opener_is_prober ("/proc", self));

  for (guint i = 0; i < G_N_ELEMENTS (procs); i++)
    {
      g_autofree char *dir = g_build_filename (root, procs[i][0], NULL);
      g_autofree char *stat = g_build_filename (dir, "stat", NULL);

      g_assert_cmpint (g_remove (stat), ==, 0);
      g_assert_cmpint (g_rmdir (dir), ==, 0);
    }
  g_assert_cmpint (g_rmdir (root), ==, 0);
}

/* A model that names a maker whose drives carry its own PCI vendor ID, on a controller
 * that reports another: suspect; makers that ship others' controllers are not judged. */
static void
test_identity (void)
{
  static const struct { const char *model; guint16 vid; const char *maker; guint16 expected; } cases[] = {
    { "Samsung SSD 980 PRO 1TB", 0x144d, NULL, 0 },
    { "Samsung SSD 980 PRO 1TB", 0x1e4b, "Samsung", 0x144d },
    { "  SAMSUNG MZVL21T0HCLR-00B00", 0x126f, "Samsung", 0x144d },
    { "WD_BLACK SN850X 2000GB", 0x15b7, NULL, 0 },
    { "WD_BLACK SN850X 2000GB", 0x126f, "Western Digital", 0x15b7 },
    { "WDC WDS500G2B0C-00PXH0", 0x15b7, NULL, 0 },
    { "SanDisk Extreme Pro 1TB", 0x1987, "Western Digital", 0x15b7 },
    { "INTEL SSDPEKNW010T8", 0x8086, NULL, 0 },
    { "INTEL SSDPEKNW010T8", 0x1987, "Intel", 0x8086 },
    { "SK hynix BC711 HFM512GD3JX013N", 0x1c5c, NULL, 0 },
    { "KIOXIA-EXCERIA SSD", 0x1e0f, NULL, 0 },
    { "TOSHIBA KBG40ZNS256G", 0x1179, NULL, 0 },
    { "KIOXIA-EXCERIA SSD", 0x1cc1, "Kioxia", 0x1e0f },
    { "SOLIDIGM SSDPFKKW010X7", 0x025e, NULL, 0 },
    /* Not judged: makers that ship other controllers' IDs, emulators, no brand. */
    { "KINGSTON SNV2S1000G", 0x2646, NULL, 0 },
    { "CT1000P3SSD8", 0x1987, NULL, 0 },
    { "QEMU NVMe Ctrl", 0x1b36, NULL, 0 },
    { "Fanxiang S500Pro 1TB", 0x1e4b, NULL, 0 },
    /* A maker's name inside another word is not the maker; no ID, no judgement. */
    { "XSAMSUNGX 1TB", 0x1e4b, NULL, 0 },
    { "Samsung SSD 970 EVO", 0, NULL, 0 },
  };
  NscDeviceInfo info = { 0 };
  NscNvmeInfo nvme = { 0 };
  g_autoptr(NscWarning) w = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint16 expected = 0;
      const char *maker = nsc_nvme_identity_mismatch (cases[i].model, cases[i].vid, &expected);

      g_assert_cmpstr (maker, ==, cases[i].maker);
      if (maker)
        g_assert_cmpuint (expected, ==, cases[i].expected);
    }

  /* The warning a run's result gets, and none without Identify Controller. */
  info.nvme = &nvme;
  nvme.model = (char *) "Samsung SSD 990 PRO 2TB";
  nvme.vendor_id = 0x1e4b;
  g_assert_null (nsc_device_info_identity_warning (&info));
  nvme.have_identify = TRUE;
  w = nsc_device_info_identity_warning (&info);
  g_assert_nonnull (w);
  g_assert_cmpint (w->kind, ==, NSC_WARNING_IDENTITY_SUSPECT);
  g_assert_cmpstr (w->subject, ==, "Samsung");
  g_assert_cmpint (w->vendor_id, ==, 0x1e4b);
  g_assert_cmpint (w->expected_vendor_id, ==, 0x144d);
  g_assert_nonnull (strstr (w->message, "PCI vendor ID 0x1e4b, not Samsung's (0x144d)"));
  nvme.vendor_id = 0x144d;
  g_assert_null (nsc_device_info_identity_warning (&info));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/device/laptop/list", test_laptop_list);
  g_test_add_func ("/nsc/device/laptop/nvme", test_laptop_nvme);
  g_test_add_func ("/nsc/device/laptop/sata-usb", test_laptop_sata_usb);
  g_test_add_func ("/nsc/device/laptop/virtual", test_laptop_virtual);
  g_test_add_func ("/nsc/device/lvm-root", test_lvm_root);
  g_test_add_func ("/nsc/device/new-drive", test_new_drive);
  g_test_add_func ("/nsc/device/multipath", test_multipath);
  g_test_add_func ("/nsc/device/missing", test_missing);
  g_test_add_func ("/nsc/device/json", test_json);
  g_test_add_func ("/nsc/device/nvme-json", test_nvme_json);
  g_test_add_func ("/nsc/device/pcie-generation", test_pcie_generation);
  g_test_add_func ("/nsc/device/in-use/claimed", test_inuse_claimed);
  g_test_add_func ("/nsc/device/in-use/unclaimed", test_inuse_unclaimed);
  g_test_add_func ("/nsc/device/nvme-namespaces", test_nvme_namespaces);
  g_test_add_func ("/nsc/device/nvme-erase-scope", test_nvme_erase_scope);
  g_test_add_func ("/nsc/device/live-root", test_live_root);
  g_test_add_func ("/nsc/device/opener-prober", test_opener_prober);
  g_test_add_func ("/nsc/device/temperature-errors", test_temperature_errors);
  g_test_add_func ("/nsc/device/identity", test_identity);
  return g_test_run ();
}

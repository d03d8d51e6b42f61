/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The test bench description on a hand-made sysfs and procfs: a file on dm-crypt on
 * LVM on a partition, on a USB drive behind uas. */
#include "config.h"

#include <glib/gstdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "nsc-bench.h"
#include "test-util.h"

static void
put (const char *root,
     const char *rel,
     const char *text)
{
  g_autofree char *path = g_build_filename (root, rel, NULL);
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static void
put2 (const char *root,
      const char *dir,
      const char *rel,
      const char *text)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  put (root, path, text);
}

static void
test_bench (void)
{
  g_autofree char *root = g_dir_make_tmp ("nsc-bench-XXXXXX", NULL);
  g_autofree char *sys = g_build_filename (root, "sys", NULL);
  g_autofree char *proc = g_build_filename (root, "proc", NULL);
  g_autofree char *data = g_build_filename (root, "data", NULL);
  g_autofree char *crypt = NULL, *mountinfo = NULL, *usbdev = NULL, *link = NULL;
  g_autoptr(JsonNode) bench = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  JsonObject *o, *fs;
  JsonArray *stack;
  NscDeviceInfo dev = { 0 };
  struct stat st;

  g_assert_cmpint (g_mkdir_with_parents (data, 0755), ==, 0);
  g_assert_cmpint (stat (data, &st), ==, 0);

  put (proc, "cpuinfo", "processor\t: 0\nmodel name\t: Test CPU 9000 @ 4.00GHz\nflags\t\t: fpu\n");
  put (sys, "devices/system/cpu/vulnerabilities/spectre_v2", "Mitigation: Retpolines\n");
  put (sys, "devices/system/cpu/vulnerabilities/meltdown", "Not affected\n");
  put (sys, "block/sdb/queue/scheduler", "none [mq-deadline] kyber bfq\n");
  put (sys, "block/sdb/queue/write_cache", "write through\n");

  /* The filesystem under the test folder is dm-crypt (253:1) on LVM (253:0) on sdb1. */
  crypt = g_strdup_printf ("dev/block/%u:%u", major (st.st_dev), minor (st.st_dev));
  put2 (sys, crypt, "dm/uuid", "CRYPT-LUKS2-abcdef-luks\n");
  put2 (sys, crypt, "slaves/dm-0/dev", "253:0\n");
  put (sys, "dev/block/253:0/dm/uuid", "LVM-abcdefabcdef\n");
  put (sys, "dev/block/253:0/slaves/sdb1/dev", "8:17\n");
  mountinfo = g_strdup_printf ("30 1 %u:%u / %s rw,noatime shared:1 - ext4 /dev/mapper/home rw,discard\n",
                               major (st.st_dev), minor (st.st_dev), data);

  /* sdb sits on a USB mass-storage interface bound to uas. */
  usbdev = g_build_filename (sys, "devices/pci0000:00/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0", NULL);
  g_assert_cmpint (g_mkdir_with_parents (usbdev, 0755), ==, 0);
  put (sys, "bus/usb/drivers/uas/.keep", "");
  link = g_build_filename (sys, "devices/pci0000:00/usb2/2-1/2-1:1.0/driver", NULL);
  g_assert_cmpint (symlink ("../../../../bus/usb/drivers/uas", link), ==, 0);

  dev.name = (char *) "sdb";
  dev.transport = (char *) "usb";
  dev.sysfs_path = usbdev;

  bench = nsc_bench_describe_at (sys, proc, mountinfo, data, &dev);
  o = json_node_get_object (bench);
  g_assert_cmpstr (json_object_get_string_member (o, "cpu"), ==, "Test CPU 9000 @ 4.00GHz");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (o, "mitigations"),
                                                  "spectre_v2"), ==, "Mitigation: Retpolines");
  g_assert_cmpstr (json_object_get_string_member (o, "io_scheduler"), ==, "mq-deadline");
  g_assert_cmpstr (json_object_get_string_member (o, "write_cache"), ==, "write through");
  g_assert_cmpstr (json_object_get_string_member (o, "usb_transport"), ==, "UAS");
  fs = json_object_get_object_member (o, "filesystem");
  g_assert_cmpstr (json_object_get_string_member (fs, "type"), ==, "ext4");
  g_assert_cmpstr (json_object_get_string_member (fs, "mount_options"), ==, "rw,noatime");
  g_assert_cmpstr (json_object_get_string_member (fs, "super_options"), ==, "rw,discard");
  stack = json_object_get_array_member (o, "stack");
  g_assert_cmpuint (json_array_get_length (stack), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (stack, 0), "kind"), ==, "dm-crypt");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (stack, 1), "kind"), ==, "lvm");

  warnings = nsc_bench_warnings (bench);
  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_cmpint (((NscWarning *) warnings->pdata[0])->kind, ==, NSC_WARNING_ENCRYPTION_MEASURED);
  g_assert_cmpstr (((NscWarning *) warnings->pdata[0])->code, ==, "encryption-measured");
  g_assert_cmpint (((NscWarning *) warnings->pdata[1])->kind, ==, NSC_WARNING_WRITE_CACHE_OFF);

  /* BOT when the interface is bound to usb-storage. */
  g_assert_cmpint (g_unlink (link), ==, 0);
  g_assert_cmpint (symlink ("../../../../bus/usb/drivers/usb-storage", link), ==, 0);
  g_clear_pointer (&bench, json_node_unref);
  bench = nsc_bench_describe_at (sys, proc, mountinfo, data, &dev);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (bench), "usb_transport"), ==, "BOT");

  nsc_test_rm_rf (root);
}

/* What may hold writes in memory under a target, on hand-made sysfs trees: the
 * target folder's device is, in turn, each of the shapes below. */
static void
test_system_cache (void)
{
  static const struct
  {
    const char    *what;
    const char    *device;     /* under sys/devices, what dev/block/M:m of the folder is */
    const char    *files[8];   /* path under sys/devices, contents; pairs */
    NscSystemCache certainty;
    const char    *kind, *name, *detail;
  } cases[] = {
    { "a loop device over a file", "virtual/block/loop0",
      { "virtual/block/loop0/loop/backing_file", "/var/tmp/disk.img\n",
        "virtual/block/loop0/loop/dio", "0\n" },
      NSC_SYSTEM_CACHE_MEMORY, "loop", "loop0", "/var/tmp/disk.img" },
    { "a loop device with direct I/O", "virtual/block/loop0",
      { "virtual/block/loop0/loop/backing_file", "/var/tmp/disk.img\n",
        "virtual/block/loop0/loop/dio", "1\n" },
      NSC_SYSTEM_CACHE_NONE, NULL, NULL, NULL },
    { "a partition of a loop device", "virtual/block/loop0/loop0p1",
      { "virtual/block/loop0/loop/backing_file", "/var/tmp/disk.img\n",
        "virtual/block/loop0/loop0p1/partition", "1\n" },
      NSC_SYSTEM_CACHE_MEMORY, "loop", "loop0", "/var/tmp/disk.img" },
    { "device-mapper over a loop device", "virtual/block/dm-0",
      { "virtual/block/dm-0/slaves/loop1/dev", "7:1\n",
        "virtual/block/loop1/loop/backing_file", "/srv/pool.img\n" },
      NSC_SYSTEM_CACHE_MEMORY, "loop", "loop1", "/srv/pool.img" },
    { "a virtio disk", "pci0000:00/virtio1/block/vda", { "pci0000:00/virtio1/block/vda/size", "8\n" },
      NSC_SYSTEM_CACHE_POSSIBLE, "virtio", "vda", NULL },
    { "nbd", "virtual/block/nbd0", { "virtual/block/nbd0/size", "8\n" },
      NSC_SYSTEM_CACHE_POSSIBLE, "nbd", "nbd0", NULL },
    { "QEMU's NVMe", "pci0000:00/nvme/nvme0/nvme0n1",
      { "pci0000:00/nvme/nvme0/nvme0n1/device/model", "QEMU NVMe Ctrl                          \n" },
      NSC_SYSTEM_CACHE_POSSIBLE, "emulated", "nvme0n1", "QEMU NVMe Ctrl" },
    { "zram", "virtual/block/zram0", { "virtual/block/zram0/comp_algorithm", "[lzo-rle] zstd\n" },
      NSC_SYSTEM_CACHE_MEMORY, "ram-disk", "zram0", NULL },
    { "a real SATA drive", "pci0000:00/ata1/sda",
      { "pci0000:00/ata1/sda/device/model", "Samsung SSD 870 EVO 1TB\n" },
      NSC_SYSTEM_CACHE_NONE, NULL, NULL, NULL },
  };
  struct stat st;

  g_assert_cmpint (stat (g_get_tmp_dir (), &st), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *root = g_dir_make_tmp ("nsc-bench-XXXXXX", NULL);
      g_autofree char *sys = g_build_filename (root, "sys", NULL);
      g_autofree char *devdir = g_build_filename (sys, "devices", cases[i].device, NULL);
      g_autofree char *blockdir = g_build_filename (sys, "dev/block", NULL);
      g_autofree char *link = g_strdup_printf ("%s/%u:%u", blockdir, major (st.st_dev), minor (st.st_dev));
      g_autofree char *loop1 = g_build_filename (blockdir, "7:1", NULL);
      g_autofree char *loop1dir = g_build_filename (sys, "devices/virtual/block/loop1", NULL);
      g_autofree char *phrase = NULL;
      NscSystemCacheInfo info = { 0 };

      g_assert_cmpint (g_mkdir_with_parents (devdir, 0755), ==, 0);
      g_assert_cmpint (g_mkdir_with_parents (blockdir, 0755), ==, 0);
      for (guint k = 0; k + 1 < G_N_ELEMENTS (cases[i].files) && cases[i].files[k]; k += 2)
        {
          g_autofree char *rel = g_build_filename ("devices", cases[i].files[k], NULL);
          put (sys, rel, cases[i].files[k + 1]);
        }
      g_assert_cmpint (symlink (devdir, link), ==, 0);
      if (g_file_test (loop1dir, G_FILE_TEST_IS_DIR))
        g_assert_cmpint (symlink (loop1dir, loop1), ==, 0);

      g_assert_cmpint (nsc_bench_system_cache_at (sys, g_get_tmp_dir (), &info), ==, cases[i].certainty);
      phrase = info.certainty ? nsc_system_cache_phrase (&info) : NULL;
      g_test_message ("%s: %s", cases[i].what, phrase ? phrase : "nothing");
      g_assert_cmpstr (info.kind, ==, cases[i].kind);
      g_assert_cmpstr (info.device, ==, cases[i].name);
      g_assert_cmpstr (info.detail, ==, cases[i].detail);
      nsc_system_cache_info_clear (&info);
      nsc_test_rm_rf (root);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsc/bench/describe", test_bench);
  g_test_add_func ("/nsc/bench/system-cache", test_system_cache);
  return g_test_run ();
}

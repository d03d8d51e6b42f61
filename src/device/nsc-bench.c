/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include <glib/gi18n-lib.h>

#include "nsc-bench.h"
#include "nsc-mountinfo.h"

static char *
read_trimmed (const char *root,
              const char *path)
{
  g_autofree char *full = g_build_filename (root, path, NULL);
  char *text = NULL;

  if (!g_file_get_contents (full, &text, NULL, NULL))
    return NULL;
  return g_strstrip (text);
}

static char *
cpu_model (const char *proc_root)
{
  g_autofree char *text = read_trimmed (proc_root, "cpuinfo");
  g_auto(GStrv) lines = NULL;

  if (text == NULL)
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      char *colon = strchr (lines[i], ':');
      if (colon && g_str_has_prefix (lines[i], "model name"))
        return g_strstrip (g_strdup (colon + 1));
    }
  return NULL;
}

/* The scheduler in use is the one in brackets: "none [mq-deadline] kyber". */
static char *
active_scheduler (const char *text)
{
  const char *open = text ? strchr (text, '[') : NULL;
  const char *close = open ? strchr (open, ']') : NULL;

  return close ? g_strndup (open + 1, close - open - 1) : g_strdup (text);
}

/* The block devices a dm/md device is built on, and what kind of stack it is. */
static void
describe_stack (JsonBuilder *b,
                const char  *sysfs_root,
                guint        maj,
                guint        min)
{
  g_autofree char *dir = g_strdup_printf ("%s/dev/block/%u:%u", sysfs_root, maj, min);
  g_autofree char *uuid = NULL;
  g_autofree char *md = NULL;
  g_autofree char *slaves_dir = g_build_filename (dir, "slaves", NULL);
  g_autoptr(GDir) slaves = g_dir_open (slaves_dir, 0, NULL);
  const char *kind = NULL;
  const char *name;

  uuid = read_trimmed (dir, "dm/uuid");
  md = read_trimmed (dir, "md/level");
  if (uuid && g_str_has_prefix (uuid, "CRYPT-"))
    kind = "dm-crypt";
  else if (uuid && g_str_has_prefix (uuid, "LVM-"))
    kind = "lvm";
  else if (uuid)
    kind = "device-mapper";
  else if (md)
    kind = "md-raid";
  if (kind == NULL)
    return;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, kind);
  if (md)
    {
      json_builder_set_member_name (b, "level");
      json_builder_add_string_value (b, md);
    }
  json_builder_set_member_name (b, "on");
  json_builder_begin_array (b);
  while (slaves && (name = g_dir_read_name (slaves)))
    json_builder_add_string_value (b, name);
  json_builder_end_array (b);
  json_builder_end_object (b);

  /* One level down as well: dm-crypt on LVM on md. */
  if (slaves)
    {
      g_dir_rewind (slaves);
      while ((name = g_dir_read_name (slaves)))
        {
          g_autofree char *devf = g_strdup_printf ("%s/%s/dev", slaves_dir, name);
          g_autofree char *devs = NULL;
          guint a, c;

          if (g_file_get_contents (devf, &devs, NULL, NULL) && sscanf (devs, "%u:%u", &a, &c) == 2)
            describe_stack (b, sysfs_root, a, c);
        }
    }
}

/* Models that virtual machines give their emulated disks. */
static gboolean
emulated_model (const char *model)
{
  static const char *const prefixes[] = { "QEMU", "VBOX", "VMware", "Virtual Disk", "Virtual HD",
                                          "Msft Virtual", NULL };

  for (guint i = 0; model && prefixes[i]; i++)
    if (g_str_has_prefix (model, prefixes[i]))
      return TRUE;
  return FALSE;
}

/* What in the stack under block device @maj:@min may keep writes in memory before
 * the drive: a loop device over a file without direct I/O (this machine's page
 * cache, certain), or a virtual or network disk (its host's or server's, possible).
 * The most certain one wins. */
static void
system_cache_under (const char         *sysfs_root,
                    guint               maj,
                    guint               min,
                    guint               depth,
                    NscSystemCacheInfo *out)
{
  g_autofree char *link = g_strdup_printf ("%s/dev/block/%u:%u", sysfs_root, maj, min);
  g_autofree char *dir = realpath (link, NULL);
  g_autofree char *name = NULL;
  g_autofree char *backing = NULL;
  g_autofree char *model = NULL;
  g_autofree char *slaves_dir = NULL;
  g_autoptr(GDir) slaves = NULL;
  const char *kind = NULL, *slave;

  if (dir == NULL || depth > 8 || out->certainty == NSC_SYSTEM_CACHE_MEMORY)
    return;
  /* A partition: what matters is the disk it is part of. */
  {
    g_autofree char *part = g_build_filename (dir, "partition", NULL);

    if (g_file_test (part, G_FILE_TEST_EXISTS))
      {
        char *parent = g_path_get_dirname (dir);

        g_free (dir);
        dir = parent;
      }
  }
  name = g_path_get_basename (dir);
  /* A disk in memory (zram, brd): there is no drive behind it at all. */
  if (g_str_has_prefix (name, "zram") || (g_str_has_prefix (name, "ram") && g_ascii_isdigit (name[3])))
    {
      nsc_system_cache_info_clear (out);
      out->certainty = NSC_SYSTEM_CACHE_MEMORY;
      out->kind = g_strdup ("ram-disk");
      out->device = g_strdup (name);
      return;
    }
  backing = read_trimmed (dir, "loop/backing_file");
  if (backing != NULL)
    {
      g_autofree char *dio = read_trimmed (dir, "loop/dio");

      if (g_strcmp0 (dio, "1") != 0)
        {
          nsc_system_cache_info_clear (out);
          out->certainty = NSC_SYSTEM_CACHE_MEMORY;
          out->kind = g_strdup ("loop");
          out->device = g_strdup (name);
          out->detail = g_steal_pointer (&backing);
          return;
        }
    }
  model = read_trimmed (dir, "device/model");
  if (g_str_has_prefix (name, "nbd"))
    kind = "nbd";
  else if (g_str_has_prefix (name, "vd"))
    kind = "virtio";
  else if (g_str_has_prefix (name, "xvd"))
    kind = "xen";
  else if (emulated_model (model))
    kind = "emulated";
  if (kind != NULL && out->certainty == NSC_SYSTEM_CACHE_NONE)
    {
      out->certainty = NSC_SYSTEM_CACHE_POSSIBLE;
      out->kind = g_strdup (kind);
      out->device = g_strdup (name);
      out->detail = g_str_equal (kind, "emulated") ? g_steal_pointer (&model) : NULL;
    }
  if (kind != NULL)
    return;

  /* Device-mapper and RAID: what they are built on. */
  slaves_dir = g_build_filename (dir, "slaves", NULL);
  slaves = g_dir_open (slaves_dir, 0, NULL);
  while (slaves && (slave = g_dir_read_name (slaves)))
    {
      g_autofree char *devf = g_strdup_printf ("%s/%s/dev", slaves_dir, slave);
      g_autofree char *devs = NULL;
      guint a, c;

      if (g_file_get_contents (devf, &devs, NULL, NULL) && sscanf (devs, "%u:%u", &a, &c) == 2)
        system_cache_under (sysfs_root, a, c, depth + 1, out);
    }
}

NscSystemCache
nsc_bench_system_cache_at (const char         *sysfs_root,
                           const char         *target,
                           NscSystemCacheInfo *out)
{
  struct stat st;
  dev_t dev;

  g_return_val_if_fail (out != NULL, NSC_SYSTEM_CACHE_NONE);

  nsc_system_cache_info_clear (out);
  if (target == NULL || stat (target, &st) != 0)
    return NSC_SYSTEM_CACHE_NONE;
  dev = S_ISBLK (st.st_mode) ? st.st_rdev : st.st_dev;
  system_cache_under (sysfs_root, major (dev), minor (dev), 0, out);
  return out->certainty;
}

NscSystemCache
nsc_bench_system_cache (const char         *target,
                        NscSystemCacheInfo *out)
{
  return nsc_bench_system_cache_at ("/sys", target, out);
}

static void
add_string (JsonBuilder *b,
            const char  *name,
            const char  *value)
{
  if (value == NULL)
    return;
  json_builder_set_member_name (b, name);
  json_builder_add_string_value (b, value);
}

JsonNode *
nsc_bench_describe_at (const char          *sysfs_root,
                       const char          *proc_root,
                       const char          *mountinfo,
                       const char          *target,
                       const NscDeviceInfo *device)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autofree char *cpu = cpu_model (proc_root);
  g_autofree char *vuln_dir = g_build_filename (sysfs_root, "devices/system/cpu/vulnerabilities", NULL);
  g_autoptr(GDir) vulns = g_dir_open (vuln_dir, 0, NULL);
  struct utsname uts;
  struct stat st;
  const char *name;

  json_builder_begin_object (b);
  add_string (b, "cpu", cpu);
  if (uname (&uts) == 0)
    add_string (b, "kernel", uts.release);

  if (vulns)
    {
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

      while ((name = g_dir_read_name (vulns)))
        g_ptr_array_add (names, g_strdup (name));
      g_ptr_array_sort (names, (GCompareFunc) (void (*) (void)) g_strcmp0);
      json_builder_set_member_name (b, "mitigations");
      json_builder_begin_object (b);
      for (guint i = 0; i < names->len; i++)
        {
          g_autofree char *rel = g_build_filename ("devices/system/cpu/vulnerabilities",
                                                   (char *) g_ptr_array_index (names, i), NULL);
          g_autofree char *text = read_trimmed (sysfs_root, rel);
          if (text)
            {
              json_builder_set_member_name (b, g_ptr_array_index (names, i));
              json_builder_add_string_value (b, text);
            }
        }
      json_builder_end_object (b);
    }

  if (device)
    {
      g_autofree char *q = g_strdup_printf ("block/%s/queue", device->name);
      g_autofree char *sched_path = g_build_filename (q, "scheduler", NULL);
      g_autofree char *wc_path = g_build_filename (q, "write_cache", NULL);
      g_autofree char *sched_text = read_trimmed (sysfs_root, sched_path);
      g_autofree char *sched = active_scheduler (sched_text);
      g_autofree char *wc = read_trimmed (sysfs_root, wc_path);

      add_string (b, "transport", device->transport);
      add_string (b, "io_scheduler", sched);
      add_string (b, "write_cache", wc);
      if (g_strcmp0 (device->transport, "nvme") == 0)
        {
          g_autofree char *apst = read_trimmed (sysfs_root,
                                                "module/nvme_core/parameters/default_ps_max_latency_us");
          if (apst)
            {
              json_builder_set_member_name (b, "nvme_apst_max_latency_us");
              json_builder_add_int_value (b, g_ascii_strtoll (apst, NULL, 10));
            }
        }
      if (g_strcmp0 (device->transport, "usb") == 0 && device->sysfs_path)
        {
          /* The driver of the USB interface: uas, or usb-storage (Bulk-Only). */
          g_autofree char *path = g_strdup (device->sysfs_path);
          for (guint up = 0; up < 12 && path && strlen (path) > 1; up++)
            {
              g_autofree char *drv = g_build_filename (path, "driver", NULL);
              g_autofree char *link = g_file_read_link (drv, NULL);
              char *parent;

              if (link)
                {
                  g_autofree char *base = g_path_get_basename (link);
                  if (g_str_equal (base, "uas") || g_str_equal (base, "usb-storage"))
                    {
                      add_string (b, "usb_transport", g_str_equal (base, "uas") ? "UAS" : "BOT");
                      break;
                    }
                }
              parent = g_path_get_dirname (path);
              g_free (path);
              path = parent;
            }
        }
    }

  /* A file target: its filesystem, how it is mounted, and what lies beneath. */
  if (target && stat (target, &st) == 0 && !S_ISBLK (st.st_mode) && mountinfo)
    {
      g_autoptr(GPtrArray) mounts = nsc_mountinfo_parse (mountinfo);
      const NscMountEntry *m = nsc_mountinfo_find (mounts, major (st.st_dev), minor (st.st_dev));

      if (m != NULL && m->fstype != NULL)
        {
          json_builder_set_member_name (b, "filesystem");
          json_builder_begin_object (b);
          add_string (b, "type", m->fstype);
          add_string (b, "source", m->source);
          add_string (b, "mountpoint", m->mountpoint);
          add_string (b, "mount_options", m->mount_options);
          if (m->super_options)
            add_string (b, "super_options", m->super_options);
          json_builder_end_object (b);
        }

      json_builder_set_member_name (b, "stack");
      json_builder_begin_array (b);
      describe_stack (b, sysfs_root, major (st.st_dev), minor (st.st_dev));
      json_builder_end_array (b);
    }

  json_builder_end_object (b);
  return json_builder_get_root (b);
}

JsonNode *
nsc_bench_describe (const char          *target,
                    const NscDeviceInfo *device)
{
  g_autofree char *mountinfo = NULL;

  g_file_get_contents ("/proc/self/mountinfo", &mountinfo, NULL, NULL);
  return nsc_bench_describe_at ("/sys", "/proc", mountinfo, target, device);
}

static void
add_warning (GPtrArray      *out,
             NscWarningKind  kind,
             const char     *message)
{
  NscWarning *w = nsc_warning_new (kind, -1);

  nsc_warning_set_message (w, "%s", message);
  g_ptr_array_add (out, w);
}

GPtrArray *
nsc_bench_warnings (JsonNode *bench)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) nsc_warning_free);
  JsonObject *o;

  if (bench && JSON_NODE_HOLDS_OBJECT (bench))
    {
      o = json_node_get_object (bench);
      if (json_object_has_member (o, "stack"))
        {
          JsonArray *stack = json_object_get_array_member (o, "stack");
          for (guint i = 0; i < json_array_get_length (stack); i++)
            {
              const char *kind = json_object_get_string_member (json_array_get_object_element (stack, i), "kind");
              if (g_strcmp0 (kind, "dm-crypt") == 0)
                {
                  add_warning (out, NSC_WARNING_ENCRYPTION_MEASURED,
                               "The test file lies on dm-crypt: the results include the "
                               "work of encrypting, which the drive alone does not do");
                }
              else if (g_strcmp0 (kind, "md-raid") == 0)
                {
                  add_warning (out, NSC_WARNING_RAID_MEASURED,
                               "The test file lies on software RAID: the results are "
                               "the array's, not one drive's");
                }
            }
        }
      /* RAM and file-backed devices (zram, loop) have no write cache to speak of. */
      if (g_strcmp0 (json_object_get_string_member_with_default (o, "write_cache", NULL),
                     "write through") == 0
          && !g_strv_contains ((const char * const []) { "zram", "loop", "dm", "md", NULL },
                               json_object_get_string_member_with_default (o, "transport", "")))
        {
          add_warning (out, NSC_WARNING_WRITE_CACHE_OFF,
                       "The drive's write cache is off (write through): writes are "
                       "slower than with the usual settings");
        }
    }
  return out;
}

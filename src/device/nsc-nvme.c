/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libnvme.h>

#include "nsc-error.h"
#include "nsc-device-private.h"
#include "nsc-nvme.h"

void
nsc_nvme_info_free (NscNvmeInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->controller);
  g_free (info->model);
  g_free (info->serial);
  g_free (info->firmware);
  g_clear_pointer (&info->lba_formats, g_array_unref);
  g_clear_pointer (&info->unavailable, g_ptr_array_unref);
  g_free (info);
}

/* Identify strings are space-padded, not NUL-terminated. */
static char *
fixed_string (const char *field,
              gsize       len)
{
  char *s = g_strndup (field, len);
  return g_strstrip (s);
}

/* SMART counters are 128-bit little-endian; no drive gets near 2^64 units, so the
 * low half is kept and anything larger saturates rather than wraps. */
static guint64
le128 (const __u8 v[16])
{
  guint64 lo = 0;

  for (int i = 7; i >= 0; i--)
    lo = (lo << 8) | v[i];
  for (int i = 8; i < 16; i++)
    if (v[i])
      return G_MAXUINT64;
  return lo;
}

/* libnvme returns -1 with errno, or a positive NVMe status. */
static char *
describe_failure (int ret,
                  int errsv)
{
  if (ret < 0)
    return g_strdup ((errsv == EACCES || errsv == EPERM) ? _("needs root") : g_strerror (errsv));
  /* Translators: %s is the NVMe status, in English from libnvme */
  return g_strdup_printf (_("the controller answered: %s"), nvme_status_to_string (ret, false));
}

static int
open_node (const char  *path,
           GError     **error)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    {
      int errsv = errno;
      if (errsv == EACCES || errsv == EPERM)
        g_set_error (error, NSC_ERROR, NSC_ERROR_PERMISSION,
                     _("Reading %s needs root (NVMe admin commands); run as root, or "
                       "use the hwmon temperature and sysfs facts"), path);
      else
        nsc_set_error_from_errno (error, errsv, _("Cannot open %s"), path);
    }
  return fd;
}

NscNvmeInfo *
nsc_nvme_query (const char  *controller,
                guint32      nsid,
                GError     **error)
{
  g_autoptr(NscNvmeInfo) info = NULL;
  g_autofree char *path = NULL;
  g_autofree struct nvme_id_ctrl *id = NULL;
  g_autofree struct nvme_id_ns *ns = NULL;
  g_autofree struct nvme_smart_log *smart = NULL;
  int fd, ret;

  g_return_val_if_fail (controller != NULL, NULL);
  path = g_strdup_printf ("/dev/%s", controller);
  fd = open_node (path, error);
  if (fd < 0)
    return NULL;

  info = g_new0 (NscNvmeInfo, 1);
  info->controller = g_strdup (controller);
  info->lba_formats = g_array_new (FALSE, TRUE, sizeof (NscNvmeLbaFormat));
  info->unavailable = g_ptr_array_new_with_free_func (g_free);

  id = g_malloc0 (sizeof *id);
  ret = nvme_identify_ctrl (fd, id);
  if (ret == 0)
    {
      info->have_identify = TRUE;
      info->model = fixed_string (id->mn, sizeof id->mn);
      info->serial = fixed_string (id->sn, sizeof id->sn);
      info->firmware = fixed_string (id->fr, sizeof id->fr);
      info->vendor_id = le16toh (id->vid);
      info->mdts = id->mdts;
      info->wctemp_k = le16toh (id->wctemp);
      info->cctemp_k = le16toh (id->cctemp);
      info->mntmt_k = le16toh (id->mntmt);
      info->mxtmt_k = le16toh (id->mxtmt);
      info->oncs = le16toh (id->oncs);
      info->sanicap = le32toh (id->sanicap);
      info->fna = id->fna;
    }
  else
    {
      g_autofree char *why = describe_failure (ret, errno);
      g_ptr_array_add (info->unavailable, g_strdup_printf ("identify: %s", why));
    }

  if (nsid)
    {
      ns = g_malloc0 (sizeof *ns);
      ret = nvme_identify_ns (fd, nsid, ns);
      if (ret == 0)
        {
          __u8 inuse = 0;
          guint n = MIN ((guint) ns->nlbaf + 1, G_N_ELEMENTS (ns->lbaf));

          info->have_namespace = TRUE;
          info->nsid = nsid;
          info->nsze = le64toh (ns->nsze);
          info->ncap = le64toh (ns->ncap);
          info->nuse = le64toh (ns->nuse);
          nvme_id_ns_flbas_to_lbaf_inuse (ns->flbas, &inuse);
          info->current_lba_format = inuse;
          for (guint i = 0; i < n; i++)
            {
              NscNvmeLbaFormat f = { 0 };
              /* LBADS is a power of two; 0 marks an unused slot. */
              f.data_size = ns->lbaf[i].ds ? 1u << MIN (ns->lbaf[i].ds, 31) : 0;
              f.metadata_size = le16toh (ns->lbaf[i].ms);
              f.relative_performance = ns->lbaf[i].rp & 0x3;
              g_array_append_val (info->lba_formats, f);
            }
          if (inuse < info->lba_formats->len)
            info->lba_size = g_array_index (info->lba_formats, NscNvmeLbaFormat, inuse).data_size;
        }
      else
        {
          g_autofree char *why = describe_failure (ret, errno);
          g_ptr_array_add (info->unavailable, g_strdup_printf ("namespace: %s", why));
        }
    }

  smart = g_malloc0 (sizeof *smart);
  ret = nvme_get_log_smart (fd, NVME_NSID_ALL, false, smart);
  if (ret == 0)
    {
      info->have_smart = TRUE;
      info->critical_warning = smart->critical_warning;
      info->composite_temp_k = smart->temperature[0] | (smart->temperature[1] << 8);
      for (guint i = 0; i < 8; i++)
        info->sensor_temp_k[i] = le16toh (smart->temp_sensor[i]);
      info->available_spare = smart->avail_spare;
      info->spare_threshold = smart->spare_thresh;
      info->percent_used = smart->percent_used;
      info->data_units_read = le128 (smart->data_units_read);
      info->data_units_written = le128 (smart->data_units_written);
      info->host_read_commands = le128 (smart->host_reads);
      info->host_write_commands = le128 (smart->host_writes);
      info->power_cycles = le128 (smart->power_cycles);
      info->power_on_hours = le128 (smart->power_on_hours);
      info->unsafe_shutdowns = le128 (smart->unsafe_shutdowns);
      info->media_errors = le128 (smart->media_errors);
      info->warning_temp_minutes = le32toh (smart->warning_temp_time);
      info->critical_temp_minutes = le32toh (smart->critical_comp_time);
      info->thermal_transitions[0] = le32toh (smart->thm_temp1_trans_count);
      info->thermal_transitions[1] = le32toh (smart->thm_temp2_trans_count);
      info->thermal_seconds[0] = le32toh (smart->thm_temp1_total_time);
      info->thermal_seconds[1] = le32toh (smart->thm_temp2_total_time);
    }
  else
    {
      g_autofree char *why = describe_failure (ret, errno);
      g_ptr_array_add (info->unavailable, g_strdup_printf ("smart: %s", why));
    }

  close (fd);
  return g_steal_pointer (&info);
}

gboolean
nsc_nvme_read_temperature (const char  *fd_path,
                           double      *celsius,
                           GError     **error)
{
  struct nvme_smart_log smart;
  int fd, ret, errsv;

  g_return_val_if_fail (fd_path != NULL && celsius != NULL, FALSE);
  fd = open_node (fd_path, error);
  if (fd < 0)
    return FALSE;
  memset (&smart, 0, sizeof smart);
  ret = nvme_get_log_smart (fd, NVME_NSID_ALL, false, &smart);
  errsv = errno;
  close (fd);
  if (ret != 0)
    {
      g_autofree char *why = describe_failure (ret, errsv);
      g_set_error (error, NSC_ERROR, ret < 0 && (errsv == EACCES || errsv == EPERM)
                   ? NSC_ERROR_PERMISSION : NSC_ERROR_IO,
                   _("Cannot read the SMART log of %s: %s"), fd_path, why);
      return FALSE;
    }
  *celsius = (smart.temperature[0] | (smart.temperature[1] << 8)) - 273.15;
  return TRUE;
}

GStrv
nsc_nvme_critical_warning_names (guint8 bits)
{
  static const char *names[] = {
    "spare-below-threshold", "temperature", "reliability-degraded",
    "read-only", "volatile-backup-failed", "pmr-read-only",
  };
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

  for (guint i = 0; i < 8; i++)
    if (bits & (1u << i))
      g_strv_builder_add (b, i < G_N_ELEMENTS (names) ? names[i] : "reserved");
  return g_strv_builder_end (b);
}

static void
add_temp (JsonBuilder *b,
          const char  *name,
          guint16      kelvin)
{
  g_autofree char *k = g_strdup_printf ("%s_k", name);
  g_autofree char *c = g_strdup_printf ("%s_c", name);

  json_builder_set_member_name (b, k);
  if (kelvin)
    json_builder_add_int_value (b, kelvin);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, c);
  if (kelvin)
    json_builder_add_double_value (b, kelvin - 273.15);
  else
    json_builder_add_null_value (b);
}

static void
add_u64 (JsonBuilder *b,
         const char  *name,
         guint64      v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, (gint64) MIN (v, (guint64) G_MAXINT64));
}

static void
add_bool (JsonBuilder *b,
          const char  *name,
          gboolean     v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_boolean_value (b, v);
}

static void
add_str (JsonBuilder *b,
         const char  *name,
         const char  *v)
{
  json_builder_set_member_name (b, name);
  if (v)
    json_builder_add_string_value (b, v);
  else
    json_builder_add_null_value (b);
}

const char *
nsc_nvme_identity_mismatch (const char *model,
                            guint16     vendor_id,
                            guint16    *expected)
{
  static const struct
  {
    const char *maker;
    const char *names[5];   /* as the model spells them, upper case, at a word's start */
    guint16     ids[3];
  } makers[] = {
    { "Samsung", { "SAMSUNG" }, { 0x144d } },
    { "Western Digital", { "WDC", "WD_", "WD ", "WESTERN DIGITAL", "SANDISK" }, { 0x15b7, 0x1b96 } },
    { "Intel", { "INTEL" }, { 0x8086 } },
    { "SK hynix", { "SK HYNIX", "HYNIX" }, { 0x1c5c } },
    { "Kioxia", { "KIOXIA", "TOSHIBA" }, { 0x1e0f, 0x1179 } },
    { "Solidigm", { "SOLIDIGM" }, { 0x025e } },
  };
  g_autofree char *up = NULL;

  if (model == NULL || vendor_id == 0)
    return NULL;
  up = g_ascii_strup (model, -1);
  g_strstrip (up);
  for (guint m = 0; m < G_N_ELEMENTS (makers); m++)
    for (guint k = 0; k < G_N_ELEMENTS (makers[m].names) && makers[m].names[k]; k++)
      {
        const char *at = strstr (up, makers[m].names[k]);

        if (at == NULL || (at != up && g_ascii_isalnum (at[-1])))
          continue;
        for (guint i = 0; i < G_N_ELEMENTS (makers[m].ids) && makers[m].ids[i]; i++)
          if (makers[m].ids[i] == vendor_id)
            return NULL;
        if (expected)
          *expected = makers[m].ids[0];
        return makers[m].maker;
      }
  return NULL;
}

JsonNode *
nsc_nvme_info_to_json (const NscNvmeInfo *info)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (info != NULL, NULL);
  json_builder_begin_object (b);
  add_str (b, "controller", info->controller);

  json_builder_set_member_name (b, "identify");
  if (info->have_identify)
    {
      json_builder_begin_object (b);
      add_str (b, "model", info->model);
      add_str (b, "serial", info->serial);
      add_str (b, "firmware", info->firmware);
      add_u64 (b, "vendor_id", info->vendor_id);
      add_u64 (b, "mdts", info->mdts);
      add_temp (b, "wctemp", info->wctemp_k);
      add_temp (b, "cctemp", info->cctemp_k);
      add_temp (b, "mntmt", info->mntmt_k);
      add_temp (b, "mxtmt", info->mxtmt_k);
      add_u64 (b, "oncs", info->oncs);
      add_bool (b, "dsm_deallocate", (info->oncs & NVME_CTRL_ONCS_DSM) != 0);
      add_bool (b, "write_zeroes", (info->oncs & NVME_CTRL_ONCS_WRITE_ZEROES) != 0);
      add_u64 (b, "sanicap", info->sanicap);
      add_bool (b, "sanitize_crypto_erase", (info->sanicap & NVME_CTRL_SANICAP_CES) != 0);
      add_bool (b, "sanitize_block_erase", (info->sanicap & NVME_CTRL_SANICAP_BES) != 0);
      add_bool (b, "sanitize_overwrite", (info->sanicap & NVME_CTRL_SANICAP_OWS) != 0);
      add_u64 (b, "fna", info->fna);
      add_bool (b, "format_all_namespaces", (info->fna & NVME_CTRL_FNA_FMT_ALL_NAMESPACES) != 0);
      add_bool (b, "format_crypto_erase", (info->fna & NVME_CTRL_FNA_CRYPTO_ERASE) != 0);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "namespace");
  if (info->have_namespace)
    {
      json_builder_begin_object (b);
      add_u64 (b, "nsid", info->nsid);
      add_u64 (b, "nsze", info->nsze);
      add_u64 (b, "ncap", info->ncap);
      add_u64 (b, "nuse", info->nuse);
      add_u64 (b, "lba_size", info->lba_size);
      add_u64 (b, "current_lba_format", info->current_lba_format);
      json_builder_set_member_name (b, "lba_formats");
      json_builder_begin_array (b);
      for (guint i = 0; i < info->lba_formats->len; i++)
        {
          NscNvmeLbaFormat *f = &g_array_index (info->lba_formats, NscNvmeLbaFormat, i);
          json_builder_begin_object (b);
          add_u64 (b, "data_size", f->data_size);
          add_u64 (b, "metadata_size", f->metadata_size);
          add_u64 (b, "relative_performance", f->relative_performance);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "smart");
  if (info->have_smart)
    {
      g_auto(GStrv) warn = nsc_nvme_critical_warning_names (info->critical_warning);

      json_builder_begin_object (b);
      add_u64 (b, "critical_warning", info->critical_warning);
      json_builder_set_member_name (b, "critical_warnings");
      json_builder_begin_array (b);
      for (guint i = 0; warn[i]; i++)
        json_builder_add_string_value (b, warn[i]);
      json_builder_end_array (b);
      add_temp (b, "temperature", info->composite_temp_k);
      json_builder_set_member_name (b, "sensors_c");
      json_builder_begin_array (b);
      for (guint i = 0; i < 8; i++)
        if (info->sensor_temp_k[i])
          json_builder_add_double_value (b, info->sensor_temp_k[i] - 273.15);
        else
          json_builder_add_null_value (b);
      json_builder_end_array (b);
      add_u64 (b, "available_spare", info->available_spare);
      add_u64 (b, "spare_threshold", info->spare_threshold);
      add_u64 (b, "percent_used", info->percent_used);
      add_u64 (b, "data_units_read", info->data_units_read);
      add_u64 (b, "data_units_written", info->data_units_written);
      /* One data unit is 1000 × 512 bytes (NVMe base spec). */
      add_u64 (b, "bytes_read", info->data_units_read > G_MAXUINT64 / 512000
               ? G_MAXUINT64 : info->data_units_read * 512000);
      add_u64 (b, "bytes_written", info->data_units_written > G_MAXUINT64 / 512000
               ? G_MAXUINT64 : info->data_units_written * 512000);
      add_u64 (b, "host_read_commands", info->host_read_commands);
      add_u64 (b, "host_write_commands", info->host_write_commands);
      add_u64 (b, "power_cycles", info->power_cycles);
      add_u64 (b, "power_on_hours", info->power_on_hours);
      add_u64 (b, "unsafe_shutdowns", info->unsafe_shutdowns);
      add_u64 (b, "media_errors", info->media_errors);
      add_u64 (b, "warning_temp_minutes", info->warning_temp_minutes);
      add_u64 (b, "critical_temp_minutes", info->critical_temp_minutes);
      add_u64 (b, "thermal_transitions_1", info->thermal_transitions[0]);
      add_u64 (b, "thermal_transitions_2", info->thermal_transitions[1]);
      add_u64 (b, "thermal_seconds_1", info->thermal_seconds[0]);
      add_u64 (b, "thermal_seconds_2", info->thermal_seconds[1]);
      json_builder_end_object (b);
    }
  else
    json_builder_add_null_value (b);

  json_builder_end_object (b);
  return json_builder_get_root (b);
}

/* ---- erase ------------------------------------------------------------------ */

static gboolean
nvme_status_error (GError     **error,
                   int          ret,
                   const char  *what,
                   const char  *device)
{
  if (ret < 0)
    nsc_set_error_from_errno (error, errno, _("%s of %s failed"), what, device);
  else if ((ret & 0x7ff) == NVME_SC_INVALID_OPCODE || (ret & 0x7ff) == NVME_SC_INVALID_FIELD)
    g_set_error (error, NSC_ERROR, NSC_ERROR_UNSUPPORTED,
                 _("%s does not support %s; erase it with trim instead"), device, what);
  else
    g_set_error (error, NSC_ERROR, NSC_ERROR_IO,
                 _("%s of %s failed: the controller answered status 0x%x"), what, device, ret);
  return FALSE;
}

/* ---- what an erase would reach ------------------------------------------------ */

static gboolean
is_namespace_name (const char *name)
{
  /* nvme0n1 (a namespace, or a multipath head), nvme0c1n1 (one path to a namespace);
   * not nvme0n1p1 (a partition), nor nvme0 (a controller). */
  const char *p = name;

  if (!g_str_has_prefix (p, "nvme"))
    return FALSE;
  p += 4;
  if (!g_ascii_isdigit (*p))
    return FALSE;
  while (g_ascii_isdigit (*p))
    p++;
  if (*p == 'c')
    {
      p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }
  if (*p++ != 'n' || !g_ascii_isdigit (*p))
    return FALSE;
  while (g_ascii_isdigit (*p))
    p++;
  return *p == '\0';
}

/* Adds the NSIDs of the namespaces in the folder @dir (a controller's or a
 * subsystem's) to @nsids. */
static void
collect_nsids (const char *dir,
               GHashTable *nsids)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *e;

  while (d != NULL && (e = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *text = NULL;
      guint64 nsid;

      if (!is_namespace_name (e))
        continue;
      path = g_build_filename (dir, e, "nsid", NULL);
      if (g_file_get_contents (path, &text, NULL, NULL)
          && g_ascii_string_to_unsigned (g_strstrip (text), 10, 1, G_MAXUINT32, &nsid, NULL))
        g_hash_table_add (nsids, g_strdup_printf ("nsid %" G_GUINT64_FORMAT, nsid));
      else
        /* No nsid attribute (an old kernel): count the node itself. */
        g_hash_table_add (nsids, g_strdup_printf ("node %s", e));
    }
}

guint
nsc_nvme_subsystem_namespaces_at (const char *sysfs_root,
                                  const char *ns_name)
{
  g_autofree char *link = g_build_filename (sysfs_root, "class", "block", ns_name, NULL);
  g_autofree char *real = _nsc_sysfs_resolve (link);
  g_autofree char *parent = g_path_get_dirname (real);
  g_autofree char *pname = g_path_get_basename (parent);
  g_autofree char *classdir = g_build_filename (sysfs_root, "class", "nvme-subsystem", NULL);
  g_autoptr(GHashTable) nsids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *subsys = NULL;

  if (!g_file_test (real, G_FILE_TEST_IS_DIR) || !is_namespace_name (ns_name))
    return 0;

  if (g_str_has_prefix (pname, "nvme-subsys"))
    subsys = g_strdup (parent);           /* a multipath head lives in its subsystem */
  else
    {
      /* The subsystem whose folder links to this controller. */
      g_autoptr(GDir) d = g_dir_open (classdir, 0, NULL);
      const char *e;

      while (d != NULL && subsys == NULL && (e = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *sdir = g_build_filename (classdir, e, NULL);
          g_autofree char *member = g_build_filename (sdir, pname, NULL);

          if (g_file_test (member, G_FILE_TEST_EXISTS))
            subsys = _nsc_sysfs_resolve (sdir);
        }
    }

  if (subsys == NULL)
    collect_nsids (parent, nsids);        /* no subsystem in sysfs: the controller's */
  else
    {
      g_autoptr(GDir) d = g_dir_open (subsys, 0, NULL);
      const char *e;

      collect_nsids (subsys, nsids);
      /* Every controller of the subsystem, and their namespaces. */
      while (d != NULL && (e = g_dir_read_name (d)) != NULL)
        {
          g_autofree char *cdir = NULL;
          g_autofree char *creal = NULL;

          if (!g_str_has_prefix (e, "nvme") || is_namespace_name (e))
            continue;
          cdir = g_build_filename (subsys, e, NULL);
          creal = _nsc_sysfs_resolve (cdir);
          collect_nsids (creal, nsids);
        }
    }
  return MAX (g_hash_table_size (nsids), 1u);
}

gboolean
nsc_nvme_check_erase_scope (const NscNvmeEraseScope  *scope,
                            const char               *device,
                            const char               *method,
                            GError                  **error)
{
  guint seen = MAX (MAX (scope->active, scope->allocated), scope->in_sysfs);

  if (g_strcmp0 (method, "format") == 0
      && (scope->fna & (NVME_CTRL_FNA_FMT_ALL_NAMESPACES | NVME_CTRL_FNA_SEC_ALL_NAMESPACES))
      && seen > 1)
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   _("Format NVM on %s would erase all %u namespaces of the drive (its controller "
                     "formats them together, FNA 0x%x), and only %s was named and held; "
                     "erase by trim instead"), device, seen, scope->fna, device);
      return FALSE;
    }
  if (g_strcmp0 (method, "sanitize") == 0)
    {
      /* One namespace for sure: the drive can have only one, or every list says so
       * and no other controller can hide more. */
      gboolean single = scope->nn == 1
                        || (seen == 1 && (scope->have_allocated
                                          || !(scope->cmic & (NVME_CTRL_CMIC_MULTI_PORT
                                                              | NVME_CTRL_CMIC_MULTI_CTRL))));

      if (!single)
        {
          g_autofree char *count = seen > 1 ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                                            "all %u namespace",
                                                                            "all %u namespaces",
                                                                            seen), seen)
                                            : g_strdup (_("every namespace"));
          g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                       _("Sanitize on %s would erase %s of the drive's subsystem%s, and only %s "
                         "was named and held; erase by format or trim instead"), device, count,
                       seen > 1 ? "" : _(" (other controllers may hold namespaces this host "
                                         "does not see)"), device);
          return FALSE;
        }
    }
  return TRUE;
}

static guint
count_ns_list (const struct nvme_ns_list *list)
{
  guint n = 0;

  for (guint i = 0; i < NVME_ID_NS_LIST_MAX && list->ns[i] != 0; i++)
    n++;
  return n;
}

/* Refuses when the descriptor is not one this erase may use: a whole namespace,
 * open for writing, held exclusively. */
static gboolean
check_erase_descriptor (int          fd,
                        const char  *device,
                        const char  *what,
                        char       **out_name,
                        GError     **error)
{
  g_autofree char *sysdir = NULL;
  g_autofree char *real = NULL;
  g_autofree char *part = NULL;
  struct stat st, named;
  int mode = fcntl (fd, F_GETFL);
  int probe;

  if (fstat (fd, &st) != 0 || !S_ISBLK (st.st_mode))
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   _("%s is not a block device; NVMe %s needs an NVMe namespace"), device, what);
      return FALSE;
    }
  if (mode < 0 || (mode & O_ACCMODE) != O_RDWR)
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_NEEDS_CONFIRMATION,
                   _("NVMe %s of %s refused: the device is not open for writing, so no consent "
                     "to destroy its data was checked"), what, device);
      return FALSE;
    }
  /* O_EXCL leaves no trace in the descriptor's flags; a second exclusive open of
   * the same node must fail while ours holds it. */
  if (stat (device, &named) != 0 || !S_ISBLK (named.st_mode) || named.st_rdev != st.st_rdev)
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_FAILED,
                   _("NVMe %s refused: %s no longer names the device that is open"), what, device);
      return FALSE;
    }
  probe = open (device, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
  if (probe >= 0)
    {
      close (probe);
      g_set_error (error, NSC_ERROR, NSC_ERROR_BUSY,
                   _("NVMe %s of %s refused: the device is not held exclusively for this run"),
                   what, device);
      return FALSE;
    }
  if (errno != EBUSY)
    {
      int errsv = errno;
      g_set_error (error, NSC_ERROR, NSC_ERROR_BUSY,
                   _("NVMe %s of %s refused: cannot prove that the device is held exclusively (%s)"),
                   what, device, g_strerror (errsv));
      return FALSE;
    }

  sysdir = g_strdup_printf ("/sys/dev/block/%u:%u", major (st.st_rdev), minor (st.st_rdev));
  real = _nsc_sysfs_resolve (sysdir);
  part = g_build_filename (real, "partition", NULL);
  if (g_file_test (part, G_FILE_TEST_EXISTS))
    {
      g_autofree char *parent = g_path_get_dirname (real);
      g_autofree char *whole = g_path_get_basename (parent);

      if (g_str_has_prefix (whole, "nvme"))
        g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                     _("%s is a partition: NVMe %s would erase the whole namespace /dev/%s, not "
                       "only the partition; erase by trim, or test the whole namespace"), device,
                     what, whole);
      else
        g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                     _("%s is a partition of /dev/%s, which is not an NVMe namespace: NVMe %s "
                       "cannot erase it; erase by trim"), device, whole, what);
      return FALSE;
    }
  *out_name = g_path_get_basename (real);
  return TRUE;
}

gboolean
nsc_nvme_erase (int            fd,
                const char    *device,
                const char    *method,
                GCancellable  *cancellable,
                GError       **error)
{
  struct nvme_id_ctrl ctrl;
  struct nvme_id_ns ns;
  struct nvme_ns_list list;
  g_autofree char *name = NULL;
  const char *what = g_strcmp0 (method, "sanitize") == 0 ? "Sanitize" : "Format";
  guint active = 0, allocated = 0, in_sysfs;
  gboolean have_allocated = FALSE;
  __u32 nsid = 0;
  int ret;

  if (g_strcmp0 (method, "format") != 0 && g_strcmp0 (method, "sanitize") != 0)
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not an erase method; use trim, format or sanitize"), method ? method : "");
      return FALSE;
    }
  if (!check_erase_descriptor (fd, device, what, &name, error))
    return FALSE;
  if (nvme_get_nsid (fd, &nsid) != 0 || nsid == 0)
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_UNSUPPORTED,
                   _("%s is not an NVMe namespace: Format and Sanitize need an NVMe drive; "
                     "erase it with trim instead"), device);
      return FALSE;
    }
  if ((ret = nvme_identify_ctrl (fd, &ctrl)) != 0)
    return nvme_status_error (error, ret, _("Identify Controller"), device);
  if ((ret = nvme_identify_ns (fd, nsid, &ns)) != 0)
    return nvme_status_error (error, ret, _("Identify Namespace"), device);

  if (g_str_equal (method, "sanitize") && !(le32toh (ctrl.sanicap) & NVME_CTRL_SANICAP_BES))
    {
      g_set_error (error, NSC_ERROR, NSC_ERROR_UNSUPPORTED,
                   _("%s does not support Sanitize block erase; use format or trim"), device);
      return FALSE;
    }

  /* Every namespace the command would reach must be the one named, checked and held:
   * a Format may cover the whole subsystem (FNA), a Sanitize always does. Count them
   * every way there is: this controller's active list, the subsystem's allocated
   * list (namespace management), and what the kernel shows of the subsystem. */
  if (nvme_identify_active_ns_list (fd, 0, &list) == 0)
    active = count_ns_list (&list);
  if ((le16toh (ctrl.oacs) & NVME_CTRL_OACS_NS_MGMT)
      && nvme_identify_allocated_ns_list (fd, 0, &list) == 0)
    {
      allocated = count_ns_list (&list);
      have_allocated = TRUE;
    }
  in_sysfs = nsc_nvme_subsystem_namespaces_at ("/sys", name);
  {
    NscNvmeEraseScope scope = { ctrl.fna, ctrl.cmic, le32toh (ctrl.nn), active, allocated,
                                have_allocated, in_sysfs };

    g_debug ("erase scope of %s: nsid %u, NN %u, active %u, allocated %u%s, sysfs %u, "
             "FNA 0x%x, CMIC 0x%x", device, nsid, scope.nn, active, allocated,
             have_allocated ? "" : " (not asked)", in_sysfs, ctrl.fna, ctrl.cmic);
    if (!nsc_nvme_check_erase_scope (&scope, device, method, error))
      return FALSE;
  }

  if (g_strcmp0 (method, "format") == 0)
    {
      /* Keep the namespace as it is (LBA format, metadata, protection); only erase. */
      guint lbaf = (ns.flbas & 0x0f) | ((ns.flbas >> 1) & 0x30);
      struct nvme_format_nvm_args args = {
        .args_size = sizeof args,
        .fd = fd,
        .timeout = 30 * 60 * 1000,
        .nsid = nsid,
        .mset = (ns.flbas >> 4) & 1,
        .pi = ns.dps & 0x7,
        .pil = (ns.dps >> 3) & 1,
        .ses = NVME_FORMAT_SES_USER_DATA_ERASE,
        .lbaf = lbaf & 0x0f,
        .lbafu = (lbaf >> 4) & 0x3,
      };

      ret = nvme_format_nvm (&args);
      if (ret != 0)
        return nvme_status_error (error, ret, _("Format NVM with user data erase"), device);
      return TRUE;
    }

  if (g_strcmp0 (method, "sanitize") == 0)
    {
      struct nvme_sanitize_nvm_args args = {
        .args_size = sizeof args,
        .fd = fd,
        .timeout = 0,
        .sanact = NVME_SANITIZE_SANACT_START_BLOCK_ERASE,
      };

      ret = nvme_sanitize_nvm (&args);
      if (ret != 0)
        return nvme_status_error (error, ret, _("Sanitize block erase"), device);

      /* The drive works on its own now; a cancel cannot stop it, only stop waiting. */
      for (;;)
        {
          struct nvme_sanitize_log_page log;

          g_usleep (G_USEC_PER_SEC / 2);
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              g_prefix_error (error, _("The sanitize of %s goes on in the drive: "), device);
              return FALSE;
            }
          if ((ret = nvme_get_log_sanitize (fd, false, &log)) != 0)
            return nvme_status_error (error, ret, _("Reading the sanitize status"), device);
          switch (le16toh (log.sstat) & NVME_SANITIZE_SSTAT_STATUS_MASK)
            {
            case NVME_SANITIZE_SSTAT_STATUS_IN_PROGESS:
              continue;
            case NVME_SANITIZE_SSTAT_STATUS_COMPLETE_SUCCESS:
            case NVME_SANITIZE_SSTAT_STATUS_ND_COMPLETE_SUCCESS:
              return TRUE;
            default:
              g_set_error (error, NSC_ERROR, NSC_ERROR_IO,
                           _("The sanitize of %s failed (status 0x%x)"), device, le16toh (log.sstat));
              return FALSE;
            }
        }
    }

  g_set_error (error, NSC_ERROR, NSC_ERROR_INVALID_ARGUMENT,
               _("“%s” is not an erase method; use trim, format or sanitize"), method ? method : "");
  return FALSE;
}

gboolean
nsc_nvme_erase_func (gpointer       user_data,
                     int            fd,
                     const char    *device,
                     const char    *method,
                     GCancellable  *cancellable,
                     GError       **error)
{
  return nsc_nvme_erase (fd, device, method, cancellable, error);
}

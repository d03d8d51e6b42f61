#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the small sysfs trees the device tests read (tests/data/sysfs-*/).

They mirror the layout of real machines (paths, attribute names and formats as
Linux 6.1 shows them), cut down to what Nandscope reads. Run from tests/data to
regenerate; the trees are committed so that tests need no Python.

sysfs-laptop: an NVMe drive (PCIe 4.0 drive in a 3.0 slot) whose partition is /,
  a SATA disk with an ext4 partition and a swap partition, a USB disk, zram used
  as swap, a loop device held by dm-0 (mounted at /srv/vm), an unattached loop.
sysfs-lvmroot: a virtio disk whose partition holds the LVM volume mounted at /.
sysfs-multipath: a dual-port NVMe drive whose namespace head sits under nvme-subsys0.
sysfs-inuse (with proc-inuse, a cut-down /proc): disks used in ways that claim
  nothing, so that O_EXCL does not see them: sdb backs loop2 (mounted), sdc1
  backs loop3, sdd is open in a VM, sde1 is a btrfs mounted under an anonymous
  device number, sdf and sdg make one btrfs, sdh1 is open in a partition editor,
  sdi is open only in the checking process itself (pid 100); nvme1 has two
  namespaces in its subsystem, nvme2 one.
"""
import os
import shutil

def w(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    mode = 'wb' if isinstance(text, bytes) else 'w'
    with open(path, mode) as f:
        f.write(text if isinstance(text, bytes) else text + '\n')

def link(path, target):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(target, path)

def rel(frm, to):
    return os.path.relpath(to, os.path.dirname(frm))

def disk(root, devpath, name, dev, size, lbs=512, pbs=512, rot=0, removable=0,
         discard=0, extra=None):
    d = os.path.join(root, devpath)
    w(f'{d}/dev', dev)
    w(f'{d}/size', str(size))
    w(f'{d}/removable', str(removable))
    w(f'{d}/ro', '0')
    w(f'{d}/queue/logical_block_size', str(lbs))
    w(f'{d}/queue/physical_block_size', str(pbs))
    w(f'{d}/queue/rotational', str(rot))
    w(f'{d}/queue/discard_max_bytes', str(discard))
    for k, v in (extra or {}).items():
        w(f'{d}/{k}', v)
    link(f'{root}/block/{name}', rel(f'{root}/block/{name}', d))
    link(f'{root}/class/block/{name}', rel(f'{root}/class/block/{name}', d))
    return d

def part(root, diskdir, name, dev, number, start, size):
    d = f'{diskdir}/{name}'
    w(f'{d}/dev', dev)
    w(f'{d}/partition', str(number))
    w(f'{d}/start', str(start))
    w(f'{d}/size', str(size))
    link(f'{root}/class/block/{name}', rel(f'{root}/class/block/{name}', d))
    return d

def holder(partdir, root, holder_name):
    # holders/X links to the holder's device folder, as the kernel makes it.
    target = os.path.join(root, 'devices/virtual/block', holder_name)
    link(f'{partdir}/holders/{holder_name}', rel(f'{partdir}/holders/{holder_name}', target))

def laptop(root):
    # NVMe: PCI function behind a root port; controller nvme0, namespace nvme0n1.
    pci = f'{root}/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0'
    w(f'{pci}/current_link_speed', '8.0 GT/s PCIe')
    w(f'{pci}/current_link_width', '4')
    w(f'{pci}/max_link_speed', '16.0 GT/s PCIe')
    w(f'{pci}/max_link_width', '4')
    ctrl = f'{pci}/nvme/nvme0'
    w(f'{ctrl}/model', 'Samsung SSD 980 PRO 1TB                 ')
    w(f'{ctrl}/serial', 'S5GXNF0R123456A     ')
    w(f'{ctrl}/firmware_rev', '5B2QGXA7')
    w(f'{ctrl}/dev', '243:0')
    w(f'{ctrl}/hwmon1/name', 'nvme')
    w(f'{ctrl}/hwmon1/temp1_input', '41850')
    link(f'{ctrl}/device', rel(f'{ctrl}/device', pci))
    link(f'{root}/class/nvme/nvme0', rel(f'{root}/class/nvme/nvme0', ctrl))
    ns = disk(root, 'devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/nvme0n1',
              'nvme0n1', '259:0', 1953525168, discard=2199023255040,
              extra={'nsid': '1', 'wwid': 'eui.002538b111b2c3d4'})
    link(f'{ns}/device', '..')
    part(root, ns, 'nvme0n1p1', '259:1', 1, 2048, 1048576)
    part(root, ns, 'nvme0n1p2', '259:2', 2, 1050624, 1952474511)

    # SATA disk through AHCI: ata1/host0/target0:0:0/0:0:0:0, drivetemp hwmon.
    sdev = f'{root}/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0'
    w(f'{sdev}/vendor', 'ATA     ')
    w(f'{sdev}/model', 'WDC WD20EZRZ-00Z')
    w(f'{sdev}/rev', '0A80')
    w(f'{sdev}/vpd_pg80', b'\x00\x80\x00\x14     WD-WCC4M1ABCDEF')
    w(f'{sdev}/hwmon/hwmon3/name', 'drivetemp')
    w(f'{sdev}/hwmon/hwmon3/temp1_input', '35000')
    sda = disk(root, 'devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda',
               'sda', '8:0', 3907029168, pbs=4096, rot=1)
    link(f'{sda}/device', rel(f'{sda}/device', sdev))
    part(root, sda, 'sda1', '8:1', 1, 2048, 3890249728)
    part(root, sda, 'sda2', '8:2', 2, 3890251776, 16777216)

    # USB disk: a SCSI disk below a usb2 hub path.
    udev = f'{root}/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0'
    w(f'{udev}/vendor', 'Samsung ')
    w(f'{udev}/model', 'PSSD T7         ')
    w(f'{udev}/rev', '0   ')
    sdb = disk(root, 'devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdb',
               'sdb', '8:16', 976773168, discard=4294966784)
    link(f'{sdb}/device', rel(f'{sdb}/device', udev))

    # zram: 2 GiB, 4 KiB logical blocks, used as swap.
    disk(root, 'devices/virtual/block/zram0', 'zram0', '252:0', 4194304, lbs=4096, pbs=4096,
         discard=4096, extra={'disksize': '2147483648', 'comp_algorithm': 'lzo [lz4] zstd'})

    # loop0 backs an LVM volume (dm-0) mounted at /srv/vm; loop1 is unattached.
    loop0 = disk(root, 'devices/virtual/block/loop0', 'loop0', '7:0', 20971520, rot=1,
                 extra={'loop/backing_file': '/var/lib/images/vm.img', 'loop/offset': '0'})
    holder(loop0, root, 'dm-0')
    disk(root, 'devices/virtual/block/dm-0', 'dm-0', '254:0', 20963328,
         extra={'dm/name': 'vmvg-images', 'slaves/.keep': ''})
    disk(root, 'devices/virtual/block/loop1', 'loop1', '7:1', 0, rot=1)

def lvmroot(root):
    vdev = f'{root}/devices/pci0000:00/0000:00:04.0/virtio1'
    w(f'{vdev}/vendor', '0x1af4')
    w(f'{vdev}/device', '0x0002')
    vda = disk(root, 'devices/pci0000:00/0000:00:04.0/virtio1/block/vda', 'vda', '253:0',
               67108864, extra={'serial': 'VIRTIO-ROOT-01'})
    link(f'{vda}/device', rel(f'{vda}/device', vdev))
    part(root, vda, 'vda1', '253:1', 1, 2048, 1048576)
    p2 = part(root, vda, 'vda2', '253:2', 2, 1050624, 66056192)
    holder(p2, root, 'dm-0')
    disk(root, 'devices/virtual/block/dm-0', 'dm-0', '254:0', 66052096,
         extra={'dm/name': 'vg-root'})

def multipath(root):
    # A dual-port NVMe drive with native multipath: the namespace head nvme0n1 lives
    # under the subsystem, whose folder links to both controllers; the link runs at
    # what the drive supports (no warning).
    subsys = f'{root}/devices/virtual/nvme-subsystem/nvme-subsys0'
    w(f'{subsys}/model', 'Micron_7450_MTFDKCB960TFR')
    w(f'{subsys}/serial', 'MT2241ABCDEF')
    w(f'{subsys}/firmware_rev', 'E2MU110')
    w(f'{subsys}/iopolicy', 'numa')
    for i, bdf in ((0, '0000:41:00.0'), (1, '0000:41:00.1')):
        pci = f'{root}/devices/pci0000:40/0000:40:01.1/{bdf}'
        w(f'{pci}/current_link_speed', '16.0 GT/s PCIe')
        w(f'{pci}/current_link_width', '2')
        w(f'{pci}/max_link_speed', '16.0 GT/s PCIe')
        w(f'{pci}/max_link_width', '2')
        ctrl = f'{pci}/nvme/nvme{i}'
        w(f'{ctrl}/model', 'Micron_7450_MTFDKCB960TFR')
        w(f'{ctrl}/serial', 'MT2241ABCDEF')
        w(f'{ctrl}/firmware_rev', 'E2MU110')
        w(f'{ctrl}/hwmon{i + 2}/temp1_input', '38850')
        link(f'{ctrl}/device', rel(f'{ctrl}/device', pci))
        link(f'{root}/class/nvme/nvme{i}', rel(f'{root}/class/nvme/nvme{i}', ctrl))
        link(f'{subsys}/nvme{i}', rel(f'{subsys}/nvme{i}', ctrl))
    ns = disk(root, 'devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1', 'nvme0n1', '259:0',
              1875385008, lbs=4096, pbs=4096, extra={'nsid': '1'})
    link(f'{ns}/device', '..')

def inuse(root):
    def sata(name, dev, parts=()):
        d = disk(root, f'devices/pci0000:00/0000:00:17.0/ata2/host1/target1:0:0/1:0:0:{dev}/block/{name}',
                 name, f'8:{dev}', 2097152)
        for i, p in enumerate(parts):
            part(root, d, f'{name}{i + 1}', f'8:{dev + i + 1}', i + 1, 2048 + i * 1048576, 1048576)
        return d
    sata('sdb', 16, ('sdb1', 'sdb2'))
    sata('sdc', 32, ('sdc1',))
    sata('sdd', 48, ('sdd1',))
    sata('sde', 64, ('sde1', 'sde2'))
    sata('sdf', 80)
    sata('sdg', 96)
    sata('sdh', 112, ('sdh1', 'sdh2'))
    sata('sdi', 128)
    for n, backing in ((2, '/dev/sdb'), (3, '/dev/sdc1'), (4, '/home/user/disk.img')):
        disk(root, f'devices/virtual/block/loop{n}', f'loop{n}', f'7:{n}', 2097152, rot=1,
             extra={'loop/backing_file': backing, 'loop/offset': '1048576'})
    # A btrfs over sdf and sdg: mountinfo names sdg only.
    fs = f'{root}/fs/btrfs/4f1c2a9e-1d2b-4c55-9a0e-2b8f0c6d7e11'
    for n in ('sdf', 'sdg'):
        link(f'{fs}/devices/{n}', rel(f'{fs}/devices/{n}', f'{root}/class/block/{n}'))
    # NVMe: nvme1 with namespaces 1 and 2, nvme2 with one.
    for c, nsids in ((1, (1, 2)), (2, (1,))):
        pci = f'{root}/devices/pci0000:00/0000:00:1c.{c}/0000:0{c}:00.0'
        ctrl = f'{pci}/nvme/nvme{c}'
        w(f'{ctrl}/dev', f'243:{c}')
        w(f'{ctrl}/model', 'QEMU NVMe Ctrl')
        link(f'{root}/class/nvme/nvme{c}', rel(f'{root}/class/nvme/nvme{c}', ctrl))
        sub = f'{root}/devices/virtual/nvme-subsystem/nvme-subsys{c}'
        w(f'{sub}/subsysnqn', f'nqn.2019-08.org.qemu:NSC{c}')
        link(f'{sub}/nvme{c}', rel(f'{sub}/nvme{c}', ctrl))
        link(f'{root}/class/nvme-subsystem/nvme-subsys{c}',
             rel(f'{root}/class/nvme-subsystem/nvme-subsys{c}', sub))
        for nsid in nsids:
            ns = disk(root, f'devices/pci0000:00/0000:00:1c.{c}/0000:0{c}:00.0/nvme/nvme{c}/nvme{c}n{nsid}',
                      f'nvme{c}n{nsid}', f'259:{c * 8 + nsid}', 65536, lbs=4096, pbs=4096,
                      extra={'nsid': str(nsid)})
            link(f'{ns}/device', '..')
    part(root, f'{root}/devices/pci0000:00/0000:00:1c.2/0000:02:00.0/nvme/nvme2/nvme2n1',
         'nvme2n1p1', '259:30', 1, 2048, 32768)

def proc_inuse(root):
    for pid, comm, fds in ((4242, 'qemu-system-x86', {0: '/dev/null', 12: '/dev/sdd'}),
                           (777, 'gparted', {3: 'socket:[4711]', 5: '/dev/sdh1'}),
                           (100, 'nandscope-cli', {3: '/dev/sdi'}),
                           (555, 'bash', {0: '/dev/pts/0', 1: 'pipe:[99]',
                                          2: '/home/user/disk.img'})):
        w(f'{root}/{pid}/comm', comm)
        for fd, target in fds.items():
            link(f'{root}/{pid}/fd/{fd}', target)
    w(f'{root}/self', '')   # not a number: skipped

for name, fn in (('sysfs-laptop', laptop), ('sysfs-lvmroot', lvmroot),
                 ('sysfs-multipath', multipath), ('sysfs-inuse', inuse),
                 ('proc-inuse', proc_inuse)):
    shutil.rmtree(name, ignore_errors=True)
    fn(name)

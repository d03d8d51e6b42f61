#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The desktop guest's root filesystem: Debian 12 from Debian's archive (mmdebstrap,
# --variant=essential plus desktop-packages.txt), an ordinary user "tester" (uid 1000),
# packed into an ext4 image with mkfs.ext4 -d (no loop device, no mount).
#
#   vm-desktop-image.sh       prints the image's path; builds it when absent
#
# The image is cached in $NSC_VM_CACHE (default /var/cache/nandscope-vm) under a name
# keyed by the hash of the package list and of this script, so a change to either
# builds a new one (older images are removed). QEMU boots it with snapshot=on: the
# cached file is never written. Exit 77 when mmdebstrap or mkfs.ext4 is missing, 1
# when the build fails (its log is printed).
set -u
here=$(cd "$(dirname "$0")" && pwd)
cache=${NSC_VM_CACHE:-/var/cache/nandscope-vm}
mirror=${NSC_VM_MIRROR:-http://deb.debian.org/debian}
security=${NSC_VM_SECURITY_MIRROR:-http://deb.debian.org/debian-security}

command -v mmdebstrap >/dev/null || { echo "SKIP: mmdebstrap is missing (apt install mmdebstrap)" >&2; exit 77; }
command -v mkfs.ext4 >/dev/null || { echo "SKIP: mkfs.ext4 is missing (apt install e2fsprogs)" >&2; exit 77; }

key=$(cat "$here/desktop-packages.txt" "$0" | sha256sum | cut -c1-16)
image=$cache/desktop-$key.ext4
mkdir -p "$cache" || exit 1

# One build at a time on the machine; a second caller waits and finds the image.
exec 9>"$cache/.lock"
flock 9
if [ -s "$image" ]; then
  echo "$image"
  exit 0
fi

pkgs=$(grep -v '^#' "$here/desktop-packages.txt" | tr -s ' \n' ',' | sed 's/^,//; s/,$//')
tmp=$(mktemp -d "$cache/build-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
echo "# building the desktop guest image ($pkgs) in $cache" >&2
if ! mmdebstrap --variant=essential --include="$pkgs" \
     --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
     --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
     --customize-hook='echo "tester:x:1000:1000:Tester:/home/tester:/bin/bash" >> "$1/etc/passwd"' \
     --customize-hook='echo "tester:x:1000:" >> "$1/etc/group"' \
     --customize-hook='echo "tester:!:19000:0:99999:7:::" >> "$1/etc/shadow"' \
     --customize-hook='mkdir -p "$1/home/tester" && chown 1000:1000 "$1/home/tester"' \
     --customize-hook='echo nsc-desktop > "$1/etc/hostname"; rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin' \
     bookworm "$tmp/root" \
     "deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
     "deb $security bookworm-security main" > "$tmp/log" 2>&1; then
  tail -30 "$tmp/log" >&2
  echo "FAIL: mmdebstrap could not build the desktop guest" >&2
  exit 1
fi
# Room for the guest's own writes (a snapshot overlay holds them, but the filesystem
# needs free blocks): the tree plus 256 MiB.
size_kb=$(( $(du -sk "$tmp/root" | cut -f1) + 256 * 1024 ))
if ! mkfs.ext4 -q -F -L nsc-desktop -d "$tmp/root" "$tmp/image.ext4" "${size_kb}k" >> "$tmp/log" 2>&1; then
  tail -10 "$tmp/log" >&2
  echo "FAIL: mkfs.ext4 -d could not pack the desktop guest" >&2
  exit 1
fi
rm -f "$cache"/desktop-*.ext4
mv "$tmp/image.ext4" "$image"
echo "# desktop guest image built in $(( $(date +%s) - start )) s: $(du -h --apparent-size "$image" | cut -f1)" >&2
echo "$image"

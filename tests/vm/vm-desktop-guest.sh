#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The desktop guest's first process (vm-desktop.sh puts it at /opt/nsc/guest.sh):
# starts udevd, the system bus, polkitd and udisksd by hand (no systemd: faster under
# TCG), mounts the partition of the second drive, then runs the app's drive path as
# the ordinary user "tester", outside and inside a Flatpak-like bwrap sandbox, and
# prints each case as a section (vm-lib.sh's format) for vm-desktop-check.py.
export PATH=/opt/nsc/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8
probe=/opt/nsc/bin/desktop-probe
rules=/etc/polkit-1/rules.d/50-nandscope-test.rules

section() {
  local name=$1 rc t0
  shift
  t0=$(now)
  timeout -k 5 240 "$@" > /tmp/out 2> /tmp/err
  rc=$?
  echo "@@NSC-SECTION-TIME $name $t0 $(now)@@"
  echo "@@NSC-BEGIN $name@@"
  cat /tmp/out
  echo "@@NSC-END $name@@"
  echo "@@NSC-RC $name $rc@@"
  sed "s/^/@@NSC-STDERR $name@@ /" /tmp/err
  # QEMU 7.2's namespace under TCG now and then stops completing I/O (see
  # vm-desktop.sh): nothing after it would be meaningful; the guest is booted again.
  if grep -q 'did not complete I/O' /tmp/out /tmp/err; then
    echo "@@NSC-STALL $name@@"
    dmesg | grep -i -e nvme -e blk | tail -20 | sed 's/^/@@NSC-DMESG@@ /'
    grep . /sys/block/nvme*/inflight | sed 's/^/@@NSC-DMESG@@ /'
    exit 0
  fi
}
# The ordinary user, as a command (section runs it under timeout).
U=(setpriv --reuid=1000 --regid=1000 --init-groups --reset-env --)
as_user() { "${U[@]}" "$@"; }
now() { cut -d' ' -f1 /proc/uptime; }
fail() { echo "@@NSC-ERROR $*@@"; }
finish() {
  echo "@@NSC-DONE@@"
  sync
  echo 1 > /proc/sys/kernel/sysrq
  echo o > /proc/sysrq-trigger
  sleep 10
}
trap finish EXIT

mount -t tmpfs -o mode=0755 run /run
mount -t tmpfs -o mode=1777 tmp /tmp
mkdir -p /dev/pts /dev/shm /run/dbus /run/udev
mount -t devpts devpts /dev/pts
mount -t tmpfs -o mode=1777 shm /dev/shm
echo 1 > /proc/sys/kernel/printk
hostname nsc-desktop
echo "@@NSC-TIME root $(now)@@"

/lib/systemd/systemd-udevd --daemon || fail "udevd did not start"
udevadm trigger --type=subsystems --action=add
udevadm trigger --type=devices --action=add
udevadm settle --timeout=120 || fail "udevadm settle timed out"
echo "@@NSC-TIME udev $(now)@@"

# ns_of SERIAL: the namespace of the controller with that serial (probe order varies).
ns_of() {
  local c
  for c in /sys/class/nvme/nvme*; do
    if grep -q "^$1 *\$" "$c/serial"; then echo "/dev/$(basename "$c")n1"; return; fi
  done
  fail "no controller with serial $1"
}
blank=$(ns_of NSCBLANK1)
used=$(ns_of NSCMOUNT2)
echo "@@NSC-DRIVES blank=$blank used=$used@@"
# The second drive's partition, mounted as an fstab line would mount it.
mkdir -p /srv/data
mount "${used}p1" /srv/data || fail "mount ${used}p1 failed"

dbus-uuidgen --ensure=/etc/machine-id
dbus-daemon --system --fork || fail "the system bus did not start"
polkit_pid=
start_polkit() {
  /usr/lib/polkit-1/polkitd >> /tmp/polkitd.log 2>&1 &
  polkit_pid=$!
  gdbus wait --system --timeout 60 org.freedesktop.PolicyKit1 || fail "polkitd did not start"
}
# set_rule JS: the one test rule, and polkitd started again to read it.
set_rule() {
  printf '%s\n' "$1" > "$rules"
  if [ -n "$polkit_pid" ]; then
    kill "$polkit_pid"
    wait "$polkit_pid" 2>/dev/null
    # udisksd follows polkitd's name; wait until the old owner is gone.
    while gdbus call --system --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
          --method org.freedesktop.DBus.NameHasOwner org.freedesktop.PolicyKit1 2>/dev/null | grep -q true; do
      sleep 0.1
    done
  fi
  start_polkit
}
set_rule '// no rule yet'
/usr/libexec/udisks2/udisksd --no-debug > /tmp/udisksd.log 2>&1 &
udisks_pid=$!
gdbus wait --system --timeout 120 org.freedesktop.UDisks2 || fail "udisksd did not start"
# UDisks2 knows the drives once it has read udev's database for them.
for _ in $(seq 300); do
  as_user "$probe" drives 2>/dev/null | grep -q NSCMOUNT2 && as_user "$probe" drives | grep -q /srv/data && break
  sleep 0.2
done
echo "@@NSC-TIME stack $(now)@@"

# checksum DEV: the first 64 MiB (what Quick's span covers), read with O_DIRECT.
checksum() { timeout -k 5 120 dd if="$1" bs=1M count=64 iflag=direct status=none | cksum | cut -d' ' -f1; }

# The rules: the action UDisks2 checks for OpenDevice is open-device, or
# open-device-system for a drive it counts as the system's (HintSystem: not removable).
allow='polkit.addRule(function(action, subject) {
  if (action.id.indexOf("org.freedesktop.udisks2.open-device") == 0) {
    polkit.log("nandscope-test: " + action.id + " for " + subject.user + ": yes");
    if (subject.user == "tester") return polkit.Result.YES;
  }
});'
deny='polkit.addRule(function(action, subject) {
  if (action.id.indexOf("org.freedesktop.udisks2.open-device") == 0) {
    polkit.log("nandscope-test: " + action.id + " for " + subject.user + ": no");
    return polkit.Result.NO;
  }
});'
slow='polkit.addRule(function(action, subject) {
  if (action.id.indexOf("org.freedesktop.udisks2.open-device") == 0) {
    polkit.log("nandscope-test: " + action.id + " for " + subject.user + ": yes after 3 s");
    polkit.spawn(["/bin/sleep", "3"]);
    return polkit.Result.YES;
  }
});'

# cases PREFIX RUN…: every case, run through RUN (nothing, or the sandbox).
cases() {
  local p=$1
  shift
  section "$p-drives" "${U[@]}" "$@" "$probe" drives
  # The app's own list (sysfs, udev's database where it can be read): a new drive?
  section "$p-cli-devices" "${U[@]}" "$@" /opt/nsc/bin/nandscope-cli devices --json
  section "$p-hint" gdbus call --system --dest org.freedesktop.UDisks2 \
    --object-path "/org/freedesktop/UDisks2/block_devices/$(basename "$blank")" \
    --method org.freedesktop.DBus.Properties.Get org.freedesktop.UDisks2.Block HintSystem

  # What UDisks2 and polkit answer the app's own calls where the window shows only
  # words (the app's window runs Quick on the drives: gui_cases).
  set_rule "$deny"
  local before after
  before=$(checksum "$blank")
  section "$p-deny-open" "${U[@]}" "$@" "$probe" open "$blank" rw
  after=$(checksum "$blank")
  echo "@@NSC-DENY $p $before $after none@@"

  set_rule "$allow"
  before=$(checksum "$used")
  section "$p-mounted-check" "${U[@]}" "$@" "$probe" check "$used"
  # Past the app's own check: what UDisks2 and the kernel answer an exclusive open.
  section "$p-mounted-open" "${U[@]}" "$@" "$probe" open "$used" rw
  after=$(checksum "$used")
  echo "@@NSC-MOUNTED $p $before $after none@@"

  set_rule "$slow"
  section "$p-cancel" "${U[@]}" "$@" "$probe" open "$blank" rw 500 4500
  set_rule "$allow"
  section "$p-cancel-then-excl" "${U[@]}" "$@" "$probe" open "$blank" rw
}

echo "@@NSC-TIME cases $(now)@@"
cases desktop
echo "@@NSC-TIME desktop-done $(now)@@"

# gui_cases PREFIX RUN…: the app itself under Xvfb, run through RUN (nothing, or the
# sandbox), driven by its --script steps as a person would click: the drive picker read
# back, Quick on the raw drive answered at its erase confirmation (polkit denying, then
# allowing), the mounted drive refused, and a cancel while polkit answers.
gui_cases() {
  local p=$1 before name
  shift
  local app=("$@" env HOME=/home/tester DISPLAY=:5 GDK_BACKEND=x11 GSK_RENDERER=cairo
             NO_AT_BRIDGE=1 GTK_A11Y=none GSETTINGS_BACKEND=memory
             XDG_DATA_HOME=/home/tester/$p-data dbus-run-session -- /opt/nsc/bin/nandscope)
  local results=/home/tester/$p-data/nandscope/results
  local quick=(--preset quick --runs 1 --time 300ms --size 64m --max-idle 1s)
  name=$(basename "$blank")
  mkdir -p "/home/tester/$p-folder"
  # script NAME TEXT: a --script file the user can read.
  script() { printf '%s\n' "$2" > "/home/tester/$p-$1.script"; chown -R tester "/home/tester/$p-$1.script" "/home/tester/$p-folder"; }

  # The picker, as UDisks2 lists the drives (read once it has answered); then polkit
  # says no: the confirmation answered, the message shown, nothing written; and the
  # window still runs Quick on a folder afterwards.
  set_rule "$deny"
  before=$(checksum "$blank")
  script deny "popup target_button
wait 5000
dump picker
popdown target_button
run
respond erase $name
wait-run
dump denied
target /home/tester/$p-folder
run
wait-run
dump folder"
  section "$p-deny" "${U[@]}" "${app[@]}" --target "$blank" "${quick[@]}" \
    --script "/home/tester/$p-deny.script"
  echo "@@NSC-GUI-DENY $p $before $(checksum "$blank") $(ls "$results" 2>/dev/null | wc -l)@@"
  section "$p-deny-results" sh -c "cat $results/*.json"

  # polkit says yes: Quick on the raw drive after the confirmation, the result saved;
  # then the drive whose partition is mounted: Quick is refused for it, naming the
  # mount point (the window offers read tests only there).
  set_rule "$allow"
  rm -rf "$results"
  before=$(checksum "$blank")
  local before_used
  before_used=$(checksum "$used")
  script allow "run
respond erase $name
wait-run
dump done
target $used
preset quick
dump mounted"
  section "$p-allow" "${U[@]}" "${app[@]}" --target "$blank" "${quick[@]}" \
    --script "/home/tester/$p-allow.script"
  echo "@@NSC-GUI-ALLOW $p $before $(checksum "$blank")@@"
  echo "@@NSC-GUI-MOUNTED $p $before_used $(checksum "$used")@@"
  section "$p-allow-result" sh -c "cat $results/*.json"

  rm -rf "$results"
  set_rule "$slow"
  section "$p-cancel" "${U[@]}" "${app[@]}" --target "$blank" --preset surface --time 200ms \
    --run --cancel-after 500ms --quit-when-done
  echo "@@NSC-GUI-RESULTS $p $(ls "$results" 2>/dev/null | wc -l)@@"
  set_rule "$allow"
  section "$p-cancel-then-excl" "${U[@]}" "$probe" open "$blank" rw
}

have_gui=0
if [ -x /opt/nsc/bin/nandscope ]; then
  have_gui=1
  as_user Xvfb :5 -screen 0 1280x800x24 -nolisten tcp > /tmp/xvfb.log 2>&1 &
  xvfb_pid=$!
  for _ in $(seq 100); do [ -e /tmp/.X11-unix/X5 ] && break; sleep 0.2; done
  [ -e /tmp/.X11-unix/X5 ] || fail "Xvfb did not start"
  gui_cases gui
  echo "@@NSC-TIME gui-done $(now)@@"
fi

# The sandbox, as Flatpak builds it for flatpak/io.github.nandscope.Nandscope.json.
# Each finish-arg and what stands for it here (vm-desktop-manifest.py reads these
# "finish-arg" lines and compares them with the manifest):
# finish-arg --share=ipc: no --unshare-ipc
# finish-arg --socket=wayland: --ro-bind-try $XDG_RUNTIME_DIR/wayland-0 (none in the guest)
# finish-arg --socket=fallback-x11: --ro-bind-try /tmp/.X11-unix
# finish-arg --device=dri: --dev-bind-try /dev/dri
# finish-arg --filesystem=host: --bind /home /srv /mnt /media (what exists)
# finish-arg --system-talk-name=org.freedesktop.UDisks2: xdg-dbus-proxy --filter --talk=org.freedesktop.UDisks2 as the system bus
mkdir -p /tmp/sandbox && chown tester /tmp/sandbox
printf '[Application]\nname=io.github.nandscope.Nandscope\nruntime=runtime/org.gnome.Platform/x86_64/47\n' > /tmp/sandbox/flatpak-info
as_user xdg-dbus-proxy unix:path=/run/dbus/system_bus_socket /tmp/sandbox/system-bus \
  --filter --talk=org.freedesktop.UDisks2 &
proxy_pid=$!
for _ in $(seq 100); do [ -S /tmp/sandbox/system-bus ] && break; sleep 0.1; done
[ -S /tmp/sandbox/system-bus ] || fail "xdg-dbus-proxy did not start"
host_fs=()
for d in /home /srv /mnt /media; do [ -d "$d" ] && host_fs+=(--bind "$d" "$d"); done
sandbox=(bwrap --unshare-user --unshare-pid --unshare-uts --unshare-cgroup-try --die-with-parent
  --ro-bind /usr /usr --symlink usr/lib /lib --symlink usr/lib64 /lib64
  --symlink usr/bin /bin --symlink usr/sbin /sbin --ro-bind /etc /etc
  --ro-bind /opt/nsc /opt/nsc --ro-bind /tmp/sandbox/flatpak-info /.flatpak-info
  --proc /proc --dev /dev --ro-bind /sys /sys --tmpfs /tmp --tmpfs /run
  --ro-bind-try /run/user/1000/wayland-0 /run/user/1000/wayland-0
  --ro-bind-try /tmp/.X11-unix /tmp/.X11-unix --dev-bind-try /dev/dri /dev/dri
  "${host_fs[@]}"
  --ro-bind /tmp/sandbox/system-bus /run/dbus/system_bus_socket
  --dir /var --symlink ../run /var/run
  --setenv DBUS_SYSTEM_BUS_ADDRESS unix:path=/run/dbus/system_bus_socket
  --)
# What the sandbox sees: no block device in /dev, its own mount table, /sys read-only,
# a system bus that reaches UDisks2 only.
section sandbox-view "${U[@]}" "${sandbox[@]}" /bin/sh -c \
  'echo "dev: $(ls /dev | tr "\n" " ")"; echo "mountinfo-lines: $(wc -l < /proc/self/mountinfo)";
   echo "sys: $(touch /sys/block/x 2>&1 | head -1)"; [ -e /.flatpak-info ] && echo flatpak-info: yes;
   gdbus call --system --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
     --method org.freedesktop.DBus.ListNames 2>&1 | head -1;
   gdbus introspect --system --dest org.freedesktop.PolicyKit1 \
     --object-path /org/freedesktop/PolicyKit1/Authority 2>&1 | head -1'
cases sandbox "${sandbox[@]}"
echo "@@NSC-TIME sandbox-done $(now)@@"
if [ $have_gui = 1 ]; then
  gui_cases sandbox-gui "${sandbox[@]}"
  echo "@@NSC-TIME sandbox-gui-done $(now)@@"
  kill "$xvfb_pid"
  wait "$xvfb_pid" 2>/dev/null
fi
kill "$proxy_pid" 2>/dev/null

# What the kernel said about the NVMe drives (QEMU's stalls: see vm-desktop.sh).
dmesg | grep -i 'nvme.*timeout\|nvme.*reset' | sed 's/^/@@NSC-DMESG@@ /'

# The daemons' own words about the cases.
section polkitd-log cat /tmp/polkitd.log
section udisksd-log cat /tmp/udisksd.log
umount /srv/data

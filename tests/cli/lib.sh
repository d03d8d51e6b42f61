# SPDX-License-Identifier: GPL-3.0-or-later
# Shared helpers of the command-line tests: each check prints "ok" or "FAIL" with
# the reason, and the script exits 1 when anything failed.
cli=${NANDSCOPE_CLI:?NANDSCOPE_CLI must name the nandscope-cli binary}
fails=0
checks=0

ok() { checks=$((checks + 1)); echo "ok - $*"; }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL - $*"; }

# expect_fail EXIT PATTERN ARGS…: the CLI exits with EXIT and one line on stderr matching PATTERN.
expect_fail() {
  local want=$1 pattern=$2 out rc lines
  shift 2
  out=$("$cli" "$@" 2>&1 >/dev/null)
  rc=$?
  lines=$(printf '%s\n' "$out" | grep -c .)
  if [ "$rc" -ne "$want" ]; then
    bad "$* exited $rc, expected $want: $out"
  elif ! printf '%s' "$out" | grep -qiE -- "$pattern"; then
    bad "$*: message “$out” does not say /$pattern/"
  elif [ "$lines" -ne 1 ]; then
    bad "$*: expected one line of error, got $lines: $out"
  else
    ok "$* → $rc: $out"
  fi
}

# json_get FILE PYTHON-EXPRESSION-ON-r
json_get() {
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# saved_cancelled FILE: FILE is a saved result marked cancelled.
saved_cancelled() { [ -f "$1" ] && [ "$(json_get "$1" 'r["cancelled"]')" = True ]; }

empty_dir() { [ -z "$(ls -A "$1")" ]; }

# Tests wait for the event they need (a run measuring, a holder holding), never a fixed
# delay: on a loaded machine or under a sanitizer any delay can be too short.
#
# wait_until PID SECONDS COMMAND…: runs COMMAND every 50 ms until it succeeds (0),
# the process PID has ended (1) or SECONDS have passed (2). waited_why says which, for
# the caller's FAIL line.
wait_until() {
  local pid=$1 limit=$2 end
  shift 2
  end=$(( $(date +%s%N) + limit * 1000000000 ))
  until "$@"; do
    kill -0 "$pid" 2>/dev/null || { waited_why="the process ended first"; return 1; }
    [ "$(date +%s%N)" -lt "$end" ] || { waited_why="not within $limit s"; return 2; }
    sleep 0.05
  done
  waited_why=
}

# io_bytes PID read|write: the bytes the process (all its threads) has read or written
# through the block layer so far; O_DIRECT I/O counts, and so does loading the program
# and its libraries (under 1 MiB here): tests take 4 MiB read as "measuring". Empty
# when it is gone.
io_bytes() { awk -v k="$2_bytes:" '$1 == k {print $2}' "/proc/$1/io" 2>/dev/null; }
# io_past PID read|write BYTES: it has read or written more than BYTES.
io_past() { local b; b=$(io_bytes "$1" "$2"); [ -n "$b" ] && [ "$b" -gt "$3" ]; }
# opened_in PID DIR: the process holds a file in DIR open (its test file, O_TMPFILE's
# "DIR/#123 (deleted)" included). A process that has only been forked, or has not yet
# reached its run, holds none: before that, its I/O counters say nothing of the run.
opened_in() { local l; for l in /proc/"$1"/fd/*; do case $(readlink "$l" 2>/dev/null) in "$2"/*) return 0 ;; esac; done; return 1; }
# holds PID FD PATH: the process has PATH open as descriptor FD.
holds() { [ "$(readlink "/proc/$1/fd/$2" 2>/dev/null)" = "$3" ]; }

finish() {
  echo "$((checks - fails)) passed, $fails failed"
  [ "$fails" -eq 0 ]
  exit $?
}

# throttle_group NAME DEVICE read|write BYTES_PER_S: makes a cgroup in which the
# kernel holds the reads or writes to the block DEVICE to BYTES_PER_S (cgroup v1's
# blkio throttle, or v2's io.max) and prints its path. Nothing printed (status 1) where
# this machine offers neither. The caller removes it (rmdir) once its processes ended.
throttle_group() {
  local name=$1 dev=$2 dir=$3 bps=$4 majmin cg
  majmin=$(cat "/sys/class/block/${dev#/dev/}/dev" 2>/dev/null) || return 1
  if [ -w /sys/fs/cgroup/blkio/blkio.throttle.${dir}_bps_device ]; then
    cg=/sys/fs/cgroup/blkio/$name
    mkdir "$cg" 2>/dev/null || return 1
    echo "$majmin $bps" > "$cg/blkio.throttle.${dir}_bps_device" 2>/dev/null || { rmdir "$cg"; return 1; }
  elif grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
    grep -qw io /sys/fs/cgroup/cgroup.subtree_control \
      || echo +io > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || return 1
    cg=/sys/fs/cgroup/$name
    mkdir "$cg" 2>/dev/null || return 1
    echo "$majmin ${dir:0:1}bps=$bps" > "$cg/io.max" 2>/dev/null || { rmdir "$cg"; return 1; }
  else
    return 1
  fi
  echo "$cg"
}

# in_group CG COMMAND…: runs COMMAND inside the cgroup CG from its first instruction
# (the shell joins, then becomes COMMAND), so every thread it makes is held too. Run
# in the background (a subshell), the subshell becomes COMMAND: $! is its process.
in_group() {
  local cg=$1 become=
  shift
  [ "$BASHPID" != "$$" ] && become=exec
  $become sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$cg" "$@"
}

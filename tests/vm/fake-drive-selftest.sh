#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The fake and faulty drive model (fake-drive.py, an nbdkit plugin) does what its header
# says, before any capacity check or probe is judged against it: no VM, nbdkit on a
# Unix socket and qemu-io reading and writing through it (`read -P` checks contents).
# Each drive is drawn from a seed the test prints (NSC_VM_SEED repeats them): a size of
# 4–32 GiB reported, a real capacity of 16–64 MiB (not a round number), a cache of 64
# KiB–4 MiB, flipped blocks, an EIO range and what reads of nothing return (0 or 0xff).
#   honest   everything written anywhere (the last block too) reads back, unwritten
#            blocks read as `fill`, the size is the one reported, and the model's memory
#            stays small (sparse) however large the drive says it is;
#   wrap     data written at off + k × real reads back at off (and at off + real), a
#            write across the real end lands at 0, the log names where it went;
#   cache    on a wrapping drive: a block overwritten through its alias still reads as
#            written while less than `cache` bytes of other blocks were written after
#            it, and as the alias's data once `cache` bytes were (the LRU's exact edge);
#   drop     data past real is served from the cache, then reads as `fill`; nothing
#            aliases; a write across the real end keeps its first half only; a rewrite
#            brings a block to the front of the cache;
#   mapped   `real` bytes written in eight places across the drive all read back, a
#            write to a new place is lost once they are (served from the cache first),
#            a rewrite of a mapped place is kept;
#   flip     listed and drawn blocks read back with exactly one bit changed, the bit the
#            log names, and right while the cache still holds them; their neighbours
#            are intact;
#   eio      reads touching the range fail (first block, last block, a read across its
#            start), the blocks beside it read back; writes in it are taken, or fail
#            with eio_writes=1 while writes beside it work.
# Exit 77 (skip) without nbdkit's Python plugin or qemu-io.
# The drawn numbers are set by eval, which shellcheck cannot follow:
# shellcheck disable=SC2154
set -u
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
command -v nbdkit >/dev/null || skip "nbdkit is missing (apt install nbdkit nbdkit-plugin-python)"
nbdkit python --version >/dev/null 2>&1 || skip "nbdkit's Python plugin is missing (apt install nbdkit-plugin-python)"
command -v qemu-io >/dev/null || skip "qemu-io is missing (apt install qemu-utils)"

seed=${NSC_VM_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "# seed $seed (NSC_VM_SEED=$seed repeats these drives)"

work=$(mktemp -d /tmp/nsc-fake-drive.XXXXXX)
pid=
stop() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=; fi
}
trap 'stop; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP

checks=0
fails=0
name=
ok() { checks=$((checks + 1)); echo "ok - $name: $*"; }
bad() {
  checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL - $name: $*"
  sed 's/^/#   qemu-io: /' "$work/out" | tail -4
  tail -6 "$work/$name.log" 2>/dev/null | sed 's/^/#   model: /'
}

# The drives: every number drawn from the seed (shell variables, set by eval).
eval "$(python3 - "$seed" <<'PY'
import random, sys
r = random.Random(int(sys.argv[1]))
K, M, G = 1 << 10, 1 << 20, 1 << 30
B = 4096
size = r.randrange(4 * G, 32 * G) // B * B
real = r.randrange(16 * M, 64 * M) // B * B
cache = r.randrange(64 * K, 4 * M) // B * B
fill = r.choice([0, 0xff])
a = r.randrange(16 * K, real // 4) // B * B           # a probe's place, below real/4
k = r.randrange(2, size // real)                       # a far alias of it
w = real // 2 // B * B                                 # writes that push the cache out
x = a + r.randrange(1, size // real) * real            # a place past real (aliases a)
flips = sorted(r.sample(range(1, size // B - 1), 3))
flips = ",".join(str(b * B + r.randrange(B)) for b in flips)
eio0 = r.randrange(real, size - 8 * M) // B * B
eio1 = eio0 + r.randrange(1, 256) * B
# Far from each other and from what pushes the cache out (below 64 MiB).
places = [0, size - B] + [r.randrange(i * size // 6 + 64 * M, (i + 1) * size // 6 - 64 * K) // B * B
                          for i in range(6)]
lens = [r.choice([B, 2 * B, 16 * K, 64 * K]) for _ in places]
lens[1] = B
chunk = real // 8 // B * B
slots = [r.randrange(i * size // 9, (i + 1) * size // 9 - real) // B * B for i in range(9)]
for name, v in dict(size=size, real=real, cache=cache, fill=fill, a=a, k=k, w=w, x=x,
                    flips=flips, eio0=eio0, eio1=eio1, chunk=chunk).items():
    print("%s=%s" % (name, v))
print("places=(%s)" % " ".join(map(str, places)))
print("lens=(%s)" % " ".join(map(str, lens)))
print("slots=(%s)" % " ".join(map(str, slots)))
PY
)" || { echo "FAIL - drawing the drives"; exit 1; }
fillhex=$(printf '0x%02x' "$fill")
echo "# size $size, real $real, cache $cache, fill $fillhex, probe at $a, eio $eio0-$eio1, flips $flips"

# start NAME PARAMS…: a drive of its own on a socket of its own.
start() {
  stop
  name=$1; shift
  sock=$work/$name.sock
  nbdkit --foreground --exit-with-parent --unix "$sock" python "$here/fake-drive.py" \
    "$@" seed="$seed" log="$work/$name.log" 2> "$work/$name.err" &
  pid=$!
  local i=0
  until [ -S "$sock" ] || [ $i -ge 100 ] || ! kill -0 "$pid" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
  if [ -S "$sock" ]; then
    echo "# $name: $*"
  else
    : > "$work/out"; bad "nbdkit did not start ($(tail -3 "$work/$name.err"))"; stop; return 1
  fi
}

# qio CMD…: one qemu-io connection running the commands; its output in $work/out.
qio() {
  local args=() c
  for c in "$@"; do args+=(-c "$c"); done
  qemu-io -f raw "nbd+unix:///?socket=$sock" "${args[@]}" > "$work/out" 2>&1
}
# writes CMD…: commands that must all succeed (a setup step).
writes() { if ! qio "$@" || grep -q 'failed' "$work/out"; then bad "setup: $*"; fi; }
# reads WHAT PATTERN OFF LEN: the bytes there all PATTERN.
reads() {
  if qio "read -P $2 $3 $4" && ! grep -q 'failed' "$work/out"; then ok "$1"; else bad "$1 (expected $2 at $3+$4)"; fi
}
# fails WHAT CMD: the command fails with EIO.
fails() {
  if ! qio "$2" && grep -q 'Input/output error' "$work/out"; then ok "$1"; else bad "$1 (expected EIO: $2)"; fi
}
# logged WHAT REGEX: a line of the model's log matches.
logged() {
  if grep -Eq "$2" "$work/$name.log"; then ok "$1"; else : > "$work/out"; bad "$1 (no log line matching $2)"; fi
}
# bitdiff OFF PATTERN: the bits of the 4 KiB block at OFF that differ from PATTERN, as
# "COUNT FIRSTBIT" (bits counted from the block's first byte's least significant bit).
bitdiff() {
  qio "read -v $1 4096" || { echo "error"; return; }
  python3 - "$2" "$work/out" <<'PY'
import sys
pattern = int(sys.argv[1], 0)
data = bytearray()
for line in open(sys.argv[2]):
    head, sep, rest = line.partition(":  ")
    if sep and all(c in "0123456789abcdef" for c in head):
        data += bytes(int(h, 16) for h in rest[:47].split())
bits = [i * 8 + j for i, v in enumerate(data) for j in range(8) if (v ^ pattern) >> j & 1]
print(len(data) == 4096 and "%d %d" % (len(bits), bits[0] if bits else -1) or "short %d" % len(data))
PY
}

# --- honest: everything kept, nothing allocated for what was not written
if start honest size="$size" cache="$cache" fill="$fillhex"; then
  if qemu-img info --output=json "nbd+unix:///?socket=$sock" 2>/dev/null | grep -q "\"virtual-size\": $size,"; then
    ok "reports $size bytes"; else : > "$work/out"; bad "does not report $size bytes"; fi
  cmds=()
  for i in "${!places[@]}"; do cmds+=("write -P $((i + 1)) ${places[$i]} ${lens[$i]}"); done
  writes "${cmds[@]}" "write -P 0x5a $w $((cache + 4096))"
  for i in "${!places[@]}"; do reads "${lens[$i]} bytes at ${places[$i]} kept" $((i + 1)) "${places[$i]}" "${lens[$i]}"; done
  reads "never written reads $fillhex" "$fillhex" $((places[2] + lens[2])) 4096
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
  if [ "${rss:-999999}" -lt 102400 ]; then ok "sparse: ${rss} KiB resident for $size bytes reported"
  else : > "$work/out"; bad "${rss} KiB resident"; fi
  if grep -Eq '^[WR] .* (wrap|drop|lost|flip|eio):' "$work/$name.log"; then
    : > "$work/out"; bad "the log names a fault on an honest drive"; else ok "the log names no fault"; fi
fi

# --- wrap, no cache: off + k × real reads back at off
if start wrap size="$size" real="$real" mode=wrap fill="$fillhex"; then
  writes "write -P 0x11 $a 8192" "write -P 0x22 $((a + real)) 8192"
  reads "a write at off + real read at off" 0x22 "$a" 8192
  reads "and at off + real" 0x22 $((a + real)) 8192
  logged "the log: written to off" "^W $((a + real)) 8192 [0-9.]+ wrap:$((a + real))\+8192>$a$"
  writes "write -P 0x33 $((a + k * real)) 4096"
  reads "a write at off + $k × real read at off" 0x33 "$a" 4096
  reads "the block after it still the first alias's" 0x22 $((a + 4096)) 4096
  writes "write -P 0x44 $((real - 4096)) 8192"
  reads "a write across the real end: its end at 0" 0x44 0 4096
  reads "and its start below real" 0x44 $((real - 4096)) 4096
  logged "the log: read from where it went" "^R $((a + real)) 8192 [0-9.]+ wrap:$((a + real))\+8192>$a$"
fi

# --- wrap with a cache: the last writes read right until more than `cache` bytes follow
if start cache size="$size" real="$real" mode=wrap cache="$cache" fill="$fillhex"; then
  writes "write -P 0x11 $a 4096" "write -P 0x22 $((a + real)) 4096"
  reads "overwritten through its alias, still read as written (cache)" 0x11 "$a" 4096
  logged "the log: served from the cache" "^R $a 4096 [0-9.]+ cache:$a\+4096$"
  writes "write -P 0x5a $w $((cache - 8192))"
  reads "still, $((cache - 4096)) bytes written after it" 0x11 "$a" 4096
  writes "write -P 0x5b $((w + cache - 4096)) 4096"
  reads "the alias's data once $cache bytes were" 0x22 "$a" 4096
  reads "the block at off + real, wrapped" 0x22 $((a + real)) 4096
fi

# --- drop: past real, served from the cache, then nothing
if start drop size="$size" real="$real" mode=drop cache="$cache" fill="$fillhex"; then
  writes "write -P 0x11 $a 4096" "write -P 0x22 $x 4096" "write -P 0x33 $((real - 4096)) 8192"
  reads "past real, right after the write (cache)" 0x22 "$x" 4096
  logged "the log: dropped" "^W $x 4096 [0-9.]+ drop:$x\+4096$"
  writes "write -P 0x5a $w $((cache + 4096))"
  reads "past real, once the cache is pushed out: $fillhex" "$fillhex" "$x" 4096
  logged "the log: nothing held" "^R $x 4096 [0-9.]+ fill:$x\+4096$"
  reads "nothing aliases: off keeps its data" 0x11 "$a" 4096
  reads "a write across the real end: its start kept" 0x33 $((real - 4096)) 4096
  reads "its end lost" "$fillhex" "$real" 4096
  reads "block 0 untouched" "$fillhex" 0 4096
  y=$((x + 8192))
  writes "write -P 0x24 $y 4096" "write -P 0x5c $((x + 65536)) $((cache - 8192))" \
    "write -P 0x25 $y 4096" "write -P 0x5d $((x + 65536 + cache)) 8192"
  reads "a rewrite moves its block to the front of the cache" 0x25 "$y" 4096
fi

# --- mapped: the first real bytes written are kept wherever they are, the rest lost
if start mapped size="$size" real="$real" mode=mapped cache="$cache" fill="$fillhex"; then
  last=$((real - 7 * chunk))
  cmds=()
  for i in 0 1 2 3 4 5 6 7; do
    len=$chunk; [ $i -eq 7 ] && len=$last
    cmds+=("write -P $((0x60 + i)) ${slots[$i]} $len")
  done
  writes "${cmds[@]}"
  for i in 0 1 2 3 4 5 6 7; do
    len=$chunk; [ $i -eq 7 ] && len=$last
    reads "written place $i of 8 kept ($((len / 1024)) KiB at ${slots[$i]})" $((0x60 + i)) "${slots[$i]}" "$len"
  done
  new=${slots[8]}
  writes "write -P 0x77 $new 65536"
  reads "a new place once real bytes are mapped, right after the write (cache)" 0x77 $((new + 61440)) 4096
  logged "the log: lost" "^W $new 65536 [0-9.]+ lost:$new\+65536$"
  writes "write -P 0x78 ${slots[0]} 4096" "write -P 0x5a $((new + 65536)) $((cache + 4096))"
  reads "the new place, once the cache is pushed out: $fillhex" "$fillhex" "$new" 65536
  reads "a rewrite of a mapped place kept" 0x78 "${slots[0]}" 4096
  reads "the rest of that place kept" 0x60 $((slots[0] + 4096)) $((chunk - 4096))
  reads "the last place kept" 0x67 "${slots[7]}" "$last"
fi

# --- flip: one bit per listed or drawn block, the one the log names; right from the cache
if start flip size="$size" cache="$cache" flip="$flips" flip_count=2 fill="$fillhex"; then
  n=$(grep -c '^# flip ' "$work/$name.log")
  if [ "$n" -eq 5 ]; then ok "5 blocks flipped (3 listed, 2 drawn)"; else : > "$work/out"; bad "$n blocks flipped, not 5"; fi
  # Where writes push the cache out: clear of every flipped block and its neighbour.
  push=$w
  while grep '^# flip ' "$work/$name.log" | awk -v p="$push" -v n=$((cache + 4096)) \
      '$3 + 8192 > p && $3 < p + n {hit = 1} END {exit !hit}'; do push=$((push + 64 * 1048576)); done
  while read -r _ _ off bit; do
    writes "write -P 0x3c $off 4096"
    reads "flipped block $off right from the cache" 0x3c "$off" 4096
    writes "write -P 0x5a $push $((cache + 4096))"
    got=$(bitdiff "$off" 0x3c)
    if [ "$got" = "1 $bit" ]; then ok "flipped block $off: one bit wrong, bit $bit"
    else bad "flipped block $off: '$got' (bits wrong, first), expected '1 $bit'"; fi
    if [ $((off + 4096)) -lt "$size" ] && ! grep -q "^# flip $((off + 4096)) " "$work/$name.log"; then
      writes "write -P 0x3d $((off + 4096)) 4096" "write -P 0x5a $push $((cache + 4096))"
      reads "the block after $off intact" 0x3d $((off + 4096)) 4096
    fi
  done < <(grep '^# flip ' "$work/$name.log")
  logged "the log: flipped" "^R [0-9]+ 4096 [0-9.]+ flip:[0-9]+\+4096$"
  for off in ${flips//,/ }; do
    if grep -q "^# flip $((off / 4096 * 4096)) " "$work/$name.log"; then ok "listed offset $off flips its block"
    else : > "$work/out"; bad "listed offset $off not among the flipped blocks"; fi
  done
fi

# --- eio: reads touching the range fail, the rest works; writes fail only if asked
if start eio size="$size" eio="$eio0-$eio1" fill="$fillhex"; then
  writes "write -P 0x21 $((eio0 - 4096)) 4096" "write -P 0x22 $eio1 4096"
  if qio "write -P 0x23 $eio0 4096" && ! grep -q 'failed' "$work/out"; then ok "a write in the range taken"
  else bad "a write in the range refused"; fi
  fails "the range's first block unreadable" "read $eio0 4096"
  fails "its last block unreadable" "read $((eio1 - 4096)) 4096"
  fails "a read across its start fails" "read $((eio0 - 4096)) 8192"
  reads "the block before it intact" 0x21 $((eio0 - 4096)) 4096
  reads "the block after it intact" 0x22 "$eio1" 4096
  logged "the log: eio" "^R $eio0 4096 [0-9.]+ eio:$eio0\+4096$"
fi
if start eio-writes size="$size" eio="$eio0-$eio1" eio_writes=1 fill="$fillhex"; then
  fails "with eio_writes=1 a write in the range fails" "write -P 0x23 $eio0 4096"
  writes "write -P 0x21 $((eio0 - 4096)) 4096"
  reads "a write beside it works" 0x21 $((eio0 - 4096)) 4096
  logged "the log: the write's eio" "^W $eio0 4096 [0-9.]+ eio:$eio0\+4096$"
fi

stop
echo "# $checks checks, $fails failed (seed $seed)"
[ "$fails" -eq 0 ]

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Bad input gets one clear line and a non-zero exit; nothing is left behind.
set -u
. "$(dirname "$0")/lib.sh"

work=$(mktemp -d "${G_TEST_BUILDDIR:-/tmp}/cli-errors-XXXXXX")
trap 'rm -rf "$work"' EXIT

expect_fail 2 "no target" run
expect_fail 2 "unknown option --bogus" run --target "$work" --bogus 1
expect_fail 2 "not a size" run --target "$work" --rw randread --bs 4q
expect_fail 2 "block size" run --target "$work" --rw randread --bs 0
expect_fail 2 "block size" run --target "$work" --rw randread --bs 1000
expect_fail 2 "from 1 to 1024" run --target "$work" --rw randread --qd 0
expect_fail 2 "from 1 to 1024" run --target "$work" --rw randread --qd 5000
expect_fail 2 "from 1 to 64" run --target "$work" --threads 65
expect_fail 2 "from 0 to 100" run --target "$work" --rw randrw --mix 101
expect_fail 2 "not an I/O pattern" run --target "$work" --rw sideways
expect_fail 2 "not a duration" run --target "$work" --time fast
expect_fail 2 "longer than zero" run --target "$work" --time 0s
expect_fail 2 "no preset" run --target "$work" --preset nope
expect_fail 2 "either --preset" run --target "$work" --preset quick --rw read
expect_fail 2 "needs a value" run --target "$work" --bs
expect_fail 2 "1 GiB of buffers" run --target "$work" --rw read --bs 64m --qd 64
expect_fail 2 "only for block devices" run --target "$work" --destroy-data="$work"
expect_fail 2 "unknown command" frobnicate
expect_fail 2 "not an I/O backend" run --target "$work" --backend magic
expect_fail 1 "does not exist" run --target "$work/no/such/place" --rw read --time 1s
expect_fail 1 "not enough free space" run --target "$work" --size 1000t --rw read --time 1s

echo "keep me" > "$work/precious"
expect_fail 1 "never overwrites" run --target "$work/precious" --rw write --time 1s
[ "$(cat "$work/precious")" = "keep me" ] && ok "an existing file is untouched" || bad "existing file changed"
ln -s "$work/precious" "$work/link"
expect_fail 1 "never overwrites" run --target "$work/link" --rw write --time 1s
ln -s "$work/nowhere" "$work/dangling"
expect_fail 1 "exists" run --target "$work/dangling" --rw write --time 1s
[ ! -e "$work/nowhere" ] && ok "a dangling symlink is not followed" || bad "a file appeared behind a dangling symlink"
[ "$(cat "$work/precious")" = "keep me" ] && ok "the file behind a symlink is untouched" || bad "symlinked file changed"
rm -f "$work/precious" "$work/link" "$work/dangling"

if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null; then
  locked=$(mktemp -d "$work/locked-XXXXXX")
  chmod 0755 "$work" "$locked"
  out=$(runuser -u nobody -- "$cli" run --target "$locked" --rw read --time 1s 2>&1 >/dev/null)
  rc=$?
  if [ $rc -eq 1 ] && printf '%s' "$out" | grep -qi "permission denied"; then
    ok "no permission: $out"
  else
    bad "no permission: exit $rc: $out"
  fi
  rmdir "$locked"
fi

"$cli" --help | grep -q "^Usage" && ok "--help" || bad "--help prints no usage"
"$cli" list-presets | grep -q "^quick" && ok "list-presets names quick" || bad "list-presets"
# A duration that only counts the clock's part says so: write-fill's 30 s pause is not
# its length; compressibility's timed writes are.
lp=$("$cli" list-presets)
grep -qE '^write-fill +30\.0 s \+ ' <<<"$lp" && grep -qE '^compressibility +1 min 00 s +device' <<<"$lp" \
  && ok "list-presets marks the durations the drive's speed adds to (+)" \
  || bad "list-presets durations: $(grep -E '^(write-fill|compressibility) ' <<<"$lp")"

# And a run that works, for contrast: result JSON written, nothing left behind.
if "$cli" run --target "$work" --rw randread --bs 4k --qd 4 --time 300ms --size 16m \
     --json "$work/r.json" --quiet >"$work/out.txt" 2>&1; then
  iops=$(json_get "$work/r.json" 'r["steps"][0]["read"]["iops"]')
  if python3 -c "import sys; sys.exit(0 if float('$iops') > 0 else 1)" \
     && grep -q "RND4K Q4T1" "$work/out.txt"; then
    ok "ad hoc run: $iops IOPS"
  else
    bad "ad hoc run result: iops=$iops, output: $(cat "$work/out.txt")"
  fi
  rm -f "$work/r.json" "$work/out.txt"
  empty_dir "$work" && ok "no file left after a run" || bad "left behind: $(ls -A "$work")"
else
  bad "ad hoc run failed: $(cat "$work/out.txt")"
fi

finish

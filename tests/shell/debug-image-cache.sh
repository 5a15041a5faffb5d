#!/usr/bin/env bash
# The cache of inflated debug images (LUPE_IMAGE_CACHE): script of a --call-graph dwarf file of a workload whose DWARF is in a zlib-compressed debug file writes the image once, reads it from the cache the next time (and sums it no more once found right), refuses a damaged (flipped byte, cut short) or linked cache file and inflates again, and the script stays byte-identical to one without a cache throughout
. "$(dirname "$0")/lib/common.sh"
need_sampling
[ -x "$WORKLOADS/deeprec" ] || fail "workloads not built"
command -v objcopy >/dev/null || skip "no objcopy to compress the workload's DWARF"
# the DWARF in a separate, compressed debug file (as Debian's): libdw reads a
# binary's own DWARF itself, a separate file's through lupe's image
cp "$WORKLOADS/deeprec" wl
objcopy --only-keep-debug --compress-debug-sections=zlib wl wl.debug || skip "objcopy cannot compress DWARF sections"
objcopy --strip-debug --add-gnu-debuglink=wl.debug wl || fail "objcopy --strip-debug failed"
# -N: wl has deeprec's build-id; in the build-id cache (~/.debug) the
# stripped copy would stand for deeprec in every later reader of that
# build-id (perf's script of deeprec then lost its inlined frames in
# unwind-max-stack). Versions of this test before -N left such an entry: it
# goes (only a link to a copy of this test's wl).
id=$(readelf -n "$WORKLOADS/deeprec" | awk '/Build ID/ { print $3 }')
if [ -n "$id" ] && [ -n "${HOME:-}" ]; then
	l=$HOME/.debug/.build-id/${id:0:2}/${id:2}
	case $(readlink "$l" 2>/dev/null) in
	*/lupe-test.*/wl/"$id") rm -rf "$(dirname "$l")/$(readlink "$l")" && rm -f "$l" ;;
	esac
fi
"$LUPE" record -N --call-graph dwarf --no-online -o d.data ./wl 20 >/dev/null 2>&1 ||
	fail "lupe record --call-graph dwarf exited $?"
report() { # OUT: the report with the workload's inlined frames and source lines; its debug log in OUT.err
	"$LUPE" --debug script -i d.data -F comm,ip,sym,srcline > "$1" 2> "$1.err" ||
		fail "lupe script exited $? ($(tail -1 "$1.err"))"
}
LUPE_IMAGE_CACHE= report none.txt
grep -q 'deeprec.c:[0-9]* (inlined)' none.txt || fail "the script shows no inlined frame of the workload: nothing to compare"
grep -q 'debug image' none.txt.err && fail "LUPE_IMAGE_CACHE set empty still used a cache: $(grep 'debug image' none.txt.err)"
export LUPE_IMAGE_CACHE=$TMPD/cache
same() { cmp -s none.txt "$1" || { diff none.txt "$1" | head; fail "$2: the report differs from the one without a cache"; }; }

report first.txt
same first.txt "first read"
grep -q "written to the cache" first.txt.err || fail "the first read wrote no image to the cache"
id=$(readelf -n wl | awk '/Build ID/ { print $3 }')
[ -n "$id" ] || fail "the workload has no build-id"
img=$(grep -o "$TMPD/cache/$id-[^ ]*" first.txt.err | head -1)
[ -f "$img" ] || fail "no cache file of the workload ($id) in: $(cat first.txt.err)"
report second.txt
same second.txt "second read"
grep -q "$img from the cache" second.txt.err || fail "the second read did not take $img from the cache: $(cat second.txt.err)"
grep -q "written to the cache" second.txt.err && fail "the second read inflated again"
# the second read summed the image and marked it (user.lupe.checked); the
# third does not sum it again, where the file system keeps such attributes
grep -q "(checked before)" second.txt.err && fail "the second read took an image never summed as checked"
report third.txt
same third.txt "third read"
if python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.lupe.test", b"1")' "$img" 2>/dev/null; then
	grep -q "$img from the cache (checked before)" third.txt.err ||
		fail "the third read summed the image again: $(grep 'debug image' third.txt.err)"
else
	echo "note: $TMPD keeps no user extended attributes: every read sums the image"
fi

# damaged: a byte in the middle flipped, then the file cut short by one byte
size=$(stat -c %s "$img")
printf '\xa5' | dd of="$img" bs=1 seek=$((size / 2)) conv=notrunc status=none
report flipped.txt
same flipped.txt "a flipped byte in the cache file"
grep -q "$img is damaged" flipped.txt.err || fail "a flipped byte was not noticed: $(cat flipped.txt.err)"
grep -q "$img written to the cache" flipped.txt.err || fail "the damaged image was not written anew"
[ "$(stat -c %s "$img")" = "$size" ] || fail "the rewritten image has another size"
truncate -s $((size - 1)) "$img"
report cut.txt
same cut.txt "a cache file cut short"
grep -q "$img is damaged" cut.txt.err || fail "a cut cache file was not noticed: $(cat cut.txt.err)"
report again.txt
grep -q "$img from the cache" again.txt.err || fail "the image written after the damage is not used"

# a link at the cache's name is neither read nor written through
echo keep > target
rm -f "$img"
ln -s "$TMPD/target" "$img"
report link.txt
same link.txt "a link at the cache file's name"
[ -L "$img" ] && [ "$(cat target)" = keep ] || fail "the link at $img or its target was changed"
grep -q "$img from the cache" link.txt.err && fail "the image was read through a link"
ok "debug images come from the cache on the second read; a damaged or linked cache file is refused; reports identical"

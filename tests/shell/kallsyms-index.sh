#!/usr/bin/env bash
# The kallsyms index cache (LUPE_KALLSYMS_CACHE): report of a system-wide recording, whose kernel symbols come from the recorded kallsyms copy, writes the index once, reads it the next time, refuses a damaged (flipped byte, cut short), an inconsistent (a name outside the text, with a right checksum) or linked index and parses again, and the report stays byte-identical to one without the cache throughout
. "$(dirname "$0")/lib/common.sh"
need_sampling
export HOME=$TMPD/home
mkdir -p "$HOME"
"$LUPE" record -a -o k.data -- sleep 0.3 >/dev/null 2>&1 || fail "lupe record -a exited $?"
if ! ls "$HOME"/.debug/\[kernel.kallsyms\]/*/kallsyms >/dev/null 2>&1; then
	# only a kallsyms of hidden addresses (kptr_restrict) is a reason not to keep a copy
	awk '$1 !~ /^0+$/ { found = 1; exit } END { exit !found }' /proc/kallsyms ||
		skip "/proc/kallsyms hides the kernel's addresses (kptr_restrict): record keeps no copy"
	fail "lupe record -a kept no kallsyms copy in $HOME/.debug"
fi
report() { # OUT: the kernel symbols of the report; the debug log in OUT.err
	"$LUPE" --debug report -i k.data --stdio --sort dso,sym > "$1" 2> "$1.err" ||
		fail "lupe report exited $? ($(tail -1 "$1.err"))"
}
LUPE_KALLSYMS_CACHE= report none.txt
grep -q '\[k\] ' none.txt || fail "the report shows no kernel symbol: nothing to compare"
grep -q 'kallsyms index' none.txt.err && fail "LUPE_KALLSYMS_CACHE set empty still used a cache"
export LUPE_KALLSYMS_CACHE=$TMPD/cache
same() { cmp -s none.txt "$1" || { diff none.txt "$1" | head; fail "$2: the report differs from the one without the cache"; }; }

report first.txt
same first.txt "first read"
idx=$(grep -o "$TMPD/cache/[0-9a-f-]*" first.txt.err | head -1)
grep -q "$idx written to the cache" first.txt.err || fail "the first read wrote no index: $(grep kallsyms first.txt.err)"
[ "$(stat -c %a "$idx")" = 600 ] || fail "the index is mode $(stat -c %a "$idx"), not 0600"
report second.txt
same second.txt "second read"
grep -q "$idx from the cache" second.txt.err || fail "the second read did not take the index: $(grep kallsyms second.txt.err)"
grep -q "written to the cache" second.txt.err && fail "the second read parsed again"
ok "the index is written once and read the next time; the reports are identical"

# damaged: a byte flipped in the middle, then the file cut short
size=$(stat -c %s "$idx")
printf '\xa5' | dd of="$idx" bs=1 seek=$((size / 2)) conv=notrunc status=none
report flipped.txt
same flipped.txt "a flipped byte in the index"
grep -q "$idx is damaged" flipped.txt.err || fail "a flipped byte was not noticed: $(grep kallsyms flipped.txt.err)"
grep -q "$idx written to the cache" flipped.txt.err || fail "the damaged index was not written anew"
truncate -s $((size - 1)) "$idx"
report cut.txt
same cut.txt "an index cut short"
grep -q "$idx is damaged" cut.txt.err || fail "a cut index was not noticed"

# inconsistent with a right checksum: the first name's offset past the text
python3 - "$idx" <<'PY' || fail "could not plant a bad name offset"
import struct, sys
p = sys.argv[1]
d = bytearray(open(p, "rb").read())
head, body = d[:32], d[32:]
base, nr, nr_exc, text = struct.unpack_from("<4Q", body, 0)
name0 = 32 + nr_exc * 16 + nr * 4
struct.pack_into("<I", body, name0, text + 1)
M = (1 << 64) - 1
def fnv(h, b):
    for c in b:
        h = ((h ^ c) * 0x100000001b3) & M
    return h
h, i = 0x9e3779b97f4a7c15, 0
while i + 8 <= len(body):
    h = ((h ^ struct.unpack_from("<Q", body, i)[0]) * 0x100000001b3) & M
    h ^= h >> 29
    i += 8
struct.pack_into("<Q", head, 24, fnv(h, body[i:]))
open(p, "wb").write(head + body)
PY
report odd.txt
same odd.txt "an index naming past its text"
grep -q "does not hold together" odd.txt.err || fail "a name outside the text was not noticed: $(grep kallsyms odd.txt.err)"
grep -q "$idx from the cache" odd.txt.err || fail "the planted index was not read (its checksum is wrong: the check above proves nothing)"
ok "a damaged or inconsistent index is refused and written anew"

# a link at the index's name is neither read nor written through
echo keep > target
rm -f "$idx"
ln -s "$TMPD/target" "$idx"
report link.txt
same link.txt "a link at the index's name"
[ -L "$idx" ] && [ "$(cat target)" = keep ] || fail "the link at $idx or its target was changed"
grep -q "$idx from the cache" link.txt.err && fail "the index was read through a link"
ok "a link at the index's name is left alone"

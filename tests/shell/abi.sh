#!/usr/bin/env bash
# liblupe.so's ABI (exported symbols, layouts of the types lib/include/lupe defines) equals the baseline abi/liblupe.abi (abidiff), and a public struct grown by a field in a copy of it fails the comparison
. "$(dirname "$0")/lib/common.sh"
command -v abidw >/dev/null && command -v abidiff >/dev/null ||
	skip "no abidw/abidiff (apt-get install abigail-tools, or scripts/bootstrap)"
so=$LUPE_BUILD/liblupe.so
base=$LUPE_SRC/abi/liblupe.abi
[ -f "$so" ] || fail "no shared library at $so"
[ -f "$base" ] || fail "no ABI baseline at $base (scripts/abi-update makes it)"
# the types come from DWARF: a build without -g would compare symbols only
readelf -S "$so" | grep -q '\.debug_info' ||
	fail "$so has no DWARF: build it as scripts/test does (RelWithDebInfo), or the layouts go unchecked"

# the opaque types (declared, not defined, in lib/include/lupe) are private: their layout may change
for t in $(cat "$LUPE_SRC"/lib/include/lupe/*.h | sed -n 's/^struct \(lupe_[a-z_0-9]*\);.*/\1/p' | sort -u); do
	grep -q "^struct $t {" "$LUPE_SRC"/lib/include/lupe/*.h ||
		printf '[suppress_type]\n  type_kind = struct\n  name = %s\n' "$t"
done >opaque.supp
grep -q 'name = lupe_evlist$' opaque.supp || fail "lupe_evlist is not among the opaque types: $(grep name opaque.supp)"

"$LUPE_SRC/scripts/abi-dump" "$so" >now.abi || fail "abidw failed on $so"
compare() { abidiff --suppressions opaque.supp "$1" "$2" >diff.txt 2>&1; }
if ! compare "$base" now.abi; then
	cat diff.txt
	fail "liblupe.so's ABI differs from abi/liblupe.abi (above): if the change is meant, run scripts/abi-update and commit abi/liblupe.abi with it"
fi
ok "liblupe.so's ABI equals abi/liblupe.abi ($(grep -c '<elf-symbol ' now.abi) symbols)"

# abidiff (2.2) let a public struct shrink unreported when it holds a
# pointer to an opaque one (lupe_frame lost two members and 16 bytes):
# the size of every struct lib/include/lupe defines is compared too
public=$(cat "$LUPE_SRC"/lib/include/lupe/*.h | sed -n 's/^struct \(lupe_[a-z_0-9]*\) {.*/\1/p' | sort -u)
sizes() { # ABI-FILE: "name bits" of each public struct
	local t
	for t in $public; do
		sed -n "s/.*<class-decl name='$t' size-in-bits='\([0-9]*\)'.*/$t \1/p" "$1" | sort -u
	done
}
sizes "$base" >base.sizes
sizes now.abi >now.sizes
[ "$(grep -c . now.sizes)" -ge 20 ] || fail "only $(grep -c . now.sizes) public struct sizes found in the ABI dump"
diff base.sizes now.sizes || fail "a public struct's size differs from abi/liblupe.abi (above): if the change is meant, run scripts/abi-update and commit abi/liblupe.abi with it"
bits=$(sed -n "s/.*<class-decl name='lupe_frame' size-in-bits='\([0-9]*\)'.*/\1/p" now.abi | head -1)
[ -n "$bits" ] || fail "no lupe_frame in the ABI dump to plant a size change in"
sed "0,/<class-decl name='lupe_frame' size-in-bits='[0-9]*'/s//<class-decl name='lupe_frame' size-in-bits='$((bits + 64))'/" now.abi >shrunk.abi
sizes shrunk.abi >shrunk.sizes
cmp -s now.sizes shrunk.sizes && fail "a changed size of lupe_frame went unnoticed by the size comparison"
ok "the sizes of $(grep -c . now.sizes) public structs equal the baseline's; a changed one is caught"

# planted: lupe_flame_opts (a public struct) grows by one field; the comparison must fail and name it
command -v python3 >/dev/null || fail "python3 is needed to plant the change (scripts/bootstrap installs it)"
python3 - now.abi planted.abi <<'PY' || fail "could not plant a field in lupe_flame_opts"
import re, sys
s = open(sys.argv[1]).read()
m = re.search(r"(<class-decl name='lupe_flame_opts' size-in-bits=')(\d+)('[^>]*>)(.*?)(\s*</class-decl>)", s, re.S)
size = int(m.group(2))
last = re.findall(r"<data-member access='public' layout-offset-in-bits='\d+'>\s*<var-decl name='\w+' type-id='([\w-]+)'", m.group(4))[0]
added = ("\n      <data-member access='public' layout-offset-in-bits='%d'>\n"
         "        <var-decl name='planted' type-id='%s' visibility='default'/>\n      </data-member>" % (size, last))
s = s[:m.start()] + m.group(1) + str(size + 64) + m.group(3) + m.group(4) + added + m.group(5) + s[m.end():]
open(sys.argv[2], "w").write(s)
PY
compare now.abi planted.abi && fail "a field added to lupe_flame_opts went unnoticed"
grep -q 'lupe_flame_opts' diff.txt || fail "the planted change was found but not named: $(cat diff.txt)"
grep -q 'planted' diff.txt || fail "the report does not name the added field: $(cat diff.txt)"
# and a change to an opaque type's layout is not an ABI change
sed "0,/<class-decl name='lupe_evlist' size-in-bits='[0-9]*'/s//<class-decl name='lupe_evlist' size-in-bits='8'/" now.abi >private.abi
cmp -s now.abi private.abi && fail "could not plant a change in lupe_evlist"
compare now.abi private.abi || { cat diff.txt; fail "a change of the opaque lupe_evlist was reported as an ABI change"; }
ok "a field added to lupe_flame_opts fails the comparison; lupe_evlist's private layout does not"

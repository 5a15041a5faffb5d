#!/usr/bin/env bash
# buildid-cache -a/-l/-r/-p/-P and buildid-list -i/-H/-k make the same cache layout and print the same lines as perf, in --buildid-dir, perf's config buildid.dir, and what record fills
. "$(dirname "$0")/lib/common.sh"
need_perf
command -v cc >/dev/null || skip "no C compiler to build the test binaries"
echo 'int main(void) { return 0; }' | cc -Wl,--build-id=sha1 -o ex1 -x c - || fail "cc failed"
echo 'int f(void) { return 1; } int main(void) { return f(); }' | cc -Wl,--build-id=md5 -o ex2 -x c - || fail "cc failed"
# layout: what each tool leaves in a fresh cache (links, folders, elf files)
layout() { (cd "$1" && find . \( -type l -printf '%p -> %l\n' \) -o \( -name elf -printf '%p %s\n' \) | sort); }
for t in PERF LUPE; do
	"${!t}" --buildid-dir "$PWD/c-$t" buildid-cache -v -a ex1,"$PWD/ex2" 2> add-$t.err || fail "$t buildid-cache -a failed: $(cat add-$t.err)"
	"${!t}" --buildid-dir "$PWD/c-$t" buildid-cache -l > list-$t
done
[ -s list-PERF ] || fail "perf listed nothing"
diff list-PERF list-LUPE || fail "buildid-cache -l differs"
diff <(layout c-PERF) <(layout c-LUPE) || fail "cache layouts differ"
diff <(grep Adding add-PERF.err) add-LUPE.err || fail "-v messages differ"
# each tool reads the other's cache
diff <("$PERF" --buildid-dir "$PWD/c-LUPE" buildid-cache -l) list-PERF || fail "perf does not list lupe's cache"
# remove and purge
for t in PERF LUPE; do
	"${!t}" --buildid-dir "$PWD/c-$t" buildid-cache -r ex1 2>/dev/null
	"${!t}" --buildid-dir "$PWD/c-$t" buildid-cache -l > rm-$t
	"${!t}" --buildid-dir "$PWD/c-$t" buildid-cache -P 2>/dev/null
	"${!t}" --buildid-dir "$PWD/c-$t" buildid-cache -l > purged-$t
done
diff rm-PERF rm-LUPE || fail "after -r the lists differ"
[ "$(wc -l < rm-LUPE)" = 1 ] || fail "-r left $(wc -l < rm-LUPE) entries, want 1"
[ ! -s purged-LUPE ] || fail "-P left: $(cat purged-LUPE)"
# perf's config key buildid.dir, through PERF_CONFIG
printf '[buildid]\n\tdir = %s\n' "$PWD/c-cfg" > perfconfig
PERF_CONFIG=$PWD/perfconfig "$LUPE" buildid-cache -a ex1 || fail "add with PERF_CONFIG"
PERF_CONFIG=$PWD/perfconfig "$PERF" buildid-cache -l | grep -q "$(readelf -n ex1 | awk '/Build ID/ {print $3}')" ||
	fail "lupe did not add into perf's configured buildid.dir"
expect_rc 1 "$LUPE" --buildid-dir "$PWD/c-x" buildid-cache -a /etc/passwd 2>/dev/null
expect_rc 129 "$LUPE" buildid-cache 2>/dev/null

# buildid-list on a perf and a lupe recording
"$PERF" record -q -o perf.data -- "$WORKLOADS/demo" -n 30 >/dev/null 2>&1 || skip "perf record failed"
"$LUPE" --buildid-dir "$PWD/c-rec" record -q -o lupe.data -- "$WORKLOADS/demo" -n 30 >/dev/null 2>&1 || fail "lupe record failed"
for f in perf.data lupe.data; do
	for o in "" -H; do
		"$PERF" buildid-list -i $f $o > want 2>/dev/null
		"$LUPE" buildid-list -i $f $o > got || fail "lupe buildid-list -i $f $o failed"
		[ -s want ] || fail "perf buildid-list -i $f $o printed nothing"
		diff want got || fail "buildid-list -i $f $o differs"
	done
done
diff <("$PERF" buildid-list -k) <("$LUPE" buildid-list -k) || fail "buildid-list -k differs"
# record put the demo binary (hit) in the cache it was given; -N puts nothing
id=$(readelf -n "$WORKLOADS/demo" | awk '/Build ID/ {print $3}')
[ -f "c-rec/.build-id/${id:0:2}/${id:2}/elf" ] || fail "lupe record did not cache $WORKLOADS/demo ($id)"
"$LUPE" --buildid-dir "$PWD/c-norec" record -N -q -o n.data -- "$WORKLOADS/demo" -n 5 >/dev/null 2>&1
[ ! -e c-norec/.build-id ] || fail "record -N filled the cache"
ok "buildid-cache and buildid-list print what perf prints; record fills the cache"

#!/usr/bin/env bash
# a configure without libdw's pkg-config file stops with the apt-get line; -DLUPE_WITH_LIBDW=OFF configures, and says OFF
. "$(dirname "$0")/lib/common.sh"
command -v cmake >/dev/null && command -v pkg-config >/dev/null || skip "no cmake or pkg-config"
pkg-config --exists libdw || skip "libdw is not installed here either"
# A pkg-config that knows every installed library but libdw: a machine without libdw-dev.
mkdir pc
IFS=: read -ra dirs <<< "$(pkg-config --variable pc_path pkg-config)"
for d in "${dirs[@]}"; do
	for f in "$d"/*.pc; do
		[ -e "$f" ] && [ ! -e "pc/${f##*/}" ] && ln -s "$f" pc/
	done
done
rm -f pc/libdw.pc
export PKG_CONFIG_LIBDIR=$TMPD/pc PKG_CONFIG_PATH=
out=$(cmake -S "$LUPE_SRC" -B b1 2>&1); rc=$?
[ $rc -ne 0 ] || fail "configure without libdw succeeded: $(echo "$out" | tail -3)"
echo "$out" | grep -q "apt-get install libdw-dev" || fail "no install line in: $out"
echo "$out" | grep -q -- "-DLUPE_WITH_LIBDW=OFF" || fail "no way to turn it off in: $out"
echo "  without libdw: $(echo "$out" | grep -m1 'apt-get install')"
out=$(cmake -S "$LUPE_SRC" -B b2 -DLUPE_WITH_LIBDW=OFF 2>&1) || fail "configure with LUPE_WITH_LIBDW=OFF failed: $out"
grep -q 'LUPE_HAVE_LIBDW:INTERNAL=OFF\|LUPE_WITH_LIBDW:BOOL=OFF' b2/CMakeCache.txt || fail "libdw not off in the cache"
# the lupe under test says what it was built with (a required library is on unless turned off)
for dep in LIBELF LIBDW ZSTD; do
	want=on
	grep -q "LUPE_WITH_$dep:BOOL=ON" "$LUPE_BUILD/CMakeCache.txt" 2>/dev/null || want=OFF
	"$LUPE" version --build-options | grep -q "\[ $want *\]  # LUPE_WITH_$dep:" ||
		fail "version --build-options does not say $dep is $want"
done
ok "a missing required library stops the configure"

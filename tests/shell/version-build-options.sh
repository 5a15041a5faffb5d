#!/usr/bin/env bash
# lupe version --build-options prints perf's layout (name right-aligned to 22, "[ on  ]"/"[ OFF ]", "  # "), so the greps perf's tests use read it as they read perf's
. "$(dirname "$0")/lib/common.sh"
need_perf
shape='^ *[A-Za-z0-9_-]+: \[ (on |OFF) \]  # [A-Z]'
"$PERF" version --build-options | tail -n +2 > perf.opts
"$LUPE" version --build-options > lupe.all || fail "lupe version --build-options failed"
head -1 lupe.all | grep -Eq '^lupe version [0-9]+\.[0-9]+' || fail "first line: $(head -1 lupe.all)"
tail -n +2 lupe.all > lupe.opts
[ -s lupe.opts ] || fail "no build options listed"
grep -Evq "$shape" perf.opts && fail "the shape does not fit perf's own lines"
grep -Ev "$shape" lupe.opts && fail "lines in another shape than perf's"
# the colon sits in the same column as perf's
[ "$(awk -F: '{print length($1)}' perf.opts | sort -u)" = "$(awk -F: '{print length($1)}' lupe.opts | sort -u)" ] ||
	fail "names are not right-aligned as perf's"
# buildid.sh's probe: libbfd is not built in, for lupe as for this perf
"$LUPE" version --build-options | grep -q 'libbfd: .* on ' && fail "lupe claims libbfd"
# a library built in says on, as the dependency check found it
want=on
grep -qs 'LUPE_WITH_LIBELF:BOOL=OFF' "$LUPE_BUILD/CMakeCache.txt" && want=OFF
grep -Eq "libelf: \[ $want" lupe.opts || fail "libelf is not $want: $(grep libelf lupe.opts)"
ok "version --build-options in perf's layout"

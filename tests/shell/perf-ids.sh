#!/usr/bin/env bash
# perf.data's record types and feature ids are defined only in lupe/perf-format.h and lib/data, and cmd/ and ui/ use no bare feature number (scripts/check-perf-ids); planted faults are caught
. "$(dirname "$0")/lib/common.sh"
check=$LUPE_SRC/scripts/check-perf-ids
out=$("$check" "$LUPE_SRC" 2>&1) || fail "a perf id is defined or written bare outside its home: $out"
ok "no perf record type or feature id outside lupe/perf-format.h and lib/data"

# the check must catch each kind of fault, in a copy of the tree
mkdir tree
cp -r "$LUPE_SRC/cmd" "$LUPE_SRC/ui" "$LUPE_SRC/lib" tree/
echo '#define HEADER_BUILD_ID 2' >> tree/cmd/evlist.c
echo 'enum { REC_ATTR = 64, REC_EVENT_TYPE };' >> tree/ui/dump.c
echo 'static const int x = lupe_perf_file_feature(f, 21, &size) != 0;' >> tree/cmd/script.c
echo 'static int y(const struct perf_event_header *ev) { return ev->type == 68; }' >> tree/lib/session/session.c
# lib/data is a home: the same lines there are no fault
echo 'enum { REC_ATTR = 64 };' >> tree/lib/data/reader.c
echo 'static int y(const struct perf_event_header *ev) { return ev->type == 68; }' >> tree/lib/data/writer.c
out=$("$check" tree 2>&1) && fail "planted perf ids went unnoticed"
echo "$out" | grep -q '^cmd/evlist.c:[0-9]*: defines a perf record type or feature id' || fail "#define HEADER_BUILD_ID in cmd/ not reported: $out"
echo "$out" | grep -q '^ui/dump.c:[0-9]*: names a perf record type or feature id again' || fail "REC_ATTR = 64 in ui/ not reported: $out"
echo "$out" | grep -q '^cmd/script.c:[0-9]*: a bare feature number' || fail "feature 21 in cmd/ not reported: $out"
echo "$out" | grep -q '^lib/session/session.c:[0-9]*: a bare record type number' || fail "type == 68 in lib/session not reported: $out"
echo "$out" | grep -q '^lib/data/' && fail "lib/data, a home of the ids, reported: $out"
[ "$(echo "$out" | cut -d: -f1-2 | sort -u | wc -l)" -eq 4 ] || fail "expected the 4 planted lines, got: $out"
ok "the 4 planted faults are named, and none in lib/data"

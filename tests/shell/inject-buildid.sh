#!/usr/bin/env bash
# lupe inject -b writes the HEADER_BUILD_ID records perf inject -b writes (file to file, stdin to file, to stdout), buildid-list reads the same, and perf report reads the output
. "$(dirname "$0")/lib/common.sh"
need_perf
"$PERF" record -q -g -o in.data -- "$WORKLOADS/demo" -n 60 >/dev/null 2>&1 || skip "perf record failed"
"$PERF" record -q -o - -- "$WORKLOADS/demo" -n 30 2>/dev/null > in.pipe || skip "perf record -o - failed"
# the BUILD_ID records as perf report -D shows them: raw bytes, in order
bid_records() { "$PERF" report -D -i "$1" 2>/dev/null | awk '/: event: 67$/ {on=1; next} on && /^\.  [0-9a-f]{4}:/ {print; next} on && /PERF_RECORD_BUILD_ID/ {print "--"; on=0}'; }
"$PERF" inject -b -i in.data -o perf.out 2>/dev/null || fail "perf inject -b failed"
"$LUPE" inject -b -i in.data -o lupe.out 2>/dev/null || fail "lupe inject -b -i in.data -o lupe.out failed"
bid_records perf.out > want
bid_records lupe.out > got
[ -s want ] || fail "perf injected no BUILD_ID record"
diff want got || fail "the injected BUILD_ID records differ"
diff <("$PERF" buildid-list -i perf.out) <("$LUPE" buildid-list -i lupe.out) || fail "buildid-list of the outputs differs"
diff <("$PERF" buildid-list -i perf.out) <("$PERF" buildid-list -i lupe.out) || fail "perf buildid-list reads lupe's output differently"
"$PERF" report --stdio -i lupe.out > rep.lupe 2>rep.err || fail "perf report -i lupe.out failed: $(cat rep.err)"
"$PERF" report --stdio -i perf.out > rep.perf 2>/dev/null
diff <(grep -v '^#' rep.perf) <(grep -v '^#' rep.lupe) || fail "perf report differs on the injected files"
# the samples stay what they were
cmp -s <("$PERF" script -i in.data 2>/dev/null) <("$PERF" script -i lupe.out 2>/dev/null) || fail "inject -b changed the samples"
# a stream on stdin: the same records, in a file that names the DSOs hit
"$PERF" inject -b -i - -o perf.pout < in.pipe 2>/dev/null
"$LUPE" inject -b -i - -o lupe.pout < in.pipe 2>/dev/null || fail "lupe inject -b -i - failed"
"$PERF" report -D -i perf.pout 2>/dev/null | grep -c 'PERF_RECORD_BUILD_ID$' > n.perf
"$PERF" report -D -i lupe.pout 2>/dev/null | grep -c 'PERF_RECORD_BUILD_ID$' > n.lupe
# perf reads no build-id for a stream's kernel; lupe gives the running kernel's
diff <("$PERF" buildid-list -i perf.pout | grep -v kernel.kallsyms | sort) \
     <("$LUPE" buildid-list -i lupe.pout | grep -v kernel.kallsyms | sort) || fail "buildid-list of the stream injections differs"
[ "$(cat n.lupe)" -ge 2 ] || fail "lupe injected $(cat n.lupe) records into the stream copy"
# to stdout: a stream perf reads (perf 6.1's own lacks its header)
"$LUPE" inject -b -i in.data | "$PERF" script -i - > s.pipe 2>/dev/null
cmp -s s.pipe <("$PERF" script -i in.data 2>/dev/null) || fail "perf script -i - differs on lupe inject -b's stream"
"$LUPE" inject -b -i in.data | "$LUPE" buildid-list -i - > bl.pipe
diff <("$PERF" buildid-list -H -i in.data | sort) <(sort bl.pipe) || fail "buildid-list -i - of the injected stream"
ok "inject -b: the records, buildid-list and perf report match perf's"

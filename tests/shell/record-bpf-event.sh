#!/usr/bin/env bash
# lupe record writes perf's KSYMBOL and BPF_EVENT records for the BPF programs already loaded (names bpf_prog_<tag>_<func>, subprograms too) and sets ksymbol/bpf_event on its tracking event; --no-bpf-event writes none
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
if "$LUPE" trace -o /dev/null -- true 2>&1 | grep -q "strings and buffers are not shown"; then
	skip "no BPF capture in this build: lupe trace loads no programs to list"
fi
# bpf FILE: the KSYMBOL and BPF_EVENT records of FILE as perf dumps them, offsets cut
bpf() { "$PERF" report -D -i "$1" 2>/dev/null | grep -E 'PERF_RECORD_(KSYMBOL|BPF_EVENT) ' | sed -E 's/^[0-9]+ 0x[0-9a-f]+ \[0x[0-9a-f]+\]//'; }

# lupe trace's syscall capture: programs that stay loaded while it runs
"$LUPE" trace -o /dev/null -- sleep 60 >/dev/null 2>&1 &
for i in $(seq 40); do
	"$PERF" record -q -o p.data -- true 2>/dev/null || fail "perf record failed"
	bpf p.data | grep -q _sys_enter && break
	sleep 0.5
done
bpf p.data | grep -q _sys_enter || fail "perf wrote no KSYMBOL of lupe trace's sys_enter program after 20 s"

# programs of other tools may come and go: compare when perf gives the same list twice
same=0
for t in 1 2 3 4 5; do
	"$PERF" record -q -o p.data -- true 2>/dev/null
	"$LUPE" record -q -o l.data -- true || fail "lupe record failed"
	"$PERF" record -q -o p2.data -- true 2>/dev/null
	bpf p.data > want; bpf p2.data > want2; bpf l.data > got
	cmp -s want want2 || continue
	diff want got || fail "lupe's BPF program records differ from perf's"
	same=1
	break
done
[ $same = 1 ] || fail "perf's list of BPF programs changed in each of 5 tries"
n=$(grep -c 'PERF_RECORD_KSYMBOL .*type 1 .*name bpf_prog_[0-9a-f]\{16\}_' got)
[ "$n" -ge 2 ] || fail "only $n KSYMBOL records of BPF programs"
grep -q 'PERF_RECORD_BPF_EVENT type 1,' got || fail "no BPF_EVENT PROG_LOAD"
# lupe's own dump prints them as perf's does
diff got <("$LUPE" report -D -i l.data 2>/dev/null | grep -E 'PERF_RECORD_(KSYMBOL|BPF_EVENT) ' | sed -E 's/^[0-9]+ 0x[0-9a-f]+ \[0x[0-9a-f]+\]//') ||
	fail "lupe report -D prints the BPF records unlike perf's dump"
# the tracking event asks the kernel for programs loaded while recording
"$PERF" evlist -v -i l.data 2>/dev/null | grep -q 'ksymbol: 1, bpf_event: 1' ||
	fail "lupe's tracking event has no ksymbol/bpf_event: $("$PERF" evlist -v -i l.data 2>&1)"
"$PERF" script -i l.data >/dev/null 2>err || fail "perf script -i l.data failed"
[ ! -s err ] || fail "perf script warns on l.data: $(cat err)"

# --no-bpf-event: none, and the comparison above would have caught that
"$LUPE" record -q --no-bpf-event -o n.data -- true || fail "lupe record --no-bpf-event failed"
[ -z "$(bpf n.data)" ] || fail "--no-bpf-event still wrote: $(bpf n.data | head -2)"
"$PERF" evlist -v -i n.data 2>/dev/null | grep -q 'bpf_event: 1' && fail "--no-bpf-event still sets bpf_event"
! diff -q want <(bpf n.data) >/dev/null || fail "planted: an empty list compares equal to perf's"
ok "$n KSYMBOL records of BPF programs, as perf writes them; none with --no-bpf-event"

#!/usr/bin/env bash
# lupe script's options print what perf script prints on the same perf.data: -F +f/-f, type: and iregs/uregs, addr (page faults: data symbols, [stack], //anon), --pid/--tid/--comms/--cpu/--time (percent too), --show-*-events (task, mmap, switch, namespace, lost), --ns; refusals where perf refuses
. "$(dirname "$0")/lib/common.sh"
need_perf
need_root
rec() { "$PERF" record -q "$@" >/dev/null 2>&1 || skip "perf record $* failed"; }
rec -o plain.data -- "$WORKLOADS/demo" -n 200
rec -g -o g.data -- "$WORKLOADS/threads" 20
# CPUs in the samples without -a: no other process (and its DSOs) in the comparison
rec --sample-cpu -o a.data -- "$WORKLOADS/forkexec"
rec --switch-events -o sw.data -- "$WORKLOADS/threads" 20
rec --namespaces -o ns.data -- "$WORKLOADS/demo" -n 50
# one ring page at 50 kHz with callchains: the kernel loses records
rec -m 1 -F 50000 -g -o lost.data -- "$WORKLOADS/demo" -n 300
# registers, a fixed period (-c: no PERIOD in the samples, each weighs 100000)
rec --intr-regs=di,r8,dx,cx --user-regs=ax,bx -e task-clock -c 100000 -o regs.data -- "$WORKLOADS/demo" -n 50
"$LUPE" record -q -g -o lg.data -- "$WORKLOADS/demo" -n 200 >/dev/null 2>&1 || fail "lupe record failed"
# -d: data addresses; page faults resolve theirs to data symbols (perf's sample_addr_correlates_sym)
rec -d -e page-faults -c 1 -o pf.data -- "$WORKLOADS/demo" -n 5
rec -d -e cpu-clock -o d.data -- "$WORKLOADS/demo" -n 30
"$LUPE" record -q -d -e page-faults -c 1 -g -o lpf.data -- "$WORKLOADS/demo" -n 5 >/dev/null 2>&1 || fail "lupe record -d failed"

# same: lupe script ARGS prints perf script's bytes (and something), both succeed
same() {
	local f=$1
	shift
	"$PERF" script -i "$f" "$@" > p.out 2>/dev/null || fail "perf script -i $f $* failed"
	"$LUPE" script -i "$f" "$@" > l.out || fail "lupe script -i $f $* exited $?"
	cmp -s p.out l.out || { diff p.out l.out | head -10; fail "lupe script -i $f $* differs from perf's"; }
	[ -s l.out ] || fail "lupe script -i $f $* printed nothing: a weak comparison"
}
# refused: both refuse ARGS and print no samples
refused() {
	local f=$1
	shift
	"$PERF" script -i "$f" "$@" > p.out 2>/dev/null && fail "perf script $* was expected to refuse"
	"$LUPE" script -i "$f" "$@" > l.out 2> l.err && fail "lupe script $* should be refused as perf refuses it"
	[ -s l.out ] && fail "lupe script $* printed samples before refusing"
	[ -s l.err ] || fail "lupe script $* refused without saying why"
}

for f in plain.data g.data lg.data; do
	same $f -F +pid
	same $f -F -period,-symoff
	same $f -F sw:+period,-dso
	same $f -F comm,tid,time,ip,sym
	same $f -F sw:comm,pid,tid,event
	same $f -F comm,sym
	same $f -F sw:comm,ip,sym,symoff,dso
	same $f --ns
done
same a.data -F +cpu,-time
same regs.data
same regs.data -F ip,sym,iregs
same regs.data -F +iregs,+uregs
grep -q ' ABI:2 .*   DI:0x' l.out || fail "no interrupt registers printed"
# perf's record.sh register test, on a software event: a pipe into script -F ip,sym,iregs
"$PERF" record -o - --intr-regs=di,r8,dx,cx -e task-clock -c 100000 --per-thread "$WORKLOADS/demo" -n 20 2>/dev/null |
	"$LUPE" script -F ip,sym,iregs -i - | grep -q 'DI:' || fail "no DI: register from a pipe"
same a.data -F trace:comm
for f in pf.data lpf.data; do
	same $f -F +addr
	same $f -F comm,addr,sym,symoff,dso,ip
	same $f -F addr,dso
done
grep -q ' (\[stack\])$' l.out || fail "no page fault on the stack: the data map ([stack], identity) not compared"
same d.data -F +addr
same d.data -F comm,addr,ip
ok "-F +field/-field, type:fields, --ns"

refused plain.data -F +cpu
refused plain.data -F +iregs
refused plain.data -F +addr
refused plain.data -F comm,-tid
refused plain.data -F bogus
refused plain.data -F xx:comm
refused plain.data -F sw:trace
refused plain.data -F ip,symoff
refused plain.data -F comm,srcline
refused plain.data -F trace:
refused plain.data --cpu 0
refused plain.data --time 200%/1
refused plain.data --time abc
ok "refusals: a field the samples lack, mixed +-, unknown field or type, --cpu without CPU, bad --time"

# filters: pick values that select part of the samples
tids=$("$PERF" script -i g.data -F tid | tr -d ' ' | sort | uniq -c | sort -rn | awk '{print $2}')
[ "$(echo "$tids" | wc -l)" -ge 2 ] || skip "threads workload gave fewer than two sampled threads"
t1=$(echo "$tids" | sed -n 1p); t2=$(echo "$tids" | sed -n 2p)
pid=$("$PERF" script -i g.data -F pid | tr -d ' ' | sort -u | head -1)
same g.data --tid "$t1"
same g.data --tid "$t1,$t2"
same g.data --pid "$pid"
n_all=$("$LUPE" script -i g.data | grep -c 'cpu-clock')
n_t1=$("$LUPE" script -i g.data --tid "$t1" | grep -c 'cpu-clock')
[ "$n_t1" -lt "$n_all" ] && [ "$n_t1" -gt 0 ] || fail "--tid $t1 kept $n_t1 of $n_all samples"
comm=$("$PERF" script -i a.data -F comm | sort | uniq -c | sort -rn | awk 'NR == 2 {print $2}')
same a.data --comms "$comm"
same a.data --comms "$comm,nosuchcomm"
cpu=$("$PERF" script -i a.data -F cpu | tr -d ' []' | sort | uniq -c | sort -rn | awk 'NR == 1 {print $2 + 0}')
same a.data --cpu "$cpu"
same a.data -C 0-1
same a.data --cpu "$cpu" --show-task-events
ts() { "$PERF" script -i $1 -F time | sed -n "$2p" | tr -d ' :'; }
same g.data --time "$(ts g.data 20),$(ts g.data 60)"
same g.data --time "$(ts g.data 20),"
same g.data --time ",$(ts g.data 60)"
for t in 10%/2 10%/1,10%/3 0%-25% 25%-50%,75%-100%; do
	same g.data --time $t
	same lg.data --time $t
done
ok "--pid, --tid, --comms, --cpu, --time (start,stop and percent spans)"

for f in plain.data g.data a.data sw.data lg.data; do
	same $f --show-task-events
	same $f --show-mmap-events
	same $f --show-task-events --show-mmap-events --show-switch-events
done
same sw.data --show-switch-events --ns
grep -q 'PERF_RECORD_SWITCH' l.out || fail "no switch records shown for sw.data"
same g.data --show-task-events
grep -q 'PERF_RECORD_FORK' l.out || fail "no fork records shown for the threads workload"
same ns.data --show-namespace-events
grep -q 'PERF_RECORD_NAMESPACES' l.out || fail "no namespace records shown for ns.data"
if "$PERF" report -D -i lost.data 2>/dev/null | grep -q 'PERF_RECORD_LOST: id'; then
	same lost.data --show-lost-events
	grep -q 'PERF_RECORD_LOST lost [0-9]' l.out || fail "no LOST records shown"
else
	echo "note: the kernel lost nothing this time: --show-lost-events compared without LOST records"
	same lost.data --show-lost-events
fi
ok "--show-task-events, --show-mmap-events, --show-switch-events, --show-namespace-events, --show-lost-events"

#!/bin/bash
# record applies an event's own terms (max-stack, call-graph, stack-size, no-inherit, time) as perf does, and refuses the ones it does not take
. "$(dirname "$0")/lib/common.sh"
need_perf

spec='cpu-clock/max-stack=3/ -e task-clock/call-graph=dwarf,stack-size=4096/ -e page-faults/no-inherit,time=0/ -e cpu-clock/call-graph=no,name=plain/'
for t in perf lupe; do
	bin=$PERF raw=
	# the dwarf event's attr as perf's: its stack copies kept (not unwound while recording)
	[ $t = lupe ] && bin=$LUPE raw=--no-online
	# shellcheck disable=SC2086 # spec holds several -e words
	"$bin" record $raw -q -g -o $t.data -e $spec "$WORKLOADS/demo" > /dev/null 2> $t.err ||
		fail "$t record: $(cat $t.err)"
	# perf's own side-band bits (ksymbol, bpf_event) are not per-event terms
	"$PERF" evlist -v -i $t.data 2> /dev/null | sed 's/, ksymbol: 1//; s/, bpf_event: 1//' > $t.ev
done
diff perf.ev lupe.ev > ev.diff || fail "attrs differ from perf's: $(cat ev.diff)"
grep -q 'sample_max_stack: 3' lupe.ev || fail "max-stack=3 set no sample_max_stack: $(cat lupe.ev)"
grep 'name=plain\|^plain' lupe.ev | grep -q CALLCHAIN && fail "call-graph=no kept the -g callchain"
ok "four events' terms give perf's attrs"

# max-stack=3: no sample of that event carries more than 3 frames
"$LUPE" script -i lupe.data -F event,ip 2> /dev/null | awk '
	/^ *cpu-clock\/max-stack=3\/:/ { if (n > max) max = n; n = 0; on = 1; next }
	/:/ { if (on && n > max) max = n; on = 0; next }
	on && NF { n++ }
	END { if (on && n > max) max = n; print max + 0 }' > frames
[ "$(cat frames)" -ge 1 ] && [ "$(cat frames)" -le 3 ] || fail "max-stack=3 samples carry $(cat frames) frames"
ok "max-stack=3 samples carry at most 3 frames"

# a term lupe does not apply is refused, not ignored
"$LUPE" record -q -o bad.data -e 'cpu-clock/overwrite/' true 2> bad.err && fail "overwrite was accepted"
grep -q "does not take the event term 'overwrite'" bad.err || fail "overwrite said: $(cat bad.err)"
[ -e bad.data ] && fail "a refused record left bad.data"
ok "an unapplied term is refused"

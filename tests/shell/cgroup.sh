#!/usr/bin/env bash
# -G: a workload in a new cgroup and one outside; stat -G GRP -e task-clock -a counts only the group (within 10% of perf stat run at the same time, well below the whole system), the cgroup column as perf prints it, record -G GRP -a samples only the group's task (as perf's recording does); --all-cgroups files give report --sort cgroup and script -F cgroup as perf's, both ways; --namespaces gives NAMESPACES records perf's script shows
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
# where perf looks for -G's names: a v1 hierarchy with perf_event, else the cgroup2 mount
root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/mounts)
[ -n "$root" ] || root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
[ -n "$root" ] || skip "no cgroup2 or perf_event cgroup mount"
grp=lupe-test-$$
dir=$root/$grp
mkdir "$dir" 2> /dev/null || skip "cannot make a cgroup under $root"
pids=
cleanup() {
	for p in $pids; do kill "$p" 2> /dev/null; done
	wait 2> /dev/null
	# the group goes once its tasks are gone
	for _ in $(seq 50); do rmdir "$dir" 2> /dev/null && break; sleep 0.1; done
	rm -rf "$TMPD"
}
trap cleanup EXIT
cp "$WORKLOADS/demo" ingrp
cp "$WORKLOADS/demo" outgrp
sh -c "echo \$\$ > '$dir/cgroup.procs' && exec ./ingrp -s 300" > /dev/null &
pids=$!
./outgrp -s 300 > /dev/null &
pids="$pids $!"
for _ in $(seq 50); do grep -q . "$dir/cgroup.procs" && break; sleep 0.1; done
grep -qx "${pids%% *}" "$dir/cgroup.procs" || fail "the workload did not join $dir"
sleep 0.3

# stat: lupe and perf count the same two seconds, side by side (under load the
# group's share moves from window to window: up to three tries)
count() { awk -F, '$3 == "task-clock" && $4 == g { print $1 }' g="$1" "$2"; }
for try in 1 2 3; do
	"$LUPE" stat -x, -e task-clock,task-clock -G "$grp",, -a sleep 2 2> lupe.stat &
	l=$!
	"$PERF" stat -x, -e task-clock,task-clock -G "$grp",, -a sleep 2 2> perf.stat
	wait $l || fail "lupe stat -G: $(cat lupe.stat)"
	lg=$(count "$grp" lupe.stat); la=$(count "" lupe.stat); pg=$(count "$grp" perf.stat)
	[ -n "$lg" ] && [ -n "$la" ] || fail "lupe stat -G printed no cgroup column: $(cat lupe.stat)"
	[ -n "$pg" ] || fail "perf stat -G printed nothing: $(cat perf.stat)"
	awk -v l="$lg" -v p="$pg" 'BEGIN { exit !(l > 0 && l <= 1.1 * p && p <= 1.1 * l) }' && break
	echo "  (try $try: lupe $lg msec, perf $pg msec)"
	[ $try = 3 ] && fail "the group's task-clock: lupe $lg msec, perf $pg msec (10% apart at most)"
done
awk -v g="$lg" -v a="$la" 'BEGIN { exit !(g < 0.75 * a) }' ||
	fail "the group's task-clock ($lg msec) is not below the whole system's ($la msec): not counted per cgroup"
"$LUPE" stat -e task-clock -G "$grp" -a sleep 0.1 2> std.stat || fail "lupe stat -G: $(cat std.stat)"
grep -Eq "msec task-clock +$grp +#" std.stat || fail "no cgroup column after the event's name: $(cat std.stat)"
expect_rc 129 "$LUPE" stat -e task-clock -G "$grp" sleep 0.1 2> /dev/null
expect_rc 1 "$LUPE" stat -e task-clock -G lupe-no-such-group-$$ -a true 2> err
grep -q "cannot count cgroup 'lupe-no-such-group-$$'" err || fail "no sentence for a missing cgroup: $(cat err)"
echo "  stat -G: lupe $lg msec, perf $pg msec in the group; the system $la msec"

# record: only the group's task is sampled
comms() { "$1" report -i "$2" --stdio --sort comm 2> /dev/null | awk '!/^#/ && NF == 2 { sub("%", "", $1); print $2, $1 }'; }
"$LUPE" record -e task-clock -G "$grp" -a -o g.data -- sleep 1 > /dev/null 2> err &
l=$!
"$PERF" record --no-bpf-event -e task-clock -G "$grp" -a -o gp.data -- sleep 1 > /dev/null 2>&1
wait $l || fail "lupe record -G: $(cat err)"
comms "$LUPE" g.data > lupe.comm
comms "$PERF" g.data > perf-of-lupe.comm
comms "$PERF" gp.data > perf.comm
in=$(awk '$1 == "ingrp" { print $2 }' lupe.comm)
awk -v s="$in" 'BEGIN { exit !(s >= 99) }' || fail "lupe record -G: ingrp is ${in:-0}% of the samples: $(cat lupe.comm)"
grep -q outgrp lupe.comm && fail "lupe record -G sampled a task outside the group: $(cat lupe.comm)"
cmp -s lupe.comm perf-of-lupe.comm || fail "perf reads lupe's -G file otherwise: $(cat perf-of-lupe.comm)"
pin=$(awk '$1 == "ingrp" { print $2 }' perf.comm)
awk -v s="$pin" 'BEGIN { exit !(s >= 99) }' || fail "perf's -G recording: ingrp is ${pin:-0}%: $(cat perf.comm)"
echo "  record -G: ingrp $in% of lupe's samples (perf's recording $pin%)"

# --all-cgroups: every sample's cgroup, named by CGROUP records
body() { grep -v '^# (Tip\|^#$\|^$' "$1"; }
"$LUPE" record --all-cgroups --namespaces -e task-clock -a -o ac.data -- sleep 1 > /dev/null 2> err ||
	fail "lupe record --all-cgroups: $(cat err)"
"$PERF" record --no-bpf-event --all-cgroups -e task-clock -a -o pac.data -- sleep 1 > /dev/null 2>&1 ||
	fail "perf record --all-cgroups failed"
for f in ac.data pac.data; do
	"$LUPE" report -i $f --stdio --sort cgroup > lupe.rep 2> err || fail "lupe report --sort cgroup -i $f: $(cat err)"
	"$PERF" report -i $f --stdio --sort cgroup > perf.rep 2> /dev/null
	grep -q "%  /$grp\$" lupe.rep || fail "lupe's report of $f has no /$grp entry: $(body lupe.rep)"
	diff <(body lupe.rep) <(body perf.rep) > d || fail "report --sort cgroup of $f differs from perf's: $(cat d)"
done
"$LUPE" script -i ac.data -F comm,cgroup > sc || fail "lupe script -F cgroup failed"
awk -v g="/$grp" '$1 == "ingrp" && $2 != g { bad = 1 } $1 == "outgrp" && $2 == g { bad = 1 } END { exit bad }' sc ||
	fail "script -F cgroup: ingrp outside /$grp or outgrp in it: $(grep grp sc | sort | uniq -c)"
awk -v g="/$grp" '$1 == "ingrp" && $2 == g { n++ } END { exit !n }' sc || fail "script -F cgroup shows no ingrp sample in /$grp: $(sort sc | uniq -c | head)"
# --namespaces: a NAMESPACES record for each thread, as perf's script shows them
"$LUPE" script -i ac.data --show-namespace-events --show-cgroup-events | grep -A2 PERF_RECORD_ > lupe.ns
"$PERF" script -i ac.data --show-namespace-events --show-cgroup-events 2> /dev/null | grep -A2 PERF_RECORD_ > perf.ns
grep -q "PERF_RECORD_NAMESPACES ${pids%% *}/${pids%% *} - nr_namespaces: 7" lupe.ns ||
	fail "no NAMESPACES record for ingrp (${pids%% *}): $(head -3 lupe.ns)"
grep -q "PERF_RECORD_CGROUP cgroup: [0-9]* /$grp\$" lupe.ns || fail "no CGROUP record for /$grp: $(grep CGROUP lupe.ns)"
diff lupe.ns perf.ns > d || fail "script --show-namespace-events differs from perf's: $(head d)"
echo "  --all-cgroups: report --sort cgroup as perf's both ways; script -F cgroup; $(grep -c NAMESPACES lupe.ns) NAMESPACES records"
ok "stat -G and record -G count and sample only the cgroup, --all-cgroups and --namespaces as perf reads them"

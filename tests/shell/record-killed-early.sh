#!/usr/bin/env bash
# lupe record -g killed with SIGKILL 0.5, 1 and 2 s into a CPU-bound workload (10 runs each): the file holds at least (t - 0.3 s) x 0.8 x the rate samples, t the CPU time the workload had (the live engine drains every 250 ms); perf's counts printed beside
. "$(dirname "$0")/lib/common.sh"
need_root
RATE=4000 # lupe's and perf's default -F
W=$WORKLOADS/demo
pids=
trap 'kill -9 $pids 2>/dev/null; rm -rf "$TMPD"' EXIT

# cpu_secs PID: the user+system CPU time of PID so far, in seconds
cpu_secs() {
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$1/stat" 2>/dev/null ||
		echo 0
}

# killed TOOL T FILE: record -g of the workload, SIGKILL at T s; prints "CPU-SECONDS"
killed() {
	local tool=$1 t=$2 file=$3 rec wl cpu
	if [ "$tool" = lupe ]; then
		"$LUPE" record -q -g -o "$file" -- "$W" -s 30 >/dev/null 2>rec.err &
	else
		"$PERF" record -q -g --no-bpf-event -o "$file" -- "$W" -s 30 >/dev/null 2>rec.err &
	fi
	rec=$!
	pids="$pids $rec"
	sleep "$t"
	wl=$(pgrep -P $rec | head -1)
	cpu=$(cpu_secs "${wl:-0}")
	kill -9 $rec
	wait $rec 2>/dev/null
	[ -n "$wl" ] && kill -9 "$wl" 2>/dev/null
	echo "$cpu"
}

# samples TOOL FILE: how many samples TOOL reads in FILE ("-" when it cannot read it)
samples() {
	local n
	if [ "$1" = lupe ]; then
		n=$("$LUPE" script -F comm,tid -i "$2" 2>/dev/null | wc -l)
	else
		n=$("$PERF" script -F comm,tid -i "$2" 2>/dev/null | wc -l)
	fi
	echo "$n"
}

bad=0
for t in ${KILL_AT:-0.5 1 2}; do
	line="  t=$t s:"
	for i in $(seq "${RUNS:-10}"); do
		cpu=$(killed lupe "$t" l.data)
		[ -s l.data ] || fail "t=$t run $i: lupe left no file: $(cat rec.err)"
		n=$(samples lupe l.data)
		# the workload's own CPU time bounds what could be sampled on a loaded machine
		eff=$(awk -v t="$t" -v c="$cpu" 'BEGIN { print (c > 0 && c < t) ? c : t }')
		want=$(awk -v t="$eff" -v r=$RATE 'BEGIN { w = (t - 0.3) * 0.8 * r; printf "%d", (w > 0 ? w : 0) }')
		killed perf "$t" p.data >/dev/null
		pn=$(samples perf p.data)
		line="$line lupe $n (cpu ${cpu}s, want >= $want) perf $pn;"
		if [ "$n" -lt "$want" ]; then
			echo "t=$t run $i: lupe's file holds $n samples, want at least $want (workload CPU ${cpu}s)" >&2
			bad=1
		fi
		rm -f l.data p.data
	done
	echo "$line"
done
[ $bad = 0 ] || fail "a killed recording lost more than its last quarter second"
ok "every killed recording each kept all but their last quarter second"

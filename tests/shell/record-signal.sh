#!/usr/bin/env bash
# lupe record -a stopped by SIGINT or SIGTERM after 1 s leaves a complete file that perf reads, with the samples so far
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf
for sig in INT TERM HUP; do
	"$LUPE" record -q -a -o $sig.data &
	pid=$!
	sleep 1
	kill -$sig $pid
	wait $pid
	[ -s $sig.data ] || fail "SIG$sig: no file"
	"$PERF" report -i $sig.data --stdio >out 2>err || fail "SIG$sig: perf report exited $?: $(cat err)"
	[ -s err ] && fail "SIG$sig: perf report warned: $(cat err)"
	n=$("$PERF" script -i $sig.data 2>/dev/null | wc -l)
	[ "$n" -gt 100 ] || fail "SIG$sig: only $n samples after 1 s on every CPU"
	ok "SIG$sig: $n samples readable"
done

#!/usr/bin/env bash
# numbers are parsed whole and range-checked: -p PID+2^32 and -p 18446744073709551615 are refused with a sentence by record, stat, top, trace and the exporter (they traced PID, or -1), as are out-of-range -I, --timeout, --max-strlen, --clockid, script --pid, flamegraph --width, diff --order and exporter port values
. "$(dirname "$0")/lib/common.sh"
need_root
sleep 60 &
victim=$!
trap 'kill $victim 2>/dev/null; rm -rf "$TMPD"' EXIT
big=$((victim + 4294967296))
for p in $big 18446744073709551615 -1 +-3 "$victim,$big"; do
	for c in "record -q -o r.data" stat "top --stdio" trace "exporter --listen 127.0.0.1:0"; do
		timeout 10 "$LUPE" $c -p "$p" > out 2>&1
		rc=$?
		[ $rc != 0 ] && [ $rc != 124 ] || fail "$c -p $p was accepted (exit $rc): $(head -3 out)"
		grep -qE "process id is a number from 1 to 2147483647|not a list of ids" out ||
			fail "$c -p $p: $(head -3 out)"
	done
done
ok "-p $big (pid $victim + 2^32), -p 18446744073709551615, -1 and lists with them refused by record, stat, top, trace, exporter"
for c in "stat -I 99999999999" "stat --timeout 4294967306" "stat --interval-count 4294967297" \
	 "stat -r 4294967297" "trace --max-strlen 4294967297" "record -q -o r.data --clockid 4294967297" \
	 "trace --buffer-size 17592186044417" "record -q -o r.data -m 17179869185G"; do
	timeout 10 "$LUPE" $c -- true > out 2>&1
	rc=$?
	[ $rc = 129 ] || fail "$c: exit $rc, not a usage error: $(head -3 out)"
done
ok "-I, --timeout, --interval-count, -r, --max-strlen, --clockid, trace --buffer-size and record -m out of range (or wrapped by their unit into range) are usage errors"
"$LUPE" record -q -o s.data -- "$WORKLOADS/demo" -n 10 > /dev/null 2>&1 || fail "record failed"
"$LUPE" script -i s.data --pid $big > out 2>&1 && fail "script --pid $big was taken: $(head -2 out)"
grep -q "invalid --pid list" out || fail "script --pid $big: $(head -2 out)"
for c in "flamegraph -i s.data -o f.svg --width 4294967396" "diff --order 4294967297 s.data s.data"; do
	"$LUPE" $c > out 2>&1
	rc=$?
	[ $rc = 129 ] || fail "$c: exit $rc, not a usage error: $(head -3 out)"
done
timeout 10 "$LUPE" exporter --listen 127.0.0.1:18446744073709551617 > out 2>&1 && fail "a port past 2^64 was taken"
grep -q "cannot listen on" out || fail "exporter port past 2^64: $(head -2 out)"
ok "script --pid, flamegraph --width, diff --order and the exporter's port out of range refused"

#!/usr/bin/env bash
# lupe daemon runs the config's record sessions: start returns with the server listening, ping/list (-x perf's fields)/signal (a --switch-output file each)/reconfig on a config change/a second start refused/stop ends every session; config errors are sentences
. "$(dirname "$0")/lib/common.sh"
need_root
base=$TMPD/base
mkdir "$base"
cfg=$TMPD/cfg
cat > "$cfg" <<EOF2
[daemon]
base=$base

[session-a]
run = -e cpu-clock --switch-output -m 1 sleep 60

[session-b]
run = -e task-clock -m 1 sleep 60
EOF2
D() { "$LUPE" daemon --config "$cfg" "$@"; }
trap 'D stop > /dev/null 2>&1; rm -rf "$TMPD"' EXIT
D start || fail "start exited $?: $(cat "$base/output" 2>/dev/null)"
# the server listens once start returns; the records answer a little later
for _ in $(seq 100); do
	[ "$(D ping | awk '$1 == "OK"' | wc -l)" = 2 ] && break
	sleep 0.1
done
D ping > ping.out
grep -qx "OK   a" ping.out && grep -qx "OK   b" ping.out || fail "ping: $(cat ping.out); $(cat "$base"/session-*/output)"
D ping --session nosuch | grep -qx "FAIL nosuch (not found)" || fail "ping of an unknown session"

D -x: > list.out
[ "$(wc -l < list.out)" = 3 ] || fail "list -x: not 3 lines: $(cat list.out)"
dpid=$(head -1 list.out | cut -d: -f1)
[ "$(head -1 list.out | cut -d: -f2-5)" = "daemon:$base:$base/output:$base/lock" ] || fail "daemon line: $(head -1 list.out)"
[ "$(cat "$base/lock")" = "$dpid" ] || fail "the lock holds '$(cat "$base/lock")', not the daemon's pid $dpid"
line=$(sed -n 2p list.out)
want="a:-e cpu-clock --switch-output -m 1 sleep 60:$base/session-a:$base/session-a/output:$base/session-a/control:$base/session-a/ack:0"
[ "$(echo "$line" | cut -d: -f2-)" = "$want" ] || fail "session line: '$line', want 'PID:$want'"
apid=$(echo "$line" | cut -d: -f1)
bpid=$(sed -n 3p list.out | cut -d: -f1)
kill -0 "$apid" && kill -0 "$bpid" || fail "the sessions' pids $apid $bpid are not running"
D | grep -q "^\[$apid:a\] lupe record -e cpu-clock" || fail "list: $(D)"

# a second daemon over the same base is refused, perf's first word kept
D start > start2.out 2>&1 && fail "a second daemon started"
grep -q "^failed: another lupe daemon (pid $dpid) owns $base" start2.out || fail "second start: $(cat start2.out)"

# signal: a snapshot of the --switch-output session
D signal --session a | grep -qx "signal 12 sent to session 'a \[$apid\]'" || fail "signal"
for _ in $(seq 50); do
	ls "$base/session-a" | grep -q '^perf.data\.[0-9]' && break
	sleep 0.1
done
ls "$base/session-a" | grep -q '^perf.data\.[0-9]' || fail "no snapshot after signal: $(ls "$base/session-a")"

# reconfig: b's run changes (restarted), a is removed (stopped)
sed -i -e '/session-a/,/^$/d' -e 's/task-clock -m 1 sleep 60/cpu-clock -m 1 sleep 60/' "$cfg"
for _ in $(seq 100); do
	D -x: > list2.out
	[ "$(wc -l < list2.out)" = 2 ] && grep -q "^[0-9]*:b:-e cpu-clock -m 1 sleep 60:" list2.out && break
	sleep 0.1
done
grep -q "^[0-9]*:b:-e cpu-clock -m 1 sleep 60:" list2.out || fail "b not reconfigured: $(cat list2.out)"
[ "$(wc -l < list2.out)" = 2 ] || fail "a not removed: $(cat list2.out)"
kill -0 "$apid" 2> /dev/null && fail "session a ($apid) still runs after it left the config"
kill -0 "$bpid" 2> /dev/null && fail "b's old record ($bpid) still runs after its run line changed"
newb=$(sed -n 2p list2.out | cut -d: -f1)

D stop || fail "stop exited $?"
for _ in $(seq 100); do
	kill -0 "$dpid" 2> /dev/null || break
	sleep 0.1
done
kill -0 "$dpid" 2> /dev/null && fail "the daemon ($dpid) still runs after stop"
kill -0 "$newb" 2> /dev/null && fail "session b ($newb) still runs after stop"
grep -q "daemon exited" "$base/output" || fail "the daemon's log: $(cat "$base/output")"
expect_rc 1 D ping > /dev/null 2> noserver.err
grep -q "^failed: no daemon answers on $base/control" noserver.err || fail "ping with no daemon: $(cat noserver.err)"
ok "start, ping, list, signal, reconfig, a second start refused, stop"

# config errors
printf '[session-x]\nrun = true\n' > nobase.cfg
expect_rc 1 "$LUPE" daemon start --config nobase.cfg 2> e1
grep -q "^failed: base not defined" e1 || fail "no base: $(cat e1)"
printf '[daemon]\nbase=%s/nosuch\n' "$TMPD" > badbase.cfg
expect_rc 1 "$LUPE" daemon start --config badbase.cfg 2> e2
grep -q "^failed: base '$TMPD/nosuch': No such file or directory" e2 || fail "missing base: $(cat e2)"
expect_rc 1 "$LUPE" daemon --config "$TMPD/nosuch.cfg" 2> e3
grep -q "^failed: config '$TMPD/nosuch.cfg'" e3 || fail "missing config: $(cat e3)"
expect_rc 129 "$LUPE" daemon frob --config "$cfg" 2> /dev/null
expect_rc 129 "$LUPE" daemon stop --session a --config "$cfg" 2> /dev/null
ok "config errors are said"

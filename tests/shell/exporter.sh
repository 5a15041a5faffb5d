#!/usr/bin/env bash
# lupe exporter: promtool accepts what it serves, basic auth, HTTPS, -p/-G/tracepoint glob counts, a fast start and stop with 360 tracepoints, junk requests get 400 while it keeps serving, bad events/ports are one sentence and a non-zero exit
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/exporter.sh"
need_root
need_curl
need_tracefs
"$LUPE" exporter -h > /dev/null || fail "lupe exporter -h"
need_exporter
command -v promtool > /dev/null || skip "promtool is not installed (package prometheus; scripts/bootstrap)"

# default events, lupe's names: the format is right and counters are _total
start_lupe default
grep -q '(loopback only' default.err || fail "no word that it listens on loopback only: $(cat default.err)"
scrape "$LUPE_PORT" > default.txt || fail "scrape failed"
promtool check metrics < default.txt > promtool.out 2>&1 || fail "promtool check metrics: $(cat promtool.out)"
grep -q '^lupe_events_total{event="page-faults",cpu="0"} [0-9]' default.txt ||
	fail "no page-faults on cpu 0: $(head default.txt)"
grep -q '^# TYPE lupe_events_total counter' default.txt || fail "no TYPE line"
grep -q '^lupe_exporter_scrape_duration_seconds [0-9]' default.txt || fail "no scrape duration"
ok "promtool check metrics passes on $(grep -c '^lupe_events_total' default.txt) samples"

# junk gets 400 and the server keeps serving
python3 - "$LUPE_PORT" > junk.out <<'PY' || fail "junk requests: $(cat junk.out)"
import socket, sys
port = int(sys.argv[1])
for junk in (b"GET /metrics HTTP/1.1\r\nno colon in this header\r\n\r\n",
             b"GET  HTTP/1.1\r\n\r\n", b"GET /metrics HTTP/1.1\r\nHost: a\r\nHost\r\n\r\n"):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(junk)
    line = s.recv(100).split(b"\r\n")[0]
    s.close()
    print(junk, line)
    if b" 400 " not in line:
        sys.exit(1)
# not HTTP at all: the library drops the connection without an answer
s = socket.create_connection(("127.0.0.1", port), timeout=5)
s.sendall(bytes(range(256)) + b"\r\n\r\n")
s.close()
PY
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$LUPE_PORT/nowhere")
[ "$code" = 404 ] || fail "/nowhere answered $code, want 404"
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$LUPE_PORT/metrics")
[ "$code" = 405 ] || fail "POST answered $code, want 405"
scrape "$LUPE_PORT" | grep -q '^lupe_exporter_scrapes_total [2-9]' || fail "not serving after junk"
ok "junk requests get 400, the exporter keeps serving"

# a port in use, a bind refused, an unknown event: one sentence, non-zero exit
"$LUPE" exporter --listen "127.0.0.1:$LUPE_PORT" > /dev/null 2> inuse.err
rc=$?
[ $rc != 0 ] || fail "a port in use exited 0"
[ "$(wc -l < inuse.err)" = 1 ] && grep -q "cannot listen on '127.0.0.1:$LUPE_PORT': the port is in use" inuse.err ||
	fail "port in use said: $(cat inuse.err)"
if command -v setpriv > /dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$LUPE" exporter --listen 127.0.0.1:80 \
		> /dev/null 2> refused.err
	rc=$?
	[ $rc != 0 ] || fail "binding port 80 as nobody exited 0"
	[ "$(wc -l < refused.err)" = 1 ] && grep -q "cannot listen on '127.0.0.1:80': permission denied" refused.err ||
		fail "bind refused said: $(cat refused.err)"
fi
"$LUPE" exporter --listen 127.0.0.1:0 -e no-such-event > /dev/null 2> unknown.err
rc=$?
[ $rc = 129 ] || fail "an unknown event exited $rc, want 129"
grep -q "no-such-event" unknown.err || fail "unknown event said: $(cat unknown.err)"
"$LUPE" exporter --listen nonsense > /dev/null 2> bad.err && fail "--listen nonsense exited 0"
grep -q "cannot listen on 'nonsense'" bad.err || fail "bad address said: $(cat bad.err)"
ok "port in use, bind refused, unknown event, bad address"

# basic authentication through the library: 401 without the password, 200 with it
printf 'prom:s3cret\n' > auth
start_lupe auth -e page-faults --basic-auth-file auth
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$LUPE_PORT/metrics")
[ "$code" = 401 ] || fail "no credentials answered $code, want 401"
code=$(curl -s -o /dev/null -w '%{http_code}' -u prom:wrong "http://127.0.0.1:$LUPE_PORT/metrics")
[ "$code" = 401 ] || fail "a wrong password answered $code, want 401"
curl -sf -u prom:s3cret "http://127.0.0.1:$LUPE_PORT/metrics" | grep -q '^lupe_events_total' ||
	fail "the right password got no metrics"
kill "$LUPE_PID"
ok "basic authentication"

# HTTPS through the library, with a certificate made for 127.0.0.1
if command -v openssl > /dev/null &&
	openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 1 \
		-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 > /dev/null 2>&1; then
	"$LUPE" exporter --listen 127.0.0.1:0 -e page-faults --tls-cert cert.pem --tls-key key.pem 2> tls.err &
	EXPORTER_PIDS+=($!)
	wait_for tls.err serving || fail "no HTTPS exporter: $(cat tls.err)"
	port=$(sed -n 's|.*https://127\.0\.0\.1:\([0-9]*\)/metrics.*|\1|p' tls.err)
	curl -sf --max-time 10 --cacert cert.pem "https://127.0.0.1:$port/metrics" | grep -q '^lupe_events_total' ||
		fail "no metrics over HTTPS"
	curl -sf --max-time 10 "http://127.0.0.1:$port/metrics" > /dev/null && fail "plain HTTP served on the HTTPS port"
	"$LUPE" exporter --listen 127.0.0.1:0 -e page-faults --tls-cert cert.pem --tls-key cert.pem 2> badkey.err &&
		fail "a certificate as its own key was accepted"
	grep -q "cannot serve HTTPS with 'cert.pem' and 'cert.pem'" badkey.err || fail "bad key said: $(cat badkey.err)"
	ok "HTTPS"
else
	echo "no openssl to make a certificate: HTTPS not tested"
fi

# SIGTERM: a clean exit 0
kill "$LUPE_PID"
wait "$LUPE_PID"
rc=$?
[ $rc = 0 ] || fail "SIGTERM: exit $rc, want 0"

# 360 tracepoints on every CPU: up and serving in under 1 s, gone in under 1 s
t0=$(date +%s%N)
start_lupe glob -e 'syscalls:sys_enter_*'
scrape "$LUPE_PORT" > glob.txt || fail "scrape of the glob failed"
t1=$(date +%s%N)
kill "$LUPE_PID"
wait "$LUPE_PID"
rc=$?
t2=$(date +%s%N)
start_ms=$(( (t1 - t0) / 1000000 )) stop_ms=$(( (t2 - t1) / 1000000 ))
[ $rc = 0 ] || fail "the glob exporter exited $rc on SIGTERM"
n=$(grep -c '^lupe_events_total{event="syscalls:sys_enter_' glob.txt)
[ "$n" -ge 300 ] || fail "only $n tracepoint samples"
[ "$start_ms" -lt 1000 ] || fail "start and first scrape took $start_ms ms"
[ "$stop_ms" -lt 1000 ] || fail "stop took $stop_ms ms"
ok "syscalls:sys_enter_* ($n samples): start+scrape $start_ms ms, stop $stop_ms ms"

# -p: one process, its own label; the tracepoint counts its getcpu calls
"$WORKLOADS/sysload" -r 1000 -s 30 > /dev/null &
wl=$!
EXPORTER_PIDS+=("$wl")
start_lupe pid -p "$wl" -e 'syscalls:sys_enter_getcpu'
grep -q 'for 1 process' pid.err || fail "-p said: $(cat pid.err)"
a=$(scrape "$LUPE_PORT" | sed -n "s/^lupe_events_total{event=\"syscalls:sys_enter_getcpu\",pid=\"$wl\"} //p")
sleep 1
b=$(scrape "$LUPE_PORT" | sed -n "s/^lupe_events_total{event=\"syscalls:sys_enter_getcpu\",pid=\"$wl\"} //p")
[ -n "$a" ] && [ -n "$b" ] || fail "no pid-labelled sample"
[ $((b - a)) -ge 500 ] && [ $((b - a)) -le 2000 ] || fail "-p: $((b - a)) getcpu calls in about 1 s, want about 1000"
ok "-p $wl: $((b - a)) getcpu calls in about 1 s"
kill "$LUPE_PID"

# -G: what runs in a cgroup, per CPU
# where perf -G looks: a perf_event v1 hierarchy, else the cgroup2 mount
root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)perf_event(,|$)/ { print $2; exit }' /proc/mounts)
[ -n "$root" ] || root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
cg=$root/lupe-test-$$
if [ -n "$root" ] && mkdir "$cg" 2>/dev/null; then
	EXPORTER_CGROUP=$cg
	start_lupe cg -G "lupe-test-$$" -e 'syscalls:sys_enter_getcpu'
	echo "$wl" > "$cg/cgroup.procs" || fail "cannot move the workload into $cg"
	sleep 1
	sum=$(scrape "$LUPE_PORT" | awk -v cg="lupe-test-$$" '$1 ~ "cgroup=\"" cg "\"" { s += $2 } END { print s + 0 }')
	kill "$LUPE_PID"
	echo "$wl" > "$root/cgroup.procs"
	kill "$wl"
	wait "$wl" 2>/dev/null
	rmdir "$cg"
	[ "$sum" -ge 300 ] || fail "-G: $sum getcpu calls counted in the cgroup"
	ok "-G lupe-test-$$: $sum getcpu calls"
else
	kill "$wl"
	echo "no cgroup hierarchy for perf events to test -G on"
fi

#!/usr/bin/env bash
# lupe exporter against 200 slow clients (a byte a second each, from the scraper's own address, reconnecting when cut) still answers 10 of 10 scrapes within 2 s each; the serving exporter runs as nobody (or --user) with CapEff, CapPrm and CapBnd 0 and no_new_privs; --user root and an unknown user are refused
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/exporter.sh"
need_root
need_exporter
command -v python3 > /dev/null || skip "no python3 for the slow clients"
id nobody > /dev/null 2>&1 || skip "no user 'nobody' to serve as"

start_lupe slow -e page-faults,task-clock
[ "$(readlink /proc/$LUPE_PID/exe)" = "$(readlink -f "$LUPE_BUILD/lupe-exporter")" ] ||
	fail "pid $LUPE_PID is not the serving exporter: $(readlink /proc/$LUPE_PID/exe)"

# the privileges of the process that serves
st=/proc/$LUPE_PID/status
grep -E '^(Uid|Gid|Cap(Eff|Prm|Bnd|Amb)|NoNewPrivs):' "$st"
read -r _ ruid euid suid fsuid < <(grep '^Uid:' "$st")
nobody=$(id -u nobody)
[ "$ruid $euid $suid $fsuid" = "$nobody $nobody $nobody $nobody" ] ||
	fail "the exporter serves as uid $ruid/$euid/$suid/$fsuid, not nobody ($nobody)"
for c in CapEff CapPrm CapBnd CapAmb; do
	[ "$(awk -v c="$c:" '$1 == c {print $2}' "$st")" = 0000000000000000 ] ||
		fail "$c is not 0: $(grep "^$c:" "$st")"
done
[ "$(awk '$1 == "NoNewPrivs:" {print $2}' "$st")" = 1 ] || fail "no_new_privs is not set"
scrape "$LUPE_PORT" | grep -q '^lupe_events_total{event="page-faults",cpu="0"} [0-9]' ||
	fail "the unprivileged exporter reads no counts"
ok "serves as nobody (uid $nobody), CapEff/CapPrm/CapBnd/CapAmb 0, no_new_privs, and still counts"

python3 - "$LUPE_PORT" <<'PY' || fail "scrapes under 200 slow clients failed"
import select, socket, sys, threading, time
port = int(sys.argv[1])
N, stop = 200, False
stats = {"connects": 0, "cut": 0}

def connect():
    s = socket.socket()
    s.setblocking(False)
    s.connect_ex(("127.0.0.1", port))
    stats["connects"] += 1
    return [s, 0]

def slow_clients():
    # each: a request line, then one header byte a second, never finished
    clients = [connect() for _ in range(N)]
    while not stop:
        for c in clients:
            s = c[0]
            r, _, _ = select.select([s], [], [], 0)
            try:
                if r and not s.recv(4096):
                    raise OSError("closed")
                s.send(b"GET /metrics HTTP/1.1\r\nX-Slow: " if c[1] == 0 else b"a")
                c[1] += 1
            except OSError:
                s.close()
                stats["cut"] += 1
                c[:] = connect()
        time.sleep(1)
    for c in clients:
        c[0].close()

t = threading.Thread(target=slow_clients, daemon=True)
t.start()
time.sleep(4)  # all 200 connected and trickling; the first ones cut and back
ok, times = 0, []
for i in range(10):
    t0 = time.monotonic()
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=2)
        s.settimeout(max(0.01, 2 - (time.monotonic() - t0)))
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        body = b""
        while True:
            d = s.recv(65536)
            if not d:
                break
            body += d
        s.close()
        dt = time.monotonic() - t0
        if b" 200 " in body.split(b"\r\n")[0] and b"lupe_events_total" in body and dt <= 2:
            ok += 1
    except OSError:
        dt = time.monotonic() - t0
    times.append(dt)
    time.sleep(0.5)
stop = True
print("scrapes answered within 2 s: %d of 10; times %s; slow connections made %d, cut %d"
      % (ok, " ".join("%.3f" % x for x in times), stats["connects"], stats["cut"]))
sys.exit(0 if ok == 10 else 1)
PY
ok "10 of 10 scrapes within 2 s under 200 slow clients"
kill -0 "$LUPE_PID" || fail "the exporter died under the slow clients"

# --user: another unprivileged user; root and unknown users refused
if id daemon > /dev/null 2>&1; then
	start_lupe daemon -e page-faults --user daemon
	[ "$(awk '$1 == "Uid:" {print $3}' /proc/$LUPE_PID/status)" = "$(id -u daemon)" ] ||
		fail "--user daemon serves as $(grep '^Uid:' /proc/$LUPE_PID/status)"
	ok "--user daemon"
fi
for u in root no-such-user-here; do
	"$LUPE" exporter --listen 127.0.0.1:0 -e page-faults --user $u 2> user.err &
	p=$!
	EXPORTER_PIDS+=("$p")
	for _ in $(seq 100); do kill -0 $p 2>/dev/null || break; sleep 0.1; done
	wait $p && fail "--user $u was accepted"
	grep -q "cannot serve as '$u'" user.err || fail "--user $u: $(cat user.err)"
done
ok "--user root and an unknown user are refused"

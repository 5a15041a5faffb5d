#!/usr/bin/env bash
# a real Prometheus server on 127.0.0.1 scraping lupe exporter every second answers rate() of syscalls:sys_enter_getcpu with the sysload workload's known rate, within 5%
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/exporter.sh"
need_root
need_curl
need_tracefs
need_exporter
command -v prometheus > /dev/null || skip "prometheus is not installed (scripts/bootstrap installs it)"

RATE=2000
start_lupe lupe -a -e 'syscalls:sys_enter_get*'
pport=$(free_port)
cat > prometheus.yml <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: lupe
    static_configs:
      - targets: ['127.0.0.1:$LUPE_PORT']
YML
prometheus --config.file=prometheus.yml --storage.tsdb.path="$TMPD/data" \
	--web.listen-address="127.0.0.1:$pport" --log.level=warn > prometheus.log 2>&1 &
EXPORTER_PIDS+=($!)
for _ in $(seq 200); do
	curl -sf "http://127.0.0.1:$pport/-/ready" > /dev/null && break
	sleep 0.1
done
curl -sf "http://127.0.0.1:$pport/-/ready" > /dev/null || fail "prometheus did not get ready: $(tail -5 prometheus.log)"

# query EXPR: the first value of an instant query, or nothing
query() {
	curl -sf --max-time 10 "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1" |
		python3 -c 'import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "")'
}

# prometheus scrapes on its own schedule, from some seconds after it is
# ready: start the workload once it has scraped lupe, so that the rate's
# window is covered by scrapes end to end (else rate() extrapolates)
for _ in $(seq 300); do
	n=$(query 'count_over_time(up{job="lupe"}[1m])')
	[ -n "$n" ] && [ "$n" -ge 2 ] && break
	sleep 0.1
done
[ -n "$n" ] && [ "$n" -ge 2 ] || fail "prometheus did not scrape lupe in 30 s: $(tail -5 prometheus.log)"

# A real-time priority keeps the workload on its pace on a loaded machine
# (it needs a few ms of CPU a second): the known rate is then the true one.
# The exporter's threads get it too, so that a scrape reads the counters
# when prometheus stamps it, not some hundred ms later behind a compiler.
rt=()
if chrt -f 10 true 2> /dev/null; then
	rt=(chrt -f 10)
	chrt -a -f -p 10 "$LUPE_PID" > /dev/null || fail "cannot raise the exporter's priority"
fi
# One CPU for the workload: its count is then one series. A workload that
# migrates splits it in two, and rate() of a series that starts at 0 part way
# through the window is not extrapolated to the window's start, so the sum
# falls short (1863/s for 2000/s, seen once under load).
"${rt[@]}" taskset -c 0 "$WORKLOADS/sysload" -r $RATE -s 16 > sysload.out &
wl=$!
EXPORTER_PIDS+=("$wl")
# rate over 8 s of scrapes that all fall inside the workload's run
sleep 11
got=$(query 'sum(rate(lupe_events_total{event="syscalls:sys_enter_getcpu"}[8s]))')
# the samples behind it, said if the rate is off
curl -sf --max-time 10 "http://127.0.0.1:$pport/api/v1/query" --data-urlencode \
	'query=lupe_events_total{event="syscalls:sys_enter_getcpu"}[9s]' |
	python3 -c 'import json, sys
for s in json.load(sys.stdin)["data"]["result"]:
    v = s["values"]
    print("cpu", s["metric"]["cpu"], " ".join("%.3f:%s" % (float(t) % 100, x) for t, x in v))' > samples.txt 2>&1
up=$(query 'up{job="lupe"}')
wait "$wl"
[ "$up" = 1 ] || fail "prometheus says the lupe target is not up ($up): $(tail -5 prometheus.log)"
[ -n "$got" ] || fail "no result for the rate query"
python3 -c "import sys; got, want = float('$got'), $RATE; sys.exit(abs(got - want) > 0.05 * want)" ||
	fail "rate of getcpu: prometheus says $got/s, the workload made $RATE/s; samples (time:count): $(cat samples.txt)"
ok "prometheus: rate(syscalls:sys_enter_getcpu) = $got/s, workload $RATE/s ($(cat sysload.out))"

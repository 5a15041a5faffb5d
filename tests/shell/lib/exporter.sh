# Helpers for the exporter tests: start servers on loopback ports, scrape,
# and stop every server a test started (the EXIT trap). Source after common.sh.
EXPORTER_PIDS=()
exporter_cleanup() {
	local p
	for p in "${EXPORTER_PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	for p in "${EXPORTER_PIDS[@]}"; do
		# bounded: 5 s, then SIGKILL
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$p" 2>/dev/null
	done
	# a cgroup a test made, empty now that its processes are gone
	[ -n "${EXPORTER_CGROUP:-}" ] && rmdir "$EXPORTER_CGROUP" 2>/dev/null
	rm -rf "$TMPD"
}
trap exporter_cleanup EXIT

# need_exporter: skip when lupe was built without its HTTP library (it says so at once)
need_exporter() {
	! "$LUPE" exporter --listen nonsense 2>&1 | grep -q 'built without libmicrohttpd' ||
		skip "lupe was built without libmicrohttpd (scripts/bootstrap installs libmicrohttpd-dev)"
}
need_curl() { command -v curl > /dev/null || skip "curl is not installed (scripts/bootstrap installs it)"; }

# free_port: a TCP port on 127.0.0.1 that nothing listens on now
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_for FILE PATTERN: until FILE holds PATTERN, at most 10 s
wait_for() {
	for _ in $(seq 200); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# start_lupe NAME ARGS...: lupe exporter on a port the kernel picks; sets
# LUPE_PORT and LUPE_PID; its stderr is in NAME.err
start_lupe() {
	local name=$1
	shift
	"$LUPE" exporter --listen 127.0.0.1:0 "$@" 2> "$name.err" &
	LUPE_PID=$!
	EXPORTER_PIDS+=("$LUPE_PID")
	wait_for "$name.err" 'serving' || fail "lupe exporter $* did not start: $(cat "$name.err")"
	LUPE_PORT=$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\)/metrics.*|\1|p' "$name.err")
	[ -n "$LUPE_PORT" ] || fail "no port in: $(cat "$name.err")"
}

# scrape PORT [PATH]: the body of http://127.0.0.1:PORT/metrics
scrape() { curl -sf --max-time 10 "http://127.0.0.1:$1${2:-/metrics}"; }

#!/usr/bin/env bash
# lupe exporter beside node_exporter's perf collector (only that collector): --names node_exporter gives the same metric names, types and labels, and the software counters per CPU agree over the same interval
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/exporter.sh"
need_root
need_curl
need_exporter
NODE=$(command -v prometheus-node-exporter || command -v node_exporter) ||
	skip "node_exporter is not installed (package prometheus-node-exporter; scripts/bootstrap)"

nport=$(free_port)
"$NODE" --web.listen-address="127.0.0.1:$nport" --collector.disable-defaults --collector.perf \
	> node.log 2>&1 &
EXPORTER_PIDS+=($!)
for _ in $(seq 100); do
	scrape "$nport" > /dev/null 2>&1 && break
	sleep 0.1
done
scrape "$nport" > node0.txt || fail "node_exporter did not start: $(tail -5 node.log)"
grep -q '^node_perf_' node0.txt || skip "node_exporter's perf collector counts nothing here: $(tail -3 node.log)"
start_lupe lupe --names node_exporter

# the families: name, type and label names of every node_perf_ metric
families() {
	awk '/^# TYPE node_perf_/ { print "TYPE", $3, $4 }
	     /^node_perf_/ { n = $1; sub(/\{.*/, "", n); l = $1; gsub(/="[^"]*"/, "", l); sub(/^[^{]*/, "", l); print "SERIES", n, l }' "$1" | sort -u
}
scrape "$LUPE_PORT" > lupe0.txt || fail "lupe did not answer"
families node0.txt > node.fam
families lupe0.txt > lupe.fam
diff node.fam lupe.fam > fam.diff || fail "names or labels differ from node_exporter's (< node, > lupe): $(cat fam.diff)"
ok "the same $(grep -c '^TYPE' node.fam) families with the same labels as node_exporter: $(awk '/^TYPE/ { printf "%s ", $2 }' node.fam)"

# both scraped at the same moments, around a second of page faults and
# context switches on every CPU; each counter's increase must agree
both() {
	local p
	scrape "$nport" > "node$1.txt" &
	p=$!
	scrape "$LUPE_PORT" > "lupe$1.txt"
	wait "$p"
}
both 1
wl=()
for c in $(seq 0 $(($(nproc) - 1))); do
	"$WORKLOADS/sysload" -c "$c" -f 512 -x -s 1 > /dev/null &
	wl+=($!)
done
for p in "${wl[@]}"; do wait "$p"; done
both 2
python3 - node1.txt node2.txt lupe1.txt lupe2.txt > compare.out <<'PY' || fail "counters disagree: $(cat compare.out)"
import re, sys
def load(path):
    out = {}
    for line in open(path):
        m = re.match(r'(node_perf_\w+)\{cpu="(\d+)"\} (\S+)$', line)
        if m:
            out[(m[1], m[2])] = float(m[3])
    return out
n1, n2, l1, l2 = map(load, sys.argv[1:])
bad = 0
for k in sorted(n1):
    dn, dl = n2[k] - n1[k], l2[k] - l1[k]
    # the two scrapes of a pair are a few ms apart: allow that much activity
    ok = abs(dn - dl) <= 0.05 * max(dn, dl) + 200
    bad += not ok
    print(f"{'ok ' if ok else 'BAD'} {k[0]} cpu {k[1]}: node_exporter +{dn:.0f} lupe +{dl:.0f}")
big = [k for k in n1 if n2[k] - n1[k] > 10000]
if len(big) < 2:
    print("the workload made too few events to compare"); bad += 1
sys.exit(bad != 0)
PY
cat compare.out
ok "software counters per CPU agree with node_exporter's"

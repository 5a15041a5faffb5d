#!/usr/bin/env bash
# lupe list against perf list on this machine: the same tracepoints, software, hardware, cache and PMU lines; filters; --json
. "$(dirname "$0")/lib/common.sh"
need_perf
need_tracefs

# perf list adds SDT events from its build-id cache and metric groups from its
# built-in tables: neither is a kernel event, lupe does not list them.
perf_list() { "$PERF" list "$@" 2>/dev/null | grep -v '\[SDT event\]' | sed '/^Metric Groups:/,$d;/^Metrics:/,$d;/^$/d'; }

"$LUPE" list > lupe.txt || fail "lupe list exited $?"
perf_list > perf.txt
diff -u perf.txt lupe.txt > full.diff || { head -20 full.diff; fail "lupe list differs from perf list"; }
ok "lupe list = perf list ($(wc -l < lupe.txt) lines)"

# done-when 4: the same set of tracepoint names, and of software events
"$LUPE" list tracepoint | awk '{print $1}' | sort > lupe-tp.txt
perf_list tracepoint | awk '{print $1}' | sort > perf-tp.txt
[ -s perf-tp.txt ] || fail "perf lists no tracepoints"
cmp -s perf-tp.txt lupe-tp.txt || { diff perf-tp.txt lupe-tp.txt | head; fail "tracepoint names differ"; }
ok "tracepoints: the same $(wc -l < lupe-tp.txt) names"
"$LUPE" list sw > lupe-sw.txt
perf_list sw > perf-sw.txt
grep -q 'task-clock' lupe-sw.txt || fail "lupe list sw has no task-clock"
cmp -s perf-sw.txt lupe-sw.txt || { diff perf-sw.txt lupe-sw.txt; fail "software events differ"; }
ok "software events: the same $(wc -l < lupe-sw.txt) lines"

# the other categories and globs, each as perf prints it
for arg in hw cache pmu 'sched:*' 'sched:sched_sw*' 'sched*' faults clock 'msr/*' nosuchevent; do
	"$LUPE" list "$arg" > a.txt || fail "lupe list '$arg' exited $?"
	perf_list "$arg" > b.txt
	cmp -s b.txt a.txt || { diff b.txt a.txt | head; fail "lupe list '$arg' differs from perf"; }
done
ok "hw, cache, pmu and globs as perf"
[ "$("$LUPE" list 'sched:*' | grep -vc '^  sched:')" = 0 ] || fail "'sched:*' lists more than sched"
"$LUPE" list tool | grep -q '^  duration_time  *\[Tool event\]$' || fail "lupe list tool"

# --json: valid, and the same names as the text list
"$LUPE" list --json > list.json || fail "lupe list --json exited $?"
python3 -m json.tool list.json > /dev/null || fail "lupe list --json is not JSON"
python3 - list.json lupe.txt <<'PY' || fail "--json and the text list name different events"
import json, sys
j = json.load(open(sys.argv[1]))
names = [e["EventName"] + (" OR " + e["EventAlias"] if "EventAlias" in e else "") for e in j]
text = [l[2:l.rindex(" [")].rstrip() for l in open(sys.argv[2]).read().splitlines()]
sys.exit(names != text)
PY
"$LUPE" list --json 'sched:sched_switch' | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j == [{"EventName": "sched:sched_switch", "EventType": "Tracepoint event", "Unit": "tracepoint"}], j' ||
	fail "lupe list --json sched:sched_switch"
ok "--json"

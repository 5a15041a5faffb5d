#!/usr/bin/env bash
# lupe stat -x SEP and -j print perf stat's CSV columns and JSON keys for the same command
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/stat.sh"
need_perf

# done-when 3: the same columns and keys as perf for the same command
stat_same stat_norm_loose -x, -e task-clock,page-faults true
stat_same stat_norm_loose -j -e task-clock,page-faults true
stat_same stat_norm_loose -x, -e task-clock,page-faults,cycles true
stat_same stat_norm_loose -j -e task-clock,page-faults,cycles true
stat_same stat_norm_loose -x';' -e task-clock,page-faults,cycles true
stat_same stat_norm_loose -x, true
stat_same stat_norm_loose -j true
stat_same stat_norm_loose -x, -r 3 -e task-clock,page-faults true
stat_same stat_norm_loose -j -r 3 -e task-clock,page-faults true
stat_same stat_norm_loose -x, -a -A -e task-clock,page-faults sleep 0.1
stat_same stat_norm_loose -j -a -A -e task-clock,page-faults sleep 0.1

# the CSV columns one by one: value, unit, event, run time, % running, metric value, metric unit
"$LUPE" stat -x, -e task-clock,page-faults,cycles true 2> csv.out || fail "lupe stat -x,"
awk -F, 'NR==1 && !($2=="msec" && $3=="task-clock" && $5=="100.00" && $7=="CPUs utilized") { exit 1 }
	 NR==3 && !($1=="<not supported>" && $3=="cycles" && NF==7) { exit 1 }
	 END { exit NR != 3 }' csv.out || fail "CSV columns: $(cat csv.out)"

# JSON: every line an object with perf's keys, in perf's order
"$PERF" stat -j -e task-clock,page-faults,cycles true 2> perf.json
"$LUPE" stat -j -e task-clock,page-faults,cycles true 2> lupe.json || fail "lupe stat -j"
keys() {
	python3 -c 'import json,sys
for line in sys.stdin:
    print(" ".join(json.loads(line).keys()))'
}
keys < lupe.json > lupe.keys || fail "lupe's JSON does not parse: $(cat lupe.json)"
keys < perf.json > perf.keys
diff -u perf.keys lupe.keys || fail "JSON keys differ from perf's"
grep -q '"counter-value" : "<not supported>"' lupe.json || fail "no <not supported> in JSON"
ok "CSV and JSON"

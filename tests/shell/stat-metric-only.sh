#!/usr/bin/env bash
# lupe stat --metric-only prints perf 6.1's metric columns and nothing else (rates and CPUs utilized left out, an empty column for a counter without a count), in the default format, CSV and JSON, with -I (aggregate headers and JSON lines too), -A and --per-*
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/stat.sh"
need_root
need_perf

# exact lines (numbers aside): these outputs are made of padding and units
for args in "" "-e task-clock" "-e cycles" "-e task-clock,cycles,instructions" \
	    "-x, -e cycles,instructions" "-x, -e task-clock" "-j" "-j -e task-clock"; do
	# shellcheck disable=SC2086
	stat_same stat_norm --metric-only $args true
done
for args in "-a -A -e cycles" "-a -A -e cycles,instructions,task-clock" "-a --per-socket -e cycles" \
	    "-a --per-core -e cycles,task-clock" "-x, -a -A -e cycles" "-x, -a --per-core -e cycles" \
	    "-j -a -A -e cycles,branch-misses" "-j -a --per-die -e cycles,branch-misses" \
	    "-x, -a --per-node -e cycles"; do
	# shellcheck disable=SC2086
	stat_same stat_norm --metric-only $args true
done
stat_same stat_norm_loose --metric-only -I 100 --interval-count 2 -e task-clock,cycles sleep 0.3
stat_same stat_norm_loose --metric-only -x, -I 100 --interval-count 2 -e task-clock,cycles sleep 0.3
stat_same stat_norm_loose --metric-only -j -I 100 --interval-count 2 -e task-clock,cycles sleep 0.3
# -I by CPU, core, socket, die, node: perf's aggregate columns in the header, its JSON lines
for mode in -A --per-core --per-socket --per-die --per-node; do
	for fmt in "" -x, -j; do
		# shellcheck disable=SC2086
		stat_same_retry stat_norm_loose $fmt --metric-only -I 100 --interval-count 1 -a $mode -e task-clock,cycles,page-faults
	done
done
# perf's JSON -A header names every metric, rates ("/sec") and CPUs utilized too
stat_same stat_norm -j --metric-only -a -A -e task-clock,cycles,page-faults true

# where the machine counts cycles and instructions, the IPC column has a value
if have_hw_pmu; then
	"$LUPE" stat --metric-only -x, -e cycles,instructions true 2> hw.csv || fail "--metric-only on hardware"
	grep -Eq '^[0-9.]+,' <(sed -n 2p hw.csv) || fail "no insn per cycle value: $(cat hw.csv)"
	ok "insn per cycle has a value"
fi

# perf refuses it with -r and with --per-thread; so does lupe
"$LUPE" stat --metric-only -r 2 true > /dev/null 2>&1
[ $? = 129 ] || fail "--metric-only -r 2 was taken"
ok "refused with -r, as perf refuses it"

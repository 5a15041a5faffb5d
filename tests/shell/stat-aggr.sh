#!/usr/bin/env bash
# lupe stat --per-core/--per-socket/--per-die/--per-node -a print perf's aggregate columns (S0-D0-C1, cpus) in std, CSV and JSON, with the counts summed from sysfs topology, and are refused without -a/-C as perf refuses them
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/stat.sh"
need_root
need_perf

for mode in --per-core --per-socket --per-die --per-node; do
	stat_same stat_norm_loose "$mode" -a -e task-clock,context-switches,cycles true
	stat_same stat_norm_loose -x, "$mode" -a -e task-clock,context-switches,cycles true
	stat_same stat_norm_loose -j "$mode" -a -e task-clock,context-switches,cycles true
	stat_same stat_norm_loose -I 100 --interval-count 2 "$mode" -a -e task-clock,context-switches
done

# the ids and CPU counts are sysfs's: one line per core, its CPUs summed
ncores=$(cat /sys/devices/system/cpu/cpu[0-9]*/topology/core_id | sort -u | wc -l)
ncpus=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)
"$LUPE" stat -x, --per-core -a -e cpu-clock sleep 0.2 2> core.csv || fail "lupe stat --per-core: $(cat core.csv)"
[ "$(grep -c ',cpu-clock,' core.csv)" = "$ncores" ] || fail "want $ncores cores: $(cat core.csv)"
"$LUPE" stat -x, --per-socket -a -e cpu-clock sleep 0.2 2> socket.csv || fail "lupe stat --per-socket"
awk -F, -v n="$ncpus" '{ s += $2 } END { exit s != n }' socket.csv ||
	fail "the sockets' CPU counts do not add up to $ncpus: $(cat socket.csv)"
# cpu-clock of a socket over 0.2 s: about 200 ms for each of its CPUs
awk -F, '{ if ($3 < 150 * $2 || $3 > 400 * $2) exit 1 }' socket.csv ||
	fail "a socket's cpu-clock is not its CPUs' time: $(cat socket.csv)"
ok "$ncores cores, the sockets hold $ncpus CPUs, cpu-clock summed per socket"

# without a system-wide target both refuse it, as a usage error
for mode in --per-core --per-socket --per-die --per-node; do
	"$PERF" stat "$mode" -e task-clock true > /dev/null 2>&1
	prc=$?
	"$LUPE" stat "$mode" -e task-clock true > /dev/null 2> err.out
	lrc=$?
	[ "$prc" != 0 ] || fail "perf took $mode without -a"
	[ "$lrc" = 129 ] || fail "lupe stat $mode without -a exited $lrc: $(cat err.out)"
	grep -q -- "$mode" err.out || fail "the refusal does not name $mode: $(cat err.out)"
done
ok "refused without -a, as perf refuses"

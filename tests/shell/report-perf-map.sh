#!/usr/bin/env bash
# /tmp/perf-PID.map is read only as a regular file owned by the user or root, of at most 256 MiB: a FIFO does not hang report, another user's file is ignored (perf 6.1 reads it), a 1 GB sparse file costs no memory (each with a warning), a good one names the JIT symbols
. "$(dirname "$0")/lib/common.sh"
command -v python3 >/dev/null || skip "no python3 to build the file"
[ -x /usr/bin/time ] || skip "no /usr/bin/time to measure memory"
pid=$((4100000 + $$ % 90000))
map=/tmp/perf-$pid.map
[ -e "$map" ] && skip "$map exists already"
trap 'rm -rf "$TMPD" "$map"' EXIT
python3 "$LUPE_SRC/tests/shell/lib/perfdata.py" jit jit.data $pid jit_leaf jit_caller || fail "cannot build jit.data"
printf '7f0000001000 100 jit_leaf\n7f0000002000 100 jit_caller\n' > good.map
syms() { grep -v '^#' "$1" | grep -o '\[\.\] [^ ]*' | sort -u | tr '\n' ' '; }

cp good.map "$map"
"$LUPE" report --stdio --no-children -i jit.data > out 2> err || fail "report with a good map: $(cat err)"
[ "$(syms out)" = "[.] jit_leaf " ] || fail "a good map's symbols are not used: $(syms out)"
rm -f "$map"

mkfifo "$map"
timeout 20 "$LUPE" report --stdio --no-children -i jit.data > out 2> err; rc=$?
[ $rc != 124 ] || fail "report hangs on a FIFO at $map"
[ $rc = 0 ] || fail "report with a FIFO map exited $rc: $(cat err)"
grep -q "'$map' is not a regular file" err || fail "no warning about the FIFO: $(cat err)"
rm -f "$map"

if [ "$(id -u)" = 0 ]; then
	cp good.map "$map"
	chown 65534 "$map"
	"$LUPE" report --stdio --no-children -i jit.data > out 2> err || fail "report with another user's map: $(cat err)"
	grep -q "'$map' is not owned by the current user or root" err || fail "no warning about the owner: $(cat err)"
	[ "$(syms out)" = "[.] 0x00007f0000001010 " ] || fail "another user's map was used: $(syms out)"
	rm -f "$map"
else
	echo "  (not root: another user's map is not tried)"
fi

truncate -s 1G "$map"
/usr/bin/time -o use -f "%M" "$LUPE" report --stdio --no-children -i jit.data > out 2> err ||
	fail "report with a 1 GB map: $(cat err)"
grep -q "'$map' is larger than 256 MiB" err || fail "no warning about the size: $(cat err)"
kb=$(tail -1 use)
[ "$kb" -lt 65536 ] || fail "a 1 GB sparse map cost $kb KB"
rm -f "$map"
ok "perf-PID.map: a FIFO, another user's file and a 1 GB one are refused with a warning (1 GB: $kb KB); a good one is read"

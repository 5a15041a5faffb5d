#!/usr/bin/env bash
# lupe mem record -e list prints what perf mem record -e list prints (its lines first, the word "available" alike) and exits as perf does; with no memory events record and report fail with perf's sentence and run nothing; bad -t is a usage error
. "$(dirname "$0")/lib/common.sh"
need_perf

"$PERF" mem record -e list > perf.out 2>&1; perf_rc=$?
"$LUPE" mem record -e list > lupe.out 2>&1; lupe_rc=$?
[ -s perf.out ] || fail "perf mem record -e list printed nothing (exit $perf_rc)"

# same: LUPE_OUT begins with perf's lines (lupe may add its own sentence
# after perf's failure line), says "available" iff perf does (what perf's
# test_data_symbol.sh looks for), and the exit codes match
same() {
	local n
	n=$(wc -l < perf.out)
	head -n "$n" "$1" | cmp -s - perf.out || { echo "perf: $(cat perf.out)"; echo "lupe: $(cat "$1")"; return 1; }
	[ "$(grep -cw available "$1")" = "$(grep -cw available perf.out)" ] || { echo "'available' lines differ"; return 1; }
	[ "$2" = "$perf_rc" ] || { echo "lupe exited $2, perf $perf_rc"; return 1; }
}
same lupe.out "$lupe_rc" || fail "lupe mem record -e list is not perf's"
ok "mem record -e list as perf's (exit $perf_rc): $(head -1 perf.out)"

# the comparison fails on a planted difference: a changed first line, an exit code
sed '1s/^./X/' lupe.out > planted.out
same planted.out "$lupe_rc" >/dev/null && fail "a changed first line passed the comparison"
same lupe.out $((lupe_rc + 1)) >/dev/null && fail "a different exit code passed the comparison"
ok "the comparison fails on a planted difference"

if grep -q 'memory events not supported' perf.out; then
	rm -f ran
	"$LUPE" mem record -- touch ran > rec.out 2>&1; rc=$?
	[ $rc = 255 ] || fail "lupe mem record without memory events exited $rc, want 255"
	grep -qx 'failed: memory events not supported' rec.out || fail "lupe mem record said: $(cat rec.out)"
	[ ! -e ran ] || fail "lupe mem record ran the command without memory events"
	"$LUPE" mem report > rep.out 2>&1; rc=$?
	[ $rc = 255 ] || fail "lupe mem report without memory events exited $rc, want 255"
	ok "record and report fail as perf's without memory events, the command not run"
fi

# a machine with the events, faked (LUPE_MEM_SYSFS stands for /sys): the
# list as perf 6.1 prints it for this vendor, and what record runs
mkdir -p fake/devices/ibs_op fake/devices/cpu/events
touch fake/devices/cpu/events/mem-stores
LUPE_MEM_SYSFS=$PWD/fake "$LUPE" mem record -e list > list.out 2>&1 || fail "-e list with faked events exited $?: $(cat list.out)"
if grep -q AuthenticAMD /proc/cpuinfo; then
	printf '%-13s\n%-13s\nmem-ldst     : available\n' '' '' | cmp -s - list.out || fail "AMD's list: $(cat -A list.out)"
	LUPE_MEM_SYSFS=$PWD/fake "$LUPE" mem record -o x -- true > rec.out 2>&1
	grep -q "ibs_op//" rec.out || fail "mem record did not run lupe record -e ibs_op//: $(cat rec.out)"
else
	printf 'ldlat-loads  \nldlat-stores : available\n%-13s\n' '' | cmp -s - list.out || fail "Intel's list: $(cat -A list.out)"
	# no mem-loads event: -t load fails as perf's does
	LUPE_MEM_SYSFS=$PWD/fake "$LUPE" mem record -t load -- true > rec.out 2>&1 && fail "mem record -t load ran without mem-loads"
	grep -q "failed: event 'ldlat-loads' not supported" rec.out || fail "mem record -t load without mem-loads: $(cat rec.out)"
	# with it, the load's latency needs -W, which lupe record lacks
	cp -r fake fakeload && touch fakeload/devices/cpu/events/mem-loads
	LUPE_MEM_SYSFS=$PWD/fakeload "$LUPE" mem record -t load -- true > rec.out 2>&1 && fail "mem record -t load ran without -W"
	grep -q -- "-W" rec.out || fail "mem record -t load's refusal does not name -W: $(cat rec.out)"
fi
LUPE_MEM_SYSFS=$PWD/fake "$LUPE" mem report > rep.out 2>&1 && fail "mem report ran with faked events"
grep -q symbol_daddr rep.out || fail "mem report's refusal does not name the missing keys: $(cat rep.out)"
ok "faked memory events: the list, record's event, report refused"

expect_rc 129 "$LUPE" mem -t bogus record -e list 2>/dev/null
expect_rc 129 "$LUPE" mem nosuch 2>/dev/null
expect_rc 129 "$LUPE" mem 2>/dev/null
ok "usage errors exit 129"

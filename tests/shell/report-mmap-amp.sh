#!/usr/bin/env bash
# compressed-record amplification: 150,000 MMAP2 records of distinct 4,000-character names at one address behind zstd (as record -z writes them, 614 MB inflated) are reported with peak RSS at most 2x perf's on the same file and at most 27 MB (2x the 13.5 MB perf was measured at on the issue's file)
. "$(dirname "$0")/lib/common.sh"
need_perf
[ -x /usr/bin/time ] || skip "no /usr/bin/time to measure memory"
command -v python3 >/dev/null || skip "no python3 to build the file"
python3 -c 'import ctypes.util, sys; sys.exit(not ctypes.util.find_library("zstd"))' ||
	skip "no libzstd for python3 to compress with"
python3 "$LUPE_SRC/tests/shell/lib/perfdata.py" mmap-amp amp.data 150000 4000 || fail "cannot build amp.data"
/usr/bin/time -o lupe.use -f "%e %M" "$LUPE" report --stdio -i amp.data > lupe.out 2> lupe.err; rc=$?
grep -q "built without zstd" lupe.err && skip "lupe was built without zstd"
[ $rc = 0 ] || fail "lupe report exited $rc: $(head -c 500 lupe.err)"
# the 100 samples are in the last map: its name, 1% each
grep -q "00149999.so  \[\.\] 0x0000000000000163" lupe.out || fail "lupe report lacks the last map's samples: $(head -c 500 lupe.out)"
/usr/bin/time -o perf.use -f "%e %M" "$PERF" report --stdio -i amp.data > /dev/null 2>&1 ||
	fail "perf report failed on amp.data"
read -r lsec lkb < <(tail -1 lupe.use)
read -r psec pkb < <(tail -1 perf.use)
echo "  amp.data ($(stat -c %s amp.data) bytes): lupe ${lkb} KB in ${lsec}s, perf ${pkb} KB in ${psec}s"
[ "$lkb" -le $((2 * pkb)) ] || fail "lupe's peak RSS ${lkb} KB is over 2x perf's ${pkb} KB"
[ "$lkb" -le 27648 ] || fail "lupe's peak RSS ${lkb} KB is over 27 MB"
ok "150,000 distinct 4,000-byte MMAP2 names behind zstd: lupe ${lkb} KB, perf ${pkb} KB"

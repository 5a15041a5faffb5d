#!/usr/bin/env bash
# --switch-output (size, SIGUSR2), --max-size, both together (the limit per file, the warning for a small size) and --aio write what perf 6.1 writes: timestamped files perf reads, a stop at the limit, a whole file
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf

W="$WORKLOADS/demo"
samples() { "$PERF" report -i "$1" --stats 2>/dev/null | awk '$1 == "SAMPLE" { print $3; exit }'; }

# size: at least two files named OUTPUT.YYYYmmddHHMMSScc, each a perf.data perf reads
for t in perf lupe; do
	mkdir $t && cd $t || exit 1
	if [ $t = perf ]; then
		"$PERF" record -e cpu-clock -F 20000 --switch-output=100K -o sw.data -- "$W" -n 400 >/dev/null 2>err.txt || fail "perf record exited $?"
	else
		"$LUPE" record -e cpu-clock -F 20000 --switch-output=100K -o sw.data -- "$W" -n 400 >/dev/null 2>err.txt || fail "lupe record exited $?"
	fi
	ls sw.data.* | grep -Ev '^sw\.data\.[0-9]{16}$' && fail "$t: a file not named sw.data.<timestamp>"
	n=$(ls sw.data.* | wc -l)
	[ "$n" -ge 2 ] || fail "$t: $n files, want 2 or more"
	[ -e sw.data ] && fail "$t: sw.data left behind"
	total=0
	for f in sw.data.*; do
		"$PERF" report -i "$f" --stats >/dev/null 2>&1 || fail "$t: perf cannot read $f"
		s=$(samples "$f"); total=$((total + ${s:-0}))
	done
	grep -c '^\[ perf record: Dump sw.data.[0-9]*\ ]$' err.txt >dumps
	[ "$(cat dumps)" = "$n" ] || fail "$t: $(cat dumps) Dump lines for $n files"
	grep -q '^\[ perf record: Captured and wrote [0-9.]* MB sw.data.<timestamp> \]$' err.txt || fail "$t: no final Captured line: $(tail -1 err.txt)"
	echo "$t: $n files, $total samples"
	echo "$total" >../$t.total
	cd ..
done
# the same workload at the same rate: sample totals within a factor of two
awk -v l="$(cat lupe.total)" -v p="$(cat perf.total)" 'BEGIN { exit !(l > p / 2 && l < p * 2) }' ||
	fail "sample totals lupe $(cat lupe.total) perf $(cat perf.total)"
ok "--switch-output=100K: timestamped files perf reads"

# signal: SIGUSR2 finishes one file and starts the next
"$LUPE" record -q -e cpu-clock --switch-output -o sig.data -- sleep 1 &
pid=$!
sleep 0.5
kill -USR2 $pid
wait $pid || fail "lupe record with SIGUSR2 exited $?"
[ "$(ls sig.data.* | wc -l)" = 2 ] || fail "SIGUSR2: $(ls sig.data.* | wc -l) files, want 2"
for f in sig.data.*; do "$PERF" report -i "$f" --stats >/dev/null 2>&1 || fail "perf cannot read $f"; done
ok "--switch-output (SIGUSR2): two files"

# --max-size: perf's message, the workload stopped, a complete file a little past the limit
"$LUPE" record -e cpu-clock -F 20000 --max-size=50K -o ms.data -- "$W" -n 4000 >/dev/null 2>err.txt
grep -q '^\[ perf record: perf size limit reached ([0-9]* KB), stopping session \]$' err.txt || fail "--max-size: no limit message"
kb=$(sed -n 's/.*limit reached (\([0-9]*\) KB.*/\1/p' err.txt)
[ "$kb" -ge 50 ] || fail "--max-size: stopped at $kb KB, before the limit"
n=$(samples ms.data)
[ -n "$n" ] && [ "$n" -gt 0 ] || fail "--max-size: perf reads no samples in ms.data"
full=$(stat -c %s ms.data)
[ "$full" -lt $((4 * 1024 * 1024)) ] || fail "--max-size: file of $full bytes, the recording did not stop"
ok "--max-size=50K: stopped at $kb KB with $n samples"

# --switch-output with --max-size: the size counts each file (as perf's); the write past
# it stops the session, then the file due for a switch is dumped, the rest in a last one
for t in perf lupe; do
	mkdir ms-$t && cd ms-$t || exit 1
	if [ $t = perf ]; then R=$PERF; else R=$LUPE; fi
	"$R" record -e cpu-clock -F 20000 --switch-output=100K --max-size=250K -o sw.data -- "$W" -n 4000 >/dev/null 2>err.txt
	grep -q '^\[ perf record: perf size limit reached ([0-9]* KB), stopping session \]$' err.txt || fail "$t: no limit message: $(cat err.txt)"
	sed -n '/size limit reached/{n;p;n;p}' err.txt | sed 's/[0-9]//g' > after.txt
	n=$(ls sw.data.* | wc -l)
	[ "$n" -ge 2 ] || fail "$t: $n files with --switch-output --max-size, want 2 or more"
	for f in sw.data.*; do "$PERF" report -i "$f" --stats >/dev/null 2>&1 || fail "$t: perf cannot read $f"; done
	# the warning perf gives for a switch size under half a ring, and the lines after the limit
	grep -v '^\[' err.txt > warn.txt
	cd ..
done
diff ms-perf/after.txt ms-lupe/after.txt || fail "--switch-output --max-size: lupe says other things than perf after the limit"
diff ms-perf/warn.txt ms-lupe/warn.txt || fail "--switch-output=100K: lupe warns otherwise than perf"
grep -q 'lower than wakeup kernel buffer size (258K)' ms-lupe/warn.txt || fail "no wakeup buffer warning: $(cat ms-lupe/warn.txt)"
"$PERF" record -q -m 16 -e cpu-clock --switch-output=20K -o q.data -- true 2>perf.w >/dev/null
"$LUPE" record -q -m 16 -e cpu-clock --switch-output=20K -o q.data -- true 2>lupe.w >/dev/null
"$PERF" record -m 16 -e cpu-clock --switch-output=20K -o q.data -- true 2>&1 >/dev/null | grep WARNING >perf.w16
"$LUPE" record -m 16 -e cpu-clock --switch-output=20K -o q.data -- true 2>&1 >/dev/null | grep WARNING >lupe.w16
diff perf.w lupe.w && diff perf.w16 lupe.w16 || fail "the warning with -m 16 or -q differs from perf's"
grep -q '(34K)' lupe.w16 || fail "-m 16: $(cat lupe.w16)"
ok "--switch-output=100K --max-size=250K: the limit, the switch and the warning as perf"

# --aio: a whole file perf reads, its data written by the AIO threads, not by record's own thread
if command -v strace >/dev/null; then
	# lupe's own execve comes first, from record's thread; a loaded machine splits a call
	# into "pwrite64(... <unfinished ...>" and "<... pwrite64 resumed>) = N"
	strace -f -e trace=execve,pwrite64 -o st.txt "$LUPE" record -q --aio=2 -e cpu-clock -F 20000 -o aio.data -- "$W" -n 200 >/dev/null ||
		fail "lupe record --aio exited $?"
	main=$(head -1 st.txt | awk '{ print $1 }')
	awk -v m="$main" '$1 != m && /pwrite64/ && /= [0-9]+$/' st.txt | grep -q . ||
		fail "--aio: every data write came from record's own thread"
else
	"$LUPE" record -q --aio=2 -e cpu-clock -F 20000 -o aio.data -- "$W" -n 200 >/dev/null || fail "lupe record --aio exited $?"
fi
"$PERF" record -q --aio=2 -e cpu-clock -F 20000 -o aiop.data -- "$W" -n 200 >/dev/null 2>&1 || fail "perf record --aio exited $?"
l=$(samples aio.data); p=$(samples aiop.data)
[ -n "$l" ] && [ "$l" -gt 0 ] || fail "--aio: perf reads no samples in lupe's file"
awk -v l="$l" -v p="$p" 'BEGIN { exit !(l > p / 2 && l < p * 2) }' || fail "--aio: samples lupe $l perf $p"
ok "--aio=2: $l samples (perf $p), written asynchronously"

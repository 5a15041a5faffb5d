#!/usr/bin/env bash
# lupe record writes the records perf record writes (ID_INDEX, THREAD_MAP, CPU_MAP, file and pipe), the [vdso] build-id and its cache copy, and perf's COMM-only threads for -p
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf

# kinds FILE: each record kind and its count, less those chance decides (samples, rounds,
# the BPF programs other tools load: record-bpf-event compares those)
kinds() {
	"$PERF" report -D -i "$1" 2>/dev/null | grep -o 'PERF_RECORD_[A-Z_0-9]*' |
		grep -v -e '^PERF_RECORD_SAMPLE$' -e '^PERF_RECORD_FINISHED_ROUND$' -e '^PERF_RECORD_FEATURE$' \
			-e '^PERF_RECORD_KSYMBOL$' -e '^PERF_RECORD_BPF_EVENT$' |
		sort | uniq -c
}
# maps READER FILE: the dump of ID_INDEX, EVENT_UPDATE, THREAD_MAP and CPU_MAP, ids and pids made names
maps() {
	"$1" report -D -i "$2" 2>/dev/null |
		grep -E 'PERF_RECORD_(ID_INDEX|EVENT_UPDATE|THREAD_MAP|CPU_MAP)|^ \.\.\. id: [0-9]+  idx|^\.\.\. (unit|scale|name): ' |
		sed -E 's/^[0-9 ]*0x[0-9a-f]+ \[0x[0-9a-f]+\]: //; s/id: [0-9]+/id: ID/; s/tid: [1-9][0-9]*/tid: T/; s/(thread: |threads: |, )[1-9][0-9]*/\1T/g'
}
# same NAME OPTIONS...: lupe's and perf's files of `true` have the same records and maps
# (not -a: perf 6.1 adds a dummy:HG event system-wide, which lupe does not)
same() {
	local name=$1
	shift
	"$PERF" record -q "$@" -o "perf.$name" -- true 2>/dev/null || fail "perf record $* failed"
	"$LUPE" record -q "$@" -o "lupe.$name" -- true || fail "lupe record $* failed"
	diff <(kinds "perf.$name") <(kinds "lupe.$name") || fail "record $*: the record kinds differ from perf's"
	maps "$PERF" "perf.$name" > want
	[ -s want ] || fail "perf record $* wrote no ID_INDEX/THREAD_MAP/CPU_MAP"
	diff want <(maps "$PERF" "lupe.$name") || fail "record $*: the maps differ from perf's"
	diff want <(maps "$LUPE" "lupe.$name") || fail "record $*: lupe report -D prints the maps unlike perf's dump"
	"$PERF" script -i "lupe.$name" > /dev/null 2> err || fail "perf script -i lupe.$name failed"
	[ ! -s err ] || fail "perf script warns on lupe.$name: $(cat err)"
	"$PERF" evlist -v -i "lupe.$name" > /dev/null 2> err && [ ! -s err ] || fail "perf evlist -v on lupe.$name: $(cat err)"
}
same default
same 2ev -e cpu-clock -e task-clock
same per-thread --per-thread
same nodata -e task-clock -c 100000
echo "ok: file mode: the records and maps of perf's"

# pipe mode: the same records (perf 6.1 writes more FEATUREs: not counted here)
"$PERF" record -q -o - -- true 2>/dev/null > perf.pipe || fail "perf record -o - failed"
"$LUPE" record -q -o - -- true > lupe.pipe || fail "lupe record -o - failed"
diff <(kinds perf.pipe) <(kinds lupe.pipe) || fail "pipe mode: the record kinds differ from perf's"
# (perf names its default event cpu-clock:ppp, lupe cpu-clock: the maps of one named alike)
"$PERF" record -q -e cpu-clock -o - -- true 2>/dev/null > perf.epipe || fail "perf record -e cpu-clock -o - failed"
"$LUPE" record -q -e cpu-clock -o - -- true > lupe.epipe || fail "lupe record -e cpu-clock -o - failed"
diff <(kinds perf.epipe) <(kinds lupe.epipe) || fail "pipe mode -e cpu-clock: the record kinds differ from perf's"
diff <(maps "$PERF" perf.epipe) <(maps "$PERF" lupe.epipe) || fail "pipe mode: the maps differ from perf's"
diff <(maps "$PERF" perf.epipe) <(maps "$LUPE" lupe.epipe) || fail "pipe mode: lupe report -D prints the maps unlike perf's dump"
"$PERF" report -D -i lupe.pipe 2>/dev/null | grep -A2 'PERF_RECORD_EVENT_UPDATE' | grep -q 'name: *cpu-clock' ||
	fail "pipe mode: no EVENT_UPDATE names the event"
"$PERF" script -i - < lupe.pipe > /dev/null 2> err && [ ! -s err ] || fail "perf script on lupe's stream: $(cat err)"
echo "ok: pipe mode: the records and maps of perf's"

# the [vdso]: in the build-id table whenever mapped, in the cache as perf puts it
printf '[buildid]\n\tdir = %s/pcache\n' "$TMPD" > perf.cfg
printf '[buildid]\n\tdir = %s/lcache\n' "$TMPD" > lupe.cfg
PERF_CONFIG=perf.cfg "$PERF" record -q -o perf.vdso -- "$WORKLOADS/clock" 300000 2>/dev/null || fail "perf record clock failed"
PERF_CONFIG=lupe.cfg "$LUPE" record -q -o lupe.vdso -- "$WORKLOADS/clock" 300000 || fail "lupe record clock failed"
"$PERF" buildid-list -i perf.vdso > bl.perf
"$PERF" buildid-list -i lupe.vdso > bl.lupe
grep -q ' \[vdso\]$' bl.perf || skip "perf lists no [vdso] here (no vdso?)"
# which libraries a sample hit is chance: the [vdso] line, and the same id for each name both list
diff <(grep ' \[vdso\]$' bl.perf) <(grep ' \[vdso\]$' bl.lupe) || fail "the [vdso] build-id lines differ"
[ "$(join -j 2 <(sort -k2 bl.perf) <(sort -k2 bl.lupe) | awk '$2 != $3' | wc -l)" = 0 ] ||
	fail "perf buildid-list gives other build-ids on lupe's file"
diff bl.lupe <("$LUPE" buildid-list -i lupe.vdso) || fail "lupe buildid-list differs from perf's on lupe's file"
id=$(awk '$2 == "[vdso]" { print $1 }' bl.perf)
cmp "pcache/[vdso]/$id/vdso" "lcache/[vdso]/$id/vdso" || fail "the cached vdso differs from perf's"
[ "$(readlink "lcache/.build-id/${id:0:2}/${id:2}")" = "$(readlink "pcache/.build-id/${id:0:2}/${id:2}")" ] ||
	fail "the vdso's .build-id link differs from perf's"
for reader in "$PERF" "$LUPE"; do
	PERF_CONFIG=lupe.cfg "$reader" report -v --stdio -i lupe.vdso 2>/dev/null |
		grep -q '\[vdso\] .* B \[\.\] __vdso_clock_gettime' || fail "$reader report -v finds the vdso without origin B"
done
# a true that maps the vdso and has no sample there: perf lists it all the same
PERF_CONFIG=lupe.cfg "$LUPE" record -q -o lupe.true -- true || fail "lupe record true failed"
"$PERF" buildid-list -i lupe.true | grep -q " \[vdso\]$" || fail "no [vdso] listed for true"
# -N: the table, no cache; -B: neither
rm -rf lcache
PERF_CONFIG=lupe.cfg "$LUPE" record -q -N -o lupe.n -- true || fail "lupe record -N failed"
"$PERF" buildid-list -i lupe.n | grep -q " \[vdso\]$" || fail "record -N lists no [vdso]"
[ ! -e lcache ] || fail "record -N filled the build-id cache"
PERF_CONFIG=lupe.cfg "$LUPE" record -q -B -o lupe.b -- true || fail "lupe record -B failed"
! "$PERF" buildid-list -i lupe.b | grep -q "\[vdso\]" || fail "record -B lists the [vdso]"
[ ! -e lcache ] || fail "record -B filled the build-id cache"
echo "ok: the [vdso] build-id and cache copy of perf's"

# -p of a threaded process: one COMM per thread (no FORK), maps once, as perf
start_demo() { # demo -t 3 in the background, its pid in wl once its threads run
	"$WORKLOADS/demo" -t 3 -s "$1" > /dev/null &
	wl=$!
	for _ in $(seq 50); do
		[ "$(ls /proc/$wl/task 2>/dev/null | wc -l)" -ge 3 ] && break
		sleep 0.05
	done
	[ "$(ls /proc/$wl/task | wc -l)" -ge 3 ] || fail "demo -t 3 did not start its threads"
}
start_demo 3
"$PERF" record -q -p "$wl" -o perf.p 2>/dev/null &
pp=$!
"$LUPE" record -q -p "$wl" -o lupe.p &
lp=$!
wait "$pp" || fail "perf record -p failed"
wait "$lp" || fail "lupe record -p failed"
wait "$wl"
# the synthesized task records, as perf script shows them (time 0)
synth() { "$PERF" script -i "$1" --show-task-events --show-mmap-events 2>/dev/null | grep ' 0\.000000: PERF_RECORD_' | sed 's/^ *[^ ]* *//'; }
synth perf.p > want
grep -q FORK want && fail "perf synthesized a FORK for -p: the test's premise is wrong"
[ "$(grep -c 'PERF_RECORD_COMM' want)" -ge 3 ] || fail "perf synthesized fewer than 3 COMMs"
diff want <(synth lupe.p) || fail "-p: the synthesized records differ from perf's"
for reader in "$PERF" "$LUPE"; do
	diff <("$reader" report --tasks -i perf.p 2>/dev/null) <("$reader" report --tasks -i lupe.p 2>/dev/null) ||
		fail "$reader report --tasks differs on the -p recordings"
done
echo "ok: -p: perf's COMM-only threads"

# -t of a thread that is not its leader: its COMM, then the leader's COMM and maps
start_demo 30 # killed below; long enough for perf and lupe on a loaded machine
tid=$(ls /proc/$wl/task | sort -n | tail -1)
"$PERF" record -q -t "$tid" -o perf.t -- sleep 0.3 2>/dev/null || fail "perf record -t failed"
"$LUPE" record -q -t "$tid" -o lupe.t -- sleep 0.3 || fail "lupe record -t failed"
diff <(synth perf.t | grep -v ' lupe-exec:\| perf-exec:') <(synth lupe.t | grep -v ' lupe-exec:\| perf-exec:') ||
	fail "-t: the synthesized records differ from perf's"
# -p with a command: the command times the recording (demo still runs after it)
"$PERF" record -q -p "$wl" -o perf.ps -- sleep 0.3 2>/dev/null || fail "perf record -p -- sleep failed"
"$LUPE" record -q -p "$wl" -o lupe.ps -- sleep 0.3 || fail "lupe record -p -- sleep failed"
kill -0 "$wl" 2>/dev/null || fail "lupe record -p PID -- sleep 0.3 did not stop when sleep ended"
diff <(kinds perf.ps) <(kinds lupe.ps) || fail "-p PID -- sleep: the record kinds differ from perf's"
kill "$wl"
wait "$wl"
echo "ok: -t, and -p with a command as its timer"

# -a: FORK, COMM (and the leader's maps) per task, as perf: those of a threaded demo
start_demo 30 # killed below; long enough for perf and lupe on a loaded machine
"$PERF" record -q -a -o perf.a -- true 2>/dev/null || fail "perf record -a failed"
"$LUPE" record -q -a -o lupe.a -- true || fail "lupe record -a failed"
synth perf.a | grep -E "\($wl:|:$wl/| $wl/$wl: " > want
[ "$(grep -c FORK want)" -ge 3 ] && grep -q MMAP2 want || fail "perf synthesized no maps or fewer than 3 FORKs for demo -a"
diff want <(synth lupe.a | grep -E "\($wl:|:$wl/| $wl/$wl: ") || fail "-a: demo's synthesized records differ from perf's"
kill "$wl"
wait "$wl"
ok "lupe record writes perf's records"

#!/usr/bin/env bash
# lupe report and script on empty, random, truncated and foreign files: a sentence naming the problem, a non-zero exit (a cut file: what it holds), no crash
. "$(dirname "$0")/lib/common.sh"
need_perf
check() { # what file
	local out rc
	out=$("$LUPE" report --stdio -i "$2" 2>&1 >/dev/null); rc=$?
	[ $rc -ne 0 ] && [ $rc -lt 128 ] || fail "report on $1 exited $rc"
	echo "$out" | grep -q "lupe: " || fail "report on $1 said nothing: $out"
	out=$("$LUPE" script -i "$2" 2>&1 >/dev/null); rc=$?
	[ $rc -ne 0 ] && [ $rc -lt 128 ] || fail "script on $1 exited $rc"
	echo "  $1: $(echo "$out" | head -1)"
}
: > empty.data
check "an empty file" empty.data
head -c 100000 /dev/urandom > random.data
check "random bytes" random.data
"$PERF" record -q -g -o full.data -- "$WORKLOADS/demo" -n 100 >/dev/null 2>&1 || skip "perf record failed"
size=$(stat -c %s full.data)
head -c 50 full.data > short.data
check "a file cut inside its header" short.data
# a file cut in its data is read to its last whole record, and says so:
# cut in the middle of the data section (header.data at byte 40: offset,
# size), not of the file, whose features (BPF programs' info and BTF when
# other tools run BPF here) may be the larger half
doff=$(od -An -t u8 -j 40 -N 8 full.data | tr -d ' ')
dsize=$(od -An -t u8 -j 48 -N 8 full.data | tr -d ' ')
[ "$dsize" -gt 0 ] && [ $((doff + dsize)) -le "$size" ] || fail "full.data's header names data at $doff+$dsize of $size bytes"
head -c $((doff + dsize / 2 + 3)) full.data > half.data
out=$("$LUPE" report --stdio -i half.data 2>&1 >/dev/null); rc=$?
[ $rc -eq 0 ] || fail "report on a half file exited $rc: $out"
echo "$out" | grep -q "records recovered (up to offset" || fail "no recovery said in: $out"
# a pipe-mode stream cut inside a record: read to there, and said
"$PERF" record -q -g -o - -- "$WORKLOADS/demo" -n 100 > pipe.data 2>/dev/null || skip "perf record -o - failed"
psize=$(stat -c %s pipe.data)
head -c $((psize / 2 + 5)) pipe.data > pipecut.data
out=$("$LUPE" report --stdio -i - < pipecut.data 2>&1 >/dev/null); rc=$?
[ $rc -eq 0 ] || fail "report on a cut stream exited $rc: $out"
echo "$out" | grep -q "the stream '-' ends inside the record at offset 0x[0-9a-f]*: [0-9]* records recovered" ||
	fail "no recovery said for a cut stream: $out"
# corrupt a record size in the middle of the data
cp full.data bad.data
printf '\x03\x00' | dd of=bad.data bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
"$LUPE" script -i bad.data >/dev/null 2>&1; rc=$?
[ $rc -lt 128 ] || fail "script on a corrupted file crashed ($rc)"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	cp full.data other.data && chown nobody other.data
	out=$("$LUPE" report --stdio -i other.data 2>&1 >/dev/null); rc=$?
	[ $rc -ne 0 ] && echo "$out" | grep -q "not owned" || fail "a foreign file was read without -f: $out"
	"$LUPE" report --stdio -f -i other.data >/dev/null || fail "-f does not read a foreign file"
fi
ok "bad input"

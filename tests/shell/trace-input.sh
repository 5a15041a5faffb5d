#!/usr/bin/env bash
# lupe trace -i FILE of lupe record -e 'raw_syscalls:*' prints the lines the live perf-fallback trace prints for the same program (pids and pointers masked); on calls without pointers the BPF path, the fallback and -i print the same text; perf trace -i counts the same calls; a file without raw_syscalls is refused
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_root
need_tracefs
W=$WORKLOADS/syscalls

# mask FILE: the program's own ids and addresses. An id is masked where ids
# are: a return value (set_tid_address, getppid and clone return them), the
# "[pid TID]" of other threads' lines, futex's value (a thread's id); not
# everywhere, or a size that equals the id reads as one (mmap(NULL, PPID, ...)
# when getppid() returned 8192)
mask() {
	local me parent tids args=() id name
	me=$(sed -n 's/^\(\[pid *[0-9]*\] \)\{0,1\}set_tid_address(.*= \([0-9]*\)$/\2/p' "$1" | head -1)
	parent=$(sed -n 's/^\(\[pid *[0-9]*\] \)\{0,1\}getppid().*= \([0-9]*\)$/\2/p' "$1" | head -1)
	tids=$(sed -n 's/^\[pid *\([0-9]*\)\].*/\1/p' "$1" | sort -u)
	for id in ${me:+$me=PID} ${parent:+$parent=PPID} $(for t in $tids; do echo "$t=TID"; done); do
		name=${id#*=} id=${id%=*}
		args+=(-e "s/= $id\$/= $name/" -e "s/^\\[pid $id\\]/[pid $name]/"
			-e "s/(futex\\(0xADDR, [A-Z_|]+, )$id,/\\1$name,/")
	done
	sed -E -e "s/0x[0-9a-f]+/0xADDR/g" -e 's/^\[pid +/[pid /' "${args[@]}" "$1"
}

"$LUPE" record -q -e 'raw_syscalls:*' -o sc.data -- "$W" -n 200 >/dev/null 2>rec.err ||
	fail "record failed: $(cat rec.err)"
"$LUPE" trace -i sc.data -o file.txt 2>err || fail "trace -i failed: $(cat err)"
LUPE_TRACE_NO_BPF=1 "$LUPE" trace -o live.txt -- "$W" -n 200 >/dev/null 2>err ||
	fail "live trace failed: $(cat err)"
n=$(wc -l <file.txt)
[ "$n" -gt 300 ] || fail "trace -i printed $n lines: $(head -5 file.txt)"
# the file begins at the exec (record enables its events there): its execve
# has no entry, where the live trace sees the whole call
mask live.txt | sed '1s/^execve(0xADDR, 0xADDR, 0xADDR) *= 0$/<... execve resumed>) = 0/' >live.m
mask file.txt | sed '1s/^<... execve resumed>) *= 0$/<... execve resumed>) = 0/' >file.m
head -1 live.m | grep -q '^<... execve resumed>) = 0$' || fail "the live trace's first line: $(head -1 live.txt)"
diff live.m file.m >d.txt || fail "trace -i and the live trace differ: $(head -20 d.txt)"
ok "trace -i printed the live fallback's $n lines, in the same order"

# threads: -b blocks a second thread in read (where its unfinished line falls is timing)
"$LUPE" record -q -e 'raw_syscalls:*' -o b.data -- "$W" -n 50 -b >/dev/null 2>rec.err ||
	fail "record -b failed: $(cat rec.err)"
"$LUPE" trace -i b.data -o b.txt 2>err || fail "trace -i of two threads failed: $(cat err)"
grep -q '^\[pid *[0-9]*\] <... read resumed>' b.txt || fail "no resumed read of the second thread: $(cat b.txt)"
[ "$(grep -c '+++ exited with 0 +++$' b.txt)" = 1 ] || fail "the end not said once: $(tail -3 b.txt)"

# the file names its threads: the summary says "syscalls (PID)"
"$LUPE" trace -s -i sc.data -o sum.txt 2>err || fail "trace -s -i failed: $(cat err)"
grep -q "^ syscalls ([0-9]*), " sum.txt || fail "summary without the program's name: $(head -5 sum.txt)"
[ "$(calls sum.txt getppid)" = 200 ] || fail "summary counts $(calls sum.txt getppid) getppid, want 200"
pn=$("$PERF" trace -i sc.data 2>&1 | grep -c ' getppid()')  # perf trace prints on stderr
[ "$pn" = 200 ] || fail "perf trace -i counts $pn getppid in lupe's file, want 200"
ok "trace -s -i: the program named, 200 getppid (perf trace -i: $pn)"

# calls without pointers: BPF, the fallback and -i print the same text
"$LUPE" trace -e getppid,close,dup -i sc.data -o f2.txt 2>err || fail "trace -e -i failed: $(cat err)"
LUPE_TRACE_NO_BPF=1 "$LUPE" trace -e getppid,close,dup -o l2.txt -- "$W" -n 200 >/dev/null 2>err ||
	fail "live trace -e failed: $(cat err)"
[ "$(grep -c . f2.txt)" -ge 230 ] || fail "trace -e -i printed $(grep -c . f2.txt) lines"
diff <(mask l2.txt) <(mask f2.txt) >d.txt ||
	fail "fallback and -i differ on getppid/close: $(head d.txt)"
if "$LUPE" trace -o /dev/null -- true 2>&1 | grep -q "strings and buffers are not shown"; then
	echo "  (no BPF capture here: the BPF leg is not compared)"
else
	"$LUPE" trace -e getppid,close,dup -o b2.txt -- "$W" -n 200 >/dev/null 2>err ||
		fail "BPF trace -e failed: $(cat err)"
	diff <(mask l2.txt) <(mask b2.txt) >d.txt || fail "BPF and fallback differ on getppid/close: $(head d.txt)"
	echo "  BPF, fallback and -i: the same $(grep -c . b2.txt) lines"
fi

# a file of other events is refused with a sentence
"$LUPE" record -q -e cpu-clock -o clock.data -- true 2>/dev/null || fail "record cpu-clock failed"
"$LUPE" trace -i clock.data 2>err && fail "trace -i of a cpu-clock file succeeded"
grep -q "holds no raw_syscalls events" err || fail "no sentence for a file without syscalls: $(cat err)"
"$LUPE" trace -i missing.data 2>err && fail "trace -i of a missing file succeeded"
grep -q "cannot open 'missing.data'" err || fail "missing file not said: $(cat err)"
ok "files without syscalls refused"

#!/usr/bin/env bash
# --call-graph dwarf files (by perf and by lupe) of the inline, threads, forkexec and qsort workloads: lupe script is byte-identical to perf script and report's top 20 (children, --no-children) match, on the same file
. "$(dirname "$0")/lib/common.sh"
need_perf
need_root
"$LUPE" report -h >/dev/null 2>&1 || fail "lupe report -h"
[ -x "$WORKLOADS/inline" ] || fail "workloads not built"

rec_perf() { "$PERF" record -q --no-bpf-event --call-graph dwarf -F 499 -o "$@" >/dev/null 2>&1 || skip "perf record --call-graph dwarf failed"; }
rec_lupe() { "$LUPE" record --call-graph dwarf --no-online -F 499 -o "$@" >/dev/null 2>&1 || fail "lupe record --call-graph dwarf -o $* exited $?"; }

# paragraphs (one sample each) of a script output, numbered, for files
# where perf's own unwinding gives garbage: see forkexec below
paras() { awk -v RS= -v ORS='\n\n' '{ print NR ": " $0 }' "$1"; }

# perf 6.1 asks addr2line(1) for inlined frames; on a loaded machine its
# answers for one file can change from run to run. A difference counts
# only when perf gives the same answer twice.
perf_stable() { # OUTPUT CMD...: run perf again, compare with OUTPUT
	local out=$1
	shift
	"$PERF" "$@" 2>/dev/null | cmp -s - "$out" && return 0
	echo "note: perf $* answers differently from one run to the next: not compared"
	return 1
}

top() { grep -E '^ +[0-9]+\.[0-9]+%' | head -20; }
cmp_report() { # FILE MODE...
	local f=$1
	shift
	"$PERF" report -i "$f" --stdio "$@" 2>/dev/null > "$f.rp"
	"$LUPE" report -i "$f" --stdio "$@" > "$f.rl" || fail "lupe report $* -i $f exited $?"
	a=$(top < "$f.rp" | awk '{print $1}'); b=$(top < "$f.rl" | awk '{print $1}')
	[ -n "$a" ] || fail "perf report $* shows no entries for $f"
	if [ "$a" != "$b" ]; then
		perf_stable "$f.rp" report -i "$f" --stdio "$@" || return 0
		paste <(top < "$f.rp") <(top < "$f.rl") | head -30
		fail "report $* top-20 percentages differ on $f"
	fi
	# each of perf's top lines is one of lupe's (equal percentages may come in another order)
	tr -s ' ' < "$f.rl" > "$f.rls"
	top < "$f.rp" | tr -s ' ' | while IFS= read -r line; do
		grep -qxF -- "$line" "$f.rls" || fail "perf's line '$line' is not in lupe's report $* of $f"
	done || exit 1
}

for w in inline threads qsort forkexec; do
	rec_perf p-$w.data "$WORKLOADS/$w"
	rec_lupe l-$w.data "$WORKLOADS/$w"
	for f in p-$w.data l-$w.data; do
		"$PERF" script -i $f > $f.ps 2>/dev/null || fail "perf script -i $f"
		"$LUPE" script -i $f > $f.ls || fail "lupe script -i $f exited $?"
		grep -q "[[:space:]]_start+" $f.ls || fail "lupe script on $f shows no chain unwound to _start"
		if [ $w = forkexec ]; then
			# perf 6.1 (libunwind) unwinds the exec'd child only to
			# __libc_start_call_main, then stops or gives a garbage
			# address: it keeps the unwind cache of the address space
			# before exec. Compare the samples perf unwound to _start;
			# lupe's others must reach it.
			paras $f.ps > $f.pp
			paras $f.ls > $f.lp
			# (the frame _start itself: _dl_sysdep_start+ is not
			# the end of a chain, and perf has stopped there)
			bad=$(awk -v RS= '/\[unknown\] \(\[unknown\]\)/ || !/[ \t]_start\+/ { print $1 }' $f.pp | tr -d :)
			n=$(grep -c '^[0-9]*: ' $f.pp)
			keep() { awk -v RS= -v ORS='\n\n' -v bad=" $(echo $bad) " '{ k = $1; sub(/:$/, "", k) } index(bad, " " k " ") == 0' "$1"; }
			cmp -s <(keep $f.pp) <(keep $f.lp) || ! perf_stable $f.ps script -i $f ||
				{ diff <(keep $f.pp) <(keep $f.lp) | head; fail "lupe script differs from perf script on $f"; }
			for i in $(awk -v RS= '/__libc_start_call_main/ && !/[ \t]_start\+/ { print $1 }' $f.pp | tr -d :); do
				awk -v RS= -v i="$i:" '$1 == i' $f.lp | grep -q "[[:space:]]_start+" ||
					fail "lupe did not unwind sample $i of $f to _start"
			done
			[ "$(echo $bad | wc -w)" -lt "$n" ] || fail "no sample of $f to compare"
			continue
		fi
		cmp -s $f.ps $f.ls || ! perf_stable $f.ps script -i $f ||
			{ diff $f.ps $f.ls | head -20; fail "lupe script differs from perf script on $f"; }
		cmp_report $f
		cmp_report $f --no-children
	done
done
ok "script is perf's byte for byte; report's top 20 are perf's, children and --no-children"

# inlined frames: shown, and gone with --no-inline
grep -q "mix+0x[0-9a-f]* (inlined)" p-inline.data.ls || fail "no inlined frame of mix in lupe script"
"$LUPE" script --no-inline -i p-inline.data > noinl.ls || fail "lupe script --no-inline"
! grep -q "(inlined)" noinl.ls || fail "--no-inline still shows inlined frames"
"$PERF" script --no-inline -i p-inline.data 2>/dev/null | cmp -s - noinl.ls || fail "script --no-inline differs from perf's"
ok "inlined frames as perf shows them, --no-inline"

# the qsort callback: main -> sort_many -> qsort -> libc frames -> cmp_points
for f in p-qsort.data l-qsort.data; do
	"$LUPE" report -i $f --stdio --no-children -g caller > $f.caller || fail "lupe report -g caller"
	awk '/\[\.\] cmp_points/ { on = 1; next } on && /^ +[0-9.]+%/ { exit } on { print }' $f.caller |
		grep -oE 'main|sort_many|__GI___qsort_r|msort_with_tmp \(inlined\)' | uniq | head -4 | tr '\n' ' ' > $f.path
	[ "$(cat $f.path)" = "main sort_many __GI___qsort_r msort_with_tmp (inlined) " ] ||
		fail "cmp_points is not called from main -> sort_many -> qsort -> msort in $f: $(cat $f.path)"
done
ok "the comparison callback unwinds through libc's qsort to main"

#!/usr/bin/env bash
# report --max-stack 1/3, -G, --percent-limit 5/20 (children and --no-children, each -g mode, fractal too) and script --max-stack are perf 6.1's text byte for byte on fp and dwarf files of demo and qsort, and fp files of forkexec (ties of two processes), recorded by perf and by lupe
. "$(dirname "$0")/lib/common.sh"
need_perf
need_root
[ -x "$WORKLOADS/demo" ] || fail "workloads not built"

"$PERF" record -q -g -F 999 -o p-fp.data -- "$WORKLOADS/demo" -n 200 -w 6,3,1 >/dev/null 2>&1 || skip "perf record -g failed"
"$PERF" record -q --no-bpf-event --call-graph dwarf -F 499 -o p-dw.data -- "$WORKLOADS/demo" -n 200 -w 6,3,1 >/dev/null 2>&1 ||
	skip "perf record --call-graph dwarf failed"
"$LUPE" record -q -g -F 999 -o l-fp.data -- "$WORKLOADS/demo" -n 200 -w 6,3,1 >/dev/null 2>&1 || fail "lupe record -g exited $?"
"$LUPE" record -q --call-graph dwarf -F 499 -o l-dw.data -- "$WORKLOADS/demo" -n 200 -w 6,3,1 >/dev/null 2>&1 ||
	fail "lupe record --call-graph dwarf exited $?"
# qsort: libc's recursive merge sort, inlined functions in the unwound chains
"$PERF" record -q --no-bpf-event --call-graph dwarf -F 499 -o p-qs.data -- "$WORKLOADS/qsort" 60 >/dev/null 2>&1 ||
	skip "perf record --call-graph dwarf failed"
"$LUPE" record -q --call-graph dwarf -F 499 -o l-qs.data -- "$WORKLOADS/qsort" 60 >/dev/null 2>&1 ||
	fail "lupe record --call-graph dwarf exited $?"

# perf ends its text with a random tip: not part of the comparison.
# perf's fractal "[...]" remainder is a symbol it mallocs without
# clearing: whether its "inlined" bit is set (" (inlined)" after it) is
# chance, changing between two runs on one file. lupe prints "[...]".
strip_tip() {
	awk '{ l[NR] = $0 } END { n = NR; if (n >= 3 && l[n-1] ~ /^# \(Tip:/ && l[n] == "#" && l[n-2] == "#") n -= 3
		for (i = 1; i <= n; i++) { if (l[i] ~ /--\[\.\.\.\] \(inlined\)$/) sub(/ \(inlined\)$/, "", l[i]); print l[i] } }'
}
# perf 6.1 asks addr2line(1) for the inlined frames of dwarf chains; on a
# loaded machine its answers can change from run to run. A difference
# counts only when perf gives the same text twice.
perf_stable() { # OUTPUT CMD...
	local out=$1
	shift
	"$PERF" "$@" 2>/dev/null | strip_tip | cmp -s - "$out" && return 0
	echo "note: perf $* answers differently from one run to the next: not compared"
	return 1
}
# The lines of a report without the graph's drawing: the entries, and
# each chain line's percentage and function, in a sorted list.
undrawn() { sed -e 's/^[ |]*//' -e 's/^-*//' -e 's/ *$//' "$1" | sort; }
n=0 loose=0
same() { # CMD ARGS...: lupe's text is perf's
	"$PERF" "$@" 2>/dev/null | strip_tip > p.out
	"$LUPE" "$@" > l.out 2>l.err || fail "lupe $* exited $?: $(cat l.err)"
	[ -s p.out ] || fail "perf $* printed nothing"
	if ! cmp -s p.out l.out && perf_stable p.out "$@"; then
		# perf orders equal sibling branches of two DSOs by the
		# addresses of its DSO objects in memory (malloc's choice);
		# lupe by the order the DSOs were met. Where that differs
		# (libc's qsort), the same entries in the same order and the
		# same chain lines and numbers.
		if [ "$tie_ok" = 1 ] &&
			cmp -s <(grep -E '^ +[0-9]+\.[0-9]+%  ' p.out) <(grep -E '^ +[0-9]+\.[0-9]+%  ' l.out) &&
			cmp -s <(undrawn p.out) <(undrawn l.out); then
			loose=$((loose + 1))
		else
			diff p.out l.out | head -20
			fail "lupe $* differs from perf"
		fi
	fi
	n=$((n + 1))
}
entries() { grep -cE '^ +[0-9]+\.[0-9]+%  ' "$1"; }

for f in p-fp.data l-fp.data p-dw.data l-dw.data p-qs.data l-qs.data; do
	tie_ok=0 opts=("--max-stack 1" "--max-stack 3" -G "--percent-limit 5" "--percent-limit 20")
	gs=("" "-g graph" "-g flat" "-g folded" "-g caller" "-g callee" "-g fractal" "-g fractal,2,callee")
	# qsort's files are larger: fewer combinations
	case $f in *-qs.data) tie_ok=1 opts=("--max-stack 3" -G "--percent-limit 5") gs=("" "-g folded" "-g callee" "-g fractal") ;; esac
	for c in --children --no-children; do
		for opt in "${opts[@]}"; do
			for g in "${gs[@]}"; do
				# shellcheck disable=SC2086
				same report -i $f --stdio $c $opt $g
			done
		done
	done
	same script -i $f --max-stack 1
	same script -i $f --max-stack 3
done
ok "$n outputs of report --max-stack, -G, --percent-limit and script --max-stack are perf's ($loose with equal qsort branches of two DSOs in another order)"
tie_ok=0

# two processes (forkexec's parent and its exec'd child): equal children
# entries of two threads, in perf's order in both callchain orders
"$PERF" record -q -g -F 999 -o p-fk.data -- "$WORKLOADS/forkexec" >/dev/null 2>&1 || skip "perf record -g failed"
"$LUPE" record -q -g -F 999 -o l-fk.data -- "$WORKLOADS/forkexec" >/dev/null 2>&1 || fail "lupe record -g exited $?"
for f in p-fk.data l-fk.data; do
	[ "$("$LUPE" report -i $f --stdio -q -s pid -g none | grep -c '%')" -ge 2 ] || fail "$f holds one thread's samples"
	for g in "-g none" "-g caller" "-g callee" "-g fractal" "-g fractal,0.5,callee" "-g folded"; do
		for c in --children --no-children; do
			# shellcheck disable=SC2086
			same report -i $f --stdio $c $g
		done
	done
done
ok "forkexec's two processes: entries and chains as perf's, ties in perf's order"

# not hollow: each option changed the text
"$LUPE" report -i p-fp.data --stdio > all.out
"$LUPE" report -i p-fp.data --stdio --max-stack 1 > ms.out
"$LUPE" report -i p-fp.data --stdio --percent-limit 20 > pl.out
"$LUPE" report -i p-fp.data --stdio --no-children > nc.out
"$LUPE" report -i p-fp.data --stdio --no-children -G > inv.out
# fractal: run's branches below 20% of run (compute_c's tenth) are one "[...]" of run's
"$LUPE" report -i p-fp.data --stdio --children -g fractal,20 > fr.out
awk '/%  .* run *$/ { e = 1; next } /^ +[0-9.]+%  / { e = 0 } e && /--[0-9.]+%--\[\.\.\.\]$/ { f = 1 } END { exit !f }' fr.out ||
	fail "-g fractal,20 shows no \"[...]\" remainder under run: $(cat fr.out)"
! cmp -s all.out ms.out || fail "--max-stack 1 changed nothing"
[ "$(entries pl.out)" -lt "$(entries all.out)" ] || fail "--percent-limit 20 hid no entry"
! cmp -s nc.out inv.out || fail "-G changed nothing"
# with caller order perf keeps the outermost address: every chain is one frame, the same one
[ "$(grep -c -- '---' ms.out)" -ge 2 ] || fail "--max-stack 1 shows no chain: $(cat ms.out)"
awk 'prev ~ /---/ && $0 != "" { bad = 1 } { prev = $0 } END { exit bad }' ms.out ||
	fail "--max-stack 1 left chains longer than one frame: $(cat ms.out)"
ok "each option changes the report"

# perf's --max-stack 0: entries without chains (perf 6.1 fails on dwarf files there: fp only)
for f in p-fp.data l-fp.data; do
	same report -i $f --stdio --max-stack 0
	same report -i $f --stdio --no-children --max-stack 0 -g flat
	same script -i $f --max-stack 0
done
# the later of --percent-limit and -g's number is the chain threshold; a bare -g is graph,0.5,caller;
# a -g with words changes only what they name
for opt in "--percent-limit 40 -g graph" "--percent-limit 40 -g graph,1" "-g graph,1 --percent-limit 40" \
	"--percent-limit 40 -g" "--percent-limit 0" "--percent-limit -3" "--percent-limit abc" "-g" \
	"-g fractal,5 -g callee" "-g folded,3 -g callee" "-g fractal,0.5,callee -g graph" "-g fractal,7 -g" "-g -g flat"; do
	# shellcheck disable=SC2086
	same report -i p-fp.data --stdio --no-children $opt
done
ok "--max-stack 0, the threshold's order, odd limits, -g after -g as perf"

# refused as perf refuses them (usage, 129)
for args in "report --max-stack abc" "report --max-stack 3x" "script --max-stack -1" "script --max-stack abc"; do
	# shellcheck disable=SC2086
	"$PERF" $args -i p-fp.data >/dev/null 2>&1
	[ $? = 129 ] || fail "perf $args did not exit 129: the test's premise is wrong"
	# shellcheck disable=SC2086
	expect_rc 129 "$LUPE" $args -i p-fp.data >/dev/null 2>&1
done
ok "bad --max-stack values refused as perf refuses them"

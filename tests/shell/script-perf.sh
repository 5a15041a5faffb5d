#!/usr/bin/env bash
# lupe script prints what perf script prints (default fields), and lupe report the same top entries and call tree, on perf recordings (-g, -a -g, tracepoint, -z)
. "$(dirname "$0")/lib/common.sh"
need_perf
need_root
D=$WORKLOADS/demo
rec() { "$PERF" record -q "$@" >/dev/null 2>&1 || skip "perf record $* failed"; }
rec -g -o g.data -- "$D" -n 300
rec -a -g -o ag.data -- "$D" -n 200
rec -z -g -o z.data -- "$D" -n 200
rec -o plain.data -- "$D" -n 200
need_tracefs
rec -e sched:sched_switch -e sched:sched_process_exec -g -o tp.data -- "$D" -n 100 -t 2

for f in plain g ag z tp; do
	"$PERF" script -i $f.data > $f.perf0 2>/dev/null || fail "perf script -i $f.data"
	"$LUPE" script -i $f.data > $f.lupe0 || fail "lupe script -i $f.data exited $?"
	# a sample in any PLT stub of a system-wide recording: lib/common.sh's plt_unknown
	plt_unknown < $f.perf0 > $f.perf
	plt_unknown < $f.lupe0 > $f.lupe
	cmp -s $f.perf $f.lupe || { diff $f.perf $f.lupe | head -20; fail "lupe script differs from perf script on $f.data"; }
	[ -s $f.lupe ] || fail "empty script output for $f.data"
done
ok "script output equals perf's on plain, -g, -a -g, -z, tracepoint recordings"

# top 10 of --no-children: same percentages in the same order; each line perf
# shows is one lupe shows (entries with equal percentages may come in another order)
top() { grep -E '^ +[0-9]+\.[0-9]+%' | head -10; }
for f in g ag z tp; do
	"$PERF" report -i $f.data --stdio --no-children 2>/dev/null > $f.rp
	"$LUPE" report -i $f.data --stdio --no-children > $f.rl || fail "lupe report on $f.data exited $?"
	a=$(top < $f.rp | awk '{print $1}'); b=$(top < $f.rl | awk '{print $1}')
	[ "$a" = "$b" ] || { paste <(top < $f.rp) <(top < $f.rl); fail "top-10 percentages differ on $f.data"; }
	# (perf cuts the trace column of a second event's table to its heading's width: a prefix then)
	# (column widths may differ when a long name sits below the top 10: spaces squeezed)
	tr -s ' ' < $f.rl > $f.rls
	top < $f.rp | tr -s ' ' | while IFS= read -r line; do
		awk -v l="$line" 'index($0, l) == 1 {found = 1} END {exit !found}' $f.rls ||
			fail "perf's line '$line' is not in lupe's report of $f.data"
	done || exit 1
done
ok "report --no-children top 10 matches perf"

# the call tree of the top entries (children mode) is perf's
for f in g z; do
	"$PERF" report -i $f.data --stdio 2>/dev/null | sed -n '/^#$/,$p' | grep -v '^#' | head -60 > $f.tp
	"$LUPE" report -i $f.data --stdio | sed -n '/^#$/,$p' | grep -v '^#' | head -60 > $f.tl
	# entries tied on Children in perf's order too
	grep -q -- '---' $f.tp || fail "perf's report of $f.data shows no call tree: the comparison would be hollow"
	cmp -s $f.tp $f.tl || { diff $f.tp $f.tl | head; fail "call trees of the top entries differ on $f.data"; }
	"$PERF" report -i $f.data --stdio --no-children 2>/dev/null | grep -v '^#' | sed -n '1,/^$/p;' > $f.np
	"$LUPE" report -i $f.data --stdio --no-children | grep -v '^#' | sed -n '1,/^$/p;' > $f.nl
	cmp -s $f.np $f.nl || { diff $f.np $f.nl; fail "callee tree of the top entry differs on $f.data"; }
done
ok "call trees match perf"

# the -g variants draw the same trees as perf's, in both modes (perf's
# fractal "[...] (inlined)" is "[...]" with a flag it never cleared)
for c in --no-children --children; do
	for g in flat folded graph,0.5,caller graph,5,callee fractal fractal,5,callee; do
		a=$("$PERF" report -i g.data --stdio $c -g $g 2>/dev/null | grep -v '^#' | sed 's/--\[\.\.\.\] (inlined)$/--[...]/')
		b=$("$LUPE" report -i g.data --stdio $c -g $g | grep -v '^#')
		[ "$a" = "$b" ] || { diff <(echo "$a") <(echo "$b") | head; fail "-g $g $c differs from perf's"; }
	done
done
ok "-g flat, folded, caller, callee, fractal"

# pipe mode
"$PERF" record -q -g -o - -- "$D" -n 100 2>/dev/null > pipe.data
"$PERF" script -i - < pipe.data > pipe.perf 2>/dev/null
"$LUPE" script -i - < pipe.data > pipe.lupe || fail "lupe script -i - exited $?"
cmp -s pipe.perf pipe.lupe || { diff pipe.perf pipe.lupe | head; fail "pipe-mode script differs"; }
a=$("$PERF" report -i - --stdio < pipe.data 2>/dev/null | grep -v '^#')
b=$("$LUPE" report -i - --stdio < pipe.data | grep -v '^#')
[ "$a" = "$b" ] || { diff <(echo "$a") <(echo "$b") | head; fail "pipe-mode report differs"; }
ok "pipe mode"

# lupe's own recordings read the same by both
lrec() { "$LUPE" record -q "$@" >/dev/null 2>&1 || fail "lupe record $* failed"; }
lrec -g -o lg.data -- "$D" -n 200
lrec -a -g -o la.data -- "$D" -n 100
lrec -z -g -o lz.data -- "$D" -n 200
lrec -e sched:sched_switch -g -o lt.data -- "$D" -n 100 -t 2
for f in lg la lz lt; do
	"$PERF" script -i $f.data 2>/dev/null > $f.perf0 || fail "perf script -i $f.data (lupe's)"
	"$LUPE" script -i $f.data > $f.lupe0 || fail "lupe script -i $f.data (lupe's) exited $?"
	plt_unknown < $f.perf0 > $f.perf
	plt_unknown < $f.lupe0 > $f.lupe
	cmp -s $f.perf $f.lupe || { diff $f.perf $f.lupe | head -20; fail "script differs on lupe's $f.data"; }
done
for f in lg la lz; do
	a=$("$PERF" report -i $f.data --stdio --no-children 2>/dev/null | top | awk '{print $1}')
	b=$("$LUPE" report -i $f.data --stdio --no-children | top | awk '{print $1}')
	[ "$a" = "$b" ] || fail "top-10 percentages differ on lupe's $f.data"
done
ok "lupe's own recordings (-g, -a -g, -z, tracepoint)"

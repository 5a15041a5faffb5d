#!/usr/bin/env bash
# lupe probe adds uprobes (function, %return with +0($retval):string, DWARF variables, SRC:LINE) that record, script, stat and list see; -l lists, -d removes, -V shows variables, all as perf probe places them
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracefs
[ -e /sys/kernel/tracing/uprobe_events ] || skip "this kernel has no uprobes (no uprobe_events in tracefs)"
need_perf

# a copy with a name of its own: its events are probe_$W:..., no one else's
W=parse$$
cp "$WORKLOADS/parse" "$TMPD/$W"
G=probe_$W
trap '"$LUPE" probe -q -d "$G:*" 2>/dev/null; rm -rf "$TMPD"' EXIT

# done-when 1: the returned strings, through record and script
"$LUPE" probe -x "$TMPD/$W" 'parse%return +0($retval):string' 2> add.err || fail "probe parse%return: $(cat add.err)"
grep -q "^  $G:parse__return (on parse%return in $TMPD/$W with +0(\$retval):string)" add.err ||
	fail "the added event is not shown as perf shows it: $(cat add.err)"
"$LUPE" record -q -e "$G:parse__return" -o ret.data -- "$TMPD/$W" > /dev/null || fail "record -e $G:parse__return"
"$LUPE" script -i ret.data > ret.txt || fail "script"
got=$(grep -o 'arg1="[a-z]*"' ret.txt | tr '\n' ' ')
[ "$got" = 'arg1="alpha" arg1="beta" arg1="gamma" arg1="alpha" arg1="beta" arg1="gamma" ' ] ||
	fail "script shows the returned strings as '$got': $(cat ret.txt)"
"$PERF" script -i ret.data 2>/dev/null | grep -q 'arg1="gamma"' || fail "perf script does not read the strings"
ok "parse%return +0(\$retval):string: $got"

# arguments by DWARF name, with the types perf gives them (char* as :string)
"$PERF" probe -q -x "$TMPD/$W" 'parse line:string count' 2>/dev/null || fail "perf probe parse line:string count"
grep "^p:$G/parse " /sys/kernel/tracing/uprobe_events > perf-fn.def
"$PERF" probe -q -d "$G:parse"
"$LUPE" probe -q -x "$TMPD/$W" 'parse line:string count' || fail "probe parse line:string count"
grep "^p:$G/parse " /sys/kernel/tracing/uprobe_events > lupe-fn.def
grep -q 'line_string=+0(%di):string count=%si:s64$' lupe-fn.def || fail "unexpected definition: $(cat lupe-fn.def)"
diff -u perf-fn.def lupe-fn.def || fail "the definition is not perf's"
"$LUPE" stat -x, -e "$G:parse" -e "$G:parse__return" -- "$TMPD/$W" -n 7 2> stat.csv > /dev/null || fail "stat of the probes"
[ "$(awk -F, -v e="$G:parse" '$3 == e { print $1 }' stat.csv)" = 7 ] || fail "stat counts other than 7 calls: $(cat stat.csv)"
"$LUPE" record -q -e "$G:parse" -o args.data -- "$TMPD/$W" -n 3 > /dev/null || fail "record -e $G:parse"
"$LUPE" script -i args.data | grep -q 'line_string="line" count=2$' || fail "the arguments are not in script: $("$LUPE" script -i args.data)"
"$LUPE" list 2>/dev/null | grep -q "$G:parse__return" || fail "lupe list does not show $G:parse__return"
ok "arguments by name, counted by stat, printed by script, listed by list"

# -l lists both, as perf probe -l does (perf adds @SRC, which lupe leaves out)
"$LUPE" probe -l "$G:*" > l.out || fail "probe -l"
[ "$(wc -l < l.out)" = 2 ] || fail "probe -l '$G:*' shows $(wc -l < l.out) events: $(cat l.out)"
grep -q "^  $G:parse  *(on parse in $TMPD/$W with line_string count)$" l.out || fail "probe -l line: $(cat l.out)"
"$PERF" probe -l "$G:*" 2>/dev/null | sed 's/@[^ ]* in / in /' > perf-l.out
diff -u perf-l.out l.out || fail "probe -l differs from perf probe -l (without @SRC)"

# -d removes them; a second -d finds nothing and says so
"$LUPE" probe -d "$G:*" 2> d.err || fail "probe -d"
[ "$(grep -c '^Removed event: ' d.err)" = 2 ] || fail "probe -d said: $(cat d.err)"
grep -q "$G" /sys/kernel/tracing/uprobe_events && fail "the events are still in uprobe_events"
"$LUPE" probe -d "$G:*" 2> d2.err && fail "deleting nothing succeeded"
grep -q "no probe event matches" d2.err || fail "no sentence for nothing to delete: $(cat d2.err)"
ok "-l lists, -d removes"

# SRC:LINE with a frame variable, the same definition perf writes; -V as perf's
line=$(grep -n 'if (!line\[0\])' "$LUPE_SRC/tests/workloads/parse.c" | cut -d: -f1)
"$LUPE" probe -n -x "$TMPD/$W" "parse.c:$line slot" > lupe.def || fail "probe -n parse.c:$line slot"
"$PERF" probe -x "$TMPD/$W" "parse.c:$line slot" 2>/dev/null || fail "perf probe parse.c:$line slot"
grep "$G" /sys/kernel/tracing/uprobe_events > perf.def
"$PERF" probe -q -d "$G:*"
diff -u perf.def lupe.def || fail "the SRC:LINE definition differs from perf's"
"$LUPE" probe -x "$TMPD/$W" -V parse > v.lupe || fail "probe -V parse"
"$PERF" probe -x "$TMPD/$W" -V parse > v.perf 2>/dev/null
diff -u v.perf v.lupe || fail "-V differs from perf's"
ok "SRC:LINE and -V as perf"

# what goes wrong is said
"$LUPE" probe -x "$TMPD/$W" nosuchfunc 2> e1 && fail "a missing function was probed"
grep -q "no function 'nosuchfunc'" e1 || fail "$(cat e1)"
"$LUPE" probe -x "$TMPD/$W" 'parse nosuchvar' 2> e2 && fail "a missing variable was fetched"
grep -q "no variable 'nosuchvar'" e2 || fail "$(cat e2)"
"$LUPE" probe -x "$TMPD/$W" 'parse +0(%di):nosuchtype' 2> e3 && fail "a bad type was taken"
grep -q "the kernel refused" e3 || fail "$(cat e3)"
expect_rc 129 "$LUPE" probe 2>/dev/null
ok "errors"

#!/bin/bash
# report --hierarchy prints perf report --stdio --hierarchy's text byte for byte (perf's and lupe's files, sort orders, -n, -q, --percent-limit, callchains) and refuses what perf refuses
. "$(dirname "$0")/lib/common.sh"
need_perf

"$PERF" record -q -o perf.data "$WORKLOADS/demo" > /dev/null 2>&1 || fail "perf record failed"
"$PERF" record -q -g -o perfg.data "$WORKLOADS/demo" -t 2 > /dev/null 2>&1 || fail "perf record -g failed"
"$LUPE" record -q -o lupe.data "$WORKLOADS/demo" > /dev/null 2>&1 || fail "lupe record failed"
"$LUPE" record -q -g -o lupeg.data "$WORKLOADS/demo" -t 2 > /dev/null 2>&1 || fail "lupe record -g failed"

# perf ends its text with a random "# (Tip: ...)" between two '#' lines: not compared
notip() { awk '{ l[NR] = $0 } END { n = NR; if (n >= 3 && l[n-1] ~ /^# \(Tip:/) n -= 3; for (i = 1; i <= n; i++) print l[i] }'; }

compare() { # FILE OPTIONS...: the two reports of FILE with --hierarchy and OPTIONS
	local f=$1
	shift
	"$PERF" report -i "$f" --stdio --hierarchy "$@" 2> /dev/null | notip > p.out
	"$LUPE" report -i "$f" --stdio --hierarchy "$@" 2> l.err | notip > l.out || fail "lupe report --hierarchy $* on $f failed: $(cat l.err)"
	grep -q '%' p.out || fail "perf printed no entry for --hierarchy $* on $f"
	cmp -s p.out l.out || fail "report --hierarchy $* on $f differs from perf's: $(diff p.out l.out | head -20)"
	n=$((n + 1))
}

n=0
for f in perf.data lupe.data perfg.data lupeg.data; do
	for o in "" "-n" "-s dso,sym" "-s sym" "-s dso,comm" "-n -s comm,sym" "-s sym,dso" "-s dso,comm,sym" "-q"; do
		# shellcheck disable=SC2086 # o holds several options
		compare $f $o
	done
done
# the hidden levels say "no entry >= N%"
for f in perf.data lupe.data; do
	compare $f --percent-limit 1
	compare $f --percent-limit 10 -n -s dso,sym
	# demo's command has all, none of its symbols (spin about 80%) 95%
	compare $f --percent-limit 95 -s comm,sym
	grep -q '^ *no entry >= 95.00%$' l.out || fail "--percent-limit 95 said no 'no entry' line: $(cat l.out)"
done
# callchains under the last level only; perf turns children off, keeps their caller order
for f in perfg.data lupeg.data; do
	for o in "--children" "--no-children" "-g caller" "-g callee" "-g flat" "-g folded" "-g fractal" "-g graph,0.1" "-g none" "--no-children -s dso,sym"; do
		# shellcheck disable=SC2086
		compare $f $o
	done
done
grep -q -- '--[0-9.]*%--' <("$LUPE" report -i perfg.data --stdio --hierarchy) || fail "no callchain under the --hierarchy entries"
grep -q '^# *Children' <("$LUPE" report -i perfg.data --stdio --hierarchy --children) && fail "--hierarchy showed a Children column"
ok "$n reports with --hierarchy equal perf's"

# a pipe-mode stream: perf 6.1 finds no samples with --hierarchy; lupe refuses it
"$PERF" record -q -o - "$WORKLOADS/demo" 2> /dev/null > pipe.data
"$PERF" report -i pipe.data --stdio --hierarchy > p.out 2> p.err
grep -q 'no samples' p.err || fail "perf showed a pipe's --hierarchy, refused here: $(cat p.err)"
"$LUPE" report -i pipe.data --stdio --hierarchy > l.out 2> l.err && fail "lupe showed a pipe's --hierarchy"
cmp -s p.out l.out || fail "lupe's text before refusing a pipe's --hierarchy differs: $(diff p.out l.out)"
grep -q "pipe-mode data 'pipe.data'" l.err || fail "refusing a pipe's --hierarchy said: $(cat l.err)"
"$LUPE" report -i pipe.data --stdio > /dev/null 2>&1 || fail "lupe report of the pipe without --hierarchy failed"
ok "a pipe's --hierarchy is refused as perf refuses it"

# perf refuses --hierarchy with -F (once lupe has -F)
if "$LUPE" report -h | grep -q -- '--fields'; then
	expect_rc 129 "$LUPE" report -i perf.data --stdio --hierarchy -F overhead,sym > /dev/null 2> l.err
	grep -q -- '--hierarchy and --fields' l.err || fail "--hierarchy with -F said: $(cat l.err)"
	ok "--hierarchy with -F is refused"
fi

#!/bin/bash
# report -F/--fields, -t/--field-separator and -v print what perf report --stdio prints, byte for byte, on perf's and lupe's files with and without -g, and -F refuses an unknown key as perf does
. "$(dirname "$0")/lib/common.sh"
need_perf

"$PERF" record -q -o perf.data "$WORKLOADS/demo" > /dev/null 2>&1 || fail "perf record failed"
"$PERF" record -q -g -o perfg.data "$WORKLOADS/demo" > /dev/null 2>&1 || fail "perf record -g failed"
"$LUPE" record -q -o lupe.data "$WORKLOADS/demo" > /dev/null 2>&1 || fail "lupe record failed"
"$LUPE" record -q -g -o lupeg.data "$WORKLOADS/demo" > /dev/null 2>&1 || fail "lupe record -g failed"

# perf ends a report with a random "# (Tip: ...)" between two '#' lines
strip_tip() {
	awk '{ l[NR] = $0 } END { n = NR; if (n >= 3 && l[n - 1] ~ /^# \(Tip:/) n -= 3; for (i = 1; i <= n; i++) print l[i] }'
}

# same FILE FILTER OPTS...: lupe's report equals perf's, and lupe says nothing on stderr
same() {
	local f=$1 filter=$2
	shift 2
	"$PERF" report -i "$f" --stdio "$@" 2> /dev/null | strip_tip | $filter > p.out
	"$LUPE" report -i "$f" --stdio "$@" > l.raw 2> l.err || fail "lupe report $* on $f: $(cat l.err)"
	$filter < l.raw > l.out
	grep -q '^[^#]' p.out || fail "perf report $* on $f printed no entry: the comparison would be hollow"
	# perf 6.1 was seen to put an unresolved entry in a map ([vdso]) before
	# one outside any map at a lower address (the 0 that ends some
	# chains) where only its sort's address order applies (-F without
	# Children): lupe keeps the address order. Those lines alone may
	# come in another order; all others in perf's.
	if ! cmp -s p.out l.out; then
		local unres='\[[.k]\] (0x[0-9a-f]+|0{16})( |,|$)'
		if ! cmp -s <(grep -vE "$unres" p.out) <(grep -vE "$unres" l.out) ||
			! cmp -s <(grep -E "$unres" p.out | sort) <(grep -E "$unres" l.out | sort); then
			fail "report $* on $f differs from perf's: $(diff p.out l.out | head -10)"
		fi
	fi
	[ -s l.err ] && fail "lupe report $* on $f wrote to stderr: $(head -3 l.err)"
	return 0
}

n=0
for f in perf.data lupe.data perfg.data lupeg.data; do
	modes=("")
	case $f in *g.data) modes=("--no-children" "--children") ;; esac
	for m in "${modes[@]}"; do
		# children mode too, equal entries in perf's order, chains and all
		filter="cat"
		for o in "-F overhead,sym" "-F dso,sym" "-F sym,overhead" "-F sample,period,comm" \
			 "-F overhead,sample,period,comm,dso" "-F overhead_children,sym" \
			 "-F overhead,overhead_children,sym" "-F overhead" "-F overhead,sym -s dso" \
			 "-F overhead,pid" "-F overhead,symbol -n" "-F +period,sample" "-F +sym -s dso" "-t , -F cpu,overhead" \
			 "-t ," "-t , -n" "-t : -F dso,sym,sample" "-t o" \
			 "-v" "-v -n -s dso,sym" "-v -t , -F overhead,dso,sym" "-q -t , -F overhead,sym"; do
			# shellcheck disable=SC2086 # o and m hold several options
			same $f $filter $o $m
			n=$((n + 1))
		done
	done
done
# -t's separator also joins the frames of folded callchains
same perfg.data cat -t , -g folded --no-children
grep -q '^[0-9.]*% spin,leaf_a,compute_a' l.out || fail "-t , -g folded printed no ',' chain: $(head -20 l.out)"
# -v shows the full path and where the symbols came from (a letter)
grep -q "$WORKLOADS/demo  *0x[0-9a-f]*  *[a-zA-Z] \[\.\] spin" <("$LUPE" report -i lupe.data --stdio -v) ||
	fail "-v shows no path, address and origin for spin"

# an unknown -F key: no report, perf's error names the key; lupe a usage error
"$PERF" report -i perf.data --stdio -F foo > p.out 2> p.err
[ -s p.out ] && fail "perf printed a report for -F foo: the check below means nothing"
grep -q "Unknown --fields key: \`foo'" p.err || fail "perf's -F foo error changed: $(head -3 p.err)"
expect_rc 129 "$LUPE" report -i perf.data --stdio -F foo > l.out 2> l.err
[ -s l.out ] && fail "lupe printed a report for -F foo: $(head -3 l.out)"
grep -q "unknown --fields key 'foo'" l.err || fail "lupe's -F foo error does not name the key: $(cat l.err)"
# the vdso: perf finds its copy in the build-id cache by the file's build-id table (origin B)
"$PERF" record -q -g -o perfv.data "$WORKLOADS/clock" > /dev/null 2>&1 || fail "perf record of clock failed"
grep -q '\[vdso\]' <("$PERF" report -i perfv.data --stdio --no-children 2> /dev/null) ||
	fail "perf's recording of clock has no [vdso] sample: the comparison would be hollow"
for o in "-v --no-children -g none" "-v -s dso,sym --no-children"; do
	same perfv.data cat $o
	n=$((n + 1))
done
ok "report -F, -t and -v equal perf's in $n comparisons on five files; -F foo is refused"

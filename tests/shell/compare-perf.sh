#!/usr/bin/env bash
# scripts/compare-perf --quick: gzip, python3 and a fork/exec shell loop recorded by perf and by lupe (-g, dwarf, pipe), both readers' script and report on every file are identical or a known deliberate difference
. "$(dirname "$0")/lib/common.sh"
need_perf
need_root
command -v python3 >/dev/null || skip "no python3 to run scripts/compare-perf"
for p in gzip /usr/bin/python3 sh; do
	command -v "$p" >/dev/null || skip "no $p to profile (scripts/bootstrap installs it)"
done
start=$(date +%s)
python3 "$LUPE_SRC/scripts/compare-perf" --quick --quiet --jobs 2 --lupe "$LUPE" --perf "$PERF" --dir "$TMPD/run" > out 2>&1
rc=$?
cat out
[ $rc = 2 ] && fail "compare-perf could not run"
[ $rc = 0 ] || fail "compare-perf found differences nothing on the known list explains"
# the comparison is not hollow: cases were read, most byte-identical
total=$(awk '$1 == "total" {print $2}' out)
same=$(awk '$1 == "total" {print $3}' out)
[ -n "$total" ] && [ "$total" -ge 60 ] || fail "only '${total:-no}' cases compared"
[ "$same" -ge $((total / 2)) ] || fail "only $same of $total cases identical"
ok "$total cases, $same identical, the rest known, in $(( $(date +%s) - start )) s"

#!/usr/bin/env bash
# lupe inject copies a compressed perf file and a pipe-mode lupe stream into finalized files that perf script prints the same, stdin to file, file and stdin to stdout, and refuses a terminal
. "$(dirname "$0")/lib/common.sh"
need_perf
"$PERF" record -q -z -g -o z.data -- "$WORKLOADS/demo" -n 100 >/dev/null 2>&1 || skip "perf record -z failed"
"$LUPE" record -q -g -o - -- "$WORKLOADS/demo" -n 100 > p.data 2>/dev/null || fail "lupe record -o - failed"
for f in z p; do
	"$LUPE" inject -i $f.data -o $f.inj 2>err || fail "inject -i $f.data: $(cat err)"
	grep -q "holds [0-9]* records, finalized" err || fail "inject said: $(cat err)"
	"$PERF" script -i $f.data > $f.before 2>/dev/null
	"$PERF" script -i $f.inj > $f.after 2>/dev/null
	[ -s $f.before ] && cmp -s $f.before $f.after || fail "perf script differs after inject of $f.data"
done
# in place: the input is replaced only by a whole copy
cp p.inj same.data && "$LUPE" inject -i same.data -o same.data 2>/dev/null || fail "inject in place failed"
cmp -s <("$PERF" script -i same.data 2>/dev/null) p.after || fail "inject in place changed the samples"
# stdin to a file, a file to stdout (a stream perf reads), stdin to stdout
"$LUPE" inject -i - -o s.inj < p.data 2>/dev/null || fail "inject -i - -o s.inj failed"
cmp -s <("$PERF" script -i s.inj 2>/dev/null) p.after || fail "inject from stdin changed the samples"
"$LUPE" inject -i z.data -o - 2>/dev/null | "$PERF" script -i - > z.pipe 2>/dev/null
cmp -s z.pipe z.after || fail "inject to stdout: perf script -i - differs"
"$LUPE" inject < p.data 2>/dev/null | "$PERF" script -i - > p.pipe 2>/dev/null
cmp -s p.pipe p.after || fail "inject stdin to stdout: perf script -i - differs"
# a terminal is no perf.data
if [ -t 0 ] || script -qc true /dev/null >/dev/null 2>&1; then
	script -qec "$LUPE inject -i p.data" /dev/null >/dev/null 2>&1
	[ $? = 129 ] || fail "inject to a terminal was not refused with 129"
fi
ok "inject: compressed and pipe-mode inputs, in place, stdin and stdout, usage errors"

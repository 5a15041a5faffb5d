#!/usr/bin/env bash
# scripts/compare-perf --quick: gzip, python3 and a fork/exec shell loop recorded by perf and by lupe (-g, dwarf, pipe), both readers' script and report on every file are identical or a known deliberate difference; --reread-lupe reads the kept files again with lupe alone
. "$(dirname "$0")/lib/common.sh"
need_perf
need_root
command -v python3 >/dev/null || skip "no python3 to run scripts/compare-perf"
for p in gzip /usr/bin/python3 sh; do
	command -v "$p" >/dev/null || skip "no $p to profile (scripts/bootstrap installs it)"
done
start=$(date +%s)
python3 "$LUPE_SRC/scripts/compare-perf" --quick --quiet --keep --jobs 2 --lupe "$LUPE" --perf "$PERF" --dir "$TMPD/run" > out 2>&1
rc=$?
cat out
[ $rc = 2 ] && fail "compare-perf could not run"
[ $rc = 0 ] || fail "compare-perf found differences nothing on the known list explains"
# the comparison is not hollow: every case was read, and most script
# outputs are byte-identical (every perf report carries a random tip, so
# reports are at best known)
total=$(awk '$1 == "total" {print $2}' out)
same=$(awk '$1 == "total" {print $3}' out)
[ -n "$total" ] && [ "$total" -ge 42 ] || fail "only '${total:-no}' cases compared (want 7 files x 2 recorders x 3 views)"
read -r scripts sames < <(awk '$1 == "view" && $2 == "script" {print $3, $4}' out)
[ "${sames:-0}" -ge $((scripts / 2)) ] || fail "only ${sames:-no} of ${scripts:-no} script outputs identical"
ok "$total cases, $same identical, the rest known, in $(( $(date +%s) - start )) s"

# planted: without its known list the same outputs must count as differences
: > empty.known
python3 "$LUPE_SRC/scripts/compare-perf" --rejudge "$TMPD/run" --known empty.known --quiet > planted 2>&1 &&
	fail "the outputs passed with an empty known list"
grep -q '^DIFFERS ' planted || { tail planted; fail "no DIFFERS line with an empty known list"; }
ok "an empty known list leaves $(grep -c '^DIFFERS ' planted) cases unexplained"

# --reread-lupe runs lupe's readers again over the kept recordings: the
# same lupe gives the same verdicts; a planted lupe whose script output
# gains a line must make those cases differ (the reread is no rejudge)
python3 "$LUPE_SRC/scripts/compare-perf" --reread-lupe "$TMPD/run" --lupe "$LUPE" --quiet > reread 2>&1 ||
	{ tail reread; fail "--reread-lupe with the same lupe found differences"; }
grep -q "^compare-perf: $total cases reread" reread || { head -3 reread; fail "--reread-lupe did not reread the $total cases"; }
cat > planted-lupe <<PLANT
#!/bin/sh
"$LUPE" "\$@"; rc=\$?
[ "\$1" = script ] && echo "planted line"
exit \$rc
PLANT
chmod +x planted-lupe
python3 "$LUPE_SRC/scripts/compare-perf" --reread-lupe "$TMPD/run" --lupe "$PWD/planted-lupe" --quiet --views script > reread2 2>&1 &&
	fail "a lupe that prints a planted line passed --reread-lupe"
grep -q '^DIFFERS .*/script' reread2 || { tail reread2; fail "no script case differs after the planted reread"; }
ok "--reread-lupe: $total cases reread with the same verdicts; a planted line makes $(grep -c '^DIFFERS ' reread2) script cases differ"

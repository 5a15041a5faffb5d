#!/usr/bin/env bash
# scripts/compare-perf.known and the DIFFERENCES FROM PERF sections of lupe-report/script/trace.md are one list (every entry cited, every cited id an entry), and the checker names a planted fault of each kind
. "$(dirname "$0")/lib/common.sh"
CP=$LUPE_SRC/scripts/compare-perf
KNOWN=$LUPE_SRC/scripts/compare-perf.known
command -v python3 >/dev/null || skip "no python3 to run scripts/compare-perf"

python3 "$CP" --check-docs > check.out 2>&1 || { cat check.out; fail "the known list and the manuals disagree"; }
n=$(grep -c '^\[' "$KNOWN")
[ "$n" -ge 8 ] || fail "only $n entries in the known list"
grep -q "^compare-perf: $n known differences" check.out || { cat check.out; fail "the checker did not count the $n entries"; }
ok "$n known differences, each cited in its manual section"

# planted: an entry no manual cites
cp "$KNOWN" k1
printf '\n[planted-entry]\ncases = x/*\nperf = 6.1\ndoc = script\nreason = planted\n' >> k1
python3 "$CP" --check-docs --known k1 > p1.out 2>&1 && fail "an uncited entry passed the check"
grep -q "planted-entry.*lupe-script.md" p1.out || { cat p1.out; fail "the checker did not name the uncited entry"; }

# planted: a cited id removed from the report page, a bullet without an id in
# the script page, and an id the known list lacks in the trace page
mkdir docs
cp "$LUPE_SRC"/Documentation/lupe-{report,script,trace}.md docs/
id=$(sed -n '/^DIFFERENCES FROM PERF$/,/^SEE ALSO$/s/^- \[\([a-z0-9-]*\)\].*/\1/p' docs/lupe-report.md | head -1)
[ -n "$id" ] || fail "no cited id in lupe-report.md's section"
sed -i "s/^- \[$id\]/- /" docs/lupe-report.md
sed -i '/^DIFFERENCES FROM PERF$/,/^SEE ALSO$/{/^- \[/{s/^- \[[a-z0-9-]*\] /- /;:a;n;ba}}' docs/lupe-script.md
sed -i '/^DIFFERENCES FROM PERF$/{n;a\
- [no-such-entry] planted.
}' docs/lupe-trace.md
python3 "$CP" --check-docs --docs docs > p2.out 2>&1 && fail "the planted doc faults passed the check"
grep -q "\[$id\] is not in lupe-report.md" p2.out || { cat p2.out; fail "the checker did not name [$id] missing from lupe-report.md"; }
grep -q "lupe-script.md: a bullet without an \[id\]" p2.out || { cat p2.out; fail "the checker did not name the bullet without an id"; }
grep -q "lupe-trace.md cites \[no-such-entry\]" p2.out || { cat p2.out; fail "the checker did not name the id the known list lacks"; }
ok "the checker names an uncited entry, a missing id, an untagged bullet and an unknown id"

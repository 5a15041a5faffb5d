#!/usr/bin/env bash
# lupe stat's refusals: a bad event spec gets perf's caret message (same column as perf) and 129; a permission refusal names the event, the paranoid level and what to do
. "$(dirname "$0")/lib/common.sh"
need_perf

# caret_col FILE: the column of the caret under the spec, counted from the spec's first character
caret_col() {
	awk -v q="'" '/event syntax error: / { start = index($0, q); getline; print index($0, "\\") - start - 1; exit }' "$1"
}

# done-when 5: the spec with a caret under the problem, exit 129
for spec in 'cycles:zz' 'task-clock:zz' 'task-clock,page-faults:q'; do
	"$LUPE" stat -e "$spec" true > /dev/null 2> lupe.err
	rc=$?
	[ $rc = 129 ] || fail "lupe stat -e '$spec' exited $rc, want 129: $(cat lupe.err)"
	grep -q "event syntax error: '" lupe.err || fail "no spec line for '$spec': $(cat lupe.err)"
	grep -Fq '\___' lupe.err || fail "no caret for '$spec': $(cat lupe.err)"
	"$PERF" stat -e "$spec" true > /dev/null 2> perf.err
	if grep -q 'event syntax error' perf.err; then
		# the spec as shown (perf cuts long ones with ..) and the caret under the same character
		[ "$(grep 'event syntax error' lupe.err)" = "$(grep 'event syntax error' perf.err)" ] ||
			fail "spec line for '$spec' differs from perf's: $(cat lupe.err)"
		[ "$(caret_col lupe.err)" = "$(caret_col perf.err)" ] ||
			fail "caret for '$spec' at $(caret_col lupe.err), perf's at $(caret_col perf.err): $(cat lupe.err)"
	fi
	ok "caret for '$spec' at column $(caret_col lupe.err)"
done

# perf 6.1 quietly accepts an unclosed group; lupe must not
"$LUPE" stat -e '{task-clock' true > /dev/null 2> lupe.err
rc=$?
[ $rc = 129 ] || fail "lupe stat -e '{task-clock' exited $rc, want 129: $(cat lupe.err)"
grep -qF "event syntax error: '{task-clock'" lupe.err || fail "no spec line: $(cat lupe.err)"
grep -Fq '\___' lupe.err || fail "no caret: $(cat lupe.err)"
grep -q "Performance counter stats" lupe.err && fail "counts printed after a bad spec"
ok "unclosed group"

# an event the machine lacks, as a group leader: a sentence, not counts
if ! have_hw_pmu; then
	out=$("$LUPE" stat -e '{cycles,task-clock}' true 2>&1) && fail "a group led by an unsupported event succeeded"
	echo "$out" | grep -q "cannot open 'cycles'" || fail "no sentence naming cycles: $out"
	ok "unsupported group leader"
fi

# permission refusals, as an unprivileged user when perf_event_paranoid forbids
need_root
level=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$level" -ge 1 ] && command -v setpriv > /dev/null && setpriv --reuid 65534 --regid 65534 --clear-groups "$LUPE" --version > /dev/null 2>&1; then
	out=$(setpriv --reuid 65534 --regid 65534 --clear-groups "$LUPE" stat -a -e task-clock true 2>&1)
	rc=$?
	[ $rc = 1 ] || fail "refused -a exited $rc"
	echo "$out" | grep -q "cannot open 'task-clock': permission denied" || fail "no refusal sentence: $out"
	echo "$out" | grep -q "perf_event_paranoid is $level" || fail "no paranoid level: $out"
	echo "$out" | grep -q "CAP_PERFMON" || fail "no CAP_PERFMON: $out"
	if [ "$level" -ge 2 ]; then
		# as perf: user space only, said once, the event named task-clock:u (more in paranoid.sh)
		out=$(setpriv --reuid 65534 --regid 65534 --clear-groups "$LUPE" stat -e task-clock true 2>&1) ||
			fail "task-clock refused for a user at paranoid $level: $out"
		echo "$out" | grep -q "task-clock:u" || fail "no user-space fallback: $out"
		setpriv --reuid 65534 --regid 65534 --clear-groups "$LUPE" stat -e task-clock:u true 2> u.err ||
			fail "task-clock:u refused for a user at paranoid $level: $(cat u.err)"
	fi
	ok "permission refusals"
else
	echo "permission refusals not checked: paranoid $level or no way to drop privileges"
fi
ok "stat errors"

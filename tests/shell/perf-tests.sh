#!/usr/bin/env bash
# scripts/perf-tests --all runs every perf shell test with perf and with lupe as `perf`: every test perf passes, lupe passes; none perf skips fails with lupe; no lupe log says a command is missing
. "$(dirname "$0")/lib/common.sh"
dir=${PERF_TESTS_DIR:-/usr/lib/perf-core/tests/shell}
[ -d "$dir" ] || skip "perf's shell tests are not installed in $dir (apt-get install linux-perf)"
need_perf
need_root
out=$(PERF_TESTS_LOG="$TMPD/logs" LUPE="$LUPE" PERF="$PERF" "$LUPE_SRC/scripts/perf-tests" --all 2>&1)
rc=$?
echo "$out"
[ "$rc" = 77 ] && skip "perf-tests: $out"
# the table must name every test of the folder, each with a result for both
for f in "$dir"/*.sh; do
	t=$(basename "$f" .sh)
	echo "$out" | grep -Eq "^${t//+/\\+} +(pass|fail|skip) +(pass|fail|skip)" || fail "no result line for $t"
done
# Known failures (none now): each is still run and shown; one that starts
# passing fails this test until it leaves the list.
known=""
# Tests whose verdict with lupe depends on the machine's timing, shown but
# not counted. record_offcpu: its child-task part wants at least 800 off-CPU
# samples (distinct task, stack, state) of `perf bench sched messaging -g
# 10`; lupe's bench gives 797-841 on this machine, perf's bench under the
# same recorder 866-924 (likely, not proven: its bigger process takes more copy-on-write faults
# in the 400 children, each an extra uninterruptible sleep): about half the
# runs fall under perf's threshold. Issue 29 stays open on it.
flaky="record_offcpu"
# flaky_part NAME: the one failure line the timing explains in NAME's log;
# a log that fails or skips anywhere else (a failed record, a timeout)
# counts
flaky_part() { case $1 in record_offcpu) echo 'Child task off-cpu test [Failed invalid output]' ;; esac; }
# Commands lupe does not have yet: a log saying one is missing is tolerated
# only while this build lacks it (none now: lock, sched, ftrace, bench and
# mem are lupe commands; a name here whose command exists is not tolerated).
pending_cmds=""
bad=0
for f in "$TMPD"/logs/*.lupe.log; do
	n=$(basename "$f" .lupe.log)
	missing=$(grep -o "'[a-z-]*' is not a lupe command" "$f" | sort -u | cut -d"'" -f2)
	for c in $missing; do
		case " $pending_cmds " in
		*" $c "*) "$LUPE" "$c" -h > /dev/null 2>&1 || { echo "pending: $n runs 'lupe $c', not in this build"; continue; } ;;
		esac
		echo "--- $f says 'lupe $c' is missing"
		bad=1
	done
	echo "$out" | grep -Eq "^${n//+/\\+} +(pass +(fail|skip)|skip +fail)" || continue
	case " $known " in *" $n "*) echo "known failure: $n"; continue ;; esac
	case " $flaky " in *" $n "*)
		part=$(flaky_part "$n")
		if grep -qF -- "$part" "$f" && [ "$(grep -c '\[Failed\|\[Skip' "$f")" = 1 ] &&
			! grep -q '^perf-tests: timed out' "$f"; then
			echo "flaky, not counted: $n"; tail -5 "$f"; continue
		fi
		echo "flaky $n failed elsewhere than '$part':" ;;
	esac
	echo "--- $f"
	tail -20 "$f"
	bad=1
done
for n in $known; do
	echo "$out" | grep -Eq "^${n//+/\\+} +pass +pass" && fail "$n passes now: take it off the known failures"
done
[ "$bad" = 0 ] || fail "lupe fails a perf test that perf passes or skips, or misses a command (exit $rc)"
ok "perf's shell tests (--all): lupe passes each one perf passes, fails none perf skips${known:+, but the known failures ($known)}"

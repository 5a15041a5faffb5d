#!/usr/bin/env bash
# lupe list --raw-dump prints perf's space-separated event names per category (stat_all_pmu.sh loops over them), and lupe stat counts each pmu one by name
. "$(dirname "$0")/lib/common.sh"
need_perf
for c in sw hw cache pmu tracepoint; do
	"$PERF" list --raw-dump $c > want 2>/dev/null
	"$LUPE" list --raw-dump $c > got || fail "lupe list --raw-dump $c failed"
	cmp -s want got || { diff <(tr ' ' '\n' < want) <(tr ' ' '\n' < got) | head; fail "--raw-dump $c differs"; }
done
# all: perf adds its JSON metrics, which lupe does not have; the events are the same
"$PERF" list --raw-dump | tr ' \n' '\n\n' | grep . | sort > want.all
"$LUPE" list --raw-dump | tr ' ' '\n' | grep . | sort > got.all
[ -s got.all ] || fail "--raw-dump printed nothing"
comm -13 want.all got.all | grep . && fail "lupe dumps names perf does not"
for p in $("$LUPE" list --raw-dump pmu); do
	"$LUPE" stat -e "$p" true 2>&1 | grep -Eq "$p|<not supported>" || fail "stat -e $p does not show it"
done
ok "list --raw-dump: perf's names"

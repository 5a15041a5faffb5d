#!/usr/bin/env bash
# lupe report counts lost samples as perf does (Total Lost Samples, lost chunks said on stderr)
. "$(dirname "$0")/lib/common.sh"
need_perf
"$PERF" record -q -m 1 -F 40000 -g -o lost.data -- "$WORKLOADS/demo" -t 2 -n 300 >/dev/null 2>&1 ||
	skip "perf record failed"
want=$("$PERF" report -i lost.data --stdio --no-children 2>/dev/null | awk '/^# Total Lost Samples:/ {print $5}')
[ -n "$want" ] || fail "perf prints no Total Lost Samples"
[ "$want" != 0 ] || skip "nothing was lost with a 1-page buffer at 40 kHz on this machine"
"$LUPE" report -i lost.data --stdio --no-children > out 2> err || fail "lupe report exited $?"
got=$(awk '/^# Total Lost Samples:/ {print $5}' out)
[ "$got" = "$want" ] || fail "Total Lost Samples: lupe $got, perf $want"
grep -q "lost" err || fail "no word on lost samples on stderr: $(cat err)"
ok "lost samples: $got"

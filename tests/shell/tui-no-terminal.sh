#!/usr/bin/env bash
# without a terminal report prints text (as perf), --tui falls back to it, and top asks for --stdio
. "$(dirname "$0")/lib/common.sh"
"$LUPE" record -q -g -o demo.data -- "$WORKLOADS/demo" -n 50 >/dev/null 2>&1 || skip "cannot record here"
"$LUPE" report -i demo.data </dev/null >plain.out 2>plain.err || fail "report without a terminal exited $?: $(cat plain.err)"
grep -q '^# Children      Self  Command' plain.out || fail "report without a terminal printed no table: $(head plain.out)"
"$LUPE" report -i demo.data --stdio >stdio.out 2>&1
cmp -s plain.out stdio.out || fail "report without a terminal differs from --stdio"
ok "report falls back to --stdio's text"
"$LUPE" report -i demo.data --tui </dev/null >tui.out 2>tui.err || fail "report --tui without a terminal exited $?"
grep -qE 'needs a terminal|TUI is not built' tui.err || fail "report --tui said nothing: $(cat tui.err)"
grep -q '^# Children' tui.out || fail "report --tui without a terminal printed no table"
ok "report --tui says it needs a terminal and prints text"
"$LUPE" top </dev/null >top.out 2>top.err
rc=$?
[ "$rc" = 1 ] || fail "top without a terminal exited $rc, want 1"
grep -q -- "use --stdio" top.err || fail "top without a terminal does not say to use --stdio: $(cat top.err)"
[ ! -s top.out ] || fail "top without a terminal printed on stdout"
ok "top: $(cat top.err)"

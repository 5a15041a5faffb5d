#!/usr/bin/env bash
# lupe top: --stdio and the TUI show a busy workload's hottest function first, at the split perf records for it (+- 5); -p restricts to it
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/tmux.sh"
# -w 2,2,6: compute_c 60% of the work (self), spin 40% (under leaf_a and leaf_b)
"$WORKLOADS/demo" -s 30 -t 2 -w 2,2,6 >/dev/null &
wl=$!
trap 'kill $wl 2>/dev/null; tm kill-server 2>/dev/null; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$TMUX_SOCK"; rm -rf "$TMPD"' EXIT
sleep 0.3

# The split top must show: perf's record of the same workload, this second
# (the work units are 60/40, but the time they take is the compiler's and
# the CPU's: about 57/43 here, too near the edge of a fixed 60 +- 5). Two
# seconds of it at least: one second once gave 50.98% where lupe's --stdio
# and TUI showed 55.3% and 57.3% (a fresh clone's CI, 2026-11-26).
# The split drifts over a run on a loaded machine (CI once had 51.6% in
# perf's record and 60.2% in the TUI 20 s later): the TUI's check takes
# its own record, of the same seconds.
want_c=60 want_s=40
# want_c and want_s from perf's record FILE of the workload, when perf could record
perf_split() {
	[ -s "$1" ] || return 0
	"$PERF" report -i "$1" --stdio --sort sym 2>/dev/null >ref.txt
	want_c=$(awk '$NF == "compute_c" { sub("%", "", $1); print $1; exit }' ref.txt)
	want_s=$(awk '$NF == "spin" { sub("%", "", $1); print $1; exit }' ref.txt)
	[ -n "$want_c" ] && [ -n "$want_s" ] || fail "perf's record of demo has no compute_c or spin: $(head -20 ref.txt)"
}

# the share of SYM in refresh block N of a --stdio log
share() { awk -v n="$2" -v s="$3" '/LupeTop:/ { b++ } b == n && $NF == s { sub("%", "", $1); print $1; exit }' "$1"; }
first() { awk -v n="$2" '/LupeTop:/ { b++ } b == n && /^ +[0-9.]+%/ { print $NF; exit }' "$1"; }
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(a != "" && d <= 5 && d >= -5) }'; }

# perf records the same seconds as top (a record taken before top was
# 6 points off once, CI at a load of 15: 53.07% against top's 59.05%)
ref=
[ -x "$PERF" ] && { "$PERF" record -q -p "$wl" -o ref.data -- sleep 3.6 >/dev/null 2>&1 & ref=$!; }
timeout --preserve-status -s INT 3.6 "$LUPE" top --stdio -d 1 -E 5 -p "$wl" >p.out 2>p.err
rc=$?
[ -n "$ref" ] && wait $ref && perf_split ref.data
[ "$rc" = 0 ] || { grep -q 'perf_event_paranoid\|permission' p.err && skip "not allowed to sample: $(cat p.err)"; fail "top -p exited $rc: $(cat p.err)"; }
[ "$(grep -c LupeTop: p.out)" -ge 2 ] || fail "fewer than two refreshes in 3.6 s: $(cat p.out)"
for n in 1 2; do [ "$(first p.out $n)" = compute_c ] && break; done
[ "$(first p.out $n)" = compute_c ] || fail "compute_c is not first within two refreshes: $(cat p.out)"
c=$(share p.out $n compute_c) s=$(share p.out $n spin)
near "$c" "$want_c" || fail "compute_c at $c%, want $want_c +- 5 (perf's record)"
near "$s" "$want_s" || fail "spin at $s%, want $want_s +- 5 (perf's record)"
ok "top --stdio -p: compute_c $c% spin $s% at refresh $n"
# -p: nothing but the workload (by command)
timeout --preserve-status -s INT 2.6 "$LUPE" top --stdio -d 1 -p "$wl" -s comm >c.out 2>&1
awk '/^ +[0-9.]+%/ && $2 != "demo" { bad = 1; print } END { exit bad }' c.out || fail "-p showed another command"
grep -qE '^ +[0-9.]+% +demo' c.out || fail "-p -s comm showed no demo entry: $(cat c.out)"
ok "-p restricts to the workload"

# system-wide (the default): the workload's hottest function leads its own
# entries within two refreshes (other tasks of a shared machine may lead the table)
tids=$(ls /proc/$wl/task | tr '\n' ' ')
timeout --preserve-status -s INT 3.6 "$LUPE" top --stdio -d 1 -s pid,sym -E 60 >a.out 2>a.err || fail "top exited $?: $(cat a.err)"
grep -q '(all, ' a.out || fail "not system-wide by default"
wl_first() { awk -v n="$1" -v t=" $tids" '/LupeTop:/ { b++ } b == n && /^ +[0-9.]+%/ { split($2, p, ":"); if (index(t, " " p[1] " ")) { print $NF; exit } }' a.out; }
[ "$(wl_first 1)" = compute_c ] || [ "$(wl_first 2)" = compute_c ] ||
	fail "system-wide, compute_c does not lead demo's entries within two refreshes: $(cat a.out)"
ok "system-wide top: compute_c leads the workload's entries"
timeout --preserve-status -s INT 2.6 "$LUPE" top --stdio -d 1 -E 5 >e.out 2>&1
[ "$(awk '/LupeTop:/ { b++ } b == 1 && /^ +[0-9.]+%/' e.out | wc -l)" -le 5 ] || fail "-E 5 showed more"

# a process that starts (and exits) while top runs resolves its symbols
"$LUPE" top --stdio -d 1 -s pid,sym -E 40 >n.out 2>&1 &
top=$!
sleep 1.2
"$WORKLOADS/demo" -s 1.5 >/dev/null &
late=$!
wait $late
sleep 1.5
kill -INT $top; wait $top || fail "top exited $? after SIGINT"
grep -E "^ +[0-9.]+% +$late:demo" n.out >late.lines || fail "no entry of demo $late, started after top: $(tail -30 n.out)"
grep -qE '\[\.\] (spin|compute_c)$' late.lines || fail "demo $late's samples did not resolve: $(cat late.lines)"
ok "demo started after top resolves: $(grep -cE '\[\.\] [a-z_]+$' late.lines) named entries"

# -z: each refresh counts afresh (the event count does not grow)
timeout --preserve-status -s INT 3.6 "$LUPE" top --stdio -z -d 1 -E 3 -p "$wl" >z.out 2>&1 || fail "top -z exited $?: $(tail -3 z.out)"
ec() { awk -v n="$1" '/^# Event count/ { b++ } b == n { print $NF; exit }' z.out; }
e2=$(ec 2) e3=$(ec 3)
[ -n "$e3" ] && awk -v a="$e2" -v b="$e3" 'BEGIN { exit !(b < 1.6 * a) }' ||
	fail "-z: event count $e2 then $e3, not one refresh's each: $(cat z.out)"
ok "-z: $e2 then $e3 per refresh"

# the TUI: the same, live
have_tui || exit 0
tm_start
tm_keys "'$LUPE' top -d 1 -p $wl" Enter
tm_wait 'lupe top: Samples' 5 || fail "the TUI did not start: $(tm_screen)"
tm_wait '^ +[0-9.]+% +demo +\[\.\] compute_c' 4 || fail "compute_c not first in the TUI: $(tm_screen | head -5)"
ref=
[ -x "$PERF" ] && { "$PERF" record -q -p "$wl" -o ref2.data -- sleep 1.2 >/dev/null 2>&1 & ref=$!; }
# the second refresh at least: more samples, less noise
sleep 1.2
c=$(tm_screen | sed -n 3p | awk '{ sub("%", "", $1); print $1 }')
[ -n "$ref" ] && wait $ref && perf_split ref2.data
near "$c" "$want_c" || fail "TUI: compute_c at $c%, want $want_c +- 5 (perf's record)"
tm_screen | head -1 | grep -q 'Lost: [0-9]' || fail "no lost count in the header"
ok "TUI: compute_c first at $c%"
tm_keys q; tm_keys 'echo rc=$?' Enter
tm_wait '^rc=0' 5 || fail "q did not end top with 0: $(tm_screen | tail -3)"

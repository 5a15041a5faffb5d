#!/usr/bin/env bash
# top's TUI: a annotates the hottest function live (the hot line's share moves between refreshes, q comes back), f stops and restarts the counting, z zeroes the samples at each refresh
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/tmux.sh"
why=$(have_tui) || skip "$why"
"$WORKLOADS/demo" -s 60 >/dev/null &
wl=$!
trap 'kill $wl 2>/dev/null; tm kill-server 2>/dev/null; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$TMUX_SOCK"; rm -rf "$TMPD"' EXIT
timeout --preserve-status -s INT 1.5 "$LUPE" top --stdio -d 1 -p "$wl" >probe.out 2>probe.err
grep -q 'perf_event_paranoid\|permission' probe.err && skip "not allowed to sample: $(cat probe.err)"

# the header's event count, and a selected annotation line's share
count() { tm_screen | head -1 | sed -nE 's/.*Event count \(approx.\): ([0-9]+).*/\1/p'; }
sel_val() { tm_selected | awk -F: '{ print $1 + 0 }'; }
# wait_change CMD [SECS]: until CMD prints something else than now; the new value
wait_change() {
	local a b i
	a=$($1)
	for ((i = 0; i < ${2:-10} * 10; i++)); do
		sleep 0.1
		b=$($1)
		[ -n "$b" ] && [ "$b" != "$a" ] && { echo "$b"; return 0; }
	done
	return 1
}

tm_start
tm_keys "lupe_bin=$LUPE" Enter
tm_keys "\$lupe_bin top -d 1 -p $wl" Enter
tm_wait 'lupe top: Samples: .* of event' 15 || fail "top did not open: $(tm_screen)"
tm_wait_sel 'spin' 15 || fail "spin is not the top entry: $(tm_screen | sed -n 3,5p)"

# a: the live annotation of spin; its hot line's share moves at each refresh
tm_keys a; tm_wait '^Annotate spin \(demo\)' 10 || fail "a opened no annotation: $(tm_screen | head -3)"
# (the cursor follows the hottest line until a key is pressed)
tm_wait_sel '^ +[0-9]+\.[0-9]*[1-9][0-9]* : ' 10 || fail "no hot line selected after 10 s: $(tm_screen)"
s1=$(sel_val)
s2=$(wait_change sel_val 10) || fail "the hot line's share stayed at $s1% for 10 s: not live"
n1=$(tm_screen | head -1 | sed -nE 's/.*: ([0-9]+) samples.*/\1/p')
n2=$(wait_change "eval tm_screen | head -1 | sed -nE 's/.*: ([0-9]+) samples.*/\1/p'" 10) || fail "the samples stayed at $n1"
ok "a: spin's hot line at $s1% then $s2%, $n1 then $n2 samples: live"
tm_keys q; tm_wait 'lupe top: Samples: .* of event' 5 || fail "q did not go back to top"

# f: no samples counted, then again
tm_keys f; tm_wait 'events disabled' 5 || fail "f: $(tm_screen | tail -1)"
# (samples the session ordered before f come in the next second: wait for two equal refreshes)
c1=$(count)
for ((i = 0; i < 10; i++)); do
	c2=$(wait_change count 3) || break
	c1=$c2
done
[ "$i" -lt 10 ] || fail "after f the event count still grows: $c1"
c2=$(wait_change count 3) && fail "after f the event count grew from $c1 to $c2"
tm_keys f; tm_wait 'events enabled' 5 || fail "f again: $(tm_screen | tail -1)"
c3=$(wait_change count 10) || fail "after f again the event count stays at $c1"
ok "f: the event count stays at $c1, then grows to $c3"

# z: each refresh shows the samples since the last one, fewer than all
sleep 2.5
all=$(wait_change count 5)
tm_keys z; tm_wait 'zeroing of the samples at each refresh on' 5 || fail "z: $(tm_screen | tail -1)"
wait_change count 5 >/dev/null; z=$(wait_change count 5) || fail "no refresh after z"
[ "$z" -lt "$all" ] || fail "z: a refresh shows $z, as many as all $all"
tm_keys z; tm_wait 'zeroing of the samples at each refresh off' 5 || fail "z again: $(tm_screen | tail -1)"
ok "z: a refresh shows $z of the event, all of it was $all"
tm_keys q; tm_wait 'lupe-test\$ ?$' 10 || fail "top did not quit"

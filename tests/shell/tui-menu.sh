#!/usr/bin/env bash
# report's menu (Enter without a callchain, m) lists Annotate, Zoom into thread and DSO, Browse map details, Switch to another data file, Exit and each does it; i shows --header-only's lines; L, F, V, k, e and TAB between the events of a two-event file match report --stdio
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/tmux.sh"
why=$(have_tui) || skip "$why"
need_sampling
"$LUPE" record -q -o perf.data -- "$WORKLOADS/demo" -n 200 >/dev/null 2>&1 || fail "lupe record failed"
"$LUPE" record -q -o other.data -- "$WORKLOADS/demo" -n 60 -w 1,1,8 >/dev/null 2>&1 || fail "lupe record failed"
"$LUPE" record -q -g -o g.data -- "$WORKLOADS/demo" -n 100 >/dev/null 2>&1 || fail "lupe record failed"
rtrim() { sed -e 's/[[:space:]]*$//'; }
# --stdio's entry lines of one event (the N-th "# Samples" section)
stdio_entries() { "$LUPE" report --stdio "$@" | awk -v n="${N:-1}" '/^# Samples:/ { s++ } s == n && /^ +[0-9]+\.[0-9]+%/' | rtrim; }
tui_entries() { tm_screen | sed -n '3,39p' | grep -E '^[-+ ] +[0-9]+\.[0-9]+%' | cut -c2- | rtrim; }
samples() { "$LUPE" report --stdio -i "$1" | awk '/^# Samples:/ { print $3; exit }'; }

tm_start
tm_keys "lupe_bin=$LUPE" Enter
tm_keys 'clear; $lupe_bin report -i perf.data' Enter
tm_wait "Samples: .* of event" || fail "the browser did not open: $(tm_screen)"
tm_wait_sel 'spin' || fail "spin is not selected: $(tm_screen | sed -n 3p)"

# Enter on an entry without a callchain: the menu, perf's entries
tm_keys Enter; tm_wait 'Options' 5 || fail "Enter opened no menu: $(tm_screen)"
for item in 'Annotate spin' 'Zoom into demo\([0-9]+\) thread' 'Zoom into demo DSO' 'Browse map details' \
	'Switch to another data file in PWD' 'Exit'; do
	tm_screen | grep -Eq "$item" || fail "the menu has no '$item': $(tm_screen | sed -n 3,12p)"
done
ok "Enter: the menu with perf's six entries"
tm_keys Enter; tm_wait '^Annotate spin' 10 || fail "Annotate did not annotate: $(tm_screen | head -1)"
tm_keys q; tm_wait 'Samples: .* of event' 5 || fail "q did not come back from the annotation"
ok "Annotate spin annotates"

# m: the same menu; the zooms in and out
tm_keys m; tm_wait 'Options' 5 || fail "m opened no menu"
tm_keys Down Enter; tm_wait 'Samples: .*, Thread: demo\(' 5 || fail "Zoom into thread: $(tm_screen | head -1)"
tm_keys m; tm_wait 'Zoom out of demo\(' 5 || fail "the menu offers no zoom out of the thread"
tm_keys Down Enter; tm_settle
tm_screen | head -1 | grep -q 'Thread:' && fail "Zoom out of the thread did not"
tm_keys m; tm_wait 'Options' 5; tm_keys Down Down Enter
tm_wait 'Samples: .*, DSO: demo' 5 || fail "Zoom into DSO: $(tm_screen | head -1)"
tui_entries | awk '$3 != "demo" { bad = 1 } END { exit bad }' || fail "an entry of another DSO in the DSO zoom"
tm_keys m; tm_wait 'Zoom out of demo DSO' 5 || fail "the menu offers no zoom out of the DSO"
tm_keys Down Down Enter; tm_settle
tm_screen | head -1 | grep -q 'DSO:' && fail "Zoom out of the DSO did not"
ok "Zoom into/out of the thread and the DSO"

tm_keys m; tm_wait 'Options' 5; tm_keys Down Down Down Enter
tm_wait '^Map of demo' 5 || fail "Browse map details: $(tm_screen | head -3)"
tm_screen | grep -q "DSO: *$WORKLOADS/demo" || fail "the map details lack the DSO's path: $(tm_screen | head -5)"
tm_screen | grep -Eq '^ +[0-9a-f]{16}-[0-9a-f]{16} +spin$' || fail "the map details lack spin: $(tm_screen)"
tm_keys q; tm_wait 'Samples: .* of event' 5 || fail "q did not leave the map details"
ok "Browse map details: the DSO and its symbols"

# i: the header, as --header-only prints it
tm_keys i; tm_wait '^Header of perf.data' 5 || fail "i shows no header: $(tm_screen | head -2)"
"$LUPE" report -i perf.data --header-only | head -38 | cut -c1-120 | rtrim > header.want
tm_screen | sed -n '2,39p' | rtrim | head -n "$(wc -l < header.want)" > header.got
diff header.want header.got > diff.out || fail "i differs from --header-only: $(head diff.out)"
tm_keys q; tm_wait 'Samples: .* of event' 5 || fail "q did not leave the header"
ok "i: $(wc -l < header.got) lines as --header-only"

# L: a percent limit, as --percent-limit
tm_keys L; tm_wait 'Percent limit:' 5 || fail "L has no prompt"
tm_keys 10 Enter; tm_settle
diff <(stdio_entries -i perf.data --percent-limit 10) <(tui_entries) > diff.out || fail "L 10 differs from --percent-limit 10: $(cat diff.out)"
tm_keys L; tm_wait 'Percent limit:' 5; tm_keys 0 Enter; tm_settle
ok "L 10: the entries of --percent-limit 10"

# F: with a filter, percentages of the entries on view
tm_keys / ; tm_wait 'Filter by symbol' 5; tm_keys compute_c Enter; tm_settle
tui_entries | grep -q '100.00%' && fail "F is on before it was pressed"
tm_keys F; tm_settle
tui_entries | grep -q '^ *100.00% .*compute_c' || fail "F: compute_c is not 100% of the entries on view: $(tui_entries)"
tm_keys F; tm_settle
tui_entries | grep -q '100.00%' && fail "F again did not go back"
tm_keys Escape; tm_settle
ok "F: percentages of the filtered entries"

# V: DSO paths
tm_keys V; tm_settle
tm_screen | grep -q " $WORKLOADS/demo " || fail "V shows no DSO path: $(tm_screen | sed -n 3,5p)"
# (in the tmux shell's environment: without HOME, no build-id cache, and -v shows the origin;
# entries of 1% or more: ties below may come in another order)
env -i PATH="$PATH" "$LUPE" report --stdio -i perf.data -v | grep -E '^ +[0-9]+\.[0-9]+%' | rtrim | awk '$1 + 0 >= 1' > v.want
diff v.want <(tui_entries | awk '$1 + 0 >= 1') > diff.out || fail "V differs from -v: $(cat diff.out)"
tm_keys V; tm_settle
ok "V: the entries of report -v"

# k: the kernel's map, when there are kernel samples
if "$LUPE" report --stdio -i perf.data | grep -q '\[k\]'; then
	tm_keys k; tm_wait 'DSO: \[kernel.kallsyms\]' 5 || fail "k did not zoom into the kernel: $(tm_screen | head -1)"
	tui_entries | grep -v '\[k\]' && fail "k: a user entry in the kernel zoom"
	tm_keys Escape; tm_settle
	ok "k zooms into the kernel map"
else
	tm_keys k; tm_wait 'no kernel samples' 5 || fail "k without kernel samples says nothing"
	ok "k: no kernel samples, said so"
fi

# Switch to another data file: the perf.data files here, then the one picked
tm_keys m; tm_wait 'Options' 5; tm_keys Up Up Enter
tm_wait '^ +g\.data  ' 5 || fail "no file list: $(tm_screen | sed -n 3,10p)"
for f in g.data other.data perf.data; do
	tm_screen | grep -Eq "^ +$f(  |$)" || fail "the list lacks $f: $(tm_screen | sed -n 3,10p)"
done
tm_keys Down Enter
tm_wait "Samples: $(samples other.data) of event" 10 || fail "other.data is not shown: $(tm_screen | head -1), want $(samples other.data) samples"
diff <(stdio_entries -i other.data | head -10) <(tui_entries | head -10) > diff.out || fail "other.data's rows differ: $(cat diff.out)"
ok "Switch to another data file: other.data's $(samples other.data) samples and rows"

# Exit: the last entry
tm_keys m; tm_wait 'Options' 5; tm_keys Up Enter
tm_keys 'echo rc=$?' Enter
tm_wait '^rc=0' 10 || fail "Exit did not exit 0: $(tm_screen | tail -3)"
ok "Exit exits 0"

# e: one entry's callchains, in a file with them
tm_keys 'clear; $lupe_bin report -i g.data' Enter
tm_wait "Samples: .* of event" || fail "the browser did not open on g.data"
tm_settle
tm_screen | sed -n 3p | grep -q '^+' || fail "the top entry of g.data is not folded: $(tm_screen | sed -n 3p)"
tm_keys e; tm_settle
tm_screen | sed -n 3p | grep -q '^-' || fail "e did not expand: $(tm_screen | sed -n 3p)"
tm_screen | sed -n 4p | grep -q -- '--' || fail "e shows no chain: $(tm_screen | sed -n 4p)"
tm_keys e; tm_settle
tm_screen | sed -n 3p | grep -q '^+' || fail "e again did not fold"
# + and RIGHT open the entry's chains too (RIGHT leaves an open one open), E and C all of them
tm_keys +; tm_settle
tm_screen | sed -n 3p | grep -q '^-' || fail "+ did not expand: $(tm_screen | sed -n 3p)"
tm_keys +; tm_settle; tm_keys Right; tm_settle
tm_screen | sed -n 3p | grep -q '^-' || fail "RIGHT did not expand"
tm_keys Right; tm_settle
tm_screen | sed -n 3p | grep -q '^-' || fail "RIGHT on an open entry folded it"
tm_keys E; tm_settle
[ "$(tm_screen | sed -n '3,39p' | grep -cE '^\+ +[0-9]')" = 0 ] || fail "E left folded entries: $(tm_screen)"
tm_keys C; tm_settle
[ "$(tm_screen | sed -n '3,39p' | grep -cE '^- +[0-9]')" = 0 ] || fail "C left open entries: $(tm_screen)"
# PGDN and PGUP: a page down and back to the top
tm_keys E NPage; tm_settle
[ -n "$(tm_selected)" ] && ! tm_screen | sed -n 3p | grep -qF -- "$(tm_selected | cut -c1-40)" || fail "PGDN did not move a page"
tm_keys PPage; tm_settle
tm_screen | sed -n 3p | grep -qF -- "$(tm_selected | cut -c1-40)" || fail "PGUP did not come back to the top: '$(tm_selected)'"
ok "+, RIGHT, E, C, PGDN, PGUP"
tm_keys q; tm_wait 'lupe-test\$ ?$' 10 || fail "report did not quit"
ok "e: one entry's callchains open and shut"

# two events: TAB and shift-TAB switch, each event's rows as --stdio's
"$LUPE" record -q -e cpu-clock,page-faults -o two.data -- "$WORKLOADS/demo" -n 100 >/dev/null 2>&1 ||
	fail "lupe record -e cpu-clock,page-faults failed"
[ "$("$LUPE" report --stdio -i two.data | grep -c '^# Samples:')" = 2 ] || fail "two.data has not two events with samples"
tm_keys 'clear; $lupe_bin report -i two.data' Enter
tm_wait "Samples: .* of event 'cpu-clock'" || fail "the browser did not open on cpu-clock: $(tm_screen | head -1)"
tm_settle
diff <(N=1 stdio_entries -i two.data | head -20) <(tui_entries | head -20) > diff.out || fail "cpu-clock rows differ: $(cat diff.out)"
tm_keys Tab; tm_wait "Samples: .* of event 'page-faults'" 5 || fail "TAB did not switch to page-faults: $(tm_screen | head -1)"
tm_settle
diff <(N=2 stdio_entries -i two.data | head -20) <(tui_entries | head -20) > diff.out || fail "page-faults rows differ: $(cat diff.out)"
n=$(tui_entries | wc -l)
tm_keys BTab; tm_wait "Samples: .* of event 'cpu-clock'" 5 || fail "shift-TAB did not switch back"
tm_keys Tab; tm_wait "Samples: .* of event 'page-faults'" 5; tm_keys Tab
tm_wait "Samples: .* of event 'cpu-clock'" 5 || fail "TAB after the last event did not wrap"
tm_keys q
ok "two events: TAB and shift-TAB switch; cpu-clock's and page-faults' ($n) rows as --stdio's"

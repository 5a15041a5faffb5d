#!/usr/bin/env bash
# lupe report's TUI in tmux: same top-10 as --stdio, Enter shows callers, / filters, d zooms, P writes the rows, q exits 0
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/tmux.sh"
why=$(have_tui) || skip "$why"
"$LUPE" record -q -g -o demo.data -- "$WORKLOADS/demo" -n 200 >/dev/null 2>&1 || skip "cannot record here"
"$LUPE" report -i demo.data -h | grep -q -- '--tui' || fail "report -h has no --tui"

# entry lines as --stdio prints them, trailing blanks cut
rtrim() { sed -e 's/[[:space:]]*$//'; }
stdio_entries() { "$LUPE" report -i demo.data --stdio "$@" | grep -E '^ +[0-9]+\.[0-9]+%' | rtrim; }
# the TUI's entry rows: the marker (+, - or blank) then the same line
tui_entries() { tm_screen | sed -n '3,39p' | grep -E '^[-+ ] +[0-9]+\.[0-9]+%' | cut -c2- | rtrim; }

tm_start
tm_keys "lupe_bin=$LUPE" Enter
tm_keys '$lupe_bin report -i demo.data' Enter
tm_wait "Samples: .* of event" || fail "the browser did not open: $(tm_screen)"
tm_settle
diff <(stdio_entries | head -10) <(tui_entries | head -10) >diff.out ||
	fail "top-10 differs from --stdio: $(cat diff.out)"
ok "top-10 entries and percentages as --stdio"
tm_screen | sed -n 2p | grep -q 'Children      Self  Command  Shared Object' || fail "no column heads: $(tm_screen | sed -n 2p)"

# / and a symbol: only matching entries, the filter in the header
tm_keys / ; tm_wait 'Filter by symbol' 3 || fail "no filter prompt"
tm_keys 'compute' Enter; tm_settle
tm_screen | head -1 | grep -q "Filter: 'compute'" || fail "the header does not show the filter"
n=$(tui_entries | wc -l)
[ "$n" -ge 3 ] || fail "the filter left $n entries, want compute_a/b/c"
tui_entries | grep -v 'compute' && fail "an entry without 'compute' passed the filter"
ok "/compute leaves $n matching entries"
tm_keys Escape; tm_settle
[ "$(tui_entries | wc -l)" -gt "$n" ] || fail "ESC did not clear the filter"

# d: zoom into the selected entry's DSO (the top one: libc.so.6) and back
all=$(tui_entries | wc -l)
tm_keys Home; tm_settle
dso=$(tui_entries | head -1 | awk '{print $4}')
tm_keys d; tm_settle
tm_screen | head -1 | grep -q "DSO: $dso" || fail "the header does not show the DSO zoom: $(tm_screen | head -1)"
tui_entries | awk -v d="$dso" '$4 != d { bad = 1 } END { exit bad }' || fail "an entry of another DSO in the zoom into $dso"
tm_keys d; tm_settle
[ "$(tui_entries | wc -l)" = "$all" ] || fail "d again did not zoom out"
ok "d zooms into $dso and out"

# t and s: zoom into the thread and the symbol, the header says so, ESC/Left undo
tm_keys Home; tm_settle
tm_keys t; tm_settle
tm_screen | head -1 | grep -q "Thread: demo(" || fail "t: no thread zoom in the header: $(tm_screen | head -1)"
tm_keys s; tm_settle
tm_screen | head -1 | grep -q "Symbol: " || fail "s: no symbol zoom in the header"
[ "$(tui_entries | wc -l)" = 1 ] || fail "s: the symbol zoom shows $(tui_entries | wc -l) entries, want 1"
tm_keys Left; tm_settle
tm_screen | head -1 | grep -q "Symbol: " && fail "Left did not undo the symbol zoom"
tm_keys Escape; tm_settle
tm_screen | head -1 | grep -q "Thread: " && fail "ESC did not undo the thread zoom"
[ "$(tui_entries | wc -l)" = "$all" ] || fail "after the zooms out, $(tui_entries | wc -l) entries, want $all"
ok "t and s zoom, Left and ESC undo"

# h: the key help, any key closes it; End then H: the hottest entry is selected again
tm_keys h; tm_wait 'zoom into the DSO' 3 || fail "h shows no help"
tm_keys x; tm_settle
tm_screen | grep -q 'zoom into the DSO' && fail "a key did not close the help"
tm_keys End; tm_settle; tm_keys H; tm_settle
tm_screen | sed -n 3p | grep -q "$(stdio_entries | head -1 | awk '{print $NF}')" || fail "H did not go back to the hottest entry"
ok "h helps, H finds the hottest entry"

# a resize redraws: the status line follows the window's last row
tm resize-window -t 0 -x 100 -y 30
tm_settle
tm_screen | sed -n 30p | grep -q "Press '?' for help" || fail "no redraw after a resize: $(tm_screen | tail -3)"
tm resize-window -t 0 -x 120 -y 40
tm_settle
tm_screen | sed -n 40p | grep -q "Press '?' for help" || fail "no redraw after the resize back"
ok "a resize redraws"

# P: a file whose rows are the rows on screen
tm_keys P; tm_wait 'lupe.hist.0 written' 3 || fail "P wrote nothing: $(tm_screen | tail -1)"
[ -f lupe.hist.0 ] || fail "no lupe.hist.0"
tm_screen | sed -n '3,39p' | rtrim | sed '/^$/d' >screen.rows
diff screen.rows <(grep -v '^#' lupe.hist.0 | head -n "$(wc -l <screen.rows)") >diff.out ||
	fail "P's file differs from the screen: $(head -20 diff.out)"
ok "P wrote the visible rows"

# q: out, exit 0, the prompt back
tm_keys q; tm_keys 'echo rc=$?' Enter
tm_wait '^rc=0' 5 || fail "q did not exit 0: $(tm_screen | tail -5)"
tm_screen | grep -q 'lupe-test\$ echo rc' || fail "no shell prompt after q"
ok "q exits 0 and the prompt is back"

# --no-children: the top entry is the leaf; Enter shows its callers
tm_keys '$lupe_bin report -i demo.data --no-children' Enter
tm_wait "Samples: .* of event" || fail "the browser did not open"
tm_settle
top=$(tui_entries | head -1)
[ "$top" = "$(stdio_entries --no-children | head -1)" ] || fail "top entry '$top' is not --stdio's"
tm_keys Enter; tm_settle
chain=$(tm_screen | sed -n '4,20p')
for f in leaf_a compute_a run main; do
	grep -q -- "$f" <<<"$chain" || fail "Enter on '$top' does not show the caller $f: $chain"
done
tm_screen | sed -n 3p | grep -q '^-' || fail "the expanded entry is not marked '-'"
ok "Enter shows the callers of the top entry"
# E / C: every chain open, then none
tm_keys C; tm_settle
tm_screen | sed -n '3,39p' | rtrim | sed '/^$/d' | grep -vE '^[-+ ] +[0-9]+\.[0-9]+%' && fail "C did not collapse every chain"
tm_keys q; tm_keys 'echo rc=$?' Enter
tm_wait '^rc=0' 5 || fail "q did not exit 0"

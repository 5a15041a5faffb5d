#!/usr/bin/env bash
# report's a opens the annotate browser on the hot line with annotate --stdio's share; TAB, H, Enter on a jump and a call, s, t (samples as --show-nr-samples), j/J/o/O/k/p, / n ?, P, h, q back; lupe annotate browses on a terminal and prints --stdio's text on a pipe
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/tmux.sh"
why=$(have_tui) || skip "$why"
need_sampling
"$LUPE" annotate -h 2>&1 | grep -q -- '--show-nr-samples' || fail "annotate -h has no --show-nr-samples"
"$LUPE" record -q -o perf.data -- "$WORKLOADS/demo" -n 400 >/dev/null 2>&1 || fail "lupe record failed"
"$LUPE" record -q -g -o g.data -- "$WORKLOADS/demo" -n 200 >/dev/null 2>&1 || fail "lupe record failed"
"$LUPE" annotate --stdio -i perf.data -s spin > spin.stdio || fail "annotate --stdio -s spin"
"$LUPE" annotate --stdio --show-nr-samples -i perf.data -s spin > spin.nr || fail "annotate --show-nr-samples"
grep -q '^ Samples |' spin.nr || fail "--show-nr-samples: no Samples title: $(head -1 spin.nr)"
# "ADDR PERCENT" of the sampled instructions, hottest first (ties: address order)
hot() { awk -F: '$1 ~ /^ *[0-9.]+ *$/ && $1 + 0 > 0 { gsub(/ /, "", $2); printf "%s %.2f\n", $2, $1 }' "$1" | sort -s -k2,2gr; }
hot spin.stdio > hot.txt
[ "$(wc -l < hot.txt)" -ge 2 ] || fail "fewer than 2 sampled instructions in spin: $(cat spin.stdio)"
read -r a1 p1 < hot.txt
read -r a2 p2 < <(sed -n 2p hot.txt)
n1=$(awk -F: -v a="$a1" '{ x = $2; gsub(/ /, "", x) } x == a { print $1 + 0 }' spin.nr)
[ -n "$n1" ] && [ "$n1" -gt 0 ] || fail "no sample count at $a1 in: $(cat spin.nr)"
# a selected line's address and its value
sel_addr() { tm_selected | awk -F: '{ print $2 }' | awk '{ print $1 }'; }
sel_val() { tm_selected | awk -F: '{ print $1 + 0 }'; }

tm_start
tm_keys "lupe_bin=$LUPE" Enter
tm_keys '$lupe_bin report -i perf.data' Enter
tm_wait "Samples: .* of event" || fail "the report browser did not open: $(tm_screen)"
tm_wait_sel 'spin' || fail "spin is not the selected (hottest) entry: $(tm_screen | sed -n 3p)"
tm_keys a
tm_wait '^Annotate spin \(demo\)' || fail "a opened no annotation: $(tm_screen)"
tm_settle
[ "$(sel_addr)" = "$a1" ] || fail "the selected line is '$(tm_selected)', want the hottest, $a1"
awk -v a="$(sel_val)" -v b="$p1" 'BEGIN { exit !(a == b) }' || fail "the hot line shows $(sel_val)%, annotate --stdio $p1%"
ok "a: spin's hot line $a1 selected at $p1%, as annotate --stdio"

tm_keys Tab; tm_settle
[ "$(sel_addr)" = "$a2" ] || fail "TAB selected '$(tm_selected)', want the next hottest, $a2"
awk -v a="$(sel_val)" -v b="$p2" 'BEGIN { exit !(a == b) }' || fail "TAB: $(sel_val)%, annotate --stdio $p2%"
tm_keys BTab; tm_settle
[ "$(sel_addr)" = "$a1" ] || fail "shift-TAB did not go back to $a1: '$(tm_selected)'"
tm_keys Tab End; tm_settle; tm_keys H; tm_settle
[ "$(sel_addr)" = "$a1" ] || fail "H did not go to the hottest, $a1: '$(tm_selected)'"
ok "TAB $a2 at $p2%, shift-TAB and H back to $a1"
tm_keys NPage; tm_settle
tm_selected | grep -q ':   ret' || fail "PGDN did not go to the last line (spin is shorter than a page): '$(tm_selected)'"
tm_keys PPage; tm_settle
[ "$(tm_selected)" = "$(tm_screen | sed -n 2p | sed -e 's/[[:space:]]*$//')" ] || fail "PGUP did not go to the first line: '$(tm_selected)'"
tm_keys H; tm_settle
ok "PGDN, PGUP: the last line and the first"

# t: period, then samples as --show-nr-samples; again: percent
tm_keys t; tm_wait '^Annotate.*period: per instruction' 5 || fail "t: no period view: $(tm_screen | head -1)"
tm_keys t; tm_wait '^Annotate.*samples: per instruction' 5 || fail "t t: no samples view: $(tm_screen | head -1)"
tm_settle
[ "$(sel_val)" = "$n1" ] || fail "samples view: $(sel_val) at $a1, annotate --show-nr-samples $n1"
tm_keys t; tm_wait '^Annotate.*percent: local period' 5 || fail "t t t: not back to percent"
ok "t: $n1 samples at $a1, as --show-nr-samples"

# p: global percentages (of the event's period: spin is not all of it)
tm_keys p; tm_wait 'percent: global period' 5 || fail "p: no global percent: $(tm_screen | head -1)"
tm_settle
g=$(sel_val)
awk -v a="$g" -v b="$p1" 'BEGIN { exit !(a < b && a > 0) }' || fail "p: global $g% against local $p1%"
tm_keys p; tm_wait 'percent: local period' 5 || fail "p again: not local"
ok "p: global share $g% < local $p1%"

# s: source lines off and on
src=$(tm_screen | grep -cE '^ +: [0-9]+ ')
[ "$src" -gt 0 ] || fail "no source lines on screen: $(tm_screen)"
tm_screen | grep -q 'acc += i ^ (acc >> 3);' || fail "no source text on screen: $(tm_screen)"
tm_keys s; tm_settle
[ "$(tm_screen | grep -cE '^ +: [0-9]+ ')" = 0 ] || fail "s left source lines: $(tm_screen)"
[ "$(sel_addr)" = "$a1" ] || fail "s moved the cursor off $a1"
ok "s hides $src source lines"

# Enter on a jump: the cursor on its target
tm_keys / ; tm_wait 'Search:' 3 || fail "/ has no prompt: $(tm_screen | tail -2)"
tm_keys jne Enter; tm_wait_sel 'jne ' 5 || fail "/jne did not find the jump: '$(tm_selected)'"
target=$(tm_selected | sed -E 's/.*jne +([0-9a-f]+) .*/\1/')
tm_keys Enter; tm_settle
[ "$(sel_addr)" = "$target:" ] || [ "$(sel_addr)" = "$target" ] || fail "Enter on the jump selected '$(tm_selected)', want $target"
ok "Enter on 'jne $target' moves to $target"
tm_keys '?'; tm_wait 'Search backward:' 3 || fail "? has no prompt"
tm_keys 'push' Enter; tm_wait_sel 'push ' 5 || fail "?push did not find push backward: '$(tm_selected)'"
tm_keys / ; tm_wait 'Search:' 3; tm_keys 'mov' Enter; tm_wait_sel 'mov ' 5 || fail "/mov"
first=$(sel_addr); tm_keys n; tm_settle
[ "$(sel_addr)" != "$first" ] && tm_selected | grep -q 'mov' || fail "n did not find the next mov after $first"
ok "/ ? n search"

# j J o O k: arrows, jump counts, offsets, which addresses, line numbers
tm_keys j; tm_settle
tm_screen | grep -Eq ' \^ +[0-9a-f]+: +jne ' || fail "j: no up arrow on the jne: $(tm_screen | grep jne)"
tm_keys J; tm_settle
tm_screen | grep -Eq ' 1 > +[0-9a-f]+: ' || fail "J: no jump count at a target: $(tm_screen)"
tm_keys o; tm_settle
tm_screen | grep -Eq ': +\^ +\+0x[0-9a-f]+: +jne ' || fail "o: no offset on the jne: $(tm_screen | grep jne)"
tm_keys O; tm_settle
tm_screen | grep -Eq '[0-9] : +push ' || fail "O: the push still has its address: $(tm_screen | grep push)"
tm_keys O O o j J; tm_settle
tm_keys k; tm_settle
tm_screen | grep -Eq '^ +[0-9.]+ : +[0-9]+ +[0-9a-f]+: +push ' || fail "k: no line number on the push: $(tm_screen | grep push)"
tm_keys k; tm_settle
ok "j J o O k change the columns"

# P: the view to spin.annotation; h: the help
tm_keys P; tm_wait 'spin.annotation written' 5 || fail "P: $(tm_screen | tail -1)"
grep -q "^ *$p1 : *$a1: " spin.annotation || fail "spin.annotation has not the hot line: $(cat spin.annotation)"
tm_keys h; tm_wait 'cycle through the hottest' 3 || fail "h shows no help"
tm_keys x; tm_settle
ok "P writes spin.annotation, h helps"

# q: back to report
tm_keys q; tm_wait 'Samples: .* of event' 5 || fail "q did not go back to report: $(tm_screen | head -1)"
tm_keys q; tm_wait 'lupe-test\$ ?$' 10 || fail "report did not quit"

# Enter on a call: leaf_a calls spin; q comes back. The browser opens at
# leaf_a's hottest line, which may be after the call (a sample of its own
# at its leave): Home, then search forward
tm_keys clear Enter
tm_keys '$lupe_bin report -i g.data' Enter
tm_wait "Samples: .* of event" || fail "the report browser did not open on g.data"
tm_keys / ; tm_wait 'Filter by symbol' 3 || fail "no filter prompt"
tm_keys leaf_a Enter; tm_settle
tm_keys a; tm_wait '^Annotate leaf_a' 10 || fail "a on leaf_a: $(tm_screen)"
tm_keys Home; tm_settle
tm_keys / ; tm_wait 'Search:' 3; tm_keys 'call' Enter
tm_wait_sel 'call +[0-9a-f]+ <spin>' 5 || fail "no call of spin in leaf_a: '$(tm_selected)'"
tm_keys Enter; tm_wait '^Annotate spin' 10 || fail "Enter on the call did not open spin: $(tm_screen | head -1)"
tm_keys q; tm_wait '^Annotate leaf_a' 5 || fail "q did not come back to leaf_a: $(tm_screen | head -1)"
tm_wait_sel 'call' 3 || fail "back in leaf_a, the cursor left the call"
tm_keys Left; tm_wait 'Samples: .* of event' 5 || fail "Left did not go back to report"
tm_keys q; tm_wait 'lupe-test\$ ?$' 10 || fail "report did not quit"
ok "Enter on 'call spin' in leaf_a annotates spin, q and Left come back"

# lupe annotate: the browser on a terminal, on the hottest symbol; the text on a pipe
tm_keys clear Enter
tm_keys '$lupe_bin annotate -i perf.data; echo rc=$?' Enter
tm_wait '^Annotate spin' 10 || fail "lupe annotate on a terminal opened no browser: $(tm_screen)"
tm_keys q; tm_wait 'rc=0' 10 || fail "lupe annotate did not end with 0: $(tm_screen | tail -3)"
"$LUPE" annotate -i perf.data > piped.out || fail "annotate on a pipe failed"
"$LUPE" annotate --stdio -i perf.data > stdio.out
cmp -s piped.out stdio.out || fail "annotate on a pipe differs from --stdio: $(diff piped.out stdio.out | head)"
grep -q '^ Percent |' piped.out || fail "annotate on a pipe printed no annotation"
ok "lupe annotate browses on a terminal, prints --stdio's text on a pipe"

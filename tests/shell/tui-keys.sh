#!/usr/bin/env bash
# every key the help screens (h) of report's, top's and the annotate browser list is pressed by some tmux test (tm_keys in tests/shell), and no such test presses none
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/tmux.sh"
why=$(have_tui) || skip "$why"
need_sampling
"$LUPE" record -q -o perf.data -- "$WORKLOADS/demo" -n 40 >/dev/null 2>&1 || fail "lupe record failed"

grab_help() {
	tm_keys h; tm_wait 'press any key' 5 || fail "$1: h shows no help: $(tm_screen)"
	# the box: from the screen's third row, columns 6 to 73, up to "press any key"
	tm_screen | sed -n '3,$p' | awk '/press any key/ { exit } { print }' | cut -c6-73 |
		sed -e 's/[[:space:]]*$//' | grep -v '^$' > "$1.help"
	tm_keys x; tm_settle
}

tm_start
tm_keys "lupe_bin=$LUPE" Enter
tm_keys '$lupe_bin report -i perf.data' Enter
tm_wait "Samples: .* of event" || fail "the report browser did not open"
tm_settle
grab_help report
tm_keys a; tm_wait '^Annotate ' 10 || fail "a opened no annotation"
tm_settle
grab_help annotate
tm_keys q; tm_wait "Samples: .* of event" 5; tm_keys q
tm_wait 'lupe-test\$ ?$' 10 || fail "report did not quit"
helps="report annotate"
if timeout --preserve-status -s INT 1.5 "$LUPE" top --stdio -d 1 >probe.out 2>probe.err &&
	! grep -q 'paranoid\|permission' probe.err; then
	tm_keys '$lupe_bin top -d 1' Enter
	tm_wait 'lupe top: ' 15 || fail "top did not open"
	tm_settle
	grab_help top
	tm_keys q
	helps="$helps top"
	grep -q '^z ' top.help && grep -q '^f ' top.help || fail "top's help lacks z or f: $(cat top.help)"
	grep -q '^z \|^f ' report.help && fail "report's help lists top's z or f: $(cat report.help)"
else
	echo "top cannot sample here: its two keys of its own (z, f) are not checked"
fi
for h in $helps; do
	[ "$(wc -l < $h.help)" -ge 8 ] || fail "$h's help is short: $(cat $h.help)"
done

# the keys of a help line: what comes before its first two blanks, split at '/' and blanks
keys_of() { sed -E 's/^([^ ]([^ ]| [^ ])*)  .*/\1/' "$1" | tr '/ ' '\n\n' | grep -v '^$' | sort -u; }
# a key's tmux name as the tests send it
tmux_name() {
	case "$1" in
	UP) echo Up ;; DOWN) echo Down ;; PGUP) echo PPage ;; PGDN) echo NPage ;; HOME) echo Home ;;
	END) echo End ;; ENTER) echo Enter ;; TAB) echo Tab ;; UNTAB) echo BTab ;; LEFT) echo Left ;;
	RIGHT) echo Right ;; ESC) echo Escape ;; '^C' | CTRL+C) echo C-c ;; *) echo "$1" ;;
	esac
}
# the tm_keys lines of the tmux tests, one key per line ('x' and "x" unquoted)
# (and tui-exit's "check WHAT key:KEY")
cat "$LUPE_SRC"/tests/shell/*.sh | grep -o 'tm_keys [^;|&]*\|key:[^ ]*' | sed -e 's/^tm_keys //' -e 's/^key://' |
	tr ' ' '\n' | sed -e "s/^'\(.*\)'$/\1/" -e 's/^"\(.*\)"$/\1/' | sort -u > pressed
missing=""
for h in $helps; do
	for k in $(keys_of $h.help); do
		grep -qxF -- "$(tmux_name "$k")" pressed || missing="$missing $h:$k"
	done
done
[ -z "$missing" ] || fail "keys in a help that no test presses:$missing"
ok "every key of the $helps helps is pressed by a test ($(cat ./*.help | wc -l) help lines)"

#!/usr/bin/env bash
# the TUIs (report, top, annotate, report's annotate) leave no lupe process and a working terminal after q, Ctrl-C, SIGINT, SIGTERM, SIGHUP and a killed pane
. "$(dirname "$0")/lib/common.sh"
. "$LUPE_SRC/tests/shell/lib/tmux.sh"
why=$(have_tui) || skip "$why"
"$LUPE" record -q -o demo.data -- "$WORKLOADS/demo" -n 50 >/dev/null 2>&1 || skip "cannot record here"
tm_start
tm_keys "lupe_bin='$LUPE'; stty -g >tty.before" Enter
# alive PID: whether PID still runs (a zombie does not count, nor a status
# that is gone by the time it is read: a zombie reaped between two looks)
alive() {
	local s
	s=$(grep '^State:' /proc/$1/status 2>/dev/null) || return 1
	[[ $s != *Z* ]]
}

# where PID waits (for a failure's message)
where() {
	echo "state: $(grep -E '^State' /proc/$1/status) wchan: $(cat /proc/$1/wchan 2>/dev/null)" >&2
	command -v gdb >/dev/null && gdb -q -batch -p "$1" -ex 'thread apply all bt 8' 2>&1 | grep '^#' >&2
}

# run CMD in the pane, end it with HOW (a key or a signal), then check the pane
check() {
	local what=$1 how=$2 cmd=$3 pid i
	tm_keys clear Enter
	tm_keys "$cmd" Enter
	tm_wait 'Samples: |waiting for samples|^Annotate ' 8 || fail "$what: the TUI did not start: $(tm_screen)"
	pid=$(tm_child)
	# report's annotate: a, and the annotation up
	[ "${4:-}" = a ] && { tm_keys a; tm_wait '^Annotate ' 10 || fail "$what: a opened no annotation: $(tm_screen)"; }
	[ -n "$pid" ] || fail "$what: no process in the pane"
	case $how in
	key:*) tm_keys "${how#key:}" ;;
	*) kill -"$how" "$pid" ;;
	esac
	for ((i = 0; i < 50; i++)); do alive "$pid" || break; sleep 0.1; done
	alive "$pid" && { where "$pid"; fail "$what: lupe ($pid) still runs after $how"; }
	# the terminal is back: a command prints normally and the modes are the same
	tm_keys 'stty -g >tty.after; cmp -s tty.before tty.after && echo "tty-ok-$((6*7))"' Enter
	tm_wait '^tty-ok-42' 5 || fail "$what: the terminal is not restored after $how: $(tm_screen | tail -5)"
	ok "$what: ended by $how, terminal restored"
}

check report key:q '$lupe_bin report -i demo.data'
check report key:C-c '$lupe_bin report -i demo.data'
check report INT '$lupe_bin report -i demo.data'
check report TERM '$lupe_bin report -i demo.data'
check report HUP '$lupe_bin report -i demo.data'
check annotate key:q '$lupe_bin annotate -i demo.data'
check annotate key:C-c '$lupe_bin annotate -i demo.data'
check annotate TERM '$lupe_bin annotate -i demo.data'
check annotate HUP '$lupe_bin annotate -i demo.data'
check "report's annotate" key:C-c '$lupe_bin report -i demo.data' a
check "report's annotate" TERM '$lupe_bin report -i demo.data' a
# kill_pane WHAT CMD [KEYS]: start CMD in a fresh window, send KEYS (a help
# screen, a prompt, half an escape sequence), kill the window's pane; CMD must end
kill_pane() {
	local pid i
	tm kill-server 2>/dev/null
	tm_start
	tm_keys "$2" Enter
	tm_wait 'Samples: |waiting for samples|^Annotate ' 8 || fail "$1 did not start in the new pane"
	pid=$(tm_child)
	[ -n "${3:-}" ] && tm_keys $3 && sleep 0.3
	tm kill-pane -t 0
	for ((i = 0; i < 50; i++)); do alive "$pid" || break; sleep 0.1; done
	alive "$pid" && { where "$pid"; kill -KILL "$pid"; fail "$1 ($pid) still runs after its pane was killed${3:+ (keys: $3)}"; }
	ok "$1 ends when its pane is killed${3:+ (keys: $3)}"
}

if "$LUPE" top --stdio -d 0.2 -p $$ >/dev/null 2>&1 & sleep 0.5; kill -INT $! 2>/dev/null; wait $!; then
	check top key:q '$lupe_bin top -d 0.5'
	check top INT '$lupe_bin top -d 0.5'
	check top TERM '$lupe_bin top -d 0.5'
	kill_pane top "'$LUPE' top -d 0.5"
else
	fail "lupe top --stdio -p \$\$ does not run here, so its exit paths cannot be checked"
fi
kill_pane annotate "'$LUPE' annotate -i '$TMPD/demo.data'"
kill_pane report "'$LUPE' report -i '$TMPD/demo.data'"
kill_pane report "'$LUPE' report -i '$TMPD/demo.data'" h
kill_pane report "'$LUPE' report -i '$TMPD/demo.data'" /
kill_pane report "'$LUPE' report -i '$TMPD/demo.data'" "-H 1b 5b"

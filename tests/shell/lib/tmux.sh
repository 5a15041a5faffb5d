# Helpers for tests that drive a TUI in tmux. Source after common.sh:
#   . "$(dirname "$0")/lib/tmux.sh"
# Each test gets its own tmux server (socket lupe-test-PID), killed on exit,
# and one 120x40 window running a plain bash with the prompt "lupe-test$ ".
# have_tui: tmux is here and lupe was built with the TUI (slang)
have_tui() {
	command -v tmux >/dev/null || { echo "no tmux (scripts/bootstrap installs it)"; return 1; }
	! "$LUPE" top </dev/null 2>&1 | grep -q 'TUI is not built' || { echo "lupe is built without the TUI (slang)"; return 1; }
}
TMUX_SOCK=lupe-test-$$
tm() { tmux -L "$TMUX_SOCK" "$@"; }
trap 'tm kill-server 2>/dev/null; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$TMUX_SOCK"; rm -rf "$TMPD"' EXIT
unset TMUX

# tm_start: the window, a shell in $TMPD.
tm_start() {
	local i
	# a server that was just killed may still be going away: try again
	for ((i = 0; i < 20; i++)); do
		tm new-session -d -x 120 -y 40 -c "$TMPD" "env -i PATH=\"$PATH\" TERM=screen PS1='lupe-test\$ ' bash --norc --noprofile" 2>/dev/null && break
		sleep 0.2
	done
	[ "$i" -lt 20 ] || fail "tmux cannot start a session"
	tm_wait 'lupe-test\$' 5 || fail "no shell prompt in tmux"
}
# tm_keys KEYS...: send keys (tmux key names) to the window.
tm_keys() { tm send-keys -t 0 "$@"; }
# tm_screen: the window's text now.
tm_screen() { tm capture-pane -p -t 0; }
# tm_wait REGEX [SECS]: until the screen matches (1 when it never did).
tm_wait() {
	local i n=$(( ${2:-10} * 10 ))
	for ((i = 0; i < n; i++)); do
		tm_screen | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
# tm_settle: until the screen stops changing (a redraw is done).
tm_settle() {
	local a b i
	a=$(tm_screen)
	for ((i = 0; i < 20; i++)); do
		sleep 0.15
		b=$(tm_screen)
		[ "$a" = "$b" ] && return 0
		a=$b
	done
}
# tm_child: the pid of what the window's shell runs now (empty: nothing).
tm_child() { pgrep -P "$(tm display -p -t 0 '#{pane_pid}')" | head -1; }
# tm_selected: the selected line of a browser (black on cyan), colours cut.
tm_selected() { tm capture-pane -p -e -t 0 | grep -m1 $'\e\\[[0-9;]*46m' | sed -e $'s/\e\\[[0-9;]*m//g' -e 's/[[:space:]]*$//'; }
# tm_wait_sel REGEX [SECS]: until the selected line matches (1 when it never did).
tm_wait_sel() {
	local i n=$(( ${2:-10} * 10 ))
	for ((i = 0; i < n; i++)); do
		tm_selected | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	return 1
}

#!/usr/bin/env bash
# lupe probe -f adds a taken event name as NAME_1 as perf probe -f does, prints perf's "Added new event" text to the byte (as perf when called as perf), and passes the probe step of perf's record+probe_libc_inet_pton.sh
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracefs
[ -e /sys/kernel/tracing/uprobe_events ] || skip "this kernel has no uprobes (no uprobe_events in tracefs)"
need_perf

W=fdemo$$
cp "$WORKLOADS/demo" "$TMPD/$W"
G=probe_$W
# lupe through a link named perf, as perf's own tests call it
mkdir shim
ln -s "$LUPE" shim/perf
created=
trap '"$LUPE" probe -q -d "$G:*" 2>/dev/null; [ -n "$created" ] && "$LUPE" probe -q -d "$created" 2>/dev/null; rm -rf "$TMPD"' EXIT

# run TOOL: add compute_a, add it again with -f, add it again without: what each printed and the definitions
run() {
	"$1" probe -x "$TMPD/$W" compute_a 2> "$2.1" || fail "$1 probe compute_a: $(cat "$2.1")"
	"$1" probe -f -x "$TMPD/$W" -a compute_a 2> "$2.2" || fail "$1 probe -f compute_a: $(cat "$2.2")"
	"$1" probe -x "$TMPD/$W" -a compute_a 2> "$2.3" && fail "$1 added compute_a a third time without -f"
	grep "$G/" /sys/kernel/tracing/uprobe_events > "$2.defs"
	"$1" probe -x "$TMPD/$W" -d compute_a 2> "$2.del" || fail "$1 probe -x -d compute_a: $(cat "$2.del")"
	"$1" probe -d "$G:*" 2>> "$2.del" || fail "$1 probe -d $G:*: $(cat "$2.del")"
	grep -q "$G" /sys/kernel/tracing/uprobe_events && fail "$1 left $G events behind"
	return 0
}
run "$PERF" perf
run shim/perf lupe
for i in 1 2; do
	diff -u perf.$i lupe.$i || fail "the text of add $i differs from perf's"
done
grep -q "^  $G:compute_a_1 " lupe.2 || fail "-f did not name the second event compute_a_1: $(cat lupe.2)"
diff -u perf.defs lupe.defs || fail "the definitions differ from perf's"
diff -u perf.del lupe.del || fail "-d said other things than perf: $(cat lupe.del)"
ok "-f adds compute_a_1, the text and the definitions are perf's, -x BIN -d removes"

# the probe step of perf's record+probe_libc_inet_pton.sh, with lupe as perf
libc=$(grep -w libc /proc/self/maps | head -1 | sed -r 's/.*[[:space:]](\/.*)/\1/g')
if [ -n "$libc" ] && nm -Dg "$libc" 2>/dev/null | grep -q inet_pton; then
	created=$(PATH="$PWD/shim:$PATH" perf probe -f -x "$libc" -a inet_pton 2>&1 | tail -n +2 | head -n -5 |
		grep -P -o "probe_libc:inet_pton(\_[[:digit:]]+)?(?=[[:space:]]\(on inet_pton in $libc\))")
	[ -n "$created" ] || fail "perf's test would say: could not add event"
	"$LUPE" probe -q -d "$created" || fail "cannot delete $created"
	created=
	ok "record+probe_libc_inet_pton.sh's probe step finds its event"
fi

#!/usr/bin/env bash
# lupe probe refuses a definition under a taken event name as perf does ("leaf_a+3" when leaf_a exists: the kernel would silently add a second probe to the event), -f still adds it as leaf_a_1, and -d 'GROUP:*' of an event with several probes removes it and exits 0
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracefs
[ -e /sys/kernel/tracing/uprobe_events ] || skip "this kernel has no uprobes (no uprobe_events in tracefs)"
W=pex$$
cp "$WORKLOADS/demo" "$TMPD/$W"
G=probe_$W
trap '"$LUPE" probe -q -d "$G:*" 2>/dev/null; grep -q "$G/" /sys/kernel/tracing/uprobe_events && echo "-:$G/leaf_a" >> /sys/kernel/tracing/uprobe_events; rm -rf "$TMPD"' EXIT

# an event with two probes (as the kernel makes from two definitions of one name)
"$LUPE" probe -q -x "$TMPD/$W" leaf_a 2> add.err || fail "probe leaf_a: $(cat add.err)"
line=$(grep "^p:$G/leaf_a " /sys/kernel/tracing/uprobe_events)
off=$(echo "$line" | sed -n 's/.*:0x\([0-9a-f]*\)$/\1/p')
[ -n "$off" ] || skip "cannot read the probe's offset: $line"
echo "p:$G/leaf_a $TMPD/$W:0x$(printf '%x' $((0x$off + 4)))" >> /sys/kernel/tracing/uprobe_events 2>/dev/null ||
	skip "this kernel does not take two probes under one event"
[ "$(grep -c "^p:$G/leaf_a " /sys/kernel/tracing/uprobe_events)" = 2 ] || skip "the kernel kept one probe of leaf_a"
"$LUPE" probe -d "$G:*" 2> del.err || fail "probe -d '$G:*' exited $?: $(cat del.err)"
grep -q "$G/" /sys/kernel/tracing/uprobe_events && fail "probe -d left: $(grep "$G/" /sys/kernel/tracing/uprobe_events)"
grep -q "Removed event: $G:leaf_a$" del.err || fail "leaf_a not said removed: $(cat del.err)"
ok "probe -d removes an event of two probes and exits 0"

"$LUPE" probe -q -x "$TMPD/$W" leaf_a 2> add.err || fail "probe leaf_a: $(cat add.err)"
"$LUPE" probe -q -x "$TMPD/$W" leaf_a+4 2> dup.err && fail "leaf_a+4 was added to the existing event leaf_a"
grep -q "the event '$G:leaf_a' exists already" dup.err || fail "no word that leaf_a exists: $(cat dup.err)"
n=$(grep -c "^p:$G/leaf_a " /sys/kernel/tracing/uprobe_events)
[ "$n" = 1 ] || fail "leaf_a holds $n probes, not 1: $(grep "$G/" /sys/kernel/tracing/uprobe_events)"
"$LUPE" probe -q -f -x "$TMPD/$W" leaf_a+4 2> f.err || fail "probe -f leaf_a+4: $(cat f.err)"
grep -q "^p:$G/leaf_a_1 " /sys/kernel/tracing/uprobe_events || fail "-f did not add leaf_a_1"
ok "a taken name is refused; -f adds leaf_a_1"


#!/usr/bin/env bash
# lupe probe on the kernel (kprobes): add, list, count and delete where the kernel has kprobes; where it has none, the refusal says so
. "$(dirname "$0")/lib/common.sh"
need_root
need_tracefs

if [ ! -e /sys/kernel/tracing/kprobe_events ]; then
	"$LUPE" probe do_sys_openat2 2> e.err && fail "a kernel probe was added on a kernel without kprobes"
	grep -q "this kernel has no kprobes" e.err || fail "the refusal does not say why: $(cat e.err)"
	skip "this kernel has no kprobes (no kprobe_events in tracefs); checked the refusal only"
fi
trap '"$LUPE" probe -q -d "probe:lupe_test_*" 2>/dev/null; rm -rf "$TMPD"' EXIT
"$LUPE" probe 'lupe_test_open=do_sys_openat2' 2> add.err || fail "probe do_sys_openat2: $(cat add.err)"
"$LUPE" probe -l 'probe:lupe_test_open' | grep -q "probe:lupe_test_open *(on do_sys_openat2" || fail "probe -l"
"$LUPE" stat -x, -e probe:lupe_test_open -- cat /etc/hostname 2> stat.csv > /dev/null || fail "stat of the kprobe"
[ "$(cut -d, -f1 stat.csv | head -1)" -ge 1 ] || fail "the kprobe counted no open of cat: $(cat stat.csv)"
"$LUPE" probe -d 'probe:lupe_test_open' 2>/dev/null || fail "probe -d"
ok "kprobe added, counted and deleted"

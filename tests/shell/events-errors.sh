#!/usr/bin/env bash
# bad event specs: the quoted spec and the caret column are perf's, exit 129; good specs give perf stat -vv's attrs
. "$(dirname "$0")/lib/common.sh"
need_perf
need_tracefs
export COLUMNS=80

# syntax_lines TEXT: the "event syntax error" line and the caret's column
syntax_lines() {
	awk '/^event syntax error: /{print; getline; print index($0, "\\"); exit}'
}

# Specs where perf 6.1 has a caret that points at the problem (where it
# points elsewhere, lupe's choice is in Documentation/event-specs.md).
while IFS= read -r spec; do
	[ -n "$spec" ] || continue
	"$LUPE" list --check-spec "$spec" > out.txt 2> err.txt
	rc=$?
	[ $rc = 129 ] || fail "'$spec': exit $rc, want 129"
	grep -q "^Run 'lupe list' for a list of valid events$" err.txt || fail "'$spec': no hint to lupe list"
	want=$("$PERF" stat -e "$spec" true 2>&1 | syntax_lines)
	got=$(syntax_lines < err.txt)
	[ -n "$want" ] || fail "perf took '$spec'"
	[ "$got" = "$want" ] || fail "'$spec': lupe printed
$(cat err.txt)
perf has the caret line and column
$want"
done <<'SPECS'
cycles:zz
cycles:ukz
cycles:uu
cpu-clock:uu
cycles:pppp
task-clock:ppppp
faults::u
foo
task-clock,page-faults,foo
task-clock,foo
{cycles,foo}
r1g
r0x10
r
nosuch/event=1/
msr/tsc
msr/foo=1/
msr/tsc,bad=3/
msr/tsc=3/
msr/name=a,b/
msr/tsc/zz
task-clock,,faults
{}
{faults,{cs}}
faults faults
task-clock foo
{cycles,instructions}:zz
cycles,faults,cs,migrations:zz
sched:nosuch
nosys:foo
sched:
:sched
sched:sched_switch:zz
sched:sched_switch/foo/
syscalls:nosuch_*
mem:xyz
L1-dcache-foo
SPECS
ok "carets at perf's columns"

# done-when 5 (parser half): the two specs of the issue
"$LUPE" list --check-spec '{task-clock' 2> err.txt && fail "'{task-clock' parsed"
grep -q "^                     \\\\___ group is not closed" err.txt || fail "'{task-clock': $(cat err.txt)"
expect_rc 129 "$LUPE" list --check-spec 'cycles:zz' 2>/dev/null

# Good specs: the attr fields the parser owns match perf stat -vv's first attempt.
attrs_perf() {
	"$PERF" stat -vv -e "$1" true 2>&1 | python3 -c '
import re, sys
keep = ("type", "config", "config1", "config2", "bp_type", "{ bp_addr, config1 }", "{ bp_len, config2 }",
        "exclude_user", "exclude_kernel", "exclude_hv", "exclude_host", "exclude_guest", "exclude_idle",
        "precise_ip", "pinned", "exclusive")
alias = {"{ bp_addr, config1 }": "config1", "{ bp_len, config2 }": "config2"}
evs, cur, opened = [], None, True
for l in sys.stdin:
    if l.startswith("perf_event_attr:"):
        cur = {} if opened else None
        if opened: evs.append(cur)
        opened = False
    elif l.startswith("sys_perf_event_open"):
        opened = True
    elif cur is not None and not opened:
        m = re.match(r"  (\{[^}]*\}|\S+)\s+(\S+)$", l)
        if m and m.group(1) in keep:
            cur[alias.get(m.group(1), m.group(1))] = int(m.group(2), 0)
for e in evs:
    print(" ".join("%s=%d" % kv for kv in sorted(e.items()) if kv[1]))'
}
attrs_lupe() {
	"$LUPE" list --check-spec "$1" | python3 -c '
import sys
for l in sys.stdin:
    f = l.split(": ", 1)[1].split()
    e, i = {}, 0
    while i < len(f):
        if i + 1 < len(f) and f[i] in ("type", "config", "config1", "config2", "bp_type", "precise_ip"):
            e[f[i]] = int(f[i + 1], 0); i += 2
        elif f[i].startswith("exclude_") or f[i] in ("pinned", "exclusive"):
            e[f[i]] = 1; i += 1
        else:
            i += 1
    print(" ".join("%s=%d" % kv for kv in sorted(e.items()) if kv[1]))'
}
# perf retries a refused open with other bits and prints each attempt: only
# specs of software events, which open at once, are compared in full.
n=0
for spec in 'faults:u' 'cs:k' 'task-clock:I' 'msr/tsc/' 'msr/event=5,config1=3/u' 'tsc:k' \
	'sched:sched_switch' 'sched:sched_switch:upp' 'mem:0x1000/8:x' 'mem:0x2000:w:k' 'uprobe/retprobe/' \
	'software/config=3/' 'cpu-clock:D' 'duration_time' 'cs/period=10/k' 'cs/config=2/' 'all:{faults:k,cs}:Gu' 'all:{faults,cs}:e' \
	'all:cs,{faults:u,migrations}:H,dummy:k'; do
	if [ "${spec#all:}" != "$spec" ]; then
		spec=${spec#all:}
		want=$(attrs_perf "$spec")
		got=$(attrs_lupe "$spec")
	else
		want=$(attrs_perf "$spec" | sed -n 1p)
		got=$(attrs_lupe "$spec" | sed -n 1p)
	fi
	[ -n "$want" ] || fail "perf printed no attr for '$spec'"
	[ "$got" = "$want" ] || fail "'$spec': lupe '$got', perf '$want'"
	n=$((n + 1))
done
ok "$n specs: attrs as perf stat -vv"

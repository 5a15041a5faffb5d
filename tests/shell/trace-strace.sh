#!/usr/bin/env bash
# lupe trace -- cat /etc/hostname prints what strace -f prints: names, decoded arguments, return values
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_root
need_bpf_trace
command -v strace >/dev/null || skip "no strace to compare with (scripts/bootstrap installs it)"

"$LUPE" trace -o lupe.txt -- cat /etc/hostname > /dev/null 2> err.txt || fail "lupe trace failed: $(cat err.txt)"
strace -f -o strace.txt cat /etc/hostname > /dev/null || fail "strace failed"

host=$(cat /etc/hostname)
n=$(( ${#host} + 1 ))
esc_host=$(printf '%s' "$host" | sed 's/[][\.*^$/]/\\&/g')
fd=$(sed -n 's/^openat(AT_FDCWD, "\/etc\/hostname", O_RDONLY) *= \([0-9]*\)$/\1/p' lupe.txt)
[ -n "$fd" ] || fail "no openat of /etc/hostname: $(grep hostname lupe.txt)"
grep -q "^read($fd, \"$esc_host\\\\n\", [0-9]*) *= $n\$" lupe.txt || fail "no read of the hostname's bytes: $(grep '^read(' lupe.txt)"
grep -q "^write(1, \"$esc_host\\\\n\", $n) *= $n\$" lupe.txt || fail "no write of the hostname's bytes to fd 1: $(grep '^write' lupe.txt)"
grep -q "^close($fd) *= 0\$" lupe.txt || fail "no close($fd)"

# the same sequence as strace's: strace's pid column, addresses, the tid
# set_tid_address returns and getrandom's random bytes aside
norm() {
	sed -E 's/^[0-9]+ +//; s/0x[0-9a-f]{8,}/ADDR/g; s/ +=/ =/;
		s/^(set_tid_address\(ADDR\)) = [0-9]+/\1 = TID/;
		s/^getrandom\("[^"]*"/getrandom("RANDOM"/' "$1"
}
norm strace.txt > s.norm
norm lupe.txt > l.norm
[ "$(wc -l < l.norm)" -gt 20 ] || fail "lupe traced too few calls: $(cat lupe.txt)"
diff -u s.norm l.norm > diff.txt || fail "lupe trace differs from strace -f: $(head -40 diff.txt)"
ok "$(wc -l < l.norm) lines equal to strace -f's"

# sockets: families, types, protocols and sockaddrs as strace decodes them
W=$WORKLOADS/syscalls
"$LUPE" trace -e socket,connect -o lupe2.txt -- "$W" -n 0 -c || fail "lupe trace of sockets failed"
strace -f -e trace=socket,connect -o strace2.txt "$W" -n 0 -c || [ -s strace2.txt ] || fail "strace of sockets failed"
norm strace2.txt | grep -v '^+++' > s2.norm
norm lupe2.txt | grep -v '^+++' > l2.norm
[ "$(wc -l < l2.norm)" = 4 ] || fail "want 2 socket and 2 connect lines: $(cat lupe2.txt)"
diff -u s2.norm l2.norm > diff2.txt || fail "sockets differ from strace -f: $(cat diff2.txt)"
ok "socket and connect lines equal to strace -f's"

#!/usr/bin/env bash
# lupe trace --failure, --duration, -T, --max-strlen and unfinished/resumed lines of blocking threads
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/trace.sh"
need_root
need_bpf_trace
W=$WORKLOADS/syscalls

"$LUPE" trace --failure -o f.txt -- "$W" -n 200 || fail "--failure failed"
[ "$(grep -c '= -1 ENOENT (No such file or directory)$' f.txt)" -ge 10 ] || fail "--failure: no ENOENT lines: $(head -3 f.txt)"
[ "$(grep -c '= -1 EBADF (Bad file descriptor)$' f.txt)" = 10 ] || fail "--failure: want 10 EBADF: $(grep -c EBADF f.txt)"
grep -v '^+++' f.txt | grep -qv ' = -1 ' && fail "--failure shows calls that worked: $(grep -v ' = -1 ' f.txt | head -3)"

"$LUPE" trace -T -e getppid -o t.txt -- "$W" -n 5 || fail "-T failed"
[ "$(grep -Ec '^getppid\(\) += [0-9]+ <0\.[0-9]{6}>$' t.txt)" = 5 ] || fail "-T: $(cat t.txt)"

"$LUPE" trace --duration 20 -o d.txt -- "$W" -n 10 -b || fail "--duration failed"
grep -q 'clock_nanosleep' d.txt || fail "--duration 20 lost the 50 ms sleep: $(cat d.txt)"
grep -q 'getppid' d.txt && fail "--duration 20 shows getppid"

"$LUPE" trace --max-strlen 4 -e write -o s.txt -- "$W" -n 10 || fail "--max-strlen failed"
grep -q '^write([0-9]*, "lupe"\.\.\., 8) *= 8$' s.txt || fail "--max-strlen 4: $(head -2 s.txt)"

"$LUPE" trace -o b.txt -- "$W" -n 0 -b || fail "lupe trace of a blocking thread failed"
grep -q '^\[pid *[0-9]*\] read([0-9]*,  <unfinished ...>$' b.txt || fail "no unfinished read: $(grep read b.txt)"
grep -q '^\[pid *[0-9]*\] <... read resumed>"x", 1) *= 1$' b.txt || fail "no resumed read: $(grep read b.txt)"
# -y: the paths behind fds, from the open that made them or /proc for inherited ones
# (into a pipe: into a file, cat copies with copy_file_range instead of read)
"$LUPE" trace -y -e openat,read,write,close -o y.txt -- cat /etc/hostname | cat > out.txt || fail "-y failed"
grep -q '^openat(AT_FDCWD, "/etc/hostname", O_RDONLY) *= [0-9]*</etc/hostname>$' y.txt || fail "-y: openat's result: $(grep hostname y.txt)"
grep -q '^read([0-9]*</etc/hostname>, ' y.txt || fail "-y: no read of fd</etc/hostname>: $(grep '^read' y.txt)"
grep -q "^write(1<pipe:\[[0-9]*\]>, " y.txt || fail "-y: no write to 1<pipe:[N]>: $(grep '^write' y.txt)"
ok "--failure, --duration, -T, --max-strlen, unfinished/resumed"

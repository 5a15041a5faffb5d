#!/usr/bin/env bash
# record --control=fifo:CTL,ACK answers ping with ack and stops on stop (a whole file perf reads); a CTL or ACK that is no FIFO (a regular file, a symlink to one) is refused and left as it was
. "$(dirname "$0")/lib/common.sh"
need_root
need_perf

mkfifo ctl ack || fail "cannot mkfifo"
exec 3<>ctl 4<>ack
"$LUPE" record -e cpu-clock -o c.data --control=fifo:ctl,ack -- sleep 30 >/dev/null 2>c.err & rec=$!
trap 'kill $rec 2>/dev/null' EXIT
echo ping >&3
read -r -t 10 word <&4 || fail "no answer to ping on ack: $(cat c.err)"
[ "$word" = ack ] || fail "ping answered '$word', not ack"
echo stop >&3
read -r -t 10 word <&4 || fail "no answer to stop on ack: $(cat c.err)"
for _ in $(seq 100); do kill -0 $rec 2>/dev/null || break; sleep 0.1; done
kill -0 $rec 2>/dev/null && fail "record still runs 10 s after stop"
wait $rec # the status is the workload's, which stop ended with SIGTERM
grep -q 'Captured and wrote' c.err || fail "record stopped by --control did not finish its file: $(cat c.err)"
"$PERF" report -i c.data --stats >/dev/null 2>&1 || fail "perf cannot read the file record wrote on stop"
ok "ping and stop acknowledged, the file is whole"

# the ack goes only into a FIFO: a regular file, or a symlink to one, is refused untouched
printf 'precious data\n' > victim
ln -s victim link
for a in victim link; do
	echo ping >&3 # waits in ctl: the ack would be written at once
	"$LUPE" record -e cpu-clock -o v.data --control=fifo:ctl,$a -- sleep 0.5 >/dev/null 2>v.err &&
		fail "record took --control ack '$a', not a FIFO"
	grep -q "cannot open --control 'fifo:ctl,$a': not a FIFO" v.err || fail "no clear error for ack '$a': $(cat v.err)"
	[ "$(cat victim)" = 'precious data' ] || fail "ack '$a' was written into: $(cat victim)"
	read -r -t 2 _ <&3 # drain the ping
done
"$LUPE" record -e cpu-clock -o v.data --control=fifo:victim,ack -- true >/dev/null 2>v.err &&
	fail "record took --control ctl 'victim', not a FIFO"
grep -q 'not a FIFO' v.err || fail "no clear error for ctl 'victim': $(cat v.err)"
ok "a regular file or a symlink to one as ack or ctl is refused, left as it was"

#!/usr/bin/env bash
# --intr-regs=? / --user-regs=? list the registers as perf 6.1 does, and a bad register or clock is refused as perf refuses it (exit 129)
. "$(dirname "$0")/lib/common.sh"
need_perf

for opt in '--intr-regs=?' '--user-regs=?' '-I?'; do
	"$PERF" record "$opt" >perf.out 2>&1; prc=$?
	"$LUPE" record "$opt" >lupe.out 2>&1; lrc=$?
	[ "$prc" = "$lrc" ] || fail "$opt: lupe exited $lrc, perf $prc"
	head -1 perf.out >perf.first
	head -1 lupe.out >lupe.first
	grep -q '^available registers: AX ' perf.first || fail "$opt: perf printed '$(cat perf.first)'"
	diff perf.first lupe.first || fail "$opt: register lists differ"
	# perf's record.sh test matches exactly this
	grep -Eq 'available registers: AX BX CX DX SI DI BP SP IP FLAGS CS SS R8 R9 R10 R11 R12 R13 R14 R15' lupe.out ||
		fail "$opt: perf's record.sh would not find the list"
done
ok "register lists as perf's, exit $lrc"

# refusals: the same exit status, and perf's sentence (with lupe for perf)
while read -r opt; do
	"$PERF" record $opt true >perf.out 2>&1 </dev/null; prc=$?
	"$LUPE" record $opt true >lupe.out 2>&1 </dev/null; lrc=$?
	[ "$prc" = 129 ] || fail "'$opt': perf exited $prc here, not a refusal"
	[ "$lrc" = "$prc" ] || fail "'$opt': lupe exited $lrc, perf $prc"
	sed -n 2p perf.out | sed 's/perf record/lupe record/' >perf.msg
	sed -n 2p lupe.out >lupe.msg
	diff perf.msg lupe.msg || fail "'$opt': messages differ"
done <<'OPTS'
--user-regs=ax,foo
--intr-regs=xmm0
--user-regs=
--clockid=sundial
OPTS
ok "bad registers and clocks refused as perf refuses them"

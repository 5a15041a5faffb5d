#!/usr/bin/env bash
# lupe script warns of lost chunks and lost samples with perf script's numbers, and of the chunks only when --show-lost-events does not print them (perf 6.1's rule)
. "$(dirname "$0")/lib/common.sh"
need_perf
"$PERF" record -q -m 1 -F 40000 -g -o lost.data -- "$WORKLOADS/demo" -t 2 -n 300 > /dev/null 2>&1 ||
	skip "perf record failed"
"$PERF" script -i lost.data 2> perf.err > /dev/null
# perf: "Processed 48634 events and lost 92 chunks!"
want=$(sed -n 's/^Processed \([0-9]*\) events and lost \([0-9]*\) chunks!$/\1 \2/p' perf.err)
[ -n "$want" ] || skip "nothing was lost with a 1-page buffer at 40 kHz on this machine: $(cat perf.err)"
"$LUPE" script -i lost.data 2> lupe.err > /dev/null || fail "lupe script exited $?: $(cat lupe.err)"
got=$(sed -n 's/^lupe: warning: processed \([0-9]*\) events and lost \([0-9]*\) chunks: .*/\1 \2/p' lupe.err)
[ "$got" = "$want" ] || fail "events and lost chunks: perf '$want', lupe '$got': $(cat lupe.err)"
ok "lost chunks: $got (events, chunks), as perf"

# perf: "Processed 55058 samples and lost 16.38%!" (said above 5% only; lupe at any loss)
want=$(sed -n 's/^Processed \([0-9]*\) samples and lost \([0-9.]*\)%!$/\1 \2/p' perf.err)
got=$(sed -n 's/^lupe: warning: processed \([0-9]*\) samples and lost \([0-9.]*\)% of them$/\1 \2/p' lupe.err)
if [ -n "$want" ]; then
	[ "$got" = "$want" ] || fail "lost samples: perf '$want', lupe '$got'"
	ok "lost samples: $got (samples, percent), as perf"
fi

# the LOST records printed: perf says nothing more of them, and neither does lupe
"$PERF" script --show-lost-events -i lost.data 2> perf.err > /dev/null
grep -q "chunks" perf.err && fail "perf 6.1 warned of chunks with --show-lost-events: the rule changed"
"$LUPE" script --show-lost-events -i lost.data 2> lupe.err > lupe.out || fail "lupe script --show-lost-events exited $?"
grep -q "chunks" lupe.err && fail "lupe warns of the chunks it prints: $(cat lupe.err)"
grep -q "PERF_RECORD_LOST" lupe.out || fail "no LOST record printed"
ok "--show-lost-events: the records, no warning"

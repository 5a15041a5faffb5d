#!/usr/bin/env bash
# lupe annotate --stdio -s FUNC shows the same hot instructions and percentages (to 0.1) as perf annotate on the same file, with source lines and named jump targets, and runs no objdump
. "$(dirname "$0")/lib/common.sh"
need_perf
"$LUPE" annotate -h | grep -q -- --no-source || fail "annotate -h"

"$LUPE" record -q -o perf.data -- "$WORKLOADS/demo" -n 40 > /dev/null 2>&1 || skip "cannot record here (see record tests)"

# a PATH whose objdump leaves a mark and fails: lupe must not run it
mkdir fakebin
printf '#!/bin/sh\ntouch "%s/objdump-ran"\necho "objdump must not run" >&2\nexit 1\n' "$TMPD" > fakebin/objdump
chmod +x fakebin/objdump

# hot: pairs "ADDRESS PERCENT" of the instructions with samples
hot() { awk -F: '$1 ~ /^ *[0-9]+\.[0-9]+ *$/ && $1 + 0 > 0 { gsub(/ /, "", $2); printf "%s %s\n", $2, $1 + 0 }' "$1" | sort; }
for sym in spin compute_c; do
	"$PERF" annotate --stdio -s "$sym" -i perf.data > perf.$sym 2>/dev/null
	grep -q "^ Percent |" perf.$sym || fail "perf annotate -s $sym printed no annotation"
	PATH="$TMPD/fakebin:$PATH" "$LUPE" annotate --stdio -s "$sym" -i perf.data > lupe.$sym 2> lupe.err ||
		fail "lupe annotate -s $sym: $(cat lupe.err)"
	[ -e objdump-ran ] && fail "lupe annotate ran objdump"
	[ "$(head -1 perf.$sym)" = "$(head -1 lupe.$sym)" ] ||
		fail "the titles differ: perf '$(head -1 perf.$sym)', lupe '$(head -1 lupe.$sym)'"
	hot perf.$sym > perf.hot
	hot lupe.$sym > lupe.hot
	[ -s perf.hot ] || fail "perf shows no sampled instruction in $sym"
	join perf.hot lupe.hot > both.hot
	[ "$(wc -l < both.hot)" = "$(wc -l < perf.hot)" ] && [ "$(wc -l < both.hot)" = "$(wc -l < lupe.hot)" ] ||
		{ diff perf.hot lupe.hot; fail "$sym: lupe and perf show samples at other instructions"; }
	awk '{ d = $2 - $3; if (d < -0.1 || d > 0.1) { print; bad = 1 } } END { exit bad }' both.hot ||
		fail "$sym: percentages differ by more than 0.1"
	ok "$sym: $(wc -l < both.hot) sampled instructions, same percentages as perf"
done

# source lines from DWARF, jump targets named as perf names them
grep -q '^ *: [0-9]* *acc += i ^ (acc >> 3);$' lupe.spin || fail "no source line in: $(cat lupe.spin)"
grep -Eq ':   j[a-z]+ +[0-9a-f]+ <spin\+0x[0-9a-f]+>$' lupe.spin || fail "no named jump target in: $(cat lupe.spin)"
"$LUPE" annotate --stdio --no-source -s spin -i perf.data > nosrc.out || fail "--no-source"
grep -q 'acc +=' nosrc.out && fail "--no-source printed source"
hot lupe.spin > spin.hot; hot nosrc.out | diff - spin.hot > /dev/null || fail "--no-source changed the percentages"
grep -q $'\e' lupe.spin && fail "colours in a file"
if command -v script > /dev/null; then
	# on a terminal the hottest instruction (>= 5%) is red, as perf shows it
	LUPE_PAGER=cat script -qc "'$LUPE' annotate --stdio -s spin -i perf.data" /dev/null < /dev/null > tty.out
	grep -q $'\e\[31m *[0-9.]*\e\[m :' tty.out || fail "no red percentage on a terminal: $(head -20 tty.out | cat -v)"
fi
ok "source lines, --no-source, jump targets, hot lines in red"

# errors
"$LUPE" annotate --stdio -s no_such_symbol -i perf.data 2> e.err && fail "a symbol without samples was annotated"
grep -q "no samples in 'perf.data' for symbol 'no_such_symbol'" e.err || fail "$(cat e.err)"
expect_rc 1 "$LUPE" annotate -i nosuch.data 2>/dev/null
ok "errors"

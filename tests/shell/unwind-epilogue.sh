#!/usr/bin/env bash
# --call-graph dwarf of samples in an epilogue after a pop (the epilogue workload: popped_spin spins after popping rbp, its CFI still saying rbp is saved below sp; its caller keeps the CFA in rbp): every chain runs popped_spin, caller, main, raw and online (perf 6.1 stops at caller: "Differences from perf")
. "$(dirname "$0")/lib/common.sh"
need_sampling
W=$WORKLOADS/epilogue
[ -x "$W" ] || fail "no epilogue workload at $W"

# CHAINS: how many of popped_spin's user chains (script -F ip,sym) there
# are, and how many go on through caller to main
chains() {
	"$LUPE" script -i "$1" -F ip,sym --no-inline > "$1.txt" || fail "lupe script of $1 exited $?"
	awk -v RS= '/popped_spin/ { n++; if (/popped_spin\n[^\n]*caller\n[^\n]*main\n/) m++ } END { print n + 0, m + 0 }' "$1.txt"
}
for mode in --no-online ""; do
	"$LUPE" record -q --call-graph dwarf $mode -o e.data -- "$W" 60 >/dev/null 2>&1 ||
		fail "lupe record --call-graph dwarf $mode exited $?"
	read -r n m < <(chains e.data)
	[ "$n" -ge 20 ] || fail "${mode:-online}: only $n samples in popped_spin: $(head -20 e.data.txt)"
	# the rare one at the first instructions (before the pop) goes the same way
	[ "$m" = "$n" ] || fail "${mode:-online}: $((n - m)) of $n chains in popped_spin stop before main: $(awk -v RS= '/popped_spin/ && !/main/' e.data.txt | head -12)"
	ok "${mode:-online}: all $n chains in popped_spin go through caller to main"
done

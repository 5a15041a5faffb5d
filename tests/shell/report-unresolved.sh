#!/usr/bin/env bash
# report of a stripped binary (unresolved callchain addresses): the same children entries as perf report on the same file (perf keys callchain entries by the address as recorded), and the same chains, frames shown by the address as recorded
. "$(dirname "$0")/lib/common.sh"
need_perf
# built here without a build-id, so that no build-id cache holds its symbols
cc -O1 -fno-omit-frame-pointer -fno-inline -Wl,--build-id=none -o demo-stripped \
	"$LUPE_SRC/tests/workloads/demo.c" -lpthread && strip demo-stripped || skip "cannot build a stripped workload"
"$LUPE" record -q -g -o s.data -- ./demo-stripped -n 300 >/dev/null 2>err || fail "record: $(cat err)"
entries() { "$1" report --stdio --children -g none --sort comm,dso,sym -i s.data 2>/dev/null | grep -v '^#' | grep '%' | sort; }
entries "$LUPE" > lupe.txt
entries "$PERF" > perf.txt
[ -s perf.txt ] || fail "perf report shows no entries"
grep -q 'demo-stripped.*\[\.\] 0x' perf.txt || skip "perf resolved every address of the stripped binary"
diff perf.txt lupe.txt > d.txt || fail "entries differ from perf ($(wc -l < lupe.txt) against $(wc -l < perf.txt)): $(head -20 d.txt)"
ok "$(wc -l < lupe.txt) children entries as perf's, $(grep -c '\[\.\] 0x' lupe.txt) of them unresolved"

# the callchains show an unresolved frame by its address as recorded, as perf's
for o in "--no-children" "--children -g folded" "--no-children -g caller"; do
	# shellcheck disable=SC2086 # o holds several options
	"$PERF" report --stdio $o -i s.data 2>/dev/null | grep -v '^#' > p.out
	# shellcheck disable=SC2086
	"$LUPE" report --stdio $o -i s.data | grep -v '^#' > l.out
	grep -q '0x[0-9a-f]\{9,\}' p.out || fail "perf's report $o shows no recorded address in a chain"
	cmp -s p.out l.out || fail "report $o differs from perf's: $(diff p.out l.out | head -10)"
done
ok "chains through the stripped binary as perf's"

#!/usr/bin/env bash
# children-mode report of a stripped binary (unresolved callchain addresses): the same entries as perf report on the same file (perf keys callchain entries by the address as recorded)
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

#!/usr/bin/env bash
# buildid-list frees what it noted when a pipe-mode file breaks after some hits, and keeps (then frees) its array when strdup fails after the realloc: valgrind finds no definite leak in either (before: one each)
. "$(dirname "$0")/lib/common.sh"
command -v valgrind >/dev/null || skip "no valgrind (scripts/bootstrap installs it)"
command -v cc >/dev/null || skip "no C compiler for the strdup shim"
command -v python3 >/dev/null || skip "no python3 to break the file"
"$LUPE" record -q -o - -- "$WORKLOADS/demo" -n 20 > p.data 2>/dev/null || fail "lupe record -o - failed"
# record 60 of the stream gets a size smaller than its header: a corrupt file after some hits
python3 - <<'PY' || fail "the stream has fewer than 61 records"
import struct
d = bytearray(open("p.data", "rb").read())
off, i = 16, 0
while off + 8 <= len(d):
    t, m, sz = struct.unpack_from("<IHH", d, off)
    if i == 60:
        struct.pack_into("<IHH", d, off, t, m, 2)
        open("bad.data", "wb").write(d)
        raise SystemExit(0)
    off, i = off + sz, i + 1
raise SystemExit(1)
PY
vg() { valgrind -q --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 "$@"; }
vg "$LUPE" buildid-list -i bad.data > out 2> vg.bad
rc=$?
[ $rc = 1 ] || fail "a corrupt stream: exit $rc (99: valgrind found errors): $(grep -v '^==' vg.bad | head -3; grep -A8 'definitely lost' vg.bad | head -12)"
grep -q "cannot read 'bad.data'" vg.bad || fail "the corrupt stream is not said: $(cat vg.bad)"
ok "a stream corrupt after some hits: said, nothing leaked"

cat > sd.c <<'C'
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
/* strdup of a string that holds $SHIM_STRDUP fails (ENOMEM) */
char *strdup(const char *s)
{
	const char *bad = getenv("SHIM_STRDUP");
	size_t n = strlen(s) + 1;
	char *d;

	if (bad && strstr(s, bad)) {
		errno = ENOMEM;
		return NULL;
	}
	d = malloc(n);
	return d ? memcpy(d, s, n) : NULL;
}
C
cc -shared -fPIC -o sd.so sd.c || skip "cannot build the strdup shim"
# the names this stream lists (a sample in ld.so or not is chance): strdup fails on each in turn
names=$("$LUPE" buildid-list -i p.data 2>/dev/null | awk '{ print $2 }')
[ -n "$names" ] || fail "buildid-list lists nothing of the stream"
for name in $names; do
	SHIM_STRDUP=$name LD_PRELOAD=$PWD/sd.so vg "$LUPE" buildid-list -i p.data > out 2> vg.sd
	rc=$?
	[ $rc = 1 ] || fail "strdup failing on $name: exit $rc (99: valgrind found errors): $(grep -A8 'definitely lost' vg.sd | head -12)"
done
ok "strdup failing after the realloc: said, nothing leaked"

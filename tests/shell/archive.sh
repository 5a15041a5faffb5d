#!/usr/bin/env bash
# lupe archive packs the same build-id cache entries into FILE.tar.bz2 as perf archive, and says no build-ids as perf does
. "$(dirname "$0")/lib/common.sh"
need_perf
command -v tar >/dev/null && command -v bzip2 >/dev/null || skip "no tar with bzip2"
[ -x /usr/lib/perf-core/perf-archive ] || skip "perf's archive script is not installed"
"$LUPE" --buildid-dir "$PWD/cache" record -q -o a.data -- "$WORKLOADS/demo" -n 30 >/dev/null 2>&1 || fail "lupe record failed"
cp a.data b.data
"$LUPE" --buildid-dir "$PWD/cache" archive a.data > out.lupe || fail "lupe archive failed"
"$PERF" --buildid-dir "$PWD/cache" archive b.data > out.perf || fail "perf archive failed"
tar tjf a.data.tar.bz2 | sort > list.lupe
tar tjf b.data.tar.bz2 | sort > list.perf
grep -q '^\.build-id/' list.lupe || fail "no .build-id link in the tar"
diff list.perf list.lupe || fail "the tars hold different files"
diff <(sed 's/a\.data/X/' out.lupe) <(sed 's/b\.data/X/' out.perf) || fail "the closing message differs"
# unpacked elsewhere, perf finds the binaries by build-id
mkdir un && tar xjf a.data.tar.bz2 -C un
"$PERF" --buildid-dir "$PWD/un" buildid-cache -l | grep -q "$WORKLOADS/demo" || fail "the unpacked cache lacks demo"
# a file whose samples hit nothing with a build-id
"$LUPE" record -q -o - -e cpu-clock -- true 2>/dev/null | "$LUPE" inject -o e.data 2>/dev/null
"$LUPE" --buildid-dir "$PWD/empty" archive e.data > out.e; rc=$?
[ $rc = 1 ] && grep -q "no build-ids found" out.e || fail "archive of nothing: rc $rc, $(cat out.e)"
ok "archive: perf's tar"

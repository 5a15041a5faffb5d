#!/usr/bin/env bash
# every output lupe writes (each command's -o, stat record, archive's FILE.tar.bz2) is opened as perf opens perf.data: a character device made here stays that device, also when the command fails; a symlink planted at the output is replaced, never written through (its target unchanged), the new perf.data 0600 and the link kept as .old as perf 6.1 keeps it
. "$(dirname "$0")/lib/common.sh"
need_root
mknod null c 1 3 || skip "cannot make a device node here (mknod c 1 3)"
D=$WORKLOADS/demo

# the commands whose -h offers -o are the ones checked below: a new one must be added here
for c in $(sed -n 's/^\t{ "\([a-z-]*\)",.*/\1/p' "$LUPE_SRC/cmd/main.c"); do
	"$LUPE" "$c" -h 2>/dev/null | grep -qE -- '-o, --output' && echo "$c"
done | sort | tr '\n' ' ' > with-o
[ "$(cat with-o)" = "convert flamegraph inject record report stat trace " ] ||
	fail "the commands with -o are now '$(cat with-o)': check each of them here"

"$LUPE" record -q -o s.data -- "$D" -n 30 >/dev/null 2>&1 || fail "lupe record failed"
[ "$(stat -c %a s.data)" = 600 ] || fail "a new perf.data is mode $(stat -c %a s.data), not 600"

dev_ok() { # NAME WHAT: NAME is still the character device 1,3
	[ -c "$1" ] && [ "$(stat -c %t:%T "$1")" = 1:3 ] ||
		fail "$2 replaced the device '$1': $(ls -la "$1")"
}

# 1. a device as the output: written in place
"$LUPE" record -q -o null -- "$D" -n 5 >/dev/null 2>&1; dev_ok null "record -o"
"$LUPE" record -q -o null -- ./no-such-workload >/dev/null 2>&1; dev_ok null "a failed record -o"
"$LUPE" stat -o null -- true >/dev/null 2>&1; dev_ok null "stat -o"
"$LUPE" stat -o null --append -- true >/dev/null 2>&1; dev_ok null "stat -o --append"
"$LUPE" stat record -o null -- true >/dev/null 2>&1; dev_ok null "stat record -o"
"$LUPE" inject -i s.data -o null >/dev/null 2>&1; dev_ok null "inject -o"
printf 'PERFILE2 and nothing' > cut.data
"$LUPE" inject -i cut.data -o null >/dev/null 2>&1; dev_ok null "a failed inject -o"
for to in folded pprof firefox speedscope; do
	"$LUPE" convert -i s.data --to $to -o null >/dev/null 2>&1; dev_ok null "convert --to $to -o"
done
"$LUPE" flamegraph -i s.data -o null >/dev/null 2>&1; dev_ok null "flamegraph -o"
"$LUPE" trace -o null -- true >/dev/null 2>&1; dev_ok null "trace -o"
"$LUPE" report --html -o null -i s.data >/dev/null 2>&1; dev_ok null "report --html -o"
for to in json jsonl; do
	"$LUPE" data convert --force --to-$to null -i s.data >/dev/null 2>&1; dev_ok null "data convert --to-$to"
done
if command -v tar >/dev/null && command -v bzip2 >/dev/null; then
	cp s.data a.data
	mknod a.data.tar.bz2 c 1 3
	"$LUPE" --buildid-dir "$PWD/cache" archive a.data >/dev/null 2>&1
	dev_ok a.data.tar.bz2 "archive"
	"$LUPE" --buildid-dir "$PWD/empty" archive a.data >/dev/null 2>&1
	dev_ok a.data.tar.bz2 "an archive of nothing"
fi
ok "the device stayed a device through record, stat, stat record, inject, convert, flamegraph, trace, report --html, data convert, archive"

# /dev/stdout (root's link to the pipe) is still written through
"$LUPE" convert -i s.data --to folded -o /dev/stdout | grep -q "^demo;" ||
	fail "convert -o /dev/stdout wrote nothing to the pipe"
ok "-o /dev/stdout writes to the pipe"

# 2. a planted symlink: another user's, and root's own to a regular file
echo "root's file" > target
sum=$(md5sum < target)
plant() { # NAME [OWNER]: a link NAME -> target
	rm -f "$1" "$1.old"
	ln -s target "$1"
	[ -z "${2:-}" ] || chown -h "$2" "$1"
}
target_ok() { # WHAT
	[ -f target ] && [ ! -L target ] && [ "$(md5sum < target)" = "$sum" ] &&
		[ "$(stat -c %a target)" = "$(stat -c %a target.mode)" ] ||
		fail "$1 wrote through the link: target is now $(ls -la target; head -c 40 target | od -c | head -2)"
}
new_file() { # NAME MODE WHAT: NAME is a new regular file with MODE
	[ -f "$1" ] && [ ! -L "$1" ] || fail "$3: '$1' is not a new regular file: $(ls -la "$1")"
	[ -z "$2" ] || [ "$(stat -c %a "$1")" = "$2" ] || fail "$3: '$1' is mode $(stat -c %a "$1"), not $2"
}
kept_old() { # NAME WHAT: the link became NAME.old, as perf keeps it
	[ -L "$1.old" ] && [ "$(readlink "$1.old")" = target ] || fail "$2: the link is not $1.old: $(ls -la "$1"*)"
}
touch -r target target.mode; chmod --reference=target target.mode
for owner in nobody ""; do
	plant perf.data $owner
	"$LUPE" record -q -- "$D" -n 5 >/dev/null 2>&1 || fail "record with a link at perf.data failed"
	target_ok "record (link owned by ${owner:-root})"
	new_file perf.data 600 "record"; kept_old perf.data "record"
	"$LUPE" report --stdio -i perf.data >/dev/null 2>&1 || fail "the new perf.data does not read"
done
plant i.data nobody
"$LUPE" inject -i s.data -o i.data >/dev/null 2>&1 || fail "inject -o LINK failed"
target_ok "inject -o"; new_file i.data 600 "inject -o"; kept_old i.data "inject -o"
plant sr.data nobody
"$LUPE" stat record -o sr.data -- true >/dev/null 2>&1 || fail "stat record -o LINK failed"
target_ok "stat record -o"; new_file sr.data 600 "stat record -o"; kept_old sr.data "stat record -o"
for to in folded speedscope; do
	plant c.out nobody
	"$LUPE" convert -i s.data --to $to -o c.out >/dev/null 2>&1 || fail "convert --to $to -o LINK failed"
	target_ok "convert --to $to -o"; new_file c.out "" "convert -o"
done
plant f.svg nobody
"$LUPE" flamegraph -i s.data -o f.svg >/dev/null 2>&1 || fail "flamegraph -o LINK failed"
target_ok "flamegraph -o"; new_file f.svg "" "flamegraph -o"
grep -q '<svg' f.svg || fail "flamegraph -o LINK wrote no SVG"
plant st.txt nobody
"$LUPE" stat -o st.txt -- true >/dev/null 2>&1 || fail "stat -o LINK failed"
target_ok "stat -o"; new_file st.txt "" "stat -o"
plant st.txt nobody
"$LUPE" stat -o st.txt --append -- true >/dev/null 2>&1 && fail "stat --append -o LINK appended through a link"
target_ok "stat --append -o"
plant tr.txt nobody
"$LUPE" trace -o tr.txt -- true >/dev/null 2>&1
target_ok "trace -o"
plant r.html nobody
"$LUPE" report --html -o r.html -i s.data >/dev/null 2>&1 || fail "report --html -o LINK failed"
target_ok "report --html -o"; new_file r.html "" "report --html -o"
grep -q '<html' r.html || fail "report --html -o LINK wrote no page"
plant d.json nobody
"$LUPE" data convert --force --to-json d.json -i s.data >/dev/null 2>&1 || fail "data convert --to-json LINK failed"
target_ok "data convert --to-json"; new_file d.json "" "data convert --to-json"
if command -v tar >/dev/null && command -v bzip2 >/dev/null; then
	rm -f a.data.tar.bz2
	plant a.data.tar.bz2 nobody
	"$LUPE" --buildid-dir "$PWD/cache" archive a.data >/dev/null 2>&1
	target_ok "archive"
fi
ok "a planted link's target was never written; perf.data, inject and stat record keep the link as .old, 0600"

# perf 6.1 does the same to a link whose target is not empty
if [ -x "$PERF" ]; then
	plant perf.data nobody
	"$PERF" record -q -o perf.data -- true >/dev/null 2>&1 || skip "perf record failed"
	target_ok "perf record"; new_file perf.data 600 "perf record"; kept_old perf.data "perf record"
	ok "perf record leaves the same shape"
fi

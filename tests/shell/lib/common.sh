# Helpers for the end-to-end tests. Source it first thing:
#   . "$(dirname "$0")/lib/common.sh"
# ctest sets LUPE (the binary), LUPE_SRC, LUPE_BUILD and WORKLOADS; run by
# hand, they default to the usual build folder.
set -u
LUPE_SRC=${LUPE_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}
LUPE_BUILD=${LUPE_BUILD:-$LUPE_SRC/build}
LUPE=${LUPE:-$LUPE_BUILD/lupe}
WORKLOADS=${WORKLOADS:-$LUPE_BUILD/workloads}
PERF=${PERF:-/usr/bin/perf}

TMPD=$(mktemp -d "${TMPDIR:-/tmp}/lupe-test.XXXXXX")
# a failing test leaves no background program behind (ctest would wait for it)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$TMPD"' EXIT
cd "$TMPD" || exit 1

# skip REASON: the machine lacks what the test needs (exit 77, said why).
skip() { echo "SKIP: $*"; exit 77; }
# fail MESSAGE: the test found a real failure.
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }

need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }
need_perf() { [ -x "$PERF" ] || skip "no Linux perf at $PERF to compare with"; }
need_tracefs() {
	[ -d /sys/kernel/tracing/events ] && return 0
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	[ -d /sys/kernel/tracing/events ] || skip "tracefs is not mounted and cannot be mounted"
}
# have_hw_pmu: whether this machine counts hardware events (cycles).
have_hw_pmu() { "$PERF" stat -e cycles -x, true 2>&1 | grep -qv 'not supported'; }
# need_sampling: skip unless the kernel lets this user sample a command it
# starts (perf events, kernel.perf_event_paranoid, and perf's own record
# when perf is installed say so): after it, a lupe record that fails is
# lupe's failure, not the machine's.
need_sampling() {
	local p
	p=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null) || skip "this kernel has no perf events"
	[ "$(id -u)" = 0 ] || [ "$p" -le 2 ] || skip "kernel.perf_event_paranoid is $p: a non-root user cannot sample"
	[ -x "$PERF" ] || return 0
	"$PERF" record -q -o "$TMPD/need-sampling.data" -- true >/dev/null 2>&1 || skip "perf record cannot sample here either"
	rm -f "$TMPD/need-sampling.data"
}
# perf_out FILE ARGS...: perf ARGS with stdout in FILE (stderr in FILE.err),
# run again (up to 3 times in all) when perf dies of a signal: perf 6.1 here
# segfaults now and then (the same ip each time, in dmesg), which says
# nothing about lupe. Returns perf's exit status.
perf_out() {
	local out=$1 i rc
	shift
	for i in 1 2 3; do
		"$PERF" "$@" > "$out" 2> "$out.err"
		rc=$?
		[ $rc -lt 128 ] && return $rc
		echo "note: perf $* died of signal $((rc - 128)); running it again" >&2
	done
	return $rc
}

# A sample in a PLT stub: lupe names it by its target (printf@plt), perf
# 6.1 as _init (the symbol before .plt), a raw address or [unknown]
# (scripts/compare-perf.known's [plt-named]). plt_unknown (a filter of
# script text): such frames read [unknown] on both sides. no_plt (of
# report text): the lines of such entries go.
plt_unknown() { sed -E 's/ [^ ]+@plt\+0x[0-9a-f]+ \(/ [unknown] (/; s/ _init\+0x[0-9a-f]+ \(/ [unknown] (/'; }
no_plt() { grep -vE '@plt|[] -]_init *$|\[\.\] 0x[0-9a-f]+ *$'; }

# expect_rc WANT CMD...: run CMD, fail unless it exits WANT.
expect_rc() {
	local want=$1 rc
	shift
	"$@"
	rc=$?
	[ "$rc" = "$want" ] || fail "'$*' exited $rc, want $want"
}

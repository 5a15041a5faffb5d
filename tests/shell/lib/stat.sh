# Helpers for the stat tests: compare lupe stat's output with perf stat's
# for the same command, ignoring the numbers but not the layout.
# Source after common.sh.

# stat_norm: each line becomes "LENGTH|shape": numbers are N, runs of
# spaces one space, and K/M/G/sec rates one unit, so that two runs of the
# same command agree while any change of column, width or word shows.
# A counter's "( +- N% )" spread is dropped first: perf and lupe both leave
# it out when every run counted the same, which two separate runs need not
# share (page-faults of `true` often do not vary).
strip_spread() {
	sed -E 's/  \( \+- *[0-9.]+% \)$//'
}

stat_norm() {
	strip_spread | awk '{ print length($0) "|" $0 }' |
		sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/[KMG]?\/sec/\/sec/g; s/ +/ /g'
}

# stat_norm_loose: the shape without line lengths (-r precision and -I
# timestamps vary in width from run to run).
stat_norm_loose() {
	strip_spread | sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/[KMG]?\/sec/\/sec/g; s/ +/ /g'
}

# stat_same NORM ARGS...: run perf stat ARGS and lupe stat ARGS (stderr is
# the report), fail unless NORM (stat_norm or stat_norm_loose) makes them equal.
stat_same() {
	local norm=$1
	shift
	"$PERF" stat "$@" 2>&1 >/dev/null | $norm > perf.out
	"$LUPE" stat "$@" 2>&1 >/dev/null | $norm > lupe.out
	if ! diff -u perf.out lupe.out > diff.out; then
		cat diff.out
		fail "lupe stat $* is laid out unlike perf stat $*"
	fi
	ok "same layout as perf: stat $*"
}

# stat_same_retry NORM ARGS...: stat_same, tried three times: for -I runs, where
# a loaded machine can make perf or lupe start late and print an interval fewer
stat_same_retry() {
	local i
	for i in 1 2; do
		if (stat_same "$@") > /dev/null 2>&1; then
			ok "same layout as perf: stat ${*:2}"
			return 0
		fi
	done
	stat_same "$@"
}

#!/usr/bin/env bash
# a COMPRESSED record that inflates to 1 GiB (zeros, then valid-sized records) is read in bounded memory and time; so are 256 MiB of timestamped samples waiting to be ordered (16x the file + 64 MB)
. "$(dirname "$0")/lib/common.sh"
[ -x /usr/bin/time ] || skip "no /usr/bin/time to measure memory"
for byte in 0 8; do
	python3 "$LUPE_SRC/tests/shell/lib/perfdata.py" zstd-bomb bomb$byte.data $byte || fail "cannot build the bomb"
	/usr/bin/time -o usage -f "%U %S %M" "$LUPE" report --stdio -i bomb$byte.data >/dev/null 2>err; rc=$?
	grep -q "built without zstd" err && skip "lupe was built without zstd"
	[ $rc -ne 0 ] && [ $rc -lt 128 ] || fail "report on the $byte bomb exited $rc (it holds no sample): $(cat err)"
	read -r user sys kb < <(tail -1 usage)
	echo "  bomb of byte $byte ($(stat -c %s bomb$byte.data) bytes): $(cat err), ${user}s user ${sys}s sys, $kb KB"
	[ "$kb" -lt 51200 ] || fail "the $byte bomb took $kb KB (limit 50 MB)"
	# zeros end at the first inflated record; the other bomb is 522K records to walk
	limit=1; [ $byte = 0 ] || limit=10
	awk -v u="$user" -v s="$sys" -v l=$limit 'BEGIN { exit !(u + s < l) }' ||
		fail "the $byte bomb took ${user}s user ${sys}s sys (limit ${limit}s)"
	# 1 GiB of 0x08 is 522K records of an unknown type, then a cut one: read, and said
	"$LUPE" script -i bomb$byte.data >/dev/null 2>&1; rc=$?
	[ $rc -lt 128 ] || fail "script on the $byte bomb crashed ($rc)"
done
# 256 MiB of samples without a round: the ordering queue flushes half when it is full
if command -v zstd >/dev/null; then
	python3 "$LUPE_SRC/tests/shell/lib/perfdata.py" sample-bomb samples.data 256 || fail "cannot build the sample bomb"
	size=$(stat -c %s samples.data)
	/usr/bin/time -o usage -f "%U %S %M" "$LUPE" report --stdio -i samples.data >out 2>err ||
		fail "report on the sample bomb failed: $(cat err)"
	read -r user sys kb < <(tail -1 usage)
	grep -q "100.00%" out || fail "the sample bomb's samples are not all in the report: $(grep % out)"
	limit=$(( (16 * size + (64 << 20)) / 1024 ))
	echo "  sample bomb ($size bytes, 6.7M samples): ${user}s user ${sys}s sys, $kb KB (limit $limit KB)"
	[ "$kb" -lt "$limit" ] || fail "the sample bomb took $kb KB (limit $limit KB)"
fi
ok "zstd bombs are bounded"

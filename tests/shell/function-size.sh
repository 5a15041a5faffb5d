#!/usr/bin/env bash
# no function in cmd/ is longer than 80 lines, save those scripts/longest-functions.allow names, and the check catches planted 81-line functions and a stale allow entry (scripts/longest-functions)
. "$(dirname "$0")/lib/common.sh"
check=$LUPE_SRC/scripts/longest-functions
"$check" "$LUPE_SRC/cmd" || fail "a function in cmd/ is too long (see above)"
# plant_function FILE NAME LINES: append a function of LINES lines, braces included,
# its signature over two lines as the style wraps long ones
plant_function() {
	{
		printf 'static int %s(int a,\n\t\tint b)\n{\n' "$2"
		for ((i = 0; i < $3 - 3; i++)); do printf '\ta += b;\n'; done
		printf '\treturn a;\n}\n'
	} >> "$1"
}
cp -r "$LUPE_SRC/cmd" "$TMPD/cmd"
cp "$LUPE_SRC/scripts/longest-functions.allow" "$TMPD/allow"
# 80 lines is allowed, 81 is not
plant_function "$TMPD/cmd/version.c" planted_80 80
"$check" -n 1000 -a "$TMPD/allow" "$TMPD/cmd" > "$TMPD/out" 2>&1 || fail "an 80-line function was refused: $(cat "$TMPD/out")"
grep -q ' 80  .*cmd/version.c:[0-9]*  planted_80$' "$TMPD/out" || fail "the planted 80-line function is not counted as 80: $(cat "$TMPD/out")"
plant_function "$TMPD/cmd/bench/sched.c" planted_81 81
line=$(grep -n '^static int planted_81' "$TMPD/cmd/bench/sched.c" | cut -d: -f1)
out=$("$check" -a "$TMPD/allow" "$TMPD/cmd" 2>&1) && fail "an 81-line function went unnoticed"
echo "$out" | grep -q "cmd/bench/sched.c:$((line + 2)): planted_81 is 81 lines, longer than 80" ||
	fail "the planted 81-line function is not named with file:line: $out"
# a brace on the signature line hides nothing
{
	printf 'int planted_kr(void) {\n'
	for ((i = 0; i < 79; i++)); do printf '\t(void)0;\n'; done
	printf '}\n'
} >> "$TMPD/cmd/version.c"
out=$("$check" -a "$TMPD/allow" "$TMPD/cmd" 2>&1) && fail "an 81-line function with its brace on the signature line went unnoticed"
echo "$out" | grep -q "cmd/version.c:[0-9]*: planted_kr is 81 lines" || fail "planted_kr is not named: $out"
# the allow list lets it be, and an entry that fits no long function is refused
echo "cmd/bench/sched.c planted_81" >> "$TMPD/allow"
echo "cmd/version.c planted_kr" >> "$TMPD/allow"
"$check" -a "$TMPD/allow" "$TMPD/cmd" > "$TMPD/out" 2>&1 || fail "an allowed function was refused: $(cat "$TMPD/out")"
echo "cmd/version.c planted_80" >> "$TMPD/allow"
out=$("$check" -a "$TMPD/allow" "$TMPD/cmd" 2>&1) && fail "a stale allow entry went unnoticed"
echo "$out" | grep -q "'cmd/version.c planted_80' is no longer longer than 80 lines" || fail "the stale entry is not named: $out"
ok "no function in cmd/ over 80 lines; planted faults are caught"

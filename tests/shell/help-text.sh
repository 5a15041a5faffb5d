#!/usr/bin/env bash
# every command's -h is the text in tests/data/help-text.txt, byte for byte: the option tables are the help, so a changed table shows here (update the file with LUPE_HELP_UPDATE=1 when the change is meant)
. "$(dirname "$0")/lib/common.sh"
expected=$LUPE_SRC/tests/data/help-text.txt

all_help() {
	local c
	for c in $("$LUPE" --list-cmds); do
		echo "==== lupe $c -h"
		# argp wraps at 79 columns unless told otherwise: it must not be told
		ARGP_HELP_FMT= "$LUPE" "$c" -h 2>&1
		echo "==== exit $?"
	done
}

all_help > now.txt
if [ "${LUPE_HELP_UPDATE:-}" = 1 ]; then
	cp now.txt "$expected"
	ok "wrote $expected"
	exit 0
fi
[ -s "$expected" ] || fail "no $expected"
# the comparison can fail: a planted change to one command's text is found
sed '0,/^  -/s/^  -/  +/' "$expected" > planted.txt
cmp -s now.txt planted.txt && fail "the comparison did not see a planted change"
diff -u "$expected" now.txt > help.diff ||
	fail "-h changed (LUPE_HELP_UPDATE=1 rewrites $expected if the change is meant):
$(head -40 help.diff)"
ok "-h of $(grep -c '^==== lupe' now.txt) commands as in tests/data/help-text.txt"

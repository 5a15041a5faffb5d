#!/usr/bin/env bash
# every command answers -h with its option summary, --help with its manual page; the dispatcher's errors
. "$(dirname "$0")/lib/common.sh"

cmds=$("$LUPE" --help | awk '/The lupe commands are/ {on=1; next} on && /^   [a-z]/ {print $1}')
[ -n "$cmds" ] || fail "lupe --help lists no commands"
for c in $cmds; do
	out=$("$LUPE" "$c" -h) || fail "lupe $c -h exited $?"
	echo "$out" | grep -q "Usage: lupe $c" || fail "lupe $c -h printed no usage line: $out"
	case $c in help|version) continue ;; esac
	[ -f "$LUPE_SRC/Documentation/lupe-$c.md" ] || fail "no Documentation/lupe-$c.md for '$c'"
	"$LUPE" "$c" --help | grep -q "lupe-$c" || fail "lupe $c --help does not show its page"
	"$LUPE" help "$c" | grep -q "lupe-$c" || fail "lupe help $c does not show its page"
done
ok "-h and --help for: $(echo $cmds)"

"$LUPE" --version | grep -Eq '^lupe version [0-9]+\.[0-9]+' || fail "lupe --version"
expect_rc 1 "$LUPE" >/dev/null
out=$("$LUPE" stta 2>&1); rc=$?
[ $rc = 1 ] || fail "unknown command exited $rc"
echo "$out" | grep -q "not a lupe command" || fail "unknown command message: $out"
echo "$out" | grep -qw stat || fail "no 'did you mean stat' for stta: $out"
out=$("$LUPE" stat --no-such-option 2>&1); rc=$?
[ $rc = 129 ] || fail "bad option exited $rc, want 129"

# lupe-foo on PATH runs as lupe foo, with its arguments
mkdir bin
printf '#!/bin/sh\necho "external $*"\n' > bin/lupe-hello
chmod +x bin/lupe-hello
out=$(PATH="$PWD/bin:$PATH" "$LUPE" hello a b) || fail "lupe hello (external) failed"
[ "$out" = "external a b" ] || fail "external command got: $out"

# output that cannot be written is an error
if [ -w /dev/full ]; then
	expect_rc 1 "$LUPE" version >/dev/full 2>/dev/null
fi
ok "dispatcher"

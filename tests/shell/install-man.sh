#!/usr/bin/env bash
# after cmake --install, man finds and renders without warnings the page of every command (lupe --list-cmds), lupe.1 lists them all, and lupe help shows the man page or, without man, the Markdown as text (no markup)
. "$(dirname "$0")/lib/common.sh"
command -v man >/dev/null || skip "no man (apt-get install man-db)"
[ -d "$LUPE_BUILD/man/man1" ] || skip "the build made no man pages (no lowdown: apt-get install lowdown)"
prefix=$TMPD/prefix
cmake --install "$LUPE_BUILD" --prefix "$prefix" >install.log 2>&1 || { cat install.log; fail "cmake --install failed"; }
cmds=$("$LUPE" --list-cmds) || fail "lupe --list-cmds failed"
[ "$(echo "$cmds" | wc -l)" -ge 20 ] || fail "lupe --list-cmds lists too few commands: $cmds"
export MANPATH=$prefix/share/man
lupe1=$(man -l "$prefix/share/man/man1/lupe.1.gz" 2>/dev/null) || fail "man cannot show lupe.1"
n=0
for c in $cmds; do
	page=$(man -w "lupe-$c" 2>&1) || fail "man -w lupe-$c finds no page: $page"
	[ "$page" = "$prefix/share/man/man1/lupe-$c.1.gz" ] || fail "man -w lupe-$c found $page, not the installed page"
	warn=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings "lupe-$c" 2>&1 >out.txt) || fail "man lupe-$c failed: $warn"
	[ -z "$warn" ] || fail "man --warnings lupe-$c: $warn"
	grep -q "^NAME" out.txt || fail "man lupe-$c shows no NAME section"
	grep -Eq "lupe-$c +- " out.txt || fail "man lupe-$c does not name lupe-$c"
	# markup that lowdown did not take: backticks, setext underlines, definition colons
	bad=$(grep -nE '`|^(---|===)' out.txt | head -3)
	[ -z "$bad" ] || fail "man lupe-$c shows Markdown: $bad"
	echo "$lupe1" | grep -q "lupe-$c(1)" || fail "lupe.1 does not list lupe-$c(1)"
	n=$((n + 1))
done
ok "man -w and man --warnings: $n pages, each listed in lupe.1"
# the check must notice a page missing from the install
rm "$prefix/share/man/man1/lupe-record.1.gz"
man -w lupe-record >/dev/null 2>&1 && fail "man -w still finds lupe-record with its page removed"
cmake --install "$LUPE_BUILD" --prefix "$prefix" >install.log 2>&1 || fail "cmake --install (again) failed"

# lupe help: the installed lupe opens its installed page
out=$("$prefix/bin/lupe" help record) || fail "installed lupe help record failed"
echo "$out" | head -1 | grep -q "LUPE-RECORD(1)" || fail "lupe help record is not the man page: $(echo "$out" | head -3)"
# without man(1) on PATH: the Markdown shown as text, its markup gone
mkdir nobin
ln -s "$(command -v cat)" nobin/cat
out=$(PATH=$PWD/nobin "$prefix/bin/lupe" help record) || fail "lupe help record without man failed"
echo "$out" | grep -q "lupe-record - sample" || fail "lupe help record without man shows no NAME line: $(echo "$out" | head -5)"
bad=$(echo "$out" | grep -nE '`|^(---|===)|^:   |\*\*' | head -3)
[ -z "$bad" ] || fail "lupe help record without man shows Markdown markup: $bad"
echo "$out" | grep -q "^OPTIONS" || fail "lupe help record without man: no OPTIONS heading"
ok "lupe help: the installed man page, or the formatted text without man"

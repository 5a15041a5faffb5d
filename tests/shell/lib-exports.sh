#!/usr/bin/env bash
# liblupe.so exports only lupe_* symbols (nm -D), and Documentation/liblupe.md documents every one of them
. "$(dirname "$0")/lib/common.sh"
command -v nm >/dev/null || skip "no nm (binutils)"
so=$LUPE_BUILD/liblupe.so
[ -f "$so" ] || fail "no shared library at $so"
all=$(nm -D --defined-only "$so" | awk 'NF == 3 {print $3}' | sort -u)
[ "$(echo "$all" | wc -l)" -gt 50 ] || fail "nm -D found too few symbols in $so: $all"
bad=$(echo "$all" | grep -v '^lupe_' || true)
[ -z "$bad" ] || fail "liblupe.so exports symbols without the lupe_ prefix: $(echo $bad)"
ok "$(echo "$all" | wc -l) dynamic symbols, all lupe_*"

# every export has a heading or a bullet in the guide: `lupe_name(`
doc=$LUPE_SRC/Documentation/liblupe.md
[ -f "$doc" ] || fail "no $doc"
undocumented() { # DOC: the exports of $all that DOC does not name as `name(`
	while read -r sym; do
		grep -qF "\`$sym(" "$1" || echo "$sym"
	done <<<"$all"
}
missing=$(undocumented "$doc")
[ -z "$missing" ] || fail "exported but not in Documentation/liblupe.md: $(echo $missing)"
# the check must notice a missing one
sym=$(echo "$all" | head -1)
grep -vF "\`$sym(" "$doc" >cut.md
[ "$(undocumented cut.md)" = "$sym" ] || fail "a guide without $sym went unnoticed"
ok "Documentation/liblupe.md names all $(echo "$all" | wc -l) exports"

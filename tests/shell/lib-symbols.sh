#!/usr/bin/env bash
# liblupe.a exports no symbol without the lupe_ prefix (the others are static or hidden)
. "$(dirname "$0")/lib/common.sh"
lib=$LUPE_BUILD/liblupe.a
[ -f "$lib" ] || fail "no library archive at $lib"
command -v nm >/dev/null || skip "no nm (binutils)"
all=$(nm -g --defined-only "$lib" | awk 'NF == 3 {print $3}')
[ -n "$all" ] || fail "nm found no global symbol in $lib"
bad=$(echo "$all" | grep -v '^lupe_' || true)
[ -z "$bad" ] || fail "symbols without the lupe_ prefix: $(echo $bad)"
ok "$(echo "$all" | wc -l) global symbols, all lupe_*"

#!/usr/bin/env bash
# every lib/ folder includes only its own floor and the floors below it (scripts/check-layering)
. "$(dirname "$0")/lib/common.sh"
check=$LUPE_SRC/scripts/check-layering
"$check" "$LUPE_SRC/lib" || fail "an include points upward (see above)"
# the check must catch a leak: a copy of lib with one upward include
cp -r "$LUPE_SRC/lib" "$TMPD/lib"
echo '#include "session/machine.h"' >> "$TMPD/lib/util/log.c"
echo '#include <lupe/hist.h>' >> "$TMPD/lib/data/writer.c"
out=$("$check" "$TMPD/lib" 2>&1) && fail "upward includes went unnoticed"
echo "$out" | grep -q 'util/log.c.*session/machine.h' || fail "util -> session not reported: $out"
echo "$out" | grep -q 'data/writer.c.*lupe/hist.h' || fail "data -> hist not reported: $out"
ok "no upward include; planted ones are caught"

#!/usr/bin/env bash
# every lib/ folder includes only its own floor and the floors below it, and has a floor in Documentation/design.md's layering table, which names no missing folder (scripts/check-layering)
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
echo '#include "bpf/syscall-rec.h"' >> "$TMPD/lib/session/session.c"
out=$("$check" "$TMPD/lib" 2>&1) && fail "session -> bpf went unnoticed"
echo "$out" | grep -q 'session/session.c.*bpf/syscall-rec.h' || fail "session -> bpf (lib's own bpf/) not reported: $out"
# a folder the table does not name, and a row naming a folder that does not exist
rm -r "$TMPD/lib"
cp -r "$LUPE_SRC/lib" "$TMPD/lib"
mkdir "$TMPD/lib/newfloor"
echo '#include "util/util.h"' > "$TMPD/lib/newfloor/new.c"
sed 's/^    1  events,/    1  gone, events,/' "$LUPE_SRC/Documentation/design.md" > "$TMPD/design.md"
grep -q '^    1  gone, events' "$TMPD/design.md" || fail "could not plant a row in a copy of design.md"
out=$("$check" "$TMPD/lib" "$TMPD/design.md" 2>&1) && fail "a folder without a floor went unnoticed"
echo "$out" | grep -q 'lib/newfloor: no floor in the layering table of design.md (add the folder to a row' ||
	fail "lib/newfloor not reported: $out"
echo "$out" | grep -q 'names lib/gone, which does not exist' || fail "the stale row not reported: $out"
# adding the row is all a new folder needs
sed -i 's/^    1  gone, events,/    1  newfloor, events,/' "$TMPD/design.md"
"$check" "$TMPD/lib" "$TMPD/design.md" || fail "a new folder with its row is still refused"
ok "no upward include, every folder on a floor; planted faults are caught"

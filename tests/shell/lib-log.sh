#!/usr/bin/env bash
# library log messages carry no trailing newline (the sink adds it): no blank line after an error
. "$(dirname "$0")/lib/common.sh"
bad=$(grep -rnE '(pr_(err|warn|info|debug)|lupe_log)\((LUPE_LOG_[A-Z]+, )?"([^"\\]|\\.)*\\n"' "$LUPE_SRC/lib" || true)
[ -z "$bad" ] || fail "log messages ending in a newline: $bad"
"$LUPE" report -i /nonexistent >out 2>err && fail "report of a missing file succeeded"
[ "$(wc -l < err)" = 1 ] || fail "want one line of error, got: $(cat -A err)"
grep -q "nonexistent" err || fail "the error does not name the file: $(cat err)"
ok "one convention; one line of error"

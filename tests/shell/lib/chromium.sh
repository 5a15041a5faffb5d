# Headless Chromium for the tests that look at SVGs: chromium_run ARGS...
# runs it with a throwaway profile and no network; skips when it is missing.
need_chromium() {
	CHROMIUM=$(command -v chromium || command -v chromium-browser) ||
		skip "no chromium to render SVGs (scripts/bootstrap installs it)"
}
chromium_run() {
	local prof
	prof=$(mktemp -d "$TMPD/chromium.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$prof" "$@" 2>/dev/null
}

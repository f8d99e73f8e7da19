#!/usr/bin/env bash
# Installs Debian's Chromium for the browser test (server/browser_test.go)
# when no Chromium or Chrome is on the PATH. It never fails the caller:
# without a browser the test is skipped with a message.
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 ||
	command -v google-chrome >/dev/null 2>&1; then
	echo "install-chromium: $(command -v chromium chromium-browser google-chrome 2>/dev/null | head -n 1) already installed" >&2
elif [ "$(id -u)" = 0 ]; then
	echo "install-chromium: installing Debian's chromium" >&2
	(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >&2 ||
		echo "install-chromium: apt-get install chromium failed; the browser test will be skipped" >&2
else
	echo "install-chromium: not root and no Chromium installed; the browser test will be skipped" >&2
fi
true

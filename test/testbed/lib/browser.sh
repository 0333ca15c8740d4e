# shellcheck shell=bash
# The browser the end-to-end tests drive (test/e2e/support/browser.ts): Debian's headless Chromium,
# installed with apt, not built. Playwright's own browser download cannot work here, and
# playwright-core (package.json) is pinned to the release built for this Chromium's major version.
# KUBESPACES_CHROMIUM names another Chromium instead, and then nothing is installed.

CHROMIUM_PACKAGE=chromium-headless-shell
CHROMIUM_BIN=/usr/bin/chromium-headless-shell
# The Chromium that playwright-core 1.64.1 is built for (1.65 targets 159).
CHROMIUM_MAJOR=156

# chromium_version: the installed package's version, empty when it is not installed. dpkg-query
# fails for a package it has never seen (a machine that never had it): that is "not installed"
# too, not an error for pipefail to end the build on.
chromium_version() {
  { dpkg-query -W -f='${db:Status-Status} ${Version}\n' "${CHROMIUM_PACKAGE}" 2>/dev/null || true; } |
    sed -n 's/^installed //p'
}

# ensure_browser: install Debian's headless Chromium when it is missing (root: apt-get), and say
# which version is there; a major version other than playwright-core's is a warning, since
# Debian's security archive keeps only its newest build.
ensure_browser() {
  local version
  if [[ -n "${KUBESPACES_CHROMIUM:-}" ]]; then
    [[ -x "${KUBESPACES_CHROMIUM}" ]] || die "browser: KUBESPACES_CHROMIUM=${KUBESPACES_CHROMIUM} is not an executable"
    log "browser: ${KUBESPACES_CHROMIUM} (KUBESPACES_CHROMIUM; nothing installed)"
    return 0
  fi
  version="$(chromium_version)"
  if [[ -z "${version}" || ! -x "${CHROMIUM_BIN}" ]]; then
    # Without apt-get: install Chromium ${CHROMIUM_MAJOR} and set KUBESPACES_CHROMIUM to it.
    apt_install browser "${CHROMIUM_PACKAGE}"
    version="$(chromium_version)"
  fi
  log "browser: ${CHROMIUM_PACKAGE} ${version} at ${CHROMIUM_BIN}"
  [[ "${version%%.*}" == "${CHROMIUM_MAJOR}" ]] ||
    log "WARNING: browser: Chromium ${version%%.*} is not the ${CHROMIUM_MAJOR} that playwright-core is pinned for; the browser tests may fail"
}

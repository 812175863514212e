#!/usr/bin/env bash
# `npm test` step 1 (package.json "pretest"): the system programs the suite needs.
#
# - redis-server                    (private Redis instances, test/services/global-setup.ts)
# - PostgreSQL server binaries      (initdb + pg_ctl for private clusters; Debian: postgresql)
# - /usr/bin/chromium               (browser tests through playwright-core; Debian: chromium)
#
# Missing ones are installed with apt-get (through sudo when not root, without a password
# prompt). Where that is impossible (not Debian/Ubuntu, no root and no password-less sudo) it
# stops at once, naming what is missing and how to get it. COURSEGATE_SKIP_SYSTEM_DEPS=1 skips
# the step (you provide the programs yourself, e.g. TEST_REDIS_URL / TEST_DATABASE_URL).
set -euo pipefail

[ "${COURSEGATE_SKIP_SYSTEM_DEPS:-}" = "1" ] && exit 0

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
# The server binaries (initdb, pg_ctl), not just the psql client.
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  missing+=(postgresql)
fi
[ -x /usr/bin/chromium ] || missing+=(chromium)

[ ${#missing[@]} -eq 0 ] && exit 0

say() { echo "npm test: $*" >&2; }
how() {
  say "missing system packages: ${missing[*]}"
  say "install them (Debian/Ubuntu: sudo apt-get install ${missing[*]}; elsewhere: redis-server,"
  say "the PostgreSQL server binaries initdb/pg_ctl on PATH, and Chromium at /usr/bin/chromium),"
  say "then run the command again. ($1)"
  exit 1
}

command -v apt-get >/dev/null 2>&1 || how "no apt-get here: not a Debian-based machine"
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=(sudo -n)
  else how "not root and no password-less sudo"; fi
fi

say "installing ${missing[*]} with apt-get"
"${SUDO[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

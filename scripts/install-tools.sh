#!/usr/bin/env bash
# Installs from Debian what `make test` (GROUP test) and `make deb` (GROUP packaging) need and
# this machine lacks, after one index update: on a fresh machine one update and one install
# per group, where each tool had its own. Root only; otherwise it says what to install.
#
#   scripts/install-tools.sh GROUP...
set -euo pipefail
# command:package. msgfmt compiles the catalogues; the terminal UI's tests drive qna in tmux; the proxy tests run tinyproxy,
# dante and nginx; the pages' tests Chromium, zbarimg (QR codes) and tidy; their scripts' tests
# Node and TypeScript's checker.
test_tools="msgfmt:gettext tmux:tmux tinyproxy:tinyproxy /usr/sbin/danted:dante-server /usr/sbin/nginx:nginx-light
  zbarimg:zbar-tools tidy:tidy chromium:chromium node:nodejs tsc:node-typescript"
# `make deb` and its test: shared-library dependencies, lintian, the unit's check, the user, the
# man pages' rendering and index.
packaging_tools="dpkg-shlibdeps:dpkg-dev lintian:lintian systemd-analyze:systemd /usr/sbin/adduser:adduser
  groff:groff-base lexgrog:man-db"
missing() {
  for tool in "$@"; do command -v "${tool%%:*}" >/dev/null || printf ' %s' "${tool#*:}"; done
}
tests="" packaging=""
for group in "$@"; do
  case $group in
  test)
    # shellcheck disable=SC2086
    tests=$(missing $test_tools)
    # The scale-out tests start throwaway PostgreSQL servers (initdb and pg_ctl, not on PATH).
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || tests="$tests postgresql"
    # The translations' tests need the locales: compiled already, or their sources (`make
    # locales` compiles them).
    for l in de_DE es_ES pl_PL; do
      locale -a | grep -qix "$l.utf8" || [ -f "/usr/share/i18n/locales/$l" ] \
        || { tests="$tests locales"; break; }
    done
    ;;
  # shellcheck disable=SC2086
  packaging) packaging=$(missing $packaging_tools) ;;
  *) echo "install-tools.sh: no group $group (test, packaging)" >&2; exit 2 ;;
  esac
done
[ -z "$tests$packaging" ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "make needs:$tests$packaging (apt-get install$tests$packaging)" >&2
  exit 1
fi
apt-get update -q
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
[ -z "$tests" ] || apt-get install -y -q $tests
# The packaging tools without their recommends (a compiler, fakeroot, gnupg: unused here).
# shellcheck disable=SC2086
[ -z "$packaging" ] || apt-get install -y -q --no-install-recommends $packaging

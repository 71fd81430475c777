#!/usr/bin/env bash
# What tests/functional/test_site.py needs besides the Python packages: Debian's Chromium and CJK fonts (installed only when
# missing). The playwright Python package that drives it comes from requirements/test.in (scripts/test.sh); it drives
# the system Chromium (/usr/bin/chromium): its own `playwright install` would download a browser build, which this
# project never does.
#
#   bash scripts/install_test_deps.sh        (as root, or with sudo available)
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null | grep -q "install ok installed" || missing+=(fonts-noto-cjk)

if [ "${#missing[@]}" -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

#!/usr/bin/env bash
# Installs what the browser tests (scripts/e2e.sh, scripts/google-client.sh) need, only what is
# missing (idempotent): Debian's chromium and chromium-driver, a font with Chinese glyphs (the
# page's Simplified Chinese in the screenshots), Go (golang-go, for the Go Picker API client), and
# Python's selenium and axe-selenium-python (for axe-core) from PyPI for the python3 on PATH.
set -euo pipefail

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

missing=()
for package in chromium chromium-driver fonts-wqy-microhei golang-go; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)

if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# selenium drives the browser; axe-selenium-python brings axe-core (axe.min.js), the accessibility
# rules the pages are checked against (Tests/E2E/e2e_axe.py).
pip_install() {
  echo "Installing $1 (PyPI) for $(command -v python3)"
  # Debian's own python3 is "externally managed" (PEP 668): pip refuses to install into it unless
  # told to. A pyenv or venv python3 takes the plain install.
  if ! output=$(python3 -m pip install --quiet "$1" 2>&1); then
    if grep -q "externally-managed-environment" <<<"$output"; then
      python3 -m pip install --quiet --break-system-packages "$1"
    else
      echo "$output" >&2
      exit 1
    fi
  fi
}
python3 -c "import selenium" >/dev/null 2>&1 || pip_install selenium
python3 -c "import axe_selenium_python" >/dev/null 2>&1 || pip_install axe-selenium-python

for tool in chromium chromedriver; do
  command -v "$tool" >/dev/null 2>&1 || { echo "install-e2e-dependencies.sh: $tool is not on PATH" >&2; exit 1; }
done

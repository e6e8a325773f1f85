#!/usr/bin/env bash
# Installs the system packages AssetsPicker needs on Debian (PostgreSQL's server among them, which the
# tests start on their own), and moto's S3 server for the tests, only those missing (idempotent).
set -euo pipefail

packages=(
  pkg-config libvips-dev     # image decoding and encoding (the C shim links libvips)
  libturbojpeg0-dev          # turning small JPEGs (embedded thumbnails) upright fast
  libjpeg-dev                # JPEG thumbnails decoded row by row at a reduced scale (libjpeg API)
  libheif-dev                # grid HEIC photos decoded one tile at a time (the C shim links libheif)
  ffmpeg                     # video duration, size and poster frames
  libvips-tools              # vipsthumbnail: the peer the benchmarks compare against
  libjpeg-turbo-progs        # djpeg: the decode floor the benchmarks print
  imagemagick                # convert: the other benchmark peer
  libimage-exiftool-perl     # exiftool: the tests' second reader and writer of metadata (location-free originals)
  postgresql                 # the index on PostgreSQL: its tests start a server of their own (Tests/PostgresSupport)
  nginx                      # one address in front of several servers: the cluster tests and scripts/cluster.sh run their own
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

# moto's S3 server (PyPI moto[server]): the real S3 server the S3Storage tests start
# (Tests/S3Support/MotoServer.swift). Installed for the python3 on PATH; as a user without
# write access to its site-packages, pip puts moto_server in ~/.local/bin, where the tests look too.
has_moto() {
  { command -v moto_server >/dev/null 2>&1 || [ -x "$HOME/.local/bin/moto_server" ]; } &&
    python3 -c "import moto.server" >/dev/null 2>&1
}
if ! has_moto && ! python3 -m pip --version >/dev/null 2>&1; then
  missing+=(python3-pip)
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  # nginx and PostgreSQL are only run by the tests and scripts, on their own configurations:
  # RUNLEVEL=1 keeps Debian from starting its own services.
  DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! has_moto; then
  echo "Installing moto[server] (PyPI) for $(command -v python3)"
  # Debian's own python3 is "externally managed" (PEP 668): pip refuses to install into it unless
  # told to. A pyenv or venv python3 takes the plain install.
  if ! output=$(python3 -m pip install --quiet --no-warn-script-location "moto[server]" 2>&1); then
    if grep -q "externally-managed-environment" <<<"$output"; then
      python3 -m pip install --quiet --no-warn-script-location --break-system-packages "moto[server]"
    else
      echo "$output" >&2
      exit 1
    fi
  fi
  has_moto || { echo "install-dependencies.sh: moto_server is neither on PATH nor in ~/.local/bin after installing moto[server]" >&2; exit 1; }
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "swift is not on PATH: install Swift 6.1 or later (https://www.swift.org/install/linux/)" >&2
  exit 1
fi

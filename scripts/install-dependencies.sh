#!/usr/bin/env bash
# Installs the system packages AssetsPicker needs on Debian, only those missing (idempotent).
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
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "swift is not on PATH: install Swift 6.1 or later (https://www.swift.org/install/linux/)" >&2
  exit 1
fi

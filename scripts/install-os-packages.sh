#!/usr/bin/env bash
# Installs the OS packages Refract's engines use, from Debian/Ubuntu's own repositories,
# when they are missing and we may (root, or sudo without a password). Never fatal:
# anything skipped is named, with what it disables.
set -u

declare -A DISABLES=(
  [ffmpeg]="audio and video tools, and image to gif/mp4/webm/mov"
  [chromium]="HTML to image, and the browser tests"
  [fonts-dejavu-core]="nothing critical (fallback Latin font)"
  [fonts-noto-core]="correct Arabic and other scripts in HTML to image"
  [fonts-noto-cjk]="Chinese and Japanese text in HTML to image"
  [fonts-noto-color-emoji]="colour emoji in HTML to image (they render as outlines or boxes)"
  [libheif-examples]="HEIC/HEIF reading and writing (heif-convert, heif-enc)"
  [pngquant]="only the pngquant column of the compression benchmark"
  [jpegoptim]="only the jpegoptim column of the compression benchmark"
  [libjemalloc2]="nothing: npm start then limits glibc's malloc to 2 arenas instead (memory comes back less readily)"
  [imagemagick]="only the ImageMagick CLI column of the image benchmark and a test's colour profile (Refract never shells out to it)"
  [gifsicle]="lossy GIF compression (Compress then re-encodes GIFs with libvips alone, which rarely shrinks an optimised GIF)"
  [build-essential]="npm ci, when better-sqlite3 has no prebuilt binary to fetch and must compile"
  [python3]="npm ci, when better-sqlite3 has no prebuilt binary to fetch and must compile (node-gyp)"
  [stress-ng]="only CI's load beside the unit tests (the check that they hold on a busy machine)"
  [prometheus]="only the check of the alert rules with promtool (the test skips without it)"
)
PACKAGES=(ffmpeg chromium fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji libheif-examples gifsicle libjemalloc2 imagemagick pngquant jpegoptim stress-ng build-essential python3)
# CI's tools that the app never uses, kept out of the image: Debian's prometheus is a whole
# server (over 300 MB with what it pulls in), wanted here for its promtool alone.
if [ "${1:-}" = "--with-ci-tools" ]; then
  PACKAGES+=(prometheus)
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "OS packages: all present (${PACKAGES[*]})."
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  runner=""
elif [ "$(id -u)" -eq 0 ]; then
  runner="env"
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  runner="sudo"
else
  runner=""
fi

if [ -n "$runner" ]; then
  echo "OS packages: installing ${missing[*]} ..."
  $runner DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null 2>&1 || true
  $runner DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 \
    || echo "OS packages: apt-get install failed; continuing without them."
fi

for pkg in "${missing[@]}"; do
  if ! dpkg -s "$pkg" >/dev/null 2>&1; then
    echo "OS packages: SKIPPED $pkg (no apt-get, or not allowed to install). Disabled: ${DISABLES[$pkg]}."
  fi
done
exit 0

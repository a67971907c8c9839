#!/usr/bin/env bash
# Builds the Debian package from a configured build directory:
#   bash packaging/build-deb.sh [BUILD_DIR] [OUT_DIR]
# BUILD_DIR defaults to build/ (configured with cmake, e.g. `cmake --preset dev`); OUT_DIR to
# BUILD_DIR. Builds everything first, then runs `cpack -G DEB`; prints the .deb's path last.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${1:-build}
out=${2:-$build}
jobs=${GAPSTUDIO_JOBS:-2}

if [[ ! -f "$build/CPackConfig.cmake" ]]; then
    echo "build-deb: $build is not a configured build directory (no CPackConfig.cmake)" >&2
    exit 2
fi
cmake --build "$build" -j "$jobs"
mkdir -p "$out"
out=$(cd "$out" && pwd)
(cd "$build" && cpack -G DEB -B "$out" >/dev/null)
deb=$(ls -t "$out"/gapstudio_*.deb | head -n 1)
echo "build-deb: $(dpkg-deb -f "$deb" Package Version Architecture | tr '\n' ' ')" >&2
echo "$deb"

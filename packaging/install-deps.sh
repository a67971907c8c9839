#!/usr/bin/env bash
# Installs the Debian 12 packages GapStudio needs to build, test and run. Idempotent: packages that
# are already installed are skipped, and `apt-get update` runs only if something is missing.
# Run as root (uses sudo when not root and sudo exists).
set -euo pipefail

packages=(
    # toolchain and build
    build-essential g++ cmake ninja-build git pkg-config
    # libraries (header-only: nlohmann-json, Eigen)
    qt6-base-dev qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6
    nlohmann-json3-dev libeigen3-dev
    # runtime: Qt platform plugins (xcb, offscreen), fonts for readable text
    qt6-qpa-plugins fonts-dejavu-core
    # headless GUI runs (xvfb-run needs xauth)
    xvfb xauth
    # packaging: CPack's DEB generator with SHLIBDEPS uses dpkg-shlibdeps and file
    dpkg-dev file
    # report tests read the PDF's text (pdftotext); pdftoppm turns pages into images to look at
    poppler-utils
    # optional: gapstudio-grid-mpi (the grid over MPI ranks) and its CTest
    libopenmpi-dev openmpi-bin
)

missing=()
for pkg in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
    [[ "$status" == ii* ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
    echo "install-deps: all ${#packages[@]} packages already installed"
    exit 0
fi

sudo=()
if ((EUID != 0)); then
    if command -v sudo >/dev/null 2>&1; then
        sudo=(sudo)
    else
        echo "install-deps: missing packages (${missing[*]}) and not root; run as root" >&2
        exit 1
    fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}"

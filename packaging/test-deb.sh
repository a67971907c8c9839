#!/usr/bin/env bash
# CTest `packaging_deb`: builds the .deb from BUILD_DIR, extracts it into a temporary root with
# dpkg-deb -x (no root install needed) and runs the extracted programs from there:
#   bash packaging/test-deb.sh BUILD_DIR [CPACK]
# Checks: the Depends line (Qt libraries, QCustomPlot, qt6-qpa-plugins), the installed files,
# `gapstudio-cli --version`, and `gapstudio-cli eval` of the default scenario and of a scenario
# whose GPU exists only in the extracted presets (so the CLI provably reads
# <root>/usr/share/gapstudio/presets, not the source tree). When the installed app takes
# --export-report, it also writes the default report and, from the extracted-only GPU, the charts
# headless. Exit 77 (skip) without dpkg-deb.
set -euo pipefail

build=$(cd "${1:?usage: test-deb.sh BUILD_DIR [CPACK]}" && pwd)
cpack=${2:-cpack}
command -v dpkg-deb >/dev/null || { echo "test-deb: dpkg-deb not found; skipping"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test-deb: FAIL: $*" >&2; exit 1; }

# 1. Build the package (into the temporary folder, leaving the build directory clean).
(cd "$build" && "$cpack" -G DEB -B "$tmp/out" >"$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$tmp"/out/gapstudio_*.deb 2>/dev/null | head -n 1)
[[ -n "$deb" ]] || fail "no gapstudio_*.deb in $tmp/out"
echo "test-deb: built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"

# 2. Its metadata and contents.
depends=$(dpkg-deb -f "$deb" Depends)
echo "test-deb: Depends: $depends"
[[ "$depends" == *qt6-qpa-plugins* ]] || fail "Depends lacks qt6-qpa-plugins"
if [[ -x "$build/bin/gapstudio" ]]; then
    for lib in libqt6widgets6 libqt6gui6 libqt6core6 libqcustomplot; do
        [[ "$depends" == *"$lib"* ]] || fail "Depends lacks $lib (SHLIBDEPS)"
    done
fi
contents=$(dpkg-deb -c "$deb")
expected=(./usr/bin/gapstudio-cli ./usr/share/gapstudio/presets/scenarios/default.gapstudio.json
          ./usr/share/gapstudio/presets/gpus/nvidia-h100-sxm-80gb.json)
if [[ -x "$build/bin/gapstudio" ]]; then
    expected+=(./usr/bin/gapstudio ./usr/share/applications/gapstudio.desktop
               ./usr/share/icons/hicolor/scalable/apps/gapstudio.svg)
fi
for file in "${expected[@]}"; do
    grep -q " $file\$" <<<"$contents" || fail "the package lacks $file"
done

# 3. Extract and run from the temporary root, away from the source tree.
root="$tmp/root"
dpkg-deb -x "$deb" "$root"
cli="$root/usr/bin/gapstudio-cli"
presets="$root/usr/share/gapstudio/presets"
cd "$tmp"
version=$("$cli" --version) || fail "gapstudio-cli --version"
echo "test-deb: gapstudio-cli --version: $version"
[[ "$version" == *"$(dpkg-deb -f "$deb" Version)"* ]] || fail "version \"$version\" is not the package's"

"$cli" eval "$presets/scenarios/default.gapstudio.json" >"$tmp/default.json" || fail "gapstudio-cli eval default"
grep -q '"total_time"' "$tmp/default.json" || fail "eval printed no total_time"

# A GPU that only the extracted presets know: eval succeeds only if the installed CLI reads them.
sed 's/"id": "nvidia-h100-sxm-80gb"/"id": "test-deb-only-gpu"/' "$presets/gpus/nvidia-h100-sxm-80gb.json" \
    >"$presets/gpus/test-deb-only-gpu.json"
sed 's/"gpu": "[^"]*"/"gpu": "test-deb-only-gpu"/' "$presets/scenarios/gpt3-175b-4096-h100-fp8.gapstudio.json" \
    >"$tmp/installed-only.gapstudio.json"
"$cli" eval "$tmp/installed-only.gapstudio.json" >"$tmp/installed-only.json" \
    || fail "gapstudio-cli did not find its presets at ../share/gapstudio/presets"
echo "test-deb: the extracted gapstudio-cli reads ../share/gapstudio/presets"

if command -v desktop-file-validate >/dev/null && [[ -f "$root/usr/share/applications/gapstudio.desktop" ]]; then
    desktop-file-validate "$root/usr/share/applications/gapstudio.desktop" || fail "desktop file"
fi

# 4. The app, headless, when its main() offers the exports (views/report/headless.h).
app="$root/usr/bin/gapstudio"
if [[ -x "$app" ]] && QT_QPA_PLATFORM=offscreen "$app" --help 2>/dev/null | grep -q -- --export-report; then
    QT_QPA_PLATFORM=offscreen "$app" --export-report "$tmp/report.pdf" >/dev/null || fail "gapstudio --export-report"
    head -c 5 "$tmp/report.pdf" | grep -q '%PDF-' || fail "the report is not a PDF"
    QT_QPA_PLATFORM=offscreen "$app" --scenario "$tmp/installed-only.gapstudio.json" --export-charts "$tmp/charts" \
        >/dev/null || fail "the installed gapstudio did not find its presets at ../share/gapstudio/presets"
    echo "test-deb: the extracted gapstudio wrote the default report and charts headless, from its own presets"
else
    echo "test-deb: note: the installed gapstudio has no --export-report yet; app not run"
fi
echo "test-deb: OK"

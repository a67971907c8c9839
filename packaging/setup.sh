#!/usr/bin/env bash
# The two newcomer commands of the README, run from the repository root:
#   bash packaging/setup.sh run    install dependencies, build (preset dev) and start GapStudio
#   bash packaging/setup.sh test   install dependencies, then build and run the whole test suite
#                                  twice: preset ci (warnings as errors) with the mutation check
#                                  (tests/mutation-check.sh), then preset asan-ubsan (the reader
#                                  fuzzer, tests/fuzz, and every suite but the studio's, under the
#                                  sanitizers)
# Installing packages needs root; as another user the installer uses sudo. Exits non-zero on any
# failure. GAPSTUDIO_JOBS (default 2) sets the build parallelism.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs=${GAPSTUDIO_JOBS:-2}

usage()
{
    echo "usage: bash packaging/setup.sh run|test" >&2
    exit 2
}

step()
{
    printf '\n==> %s\n' "$*"
}

# phase NAME COMMAND...: runs a phase of the test command and records its wall time, so that the
# closing summary says where CI's minutes went. Returns the command's status.
phase_names=() phase_seconds=()
phase()
{
    local name=$1 start=$SECONDS status=0
    shift
    "$@" || status=$?
    phase_names+=("$name") phase_seconds+=($((SECONDS - start)))
    printf '==> phase "%s": %d s (exit %d)\n' "$name" $((SECONDS - start)) "$status"
    return "$status"
}

print_phases()
{
    local i
    printf '\nPhase times (wall clock, %s cores):\n' "$(nproc)"
    for i in "${!phase_names[@]}"; do
        printf '  %-28s %5d s\n' "${phase_names[$i]}" "${phase_seconds[$i]}"
    done
    printf '  %-28s %5d s\n' "total" "$SECONDS"
}

build()
{
    local preset=$1
    step "configure and build (preset $preset)"
    cmake --preset "$preset" && cmake --build --preset "$preset" -j "$jobs"
}

cmd_run()
{
    bash packaging/install-deps.sh
    build dev
    if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
        echo "note: neither DISPLAY nor WAYLAND_DISPLAY is set, so GapStudio runs on a virtual" \
            "X server (xvfb-run) and its window is not visible. Press Ctrl+C to stop it."
        exec xvfb-run -a -s "-screen 0 1280x800x24" build/bin/gapstudio
    fi
    exec build/bin/gapstudio
}

cmd_test()
{
    phase "install dependencies" bash packaging/install-deps.sh

    # Headless: Qt's offscreen platform, and a private runtime directory (Qt wants mode 0700).
    export QT_QPA_PLATFORM=offscreen
    XDG_RUNTIME_DIR=$(mktemp -d) # mktemp -d creates it with mode 0700
    export XDG_RUNTIME_DIR
    trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT

    local failed=()

    # A build that fails ends the run (set -e); a failing test phase is recorded and the rest runs.
    phase "build (preset ci)" build ci
    step "test (preset ci)"
    phase "test (preset ci)" ctest --preset ci || failed+=("ctest --preset ci")

    # Do the tests bite? Known mutations, each rebuilt into the tests and programs named for it.
    # The check compiles, links or runs one thing at a time, so the asan-ubsan build (its own
    # tree, build-asan/) runs beside it on the cores it leaves; the build's log follows the check's.
    step "mutation check (tests/mutation-check.sh on build/), beside the asan-ubsan build"
    local asan_log=$XDG_RUNTIME_DIR/build-asan.log asan_result=$XDG_RUNTIME_DIR/build-asan.result
    (
        start=$SECONDS status=0
        build asan-ubsan >"$asan_log" 2>&1 || status=$?
        echo "$status $((SECONDS - start))" >"$asan_result"
    ) &
    local asan_pid=$! asan_status asan_seconds
    phase "mutation check" bash tests/mutation-check.sh build || failed+=("tests/mutation-check.sh")
    wait "$asan_pid" || true
    cat "$asan_log"
    read -r asan_status asan_seconds <"$asan_result"
    phase_names+=("build (preset asan-ubsan)") phase_seconds+=("$asan_seconds")
    printf '==> phase "%s": %d s (exit %d; began with the mutation check)\n' "build (preset asan-ubsan)" \
        "$asan_seconds" "$asan_status"
    ((asan_status == 0)) || exit "$asan_status"

    step "test (preset asan-ubsan)"
    # Any sanitizer report aborts the test: ASAN_OPTIONS/UBSAN_OPTIONS are in the test preset.
    # The reader fuzzer (fuzz_readers) runs here too; its summary line is repeated below.
    phase "test (preset asan-ubsan)" ctest --preset asan-ubsan || failed+=("ctest --preset asan-ubsan")
    grep -h '^fuzz_readers: ' build-asan/Testing/Temporary/LastTest.log || failed+=("fuzz_readers (no summary)")
    print_phases

    if ((${#failed[@]} > 0)); then
        printf '\nFAILED: %s\n' "${failed[@]}" >&2
        exit 1
    fi
    printf '\nAll tests passed (ci and asan-ubsan).\n'
}

case "${1:-}" in
run) cmd_run ;;
test) cmd_test ;;
*) usage ;;
esac

#!/usr/bin/env bash
# Do the tests bite? Applies each known mutation below to a copy of the sources and checks that
# the tests named for it fail. Run after a build of the tests (preset ci):
#
#   bash tests/mutation-check.sh [BUILD_DIR]        (default: build/)
#
# Only what a mutation touches is rebuilt: the mutated copy of one .cpp of the model, views, app or
# CLI libraries or of a program's own sources (or, for a header of inline code, of every model or
# views source that includes it) is compiled with the build's own command (ninja -t commands) into
# BUILD_DIR/mutation/; the named test executables are relinked there with those objects in front
# of the libraries (the linker then never takes the originals from the archive), and so are the
# programs those tests start (gapstudio-cli, gapstudio-grid-mpi, gapstudio), in place in
# BUILD_DIR/bin for the mutation's run and restored after it. Each test is first run unmutated and
# must pass.
# The script fails loudly if a mutation's original text is not found exactly once in its file
# (the code drifted: update the list) and fails if any mutation survives.
#
# A mutation (in tests/mutations/*.sh): the file, the exact original text (one line), its
# replacement, and the tests that must fail: "tst_x" or "tst_x:function,function" (Qt Test
# functions, to run only those), several separated by spaces (the mutation is caught when any fails).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
work=$build/mutation
export QT_QPA_PLATFORM=offscreen

names=() files=() originals=() replacements=() tests=()
mutation()
{
    names+=("$1") files+=("$2") originals+=("$3") replacements+=("$4") tests+=("$5")
}

# ---- The mutations --------------------------------------------------------------------------
# One file per area in tests/mutations/, each a list of `mutation` calls. MUTATION_FILTER (an
# extended regular expression) runs only the mutations whose names match, e.g. while writing one.
for list in "$root"/tests/mutations/*.sh; do
    # shellcheck source=/dev/null
    source "$list"
done
# Every entry's text must occur exactly once in its file, filtered or not: a list that drifted
# from the code fails here, before anything is built, naming every stale entry.
drifted=0
for i in "${!names[@]}"; do
    count=$(grep -c -F -- "${originals[$i]}" "$root/${files[$i]}" 2>/dev/null || true)
    if [[ $count != 1 ]]; then
        echo "mutation-check: '${names[$i]}': the original text occurs ${count:-0} times in" \
            "${files[$i]} (the code drifted; update tests/mutations/):" >&2
        echo "    ${originals[$i]}" >&2
        drifted=1
    fi
done
((drifted == 0)) || exit 1
if [[ -n ${MUTATION_FILTER:-} ]]; then
    keep=()
    for i in "${!names[@]}"; do
        grep -qE -- "$MUTATION_FILTER" <<<"${names[$i]}" && keep+=("$i")
    done
    ((${#keep[@]} > 0)) || { echo "mutation-check: no mutation matches '$MUTATION_FILTER'" >&2; exit 1; }
    for list in names files originals replacements tests; do
        declare -n all=$list
        picked=()
        for i in "${keep[@]}"; do
            picked+=("${all[$i]}")
        done
        all=("${picked[@]}")
        unset -n all
    done
fi

# ---- The check ------------------------------------------------------------------------------
start=$SECONDS
rm -rf "$work"
mkdir -p "$work/src" "$work/bin"
# 1. A copy of the sources the mutations touch (tracked files only).
(cd "$root" && git ls-files -z -- model views app | tar --null -T - -cf -) | tar -xf - -C "$work/src"

# The tests named by the list, built (normally they already are) and passing unmutated.
declare -A baseline=()
for specs in "${tests[@]}"; do
    for spec in $specs; do
        baseline[$spec]=1
    done
done
executables=$(printf '%s\n' "${!baseline[@]}" | cut -d: -f1 | sort -u)
ninja -C "$build" $(printf 'bin/%s ' $executables) bin/tst_calculon_parity >/dev/null

run_test()
{ # run_test EXECUTABLE SPEC: 0 if the named test functions pass
    local exe=$1 spec=$2 functions=()
    [[ $spec == *:* ]] && IFS=, read -r -a functions <<<"${spec#*:}"
    (cd "$work" && timeout 600 "$exe" "${functions[@]}" >"$work/last.log" 2>&1)
}

for spec in "${!baseline[@]}"; do
    if ! run_test "$build/bin/${spec%%:*}" "$spec"; then
        cat "$work/last.log" >&2
        echo "mutation-check: $spec fails without any mutation: fix it first" >&2
        exit 1
    fi
done

# The programs the tests start as separate processes (the CLI, the MPI runner, the studio) are
# relinked too, in place, when a named test runs them (its compile command defines GAPSTUDIO_CLI,
# GAPSTUDIO_GRID_MPI or GAPSTUDIO_GUI: the program's path in build/bin). The originals are kept
# in $work/programs and put back after each mutation and when the script ends, however it ends.
declare -A program_macro=([gapstudio-cli]=GAPSTUDIO_CLI [gapstudio-grid-mpi]=GAPSTUDIO_GRID_MPI
    [gapstudio]=GAPSTUDIO_GUI)
mkdir -p "$work/programs"
for program in "${!program_macro[@]}"; do
    [[ -f $build/bin/$program ]] && cp -p "$build/bin/$program" "$work/programs/$program"
done
restore_programs()
{
    local program
    for program in "${!program_macro[@]}"; do
        [[ -f $work/programs/$program ]] && cp -p "$work/programs/$program" "$build/bin/$program"
    done
    return 0
}
trap restore_programs EXIT

programs_run_by()
{ # programs_run_by EXECUTABLE: the programs (above) that the test executable starts
    local exe=$1 program commands
    commands=$(ninja -C "$build" -t commands "bin/$exe" | grep -F -- " -c " || true)
    for program in "${!program_macro[@]}"; do
        if [[ -f $work/programs/$program ]] && grep -qF -- "-D${program_macro[$program]}=" <<<"$commands"; then
            echo "$program"
        fi
    done
}

mutant_flags()
{ # mutant_flags COMMAND: a compile command as a mutant is built: -O1 and no LTO form, which
  # compiles in about half the time. The result is the same: without -ffast-math and on x86-64
  # (SSE2, no FMA contraction in ISO C++ mode) GCC's optimisation levels give the same floating-point
  # results; the check below (an unmutated object built this way passes its tests) guards that.
    local command=$1
    command=${command//" -O3 "/" -O1 "}
    command=${command//" -O2 "/" -O1 "}
    command=${command//" -flto=auto"/}
    command=${command//" -ffat-lto-objects"/}
    # The hot path's code-generation options (model/CMakeLists.txt): how a clear or copy of a
    # known size is emitted, and GCC's interprocedural pointer analysis. Neither changes a
    # result; at -O1 GCC 12 then warns about bounds it cannot prove (-Warray-bounds).
    command=$(sed -E 's/ -mmem(set|cpy)-strategy=[^ ]+//g; s/ -fipa-pta//g' <<<"$command")
    # Nor its profile (model/CMakeLists.txt, GAPSTUDIO_HOT_PATH_PGO): the counts were trained on
    # the unmutated source, and GCC refuses a profile whose function's control flow changed.
    command=$(sed -E 's/ -fprofile-(use|partial-training)//g; s/ -Wno-missing-profile//g;
        s/ --param=profile-func-internal-id=1//g' <<<"$command")
    printf '%s' "$command"
}

object_of()
{ # object_of SOURCE: the object that the libraries or the programs compile SOURCE into
    local source=$1 object
    for object in $(ninja -C "$build" -t targets all | cut -d: -f1 | grep -E "/$(basename "$source")\.o\$" |
        grep -E '(gapstudio_(model|model_core|views|app|cli_common)|gapstudio-cli|gapstudio-grid-mpi|gapstudio)\.dir/' ||
        true); do
        if ninja -C "$build" -t commands "$object" | tail -1 | grep -qF -- " -c $root/$source"; then
            echo "$object"
            return 0
        fi
    done
}

dependents()
{ # dependents HEADER: the model and views objects whose recorded dependencies include HEADER
    local header=$1 object
    for object in $(ninja -C "$build" -t targets all | grep -oE '^[^:]+gapstudio_(model|model_core|views)\.dir/[^:]+\.o'); do
        # (grep reads all of its input: with -q, sed could die of SIGPIPE and pipefail say "no")
        if ninja -C "$build" -t deps "$object" | sed 's/^ *//' | grep -E "(^|/)${header//./\\.}\$" >/dev/null; then
            echo "$object"
        fi
    done
}

# The mutants' flags change no result: the bit-exact parity suite passes with the layer costs
# (an unmutated layers.cpp) compiled as a mutant is.
guard_object=$(object_of model/src/engine/layers.cpp)
guard_compile=$(ninja -C "$build" -t commands "$guard_object" | tail -1)
guard_compile=${guard_compile/" -o $guard_object"/" -o $work/guard.o"}
guard_compile=$(mutant_flags "$(sed -E 's/ -MD -MT [^ ]+ -MF [^ ]+//' <<<"$guard_compile")")
guard_link=$(ninja -C "$build" -t commands bin/tst_calculon_parity | tail -1)
guard_link=${guard_link/" -o bin/tst_calculon_parity "/" -o $work/bin/tst_calculon_parity $work/guard.o "}
if ! (cd "$build" && eval "$guard_compile" && eval "$guard_link") >"$work/last.log" 2>&1 ||
    ! run_test "$work/bin/tst_calculon_parity" tst_calculon_parity; then
    cat "$work/last.log" >&2
    echo "mutation-check: an unmutated object built with the mutants' flags fails tst_calculon_parity" >&2
    exit 1
fi

survivors=() caught=0
for i in "${!names[@]}"; do
    file=${files[$i]} original=${originals[$i]} replacement=${replacements[$i]}
    copy=$work/src/$file
    count=$(grep -c -F -- "$original" "$copy" || true)
    if [[ $count != 1 ]]; then
        echo "mutation-check: '${names[$i]}': the original text occurs $count times in $file (the code" \
            "drifted; update tests/mutations/):" >&2
        echo "    $original" >&2
        exit 1
    fi
    # 2. Mutate the copy (a literal replacement), compile it with the build's command. A mutated
    # header (inline code) recompiles every library object that includes it, from the copy.
    mutation_start=$SECONDS
    cp "$copy" "$work/pristine"
    content=$(<"$copy")
    printf '%s\n' "${content/"$original"/"$replacement"}" >"$copy"
    if [[ $file == *.h ]]; then
        objects=$(dependents "$file")
    else
        # (|| true: with pipefail, a file in no library would end the script without a word)
        objects=$(object_of "$file")
    fi
    [[ -n $objects ]] || { echo "mutation-check: no object file for $file in $build" >&2; exit 1; }
    mutants=() n=0
    for object in $objects; do
        n=$((n + 1))
        source=$(ninja -C "$build" -t commands "$object" | tail -1 | grep -oE " -c [^ ]+" | cut -c5-)
        compile=$(ninja -C "$build" -t commands "$object" | tail -1)
        compile=${compile/" -c $source"/" -c $work/src/${source#"$root"/}"}
        compile=${compile//" -I$root/model/"/" -I$work/src/model/"}
        # the views' and the app's headers from the copy too (a mutated header is found there)
        compile=${compile//" -I$root/views "/" -I$work/src/views "}
        compile=${compile//" -I$root/app "/" -I$work/src/app "}
        compile=${compile/" -o $object"/" -o $work/mutant$n.o"}
        compile=$(sed -E 's/ -MD -MT [^ ]+ -MF [^ ]+//' <<<"$compile")
        compile=$(mutant_flags "$compile")
        if ! (cd "$build" && eval "$compile") >"$work/last.log" 2>&1; then
            cat "$work/last.log" >&2
            echo "mutation-check: '${names[$i]}' does not compile: fix the mutation" >&2
            exit 1
        fi
        mutants+=("$work/mutant$n.o")
    done
    mv "$work/pristine" "$copy" # the copy is whole again for the next mutation
    # 3. Relink the named tests and the programs they run with the mutant, and run the tests: at
    # least one must fail. A library object goes in front of the library (the archive's original
    # is then never taken); an object of a program's own sources replaces the original in that
    # program's link only (the tests do not link it).
    own=$(grep -oE '(gapstudio-cli|gapstudio-grid-mpi|gapstudio)\.dir' <<<"$objects" | head -1 || true)
    # (|| true: with pipefail, a program's own object, in no library, would end the script)
    # (the objects of gapstudio_model_core, an object library, are archived in gapstudio_model's)
    archive=lib$(grep -oE 'gapstudio_[a-z_]+\.dir' <<<"$objects" | head -1 | sed 's/\.dir$//; s/_core$//' || true).a
    relink()
    { # relink TARGET OUTPUT: TARGET's link with the mutant, or a copy if it does not link it
        local link
        link=$(ninja -C "$build" -t commands "bin/$1" | tail -1)
        # No link-time optimisation for a mutant: its objects are fat (native code too), and the
        # check measures behaviour, not speed (an LTO link of the CLI takes most of a mutation's time).
        link=${link//-flto=auto/-fno-lto}
        if [[ -n $own && $link != *" $objects "* ]] || [[ -z $own && $link != *"/$archive "* ]]; then
            [[ $2 == "$build/bin/$1" ]] || cp -p "$build/bin/$1" "$2"
            return 0
        fi
        if [[ -n $own ]]; then
            link=${link/" $objects "/" ${mutants[*]} "}
            link=${link/" -o bin/$1 "/" -o $2 "}
        else
            link=${link/" -o bin/$1 "/" -o $2 ${mutants[*]} "}
        fi
        (cd "$build" && eval "$link") >"$work/last.log" 2>&1 || {
            cat "$work/last.log" >&2
            echo "mutation-check: cannot link $1 with '${names[$i]}'" >&2
            exit 1
        }
    }
    compiled=$SECONDS link_seconds=0 test_seconds=0
    killed=0
    declare -A relinked=()
    for spec in ${tests[$i]}; do
        exe=${spec%%:*}
        for program in $(programs_run_by "$exe"); do
            if [[ -z ${relinked[$program]:-} ]]; then
                relink "$program" "$build/bin/$program"
                relinked[$program]=1
            fi
        done
        relink "$exe" "$work/bin/$exe"
        linked=$SECONDS
        link_seconds=$((link_seconds + linked - compiled))
        run_test "$work/bin/$exe" "$spec" || killed=1
        compiled=$SECONDS
        test_seconds=$((test_seconds + compiled - linked))
    done
    unset relinked
    restore_programs
    # seconds: the whole mutation, and its links and test runs (the rest is its compile)
    times="[$((SECONDS - mutation_start)) s: link $link_seconds, test $test_seconds]"
    if ((killed)); then
        caught=$((caught + 1))
        printf 'caught    %-55s (%s) %s\n' "${names[$i]}" "${tests[$i]}" "$times"
    else
        survivors+=("${names[$i]}")
        printf 'SURVIVED  %-55s (%s) %s\n' "${names[$i]}" "${tests[$i]}" "$times"
    fi
done

printf 'mutation-check: %d of %d mutations caught in %d s\n' "$caught" "${#names[@]}" $((SECONDS - start))
if ((${#survivors[@]} > 0)); then
    printf 'mutation-check: SURVIVED: %s\n' "${survivors[@]}" >&2
    exit 1
fi

#!/usr/bin/env bash
# Do the tests bite? Applies each known mutation below to a copy of the sources and checks that
# the tests named for it fail. Run after a build of the tests (preset ci):
#
#   bash tests/mutation-check.sh [BUILD_DIR]        (default: build/)
#
# Only what a mutation touches is rebuilt: the mutated copy of one .cpp of the model, views or app
# libraries (or, for a header of inline code, of every model or views source that includes it) is compiled with the build's own
# command (ninja -t commands) into BUILD_DIR/mutation/, and the named test executables are
# relinked there with those objects in front of the libraries (the linker then never takes the
# originals from the archive). Each test is first run unmutated and must pass.
# The script fails loudly if a mutation's original text is not found exactly once in its file
# (the code drifted: update the list) and fails if any mutation survives.
#
# A mutation: the file, the exact original text (one line), its replacement, and the tests that
# must fail: "tst_x" or "tst_x:function,function" (Qt Test functions, to run only those).
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
# analysis.cpp: the charts' data (model::analyze)
mutation "memory loss halved" model/src/analysis.cpp \
    '{"memory", "Memory-bound time", memory / total},' \
    '{"memory", "Memory-bound time", memory / total / 2},' \
    "tst_analysis:efficiencyGapByHand"
mutation "DP bytes without the sharded all-gather" model/src/analysis.cpp \
    'lp * o.block_dp_size * (exe.optimizerSharding ? 2.0 : 1.0), o.dp_comm_link_time,' \
    'lp * o.block_dp_size, o.dp_comm_link_time,' \
    "tst_analysis:tierTrafficByHand"
mutation "hidden TP communication ignores the exposed part" model/src/analysis.cpp \
    'hidden(o.tp_comm_link_time, o.tp_comm_exposed_time)' \
    'hidden(o.tp_comm_link_time, 0.0)' \
    "tst_analysis:stepBreakdownByHand"
mutation "HBM traffic without the optimizer step" model/src/analysis.cpp \
    'lp * o.block_optim_mem_accessed;' \
    '0.0;' \
    "tst_analysis:tierTrafficByHand"
mutation "tokens per second are samples per second" model/src/analysis.cpp \
    'a.tokensPerSecond = o.sample_rate * static_cast<double>(app.seqSize);' \
    'a.tokensPerSecond = o.sample_rate;' \
    "tst_analysis:stepBreakdownByHand"
# sweep.cpp: sweeps and sensitivity
mutation "HBM bandwidth not scaled" model/src/sweep.cpp \
    's.mem1.bandwidth_Bps *= factor;' \
    's.mem1.bandwidth_Bps *= 1.0;' \
    "tst_sweep:scaledChangesExactlyItsField"
mutation "scale-out scales the scale-up tier" model/src/sweep.cpp \
    's.networks.back().bandwidth_Bps *= factor;' \
    's.networks.front().bandwidth_Bps *= factor;' \
    "tst_sweep:scaledChangesExactlyItsField"
mutation "latency scaled on no tier" model/src/sweep.cpp \
    'n.latency_s *= factor;' \
    'n.latency_s *= 1.0;' \
    "tst_sweep:scaledChangesExactlyItsField"
mutation "scale-out value read from tier 0" model/src/sweep.cpp \
    'return s.networks.empty() ? 0 : s.networks.back().bandwidth_Bps;' \
    'return s.networks.empty() ? 0 : s.networks.front().bandwidth_Bps;' \
    "tst_sweep:sweepPointsAreTheScaledValues"
mutation "an unmoved parameter reported as elasticity 0" model/src/sweep.cpp \
    'if (upParam == downParam) {' \
    'if (false) {' \
    "tst_sweep:sensitivityFlagsAParameterThatDidNotMove"
# network.h and the model core
mutation "collective offset dropped" model/src/network.h \
    'size += chunk * cost.offset;' \
    'size += chunk;' \
    "tst_calculon_parity"
mutation "an operation's own efficiency ignored" model/src/network.h \
    'const double efficiency = cost.efficiency > 0 ? cost.efficiency : net.efficiency;' \
    'const double efficiency = net.efficiency;' \
    "tst_moe_parity:cases"
mutation "pipeline bubble one stage short" model/src/batch_stats.cpp \
    'o.bubble_time = dbl(exe.pipelinePar - 1) * chunkTime' \
    'o.bubble_time = dbl(exe.pipelinePar - 2) * chunkTime' \
    "tst_calculon_parity"
mutation "Adam moments in 2 bytes" model/src/layer_memory.h \
    'const double moments = l.optimSpace * 4;' \
    'const double moments = l.optimSpace * 2;' \
    "tst_calculon_parity"
mutation "eager RMSNorm forward one FP32 pass short" model/src/calibrated_cost.cpp \
    'return l.inputs * (fw ? 7 * f + 2 * b : 19 * f + 4 * b);' \
    'return l.inputs * (fw ? 6 * f + 2 * b : 19 * f + 4 * b);' \
    "tst_fidelity:eagerElementwiseKernels"
mutation "every expert on every GPU" model/src/moe_block.cpp \
    'const I localExperts = experts / ep; // e' \
    'const I localExperts = experts; // e' \
    "tst_moe_parity:cases"
# The input limits (range_checks.cpp, result_guard.cpp)
mutation "no count check" model/src/range_checks.cpp \
    'if (count.constant <= limits::kMaxCount)' \
    'if (true)' \
    "tst_limits:countsThatWouldOverflowNameTheLargestInput"
mutation "HBM bandwidth unchecked" model/src/range_checks.cpp \
    'c.require(sys.mem1.bandwidth_Bps, limits::kBandwidth, path("mem1/bandwidth"), "HBM bandwidth", "B/s");' \
    '(void)0;' \
    "tst_limits:systemRangesNameTheField"
mutation "final guard lets NaN through" model/src/result_guard.cpp \
    'if (std::isfinite(sum) && minimum >= 0)' \
    'if (true)' \
    "tst_limits:guardCatchesWhatTheRangesMiss"
# search.cpp
mutation "divisors repeat the square root" model/src/search.cpp \
    'if (c != x / c)' \
    'if (true)' \
    "tst_search:upstream"
mutation "hit positions not offset by their task" model/src/search.cpp \
    'candidate.hit.index += offsets[candidate.task];' \
    'candidate.hit.index += 0;' \
    "tst_search:largeTopKeepsEveryValidLayoutInOrder"
# search_bound.cpp: the bounded search's lower bound on the step time must stay a lower bound
mutation "step-time bound 1.5x too high" model/src/search_bound.cpp \
    'perTier[t] = dbl(exe.batchSize) / (time * (1 - 1e-9));' \
    'perTier[t] = dbl(exe.batchSize) / (1.5 * time * (1 - 1e-9));' \
    "tst_search:boundedEqualsExhaustive"
# Scenario compile (compile.cpp, resolve.cpp, locate.cpp)
mutation "tier latency not copied" model/src/scenario/compile.cpp \
    'tier.latency_s = link.latency_s;' \
    'tier.latency_s = 0;' \
    "tst_compile"
mutation "spine not oversubscribed" model/src/scenario/compile.cpp \
    'spine.bandwidth_Bps = r.scaleOut.bandwidth_Bps / topo.oversubscription;' \
    'spine.bandwidth_Bps = r.scaleOut.bandwidth_Bps;' \
    "tst_compile:threeTier"
mutation "HBM override in MB/s" model/src/scenario/resolve.cpp \
    '[](R &r, double v) { r.gpu.hbm.bandwidth_Bps = v * kBpsPerGBps; } },' \
    '[](R &r, double v) { r.gpu.hbm.bandwidth_Bps = v * 1e6; } },' \
    "tst_compile:overridesApply"
mutation "override ranges unchecked" model/src/scenario/resolve.cpp \
    'if (!std::isfinite(value) || !range.contains(value))' \
    'if (!std::isfinite(value))' \
    "tst_limits:overrideRanges"
mutation "diagnostics point at the layout despite an override" model/src/scenario/locate.cpp \
    'return override("layout." + key).value_or(in(mScenario.layout, "layout", key));' \
    'return in(mScenario.layout, "layout", key);' \
    "tst_limits:scenarioPointers"
# Exports (chartexport.cpp, report.cpp, headlessstatus.cpp)
mutation "CSV fields joined by semicolons" views/charts/chartexport.cpp \
    "csv += fields.join(',') + '\\n';" \
    "csv += fields.join(';') + '\\n';" \
    "tst_chartexport:exportWritesFormatWithProvenance"
mutation "SVG provenance not escaped" views/charts/chartexport.cpp \
    'generator.setDescription(json.toHtmlEscaped());' \
    'generator.setDescription(json);' \
    "tst_chartexport:exportWritesFormatWithProvenance"
mutation "PNG without its scenario" views/charts/chartexport.cpp \
    'image.setText(QString::fromLatin1(kPngScenarioKey), json);' \
    '(void)json;' \
    "tst_chartexport:exportWritesFormatWithProvenance"
mutation "XML depth unbounded" views/charts/chartexport.cpp \
    'if (++depth > kMaxXmlDepth) {' \
    'if (++depth < 0) {' \
    "tst_headless_errors:deeplyNestedSvgIsRefused"
mutation "report write failure reported as success" views/report/report.cpp \
    'return writeFileSafely(pdfPath, buffer.data(), error);' \
    'return writeFileSafely(pdfPath, buffer.data(), error) || true;' \
    "tst_headless_errors:unwritableReportIsExit3"
mutation "malformed scenario exported anyway" views/report/headlessstatus.cpp \
    'if (results.compiled && !scenario::isMalformedScenario(results.diagnostics))' \
    'if (results.compiled)' \
    "tst_headless_errors:guiAndCliAgreeOnAMalformedScenario"
mutation "a restored autosave left behind" views/studio/autosaver.cpp \
    'removeFiles(recovery.path);' \
    '(void)recovery;' \
    "tst_studiodocument:leftoversOfEndedSessionsAreOffered"
mutation "pinned designs' columns repeat the current design" views/results/resultstable.cpp \
    'mPinned.append({ pin.name, rowsOf(*pin.results) });' \
    'mPinned.append({ pin.name, mCurrent });' \
    "tst_mainwindow:pinnedScenariosSideBySide"
mutation "the report's N-way columns all the current design" views/report/reportcontent.cpp \
    'columns << keyMetrics(*pinned[i], tokenBudget);' \
    'columns << keyMetrics(current, tokenBudget);' \
    "tst_report:reportComparesSeveralPinnedDesigns"
mutation "variant labels cut off in a narrow chart" views/explore/variantschart.cpp \
    'upper = std::max(upper, label->position->coords().x() * width / (width - w));' \
    'upper = std::max(upper, w * 0);' \
    "tst_explorecharts:variantsAreSweepVariants"
mutation "an FP8 run's 16-bit GEMMs left to the library's calibration" model/src/scenario/calibrate.cpp \
    'c.gemmEfficiency[static_cast<std::size_t>(sixteen)] = value(x, b.gemm16);' \
    '(void)sixteen;' \
    "tst_real_runs:fitIgnoresTheLibrarysCalibration"
mutation "every software stack counted as calibrated" model/src/scenario/calibration_lookup.cpp \
    'a.softwareHasEntry = find(set->software, r.software.info.id) != nullptr;' \
    'a.softwareHasEntry = true;' \
    "tst_calibrationtext:typicalError"
mutation "the cost chart never compares with a pin" app/mainwindowcost.cpp \
    'cost->setBaseline(mPinned->first());' \
    'cost->setBaseline(nullptr);' \
    "tst_mainwindow:pinnedScenariosSideBySide"

# ---- The check ------------------------------------------------------------------------------
start=$SECONDS
rm -rf "$work"
mkdir -p "$work/src" "$work/bin"
# 1. A copy of the sources the mutations touch (tracked files only).
(cd "$root" && git ls-files -z -- model views app | tar --null -T - -cf -) | tar -xf - -C "$work/src"

# The tests named by the list, built (normally they already are) and passing unmutated.
declare -A baseline=()
for spec in "${tests[@]}"; do
    baseline[$spec]=1
done
executables=$(printf '%s\n' "${!baseline[@]}" | cut -d: -f1 | sort -u)
ninja -C "$build" $(printf 'bin/%s ' $executables) >/dev/null

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

dependents()
{ # dependents HEADER: the model and views objects whose recorded dependencies include HEADER
    local header=$1 object
    for object in $(ninja -C "$build" -t targets all | grep -oE '^[^:]+gapstudio_(model|views)\.dir/[^:]+\.o'); do
        # (grep reads all of its input: with -q, sed could die of SIGPIPE and pipefail say "no")
        if ninja -C "$build" -t deps "$object" | sed 's/^ *//' | grep -E "(^|/)${header//./\\.}\$" >/dev/null; then
            echo "$object"
        fi
    done
}

survivors=() caught=0
for i in "${!names[@]}"; do
    file=${files[$i]} original=${originals[$i]} replacement=${replacements[$i]}
    copy=$work/src/$file
    count=$(grep -c -F -- "$original" "$copy" || true)
    if [[ $count != 1 ]]; then
        echo "mutation-check: '${names[$i]}': the original text occurs $count times in $file (the code" \
            "drifted; update tests/mutation-check.sh):" >&2
        echo "    $original" >&2
        exit 1
    fi
    # 2. Mutate the copy (a literal replacement), compile it with the build's command. A mutated
    # header (inline code) recompiles every library object that includes it, from the copy.
    cp "$copy" "$work/pristine"
    content=$(<"$copy")
    printf '%s\n' "${content/"$original"/"$replacement"}" >"$copy"
    if [[ $file == *.h ]]; then
        objects=$(dependents "$file")
    else
        # (|| true: with pipefail, a file in no library would end the script without a word)
        objects=$(ninja -C "$build" -t targets all | grep -F "/${file#*/}.o:" |
            grep -E 'gapstudio_(model|views|app)\.dir' | head -1 | cut -d: -f1 || true)
    fi
    [[ -n $objects ]] || { echo "mutation-check: no object file for $file in $build" >&2; exit 1; }
    mutants=() n=0
    for object in $objects; do
        n=$((n + 1))
        source=$(ninja -C "$build" -t commands "$object" | tail -1 | grep -oE " -c [^ ]+" | cut -c5-)
        compile=$(ninja -C "$build" -t commands "$object" | tail -1)
        compile=${compile/" -c $source"/" -c $work/src/${source#"$root"/}"}
        compile=${compile//" -I$root/model/"/" -I$work/src/model/"}
        compile=${compile/" -o $object"/" -o $work/mutant$n.o"}
        compile=$(sed -E 's/ -MD -MT [^ ]+ -MF [^ ]+//' <<<"$compile")
        if ! (cd "$build" && eval "$compile") >"$work/last.log" 2>&1; then
            cat "$work/last.log" >&2
            echo "mutation-check: '${names[$i]}' does not compile: fix the mutation" >&2
            exit 1
        fi
        mutants+=("$work/mutant$n.o")
    done
    mv "$work/pristine" "$copy" # the copy is whole again for the next mutation
    # 3. Relink the named tests with the mutant and run them: at least one must fail.
    killed=0
    for spec in ${tests[$i]}; do
        exe=${spec%%:*}
        link=$(ninja -C "$build" -t commands "bin/$exe" | tail -1)
        link=${link/" -o bin/$exe "/" -o $work/bin/$exe ${mutants[*]} "}
        (cd "$build" && eval "$link") >"$work/last.log" 2>&1 || {
            cat "$work/last.log" >&2
            echo "mutation-check: cannot link $exe with '${names[$i]}'" >&2
            exit 1
        }
        run_test "$work/bin/$exe" "$spec" || killed=1
    done
    if ((killed)); then
        caught=$((caught + 1))
        printf 'caught    %-55s (%s)\n' "${names[$i]}" "${tests[$i]}"
    else
        survivors+=("${names[$i]}")
        printf 'SURVIVED  %-55s (%s)\n' "${names[$i]}" "${tests[$i]}"
    fi
done

printf 'mutation-check: %d of %d mutations caught in %d s\n' "$caught" "${#names[@]}" $((SECONDS - start))
if ((${#survivors[@]} > 0)); then
    printf 'mutation-check: SURVIVED: %s\n' "${survivors[@]}" >&2
    exit 1
fi

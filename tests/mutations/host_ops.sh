# Mutations of the MoE blocks' host operators (sourced by tests/mutation-check.sh; see its header
# for the format).
# shellcheck shell=bash
# host_ops.cpp: the hand counts
mutation "the router issues one operator fewer" model/src/engine/host_ops.cpp \
    'constexpr double kRouterHostOps = 28;' \
    'constexpr double kRouterHostOps = 27;' \
    "tst_host_ops:hostBoundPassesTakeTheOperatorsHostTime"
mutation "the fused router issues one operator more" model/src/engine/host_ops.cpp \
    'constexpr double kFusedRouterHostOps = 7;' \
    'constexpr double kFusedRouterHostOps = 8;' \
    "tst_host_ops:graphsAndFusionsTakeOperatorsOffTheHost"
mutation "a CUDA graph costs no launch" model/src/engine/host_ops.cpp \
    'return (scopes & scope) != 0 ? 1 : ops;' \
    'return (scopes & scope) != 0 ? 0 : ops;' \
    "tst_host_ops:graphsAndFusionsTakeOperatorsOffTheHost"
mutation "FP8 experts quantise one tensor fewer" model/src/engine/host_ops.cpp \
    'constexpr double kExpertHostOpsLowPrecision = 6;' \
    'constexpr double kExpertHostOpsLowPrecision = 5;' \
    "tst_host_ops:lowPrecisionExpertsQuantiseOnTheHost"
mutation "latent attention issues as many operators as standard attention" model/src/engine/host_ops.cpp \
    'constexpr double kLatentAttentionHostOps = 11;' \
    'constexpr double kLatentAttentionHostOps = 6;' \
    "tst_host_ops:deepSeekV3sLayerIssuesMoreOperators"
mutation "a low-rank query issues no operators of its own" model/src/engine/moe_block.cpp \
    'layer.lowRankQuery = app.qLoraRank > 0;' \
    'layer.lowRankQuery = false;' \
    "tst_host_ops:deepSeekV3sLayerIssuesMoreOperators"
mutation "the group-limited router counted as the softmax top-k router" model/src/engine/moe_block.cpp \
    'layer.groupLimitedRouter = app.routerGroups > 1;' \
    'layer.groupLimitedRouter = false;' \
    "tst_host_ops:deepSeekV3sLayerIssuesMoreOperators"
mutation "the fused group-limited router issues one kernel more" model/src/engine/host_ops.cpp \
    'constexpr double kFusedGroupLimitedRouterHostOps = 31;' \
    'constexpr double kFusedGroupLimitedRouterHostOps = 32;' \
    "tst_host_ops:deepSeekV3sLayerIssuesMoreOperators"
mutation "the shared expert issues nothing" model/src/engine/host_ops.cpp \
    'const double shared = layer.sharedExperts ? kSharedExpertHostOps : 0;' \
    'const double shared = 0;' \
    "tst_host_ops:deepSeekV3sLayerIssuesMoreOperators"
mutation "the LLM's router groups never reach the model" model/src/scenario/compile.cpp \
    'app.routerGroups = llm.routerGroups;' \
    'app.routerGroups = 0;' \
    "tst_compile:routerGroupsReachTheModel"
# host_ops.cpp, moe_block.cpp, evaluate.cpp: the wait
mutation "the dispatcher's wait lets the host hide behind the GPU" model/src/engine/host_ops.cpp \
    'const double fw = waits ? host : hidden(host, o.block_fw_time + comm.fwExposed(0));' \
    'const double fw = hidden(host, o.block_fw_time + comm.fwExposed(0));' \
    "tst_host_ops:theDispatchersWaitPutsTheForwardPassAtLaunchPace"
mutation "the backward pass issues as many operators as the forward" model/src/engine/host_ops.cpp \
    '= waits ? 2 * host : hidden(2 * host, o.block_agrad_time + o.block_wgrad_time + comm.bwExposed(0));' \
    '= waits ? 1 * host : hidden(2 * host, o.block_agrad_time + o.block_wgrad_time + comm.bwExposed(0));' \
    "tst_host_ops:hostBoundPassesTakeTheOperatorsHostTime"
mutation "the backward pass hides its host behind the GPU though the host waits" model/src/engine/host_ops.cpp \
    '= waits ? 2 * host : hidden(2 * host, o.block_agrad_time + o.block_wgrad_time + comm.bwExposed(0));' \
    '= hidden(2 * host, o.block_agrad_time + o.block_wgrad_time + comm.bwExposed(0));' \
    "tst_host_ops:theWaitPutsEveryPassAtLaunchPace"
mutation "the shipped calibration fitted with the backward pass hidden" model/src/engine/host_ops.cpp \
    '= waits ? 2 * host : hidden(2 * host, o.block_agrad_time + o.block_wgrad_time + comm.bwExposed(0));' \
    '= hidden(2 * host, o.block_agrad_time + o.block_wgrad_time + comm.bwExposed(0));' \
    "tst_real_runs:leaveOneGenerationOut"
mutation "a sync-free dispatcher's backward pass at launch pace" model/src/engine/host_ops.cpp \
    '= waits ? 2 * host : hidden(2 * host, o.block_agrad_time + o.block_wgrad_time + comm.bwExposed(0));' \
    '= 2 * host;' \
    "tst_host_ops:aSyncFreeDispatcherHidesTheHostBehindTheGpu"
mutation "the flex dispatcher's layer waits for the host too" model/src/engine/moe_block.cpp \
    'block.hostWaits = moeDispatcherSyncsHost(exe);' \
    'block.hostWaits = true;' \
    "tst_host_ops:theDispatchersWaitPutsTheForwardPassAtLaunchPace"
mutation "a GPU without its host is costed at no host time" model/src/engine/evaluate.cpp \
    'ctx.hostOpTime_s = hostOpTimeOrDefault(sys.hostOpTime_s);' \
    'ctx.hostOpTime_s = sys.hostOpTime_s;' \
    "tst_host_ops:aGpuWithoutItsHostUsesTheDocumentedDefault"
# block_stats.cpp, stages.cpp, analysis.cpp: the wait is named, not lumped with the fitted constant
mutation "the host wait counted as the fitted dispatcher overhead" model/src/engine/block_stats.cpp \
    'o.block_moe_sync_time = moe ? passes * ctx.calibration->moeBlockOverhead_s : 0;' \
    'o.block_moe_sync_time = hostWait + (moe ? passes * ctx.calibration->moeBlockOverhead_s : 0);' \
    "tst_host_ops:hostBoundPassesTakeTheOperatorsHostTime"
mutation "the critical stage's MTP layers' host wait dropped" model/src/engine/stages.cpp \
    'o.moe_host_wait_time += M * critical.ends.moeHostWait;' \
    'o.moe_host_wait_time += 0 * critical.ends.moeHostWait;' \
    "tst_host_ops:aMultiTokenPredictionLayerWaitsLikeAnMoeBlock"
mutation "the efficiency gap loses the host wait" model/src/engine/analysis.cpp \
    '{ kMoeHostOpsKey, kMoeHostOpsName, o.moe_host_wait_time / total },' \
    '{ kMoeHostOpsKey, kMoeHostOpsName, 0.0 },' \
    "tst_host_ops:hostBoundPassesTakeTheOperatorsHostTime"
# presets and the CLI: the recipes' settings reach the model, the fit costs the host on request
mutation "a GPU preset's host ignored" model/src/io/preset_hardware_blocks.cpp \
    'gpu.hostOpTime_s = numberIn(c["host_op_us"], 0, false) / kUsPerSecond;' \
    '(void)numberIn(c["host_op_us"], 0, false);' \
    "tst_compile_software:softwareCapturesCudaGraphsAndFusesTheRouter"
mutation "a layout's CUDA-graph scopes ignored" model/src/io/preset_layout_block.cpp \
    'e.cudaGraphScopes = parseCudaGraphScopes(c["cuda_graph_scope"]);' \
    '(void)parseCudaGraphScopes(c["cuda_graph_scope"]);' \
    "tst_compile_software:softwareCapturesCudaGraphsAndFusesTheRouter"
mutation "a scope named twice accepted" model/src/io/preset_layout_block.cpp \
    'if (scopes & bit) {' \
    'if (false) {' \
    "tst_presets:badFiles"
mutation "the software's router fusion not passed to the model" model/src/scenario/compile.cpp \
    'exe.moeRouterFusion = r.software.moeRouterFusion;' \
    'exe.moeRouterFusion = false;' \
    "tst_compile_software:softwareCapturesCudaGraphsAndFusesTheRouter"
mutation "calibrate fits without the MoE blocks' host operators" model/src/calibration/calibration_problem.cpp \
    '    c.hostOpScale = kBareHostOpScale;' \
    '    c.hostOpScale = 0;' \
    "tst_calibrate_synthetic:fitsTheMoeHostOperatorsAsTheModelRunsThem"
mutation "calibrate writes no host time per operator" model/src/calibration/calibration_problem.cpp \
    '    fallback.hostOpScale = kBareHostOpScale;' \
    '    fallback.hostOpScale = 0;' \
    "tst_cli_calibrate:hostOpsCostTheBareOperator"
mutation "the software's host time per operator ignored" model/src/scenario/compile.cpp \
    '* r.software.hostOpFactor;' \
    '* 1.0;' \
    "tst_compile_software:softwareScalesTheHostTimePerOperator"
mutation "a software preset's host_op_factor not read" model/src/io/calibration_json.cpp \
    'software.hostOpFactor = numberIn(c["host_op_factor"], 0, false, 100, true);' \
    '(void)numberIn(c["host_op_factor"], 0, false, 100, true);' \
    "tst_compile_software:softwareScalesTheHostTimePerOperator"
mutation "calibrate costs the host at a scale other than the bare operator" model/src/calibration/calibration_parameters.h \
    'constexpr double kBareHostOpScale = 1;' \
    'constexpr double kBareHostOpScale = 1.1;' \
    "tst_cli_calibrate:hostOpsCostTheBareOperator"
mutation "the dispatcher's fixed host cost in every block" model/src/engine/block_stats.cpp \
    'const bool moe = block.hostWaits;' \
    'const bool moe = true;' \
    "tst_fidelity_layers:softwareOverheadsNamedInTheGap"
# tst_software_ladder: a software feature never makes the published workload slower
mutation "a CUDA graph launch costs the host a thousand operators" model/src/engine/host_ops.cpp \
    'return (scopes & scope) != 0 ? 1 : ops;' \
    'return (scopes & scope) != 0 ? 1000 : ops;' \
    "tst_software_ladder:softwareStepsGainWhatTheyMeasured"
mutation "the Hugging Face import ignores DeepSeek's expert groups" model/src/scenario/hf_import.cpp \
    'llm.routerGroups = groups > 1 ? groups : 0;' \
    'llm.routerGroups = 0;' \
    "tst_hf_import:deepseek"
# host_ops.cpp, moe_block.cpp: DeepEP's dispatch waits for the host after fewer operators
mutation "DeepEP's dispatch does not make the host wait" model/src/engine/moe_block.cpp \
    'block.hostWaits = moeDispatcherSyncsHost(exe);' \
    'block.hostWaits = moeDispatcherSyncsHost(exe) && exe.moeDispatcher != MoeDispatcher::FlexDeepEp;' \
    "tst_host_ops:deepEpsDispatchWaitsAfterFewerOperators"
mutation "DeepEP's dispatch layout and notify issue one operator more" model/src/engine/host_ops.cpp \
    'constexpr double kDeepEpLayoutHostOps = 2;' \
    'constexpr double kDeepEpLayoutHostOps = 3;' \
    "tst_host_ops:deepEpsDispatchWaitsAfterFewerOperators"
mutation "DeepEP's operators after the wait one fewer" model/src/engine/host_ops.cpp \
    'constexpr double kDeepEpDispatchHostOps = 14;' \
    'constexpr double kDeepEpDispatchHostOps = 13;' \
    "tst_host_ops:deepEpsDispatchWaitsAfterFewerOperators"
mutation "DeepEP counted as the all-to-all dispatcher's operators" model/src/engine/moe_block.cpp \
    'layer.deepEpDispatch = exe.moeDispatcher == MoeDispatcher::FlexDeepEp;' \
    'layer.deepEpDispatch = false;' \
    "tst_host_ops:deepEpsDispatchWaitsAfterFewerOperators tst_software_ladder"
# The step-time chart's own term for the wait (analysis.cpp stepBreakdown)
mutation "the forward compute keeps the host wait" model/src/engine/analysis.cpp \
    '{ "fw", "Forward compute", o.fw_time - o.moe_host_wait_fw_time },' \
    '{ "fw", "Forward compute", o.fw_time },' \
    "tst_host_ops:theStepTimeNamesTheWaitApartFromEachPass"
mutation "the backward pass's wait not recorded" model/src/engine/host_ops.cpp \
    'o.block_moe_host_wait_bw_time = bw;' \
    'o.block_moe_host_wait_bw_time = 0;' \
    "tst_host_ops:theStepTimeNamesTheWaitApartFromEachPass"
mutation "the recomputed forward's wait not recorded" model/src/engine/host_ops.cpp \
    'o.block_moe_host_wait_re_time = re;' \
    'o.block_moe_host_wait_re_time = 0;' \
    "tst_host_ops:theStepTimeNamesTheWaitApartFromEachPass"
mutation "the MTP layers' wait left in the embedding and LM head" model/src/engine/analysis.cpp \
    'const double hostWaitEnds = std::max(0.0, o.moe_host_wait_time - o.moe_host_wait_fw_time' \
    'const double hostWaitEnds = 0 * std::max(0.0, o.moe_host_wait_time - o.moe_host_wait_fw_time' \
    "tst_host_ops:aMultiTokenPredictionLayerWaitsLikeAnMoeBlock"

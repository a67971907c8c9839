#!/usr/bin/env python3
"""Writes presets/measurements/<family>/<id>.json from the published runs in
tests/data/published/calibration-public.json and the Table 5 runs of korthikanti2022.json.

Every choice that the published configuration leaves open is made here, once, and written into
the file's `notes` (the row's own assumptions come first). Run from the repository root:
    python3 tools/measurements/make_measurements.py
The files are data: GapStudio reads them (gapstudio-cli validate / calibrate); this script is
kept only so that the conversion can be checked and repeated.
"""
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data", "published")
OUT = os.path.join(ROOT, "presets", "measurements")

# Hardware of each published GPU description: GPU preset, scale-up and scale-out links, topology.
HARDWARE = {
    "a100": ("nvidia-a100-80gb", "nvlink3", "infiniband-hdr", "two-tier-8", 8),
    "a100-megascale": ("nvidia-a100-80gb", "nvlink3", "roce-200g", "two-tier-8", 8),
    "a100-bloom": ("nvidia-a100-80gb", "nvlink3", "omni-path-100g-4-per-node", "two-tier-8", 8),
    "h100": ("nvidia-h100-sxm-80gb", "nvlink4-nvls", "infiniband-ndr", "two-tier-8", 8),
    "h100-96": ("nvidia-h100-sxm-96gb-hbm2e", "nvlink4-nvls", "roce-400g", "two-tier-8", 8),
    "b200": ("nvidia-b200", "nvlink5", "infiniband-ndr", "two-tier-8", 8),
    "gb200": ("nvidia-gb200", "nvlink5", "infiniband-ndr", "two-tier-72-partial", 72),
}

SOFTWARE = {
    "megatron-core-weak-scaling-h100": "megatron-core-0.8",
    "megascale-megatron-baseline-a100": "megatron-lm-2023",
    "bloom-176b-a100": "megatron-deepspeed-bloom",
    "nemo-24.07-h100-fp8-dense": "nemo-24.07",
    "dgxc-benchmarking-moe": "nemo-25.04",
    "korthikanti2022-selene-a100": "megatron-lm-2022",
}


def hardware_key(row):
    gpu = row["hardware"]["gpu"].lower()
    fam = row["family"]
    if "gb200" in gpu:
        return "gb200"
    if "b200" in gpu:
        return "b200"
    if "96gb" in gpu:
        return "h100-96"
    if "h100" in gpu:
        return "h100"
    if fam.startswith("megascale"):
        return "a100-megascale"
    if fam.startswith("bloom"):
        return "a100-bloom"
    return "a100"


def software_of(row):
    fam = row["family"]
    if fam in SOFTWARE:
        return SOFTWARE[fam]
    version = row["software"]["version"]
    if fam.startswith("torchtitan"):
        return "torchtitan-2024.12" if "1963fc8" in version else "torchtitan-2025.06"
    if fam == "megatron-bridge-moe":
        return "megatron-bridge-26.04" if "26.04" in version else "megatron-bridge-25.11"
    raise SystemExit("no software stack for family " + fam)


def datatype_of(text):
    text = text.lower()
    if "fp8" in text or "float8" in text:
        return "float8"
    return "bfloat16"


def recompute_of(text, notes):
    text = (text or "").lower()
    if text.startswith("full"):
        return "full"
    if "core_attn" in text or "per-op sac" in text:
        notes.append("selective recompute modelled as recomputing the attention core (attn_only)")
        return "attn_only"
    if text.startswith("selective"):
        notes.append("selective recompute of small modules (" + text.split("(")[0].strip()
                     + ") modelled as no recompute: they are a few percent of the block's work")
    elif "not stated" in text:
        notes.append("recompute not published: none assumed")
    return "none"


def nets(domain, tp, cp, dp, pp, ep, es, dpe):
    """Network tiers in Megatron-Core's rank order, innermost first (tp, cp, dp, pp for attention;
    expert TP, EP, expert DP, pp for the experts): a degree is on the scale-up tier while the
    product of it and the inner degrees fits in the domain."""
    tier = lambda product: 0 if product <= domain else 1
    return {
        "tensor_par_net": tier(tp),
        "context_par_net": tier(tp * cp),
        "data_par_net": tier(tp * cp * dp),
        "pipeline_par_net": tier(tp * cp * dp * pp),
        "expert_slice_net": tier(es),
        "expert_par_net": tier(es * ep),
        "data_par_exp_net": tier(es * ep * dpe),
    }


def layout_block(row, notes, domain):
    L = row["layout"]
    m = row["model"]
    tp, pp, dp, cp = L["tp"], L["pp"], L["dp"], L["cp"] or 1
    moe = m.get("moe")
    ep = L["ep"] if moe else 1
    es = (L["etp"] or 1) if moe else 1
    gpus = row["hardware"]["gpu_count"]
    dpe = gpus // (ep * es * pp) if moe else 1
    gb = L["global_batch"]
    local = gb // dp
    mbs = L["micro_batch"]
    if mbs is None and "micro-batch 4" in " ".join(row.get("assumptions") or []):
        mbs = 4  # the row's own assumption: torchtitan's default of one microbatch per stage
    if mbs is None:
        mbs = 1
        notes.append("microbatch size not published: 1 assumed")
    vp = L["vp"] or 1
    if L["vp"] is None and (L.get("pipeline_schedule") or "").lower().startswith("interleaved"):
        vp = 2
        notes.append("interleaved schedule without a published stage count: 2 virtual stages per rank assumed")
    blocks_per_stage = math.ceil(m["num_layers"] / pp)
    if blocks_per_stage % vp != 0:
        notes.append("virtual pipeline %d does not divide %d blocks per stage: 1 used" % (vp, blocks_per_stage))
        vp = 1
    sp = L["sequence_parallel"] is True or (tp > 1 and moe is not None)
    overlap = L["overlap"]
    tp_overlap = isinstance(overlap, dict) and overlap.get("tp_comm_overlap") is True
    dp_overlap = isinstance(overlap, dict) and overlap.get("dp_grad_reduce") is True
    if isinstance(overlap, str):
        low = overlap.lower()
        tp_overlap = "tp comm overlap on" in low or "tp_comm_overlap true" in low or "tp comm overlap, dp overlap assumed" in low
        dp_overlap = "dp" in low and "overlap" in low and "not stated (megatron" not in low and "baseline" not in low
        if "not stated (nemo perf defaults" in low:
            tp_overlap = dp_overlap = True
    if isinstance(overlap, dict) and "fsdp_prefetch" in overlap:
        dp_overlap = True  # FSDP prefetches the next parameters while computing
    sharding = L["optimizer_sharding"] or ""
    fsdp = "FSDP2" in sharding
    shard = fsdp or "distributed optimizer" in sharding or "ZeRO stage 1" in sharding
    if dp == 1:
        shard = False
        dp_overlap = False
    if tp == 1:
        tp_overlap = False
        sp = False
    lay = {
        "id": row["id"] + "-layout",
        "name": "Layout of " + row["id"],
        "source": "Published layout of the run (see the measurement's source); choices in its notes.",
        "tensor_par": tp, "pipeline_par": pp, "data_par": dp,
        "expert_par": ep, "expert_slice": es, "data_par_exp": dpe,
        "batch_size": gb, "microbatch_size": mbs,
        "datatype": datatype_of(row["hardware"]["datatype"]),
    }
    n = nets(domain, tp, cp, dp, pp, ep, es, dpe)
    lay.update({k: n[k] for k in ["tensor_par_net", "pipeline_par_net", "data_par_net",
                                  "expert_par_net", "expert_slice_net", "data_par_exp_net"]})
    lay.update({
        "fused_activation": True,
        "activation_recompute": recompute_of(L["recompute"], notes),
        "pipeline_interleaving": vp,
        "optimizer_sharding": shard,
        "tensor_par_comm_type": "rs_ag" if sp and tp > 1 else "ar",
        "tensor_par_overlap": "ring" if tp_overlap else "none",
        "seq_par_ag_redo": False,
        "data_par_overlap": dp_overlap,
        "weight_offload": False, "activations_offload": False, "optimizer_offload": False,
        "training": True,
    })
    if cp > 1:
        lay["context_par"] = cp
        lay["context_par_net"] = n["context_par_net"]
    if fsdp:
        lay["parameter_sharding"] = True
    if moe and "capacity factor 1.0" in (L.get("other") or ""):
        lay["moe_capacity_factor"] = 1
    overlap_text = overlap if isinstance(overlap, str) else ""
    if moe and "flex dispatcher" in overlap_text.lower() or "flex dispatcher" in overlap_text:
        lay["moe_dispatcher"] = "flex"
    if moe and "moe_a2a_overlap True" in overlap_text and row["model"]["hidden"] >= 4096 and "235B" in (row["model"].get("name") or ""):
        lay["moe_all_to_all_overlap"] = True
        notes.append("EP all-to-all overlap on, as the recipe sets moe_a2a_overlap for the 235B model on B200/H100")
    return lay


def llm_block(row, notes):
    m = row["model"]
    moe = m.get("moe")
    act = m["activation"].lower()
    swiglu = "swiglu" in act or m.get("gated_mlp") is True
    if not swiglu and "gelu" not in act:
        notes.append("activation " + m["activation"] + " modelled as GeLU (same element-wise cost class)")
    llm = {
        "id": row["id"] + "-llm",
        "name": m.get("name") or row["id"],
        "source": m.get("arch_source") or row["source"]["citation"],
        "hidden": m["hidden"],
        "feedforward": moe["moe_ffn_hidden"] if moe else m["ffn_hidden"],
        "seq_size": m["seq_len"],
        "attn_heads": m["heads"],
        "head_size": m["head_dim"],
        "kv_heads": m["kv_heads"],
        "num_blocks": m["num_layers"],
        "vocab_size": m["vocab"],
        "num_experts": moe["num_experts"] if moe else 1,
        "top_k": moe["top_k"] if moe else 1,
        "activation": "swiglu" if swiglu else "gelu",
    }
    if m.get("tied_embeddings") is True:
        llm["tied_embeddings"] = True
    attention = (m.get("attention") or "")
    if "MLA" in attention:
        llm["latent_attention"] = {"q_lora_rank": 1536, "kv_lora_rank": 512, "rope_head_size": 64,
                                   "value_head_size": 128}
    if "sliding window 128 on every other layer" in attention:
        llm["sliding_window"] = 128
        llm["sliding_window_blocks"] = m["num_layers"] // 2
        notes.append("learnable attention sinks not modelled")
    if moe:
        if moe.get("shared_experts"):
            llm["shared_experts"] = moe["shared_experts"]
            llm["shared_expert_feedforward"] = moe["shared_expert_ffn_hidden"]
        if moe.get("dense_layer_count"):
            llm["dense_blocks"] = moe["dense_layer_count"]
            llm["dense_feedforward"] = m["ffn_hidden"]
            if "alternating" in (moe.get("moe_layer_pattern") or ""):
                llm["dense_block_pattern"] = "interleaved"
    if m.get("mtp_depth"):
        notes.append("multi-token prediction (depth %d) not modelled" % m["mtp_depth"])
    return llm


def source_text(row):
    s = row["source"]
    parts = [s["citation"], s.get("url") or "", s.get("repo") and ("%s@%s" % (s["repo"], s.get("version", ""))) or "",
             s.get("location") or "", "quote: " + s["quote"] if s.get("quote") else ""]
    return "; ".join(p for p in parts if p)


def write(family, ident, name, source, scenario, measured, notes):
    folder = os.path.join(OUT, family)
    os.makedirs(folder, exist_ok=True)
    doc = {"fileType": "gapstudio.measurement", "version": 1, "id": ident, "name": name, "source": source,
           "family": family, "scenario": scenario, "measured_iteration_time_s": measured,
           "notes": " ".join(n if n.endswith(".") else n + "." for n in notes)}
    with open(os.path.join(folder, ident + ".json"), "w") as f:
        f.write(json.dumps(doc, indent=4) + "\n")


def scenario_of(ident, name, hw, software, llm, layout, gpus):
    gpu, up, out, topo, _ = HARDWARE[hw]
    return {"fileType": "gapstudio.scenario", "version": 2, "id": ident, "name": name,
            "source": "Measured run " + ident + " (presets/measurements).",
            "gpu": gpu, "scale_up": up, "scale_out": out, "topology": topo, "llm": llm, "layout": layout,
            "software": software, "gpu_count": gpus}


def public_rows():
    data = json.load(open(os.path.join(DATA, "calibration-public.json")))
    for row in data["rows"]:
        notes = list(row.get("assumptions") or [])
        hw = hardware_key(row)
        domain = HARDWARE[hw][4]
        llm = llm_block(row, notes)
        layout = layout_block(row, notes, domain)
        sc = scenario_of(row["id"], row["model"].get("name") or row["id"], hw, software_of(row), llm, layout,
                         row["hardware"]["gpu_count"])
        formula = row["measured"].get("iteration_time_formula")
        if formula:
            notes.append("iteration time: " + formula)
        write(row["family"], row["id"], row["model"].get("name") or row["id"], source_text(row), sc,
              row["measured"]["iteration_time_s"], notes)


def korthikanti_rows():
    data = json.load(open(os.path.join(DATA, "korthikanti2022.json")))
    common = data["common_settings"]
    for case in data["table5_iteration_time"]["cases"]:
        shape = data["models"][case["model"]]
        llm = {"id": case["model"], "name": case["model"], "source": shape["source"],
               "hidden": shape["hidden"], "feedforward": shape["feedforward"], "seq_size": shape["seq_size"],
               "attn_heads": shape["attn_heads"], "head_size": shape["attn_size"], "kv_heads": shape["attn_heads"],
               "num_blocks": shape["num_blocks"], "vocab_size": common["vocab_size"], "num_experts": 1,
               "top_k": 1, "activation": "gelu"}
        layout = {"id": case["id"] + "-layout", "name": "Layout of " + case["id"], "source": case["source"],
                  "tensor_par": case["tp"], "pipeline_par": case["pp"], "data_par": case["dp"],
                  "expert_par": 1, "expert_slice": 1, "data_par_exp": 1,
                  "batch_size": case["global_batch"], "microbatch_size": case["microbatch"],
                  "datatype": case["datatype"],
                  "tensor_par_net": 0, "pipeline_par_net": 1, "data_par_net": 1,
                  "expert_par_net": 1, "expert_slice_net": 0, "data_par_exp_net": 1,
                  "fused_activation": common["fused_activation"],
                  "activation_recompute": case["activation_recompute"],
                  "pipeline_interleaving": case["pipeline_interleaving"],
                  "optimizer_sharding": False, "tensor_par_comm_type": case["tensor_par_comm_type"],
                  "tensor_par_overlap": "none", "seq_par_ag_redo": case["seq_par_ag_redo"],
                  "data_par_overlap": False, "weight_offload": False, "activations_offload": False,
                  "optimizer_offload": False, "training": True, "attention_kernel": "unfused"}
        ident = "korthikanti2022-" + case["id"].lower()
        sc = scenario_of(ident, case["model"] + " (" + case["mode"] + ")", "a100", "megatron-lm-2022", llm,
                         layout, case["gpus"])
        notes = ["Configuration as the reference model encodes Table 5 (korthikanti2022.json layouts and modes)",
                 "vocabulary 51200 (common_settings); Megatron-LM of 2022 had no flash attention: unfused kernel",
                 "Selene: DGX A100 80GB, NVLink inside a node, HDR InfiniBand between nodes"]
        cite = data["citation"]
        source = "%s; %s, \"%s\"" % (case["source"], cite.get("authors", ""), cite.get("title", ""))
        write("korthikanti2022-selene-a100", ident, case["model"] + " " + case["mode"], source, sc,
              case["measured_iteration_time_s"], notes)


if __name__ == "__main__":
    public_rows()
    korthikanti_rows()
    print("wrote", sum(len(f) for _, _, f in os.walk(OUT)), "files under", OUT, file=sys.stderr)

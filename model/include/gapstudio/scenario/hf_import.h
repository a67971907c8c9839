#pragma once
/**
 * @file hf_import.h
 * Hugging Face `config.json` -> an llm block. The model's transformer is simpler than many
 * published architectures, so the import also says what it approximated (multi-head latent
 * attention, shared experts, dense first layers, sliding windows, ...).
 */

#include "gapstudio/scenario/blocks.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace gapstudio::scenario {

struct HfImport {
    Llm llm;
    std::vector<std::string> approximations; ///< one sentence each, e.g. "2 shared experts are not modelled"
};

/// Reads hidden_size, intermediate_size, num_hidden_layers, num_attention_heads,
/// num_key_value_heads, head_dim, vocab_size, max_position_embeddings, num_local_experts /
/// n_routed_experts, num_experts_per_tok, moe_intermediate_size and hidden_act. `id` and `name`
/// become the block's; `file` names the config in errors. Throws io::InputError (file, JSON
/// pointer, message) for a missing or invalid key.
[[nodiscard]] HfImport importHuggingFaceConfig(const nlohmann::json &config, const std::string &file,
                                               const std::string &id, const std::string &name);

} // namespace gapstudio::scenario

#include "json_output.h"

#include <string>

namespace gapstudio::cli {

nlohmann::ordered_json evaluationToJson(const model::Evaluation &evaluation, bool withLayers)
{
    // Doubles are dumped by nlohmann in the shortest form that reads back to the same value.
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    evaluation.stats.forEach([&out](std::string_view name, double value) { out[std::string(name)] = value; });
    if (withLayers) {
        nlohmann::ordered_json layers = nlohmann::ordered_json::array();
        for (const model::LayerStats &layer : evaluation.layers) {
            nlohmann::ordered_json record = nlohmann::ordered_json::object();
            record["name"] = layer.name;
            layer.forEach([&record](std::string_view name, double value) { record[std::string(name)] = value; });
            layers.push_back(std::move(record));
        }
        out["layers"] = std::move(layers);
    }
    return out;
}

} // namespace gapstudio::cli

// `gapstudio-cli import-hf config.json [--id ID] [--name NAME]`: an llm preset on stdout, the
// approximations on stderr.
#include "commands.h"

#include "gapstudio/io/preset_json.h"
#include "gapstudio/scenario/hf_import.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>

namespace gapstudio::cli {

int runImportHf(const std::vector<std::string> &args)
{
    std::string path, id, name;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (arg == "--id" || arg == "--name") {
            (arg == "--id" ? id : name) = optionValue(arg, args, i);
        } else if (arg.rfind("-", 0) == 0) {
            throw UsageError { "unknown option '" + arg + "' for import-hf" };
        } else if (path.empty()) {
            path = arg;
        } else {
            throw UsageError { "unexpected argument '" + arg + "'" };
        }
    }
    if (path.empty())
        throw UsageError { "import-hf needs a config.json" };
    if (id.empty()) {
        // The model's folder names it (org/model/config.json), else the file's stem.
        const std::filesystem::path p(path);
        id = p.filename() == "config.json" && p.has_parent_path() && !p.parent_path().filename().empty()
                 ? p.parent_path().filename().string()
                 : p.stem().string();
    }
    if (name.empty())
        name = id;
    // The preset is JSON text: an id or name that is not UTF-8 cannot be written into it.
    for (const auto &[option, text] : { std::pair { "--id", &id }, std::pair { "--name", &name } })
        try {
            (void)nlohmann::json(*text).dump();
        } catch (const nlohmann::json::type_error &) {
            throw UsageError { std::string(option) + " expects UTF-8 text, got bytes that are not (give --id and "
                               "--name in UTF-8)" };
        }
    const scenario::HfImport imported
        = scenario::importHuggingFaceConfig(io::readJsonFile(path), path, id, name);
    for (const std::string &note : imported.approximations)
        std::cerr << "approximation: " << note << '\n';
    std::cout << io::toText(io::toJson(imported.llm)) << std::flush;
    return kExitOk;
}

} // namespace gapstudio::cli

#pragma once
// Writing what headlab-cli train produces: model files and their manifests.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace headlab::cli {

// Rounds every floating-point number to `digits` significant digits (keeps model files small).
void round_numbers(nlohmann::json& value, int digits);
// False when the file cannot be written.
bool write_file(const std::string& path, const std::string& text);
// "headlab-cli train ARGS...", for manifests.
std::string command_line(const std::vector<std::string>& args);
// "dir/name.json" or "dir/name.safetensors" -> "dir/name.manifest.json".
std::string manifest_path(const std::string& model_path);

}  // namespace headlab::cli

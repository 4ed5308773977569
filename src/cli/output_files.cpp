#include "cli/output_files.h"

#include <cmath>
#include <fstream>

namespace headlab::cli {

void round_numbers(nlohmann::json& value, int digits) {
  if (value.is_number_float()) {
    const double v = value.get<double>();
    if (v != 0.0 && std::isfinite(v)) {
      const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(v)))));
      value = std::round(v * scale) / scale;
    }
  } else if (value.is_array() || value.is_object()) {
    for (nlohmann::json& child : value) round_numbers(child, digits);
  }
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  return static_cast<bool>(file);
}

std::string command_line(const std::vector<std::string>& args) {
  std::string text = "headlab-cli train";
  // Quoted as a POSIX shell reads it back, so the manifest's command can be pasted and run.
  for (const std::string& a : args) {
    const bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,:=+") == std::string::npos;
    if (plain) {
      text += " " + a;
      continue;
    }
    text += " '";
    for (const char c : a) text += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text += "'";
  }
  return text;
}

std::string manifest_path(const std::string& model_path) {
  for (const std::string suffix : {".json", ".safetensors"})
    if (model_path.size() > suffix.size() && model_path.compare(model_path.size() - suffix.size(), suffix.size(), suffix) == 0)
      return model_path.substr(0, model_path.size() - suffix.size()) + ".manifest.json";
  return model_path + ".manifest.json";
}

}  // namespace headlab::cli

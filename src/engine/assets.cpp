#include "engine/assets.h"

#include <cstdlib>
#include <fstream>

namespace headlab {

std::string assets_root() {
  if (const char* env = std::getenv("HEADLAB_ASSETS"); env && *env) return env;
#ifdef HEADLAB_ASSETS_DIR
  return HEADLAB_ASSETS_DIR;
#else
  return "/assets";
#endif
}

// One read of the whole file: streaming it through a stringstream cost a virtual call per
// character, a visible part of the web app's start-up.
std::optional<std::string> read_asset(const std::string& relative_path) {
  std::ifstream file(assets_root() + "/" + relative_path, std::ios::binary | std::ios::ate);
  if (!file) return std::nullopt;
  const std::streamoff size = file.tellg();
  if (size < 0) return std::nullopt;
  std::string text(static_cast<std::size_t>(size), '\0');
  file.seekg(0);
  if (!file.read(text.data(), size)) return std::nullopt;
  return text;
}

Lexicon load_lexicon(std::string* error) {
  const auto text = read_asset("lexicon.json");
  if (!text) {
    if (error) *error = "assets/lexicon.json could not be read from " + assets_root();
    return {};
  }
  Result<Lexicon> lexicon = parse_lexicon(*text);
  if (!lexicon.ok()) {
    if (error) *error = lexicon.error();
    return {};
  }
  return std::move(lexicon).value();
}

}  // namespace headlab

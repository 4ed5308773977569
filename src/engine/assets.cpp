#include "engine/assets.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace headlab {

std::string assets_root() {
  if (const char* env = std::getenv("HEADLAB_ASSETS"); env && *env) return env;
#ifdef HEADLAB_ASSETS_DIR
  return HEADLAB_ASSETS_DIR;
#else
  return "/assets";
#endif
}

std::optional<std::string> read_asset(const std::string& relative_path) {
  std::ifstream file(assets_root() + "/" + relative_path, std::ios::binary);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
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

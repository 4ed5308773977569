#include "engine/assets.h"

#include <cstdio>
#include <cstdlib>

namespace headlab {

std::string assets_root() {
  if (const char* env = std::getenv("HEADLAB_ASSETS"); env && *env) return env;
#ifdef HEADLAB_ASSETS_DIR
  return HEADLAB_ASSETS_DIR;
#else
  return "/assets";
#endif
}

// One read of the whole file, through C's stdio: an std::ifstream brings in the locale machinery
// of iostreams (money, time and number facets), about 60 KB of the web app's module that nothing
// else uses.
std::optional<std::string> read_asset(const std::string& relative_path) {
  std::FILE* file = std::fopen((assets_root() + "/" + relative_path).c_str(), "rb");
  if (!file) return std::nullopt;
  std::string text;
  char buffer[16384];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) return std::nullopt;
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

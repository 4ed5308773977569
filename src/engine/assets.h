#pragma once
// Access to files under assets/: on the web they are embedded at /assets; natively they are read
// from the source tree (or the folder named by the HEADLAB_ASSETS environment variable).
#include <optional>
#include <string>

#include "lexicon.h"

namespace headlab {

std::string assets_root();
std::optional<std::string> read_asset(const std::string& relative_path);
// Loads assets/lexicon.json; an empty lexicon plus a message when it cannot be read.
Lexicon load_lexicon(std::string* error);

}  // namespace headlab

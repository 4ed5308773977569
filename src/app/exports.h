#pragma once
// Text exports of the lab: a head's attention as CSV, and the example sentences list.
#include <string>
#include <vector>

#include "app/app_state.h"

namespace headlab::app {

// Attention of one head as CSV: a header row "query \ key,<tokens...>", then one row per query
// token starting with the token. Fields are quoted as RFC 4180 requires.
std::string attention_csv(const AppState& state, int layer, int head);

// Texts of assets/sentences.json ({"sentences": [{"text": ...}]} or a plain array of such
// objects or strings). Empty when the file is missing or malformed.
std::vector<std::string> example_texts(const std::string& sentences_json);

}  // namespace headlab::app

#pragma once
// The HeadLab model file: versioned JSON, the one exchange format of the CLI, save/load, share
// links and the JS API. Schema: docs/model-format.md.
//
// Parsing is strict and never throws: every error names the JSON path and, for matrices, the
// expected and actual shape ("layers[0].heads[2].W_K: expected 24x6, got 24x5").
#include <string>

#include "document.h"
#include "result.h"

namespace headlab {

inline constexpr const char* kModelFormat = "headlab-model";
inline constexpr int kModelFormatVersion = 1;
inline constexpr long kMaxModelNumbers = 4'000'000;  // keeps hostile files from exhausting memory
inline constexpr std::size_t kMaxVocabulary = 50'000;  // words of a learned token embedding

Result<Document> parse_model_file(const std::string& json_text);
std::string serialize_model_file(const Document& document, int indent = -1);

}  // namespace headlab

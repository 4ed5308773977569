#include "app/exports.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace headlab::app {
namespace {

std::string csv_field(const std::string& text) {
  const bool needs_quotes = text.find_first_of(",\"\n\r") != std::string::npos || text.empty();
  if (!needs_quotes) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string attention_csv(const AppState& state, int layer, int head) {
  if (layer < 0 || layer >= static_cast<int>(state.trace.layers.size())) return {};
  const auto& heads = state.trace.layers[layer].heads;
  if (head < 0 || head >= static_cast<int>(heads.size())) return {};
  const Matrix& A = heads[head].attention;
  std::string out = csv_field("query \\ key");
  for (const Token& t : state.input.tokens) out += "," + csv_field(t.text);
  out += "\n";
  char number[32];
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    out += csv_field(state.input.tokens[i].text);
    for (Eigen::Index j = 0; j < A.cols(); ++j) {
      std::snprintf(number, sizeof number, ",%.6f", A(i, j));
      out += number;
    }
    out += "\n";
  }
  return out;
}

std::vector<std::string> example_texts(const std::string& sentences_json) {
  std::vector<std::string> texts;
  const auto doc = nlohmann::json::parse(sentences_json, nullptr, false);
  if (doc.is_discarded()) return texts;
  const nlohmann::json* list = &doc;
  if (doc.is_object() && doc.contains("sentences")) list = &doc["sentences"];
  if (!list->is_array()) return texts;
  for (const auto& item : *list) {
    if (item.is_string()) texts.push_back(item.get<std::string>());
    else if (item.is_object() && item.contains("text") && item["text"].is_string()) texts.push_back(item["text"].get<std::string>());
  }
  return texts;
}

}  // namespace headlab::app

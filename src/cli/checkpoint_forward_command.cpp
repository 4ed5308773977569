#include "cli/checkpoint_forward_command.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/forward_command.h"
#include "cli/tokenize_command.h"
#include "engine/document.h"
#include "engine/bpe/token_labels.h"
#include "engine/embedding.h"
#include "engine/gpt2_checkpoint.h"
#include "engine/next_token.h"
#include "engine/tensor_model_file.h"
#include "engine/tokenizer.h"

namespace headlab::cli {
namespace {

using nlohmann::json;

const char* const kUsage =
    "usage: headlab-cli forward FILE.safetensors [--text \"...\"] [--config config.json] [--heads N] [--top K]\n";

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool is_headlab_model(const std::vector<std::uint8_t>& file) {
  const Result<SafetensorsIndex> index = read_safetensors_index(file.data(), file.size());
  if (!index.ok()) return false;
  for (const auto& [key, value] : index.value().metadata)
    if (key == "headlab") return true;
  return false;
}

int fail(const std::string& message) {
  std::cerr << "headlab-cli: " << message << "\n";
  return 1;
}

}  // namespace

bool is_checkpoint_path(const std::string& path) {
  const std::string suffix = ".safetensors";
  return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int run_checkpoint_forward(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string path = args[0];
  std::optional<std::string> text, config_path;
  int heads = 0, top = 5;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const bool has_value = i + 1 < args.size();
    try {
      if (args[i] == "--text" && has_value) text = args[++i];
      else if (args[i] == "--config" && has_value) config_path = args[++i];
      else if (args[i] == "--heads" && has_value) heads = std::stoi(args[++i]);
      else if (args[i] == "--top" && has_value) top = std::stoi(args[++i]);
      else throw std::invalid_argument(args[i]);
    } catch (const std::exception&) {
      std::cerr << kUsage;
      return 2;
    }
  }
  const std::optional<std::string> bytes = read_file(path);
  if (!bytes) return fail("cannot read " + path);
  const std::vector<std::uint8_t> file(bytes->begin(), bytes->end());

  Document document;
  if (is_headlab_model(file)) {
    Result<Document> read = read_tensor_model(file.data(), file.size());
    if (!read.ok()) return fail(path + ": " + read.error());
    document = std::move(read).value();
  } else {
    const std::string beside = path.substr(0, path.find_last_of('/') + 1) + "config.json";
    std::string config;
    if (config_path) {
      const auto read = read_file(*config_path);
      if (!read) return fail("cannot read " + *config_path);
      config = *read;
    } else if (heads == 0) {
      if (const auto read = read_file(beside)) config = *read;
      else return fail(path + ": no config.json beside it; give --config or --heads");
    }
    Result<Model> model = read_gpt2_checkpoint(file, config, heads);
    if (!model.ok()) return fail(path + ": " + model.error());
    document.model = std::move(model).value();
  }
  Model& model = document.model;
  const Result<bpe::BpeTokenizer> tokenizer = load_tokenizer(model.tokenizer);
  if (!tokenizer.ok()) return fail(tokenizer.error());
  if (static_cast<Eigen::Index>(tokenizer.value().tokens.size()) > model.token_embedding.rows())
    return fail("the tokenizer \"" + model.tokenizer + "\" has " + std::to_string(tokenizer.value().tokens.size()) +
                " tokens, the model's embedding " + std::to_string(model.token_embedding.rows()));
  if (text) document.input.text = *text;
  document.input.kind = InputKind::text;
  const PreparedInput input = prepare_input(document, Lexicon{}, &tokenizer.value());
  if (input.tokens.empty()) return fail("the text has no tokens");
  Trace trace;
  forward(model, input.X, trace);
  json out = forward_json(model, input.tokens, trace);
  json ids = json::array();
  for (const Token& t : input.tokens) ids.push_back(t.id);
  out["ids"] = std::move(ids);
  out["truncated"] = input.truncated;
  json predictions = json::array();
  for (const auto& position : top_next_tokens(next_token_logits(model, trace), top)) {
    json row = json::array();
    std::vector<int> top_ids;
    for (const NextToken& next : position) top_ids.push_back(next.id);
    const std::vector<std::string> labels = bpe::token_labels(tokenizer.value(), top_ids);
    for (std::size_t k = 0; k < position.size(); ++k)
      row.push_back({{"id", position[k].id}, {"token", labels[k]}, {"p", position[k].probability}});
    predictions.push_back(std::move(row));
  }
  out["predictions"] = std::move(predictions);
  std::cout << out.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
  return 0;
}

}  // namespace headlab::cli

#include "cli/forward_command.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/analysis/analysis.h"
#include "engine/analysis/analysis_json.h"
#include "engine/assets.h"
#include "engine/forward.h"
#include "engine/model_file.h"
#include "engine/training/text_evaluation.h"

namespace headlab::cli {
namespace {

using nlohmann::json;

json rows(const Matrix& m) {
  json out = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      row.push_back(std::isfinite(m(i, j)) ? json(m(i, j)) : json(nullptr));
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace

json forward_json(const Model& model, const Tokens& tokens, const Trace& trace) {
  // Missing label or sentence files fall back to built-in thresholds / no gold parse.
  const analysis::Resources resources = analysis::load_resources();
  analysis::Analysis analysis;
  analysis::analyze(model, tokens, trace, resources, {}, analysis);
  json out;
  json texts = json::array();
  for (const Token& t : tokens) texts.push_back(t.text);
  out["tokens"] = std::move(texts);
  out["attention"] = enum_name(kAttentionNormalizationNames, model.attention);
  const std::vector<training::TextHeadScores> sinks = training::sink_shares(trace, tokens);
  std::size_t sink_index = 0;
  json layers = json::array();
  for (std::size_t l = 0; l < trace.layers.size(); ++l) {
    const LayerTrace& lt = trace.layers[l];
    json heads = json::array();
    for (std::size_t h = 0; h < lt.heads.size(); ++h) {
      json head = {{"attention", rows(lt.heads[h].attention)}, {"Z", rows(lt.heads[h].Z)}};
      // Where the head parks attention: its mean share on token 0 and on punctuation (queries 1..n-1).
      head["first_token_share"] = sinks[sink_index].first_token;
      head["punctuation_share"] = sinks[sink_index++].punctuation;
      head.update(analysis::head_json(analysis.layers[l].heads[h], resources.gold));
      heads.push_back(std::move(head));
    }
    json layer = {{"heads", std::move(heads)}, {"output", rows(lt.output)}};
    layer.update(analysis::layer_json(analysis.layers[l], analysis::layer_redundancy(lt, model.causal, resources.config)));
    layers.push_back(std::move(layer));
  }
  out["layers"] = std::move(layers);
  out["gold"] = analysis::gold_json(analysis.gold);
  return out;
}

bool run_forward(const std::string& model_json, std::string& output, std::string& error) {
  Result<Document> document = parse_model_file(model_json);
  if (!document.ok()) {
    error = document.error();
    return false;
  }
  std::string lexicon_error;
  const Lexicon lexicon = load_lexicon(&lexicon_error);
  if (!lexicon_error.empty()) {
    error = lexicon_error;
    return false;
  }
  const PreparedInput input = prepare_input(document.value(), lexicon);
  Trace trace;
  forward(document.value().model, input.X, trace);
  const json out = forward_json(document.value().model, input.tokens, trace);
  output = out.dump(-1, ' ', false, json::error_handler_t::replace);
  return true;
}

}  // namespace headlab::cli

#include "api/state_json.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/analysis/analysis_json.h"
#include "engine/bpe/token_labels.h"
#include "engine/embedding.h"
#include "engine/training/text_evaluation.h"

namespace headlab::api {

// The handlers drive the app layer and speak its vocabulary throughout.
using namespace headlab::app;
namespace {

using nlohmann::json;

const char* notice_level(NoticeLevel level) {
  switch (level) {
    case NoticeLevel::info: return "info";
    case NoticeLevel::warning: return "warning";
    case NoticeLevel::error: return "error";
  }
  return "info";
}

}  // namespace

std::string state_json(const AppState& state, const Resources& resources) {
  const Model& model = state.document.model;
  json out;
  json tokens = json::array();
  for (const Token& t : state.input.tokens) tokens.push_back(t.text);
  out["tokens"] = std::move(tokens);
  json token_info = json::array();
  for (const Token& t : state.input.tokens)
    token_info.push_back({{"text", t.text}, {"pos", to_string(t.pos)}, {"zipf", t.zipf},
                          {"in_lexicon", t.in_lexicon}, {"special", t.is_special}});
  out["token_info"] = std::move(token_info);
  json layer_configs = json::array();
  for (const Layer& layer : model.layers)
    layer_configs.push_back({{"heads", layer.head_count()}, {"d_k", layer.d_k}, {"d_v", layer.d_v},
                             {"residual", layer.residual}, {"ffn", layer.has_ffn},
                             {"norm", layer.norm == Norm::none ? "none" : layer.norm == Norm::pre ? "pre" : "post"}});
  out["config"] = {{"d_model", model.d_model},
                   {"layers", model.layers.size()},
                   {"heads", model.layers.front().head_count()},
                   {"layer_configs", std::move(layer_configs)},
                   {"causal", model.causal},
                   {"attention", enum_name(kAttentionNormalizationNames, model.attention)},
                   {"special_tokens", model.special_tokens},
                   {"embedding", embedding_id(model.embedding)},
                   {"seed", model.seed},
                   {"feature_names", feature_names(model)}};
  out["text"] = state.document.input.kind == InputKind::text ? state.document.input.text : "";
  out["truncated"] = state.input.truncated;
  out["selection"] = {{"layer", state.selection.layer}, {"head", state.selection.head}};
  out["revision"] = state.revision;
  // A checkpoint's weights as JSON would be hundreds of MB (GPT-2 small: 21 M numbers in W_Q, W_K,
  // W_V alone): they are left out above 16 MB (`weights_omitted`); exportModel and circuits read them.
  const bool with_weights = !is_checkpoint_model(model) || model_bytes(model) <= (std::size_t{16} << 20);
  out["weights_omitted"] = !with_weights;
  out["checkpoint"] = is_checkpoint_model(model);
  out["tokenizer"] = model.tokenizer;
  json ids = json::array();
  for (const Token& t : state.input.tokens) ids.push_back(t.id);
  out["ids"] = std::move(ids);
  json predictions = json::array();
  const bpe::BpeTokenizer* subword = resources.subword_tokenizer(model.tokenizer);
  for (const std::vector<NextToken>& position : state.predictions) {
    json top = json::array();
    for (const NextToken& next : position) {
      json entry = {{"id", next.id}, {"p", next.probability}};
      if (subword) entry["token"] = bpe::token_labels(*subword, {next.id}).front();
      else if (next.id >= 0 && next.id < static_cast<int>(model.vocab.size())) entry["token"] = model.vocab[next.id];
      top.push_back(std::move(entry));
    }
    predictions.push_back(std::move(top));
  }
  out["predictions"] = std::move(predictions);
  json layers = json::array();
  const analysis::Analysis& analysis = state.analysis;
  const bool analysed = analysis.layers.size() == state.trace.layers.size();
  // The Labels tab's attention-sink grid, from the same function (layer-major).
  const std::vector<training::TextHeadScores> sinks = training::sink_shares(state.trace, state.input.tokens);
  std::size_t sink_index = 0;
  for (std::size_t l = 0; l < state.trace.layers.size(); ++l) {
    const LayerTrace& lt = state.trace.layers[l];
    json heads = json::array();
    for (std::size_t h = 0; h < lt.heads.size(); ++h) {
      const HeadWeights& w = model.layers[l].heads[h];
      json head = {{"attention", analysis::matrix_json(lt.heads[h].attention)}, {"pruned", w.pruned}};
      if (sink_index < sinks.size()) {
        head["first_token_share"] = sinks[sink_index].first_token;
        head["punctuation_share"] = sinks[sink_index].punctuation;
      }
      ++sink_index;
      if (with_weights) {
        head["W_Q"] = analysis::matrix_json(w.W_Q);
        head["W_K"] = analysis::matrix_json(w.W_K);
        head["W_V"] = analysis::matrix_json(w.W_V);
      }
      // Labels, scores, explanation, importance (docs/labels.md).
      if (analysed && h < analysis.layers[l].heads.size())
        head.update(analysis::head_json(analysis.layers[l].heads[h], resources.analysis.gold));
      heads.push_back(std::move(head));
    }
    json layer = {{"heads", std::move(heads)}, {"output", analysis::matrix_json(lt.output)}};
    // The redundancy is computed for this call: the analysis of an edit leaves it out.
    if (analysed)
      layer.update(analysis::layer_json(analysis.layers[l], analysis::layer_redundancy(lt, model.causal, resources.analysis.config)));
    layers.push_back(std::move(layer));
  }
  out["layers"] = std::move(layers);
  out["gold"] = analysis::gold_json(analysis.gold);
  {
    const LessonProgress& p = state.progress;
    json completed = json::array();
    for (const std::string& key : p.completed) completed.push_back(key);
    json lesson = {{"index", p.lesson}, {"step", p.step}, {"goal_met", p.goal_met}, {"hints_shown", p.hints_shown},
                   {"completed", std::move(completed)}, {"language", p.language == Language::zh ? "zh" : "en"},
                   {"paused_lesson", p.paused_lesson}, {"count", resources.lessons.size()}};
    if (p.lesson >= 0 && p.lesson < static_cast<int>(resources.lessons.size())) {
      const lessons::Lesson& l = resources.lessons[p.lesson];
      lesson["id"] = l.id;
      lesson["step_id"] = l.steps[p.step].id;
      lesson["step_count"] = l.steps.size();
    }
    if (p.probe) {
      const analysis::ExampleProbe& probe = p.probe->probe;
      lesson["probe"] = {{"layer", p.probe->layer}, {"head", p.probe->head}, {"target", p.probe->target},
                         {"accuracy", probe.accuracy}, {"control_accuracy", probe.control_accuracy},
                         {"selectivity", probe.selectivity}, {"majority_accuracy", probe.majority_accuracy},
                         {"train_words", probe.train_words}, {"test_words", probe.test_words}};
    }
    // The numbers the goal compares, as the lesson panel lists them.
    json numbers = json::array();
    for (const lessons::GoalNumber& n : p.numbers) {
      json number = {{"head", n.head}, {"holds", n.holds}, {"value", std::isfinite(n.value) ? json(n.value) : json()}};
      if (n.goal->min > -1e299) number["min"] = n.goal->min;
      if (n.goal->max < 1e299) number["max"] = n.goal->max;
      numbers.push_back(std::move(number));
    }
    lesson["numbers"] = std::move(numbers);
    out["lesson"] = std::move(lesson);
  }
  json notices = json::array();
  for (const Notice& n : state.notices) notices.push_back({{"level", notice_level(n.level)}, {"text", n.text}});
  out["notices"] = std::move(notices);
  return out.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace headlab::api

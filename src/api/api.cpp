#include "api/api.h"

#include <nlohmann/json.hpp>

#include "api/benchmark_api.h"
#include "api/checkpoint_api.h"
#include "api/reply.h"
#include "api/state_json.h"
#include "api/training_api.h"
#include "app/dispatcher.h"
#include "app/action_codec.h"
#include "app/lesson_runner.h"
#include "app/pruning_curve.h"
#include "app/query_key_job.h"
#include "app/request_fields.h"
#include "app/saved_state.h"
#include "app/share_link.h"
#include "engine/analysis/analysis_json.h"
#include "engine/analysis/attention_spread.h"
#include "engine/analysis/circuits.h"
#include "engine/analysis/head_corpus.h"
#include "engine/embedding.h"
#include "engine/model_file.h"

namespace headlab::api {

// The handlers drive the app layer and speak its vocabulary throughout.
using namespace headlab::app;
namespace {

using nlohmann::json;

json from_error(const std::string& error) { return error.empty() ? success() : failure(error); }

// An action: decoded by the one action codec (action_codec.h) and applied through the Dispatcher.
json apply_request(Dispatcher& dispatcher, const json& request) {
  Result<Action> action = decode_action(request);
  if (!action.ok()) return failure(action.error());
  const ActionResult result = dispatcher.apply(action.value());
  if (!result.ok()) return failure(result.error);
  if (std::holds_alternative<PruneLeastImportant>(action.value())) return success(result.pruned_heads);
  if (std::holds_alternative<Undo>(action.value()) || std::holds_alternative<Redo>(action.value()))
    return success(result.changed);
  return success();
}

// The lesson moves under their documented names: each is one MoveInLesson.
template <LessonMove move>
json op_lesson_move(Controller& c, RequestFields&) {
  return from_error(Dispatcher(c, nullptr).apply(MoveInLesson{move}).error);
}

// [SECTION] The ops that are not edits: reading the lab, persistence, lessons, history, notices.

// Each reads its fields through `f` (RequestFields: strict types, unknown fields refused before
// the handler runs).
json op_state(Controller& c, RequestFields&) { return success(json::parse(state_json(c.state(), c.resources()))); }

// Persistence (web/persistence.js): the whole lab state, strict on the way in.
json op_save_state(Controller& c, RequestFields&) {
  if (std::string why = state_too_large(c.state()); !why.empty()) return failure(why);
  return success(save_state(c.state()));
}
json op_load_state(Controller& c, RequestFields& f) {
  std::string text;
  if (!f.string("json", text, true)) return failure(f.error());
  return from_error(load_state(c, text));
}

// Share links (README, "Saving and sharing"): the fragment "#s=..." for the current lab, and back.
json op_share_link(Controller& c, RequestFields&) {
  if (std::string why = state_too_large(c.state()); !why.empty()) return failure(why);
  return success(std::string(kShareLinkPrefix) + encode_share_payload(save_state(c.state())));
}
json op_open_share_link(Controller& c, RequestFields& f) {
  std::string fragment;
  if (!f.string("fragment", fragment, true)) return failure(f.error());
  const Result<std::string> text = decode_share_payload(fragment);
  if (!text.ok()) return failure(text.error());
  // A link may hold a saved lab or a bare model file; both loaders leave the state untouched on refusal.
  const json parsed = json::parse(text.value(), nullptr, false);
  // (Compared as JSON: a "format" that is not a string is simply not a model file.)
  if (parsed.is_object() && parsed.contains("format") && parsed["format"] == "headlab-model")
    return from_error(c.apply(LoadModel{text.value()}).error);
  return from_error(load_state(c, text.value()));
}

// A cheap fingerprint of everything saveState writes: autosave only serializes when it changes.
json op_state_key(Controller& c, RequestFields&) {
  const AppState& s = c.state();
  return success(std::to_string(s.revision) + ":" + std::to_string(s.progress.lesson) + ":" + std::to_string(s.progress.step) +
                 ":" + std::to_string(s.progress.completed.size()) + ":" + std::to_string(static_cast<int>(s.progress.language)) +
                 ":" + s.preferences.theme + ":" + std::to_string(s.selection.layer) + ":" + std::to_string(s.selection.head));
}

json op_notify(Controller& c, RequestFields& f) {
  NoticeLevel level = NoticeLevel::info;
  std::string text;
  if (!f.one_of<NoticeLevel>("level", {{"info", NoticeLevel::info}, {"warning", NoticeLevel::warning}, {"error", NoticeLevel::error}}, level) ||
      !f.string("text", text, true))
    return failure(f.error());
  c.notify(level, text.substr(0, 500));
  return success();
}

json op_lessons(Controller& c, RequestFields&) {
  json list = json::array();
  for (const lessons::Lesson& lesson : c.resources().lessons) {
    json steps = json::array();
    for (const lessons::Step& step : lesson.steps) steps.push_back(step.id);
    list.push_back({{"id", lesson.id}, {"title", lesson.title.en}, {"title_zh", lesson.title.zh}, {"steps", steps}});
  }
  return success(list);
}
json op_export_model(Controller& c, RequestFields&) { return success(serialize_model_file(c.state().document)); }

// Circuits (Elhage et al. 2021; src/engine/analysis/circuits.h): read from the weights, so they
// need no forward pass; indices are checked against the model here.
json op_circuits(Controller& c, RequestFields& f) {
  const Model& model = c.state().document.model;
  int layer = 0, head = 0;
  if (!f.integer("layer", 0, static_cast<long long>(model.layers.size()) - 1, layer, true) ||
      !f.integer("head", 0, model.layers[layer].head_count() - 1, head, true))
    return failure(f.error());
  json result = analysis::circuits_json(model, layer, head);
  result["feature_names"] = feature_names(model);
  return success(std::move(result));
}
json op_composition(Controller& c, RequestFields& f) {
  const Model& model = c.state().document.model;
  const long long last = static_cast<long long>(model.layers.size()) - 1;
  if (last < 1) return failure("composition needs two layers (this model has one)");
  int layer_a = 0, layer_b = 1;
  if (!f.integer("layer_a", 0, last - 1, layer_a) || !f.integer("layer_b", layer_a + 1, last, layer_b))
    return failure(f.error());
  return success(analysis::composition_json(model, layer_a, layer_b));
}
json op_layer_profile(Controller& c, RequestFields&) {
  const AppState& state = c.state();
  const Model& model = state.document.model;
  std::vector<std::vector<analysis::Label>> labels(model.layers.size());
  for (std::size_t l = 0; l < model.layers.size() && l < state.analysis.layers.size(); ++l)
    for (int h = 0; h < model.layers[l].head_count(); ++h)
      if (!model.layers[l].heads[h].pruned) labels[l].push_back(state.analysis.layers[l].heads[h].label);
  return success(analysis::layer_profile_json(analysis::layer_spreads(model, {&state.trace}), labels));
}
json op_pruning_curve(Controller& c, RequestFields& f) {
  int random_orders = 5;
  if (!f.integer("random_orders", 0, 20, random_orders)) return failure(f.error());
  const PruningCurve curve = pruning_curve(c.state(), c.resources(), random_orders);
  json order = json::array();
  for (const auto& [layer, head] : curve.importance_order) order.push_back({{"layer", layer}, {"head", head}});
  return success({{"measure", pruning_measure_name(curve.measure)},
                  {"order", order},
                  {"pruned_counts", curve.pruned_counts},
                  {"importance", curve.importance},
                  {"random", {{"orders", curve.random_orders}, {"mean", curve.random_mean}, {"min", curve.random_min},
                              {"max", curve.random_max}}}});
}

// Queries and keys of many sentences in one picture (AttentionViz; engine/analysis/query_key_map.h):
// the same sentences and numbers as the Q & K tab, read at once. Token t of sentence s is point
// i of both lists; the tab fits `bounds` into its plot with one scale for both axes.
json op_query_key_map(Controller& c, RequestFields& f) {
  const AppState& state = c.state();
  const Model& model = state.document.model;
  int layer = state.selection.layer, head = state.selection.head;
  if (!f.integer("layer", 0, static_cast<long long>(model.layers.size()) - 1, layer) ||
      !f.integer("head", 0, model.layers[layer].head_count() - 1, head))
    return failure(f.error());
  const analysis::QueryKeySample sample = sample_query_keys(state, c.resources(), layer);
  const analysis::HeadQueryKeyMap picture = analysis::head_query_key_map(sample, head);
  const analysis::QueryKeyMap& m = picture.map;
  json sentences = json::array();
  for (const analysis::SampledSentence& s : sample.sentences) {
    const Matrix& a = s.heads[static_cast<std::size_t>(head)].attention;
    json rows = json::array();
    for (Eigen::Index i = 0; i < a.rows(); ++i) rows.push_back(std::vector<float>(a.row(i).data(), a.row(i).data() + a.cols()));
    sentences.push_back({{"text", s.text}, {"tokens", s.tokens}, {"attention", std::move(rows)}});
  }
  json points = json::array();
  for (std::size_t i = 0; i < picture.points.size(); ++i) {
    const Eigen::Index r = static_cast<Eigen::Index>(i);
    points.push_back({{"sentence", picture.points[i].sentence}, {"position", picture.points[i].position},
                      {"query", {m.query_points(r, 0), m.query_points(r, 1)}}, {"key", {m.key_points(r, 0), m.key_points(r, 1)}}});
  }
  const RowVector& shift = m.normalisation.key_shift;
  return success({{"layer", layer}, {"head", head}, {"sentences", std::move(sentences)}, {"points", std::move(points)},
                  {"bounds", {{"min_x", m.min_x}, {"max_x", m.max_x}, {"min_y", m.min_y}, {"max_y", m.max_y}}},
                  {"query_scale", m.normalisation.query_scale},
                  {"key_shift", std::vector<float>(shift.data(), shift.data() + shift.size())},
                  {"variances", m.axes.variances}, {"total_variance", m.axes.total_variance}});
}

// A head across the same sentences (exBERT; engine/analysis/head_corpus.h), as the tab's
// "Strongest attention" view counts it, for an optional search.
json op_head_corpus(Controller& c, RequestFields& f) {
  const AppState& state = c.state();
  const Model& model = state.document.model;
  int layer = state.selection.layer, head = state.selection.head, count = 20;
  std::string search;
  if (!f.integer("layer", 0, static_cast<long long>(model.layers.size()) - 1, layer) ||
      !f.integer("head", 0, model.layers[layer].head_count() - 1, head) || !f.integer("count", 1, 1000, count) ||
      !f.string("search", search))
    return failure(f.error());
  const analysis::QueryKeySample sample = sample_query_keys(state, c.resources(), layer);
  const analysis::HeadCorpus corpus = analysis::head_corpus(sample, head, c.resources().lexicon, model.causal, count, search);
  json kinds = json::object(), classes = json::object(), strongest = json::array();
  for (int k = 0; k < analysis::kAttendedKindCount; ++k)
    kinds[analysis::attended_kind_name(static_cast<analysis::AttendedKind>(k))] = corpus.kinds[static_cast<std::size_t>(k)];
  for (int p = 0; p < analysis::kPartOfSpeechCount; ++p)
    if (corpus.word_classes[static_cast<std::size_t>(p)] > 0)
      classes[to_string(static_cast<PartOfSpeech>(p))] = corpus.word_classes[static_cast<std::size_t>(p)];
  for (const analysis::StrongContext& s : corpus.strongest) {
    const analysis::SampledSentence& sentence = sample.sentences[static_cast<std::size_t>(s.sentence)];
    strongest.push_back({{"sentence", s.sentence}, {"text", sentence.text}, {"tokens", sentence.tokens}, {"query", s.query},
                         {"key", s.key}, {"weight", s.weight}, {"kind", analysis::attended_kind_name(s.kind)}});
  }
  return success({{"layer", layer}, {"head", head}, {"queries", corpus.queries}, {"forced", corpus.forced},
                  {"kinds", std::move(kinds)}, {"word_classes", std::move(classes)}, {"strongest", std::move(strongest)}});
}

struct Handler {
  const char* op;
  std::vector<const char*> fields;
  json (*handle)(Controller&, RequestFields&);
  // Whether the answer reads the trace or analysis, so layers still lagging after a drag in the
  // page are caught up first. The autosave's polls read only the document: catching up for them
  // would bring the whole cost of a step back into a drag twice a second.
  bool reads_every_layer = true;
};
constexpr bool kReadsOnlyTheDocument = false;
const std::vector<Handler>& handlers() {
  static const std::vector<Handler> table = {
      {"state", {}, op_state},
      {"saveState", {}, op_save_state, kReadsOnlyTheDocument},
      {"loadState", {"json"}, op_load_state},
      {"shareLink", {}, op_share_link, kReadsOnlyTheDocument},
      {"openShareLink", {"fragment"}, op_open_share_link},
      {"stateKey", {}, op_state_key, kReadsOnlyTheDocument},
      {"notify", {"level", "text"}, op_notify, kReadsOnlyTheDocument},
      {"showMe", {}, op_lesson_move<LessonMove::show_me>},
      {"nextStep", {}, op_lesson_move<LessonMove::next>},
      {"previousStep", {}, op_lesson_move<LessonMove::previous>},
      {"resetStep", {}, op_lesson_move<LessonMove::reset_step>},
      {"leaveLesson", {}, op_lesson_move<LessonMove::leave>},
      {"resumeLesson", {}, op_lesson_move<LessonMove::resume>},
      {"hint", {}, op_lesson_move<LessonMove::hint>},
      {"resetProgress", {}, op_lesson_move<LessonMove::reset_progress>},
      {"lessons", {}, op_lessons},
      {"exportModel", {}, op_export_model},
      {"circuits", {"layer", "head"}, op_circuits},
      {"composition", {"layer_a", "layer_b"}, op_composition},
      {"layerProfile", {}, op_layer_profile},
      {"pruningCurve", {"random_orders"}, op_pruning_curve},
      {"queryKeyMap", {"layer", "head"}, op_query_key_map},
      {"headCorpus", {"layer", "head", "count", "search"}, op_head_corpus}};
  return table;
}

json dispatch(Controller& controller, TrainingSession* training, CheckpointLoader* checkpoint, const json& request) {
  if (!request.is_object() || !request.contains("op") || !request["op"].is_string())
    return failure("request: expected {\"op\": ...}");
  const std::string op = request["op"].get<std::string>();
  Dispatcher dispatcher(controller, training);
  if (is_action_op(op)) return apply_request(dispatcher, request);
  for (const Handler& handler : handlers()) {
    if (op != handler.op) continue;
    RequestFields fields(request, handler.fields);
    if (!fields.ok()) return failure(fields.error());
    if (handler.reads_every_layer) controller.catch_up_all();
    return handler.handle(controller, fields);
  }
  if (is_training_op(op)) return handle_training_op(dispatcher, request);
  if (is_benchmark_op(op)) return handle_benchmark_op(controller, request);
  if (is_checkpoint_op(op)) return handle_checkpoint_op(controller, checkpoint, request);
  return failure("op: unknown operation \"" + op + "\"");
}

}  // namespace

std::string handle_request(Controller& controller, const std::string& request_json, TrainingSession* training,
                           CheckpointLoader* checkpoint) {
  const json request = json::parse(request_json, nullptr, false);
  if (request.is_discarded()) return failure("request: not valid JSON").dump();
  const json reply = dispatch(controller, training, checkpoint, request);
  // A training request (requestTraining, a lesson's setup) or steps taken reach the run and the
  // lesson goals before the caller's next request, not only at the next frame.
  if (training) sync_training(controller, *training);
  return reply.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::vector<std::string> api_op_names() {
  std::vector<std::string> names = action_op_names();
  for (const Handler& handler : handlers()) names.push_back(handler.op);
  for (const std::string& op : training_op_names()) names.push_back(op);
  for (const std::string& op : benchmark_op_names()) names.push_back(op);
  for (const std::string& op : checkpoint_op_names()) names.push_back(op);
  return names;
}

}  // namespace headlab::api

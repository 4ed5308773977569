#include "app/apply_action.h"

#include "app/actions.h"
#include "app/matrix_actions.h"
#include "app/model_actions.h"
#include "app/trained_model.h"
#include "engine/model_file.h"
#include "engine/tensor_model_file.h"
#include "engine/analysis/importance.h"
#include "engine/presets.h"
#include "engine/symbol_sequence.h"

namespace headlab::app {
namespace {

// Each overload validates its fields first and writes only when all are good.

std::string perform(AppState& state, const Resources&, const SetText& a) { return set_text(state, a.text); }

std::string perform(AppState& state, const Resources&, const SetRepeatedSequence& a) {
  if (a.length < kMinRepeatedLength || a.length > kMaxRepeatedLength)
    return "length must be between " + std::to_string(kMinRepeatedLength) + " and " + std::to_string(kMaxRepeatedLength);
  return set_text(state, repeated_symbol_text(a.length, a.seed));
}

std::string perform(AppState& state, const Resources&, const SetTokenIds& a) {
  const Model& model = state.document.model;
  if (model.tokenizer.empty()) return "ids: this model reads words, not the ids of a subword vocabulary";
  for (std::size_t i = 0; i < a.ids.size(); ++i)
    if (a.ids[i] < 0 || a.ids[i] >= model.token_embedding.rows())
      return "ids[" + std::to_string(i) + "]: expected an id in 0.." + std::to_string(model.token_embedding.rows() - 1) +
             " (got " + std::to_string(a.ids[i]) + ")";
  Input& input = state.document.input;
  input.kind = InputKind::token_ids;
  input.ids = a.ids;
  input.tokens.clear();
  input.X.resize(0, 0);
  return {};
}

std::string perform(AppState& state, const Resources&, const SetHeadCount& a) {
  if (a.layer) return set_head_count(state, *a.layer, a.count);
  if (a.count < 1 || a.count > kMaxHeads) return "head count must be between 1 and " + std::to_string(kMaxHeads);
  for (int l = 0; l < static_cast<int>(state.document.model.layers.size()); ++l) set_head_count(state, l, a.count);
  return {};
}

std::string perform(AppState& state, const Resources&, const SetLayerCount& a) { return set_layer_count(state, a.count); }

std::string perform(AppState& state, const Resources&, const SetWeight& a) {
  return set_weight(state, a.layer, a.head, a.which, a.row, a.col, a.value);
}

std::string perform(AppState& state, const Resources&, const SetLine& a) {
  return set_line(state, {a.layer, a.head, a.which}, a.axis, a.index, a.values);
}

std::string perform(AppState& state, const Resources&, const ScaleLine& a) {
  return scale_line(state, {a.layer, a.head, a.which}, a.axis, a.index, a.factor);
}

std::string perform(AppState& state, const Resources&, const ZeroOutputBlock& a) {
  if (a.head < 0) return "head " + std::to_string(a.head) + " does not exist";
  return zero_output_block(state, a.layer, a.head);
}

std::string perform(AppState& state, const Resources&, const ZeroOutputBlockAll& a) {
  return zero_output_block(state, a.layer, -1);
}

std::string perform(AppState& state, const Resources&, const SelectHead& a) { return select_head(state, a.layer, a.head); }

std::string perform(AppState& state, const Resources&, const SetPruned& a) {
  auto& layers = state.document.model.layers;
  if (a.layer < 0 || a.layer >= static_cast<int>(layers.size())) return "layer " + std::to_string(a.layer) + " does not exist";
  if (a.head < 0 || a.head >= layers[a.layer].head_count())
    return "head " + std::to_string(a.head) + " does not exist in layer " + std::to_string(a.layer);
  layers[a.layer].heads[a.head].pruned = a.pruned;
  return {};
}

std::string perform(AppState& state, const Resources&, const PruneLeastImportant& a, std::vector<int>& pruned) {
  if (state.dirty) return "pruneLeastImportant: the importance of the last edit is not computed yet";
  if (a.layer < 0 || a.layer >= static_cast<int>(state.analysis.layers.size()))
    return "layer " + std::to_string(a.layer) + " does not exist";
  std::vector<float> importance;
  for (const analysis::HeadAnalysis& h : state.analysis.layers[a.layer].heads) importance.push_back(h.importance);
  Result<std::vector<int>> done = analysis::prune_least_important(state.document.model, a.layer, a.k, importance);
  if (!done.ok()) return done.error();
  pruned = std::move(done).value();
  return {};
}

std::string perform(AppState& state, const Resources& resources, const ApplyPreset& a) {
  const Preset* preset = find_preset(resources.presets, a.preset);
  if (!preset) return "preset: unknown preset \"" + a.preset + "\" (assets/presets/index.json)";
  return apply_preset(state.document.model, a.layer, a.head, *preset);
}

std::string perform(AppState& state, const Resources&, const ResetDocument&) {
  state.document = default_document();
  return {};
}

std::string perform(AppState& state, const Resources&, const ResetModel&) { return reset_model(state); }
std::string perform(AppState& state, const Resources&, const SetCausal& a) { return set_causal(state, a.on); }
std::string perform(AppState& state, const Resources&, const SetSpecialTokens& a) { return set_special_tokens(state, a.on); }

std::string perform(AppState& state, const Resources&, const SetHeadDim& a) {
  return set_head_dim(state, a.layer, a.d_k, a.d_v.value_or(a.d_k));
}

std::string perform(AppState& state, const Resources&, const SetDModel& a) { return set_d_model(state, a.d_model); }

std::string perform(AppState& state, const Resources&, const SetLayerOptions& a) {
  const auto& layers = state.document.model.layers;
  if (a.layer < 0 || a.layer >= static_cast<int>(layers.size())) return "layer " + std::to_string(a.layer) + " does not exist";
  const Layer& current = layers[a.layer];
  return set_layer_options(state, a.layer, a.residual.value_or(current.residual), a.norm.value_or(current.norm),
                           a.ffn.value_or(current.has_ffn));
}

std::string perform(AppState& state, const Resources&, const SetEmbedding& a) { return set_embedding(state, a.embedding); }
std::string perform(AppState& state, const Resources&, const SetPositional& a) { return set_positional(state, a.positional); }
std::string perform(AppState& state, const Resources&, const Randomize& a) { return randomize_model(state, a.seed); }

std::string perform(AppState& state, const Resources&, const ResetHead& a) {
  return reset_head(state, a.layer, a.head, a.seed);
}

std::string perform(AppState& state, const Resources&, const LoadModel& a) { return load_model(state, a.json); }

std::string perform(AppState& state, const Resources& resources, const LoadTrainedModel&) {
  if (!resources.trained_model->arrived) return "The trained model is still downloading; try again in a moment.";
  Result<Document> parsed = parse_model_file(resources.trained_model->text);
  if (!parsed.ok()) return "the shipped trained model: " + parsed.error();
  state.document = with_annotated_sentence(std::move(parsed).value(), resources.analysis.gold);
  return {};
}

// The real-text models trained with softmax + 1 and sigmoid are fetched only when first asked for
// (lesson 23, Model settings): true when `a` asks for one not there yet, which then opens when it
// arrives (the platform applies `a` again); nothing changes now.
bool asks_for_text_model(const Resources& resources, const LoadTextModel& a) {
  LateAsset& slot = *resources.text_model_trained_with(a.attention);
  if (a.attention == AttentionNormalization::softmax || (slot.arrived && resources.text_tokenizer->tokenizer)) return false;
  if (!slot.arrived) slot.requested = true;
  slot.open_when_arrived = true;
  return true;
}

std::string perform(AppState& state, const Resources& resources, const LoadTextModel& a) {
  LateAsset& slot = *resources.text_model_trained_with(a.attention);
  const std::string& bytes = slot.text;
  if (!slot.arrived || !resources.text_tokenizer->tokenizer)
    return "The real-text model is still downloading; try again in a moment.";
  Result<Document> read = read_tensor_model(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  if (!read.ok()) return "the shipped real-text model: " + read.error();
  const bpe::BpeTokenizer* tokenizer = resources.subword_tokenizer(read.value().model.tokenizer);
  if (!tokenizer || static_cast<Eigen::Index>(tokenizer->tokens.size()) != read.value().model.token_embedding.rows())
    return "the shipped real-text model does not match its vocabulary (assets/tokenizers/text.json)";
  state.document = std::move(read).value();
  slot.open_when_arrived = false;
  return {};
}

std::string perform(AppState& state, const Resources& resources, const LoadStartingModel&) {
  for (const Action& action : resources.starting_actions)
    if (const ActionResult done = apply(state, resources, action); !done.ok()) return "assets/starting_model.json: " + done.error;
  return {};
}

std::string perform(AppState& state, const Resources&, const SetTheme& a) {
  state.preferences.theme = a.theme == Theme::light ? "light" : "dark";
  return {};
}

// The reading describes the run (and experiment) as they were before the request, which may start
// them over: a lesson step's goal checked right after its setup would count a run trained before
// the step. Dropped here; the session's next sync reads whatever then runs.
std::string perform(AppState& state, const Resources&, const RequestTraining& a) {
  state.training_request = a;
  ++state.training_request_serial;
  state.training.reset();
  return {};
}

std::string perform(AppState& state, const Resources&, const RequestHeadCountExperiment& a) {
  state.experiment_request = a;
  ++state.experiment_request_serial;
  state.training.reset();
  return {};
}

// Training, history, lesson and language actions change things beside the AppState: the
// Dispatcher (dispatcher.h) applies them. A lesson step's setup runs on the state alone.
template <class A>
std::string perform(AppState&, const Resources&, const A&) {
  return "op: not a change of the lab's model (it needs the page's dispatcher)";
}

// Edits of a model's shape or of how it reads its input: a checkpoint's are fixed by its weights.
bool changes_checkpoint_structure(const Action& action) {
  return std::holds_alternative<SetHeadCount>(action) || std::holds_alternative<SetLayerCount>(action) ||
         std::holds_alternative<SetHeadDim>(action) || std::holds_alternative<SetDModel>(action) ||
         std::holds_alternative<SetLayerOptions>(action) || std::holds_alternative<SetEmbedding>(action) ||
         std::holds_alternative<SetPositional>(action) || std::holds_alternative<SetSpecialTokens>(action) ||
         std::holds_alternative<Randomize>(action) || std::holds_alternative<SetRepeatedSequence>(action);
}

}  // namespace

std::string checkpoint_structure_refusal(const AppState& state, const Action& action) {
  if (!is_checkpoint_model(state.document.model) || !changes_checkpoint_structure(action)) return {};
  return "a checkpoint's shape is fixed by its trained weights: head count, d_k, layers, d_model, embedding, positions "
         "and the input's kind cannot change (weights can be edited and heads pruned)";
}

bool applies_to_state(const Action& action) {
  return action.index() <= Action(RequestHeadCountExperiment{}).index();
}

bool changes_document(const Action& action) {
  return applies_to_state(action) && !std::holds_alternative<SelectHead>(action) &&
         !std::holds_alternative<SetTheme>(action) && !std::holds_alternative<RequestTraining>(action) &&
         !std::holds_alternative<RequestHeadCountExperiment>(action);
}

ActionResult apply(AppState& state, const Resources& resources, const Action& action) {
  ActionResult result;
  if (std::string refusal = checkpoint_structure_refusal(state, action); !refusal.empty()) {
    result.error = std::move(refusal);
    return result;
  }
  if (const auto* load = std::get_if<LoadTextModel>(&action); load && asks_for_text_model(resources, *load)) {
    result.changed = false;
    return result;
  }
  result.error = std::visit(
      [&](const auto& a) {
        if constexpr (std::is_same_v<std::decay_t<decltype(a)>, PruneLeastImportant>)
          return perform(state, resources, a, result.pruned_heads);
        else
          return perform(state, resources, a);
      },
      action);
  if (result.ok() && changes_document(action)) state.dirty = true;
  return result;
}

}  // namespace headlab::app

// Model settings: d_model, d_k, causal mask, special tokens, embedding, positional encoding, seed,
// layer options (residual, norm, FFN), reset and randomize.
#include <algorithm>
#include <initializer_list>
#include <random>
#include <string>

#include "engine/embedding.h"
#include "engine/symbol_sequence.h"
#include "imgui.h"
#include "ui/format_text.h"
#include "ui/panels.h"
#include "ui/widget_ids.h"
#include "ui/value_slider.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

// An ImGui::Combo item list ("a\0b\0\0") of the texts under `keys`, in the learner's language.
std::vector<std::string> combo_items(const PanelContext& context, std::initializer_list<const char*> keys) {
  std::vector<std::string> items;
  for (const char* key : keys) items.emplace_back(context.tr(key));
  return items;
}

// A checkpoint keeps the shape of its weights: what it is, the causal mask (GPT-2 is causal; off, a
// learner sees what the mask does), reset, and why the rest is not offered.
void draw_checkpoint_controls(PanelContext& context) {
  const Model& model = context.state().document.model;
  ActionSink& actions = context.actions;
  const float font = ImGui::GetFontSize();
  const Layer& first = model.layers.front();
  ImGui::AlignTextToFramePadding();
  ImGui::Text(context.tr("checkpoint_shape"), static_cast<int>(model.layers.size()), first.head_count(), model.d_model, first.d_k);
  item_tooltip(context.tr("checkpoint_structure_locked"));
  flow_same_line(font * 7.0f);
  bool causal = model.causal;
  if (ImGui::Checkbox(with_id(context.tr("model_causal"), "causal").c_str(), &causal)) actions.emit(app::SetCausal{causal});
  item_tooltip(context.tr("model_causal_tip"));
  flow_same_line(font * 7.0f);
  if (ImGui::Button(with_id(context.tr("model_reset"), "resetmodel").c_str())) actions.emit(app::ResetModel{});
  item_tooltip(context.tr("model_reset_tip"));
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", context.tr("checkpoint_structure_locked"));
  ImGui::PopTextWrapPos();
}

}  // namespace

// The file picker for model.safetensors + config.json (web/checkpoint.js), through the platform.
void open_checkpoint_button(PanelContext& context, const char* widget_id) {
  if (ImGui::Button(with_id(context.tr("checkpoint_open"), widget_id).c_str())) {
    context.ui.pending_export = ExportKind::open_checkpoint;
    context.ui.detail_before_export = context.ui.detail;
  }
  register_item(context.ui, widget_id);
  item_tooltip(context.tr("checkpoint_open_tip"));
}

void draw_model_controls(PanelContext& context) {
  const app::AppState& state = context.state();
  ActionSink& actions = context.actions;
  const Model& model = state.document.model;
  const float font = ImGui::GetFontSize();
  const int layer = state.selection.layer;
  const Layer& selected_layer = model.layers[layer];

  open_checkpoint_button(context, ids::kOpenCheckpoint);
  flow_same_line(font * 9.0f);
  if (is_checkpoint_model(model)) {
    draw_checkpoint_controls(context);
    return;
  }
  int d_model = model.d_model;
  const int min_d = min_d_model(model.embedding);
  ImGui::SetNextItemWidth(font * 7.0f);
  if (value_drag_int("d_model", &d_model, min_d, 128) && d_model != model.d_model)
    actions.emit(app::SetDModel{d_model}, 2);
  register_item(context.ui, ids::kDModel);
  if (ImGui::IsItemDeactivated()) actions.end_merge();
  item_tooltip(context.tr("model_d_model_tip"));
  flow_same_line(font * 9.0f);
  int d_k = selected_layer.d_k;
  ImGui::SetNextItemWidth(font * 6.0f);
  if (value_drag_int("d_k", &d_k, 1, 32) && d_k != selected_layer.d_k)
    actions.emit(app::SetHeadDim{layer, d_k, d_k}, 3);
  register_item(context.ui, ids::kHeadDim);
  if (ImGui::IsItemDeactivated()) actions.end_merge();
  item_tooltip(context.tr("model_d_k_tip"));
  flow_same_line(font * 6.0f);
  bool causal = model.causal;
  if (ImGui::Checkbox(with_id(context.tr("model_causal"), "causal").c_str(), &causal))
    actions.emit(app::SetCausal{causal});
  item_tooltip(context.tr("model_causal_tip"));
  flow_same_line(font * 7.0f);
  bool special = model.special_tokens;
  if (ImGui::Checkbox("[CLS]/[SEP]", &special))
    actions.emit(app::SetSpecialTokens{special});
  item_tooltip(context.tr("model_special_tokens_tip"));

  flow_same_line(font * 14.0f);
  // The combo lists the embeddings in the enum's order.
  int embedding = static_cast<int>(model.embedding);
  ImGui::SetNextItemWidth(font * 8.0f);
  if (choice_combo(with_id(context.tr("model_embedding"), "embedding").c_str(), embedding,
                   combo_items(context, {"model_embedding_named", "model_embedding_random", "model_embedding_symbols"})))
    actions.emit(app::SetEmbedding{static_cast<Embedding>(embedding)});
  item_tooltip(context.tr("model_embedding_tip"));
  if (model.embedding == Embedding::symbols) {
    LabUiState& ui = context.ui;
    flow_same_line(font * 24.0f);
    ImGui::SetNextItemWidth(font * 5.0f);
    value_slider_int(with_id(context.tr("model_length"), "length").c_str(), &ui.repeated_length, kMinRepeatedLength,
                     kMaxRepeatedLength);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(font * 4.0f);
    ImGui::InputInt("##repeat_seed", &ui.repeated_seed, 0, 0);
    ui.repeated_seed = std::max(0, ui.repeated_seed);
    ImGui::SameLine();
    if (ImGui::Button(with_id(context.tr("model_repeated_sequence"), "random_tokens_repeated").c_str()))
      actions.emit(app::SetRepeatedSequence{ui.repeated_length, static_cast<std::uint32_t>(ui.repeated_seed)});
    register_item(ui, ids::kRepeatedSequence);
    item_tooltip(context.tr("model_repeated_sequence_tip"));
  }
  flow_same_line(font * 12.0f);
  int positional = static_cast<int>(model.positional);
  ImGui::SetNextItemWidth(font * 7.0f);
  if (choice_combo(with_id(context.tr("model_positions"), "positions").c_str(), positional,
                   combo_items(context, {"model_positions_sinusoidal", "model_positions_learned", "model_positions_none"})))
    actions.emit(app::SetPositional{static_cast<Positional>(positional)});
  item_tooltip(context.tr("model_positions_tip"));
  flow_same_line(font * 7.0f);
  bool residual = selected_layer.residual, ffn = selected_layer.has_ffn;
  int norm = static_cast<int>(selected_layer.norm);
  bool layer_changed = ImGui::Checkbox(with_id(context.tr("model_residual"), "residual").c_str(), &residual);
  item_tooltip(context.tr("model_residual_tip"));
  flow_same_line(font * 8.0f);
  ImGui::SetNextItemWidth(font * 5.0f);
  layer_changed |= choice_combo(with_id(context.tr("model_norm"), "norm").c_str(), norm,
                                combo_items(context, {"model_norm_none", "model_norm_pre", "model_norm_post"}));
  item_tooltip(context.tr("model_norm_tip"));
  flow_same_line(font * 4.5f);
  layer_changed |= ImGui::Checkbox(with_id(context.tr("model_ffn"), "ffn").c_str(), &ffn);
  item_tooltip(context.tr("model_ffn_tip"));
  if (layer_changed)
    actions.emit(app::SetLayerOptions{layer, residual, static_cast<Norm>(norm), ffn});

  flow_same_line(font * 11.0f);
  int seed = static_cast<int>(model.seed);
  ImGui::SetNextItemWidth(font * 6.0f);
  if (ImGui::InputInt(with_id(context.tr("model_seed"), "seed").c_str(), &seed, 1, 10, ImGuiInputTextFlags_EnterReturnsTrue) &&
      seed >= 0)
    actions.emit(app::Randomize{static_cast<std::uint32_t>(seed)});
  item_tooltip(context.tr("model_seed_tip"));
  flow_same_line(font * 6.0f);
  if (ImGui::Button(with_id(context.tr("model_randomize"), "randomize").c_str())) {
    const std::uint32_t fresh = std::random_device{}() % 100000;
    actions.emit(app::Randomize{fresh});
  }
  item_tooltip(context.tr("model_randomize_tip"));
  flow_same_line(font * 7.0f);
  if (ImGui::Button(with_id(context.tr("model_reset"), "resetmodel").c_str())) actions.emit(app::ResetModel{});
  item_tooltip(context.tr("model_reset_tip"));
  flow_same_line(font * 8.0f);
  // The page fetches the trained model after the first frame: until it is there, the button says so.
  const bool arrived = context.resources().trained_model->arrived;
  ImGui::BeginDisabled(!arrived);
  if (ImGui::Button(with_id(context.tr("model_trained"), "trainedmodel").c_str()))
    actions.emit(app::LoadTrainedModel{});
  ImGui::EndDisabled();
  register_item(context.ui, ids::kLoadTrainedModel);
  item_tooltip(context.tr(arrived ? "model_trained_tip" : "model_trained_downloading"));
  flow_same_line(font * 9.0f);
  // The real-text model needs its vocabulary too: both arrive after the first frame.
  const app::Resources& resources = context.resources();
  const bool text_arrived = resources.text_model->arrived && resources.text_tokenizer->tokenizer.has_value();
  ImGui::BeginDisabled(!text_arrived);
  if (ImGui::Button(with_id(context.tr("model_text"), "textmodel").c_str())) actions.emit(app::LoadTextModel{});
  ImGui::EndDisabled();
  register_item(context.ui, ids::kLoadTextModel);
  item_tooltip(context.tr(text_arrived ? "model_text_tip" : "model_text_downloading"));
  // The same model trained with the other normalisations (lesson 23): fetched on the first click,
  // opened when it arrives.
  static constexpr AttentionNormalization kOthers[2] = {AttentionNormalization::softmax_plus_one, AttentionNormalization::sigmoid};
  static const char* const kLabels[2] = {"model_text_plus_one", "model_text_sigmoid"};
  static const char* const kIds[2] = {ids::kLoadTextModelPlusOne, ids::kLoadTextModelSigmoid};
  for (int k = 0; k < 2; ++k) {
    const app::LateAsset& slot = *resources.text_model_trained_with(kOthers[k]);
    const char* label = context.tr(kLabels[k]);
    flow_same_line(ImGui::CalcTextSize(label).x + font * 2.0f);
    ImGui::BeginDisabled(!resources.text_tokenizer->tokenizer.has_value() || slot.open_when_arrived);
    if (ImGui::Button(with_id(label, kIds[k]).c_str())) actions.emit(app::LoadTextModel{kOthers[k]});
    ImGui::EndDisabled();
    register_item(context.ui, kIds[k]);
    item_tooltip(context.tr(slot.open_when_arrived ? "model_text_other_downloading" : "model_text_other_tip"));
  }
}

}  // namespace headlab::ui

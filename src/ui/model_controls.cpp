// Model settings: d_model, d_k, causal mask, special tokens, embedding, positional encoding, seed,
// layer options (residual, norm, FFN), reset and randomize.
#include <algorithm>
#include <random>

#include "engine/embedding.h"
#include "engine/symbol_sequence.h"
#include "imgui.h"
#include "ui/panels.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {

void draw_model_controls(PanelContext& context) {
  const app::AppState& state = context.state();
  ActionSink& actions = context.actions;
  const Model& model = state.document.model;
  const float font = ImGui::GetFontSize();
  const int layer = state.selection.layer;
  const Layer& selected_layer = model.layers[layer];

  int d_model = model.d_model;
  const int min_d = min_d_model(model.embedding);
  ImGui::SetNextItemWidth(font * 7.0f);
  if (ImGui::SliderInt("d_model", &d_model, min_d, 128) && d_model != model.d_model)
    actions.emit(app::SetDModel{d_model}, 2);
  if (ImGui::IsItemDeactivated()) actions.end_merge();
  item_tooltip("Width of each token vector X. The named-feature embedding has 24 named dimensions; extra "
               "dimensions hold a random word identity.");
  flow_same_line(font * 9.0f);
  int d_k = selected_layer.d_k;
  ImGui::SetNextItemWidth(font * 6.0f);
  if (ImGui::SliderInt("d_k", &d_k, 1, 32) && d_k != selected_layer.d_k)
    actions.emit(app::SetHeadDim{layer, d_k, d_k}, 3);
  if (ImGui::IsItemDeactivated()) actions.end_merge();
  item_tooltip("Size of each head's query/key (and value) vectors in the selected layer. d_model / heads is the "
               "usual choice; columns that stay keep their weights.");
  flow_same_line(font * 6.0f);
  bool causal = model.causal;
  if (ImGui::Checkbox("causal", &causal))
    actions.emit(app::SetCausal{causal});
  item_tooltip("Mask future tokens: query i may only attend to keys 0..i (as in GPT-style decoders).");
  flow_same_line(font * 7.0f);
  bool special = model.special_tokens;
  if (ImGui::Checkbox("[CLS]/[SEP]", &special))
    actions.emit(app::SetSpecialTokens{special});
  item_tooltip("Wrap the sentence in BERT's special tokens. Many BERT heads park attention on [SEP] (Clark et al. 2019).");

  flow_same_line(font * 14.0f);
  // The combo lists the embeddings in the enum's order.
  int embedding = static_cast<int>(model.embedding);
  ImGui::SetNextItemWidth(font * 8.0f);
  if (ImGui::Combo("embedding", &embedding, "named features\0random\0symbols A-J\0\0"))
    actions.emit(app::SetEmbedding{static_cast<Embedding>(embedding)});
  item_tooltip("Named features: each dimension means something (noun, verb, position...), so weights can be built "
               "by hand. Random: a seeded vector per word, as in an untrained model. Symbols: one dimension per "
               "symbol A-J plus free dimensions heads can write into, for induction heads.");
  if (model.embedding == Embedding::symbols) {
    LabUiState& ui = context.ui;
    flow_same_line(font * 24.0f);
    ImGui::SetNextItemWidth(font * 5.0f);
    ImGui::SliderInt("length", &ui.repeated_length, kMinRepeatedLength, kMaxRepeatedLength);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(font * 4.0f);
    ImGui::InputInt("##repeat_seed", &ui.repeated_seed, 0, 0);
    ui.repeated_seed = std::max(0, ui.repeated_seed);
    ImGui::SameLine();
    if (ImGui::Button("Random tokens, repeated"))
      actions.emit(app::SetRepeatedSequence{ui.repeated_length, static_cast<std::uint32_t>(ui.repeated_seed)});
    register_item(ui, ids::kRepeatedSequence);
    item_tooltip("The input becomes `length` random symbols (with this seed), then the same symbols again: in "
                 "\"C F A J C F A J\" an induction head makes the second C look at F.");
  }
  flow_same_line(font * 12.0f);
  int positional = static_cast<int>(model.positional);
  ImGui::SetNextItemWidth(font * 7.0f);
  if (ImGui::Combo("positions", &positional, "sinusoidal\0learned\0none\0\0"))
    actions.emit(app::SetPositional{static_cast<Positional>(positional)});
  item_tooltip("How token order enters X. Without positions, attention cannot tell 'dog bites man' from 'man bites dog'.");
  flow_same_line(font * 7.0f);
  bool residual = selected_layer.residual, ffn = selected_layer.has_ffn;
  int norm = static_cast<int>(selected_layer.norm);
  bool layer_changed = ImGui::Checkbox("residual", &residual);
  item_tooltip("Add the layer input back to its output (x + Attention(x)).");
  flow_same_line(font * 8.0f);
  ImGui::SetNextItemWidth(font * 5.0f);
  layer_changed |= ImGui::Combo("norm", &norm, "none\0pre\0post\0\0");
  item_tooltip("LayerNorm before (pre) or after (post) each sub-layer.");
  flow_same_line(font * 4.5f);
  layer_changed |= ImGui::Checkbox("FFN", &ffn);
  item_tooltip("A position-wise feed-forward network (d_ff = 4 d_model, ReLU) after attention.");
  if (layer_changed)
    actions.emit(app::SetLayerOptions{layer, residual, static_cast<Norm>(norm), ffn});

  flow_same_line(font * 11.0f);
  int seed = static_cast<int>(model.seed);
  ImGui::SetNextItemWidth(font * 6.0f);
  if (ImGui::InputInt("seed", &seed, 1, 10, ImGuiInputTextFlags_EnterReturnsTrue) && seed >= 0)
    actions.emit(app::Randomize{static_cast<std::uint32_t>(seed)});
  item_tooltip("Random seed of every initial weight. The same seed always gives the same model.");
  flow_same_line(font * 6.0f);
  if (ImGui::Button("Randomize")) {
    const std::uint32_t fresh = std::random_device{}() % 100000;
    actions.emit(app::Randomize{fresh});
  }
  item_tooltip("New random weights for every head (a new seed). Undo with Ctrl+Z.");
  flow_same_line(font * 7.0f);
  if (ImGui::Button("Reset model")) actions.emit(app::ResetModel{});
  item_tooltip("Back to the default model (keeps your sentence).");
  flow_same_line(font * 8.0f);
  if (ImGui::Button("Trained model")) actions.emit(app::LoadTrainedModel{});
  register_item(context.ui, ids::kLoadTrainedModel);
  item_tooltip("The model HeadLab ships: 2 layers x 4 heads trained on the grammar's sentences (seed 1, 3,000 "
               "steps). Its heads learned their roles alone; the Labels tab measures them. Undo with Ctrl+Z.");
}

}  // namespace headlab::ui

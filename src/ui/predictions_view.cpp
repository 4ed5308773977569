// The next-token predictions of models with an unembedding (trained and checkpoint models): after
// each token of the sentence, the kPredictionCount tokens the model finds most likely next, with
// their probabilities. Read from AppState::predictions, computed by the app once no layer lags.
#include <string>

#include "engine/bpe/token_labels.h"
#include "imgui.h"
#include "ui/panels.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {

void draw_predictions_view(PanelContext& context, float width, float height) {
  const app::AppState& state = context.state();
  const Model& model = state.document.model;
  ImGui::TextUnformatted(context.tr("predictions_title"));
  item_tooltip(context.tr("predictions_tip"));
  if (state.predictions.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", context.tr("predictions_none"));
    ImGui::PopTextWrapPos();
    return;
  }
  const bpe::BpeTokenizer* subword = context.resources().subword_tokenizer(model.tokenizer);
  // As the axes draw them: a character the fonts lack as its code point (drawable_text).
  const auto token_text = [&](int id) -> std::string {
    if (subword) return drawable_text(bpe::token_labels(*subword, {id}).front());
    if (id >= 0 && id < static_cast<int>(model.vocab.size())) return drawable_text(model.vocab[id]);
    return "#" + std::to_string(id);
  };
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_SizingStretchSame;
  const float table_h = height - ImGui::GetFrameHeightWithSpacing();
  if (!ImGui::BeginTable("predictions", 1 + app::kPredictionCount, flags, ImVec2(width, table_h))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  // The sentence's own token, with its position, is the widest column.
  ImGui::TableSetupColumn(context.tr("predictions_after"), ImGuiTableColumnFlags_WidthStretch, 1.6f);
  for (int k = 1; k <= app::kPredictionCount; ++k)
    ImGui::TableSetupColumn(std::to_string(k).c_str(), ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableHeadersRow();
  const int rows = static_cast<int>(std::min(state.predictions.size(), context.tokens().size()));
  ImGuiListClipper clipper;
  clipper.Begin(rows);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%d %s", i, context.tokens()[i].c_str());
      for (const NextToken& next : state.predictions[i]) {
        ImGui::TableNextColumn();
        ImGui::Text("%s", token_text(next.id).c_str());
        ImGui::SameLine();
        ImGui::TextDisabled("%.0f%%", next.probability * 100.0f);
      }
    }
  }
  ImGui::EndTable();
  register_item(context.ui, ids::kPredictions);
}

}  // namespace headlab::ui

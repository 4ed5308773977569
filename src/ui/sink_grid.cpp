// The attention-sink grid (in the Labels tab): for every head of every layer, on the lab's sentence,
// the mean share of attention on the first token (the sink, Xiao et al. 2024) and on punctuation,
// one cell a head, coloured by the first-token share. The numbers come from the engine's
// training::sink_shares, the function the held-out report (headlab-cli train --task lm) uses.
// Heads wrap onto more rows when a layer is wider than the panel, so it reads on a phone.
#include <algorithm>
#include <cstdio>

#include "engine/training/text_evaluation.h"
#include "imgui.h"
#include "ui/colormap.h"
#include "ui/format_text.h"
#include "ui/panels.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

// What a row of this model's attention holds, in one line (engine/model.h).
const char* normalization_key(AttentionNormalization kind) {
  switch (kind) {
    case AttentionNormalization::softmax: return "sinks_kind_softmax";
    case AttentionNormalization::softmax_plus_one: return "sinks_kind_plus_one";
    case AttentionNormalization::sigmoid: return "sinks_kind_sigmoid";
  }
  return "sinks_kind_softmax";
}

// Up to this many heads (the lab's largest hand-built layer), the section opens by itself.
constexpr int kSinkGridOpenHeads = 16;

// Dark text on the bright end of viridis, light on the dark end.
ImU32 text_on(float t) { return t > 0.55f ? IM_COL32(20, 20, 30, 255) : IM_COL32(245, 245, 245, 255); }

}  // namespace

void draw_sink_grid(PanelContext& context, float width) {
  const app::AppState& state = context.state();
  const Words words = context.words();
  // A section of its own, open at first for the lab's models; a checkpoint's grid (GPT-2 small:
  // 144 cells, 12 rows at 1280 px) would push the rest of the tab off the screen, so it starts
  // closed there and opens on a click.
  int head_count = 0;
  for (const LayerTrace& layer : state.trace.layers) head_count += static_cast<int>(layer.heads.size());
  const ImGuiTreeNodeFlags flags = head_count <= kSinkGridOpenHeads ? ImGuiTreeNodeFlags_DefaultOpen : 0;
  const bool open = ImGui::CollapsingHeader(with_id(words("sinks_title"), "sinks").c_str(), flags);
  register_item(context.ui, ids::kSinksSection);
  if (!open) return;
  const std::vector<training::TextHeadScores> sinks = training::sink_shares(state.trace, state.input.tokens);
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  help_marker(words("sinks_help"));
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", words(normalization_key(state.document.model.attention)));
  ImGui::PopTextWrapPos();
  if (sinks.empty() || state.input.tokens.size() < 2) {
    ImGui::TextDisabled("%s", words("sinks_too_short"));
    return;
  }
  const float font = ImGui::GetFontSize();
  // A cell: "H0" and the first-token share on its first line, the punctuation share below.
  const float label_w = font * 2.0f, cell_w = font * 4.4f, cell_h = font * 2.5f, gap = 3.0f;
  // The panel's width may include a scrollbar the child around us takes: wrap to what is left.
  const float usable = std::min(width, ImGui::GetContentRegionAvail().x);
  const int per_line = std::max(1, static_cast<int>((usable - label_w) / (cell_w + gap)));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 label_colour = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const app::Selection& selected = state.selection;
  // A lesson step that asks for a guess hides the numbers, as it hides the labels, until it is met.
  const bool hidden = state.progress.labels_hidden;
  if (hidden) ImGui::TextDisabled("%s", words("labels_hidden_note"));
  std::size_t index = 0;
  for (std::size_t l = 0; l < state.trace.layers.size(); ++l) {
    const int heads = static_cast<int>(state.trace.layers[l].heads.size());
    for (int first = 0; first < heads; first += per_line) {
      const ImVec2 origin = ImGui::GetCursorScreenPos();
      char label[16] = "";  // the layer's name on its first row only
      if (first == 0) std::snprintf(label, sizeof label, "L%d", static_cast<int>(l));
      draw->AddText(ImVec2(origin.x, origin.y + (cell_h - font) * 0.5f), label_colour, label);
      ImGui::SetCursorScreenPos(ImVec2(origin.x + label_w, origin.y));
      for (int h = first; h < std::min(heads, first + per_line); ++h, ++index) {
        if (index >= sinks.size()) break;
        const training::TextHeadScores& s = sinks[index];
        if (h > first) ImGui::SameLine(0.0f, gap);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImGui::PushID(static_cast<int>(index));
        if (ImGui::InvisibleButton("sink", ImVec2(cell_w, cell_h))) context.actions.emit(app::SelectHead{s.layer, s.head});
        const bool is_selected = selected.layer == s.layer && selected.head == s.head;
        const float t = hidden ? 0.15f : std::clamp(s.first_token, 0.0f, 1.0f);
        draw->AddRectFilled(p, ImVec2(p.x + cell_w, p.y + cell_h), viridis_u32(t), 3.0f);
        if (is_selected || ImGui::IsItemHovered())
          draw->AddRect(p, ImVec2(p.x + cell_w, p.y + cell_h), ImGui::GetColorU32(ImGuiCol_Text), 3.0f, 0, 2.0f);
        char first_text[16], punct_text[16], head_text[16];
        std::snprintf(head_text, sizeof head_text, "H%d", s.head);
        std::snprintf(first_text, sizeof first_text, "%.2f", s.first_token);
        std::snprintf(punct_text, sizeof punct_text, "%.2f", s.punctuation);
        if (hidden) std::snprintf(first_text, sizeof first_text, "%s", "?"), std::snprintf(punct_text, sizeof punct_text, "%s", "?");
        const ImU32 ink = text_on(t);
        draw->AddText(ImVec2(p.x + 3.0f, p.y + 1.0f), ink, head_text);
        draw->AddText(ImVec2(p.x + cell_w - ImGui::CalcTextSize(first_text).x - 3.0f, p.y + 1.0f), ink, first_text);
        // The punctuation share on the second line, a little dimmer: the sink is the first number.
        draw->AddText(ImVec2(p.x + cell_w - ImGui::CalcTextSize(punct_text).x - 3.0f, p.y + cell_h - font - 1.0f),
                      (ink & 0x00FFFFFFu) | 0xB0000000u, punct_text);
        if (ImGui::IsItemHovered() && !hidden)
          ImGui::SetTooltip("%s", format_text(words("sinks_cell_tip"), s.layer, s.head, s.first_token, s.punctuation).c_str());
        ImGui::PopID();
      }
    }
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", words("sinks_legend"));
  ImGui::PopTextWrapPos();
  const ImVec2 bottom_right(top_left.x + width, ImGui::GetCursorScreenPos().y);
  register_rect(context.ui, ids::kSinks, top_left, bottom_right);
}

}  // namespace headlab::ui

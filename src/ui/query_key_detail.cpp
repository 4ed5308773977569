// Under (or beside) the queries-and-keys plot: the sentence of the picked point, each token on a
// chip coloured by the attention between it and the picked token, and the strongest of those in
// words, which the page's live region also reads out (QueryKeyView::announcement).
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "imgui.h"
#include "ui/colormap.h"
#include "ui/format_text.h"
#include "ui/panels.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

constexpr int kStrongestNamed = 3;

// The tokens as chips that wrap at `width`, coloured by `weights` (viridis), the picked one framed.
void token_chips(PanelContext& context, const std::vector<std::string>& tokens, const std::vector<float>& weights, int picked,
                 float width) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 pad(4.0f, 2.0f);
  const float start_x = ImGui::GetCursorScreenPos().x;
  float x = 0.0f;
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    const std::string text = drawable_text(tokens[t]);
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const ImVec2 chip(size.x + pad.x * 2, size.y + pad.y * 2);
    if (t > 0 && x + chip.x <= width) ImGui::SameLine(0.0f, style.ItemSpacing.x * 0.5f);
    else x = 0.0f;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(chip);
    x = p.x - start_x + chip.x + style.ItemSpacing.x * 0.5f;
    const float w = weights[t];
    const Rgb rgb = viridis(w);
    draw->AddRectFilled(p, ImVec2(p.x + chip.x, p.y + chip.y), viridis_u32(w), 3.0f);
    draw->AddText(ImVec2(p.x + pad.x, p.y + pad.y), contrasting_text_u32(rgb), text.c_str());
    if (static_cast<int>(t) == picked)
      draw->AddRect(ImVec2(p.x - 2, p.y - 2), ImVec2(p.x + chip.x + 2, p.y + chip.y + 2), ImGui::GetColorU32(ImGuiCol_Text), 3.0f, 0, 2.0f);
    if (ImGui::IsItemHovered()) item_tooltip(format_text("%s  %.2f", text.c_str(), w).c_str());
  }
  register_item(context.ui, ids::kQueryKeySentence);
}

}  // namespace

void draw_query_key_detail(PanelContext& context, QueryKeyView& view, float width) {
  if (view.picked < 0) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ImGui::TextDisabled("%s", context.tr("qk_pick_hint"));
    ImGui::PopTextWrapPos();
    view.announcement.clear();
    return;
  }
  const analysis::QueryKeySample& sample = view.job->sample();
  const analysis::PointRef& ref = view.map.points[static_cast<std::size_t>(view.picked)];
  const analysis::SampledSentence& sentence = sample.sentences[static_cast<std::size_t>(ref.sentence)];
  const Matrix& attention = sentence.heads[static_cast<std::size_t>(view.head)].attention;
  const int n = static_cast<int>(sentence.tokens.size());
  std::vector<float> weights(static_cast<std::size_t>(n));
  for (int t = 0; t < n; ++t) weights[t] = view.picked_key ? attention(t, ref.position) : attention(ref.position, t);
  const std::string token = drawable_text(sentence.tokens[static_cast<std::size_t>(ref.position)]);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  // Sentence 0 is the learner's own (app::QueryKeyJob reads it first).
  ImGui::TextDisabled("%s", ref.sentence == 0 ? context.tr("qk_your_sentence") : context.tr("qk_held_out_sentence"));
  ImGui::TextUnformatted(drawable_text(sentence.text).c_str());
  const std::string heading = format_text(context.tr(view.picked_key ? "qk_key_gets" : "qk_query_gives"), token.c_str(), ref.position);
  ImGui::TextColored(ImColor(view.picked_key ? IM_COL32(70, 160, 235, 255) : IM_COL32(240, 140, 40, 255)), "%s", heading.c_str());
  ImGui::PopTextWrapPos();
  token_chips(context, sentence.tokens, weights, ref.position, width);
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  const int named = std::min(kStrongestNamed, n);
  std::partial_sort(order.begin(), order.begin() + named, order.end(), [&](int a, int b) { return weights[a] > weights[b]; });
  std::string strongest;
  for (int k = 0; k < named; ++k)
    strongest += (k ? ", " : "") + drawable_text(sentence.tokens[static_cast<std::size_t>(order[k])]) +
                 format_text(" %.2f", weights[static_cast<std::size_t>(order[k])]);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ImGui::Text("%s %s", context.tr("qk_strongest"), strongest.c_str());
  ImGui::PopTextWrapPos();
  view.announcement = heading + " " + sentence.text + ". " + context.tr("qk_strongest") + " " + strongest + ".";
}

}  // namespace headlab::ui

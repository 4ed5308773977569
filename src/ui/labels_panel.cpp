// Labels panel: for every head its primary label, a bar per role score (with the role's threshold
// marked), the plain-words explanation, importance and pruning; per layer the redundancy matrix
// and the near-duplicate pairs. Everything is recomputed with every edit, so bars move live.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/analysis/roles.h"
#include "imgui.h"
#include "ui/colormap.h"
#include "ui/head_caption.h"
#include "ui/panels.h"
#include "ui/role_timeline.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

float role_threshold(const analysis::LabelConfig& c, analysis::Role role) {
  switch (role) {
    case analysis::Role::previous_token: return c.previous_token;
    case analysis::Role::next_token: return c.next_token;
    case analysis::Role::local: return -1.0f;  // a ratio, not a share: no single mark on the bar
    case analysis::Role::self: return c.self;
    case analysis::Role::delimiter: return c.delimiter;
    case analysis::Role::cls: return c.cls;
    case analysis::Role::broad: return c.broad;
    case analysis::Role::syntactic: return -1.0f;  // baseline + margin, per relation
    case analysis::Role::content_similarity: return c.content_similarity;
    case analysis::Role::rare_word: return c.rare_word;
    case analysis::Role::duplicate_token: return c.duplicate_token;
    case analysis::Role::induction: return c.induction;
  }
  return -1.0f;
}

// Why a role has no score: only syntactic (no gold parse) and the repeat roles (no token repeats)
// can be unscored.
const char* unscored_text(analysis::Role role) {
  return role == analysis::Role::syntactic ? "n/a: no gold parse" : "n/a: no token repeats";
}

void score_bar(const char* name, float value, float threshold, bool primary, float width, const char* unscored) {
  const float font = ImGui::GetFontSize();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float label_w = font * 6.8f, bar_w = std::max(font * 3.0f, width - label_w - font * 3.2f), h = font * 0.9f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddText(p, primary ? ImGui::GetColorU32(ImGuiCol_CheckMark) : ImGui::GetColorU32(ImGuiCol_Text), name);
  const ImVec2 a(p.x + label_w, p.y + (font - h) * 0.5f + 1);
  draw->AddRectFilled(a, ImVec2(a.x + bar_w, a.y + h), ImGui::GetColorU32(ImGuiCol_FrameBg), 2.0f);
  if (std::isfinite(value)) {
    draw->AddRectFilled(a, ImVec2(a.x + bar_w * std::clamp(value, 0.0f, 1.0f), a.y + h), viridis_u32(0.25f + 0.75f * value), 2.0f);
    char text[16];
    std::snprintf(text, sizeof text, "%.2f", value);
    draw->AddText(ImVec2(a.x + bar_w + font * 0.3f, p.y), ImGui::GetColorU32(ImGuiCol_Text), text);
  } else {
    draw->AddText(ImVec2(a.x + font * 0.3f, p.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), unscored);
  }
  if (threshold > 0.0f && std::isfinite(value))  // no mark across the "n/a" text of an unscored role
    draw->AddLine(ImVec2(a.x + bar_w * threshold, a.y - 2), ImVec2(a.x + bar_w * threshold, a.y + h + 2),
                  IM_COL32(255, 64, 160, 255), 2.0f);
  ImGui::Dummy(ImVec2(width, font));
}

// The held-out reading of a model trained on the grammar, refreshed when the model changed and no
// mouse button is down; null for any other model.
const app::HeldOutReading* held_out_reading(PanelContext& context) {
  const app::AppState& state = context.state();
  const app::Resources& resources = context.resources();
  if (!app::trained_on_grammar(state.document.model, resources.grammar)) return nullptr;
  LabUiState::HeldOutLabels& cache = context.ui.held_out;
  const bool special_tokens = state.document.model.special_tokens;
  if (cache.revision != state.revision && (cache.revision == ~std::uint64_t{0} || !ImGui::IsAnyMouseDown())) {
    if (!cache.labeller || cache.special_tokens != special_tokens) {
      cache.labeller = app::HeldOutLabeller::make(resources.grammar, resources.analysis.config, special_tokens);
      cache.special_tokens = special_tokens;
    }
    cache.reading = app::read_held_out(state.document.model, resources.grammar, *cache.labeller);
    cache.revision = state.revision;
  }
  return &cache.reading;
}

void head_card(PanelContext& context, int l, int h, float width) {
  const app::AppState& state = context.state();
  const analysis::HeadAnalysis& a = state.analysis.layers[l].heads[h];
  const bool pruned = state.document.model.layers[l].heads[h].pruned;
  const bool selected = state.selection.layer == l && state.selection.head == h;
  ImGui::PushID(l * 64 + h);
  char header[160];
  std::snprintf(header, sizeof header, "L%d H%d  %s###card", l, h, pruned ? "pruned" : head_caption(state, l, h).c_str());
  ImGui::SetNextItemOpen(selected, ImGuiCond_Always);
  if (ImGui::CollapsingHeader(header)) {
    if (!selected) context.actions.emit(app::SelectHead{l, h});
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(a.label.explanation.c_str());
    ImGui::PopTextWrapPos();
    if (a.label.mixed && !a.label.runners_up.empty()) {
      std::string runners = "closest: ";
      for (std::size_t i = 0; i < a.label.runners_up.size() && i < 3; ++i)
        runners += (i ? ", " : "") + label_display_name(a.label.runners_up[i]);
      ImGui::TextDisabled("%s", runners.c_str());
    } else {
      ImGui::TextDisabled("confidence %.2f%s", a.label.confidence, a.label.strict ? " (strict: >= 90%% of rows)" : "");
    }
    const analysis::LabelConfig& config = context.resources().analysis.config;
    for (int r = 0; r < analysis::kRoleCount; ++r) {
      const auto role = static_cast<analysis::Role>(r);
      const bool primary = !a.label.mixed && a.label.primary == role;
      score_bar(analysis::role_name_en(role), a.scores.score(role), role_threshold(config, role), primary, width,
                unscored_text(role));
    }
    if (const app::HeldOutReading* held_out = held_out_reading(context)) {
      // The same labeller as the Training tab's timeline: after "Use in lab" this is its last entry.
      const std::size_t index = static_cast<std::size_t>(l * state.document.model.layers[0].head_count() + h);
      if (index < held_out->heads.size()) {
        const app::HeadRole& role = held_out->heads[index];
        ImGui::PushTextWrapPos(0.0f);
        if (role.label == analysis::kMixedLabel)
          ImGui::Text("On %d held-out sentences (as the Training tab labels it): mixed", app::kHeldOutCount);
        else
          ImGui::Text("On %d held-out sentences (as the Training tab labels it): %s %.2f", app::kHeldOutCount,
                      role_text(role).c_str(), role.score);
        ImGui::PopTextWrapPos();
        register_item(context.ui, std::string(ids::kLabelsHeldOut) + "/" + std::to_string(l) + "/" + std::to_string(h));
      }
    }
    ImGui::TextDisabled("importance %.3f (change of the layer output when masked)", a.importance);
    bool p = pruned;
    if (ImGui::Checkbox("pruned", &p))
      context.actions.emit(app::SetPruned{l, h, p});
    item_tooltip("A pruned head contributes a zero block to the concatenation (Michel et al. 2019).");
  } else if (ImGui::IsItemClicked()) {
    context.actions.emit(app::SelectHead{l, h});
  }
  ImGui::PopID();
}

void redundancy_matrix(PanelContext& context, int l, float width) {
  const app::AppState& state = context.state();
  const analysis::LayerAnalysis& la = state.analysis.layers[l];
  const int h = static_cast<int>(la.redundancy.rows());
  if (h < 2) return;
  const float font = ImGui::GetFontSize();
  const float cell = std::min(font * 1.6f, (width - font * 2.0f) / h);
  ImGui::TextDisabled("Redundancy (Jensen-Shannon distance, 0 = same attention):");
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int a = 0; a < h; ++a)
    for (int b = 0; b < h; ++b) {
      const float d = la.redundancy(a, b);
      const ImVec2 c0(p.x + font * 1.5f + b * cell, p.y + a * cell);
      draw->AddRectFilled(c0, ImVec2(c0.x + cell - 1, c0.y + cell - 1), viridis_u32(1.0f - std::min(1.0f, d / 0.83f)));
    }
  for (int a = 0; a < h; ++a) {
    char t[12];  // any int
    std::snprintf(t, sizeof t, "%d", a);
    draw->AddText(ImVec2(p.x, p.y + a * cell), ImGui::GetColorU32(ImGuiCol_TextDisabled), t);
  }
  ImGui::InvisibleButton("redundancy", ImVec2(font * 1.5f + h * cell, h * cell));
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int a = static_cast<int>((m.y - p.y) / cell), b = static_cast<int>((m.x - p.x - font * 1.5f) / cell);
    if (a >= 0 && a < h && b >= 0 && b < h) ImGui::SetTooltip("heads %d and %d: distance %.3f", a, b, la.redundancy(a, b));
  }
  for (const auto& [a, b] : la.near_duplicates) ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "heads %d and %d are near-duplicates", a, b);
}

}  // namespace

void draw_labels_panel(PanelContext& context, float width, float height) {
  const app::AppState& state = context.state();
  ImGui::BeginChild("labels", ImVec2(0, height), false);
  register_rect(context.ui, ids::kLabels, ImGui::GetWindowPos(),
                ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowSize().x, ImGui::GetWindowPos().y + ImGui::GetWindowSize().y));
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", state.analysis.gold.reason.c_str());
  ImGui::PopTextWrapPos();
  draw_pruning_curve(context, width);
  const int layers = std::min(static_cast<int>(state.analysis.layers.size()), static_cast<int>(state.document.model.layers.size()));
  for (int l = 0; l < layers; ++l) {
    ImGui::Separator();
    ImGui::Text("Layer %d", l);
    ImGui::SameLine();
    ImGui::PushID(l);
    if (ImGui::SmallButton("prune least important")) context.actions.emit(app::PruneLeastImportant{l, 1});
    item_tooltip("Prune the head whose removal changes this layer's output least (ablation, Michel et al. 2019).");
    ImGui::PopID();
    for (int h = 0; h < static_cast<int>(state.analysis.layers[l].heads.size()); ++h) head_card(context, l, h, width - ImGui::GetFontSize());
    redundancy_matrix(context, l, width);
  }
  ImGui::EndChild();
}

}  // namespace headlab::ui

// Labels panel: for every head its primary label, a bar per role score (with the role's threshold
// marked), the plain-words explanation, importance and pruning; per layer the redundancy matrix
// and the near-duplicate pairs. Everything follows every edit, so bars move live; the redundancy,
// which the analysis of an edit leaves out, is computed here for each new revision.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/explanation_text.h"
#include "engine/analysis/redundancy.h"
#include "engine/analysis/roles.h"
#include "engine/head_index.h"
#include "imgui.h"
#include "ui/colormap.h"
#include "ui/format_text.h"
#include "ui/head_caption.h"
#include "ui/panels.h"
#include "ui/role_timeline.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

// Why a role has no score: only syntactic (no gold parse) and the repeat roles (no token repeats)
// can be unscored.
const char* unscored_text(analysis::Role role, const Words& words) {
  return words(role == analysis::Role::syntactic ? "labels_no_gold" : "labels_no_repeats");
}

// Whether syntactic roles are scored, and why not.
std::string gold_text(const analysis::GoldStatus& gold, const Words& words) {
  if (words.language == app::Language::en) return gold.reason;
  if (gold.has_gold) return format_text(words("labels_gold_parse"), gold.sentence_id.c_str());
  if (!gold.sentence_id.empty()) return format_text(words("labels_gold_example_without_parse"), gold.sentence_id.c_str());
  return words("labels_gold_none");
}

// One role's score as a bar with its threshold marked; `note` (a guard that held a passing score
// back) follows the number, in a column `note_w` wide that every bar of the list leaves free.
void score_bar(const char* name, float value, float threshold, bool primary, float width, const char* unscored,
               const char* note, float note_w) {
  const float font = ImGui::GetFontSize();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float label_w = font * 6.8f, bar_w = std::max(font * 3.0f, width - label_w - font * 3.2f - note_w), h = font * 0.9f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddText(p, primary ? ImGui::GetColorU32(ImGuiCol_CheckMark) : ImGui::GetColorU32(ImGuiCol_Text), name);
  const ImVec2 a(p.x + label_w, p.y + (font - h) * 0.5f + 1);
  draw->AddRectFilled(a, ImVec2(a.x + bar_w, a.y + h), ImGui::GetColorU32(ImGuiCol_FrameBg), 2.0f);
  if (std::isfinite(value)) {
    draw->AddRectFilled(a, ImVec2(a.x + bar_w * std::clamp(value, 0.0f, 1.0f), a.y + h), viridis_u32(0.25f + 0.75f * value), 2.0f);
    char text[16];
    std::snprintf(text, sizeof text, "%.2f", value);
    draw->AddText(ImVec2(a.x + bar_w + font * 0.3f, p.y), ImGui::GetColorU32(ImGuiCol_Text), text);
    if (*note) draw->AddText(ImVec2(a.x + bar_w + font * 2.4f, p.y), IM_COL32(255, 176, 64, 255), note);
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

// What the lab measured of head (l, h): why it has its label, every role's score against its
// threshold, and its label on held-out text when the model was trained on the grammar.
void label_details(PanelContext& context, const analysis::HeadAnalysis& a, int l, int h, float width) {
  const app::AppState& state = context.state();
  const Words words = context.words();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(app::explanation_text(a.label, words.resources, words.language).c_str());
  ImGui::PopTextWrapPos();
  if (!a.label.mixed()) ImGui::TextDisabled(words("labels_confidence"), a.label.confidence, a.label.strict ? words("labels_strict") : "");
  // The three roles closest to firing, the rest on request: twelve bars hide the few that matter.
  const analysis::LabelConfig& config = context.resources().analysis.config;
  const auto status = analysis::role_status(a.scores, config);
  std::vector<analysis::Role> order = analysis::roles_by_progress(status, a.label.role);
  for (int r = 0; r < analysis::kRoleCount; ++r)  // unscored roles last, as "n/a"
    if (!status[r].available) order.push_back(static_cast<analysis::Role>(r));
  const float note_w = ImGui::CalcTextSize(words("labels_held_back")).x + ImGui::GetFontSize() * 0.4f;
  const auto bar = [&](analysis::Role role) {
    const int r = static_cast<int>(role);
    // The threshold the labeller weighed this head against (per head for local and syntactic); none
    // to mark for an unscored role or one only a perfect score passes.
    const float threshold = status[r].available && status[r].threshold < 1.0f ? status[r].threshold : -1.0f;
    score_bar(app::localized(context.resources().role_names[r], words.language).c_str(), a.scores.score(role), threshold,
              a.label.is(role), width, unscored_text(role, words),
              status[r].guard != analysis::RoleGuard::none ? words("labels_held_back") : "", note_w);
  };
  constexpr std::size_t kTopRoles = 3;
  ImGui::TextDisabled("%s", words("labels_top_roles"));
  for (std::size_t i = 0; i < order.size() && i < kTopRoles; ++i) bar(order[i]);
  if (order.size() > kTopRoles && ImGui::TreeNode(with_id(format_text(words("labels_all_roles"), static_cast<int>(order.size())).c_str(), "all_roles").c_str())) {
    for (std::size_t i = kTopRoles; i < order.size(); ++i) bar(order[i]);
    ImGui::TreePop();
  }
  if (const app::HeldOutReading* held_out = held_out_reading(context)) {
    // The same labeller as the Training tab's timeline: after "Use in lab" this is its last entry.
    const std::size_t index = static_cast<std::size_t>(flat_head_index(state.document.model, l, h));
    if (index < held_out->heads.size()) {
      const app::HeadRole& role = held_out->heads[index];
      ImGui::PushTextWrapPos(0.0f);
      if (role.label.mixed())
        ImGui::Text(words("labels_held_out_mixed"), app::kHeldOutCount);
      else
        ImGui::Text(words("labels_held_out_role"), app::kHeldOutCount, role_text(role, words).c_str(), role.score);
      ImGui::PopTextWrapPos();
      register_item(context.ui, std::string(ids::kLabelsHeldOut) + "/" + std::to_string(l) + "/" + std::to_string(h));
    }
  }
}

void head_card(PanelContext& context, int l, int h, float width) {
  const app::AppState& state = context.state();
  const analysis::HeadAnalysis& a = state.analysis.layers[l].heads[h];
  const bool pruned = state.document.model.layers[l].heads[h].pruned;
  const bool selected = state.selection.layer == l && state.selection.head == h;
  const Words words = context.words();
  ImGui::PushID(l * 64 + h);
  char header[160];
  std::snprintf(header, sizeof header, "L%d H%d  %s###card", l, h, head_caption(state, l, h, words).c_str());
  ImGui::SetNextItemOpen(selected, ImGuiCond_Always);
  if (ImGui::CollapsingHeader(header)) {
    if (!selected) context.actions.emit(app::SelectHead{l, h});
    // A lesson step that asks for a guess hides what would give it away until it is made.
    if (state.progress.labels_hidden) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextDisabled("%s", words("labels_hidden_note"));
      ImGui::PopTextWrapPos();
    } else {
      label_details(context, a, l, h, width);
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled(words("labels_importance"), a.importance);
    ImGui::PopTextWrapPos();
    bool p = pruned;
    if (ImGui::Checkbox(with_id(words("labels_pruned"), "pruned").c_str(), &p))
      context.actions.emit(app::SetPruned{l, h, p});
    item_tooltip(words("labels_pruned_tip"));
  } else if (ImGui::IsItemClicked()) {
    context.actions.emit(app::SelectHead{l, h});
  }
  ImGui::PopID();
}

// The largest Jensen-Shannon distance (natural log): sqrt(ln 2), for attention on disjoint tokens.
constexpr float kMaxJsDistance = 0.8326f;

// How alike two heads attend, for colour: 1 for identical attention, 0 for disjoint. Bright means
// alike, as bright means "more" in every other view of the lab.
float similarity(float js_distance) { return 1.0f - std::clamp(js_distance / kMaxJsDistance, 0.0f, 1.0f); }

// The redundancy matrix's scale: bright (top) = identical attention, dark (bottom) = disjoint.
void redundancy_legend(const Words& words, float height) {
  const float font = ImGui::GetFontSize();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float bar_w = font * 0.7f, top = origin.y, bottom = origin.y + std::max(height, font * 3.0f);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  constexpr int kSteps = 24;
  for (int s = 0; s < kSteps; ++s) {
    const float t0 = static_cast<float>(s) / kSteps, t1 = static_cast<float>(s + 1) / kSteps;
    draw->AddRectFilled(ImVec2(origin.x, top + (bottom - top) * t0), ImVec2(origin.x + bar_w, top + (bottom - top) * t1 + 0.5f),
                        viridis_u32(1.0f - (t0 + t1) * 0.5f));
  }
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const std::string identical = format_text(words("labels_redundancy_identical"), 0.0f);
  const std::string disjoint = format_text(words("labels_redundancy_disjoint"), kMaxJsDistance);
  draw->AddText(ImVec2(origin.x + bar_w + font * 0.3f, top), text, identical.c_str());
  draw->AddText(ImVec2(origin.x + bar_w + font * 0.3f, bottom - font), text, disjoint.c_str());
  const float text_w = std::max(ImGui::CalcTextSize(identical.c_str()).x, ImGui::CalcTextSize(disjoint.c_str()).x);
  ImGui::Dummy(ImVec2(bar_w + font * 0.3f + text_w, bottom - top));
}

// Every layer's redundancy for the state drawn: computed when the revision changed since the tab
// was last drawn, from the trace the state holds (lagging layers included, as they are shown).
const std::vector<analysis::LayerRedundancy>& layer_redundancies(PanelContext& context) {
  const app::AppState& state = context.state();
  LabUiState::Redundancy& cache = context.ui.redundancy;
  const std::size_t layers = state.trace.layers.size();
  if (cache.revision != state.revision || cache.layers.size() != layers) {
    cache.workspaces.resize(layers);
    cache.layers.resize(layers);
    const analysis::LabelConfig& config = context.resources().analysis.config;
    for (std::size_t l = 0; l < layers; ++l)
      analysis::layer_redundancy(state.trace.layers[l], state.document.model.causal, config, cache.workspaces[l],
                                 cache.layers[l]);
    cache.revision = state.revision;
  }
  return cache.layers;
}

void redundancy_matrix(PanelContext& context, const analysis::LayerRedundancy& layer, float width) {
  const int h = static_cast<int>(layer.distance.rows());
  if (h < 2) return;
  const float font = ImGui::GetFontSize();
  const float cell = std::min(font * 1.6f, (width - font * 2.0f) / h);
  const Words words = context.words();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", words("labels_redundancy"));
  ImGui::PopTextWrapPos();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int a = 0; a < h; ++a)
    for (int b = 0; b < h; ++b) {
      const float d = layer.distance(a, b);
      const ImVec2 c0(p.x + font * 1.5f + b * cell, p.y + a * cell);
      draw->AddRectFilled(c0, ImVec2(c0.x + cell - 1, c0.y + cell - 1), viridis_u32(similarity(d)));
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
    if (a >= 0 && a < h && b >= 0 && b < h) ImGui::SetTooltip(words("labels_redundancy_cell"), a, b, layer.distance(a, b));
  }
  ImGui::SameLine();
  redundancy_legend(words, h * cell);
  for (const auto& [a, b] : layer.near_duplicates) ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), words("labels_near_duplicates"), a, b);
}

}  // namespace

void draw_labels_panel(PanelContext& context, float width, float height) {
  const app::AppState& state = context.state();
  ImGui::BeginChild("labels", ImVec2(0, height), false);
  register_rect(context.ui, ids::kLabels, ImGui::GetWindowPos(),
                ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowSize().x, ImGui::GetWindowPos().y + ImGui::GetWindowSize().y));
  ImGui::PushTextWrapPos(0.0f);
  const Words words = context.words();
  ImGui::TextDisabled("%s", gold_text(state.analysis.gold, words).c_str());
  ImGui::PopTextWrapPos();
  draw_sink_grid(context, width - ImGui::GetStyle().ScrollbarSize);
  ImGui::Separator();
  draw_pruning_curve(context, width);
  const int layers = std::min(static_cast<int>(state.analysis.layers.size()), static_cast<int>(state.document.model.layers.size()));
  const std::vector<analysis::LayerRedundancy>& redundancies = layer_redundancies(context);
  for (int l = 0; l < layers; ++l) {
    ImGui::Separator();
    ImGui::Text(words("labels_layer"), l);
    ImGui::SameLine();
    if (l >= state.current_layers) {
      lagging_layer_note(words);
      ImGui::SameLine();
    }
    ImGui::PushID(l);
    if (ImGui::SmallButton(with_id(words("labels_prune_least"), "prune_least").c_str())) context.actions.emit(app::PruneLeastImportant{l, 1});
    item_tooltip(words("labels_prune_least_tip"));
    ImGui::PopID();
    for (int h = 0; h < static_cast<int>(state.analysis.layers[l].heads.size()); ++h) head_card(context, l, h, width - ImGui::GetFontSize());
    if (l < static_cast<int>(redundancies.size())) redundancy_matrix(context, redundancies[l], width);
  }
  ImGui::EndChild();
}

}  // namespace headlab::ui

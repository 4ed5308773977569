#include "ui/role_timeline.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "engine/head_index.h"
#include "ui/head_caption.h"
#include "ui/plot.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

// The two ends of each relation of assets/grammar.json, as keys of their words: (dependent, head).
struct RelationEnds {
  analysis::Relation relation;
  const char* dependent;
  const char* head;
};
constexpr RelationEnds kRelationEnds[] = {
    {analysis::Relation::nsubj, "end_subject", "end_verb"},
    {analysis::Relation::dobj, "end_object", "end_verb"},
    {analysis::Relation::det, "end_determiner", "end_noun"},
    {analysis::Relation::amod, "end_adjective", "end_noun"},
    {analysis::Relation::prep, "end_preposition", "end_its_word"},
    {analysis::Relation::pobj, "end_noun", "end_preposition"},
    {analysis::Relation::punct, "end_punctuation", "end_verb"},
    {analysis::Relation::advmod, "end_adverb", "end_verb"},
};

constexpr ImU32 rgb(unsigned hex) { return IM_COL32((hex >> 16) & 0xFF, (hex >> 8) & 0xFF, hex & 0xFF, 255); }

// The timeline spans at least this many steps, so it fills from the left as training goes on.
constexpr int kMinSpan = 3000;

}  // namespace

ImU32 role_colour(const analysis::Label& label) {
  using analysis::Relation;
  using analysis::Role;
  if (label.mixed()) return ImGui::GetColorU32(ImGuiCol_FrameBgActive);
  if (label.relation) {
    switch (*label.relation) {
      case Relation::nsubj: return rgb(0xD55E00);
      case Relation::det: return rgb(0x009E73);
      case Relation::dobj: return rgb(0xE69F00);
      case Relation::punct: return rgb(0xCC79A7);
      case Relation::amod: return rgb(0x9CCB6B);
      case Relation::prep: return rgb(0xA6761D);
      case Relation::pobj: return rgb(0x8E7CC3);
      default: return rgb(0xE7298A);  // the syntactic family's colour
    }
  }
  switch (*label.role) {
    case Role::previous_token: return rgb(0x0072B2);
    case Role::next_token: return rgb(0xFF9DA7);
    case Role::self: return rgb(0xB8A6E8);
    case Role::cls: return rgb(0xF0E442);
    case Role::delimiter: return rgb(0xC9A227);
    case Role::induction: return rgb(0xE8464B);
    case Role::duplicate_token: return rgb(0x7FB8A6);
    case Role::syntactic: return rgb(0xE7298A);
    case Role::local: return rgb(0x88CCEE);
    case Role::broad: return rgb(0x999933);
    case Role::content_similarity: return rgb(0x44AA99);
    case Role::rare_word: return rgb(0xAA4499);
  }
  return ImGui::GetColorU32(ImGuiCol_FrameBgActive);
}

std::string role_text(const app::HeadRole& role, const Words& words, bool with_relation) {
  if (!role.label.relation) return label_display_name(role.label, words);
  const std::string relation(analysis::relation_id(*role.label.relation));
  for (const RelationEnds& r : kRelationEnds)
    if (*role.label.relation == r.relation) {
      const bool to_head = role.direction != training::kHeadToDependent;
      const char* arrow = role.direction == app::kBothWays ? " <-> " : " -> ";
      const std::string text = std::string(words(to_head ? r.dependent : r.head)) + arrow + words(to_head ? r.head : r.dependent);
      return with_relation ? text + " (" + relation + ")" : text;
    }
  return label_display_name(role.label, words);
}

void draw_role_timeline(const app::TrainingSession& session, LabUiState& ui, float width, const Words& words) {
  const std::vector<app::TimelineSample>& timeline = session.timeline();
  const training::Trainer* trainer = session.trainer();
  if (!trainer || timeline.empty()) return;
  const Model& model = trainer->model();
  const float font = ImGui::GetFontSize();
  const float row_h = font * 1.25f, gap = font * 0.4f;
  // The right column holds each head's current role ("subject -> verb 0.95"); the legend names relations.
  const auto current_text = [&](const app::HeadRole& role) {
    char score[24] = "";
    if (!role.label.mixed()) std::snprintf(score, sizeof score, "  %.2f", role.score);
    return role_text(role, words, false) + score;
  };
  float longest = font * 4.0f;
  for (const app::HeadRole& role : timeline.back().heads) longest = std::max(longest, ImGui::CalcTextSize(current_text(role).c_str()).x);
  const float name_w = font * 3.0f, current_w = std::min(longest + font * 0.8f, width * 0.45f);
  const float grid_w = std::max(font * 4.0f, width - name_w - current_w - font * 0.5f);
  const int heads = static_cast<int>(timeline.back().heads.size());
  const int layers = static_cast<int>(model.layers.size());
  const float grid_h = heads * row_h + (layers - 1) * gap;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 grid(origin.x + name_w, origin.y);
  ImGui::InvisibleButton("timeline", ImVec2(width, grid_h + font * 1.3f));
  register_rect(ui, ids::kTrainTimeline, grid, ImVec2(grid.x + grid_w, grid.y + grid_h));
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImDrawList* draw = ImGui::GetWindowDrawList();

  const int sample_every = session.settings().sample_every;
  const float span = static_cast<float>(std::max(kMinSpan, timeline.back().step + sample_every));
  const auto x_at = [&](float step) { return grid.x + grid_w * step / span; };
  int hovered_sample = -1, hovered_head = -1;
  int k = 0;
  float y = grid.y;
  for (int l = 0; l < layers; ++l) {
    for (int h = 0; h < model.layers[l].head_count(); ++h, ++k) {
      char name[32];
      std::snprintf(name, sizeof name, "L%dH%d", l, h);
      draw->AddText(ImVec2(origin.x, y + (row_h - font) * 0.5f), ImGui::GetColorU32(ImGuiCol_Text), name);
      draw->AddRectFilled(ImVec2(grid.x, y + 1), ImVec2(grid.x + grid_w, y + row_h - 1), ImGui::GetColorU32(ImGuiCol_FrameBg));
      for (std::size_t s = 0; s < timeline.size(); ++s) {
        const app::HeadRole& role = timeline[s].heads[k];
        // A sample describes the model from its step until the next sample.
        const float x0 = x_at(static_cast<float>(timeline[s].step));
        const float x1 = s + 1 < timeline.size() ? x_at(static_cast<float>(timeline[s + 1].step))
                                                 : x_at(static_cast<float>(timeline[s].step + sample_every));
        if (!role.label.mixed()) {
          // Brighter the clearer the role: the score's distance past its threshold.
          const float strength = std::clamp((role.score - role.baseline) / std::max(0.05f, 1.0f - role.baseline), 0.0f, 1.0f);
          const ImU32 c = role_colour(role.label);
          draw->AddRectFilled(ImVec2(x0, y + 1), ImVec2(std::max(x1 - 0.5f, x0 + 1), y + row_h - 1),
                              (c & ~IM_COL32_A_MASK) | (static_cast<ImU32>(255 * (0.45f + 0.55f * strength)) << IM_COL32_A_SHIFT));
        }
        if (hovered && mouse.x >= x0 && mouse.x < x1 && mouse.y >= y && mouse.y < y + row_h) {
          hovered_sample = static_cast<int>(s);
          hovered_head = k;
        }
      }
      const app::HeadRole& now = timeline.back().heads[k];
      const std::string text = current_text(now);
      draw->PushClipRect(ImVec2(grid.x + grid_w + font * 0.4f, y), ImVec2(origin.x + width, y + row_h), true);
      draw->AddText(ImVec2(grid.x + grid_w + font * 0.4f, y + (row_h - font) * 0.5f),
                    now.label.mixed() ? ImGui::GetColorU32(ImGuiCol_TextDisabled) : role_colour(now.label), text.c_str());
      draw->PopClipRect();
      y += row_h;
    }
    y += gap;
  }
  // The step axis under the grid.
  for (float t : nice_ticks(0.0f, span, std::max(2, static_cast<int>(grid_w / (font * 4.0f))))) {
    char label[16];
    std::snprintf(label, sizeof label, t >= 1000.0f ? "%gk" : "%g", t >= 1000.0f ? t / 1000.0f : t);
    const float x = x_at(t);
    draw->AddLine(ImVec2(x, grid.y + grid_h - gap), ImVec2(x, grid.y + grid_h), ImGui::GetColorU32(ImGuiCol_TextDisabled));
    draw->AddText(ImVec2(x - ImGui::CalcTextSize(label).x * 0.5f, grid.y + grid_h), ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
  }
  if (hovered_sample >= 0) {
    const app::TimelineSample& sample = timeline[hovered_sample];
    const app::HeadRole& role = sample.heads[hovered_head];
    const HeadPosition at = head_at_flat_index(model, hovered_head);
    ImGui::BeginTooltip();
    ImGui::Text(words("timeline_head_at_step"), at.layer, at.head, sample.step, role_text(role, words).c_str());
    if (role.label.is(analysis::Role::syntactic))
      ImGui::TextDisabled(words("timeline_arc_accuracy"), role.score, role.baseline);
    else if (!role.label.mixed())
      ImGui::TextDisabled(words("timeline_mean_attention"), role.score, role.baseline);
    else
      ImGui::TextDisabled("%s", words("timeline_no_role"));
    ImGui::TextDisabled(words("timeline_held_out_loss"), sample.held_out_loss);
    ImGui::EndTooltip();
  }

  // Legend: the roles that occur.
  std::set<analysis::Label> seen;
  for (const app::TimelineSample& sample : timeline)
    for (const app::HeadRole& role : sample.heads)
      if (!role.label.mixed()) seen.insert(role.label);
  bool first = true;
  for (const analysis::Label& label : seen) {
    const std::string text = label.relation ? std::string(analysis::relation_id(*label.relation)) : label_display_name(label, words);
    const float w = font * 1.1f + ImGui::CalcTextSize(text.c_str()).x;
    if (!first) flow_same_line(w);
    first = false;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(w, font));
    draw->AddRectFilled(ImVec2(p.x, p.y + font * 0.2f), ImVec2(p.x + font * 0.7f, p.y + font * 0.8f), role_colour(label), 2.0f);
    draw->AddText(ImVec2(p.x + font * 0.95f, p.y), ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
  }
}

}  // namespace headlab::ui

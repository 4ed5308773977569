#include "ui/role_timeline.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "ui/head_caption.h"
#include "ui/plot.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

// The two ends of each relation of assets/grammar.json, as keys of their words: (dependent, head).
struct RelationEnds {
  const char* relation;
  const char* dependent;
  const char* head;
};
constexpr RelationEnds kRelationEnds[] = {
    {"nsubj", "end_subject", "end_verb"},         {"dobj", "end_object", "end_verb"},
    {"det", "end_determiner", "end_noun"},        {"amod", "end_adjective", "end_noun"},
    {"prep", "end_preposition", "end_its_word"},  {"pobj", "end_noun", "end_preposition"},
    {"punct", "end_punctuation", "end_verb"},     {"advmod", "end_adverb", "end_verb"},
};

constexpr ImU32 rgb(unsigned hex) { return IM_COL32((hex >> 16) & 0xFF, (hex >> 8) & 0xFF, hex & 0xFF, 255); }

// The timeline spans at least this many steps, so it fills from the left as training goes on.
constexpr int kMinSpan = 3000;

}  // namespace

ImU32 role_colour(const std::string& label) {
  struct Entry {
    const char* label;
    unsigned hex;
  };
  static constexpr Entry kColours[] = {
      {"previous_token", 0x0072B2}, {"next_token", 0xFF9DA7},        {"self", 0xB8A6E8},
      {"cls", 0xF0E442},            {"delimiter", 0xC9A227},         {"syntactic:nsubj", 0xD55E00},
      {"syntactic:det", 0x009E73},  {"syntactic:dobj", 0xE69F00},    {"syntactic:punct", 0xCC79A7},
      {"syntactic:amod", 0x9CCB6B}, {"syntactic:prep", 0xA6761D},    {"syntactic:pobj", 0x8E7CC3},
      {"induction", 0xE8464B},      {"duplicate_token", 0x7FB8A6},   {"syntactic", 0xE7298A},
      {"local", 0x88CCEE},          {"broad", 0x999933},             {"content_similarity", 0x44AA99},
      {"rare_word", 0xAA4499},
  };
  for (const Entry& e : kColours)
    if (label == e.label) return rgb(e.hex);
  if (label.rfind("syntactic:", 0) == 0) return rgb(0xE7298A);
  return ImGui::GetColorU32(ImGuiCol_FrameBgActive);
}

std::string role_text(const app::HeadRole& role, const Words& words, bool with_relation) {
  if (role.label.rfind("syntactic:", 0) != 0) return label_display_name(role.label, words);
  const std::string relation = role.label.substr(10);
  for (const RelationEnds& r : kRelationEnds)
    if (relation == r.relation) {
      const bool to_head = role.direction == training::kDependentToHead;
      const std::string text = std::string(words(to_head ? r.dependent : r.head)) + " -> " + words(to_head ? r.head : r.dependent);
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
    if (role.label != "mixed") std::snprintf(score, sizeof score, "  %.2f", role.score);
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
        if (role.label != "mixed") {
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
                    now.label == "mixed" ? ImGui::GetColorU32(ImGuiCol_TextDisabled) : role_colour(now.label), text.c_str());
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
    int layer = 0, head = hovered_head;
    while (head >= model.layers[layer].head_count()) head -= model.layers[layer++].head_count();
    ImGui::BeginTooltip();
    ImGui::Text(words("timeline_head_at_step"), layer, head, sample.step, role_text(role, words).c_str());
    if (role.label.rfind("syntactic:", 0) == 0)
      ImGui::TextDisabled(words("timeline_arc_accuracy"), role.score, role.baseline);
    else if (role.label != "mixed")
      ImGui::TextDisabled(words("timeline_mean_attention"), role.score, role.baseline);
    else
      ImGui::TextDisabled("%s", words("timeline_no_role"));
    ImGui::TextDisabled(words("timeline_held_out_loss"), sample.held_out_loss);
    ImGui::EndTooltip();
  }

  // Legend: the roles that occur.
  std::set<std::string> seen;
  for (const app::TimelineSample& sample : timeline)
    for (const app::HeadRole& role : sample.heads)
      if (role.label != "mixed") seen.insert(role.label);
  bool first = true;
  for (const std::string& label : seen) {
    const std::string text = label.rfind("syntactic:", 0) == 0 ? label.substr(10) : label_display_name(label, words);
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

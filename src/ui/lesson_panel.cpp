// Lesson panel: the current step's text, goal (checked live), hints, Back / Next / Reset / Show me,
// the lesson list with completion marks, free play and the language toggle. Highlights of the
// widgets a step talks about are drawn on top of everything by draw_lesson_highlights().
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "imgui.h"
#include "ui/goal_number_text.h"
#include "ui/panels.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

// The "met" green, readable on the theme's background.
ImVec4 goal_met_colour(const app::AppState& state) {
  return state.preferences.theme == "light" ? ImVec4(0.05f, 0.42f, 0.14f, 1.0f) : ImVec4(0.35f, 0.85f, 0.45f, 1.0f);
}

int completed_steps(const app::AppState& state, const lessons::Lesson& lesson) {
  int done = 0;
  for (const lessons::Step& step : lesson.steps) done += state.progress.completed.count(app::step_key(lesson, step)) ? 1 : 0;
  return done;
}

void language_toggle(PanelContext& context) {
  const app::Language language = context.state().progress.language;
  const char* const labels[2] = {"EN", kLanguageButtonChinese};
  static const char* const ids[2] = {"language/en", "language/zh"};
  int current = language == app::Language::zh ? 1 : 0;
  if (segmented("language", labels, 2, current, &context.ui, ids))
    context.actions.set_language(current == 1 ? app::Language::zh : app::Language::en);
  item_tooltip(context.tr("language_tip"));
}

// One row per lesson. A title wider than `width` wraps under itself, after the mark and number: on
// a phone the longest titles are wider than the panel, and a clipped title hides its subject.
void lesson_list(PanelContext& context, float width) {
  const app::AppState& state = context.state();
  const app::Language language = state.progress.language;
  const app::LessonList& lessons = context.resources().lessons;
  const int count = static_cast<int>(lessons.size());
  // Completion mark and number, right-aligned in a column of their own, so the titles line up.
  std::vector<int> done(count);
  std::vector<std::string> numbers(count);
  std::vector<float> number_widths(count);
  float column = 0.0f;
  for (int l = 0; l < count; ++l) {
    done[l] = completed_steps(state, lessons[l]);
    const char* mark = done[l] == static_cast<int>(lessons[l].steps.size()) ? "\xE2\x9C\x93" : (done[l] > 0 ? "\xE2\x80\xA2" : "");
    numbers[l] = std::string(mark) + " " + std::to_string(l + 1) + ". ";
    number_widths[l] = ImGui::CalcTextSize(numbers[l].c_str()).x;
    column = std::max(column, number_widths[l]);
  }
  const ImU32 text_colour = ImGui::GetColorU32(ImGuiCol_Text);
  for (int l = 0; l < count; ++l) {
    const lessons::Lesson& lesson = lessons[l];
    ImGui::PushID(l);
    const std::string& title = app::localized(lesson.title, language);
    const float title_room = std::max(ImGui::GetFontSize() * 4.0f, width - column);
    const ImVec2 title_size = ImGui::CalcTextSize(title.c_str(), nullptr, false, title_room);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (ImGui::Selectable("##lesson", state.progress.lesson == l, 0, ImVec2(column + title_size.x, title_size.y)))
      context.actions.start_lesson(l, 0);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddText(ImVec2(at.x + column - number_widths[l], at.y), text_colour, numbers[l].c_str());
    draw->AddText(nullptr, 0.0f, ImVec2(at.x + column, at.y), text_colour, title.c_str(), nullptr, title_room);
    register_item(context.ui, "lesson/" + std::to_string(l));
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24.0f);
      ImGui::TextUnformatted(app::localized(lesson.summary, language).c_str());
      ImGui::TextDisabled(context.tr("completed"), done[l], static_cast<int>(lesson.steps.size()));
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    ImGui::PopID();
  }
}

void free_play_view(PanelContext& context) {
  const app::AppState& state = context.state();
  const app::Language language = state.progress.language;
  ImGui::TextWrapped("%s", context.tr("welcome"));
  const app::LessonList& lessons = context.resources().lessons;
  if (state.progress.paused_lesson < 0 && state.progress.completed.empty() && !lessons.empty()) {
    // A newcomer's way in: one large button, not a list to choose from.
    char label[256];
    std::snprintf(label, sizeof label, context.tr("start_first"), app::localized(lessons[0].title, language).c_str());
    ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.16f, 0.50f, 0.25f, 1.0f));
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 1.0f, 1.0f, 1.0f));
    if (ImGui::Button(label, ImVec2(-1, ImGui::GetFrameHeight() * 1.6f))) context.actions.start_lesson(0, 0);
    ImGui::PopStyleColor(2);
    register_item(context.ui, "lesson/start_first");
  }
  if (state.progress.paused_lesson >= 0) {
    if (ImGui::Button(context.tr("resume"))) context.actions.resume_lesson();
    register_item(context.ui, "lesson/resume");
  }
  ImGui::Separator();
  lesson_list(context, ImGui::GetContentRegionAvail().x);
  ImGui::Spacing();
  if (ImGui::SmallButton(context.tr("reset_progress"))) context.actions.reset_progress();
  item_tooltip(context.tr("reset_progress_tip"));
}

void step_view(PanelContext& context) {
  const app::AppState& state = context.state();
  const app::LessonProgress& p = state.progress;
  const app::Language language = p.language;
  const lessons::Lesson& lesson = context.resources().lessons[p.lesson];
  const lessons::Step& step = lesson.steps[p.step];
  const float font = ImGui::GetFontSize();
  ImGui::TextDisabled(context.tr("lesson_of"), p.lesson + 1, static_cast<int>(context.resources().lessons.size()));
  ImGui::SameLine();
  ImGui::TextDisabled("|");
  ImGui::SameLine();
  ImGui::TextDisabled(context.tr("step_of"), p.step + 1, static_cast<int>(lesson.steps.size()));
  ImGui::TextColored(ImGui::GetStyleColorVec4(ImGuiCol_CheckMark), "%s", app::localized(lesson.title, language).c_str());
  ImGui::Text("%s", app::localized(step.title, language).c_str());
  ImGui::Separator();
  // The text and the hints scroll in their own region, as tall as they need up to what the goal
  // and the buttons below leave, so the goal and Next are always in view. The footer's height is
  // measured each frame and used in the next.
  LabUiState& ui = context.ui;
  const std::string& text = app::localized(step.text, language);
  const float wrap_w = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize;
  float text_h = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap_w).y + ImGui::GetStyle().ItemSpacing.y * 2;
  for (int h = 0; h < p.hints_shown && h < static_cast<int>(step.hints.size()); ++h)
    text_h += ImGui::CalcTextSize(app::localized(step.hints[h], language).c_str(), nullptr, false, wrap_w - font).y +
              ImGui::GetStyle().ItemSpacing.y;
  const float footer_h = ui.lesson_footer_height > 0.0f ? ui.lesson_footer_height : font * 8.0f;
  const float room = ImGui::GetContentRegionAvail().y - footer_h;
  // The whole step, text to Next, without scrolling: the wide layout gives the panel this much of
  // its column when it can (lab_window.cpp).
  ui.lesson_wanted_height = ImGui::GetCursorPosY() + text_h + footer_h + ImGui::GetStyle().WindowPadding.y * 2.0f +
                            ImGui::GetStyle().ItemSpacing.y * 2.0f;
  ImGui::BeginChild("lesson_text", ImVec2(0, std::max(font * 2.5f, std::min(text_h, room))));
  ImGui::TextWrapped("%s", text.c_str());
  // Hints revealed so far; a new one is scrolled into view.
  for (int h = 0; h < p.hints_shown && h < static_cast<int>(step.hints.size()); ++h) {
    ImGui::TextWrapped("%s %s", "\xE2\x80\xA2", app::localized(step.hints[h], language).c_str());
    if (h + 1 == p.hints_shown && ui.lesson_hints_scrolled != p.hints_shown) ImGui::SetScrollHereY(1.0f);
  }
  ui.lesson_hints_scrolled = p.hints_shown;
  ImGui::EndChild();
  register_item(ui, "lesson/text");
  const float footer_top = ImGui::GetCursorPosY();
  // Goal, checked every frame.
  const bool met = p.goal_met;
  const bool done_before = state.progress.completed.count(app::step_key(lesson, step)) > 0;
  const bool light = state.preferences.theme == "light";
  const ImVec4 met_colour = goal_met_colour(state);
  const ImVec4 goal_bg = light ? (met ? ImVec4(0.82f, 0.94f, 0.84f, 1.0f) : ImVec4(0.90f, 0.91f, 0.95f, 1.0f))
                               : (met ? ImVec4(0.12f, 0.30f, 0.16f, 0.6f) : ImVec4(0.20f, 0.20f, 0.28f, 0.6f));
  ImGui::PushStyleColor(ImGuiCol_ChildBg, goal_bg);
  // A bordered box exactly as tall as its content, however the text wraps.
  ImGui::BeginChild("goal", ImVec2(0, 0), ImGuiChildFlags_Border | ImGuiChildFlags_AutoResizeY);
  ImGui::TextColored(met ? met_colour : ImGui::GetStyleColorVec4(ImGuiCol_CheckMark), "%s %s", met ? "\xE2\x9C\x93" : "\xE2\x86\x92",
                     context.tr("goal"));
  ImGui::SameLine();
  ImGui::TextWrapped("%s", app::localized(step.goal_text, language).c_str());
  ImGui::TextDisabled("%s", context.tr(met ? "goal_met" : "goal_open"));
  // Each number the goal is about, live, against its target.
  for (const lessons::GoalNumber& number : p.numbers) {
    const std::string line = goal_number_text(number, context.resources(), language);
    ImGui::TextColored(number.holds ? met_colour : ImGui::GetStyleColorVec4(ImGuiCol_Text), "%s", number.holds ? "\xE2\x9C\x93" : "\xE2\x80\xA2");
    ImGui::SameLine();
    ImGui::TextWrapped("%s", line.c_str());
  }
  register_item(context.ui, "lesson/goal/numbers");
  if (lessons::waits_for_a_checkpoint(step.goal, state.document.model)) {
    // HeadLab ships no GPT-2: the step waits for the learner's own copy.
    ImGui::TextWrapped("%s", context.tr("lesson_needs_checkpoint"));
    open_checkpoint_button(context, "lesson/open_checkpoint");
  }
  if (p.probe) {
    // The live probe: the number the goal is about, next to what guessing would give.
    const analysis::ExampleProbe& probe = p.probe->probe;
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, context.tr("probe_bar"), static_cast<int>(probe.accuracy * 100.0f + 0.5f),
                  static_cast<int>(p.probe->target * 100.0 + 0.5));
    ImGui::ProgressBar(probe.accuracy, ImVec2(-1, 0), overlay);
    char detail[256];
    std::snprintf(detail, sizeof detail, context.tr("probe_detail"), static_cast<int>(probe.control_accuracy * 100.0f + 0.5f),
                  static_cast<int>(probe.majority_accuracy * 100.0f + 0.5f), probe.train_words, probe.test_words);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", detail);
    ImGui::PopStyleColor();
  }
  if (const lessons::Goal* training = lessons::find_goal(step.goal, lessons::GoalKind::training)) {
    // The training run's number the goal is about, against its target, as the run goes on.
    const double value = state.training ? lessons::training_goal_score(*training, *state.training) : NAN;
    char overlay[160];
    if (std::isfinite(value) && training->training_role == lessons::TrainingRole::experiment_head_counts) {
      std::snprintf(overlay, sizeof overlay, context.tr("goal_training_experiment_bar"), static_cast<int>(value),
                    static_cast<int>(training->min), state.training->experiment_runs);
    } else if (std::isfinite(value) && training->training_role == lessons::TrainingRole::distinct_roles) {
      std::snprintf(overlay, sizeof overlay, context.tr("goal_training_roles_bar"), static_cast<int>(value),
                    static_cast<int>(training->min), state.training->steps);
    } else if (std::isfinite(value) && training->training_role == lessons::TrainingRole::steps) {
      std::snprintf(overlay, sizeof overlay, context.tr("goal_training_steps_bar"), static_cast<int>(value), static_cast<int>(training->min));
    } else if (std::isfinite(value)) {
      // A goal with only a max (a sink that must stay small) shows its max; the bar is full while it holds.
      const std::string role = std::string("goal_training_") + lessons::training_role_name(training->training_role);
      std::snprintf(overlay, sizeof overlay, context.tr(training->has_min() ? "goal_training_bar" : "goal_training_bar_max"),
                    training->layer, context.tr(role.c_str()), value, training->has_min() ? training->min : training->max,
                    state.training->steps);
    } else {
      std::snprintf(overlay, sizeof overlay, "%s", context.tr("goal_training_waiting"));
    }
    float fraction = std::isfinite(value) && training->min > 0.0 ? static_cast<float>(value / training->min) : 0.0f;
    if (std::isfinite(value) && !training->has_min() && training->has_max())
      fraction = value <= training->max ? 1.0f : static_cast<float>(training->max / value);
    ImGui::ProgressBar(std::clamp(fraction, 0.0f, 1.0f), ImVec2(-1, 0), overlay);
  }
  ImGui::EndChild();
  register_item(context.ui, "lesson/goal");
  ImGui::PopStyleColor();
  // Buttons.
  ImGui::BeginDisabled(p.lesson == 0 && p.step == 0);
  if (ImGui::Button(context.tr("back"))) context.actions.previous_step();
  register_item(context.ui, "lesson/back");
  ImGui::EndDisabled();
  flow_same_line(font * 6.0f);
  if (ImGui::Button(context.tr("reset_step"))) context.actions.reset_step();
  register_item(context.ui, "lesson/reset");
  flow_same_line(font * 4.0f);
  if (ImGui::Button(context.tr("hint"))) context.actions.reveal_hint();
  register_item(context.ui, "lesson/hint");
  if (p.hints_shown >= static_cast<int>(step.hints.size())) item_tooltip(context.tr("no_more_hints"));
  flow_same_line(font * 5.0f);
  if (ImGui::Button(context.tr("show_me"))) context.actions.show_me();
  register_item(context.ui, "lesson/show_me");
  item_tooltip(context.tr("show_me_tip"));
  flow_same_line(font * 4.0f);
  const bool unlocked = met || done_before;
  ImGui::BeginDisabled(!unlocked);
  if (unlocked) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.16f, 0.50f, 0.25f, 1.0f));
  if (ImGui::Button(context.tr("next"))) context.actions.next_step();
  if (unlocked) ImGui::PopStyleColor();
  register_item(context.ui, "lesson/next");
  ImGui::EndDisabled();
  if (!unlocked) item_tooltip(context.tr("next_locked"));
  ui.lesson_footer_height = ImGui::GetCursorPosY() - footer_top;
}

}  // namespace

void draw_lesson_panel(PanelContext& context, float width, float height) {
  const app::AppState& state = context.state();
  const bool in_lesson =
      state.progress.lesson >= 0 && state.progress.lesson < static_cast<int>(context.resources().lessons.size());
  // In a step the text scrolls in its own region sized to leave the footer room. A scrollbar on
  // the whole panel, shown whenever a frame overflows, would narrow the text, change its wrapping
  // and the footer's height, and the two layouts would alternate frame by frame.
  ImGui::BeginChild("lesson_panel", ImVec2(width, height), true, in_lesson ? ImGuiWindowFlags_NoScrollbar : 0);
  ImGui::TextUnformatted(context.tr("lessons"));
  ImGui::SameLine();
  if (ImGui::SmallButton(context.tr("all_lessons"))) ImGui::OpenPopup("lesson_list");
  register_item(context.ui, "lesson/list");
  if (state.progress.lesson >= 0) {
    // Up here rather than under the buttons, so the goal and Next keep their room.
    ImGui::SameLine();
    if (ImGui::SmallButton(context.tr("free_play"))) context.actions.leave_lesson();
    register_item(context.ui, "lesson/free_play");
    item_tooltip(context.tr("free_play_tip"));
  }
  ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - ImGui::GetFontSize() * 5.5f));
  language_toggle(context);
  if (ImGui::BeginPopup("lesson_list")) {
    TallItems tall;
    // As wide as the longest title, but never wider than the screen.
    lesson_list(context, ImGui::GetMainViewport()->WorkSize.x - 2.0f * (ImGui::GetStyle().WindowPadding.x + ImGui::GetFontSize()));
    tall.end();
    ImGui::EndPopup();
  }
  ImGui::Separator();
  if (in_lesson) step_view(context);
  else free_play_view(context);
  if (!in_lesson) context.ui.lesson_wanted_height = 0.0f;
  ImGui::EndChild();
}

void draw_lesson_highlights(PanelContext& context) {
  const app::AppState& state = context.state();
  const app::LessonProgress& p = state.progress;
  const app::LessonList& lessons = context.resources().lessons;
  if (p.lesson < 0 || p.lesson >= static_cast<int>(lessons.size()) || p.goal_met) return;
  const lessons::Step& step = lessons[p.lesson].steps[p.step];
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const float pulse = 0.55f + 0.45f * std::sin(static_cast<float>(ImGui::GetTime()) * 4.0f);
  const ImU32 colour = IM_COL32(255, 190, 64, static_cast<int>(90 + 165 * pulse));
  // A step may name several matrices, each tab followed by its cells ("editor/tab/W_Q",
  // "editor/cell/4/0", "editor/tab/W_K", "editor/cell/5/0"). On one of them, its tab and cells
  // pulse and the other tabs get a still outline (still to visit); elsewhere every tab pulses and
  // no cell does, as the same row and column on another matrix are a different weight.
  const ImU32 still = IM_COL32(255, 190, 64, 110);
  bool on_a_named_matrix = false;
  for (const std::string& id : step.highlight) {
    app::WeightMatrix named{};
    if (editor_tab_matrix(id, named) && named == context.ui.editor_matrix) on_a_named_matrix = true;
  }
  bool cells_are_current = true;  // cells before any tab belong to the matrix shown
  for (const std::string& id : step.highlight) {
    app::WeightMatrix named{};
    const bool tab = editor_tab_matrix(id, named);
    if (tab) cells_are_current = named == context.ui.editor_matrix;
    const bool cell = id.rfind(ids::kEditorCell, 0) == 0;
    if (cell && !cells_are_current) continue;
    const auto it = context.ui.widget_rects.find(id);
    if (it == context.ui.widget_rects.end()) continue;
    const Rect r = it->second;  // a copy: registering the frame below may grow the map
    const bool quiet = tab && on_a_named_matrix && !cells_are_current;
    draw->AddRect(ImVec2(r.x - 3, r.y - 3), ImVec2(r.x + r.w + 3, r.y + r.h + 3), quiet ? still : colour, 5.0f, 0, quiet ? 2.0f : 3.0f);
    // Which frames pulse, for tests and the accessibility mirror to read.
    register_rect(context.ui, std::string(quiet ? ids::kHighlightStill : ids::kHighlightPulse) + id, ImVec2(r.x, r.y),
                  ImVec2(r.x + r.w, r.y + r.h));
  }
}

}  // namespace headlab::ui

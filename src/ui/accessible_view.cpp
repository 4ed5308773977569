#include "ui/accessible_view.h"

#include <algorithm>
#include <cstdio>

#include "app/explanation_text.h"
#include "engine/analysis/roles.h"
#include "ui/format_text.h"
#include "ui/goal_number_text.h"
#include "ui/head_caption.h"

namespace headlab::ui {
namespace {

using nlohmann::json;

json lesson_view(const app::AppState& state, const app::Resources& resources) {
  const app::LessonProgress& p = state.progress;
  if (p.lesson < 0 || p.lesson >= static_cast<int>(resources.lessons.size())) return nullptr;
  const lessons::Lesson& lesson = resources.lessons[p.lesson];
  if (p.step < 0 || p.step >= static_cast<int>(lesson.steps.size())) return nullptr;
  const lessons::Step& step = lesson.steps[p.step];
  const app::Language language = p.language;
  const app::UiText& text = resources.ui_text;
  json numbers = json::array();
  for (const lessons::GoalNumber& number : p.numbers)
    numbers.push_back(std::string(text.get(number.holds ? "a11y_holds" : "a11y_not_yet", language)) + ": " +
                      goal_number_text(number, resources, language));
  if (lessons::waits_for_a_checkpoint(step.goal, state.document.model))
    numbers.push_back(text.get("lesson_needs_checkpoint", language));
  json hints = json::array();
  for (int h = 0; h < p.hints_shown && h < static_cast<int>(step.hints.size()); ++h) hints.push_back(app::localized(step.hints[h], language));
  return {{"position", format_text(text.get("lesson_of", language), p.lesson + 1, static_cast<int>(resources.lessons.size())) + ", " +
                           format_text(text.get("step_of", language), p.step + 1, static_cast<int>(lesson.steps.size()))},
          {"title", app::localized(lesson.title, language)},
          {"step_title", app::localized(step.title, language)},
          {"text", app::localized(step.text, language)},
          {"goal", app::localized(step.goal_text, language)},
          {"goal_status", text.get(p.goal_met ? "goal_met" : "goal_open", language)},
          {"numbers", std::move(numbers)},
          {"hints", std::move(hints)},
          // The canvas's buttons: Back off on the first step, Next once the goal is met (or was).
          {"can_go_back", p.lesson > 0 || p.step > 0},
          {"can_go_on", p.goal_met || p.completed.count(lesson.id + "/" + step.id) > 0},
          {"hints_left", p.hints_shown < static_cast<int>(step.hints.size())}};
}

// Every lesson, to start one from the keyboard: its title numbered as in the canvas's list.
json lesson_list_view(const app::AppState& state, const app::Resources& resources) {
  const app::Language language = state.progress.language;
  json lessons = json::array();
  for (std::size_t l = 0; l < resources.lessons.size(); ++l) {
    const lessons::Lesson& lesson = resources.lessons[l];
    bool done = !lesson.steps.empty();
    for (const lessons::Step& step : lesson.steps) done = done && state.progress.completed.count(lesson.id + "/" + step.id) > 0;
    lessons.push_back({{"title", std::to_string(l + 1) + ". " + app::localized(lesson.title, language)}, {"done", done}});
  }
  return lessons;
}

// What lesson 1 asks for, without a mouse: the selected layer's head count, which head is
// selected (every head with its caption) and a preset for it.
json controls_view(const app::AppState& state, const app::Resources& resources) {
  const app::Language language = state.progress.language;
  const Words words{resources, language};
  const Model& model = state.document.model;
  const int layer = state.selection.layer;
  json heads = json::array();
  for (int l = 0; l < static_cast<int>(model.layers.size()); ++l)
    for (int h = 0; h < model.layers[l].head_count(); ++h)
      heads.push_back({{"layer", l}, {"head", h},
                       {"text", format_text(words("a11y_head_title"), l, h) + ": " + head_caption(state, l, h, words)}});
  json presets = json::array();
  for (const Preset& preset : resources.presets) presets.push_back({{"id", preset.id}, {"name", app::localized(preset.name, language)}});
  return {{"layer", layer},
          {"selected", {{"layer", layer}, {"head", state.selection.head}}},
          {"head_count", model.layers[layer].head_count()},
          {"head_count_text", format_text(words("a11y_head_count"), layer, model.layers[layer].head_count())},
          {"max_heads", is_checkpoint_model(model) ? model.layers[layer].head_count() : kMaxHeads},
          {"heads", std::move(heads)},
          {"presets", std::move(presets)}};
}

json head_view(const app::AppState& state, const app::Resources& resources) {
  const app::Language language = state.progress.language;
  const app::UiText& text = resources.ui_text;
  const int l = state.selection.layer, h = state.selection.head;
  json head = {{"title", format_text(text.get("a11y_head_title", language), l, h)}};
  if (state.document.model.layers[l].heads[h].pruned) {
    head["label"] = text.get("label_pruned", language);
    return head;
  }
  if (state.progress.labels_hidden) {  // the lesson asks for a guess first
    head["label"] = text.get("label_hidden", language);
    return head;
  }
  if (l >= static_cast<int>(state.analysis.layers.size()) || h >= static_cast<int>(state.analysis.layers[l].heads.size())) return head;
  const analysis::HeadAnalysis& a = state.analysis.layers[l].heads[h];
  head["label"] = label_display_name(a.label, Words{resources, language}) +
                  format_text(text.get("a11y_confidence", language), a.label.confidence);
  head["explanation"] = app::explanation_text(a.label, resources, language);
  // The roles closest to firing, as the labels panel lists them: each score against the threshold
  // it must pass, and whether a guard held a passing score back.
  const auto status = analysis::role_status(a.scores, resources.analysis.config);
  json scores = json::array();
  for (analysis::Role role : analysis::roles_by_progress(status, a.label.role)) {
    if (scores.size() == 3) break;
    const analysis::RoleStatus& s = status[static_cast<int>(role)];
    std::string line = format_text(text.get("a11y_score", language),
                                   app::localized(resources.role_names[static_cast<int>(role)], language).c_str(), s.score, s.threshold);
    if (a.label.is(role)) line += text.get("a11y_score_label", language);
    else if (s.guard != analysis::RoleGuard::none) line += text.get("a11y_score_held_back", language);
    scores.push_back(std::move(line));
  }
  head["scores"] = std::move(scores);
  return head;
}

}  // namespace

json accessible_view(const app::AppState& state, const app::Resources& resources) {
  const app::Language language = state.progress.language;
  const app::UiText& text = resources.ui_text;
  json notices = json::array();
  for (const app::Notice& notice : state.notices) notices.push_back(app::notice_text(notice, resources.ui_text, language));
  return {{"lang", language == app::Language::zh ? "zh-Hans" : "en"},
          {"headings", {{"lesson", resources.ui_text.get("a11y_lesson", language)},
                        {"lessons", resources.ui_text.get("a11y_lessons", language)},
                        {"controls", resources.ui_text.get("a11y_controls", language)},
                        {"head", resources.ui_text.get("a11y_selected_head", language)},
                        {"goal", resources.ui_text.get("goal", language)},
                        {"hints", resources.ui_text.get("a11y_hints", language)},
                        {"scores", resources.ui_text.get("a11y_scores", language)},
                        {"notices", resources.ui_text.get("a11y_notices", language)},
                        {"table", resources.ui_text.get("a11y_table", language)}}},
          {"buttons", {{"start", text.get("a11y_start_lesson", language)},
                       {"back", text.get("back", language)},
                       {"reset", text.get("reset_step", language)},
                       {"hint", text.get("hint", language)},
                       {"show_me", text.get("show_me", language)},
                       {"next", text.get("next", language)},
                       {"fewer_heads", text.get("a11y_fewer_heads", language)},
                       {"more_heads", text.get("a11y_more_heads", language)},
                       {"select_head", text.get("a11y_select_head", language)},
                       {"preset", text.get("editor_presets", language)},
                       {"apply_preset", text.get("a11y_apply_preset", language)}}},
          {"lesson", lesson_view(state, resources)},
          {"lessons", lesson_list_view(state, resources)},
          {"controls", controls_view(state, resources)},
          {"head", head_view(state, resources)},
          {"notices", std::move(notices)}};
}

}  // namespace headlab::ui

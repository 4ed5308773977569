#include "app/app_state.h"

#include <algorithm>

#include "app/held_out_labels.h"
#include "app/resources.h"
#include "engine/tokenizer.h"

namespace headlab::app {

bool layers_lag(const AppState& state) {
  return state.current_layers < static_cast<int>(state.document.model.layers.size());
}

void recompute(AppState& state, const Resources& resources) {
  recompute_layers(state, resources, static_cast<int>(state.document.model.layers.size()));
}

void recompute_layers(AppState& state, const Resources& resources, int layers) {
  const Lexicon& lexicon = resources.lexicon;
  const int layer_count = static_cast<int>(state.document.model.layers.size());
  layers = std::clamp(layers, 0, layer_count);
  if (!state.dirty && state.current_layers >= layers) return;
  const bpe::BpeTokenizer* subword = resources.subword_tokenizer(state.document.model.tokenizer);
  if (!same_input_source(state.input_source, state.document, lexicon, subword)) {
    const bool was_truncated = state.input.truncated;
    const bool was_missing = state.input.missing_tokenizer;
    state.input = prepare_input(state.document, lexicon, subword);
    capture_input_source(state.document, lexicon, state.input_source, subword);
    if (state.input.truncated && !was_truncated)
      push_notice(state, resources.ui_text, NoticeLevel::warning, "notice_text_cut",
                  {std::to_string(max_input_tokens(state.document.model))}, NoticeCause::truncated_input);
    if (state.input.missing_tokenizer && !was_missing)
      push_notice(state, resources.ui_text, NoticeLevel::warning, "notice_tokenizer_missing", {state.document.model.tokenizer});
    if (!state.input.truncated) {
      std::vector<Notice>& notices = state.notices;
      notices.erase(std::remove_if(notices.begin(), notices.end(),
                                   [](const Notice& n) { return n.cause == NoticeCause::truncated_input; }),
                    notices.end());
    }
  }
  forward_layers(state.document.model, state.input.X, state.trace, static_cast<std::size_t>(layers));
  analysis::analyze_layers(state.document.model, state.input.tokens, state.trace, resources.analysis,
                           state.analysis_options, state.analysis, static_cast<std::size_t>(layers));
  Selection& s = state.selection;
  s.layer = std::clamp(s.layer, 0, layer_count - 1);
  s.head = std::clamp(s.head, 0, state.document.model.layers[s.layer].head_count() - 1);
  // After a document change only the layers just computed are current; catching up adds to them.
  state.current_layers = state.dirty ? layers : std::max(state.current_layers, layers);
  state.dirty = false;
  ++state.revision;
  if (!layers_lag(state)) {
    state.predictions.clear();
    if (has_predictions(state.document.model) && !state.input.tokens.empty())
      state.predictions = top_next_tokens(next_token_logits(state.document.model, state.trace), kPredictionCount);
    update_goal(state, resources);
  }
}

void update_goal(AppState& state, const Resources& resources) {
  LessonProgress& p = state.progress;
  p.goal_met = false;
  p.labels_hidden = false;
  p.probe.reset();
  p.numbers.clear();
  if (p.lesson < 0 || p.lesson >= static_cast<int>(resources.lessons.size())) return;
  const lessons::Lesson& lesson = resources.lessons[p.lesson];
  if (p.step < 0 || p.step >= static_cast<int>(lesson.steps.size())) return;
  const lessons::Step& step = lesson.steps[p.step];
  lessons::GoalView view{state.document.model, state.input.tokens, state.trace, state.analysis, &resources.lexicon,
                         &resources.analysis.gold, &resources.analysis.config};
  if (state.training) view.training = &*state.training;
  view.selected_layer = state.selection.layer;
  view.selected_head = state.selection.head;
  if (const lessons::Goal* probe = lessons::find_goal(step.goal, lessons::GoalKind::probe)) {
    p.probe = ProbeReading{probe->layer, probe->head, probe->min, lessons::run_probe_goal(*probe, view)};
    view.probed = probe;
    view.probe_reading = &p.probe->probe;
  }
  if (lessons::find_goal(step.goal, lessons::GoalKind::held_out) && trained_on_grammar(state.document.model, resources.grammar)) {
    if (!p.held_out || p.held_out_revision != state.revision) {
      const Model& model = state.document.model;
      p.held_out = measure_held_out(model, resources.grammar,
                                    training::held_out_sentences(resources.grammar, kHeldOutSeed, kHeldOutCount, model.special_tokens));
      p.held_out_revision = state.revision;
    }
    view.held_out = &*p.held_out;
  } else {
    p.held_out.reset();
  }
  p.goal_met = lessons::goal_met(step.goal, view);
  p.numbers = lessons::goal_numbers(step.goal, view);
  if (p.goal_met) p.completed.insert(step_key(lesson, step));
  p.labels_hidden = lessons::asks_for_a_guess(step.goal) && !p.completed.count(step_key(lesson, step));
}

namespace {

// `pattern` with each "%s" replaced by the next of `args` ("%%" is "%").
std::string fill(const std::string& pattern, const std::vector<std::string>& args) {
  std::string out;
  std::size_t next = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size() && (pattern[i + 1] == 's' || pattern[i + 1] == '%')) {
      if (pattern[i + 1] == '%') out += '%';
      else if (next < args.size()) out += args[next++];
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

void add_notice(AppState& state, Notice notice) {
  constexpr std::size_t kMaxNotices = 8;
  if (!state.notices.empty() && state.notices.back().text == notice.text) return;
  state.notices.push_back(std::move(notice));
  if (state.notices.size() > kMaxNotices) state.notices.erase(state.notices.begin());
}

}  // namespace

void push_notice(AppState& state, NoticeLevel level, std::string text, NoticeCause cause) {
  add_notice(state, {level, std::move(text), cause, {}, {}});
}

void push_notice(AppState& state, const UiText& texts, NoticeLevel level, const char* key, std::vector<std::string> args,
                 NoticeCause cause) {
  std::string text = fill(texts.get(key, Language::en), args);
  add_notice(state, {level, std::move(text), cause, key, std::move(args)});
}

std::string notice_text(const Notice& notice, const UiText& texts, Language language) {
  if (notice.key.empty() || language == Language::en) return notice.text;
  return fill(texts.get(notice.key.c_str(), language), notice.args);
}

}  // namespace headlab::app

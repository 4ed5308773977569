#pragma once
// Everything the lab shows, as one value the UI reads: the document being edited, the prepared
// input, the forward trace and the notices. UI-only state (hover, open panels) lives in ui/.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/action.h"
#include "app/lesson_progress.h"
#include "app/ui_text.h"
#include "engine/analysis/analysis.h"
#include "engine/document.h"
#include "engine/forward.h"
#include "engine/lexicon.h"
#include "engine/next_token.h"

namespace headlab::app {

enum class NoticeLevel { info, warning, error };

inline constexpr int kPredictionCount = 5;

// What a notice is about, when it describes a state that can end: such a notice goes away when
// its cause does (the text is no longer cut once it is short again).
enum class NoticeCause { none, truncated_input };

struct Notice {
  NoticeLevel level = NoticeLevel::info;
  std::string text;  // in English (the API's state, the tests)
  NoticeCause cause = NoticeCause::none;
  // A notice of the lab's own is a text of assets/ui_text.json with "%s" filled by `args`, so it
  // reads in the learner's language; an edit's refusal has no key and only `text`.
  std::string key;
  std::vector<std::string> args;
};

struct Selection {
  int layer = 0;
  int head = 0;
};

// Choices of the learner that are saved with the state but are not part of the model.
struct Preferences {
  std::string theme = "dark";  // "dark" | "light"
};

struct AppState {
  Document document = default_document();
  PreparedInput input;  // tokens and X of document.input
  InputSource input_source;  // what `input` was prepared from: a weight edit keeps it
  Trace trace;          // forward pass of document.model on input.X
  analysis::Analysis analysis;                  // labels, scores, importance of `trace` (no redundancy)
  analysis::AnalysisOptions analysis_options;   // e.g. the +-w window of the `local` role
  // After each position, the kPredictionCount most likely next tokens, for models with an
  // unembedding (trained and checkpoint models; next_token.h); empty otherwise. Recomputed once no
  // layer lags (the logits read the last layer).
  std::vector<std::vector<NextToken>> predictions;
  // The learner's place in the lessons (the lessons themselves are in Resources).
  LessonProgress progress;
  Preferences preferences;
  Selection selection;
  std::vector<Notice> notices;  // newest last; the UI shows and dismisses them
  // The last RequestTraining (the page's training run follows each new serial once) and what the
  // run measured at its latest held-out sample, for training goals (not saved; a request empties
  // it until the session reads the run it then has).
  RequestTraining training_request;
  std::uint64_t training_request_serial = 0;
  RequestHeadCountExperiment experiment_request;
  std::uint64_t experiment_request_serial = 0;
  std::optional<lessons::TrainingReading> training;
  std::uint64_t revision = 0;   // bumps whenever the trace was recomputed
  bool dirty = true;            // the document changed since the last recompute
  // Leading layers whose trace and analysis show the document. A drag on a weight recomputes only
  // the layers the frame needs (Controller::apply); the later ones show the model as it was before
  // and catch up in the frames after (Controller::catch_up). The layer count when nothing lags.
  int current_layers = 0;
};

// Whether some layers still show the model as it was before a drag (AppState::current_layers).
bool layers_lag(const AppState& state);

struct Resources;

// Recomputes input, trace and analysis when the document changed or layers lag, and checks the
// lesson goal. Cheap when clean. No file I/O: everything it reads from assets/ is in `resources`.
void recompute(AppState& state, const Resources& resources);

// The same for the first `layers` layers only; the later ones keep what they showed and lag
// (AppState::current_layers) until a recompute reaches them. The goal is checked only once no layer
// lags, since goals read every layer.
void recompute_layers(AppState& state, const Resources& resources, int layers);

// Evaluates the current lesson step's goal (progress.goal_met) and records completion; for a
// probe goal, also the live probe reading the lesson panel shows.
void update_goal(AppState& state, const Resources& resources);

// Adds a notice, keeping at most the last few so a flood of errors cannot grow memory.
void push_notice(AppState& state, NoticeLevel level, std::string text, NoticeCause cause = NoticeCause::none);
// Adds the notice `key` of the string table with its "%s" filled by `args`.
void push_notice(AppState& state, const UiText& texts, NoticeLevel level, const char* key, std::vector<std::string> args,
                 NoticeCause cause = NoticeCause::none);
// A notice in `language`.
std::string notice_text(const Notice& notice, const UiText& texts, Language language);

}  // namespace headlab::app

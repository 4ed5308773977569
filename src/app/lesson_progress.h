#pragma once
// Where the learner is in the lessons and what they completed. Part of the saved state.
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/analysis/example_probe.h"
#include "lessons/goal.h"
#include "lessons/lesson.h"

namespace headlab::app {

enum class Language { en, zh };

// The live reading of the current step's probe goal (lessons/goal.h), for the lesson panel.
struct ProbeReading {
  int layer = 0;
  int head = 0;
  double target = 0.0;  // the accuracy the goal asks for
  analysis::ExampleProbe probe;
};

struct LessonProgress {
  int lesson = -1;  // index into the lesson list; -1 = free play
  int step = 0;
  bool goal_met = false;       // the current step's goal holds right now
  // The current step asks the learner to guess a head (a goal on the selected head) and has not
  // been met: the views hide every head's label until it is, so the guess comes first (not saved).
  bool labels_hidden = false;
  std::optional<ProbeReading> probe;  // when the current goal involves a probe (not saved)
  // When the current goal reads held-out measures: them, for the model of `held_out_revision`
  // (AppState::revision), so a training sample or a selection does not measure again (not saved).
  std::optional<lessons::HeldOutMeasures> held_out;
  std::uint64_t held_out_revision = 0;
  // The current goal's numbers against their targets (lessons::goal_numbers), for the panel (not saved).
  std::vector<lessons::GoalNumber> numbers;
  int hints_shown = 0;         // hints revealed for the current step
  int paused_lesson = -1;      // the lesson left for free play, to come back to
  int paused_step = 0;
  std::set<std::string> completed;  // "lesson-id/step-id"
  Language language = Language::en;
};

using LessonList = std::vector<lessons::Lesson>;

inline std::string step_key(const lessons::Lesson& lesson, const lessons::Step& step) {
  return lesson.id + "/" + step.id;
}

inline const std::string& localized(const LocalizedText& text, Language language) {
  return language == Language::zh ? text.zh : text.en;
}

}  // namespace headlab::app

#pragma once
// Lesson goals: a small closed vocabulary of predicates over a read-only view of the engine state,
// implemented once here and written as data in assets/lessons/*.json (docs/lessons.md).
//
//   {"kind": "label", "layer": 0, "head": 1, "label": "previous_token", "min_score": 0.8}
//   {"kind": "attention", "layer": 0, "head": -1, "from": "jumps", "to": "fox", "min": 0.5}
//   {"kind": "score", "layer": 0, "head": 2, "role": "broad", "max": 0.5}
//   {"kind": "distance", "layer": 0, "head_a": 0, "head_b": 1, "max": 0.1}
//   {"kind": "head_count", "layer": 0, "min": 2, "max": 2}
//   {"kind": "pruned", "layer": 0, "min": 2}
//   {"kind": "weight", "layer": 0, "head": 0, "matrix": "W_K", "row": "noun", "col": 0, "min": 1}
//   {"kind": "d_k", "layer": 0, "min": 2, "max": 2}
//   {"kind": "output_block", "layer": 0, "head": 1, "max": 0}   (largest |W_O| entry of the head's rows)
//   {"kind": "probe", "layer": 0, "head": 0, "task": "previous_pos", "min": 0.9, "min_selectivity": 0.3}
//       (a linear probe on the head's output Z_i over the annotated example sentences:
//        held-out accuracy and selectivity over a control task; analysis/example_probe.h)
//   {"kind": "training", "task": "induction", "layer": 1, "head": -1, "role": "induction", "min": 0.4}
//       (the in-page training run's latest held-out sample: its task, and a head's prefix matching
//        ("induction"), previous-token, duplicate-token or first-token ("first_token", the attention
//        sink) score; with "attention", only a run of that normalisation counts; or with "role": "distinct_roles"
//        how many different labels its heads hold, "steps": how far the run has trained, or
//        "experiment_head_counts": how many head counts of the one-vs-many experiment have a
//        finished run; never met before the run has a sample)
//   {"kind": "held_out", "measure": "loss", "max": 1.05}
//   {"kind": "held_out", "measure": "distance", "layer": 1, "max": 2.5}
//       (a model trained on the grammar, on the 60 held-out sentences the Training tab samples:
//        its masked-word loss, or a layer's mean attention distance or row entropy (attention_spread.h);
//        never met for other models)
//   {"kind": "checkpoint_head", "layer": 4, "head": 11}
//       (a GPT-2 checkpoint the learner opened is in the lab and they selected that head: the
//        lesson names a head the literature found and asks them to check its label; never met
//        on HeadLab's own models, and the lesson panel then says how to open one)
//   {"kind": "sink", "layer": 1, "head": -1, "measure": "first_token", "trained_with": "sigmoid", "min": 0.3}
//       (a head's mean share of attention on the first token or on punctuation over the lab's
//        sentence, training::sink_shares, as the Labels tab's sink grid shows it; with
//        "trained_with", only while the lab holds a model trained in the page (its own vocabulary)
//        with that attention normalisation, engine/model.h; "selected" as for label goals)
//   {"kind": "all" | "any", "goals": [...]},  {"kind": "not", "goal": {...}}
// head -1 means "some head of the layer"; a pruned goal with layer -1 counts every layer. Tokens are named by text (first match) or by index.
// A kind takes only the fields shown for it ("min_score" is "min" for label and score goals); a
// label goal with no min or max holds when the label matches, with one when the score is also in range.
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/analysis/analysis.h"
#include "engine/analysis/attention_spread.h"
#include "engine/analysis/example_probe.h"
#include "engine/forward.h"
#include "engine/lexicon.h"
#include "engine/model.h"
#include "engine/result.h"
#include "engine/token.h"
#include "engine/training/task.h"

namespace headlab::lessons {

enum class GoalKind { label, attention, score, distance, head_count, pruned, weight, d_k, output_block, probe, training, held_out,
                      checkpoint_head, sink, all, any, negation };

// The closed vocabularies of goal fields, each with one name table (the names lesson files use).
enum class GoalMatrix { W_Q, W_K, W_V, W_O };
enum class HeldOutMeasure { loss, distance, entropy };
enum class SinkMeasure { first_token, punctuation };
// What a training goal reads of the run: a head's prefix matching ("induction"), previous-token
// or duplicate-token score, the number of different labels its heads hold, its steps at the sample,
// or how many head counts of the one-vs-many experiment have a finished run.
enum class TrainingRole { induction, previous_token, duplicate_token, first_token, distinct_roles, steps, experiment_head_counts };

const char* goal_kind_name(GoalKind kind);
const char* matrix_name(GoalMatrix matrix);
const char* held_out_measure_name(HeldOutMeasure measure);
const char* training_role_name(TrainingRole role);

// A token named by a goal: its text as written (matched against the token texts, then their
// lexicon keys) and, when that is a number (3 or "3"), the index tried after them.
struct TokenRef {
  std::string text;
  int index = -1;
};

// One goal as a typed value, parsed strictly (parse_goal): every field below is checked and
// resolved when the lesson loads, so evaluation reads enums and indices, never names.
struct Goal {
  GoalKind kind = GoalKind::all;
  int layer = 0;
  int head = -1;        // -1: any head of the layer
  int head_b = -1;      // distance
  analysis::Label label;  // label: a role, mixed, syntactic with a relation, or syntactic alone (any relation)
  // label, attention: only the head the learner selected counts (it must be in `layer`, and be
  // `head` unless -1), so a step can ask for a guess: "click the head you think does this".
  bool on_selected = false;
  analysis::Role role = analysis::Role::previous_token;  // score
  TokenRef from, to;                                     // attention
  GoalMatrix matrix = GoalMatrix::W_Q;                   // weight
  int row = 0;                                           // weight: the feature's index, or the index given
  std::string row_name;                                  // weight: as written ("noun", "3"), for the panel
  int col = 0;
  analysis::ProbeTask probe_task = analysis::ProbeTask::pos;  // probe
  double min_selectivity = -1e300;                            // probe
  training::Task training_task = training::Task::grammar;     // training
  TrainingRole training_role = TrainingRole::induction;       // training
  std::optional<AttentionNormalization> training_attention;   // training
  HeldOutMeasure measure = HeldOutMeasure::loss;              // held_out
  SinkMeasure sink_measure = SinkMeasure::first_token;         // sink
  std::optional<AttentionNormalization> trained_with;          // sink
  double min = -1e300, max = 1e300;
  std::vector<Goal> goals;  // all / any / negation (one)

  bool has_min() const { return min > -1e299; }
  bool has_max() const { return max < 1e299; }
};

// What training goals read: the scores of every head of the in-page training run on its held-out
// sequences at its latest sample (app/training_session.h fills it; the page's training tab shows
// the same numbers).
struct TrainingHeadReading {
  int layer = 0;
  int head = 0;
  float prefix_matching = 0.0f;  // induction task and real text
  float previous_token = 0.0f;
  float duplicate_token = 0.0f;  // induction task and real text
  float first_token = 0.0f;      // induction task and real text: the attention sink (training/induction_evaluation.h)
};
struct TrainingReading {
  std::optional<training::Task> task;  // none before the first run
  AttentionNormalization attention = AttentionNormalization::softmax;  // of the run's heads
  int steps = 0;     // trainer steps at the sample
  std::uint64_t sample = 0;  // which sample of the session (counts up), so each is taken once
  std::vector<TrainingHeadReading> heads;  // layer-major
  int distinct_roles = 0;  // different labels held by heads (mixed not counted; one per relation)
  int experiment_runs = 0;         // finished runs of the one-vs-many experiment
  int experiment_head_counts = 0;  // head counts with at least one finished run
  training::Task experiment_task = training::Task::grammar;  // what the experiment trains on
};

// What held_out goals read: a model trained on the grammar, on the held-out sentences
// (app/held_out_labels.h measures it; the labels panel and the Training tab show the same numbers).
struct HeldOutMeasures {
  double loss = 0.0;                               // the masked-word (or, causal, next-word) loss
  std::vector<analysis::AttentionSpread> spreads;  // per layer
};

// What goals read: everything after a forward pass and its analysis.
struct GoalView {
  const Model& model;
  const Tokens& tokens;
  const Trace& trace;
  const analysis::Analysis& analysis;
  // Probe goals embed the annotated example sentences; without these they are never met.
  const Lexicon* lexicon = nullptr;
  const analysis::GoldCorpus* corpus = nullptr;
  // Distance goals compute the layer's redundancy with these thresholds (the analysis has none);
  // without them they are never met.
  const analysis::LabelConfig* label_config = nullptr;
  // The reading of `probed` already computed for this state (a probe costs milliseconds).
  const Goal* probed = nullptr;
  const analysis::ExampleProbe* probe_reading = nullptr;
  // Training goals read this; without it they are never met.
  const TrainingReading* training = nullptr;
  // Held-out goals read this; without it (a model not trained on the grammar) they are never met.
  const HeldOutMeasures* held_out = nullptr;
  // The head the learner selected (label goals with "selected"); -1: none.
  int selected_layer = -1;
  int selected_head = -1;
};

// Parses a goal strictly: an unknown field, kind, matrix, row, role, task or measure is refused
// with its JSON path ("demo.steps[1].goal.goals[0].matrix: unknown matrix \"W_X\" (expected W_Q,
// W_K, W_V or W_O)"); `path` is the goal's own path.
Result<Goal> parse_goal(const nlohmann::json& value, const std::string& path);
bool goal_met(const Goal& goal, const GoalView& view);

// True when `goal` (or a goal inside it) reads only the head the learner selected: the step asks
// for a guess, and the lab hides the labels that would give it away until it is met.
bool asks_for_a_guess(const Goal& goal);
// True when `goal` is about a head of a GPT-2 checkpoint and `model` is not one: the step waits
// for the learner to open theirs (the panel says how; Show me cannot do it for them).
bool waits_for_a_checkpoint(const Goal& goal, const Model& model);
// The first goal of `kind` in `goal` (itself or inside all/any/not), or null. The panel shows a
// training or probe goal's live number; a held-out goal's reading (a forward pass of 60 sentences)
// is worth its cost only when the step has one.
const Goal* find_goal(const Goal& goal, GoalKind kind);
// A training goal's number on `reading`: the highest score of its role over the heads it names
// (NaN when the reading is of another task or has no such head), for "0.12 / 0.40" in the panel.
double training_goal_score(const Goal& goal, const TrainingReading& reading);

// The number a goal is about, for "lazy -> dog 0.39 / 0.60" in the lesson panel: for each leaf goal
// with a number (not label, probe or training, which the panel shows its own way), its current
// value, and with head -1 the head closest to the goal's range. Leaves under "not" are left out.
struct GoalNumber {
  const Goal* goal = nullptr;
  int head = -1;       // the head the value is of (-1: not a head's number)
  double value = NAN;  // NaN: nothing to read (no such layer, token or model)
  bool holds = false;  // the value is in the goal's range
};
std::vector<GoalNumber> goal_numbers(const Goal& goal, const GoalView& view);

// The probe a probe goal reads, on the view's model (all zeros without a lexicon and corpus).
analysis::ExampleProbe run_probe_goal(const Goal& goal, const GoalView& view);

}  // namespace headlab::lessons

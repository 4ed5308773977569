#pragma once
// Every change the UI, the JS API and lesson files can make to the lab, as plain values. The same
// values come from a mouse drag, from window.headlab and from a lesson's setup; app::apply
// (apply_action.h) validates and performs them, the Controller records undo history, and
// action_codec.h reads and writes them as JSON requests ({"op": "setWeight", ...}).
// A new kind of edit is one more struct here, one case in apply and one row in the codec.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "app/lesson_progress.h"
#include "engine/model.h"
#include "engine/training/task.h"

namespace headlab::app {

enum class WeightMatrix { W_Q, W_K, W_V, W_O };
enum class Axis { row, column };
enum class Theme { dark, light };

// Replaces the sentence (the input becomes text; longer than 200000 bytes is cut).
struct SetText {
  std::string text;
};
// Replaces the input with `length` random symbols A..J repeated once ("C F A J C F A J"), the
// sequence induction heads are measured on (symbol_sequence.h).
struct SetRepeatedSequence {
  int length = 8;
  std::uint32_t seed = 1;
};
// Replaces the input with ids of the model's subword vocabulary (a model with a tokenizer only):
// how a test gives a checkpoint exactly the ids its reference was computed on.
struct SetTokenIds {
  std::vector<int> ids;
};
// Heads of one layer, or of every layer when `layer` is absent.
struct SetHeadCount {
  int count = 1;
  std::optional<int> layer;
};
struct SetLayerCount {
  int count = 1;
};
// One cell of W_Q, W_K, W_V of a head, or of the layer's W_O (head ignored).
struct SetWeight {
  int layer = 0;
  int head = 0;
  WeightMatrix which = WeightMatrix::W_Q;
  int row = 0;
  int col = 0;
  double value = 0.0;
};
// Writes a whole row or column (paste, zero).
struct SetLine {
  int layer = 0;
  int head = 0;  // ignored for W_O
  WeightMatrix which = WeightMatrix::W_Q;
  Axis axis = Axis::row;
  int index = 0;
  std::vector<float> values;
};
struct ScaleLine {
  int layer = 0;
  int head = 0;  // ignored for W_O
  WeightMatrix which = WeightMatrix::W_Q;
  Axis axis = Axis::row;
  int index = 0;
  double factor = 1.0;
};
// Zeroes head `head`'s rows of the layer's W_O: the head no longer reaches the output.
struct ZeroOutputBlock {
  int layer = 0;
  int head = 0;
};
struct ZeroOutputBlockAll {
  int layer = 0;
};
// Which head the detail views show. Not a model edit: no undo step.
struct SelectHead {
  int layer = 0;
  int head = 0;
};
struct SetPruned {
  int layer = 0;
  int head = 0;
  bool pruned = false;
};
// Prunes the k least important unpruned heads of a layer, ranked by the importance of the
// current analysis (the state is analysed before every action; see Controller).
struct PruneLeastImportant {
  int layer = 0;
  int k = 1;
};
// Writes a head preset (assets/presets, docs/presets.md) into W_Q, W_K, W_V of one head.
struct ApplyPreset {
  int layer = 0;
  int head = 0;
  std::string preset;  // preset id
};
// The default document, sentence included.
struct ResetDocument {};
// The default model, keeping the current sentence ("Reset model").
struct ResetModel {};
struct SetCausal {
  bool on = false;
};
struct SetSpecialTokens {
  bool on = false;
};
// d_k and d_v of one layer; d_v follows d_k when absent.
struct SetHeadDim {
  int layer = 0;
  int d_k = 1;
  std::optional<int> d_v;
};
struct SetDModel {
  int d_model = kMinDModel;
};
// Absent options keep the layer's current setting.
struct SetLayerOptions {
  int layer = 0;
  std::optional<bool> residual;
  std::optional<Norm> norm;
  std::optional<bool> ffn;
};
// Switching to the named embedding raises d_model to the number of named features if needed.
struct SetEmbedding {
  Embedding embedding = Embedding::named_features;
};
struct SetPositional {
  Positional positional = Positional::sinusoidal;
};
// Re-seeds every weight (same shapes).
struct Randomize {
  std::uint32_t seed = 0;
};
// Fresh seeded W_Q, W_K, W_V for one head (its pruned flag stays).
struct ResetHead {
  int layer = 0;
  int head = 0;
  std::uint32_t seed = 0;
};
// Replaces the whole document from a model file (docs/model-format.md).
struct LoadModel {
  std::string json;
};
// Replaces the whole document with the trained model HeadLab ships (assets/models/trained.json,
// seed 1, 3,000 steps; its manifest says how it was made), on an annotated sentence in its
// vocabulary, so lessons and the learner can study trained heads without training first.
struct LoadTrainedModel {};
// Replaces the whole document with the language model HeadLab trained on real English and Chinese
// text (assets/models/text.safetensors, read with assets/tokenizers/text.json; docs/training.md),
// on the text stored with it: any typed text becomes its subword tokens, never [UNK]. With
// `attention`, the same model trained with that normalisation; in the page those come only when
// first asked for, and one not there yet opens when it arrives (the lab stays as it is meanwhile).
struct LoadTextModel {
  AttentionNormalization attention = AttentionNormalization::softmax;
};
// Puts the lab in the state a first visit opens on (assets/starting_model.json): the example
// sentence with heads that each do something different, so the first screen shows what heads
// specialise into rather than four broad random ones. One undo step back to the plain default.
struct LoadStartingModel {};
// A preference saved with the state, not a model edit: no undo step.
struct SetTheme {
  Theme theme = Theme::dark;
};

// Asks the page's training run (app/training_session.h) for `task` from `seed`: a new run when
// `fresh` or when the current run is of another task or seed (else it goes on), then playing or
// paused as `run` says. Not an edit: it is recorded in the AppState, and the session follows it
// at the next frame, so a lesson asks for training the way the Training tab and the JS API do.
struct RequestTraining {
  training::Task task = training::Task::grammar;
  std::uint32_t seed = 1;
  bool run = false;
  bool fresh = false;
  // How the run's heads turn scores into weights (engine/model.h); another one than the run's
  // makes a new run, as another task does.
  AttentionNormalization attention = AttentionNormalization::softmax;
};

// Asks the page's training session for the one-vs-many experiment (head counts x 3 seeds,
// training/head_count_experiment.h) on `task` (grammar or lm, real text): a new one when `fresh`,
// when there is none or when it has another task, then running or paused as `run` says. Followed
// like RequestTraining.
struct RequestHeadCountExperiment {
  bool run = true;
  bool fresh = false;
  training::Task task = training::Task::grammar;
};

// [SECTION] Changes that are not edits of the document: the page's training session, the undo
// history, lesson progress and the language. None makes an undo step; app::Dispatcher routes them
// (the training ones to the TrainingSession, which lives beside the AppState).

// Play (true) or pause (false) the training run; Play makes a first run when there is none.
struct PlayTraining {
  bool run = true;
};
// `steps` steps of the run now, paused or not (1..5000).
struct StepTraining {
  int steps = 1;
};
// A fresh run from `seed` (else the current seed), of `task` (else the current task), at the
// current learning rate: losses, timeline and probes start over.
struct NewTrainingRun {
  std::optional<std::uint32_t> seed;
  std::optional<training::Task> task;
};
// The run's peak learning rate from its next step on, in [kMinLearningRate, kMaxLearningRate].
struct SetLearningRate {
  double learning_rate = 3e-3;
};
// The share of each frame the page trains in when it has no worker, in [kMinSpeed, kMaxSpeed].
struct SetTrainingSpeed {
  double speed = 0.5;
};
// Probes every head of the run's model (grammar task); `wait` makes them all before it returns.
struct StartProbes {
  bool wait = false;
};
// A new one-vs-many comparison (one head of d_model against several of d_model / h), running.
struct StartComparison {};
struct SetComparisonRunning {
  bool run = true;
};
struct StepComparison {
  int steps = 1;  // 1..5000 a side
};
// A new head-count experiment of `task`, running: the grammar's (1, 2, 4, 8 heads) or real text's
// (1, 2, 4, 8, 16 heads), 3 seeds each (training::head_count_plan).
struct StartExperiment {
  training::Task task = training::Task::grammar;
};
struct SetExperimentRunning {
  bool run = true;
};
struct StepExperiment {
  int steps = 1;  // 1..20000
};
// Loads the run's model into the lab: one undoable LoadModel.
struct UseTrainedModel {};
// Builds the first run when there is none (the Training tab opened), so it draws at once.
struct PrepareTraining {};
// Which held-out input the Training tab's heads overview shows (clamped to those there are).
struct SetTrainingInput {
  int input = 0;
};
struct Undo {};
struct Redo {};
// Starts step `step` of lesson `lesson` (its setup runs).
struct GoToLesson {
  int lesson = 0;
  int step = 0;
};
enum class LessonMove { next, previous, reset_step, show_me, hint, leave, resume, reset_progress };
// A move inside the lesson under way (or back into it, or forgetting all progress).
struct MoveInLesson {
  LessonMove move = LessonMove::next;
};
struct SetLanguage {
  Language language = Language::en;
};

using Action = std::variant<SetText, SetRepeatedSequence, SetTokenIds, SetHeadCount, SetLayerCount, SetWeight, SetLine, ScaleLine, ZeroOutputBlock,
                            ZeroOutputBlockAll, SelectHead, SetPruned, PruneLeastImportant, ApplyPreset, ResetDocument,
                            ResetModel, SetCausal, SetSpecialTokens, SetHeadDim, SetDModel, SetLayerOptions, SetEmbedding,
                            SetPositional, Randomize, ResetHead, LoadModel, LoadTrainedModel, LoadTextModel,
                            LoadStartingModel, SetTheme, RequestTraining,
                            RequestHeadCountExperiment, PlayTraining, StepTraining, NewTrainingRun, SetLearningRate,
                            SetTrainingSpeed, StartProbes, StartComparison, SetComparisonRunning, StepComparison,
                            StartExperiment, SetExperimentRunning, StepExperiment, UseTrainedModel, PrepareTraining,
                            SetTrainingInput, Undo, Redo, GoToLesson, MoveInLesson, SetLanguage>;

// True for the actions app::apply performs on the AppState (edits, selection, theme, training
// requests); false for those the Dispatcher routes elsewhere (the session, history, lessons).
bool applies_to_state(const Action& action);

// False for the actions that change no part of the document (selection, theme, training): they make no undo
// step and need no recompute.
bool changes_document(const Action& action);

}  // namespace headlab::app

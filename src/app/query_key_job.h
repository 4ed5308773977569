#pragma once
// The sentences the queries-and-keys picture (engine/analysis/query_key_map.h) reads, and the
// reading of them a sentence at a time, so that the page keeps drawing while a checkpoint's
// forward passes run: the lab's own input first, then the example sentences of
// assets/sentences.json. Those are held out from every model HeadLab trains (the grammar's
// training sentences are generated, the text model's come from the corpus) and for a GPT-2
// checkpoint they are text like any other.
#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/resources.h"
#include "engine/analysis/query_key_sample.h"

namespace headlab::app {

// Sentences read at most besides the learner's: every example for the small models, fewer for a
// checkpoint, whose every sentence is a forward pass through its layers (a tenth of a second or
// more in the page for GPT-2 small).
inline constexpr int kQueryKeySentences = 22;
inline constexpr int kQueryKeyCheckpointSentences = 10;

class QueryKeyJob {
 public:
  // Starts with the learner's sentence, taken from the state's trace (no layer may lag).
  QueryKeyJob(const AppState& state, const Resources& resources, int layer);

  // Reads one more sentence with `state`'s model, which must be the one the job started with (the
  // caller drops the job when the revision changes). True once every sentence is read.
  bool advance(const AppState& state, const Resources& resources);
  bool done() const { return next_ >= pending_.size(); }
  int read() const { return static_cast<int>(next_) + 1; }
  int total() const { return static_cast<int>(pending_.size()) + 1; }
  int layer() const { return sample_.layer; }
  const analysis::QueryKeySample& sample() const { return sample_; }

 private:
  analysis::QueryKeySample sample_;
  std::vector<std::string> pending_;
  std::size_t next_ = 0;
  Trace trace_;  // the forward's workspace, reused from sentence to sentence
};

// The whole sample at once (the JS API and the tests).
analysis::QueryKeySample sample_query_keys(const AppState& state, const Resources& resources, int layer);

// The learner's input as a line of text (the typed text, or its tokens joined by spaces).
std::string input_as_text(const AppState& state);

}  // namespace headlab::app

#pragma once
// The analysis a drag frame pays, at the size its budget is set for (4 layers x 16 heads x 32
// tokens, < 0.5 ms in WASM: labels and importance; the redundancy is computed only on demand and
// timed on its own), built the same way for the native benchmark (bench/analysis_bench.cpp) and the
// page's benchmarkAnalysis op (benchmark_api.h).
//
// Two seeded models of 4 layers x 16 heads, d_model 64 or 128 with named features, run on the same
// input: 32 tokens of example sentences without a parse, or (`gold`) the longest annotated sentence
// (16 tokens) so the syntactic scores run too. W_Q is scaled by 4 so attention rows are peaked, as
// in trained and hand-built heads. Each call analyses the other model's forward pass:
//   Change::every_head: the models have different seeds, so every head of every layer has new
//     attention (the worst case, as after an edit in layer 0, and the budget's "recompute");
//   Change::one_head: the models differ in one head of the last layer (the usual drag frame).
#include <memory>

#include "engine/analysis/analysis.h"
#include "engine/document.h"
#include "engine/forward.h"
#include "engine/lexicon.h"

namespace headlab::api {

class AnalysisWorkload {
 public:
  static constexpr int kLayers = 4, kHeads = 16;
  enum class Change { every_head, one_head };

  // `resources` must outlive the workload.
  AnalysisWorkload(const Lexicon& lexicon, const analysis::Resources& resources, int d_model,
                   bool gold, Change change);

  // Analyses the next of the two forward passes into analysis().
  void operator()();

  const analysis::Analysis& analysis() const { return analysis_; }
  const analysis::Resources& resources() const { return *resources_; }
  // Either model's document, prepared input and trace (0 or 1), for benchmarks of single parts.
  const Model& model(int which) const { return runs_[which].document.model; }
  const PreparedInput& input() const { return runs_[0].input; }
  const Trace& trace(int which) const { return runs_[which].trace; }

 private:
  struct Run {
    Document document;
    PreparedInput input;
    Trace trace;
  };
  const analysis::Resources* resources_;
  Run runs_[2];
  analysis::Analysis analysis_;
  int next_ = 0;
};

}  // namespace headlab::api

#include "api/analysis_workload.h"

#include <iterator>

namespace headlab::api {
namespace {

constexpr const char* kGoldText = "A big black dog and a small white cat sat in the old green house.";
// 32 tokens from three example sentences; none of the annotated sentences is this long.
constexpr const char* kWords[] = {"The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog", ".",
                                  "The", "dog", "with", "the", "red", "ball", "sleeps", ".", "The", "cat",
                                  "chased", "the", "mouse", ",", "and", "the", "aardvark", "ate", "the", "apple",
                                  "slowly", "."};

}  // namespace

AnalysisWorkload::AnalysisWorkload(const Lexicon& lexicon, const analysis::Resources& resources,
                                   int d_model, bool gold, Change change)
    : resources_(&resources) {
  for (int r = 0; r < 2; ++r) {
    Run& run = runs_[r];
    const std::uint32_t seed = change == Change::every_head ? static_cast<std::uint32_t>(1 + r) : 1u;
    run.document.model = make_model(d_model, kLayers, kHeads, seed);
    for (Layer& layer : run.document.model.layers)
      for (HeadWeights& w : layer.heads) w.W_Q *= 4.0f;  // peaked rows
    // Zero W_Q: that head attends uniformly, so its attention surely differs (scaling W_Q would not
    // change rows that are already one-hot in float).
    if (change == Change::one_head && r == 1) run.document.model.layers.back().heads[5].W_Q.setZero();
    if (gold) {
      run.document.input.text = kGoldText;
    } else {
      run.document.input.kind = InputKind::tokens;
      run.document.input.tokens.assign(std::begin(kWords), std::end(kWords));
    }
    run.input = prepare_input(run.document, lexicon);
    forward(run.document.model, run.input.X, run.trace);
  }
}

void AnalysisWorkload::operator()() {
  const Run& run = runs_[next_];
  next_ ^= 1;
  analysis::analyze(run.document.model, run.input.tokens, run.trace, *resources_, {}, analysis_);
}

}  // namespace headlab::api

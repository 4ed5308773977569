#include "engine/analysis/example_probe.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#include "engine/document.h"
#include "engine/forward.h"
#include "engine/training/logistic_regression.h"

namespace headlab::analysis {
namespace {

constexpr int kNone = static_cast<int>(PartOfSpeech::unknown) + 1;  // label of "no previous word"
constexpr int kClasses = kNone + 1;

struct Rows {
  std::vector<std::vector<float>> features;
  std::vector<int> labels;
  std::vector<std::string> types;  // lower-cased word, for the control task
};

Matrix to_matrix(const Rows& rows, int width) {
  Matrix X(static_cast<Eigen::Index>(rows.features.size()), width);
  for (std::size_t r = 0; r < rows.features.size(); ++r)
    for (int c = 0; c < width; ++c) X(static_cast<Eigen::Index>(r), c) = rows.features[r][c];
  return X;
}

}  // namespace

bool parse_probe_task(const std::string& name, ProbeTask& out) {
  if (name == "pos") out = ProbeTask::pos;
  else if (name == "previous_pos") out = ProbeTask::previous_pos;
  else return false;
  return true;
}

ExampleProbe probe_head_on_examples(const Model& model, const Lexicon& lexicon, const GoldCorpus& corpus, int layer,
                                    int head, ProbeTask task, std::uint32_t seed) {
  ExampleProbe result;
  if (layer < 0 || layer >= static_cast<int>(model.layers.size()) || head < 0 ||
      head >= model.layers[layer].head_count())
    return result;
  const int width = model.layers[layer].d_v;
  Rows train, test;
  Document document{model, Input{}};
  Trace trace;
  int annotated = 0;
  for (const GoldSentence& sentence : corpus.sentences) {
    if (!sentence.has_parse) continue;
    Rows& rows = (annotated++ % 2 == 0) ? train : test;
    document.input.kind = InputKind::tokens;
    document.input.tokens = sentence.tokens;
    const PreparedInput input = prepare_input(document, lexicon);
    forward(document.model, input.X, trace);
    const Matrix& Z = trace.layers[layer].heads[head].Z;
    int word = 0;
    for (std::size_t t = 0; t < input.tokens.size(); ++t) {
      if (input.tokens[t].is_special) continue;
      if (word >= static_cast<int>(sentence.pos.size())) break;
      std::vector<float> row(width);
      for (int c = 0; c < width; ++c) {
        const float v = Z(static_cast<Eigen::Index>(t), c);
        row[c] = std::isfinite(v) ? v : 0.0f;  // absurd weights must not poison the probe
      }
      rows.features.push_back(std::move(row));
      rows.labels.push_back(task == ProbeTask::pos ? static_cast<int>(sentence.pos[word])
                            : word == 0           ? kNone
                                                  : static_cast<int>(sentence.pos[word - 1]));
      rows.types.push_back(input.tokens[t].key.empty() ? input.tokens[t].text : input.tokens[t].key);
      ++word;
    }
  }
  result.train_words = static_cast<int>(train.labels.size());
  result.test_words = static_cast<int>(test.labels.size());
  if (train.labels.empty() || test.labels.empty()) return result;

  // Control labels: one per word type, drawn from the training label distribution (raw mt19937
  // output, so native and WASM draw the same labels).
  std::mt19937 rng(seed);
  std::map<std::string, int> control_of_type;
  auto control = [&](const std::string& type) {
    auto [it, fresh] = control_of_type.emplace(type, 0);
    if (fresh) it->second = train.labels[rng() % train.labels.size()];
    return it->second;
  };
  std::vector<int> train_control, test_control;
  for (const std::string& type : train.types) train_control.push_back(control(type));
  for (const std::string& type : test.types) test_control.push_back(control(type));

  const Matrix X_train = to_matrix(train, width), X_test = to_matrix(test, width);
  const training::LogisticRegressionConfig config{100, 0.2f, 1e-3f};
  result.accuracy = training::accuracy(training::fit_logistic_regression(X_train, train.labels, kClasses, config), X_test, test.labels);
  result.control_accuracy =
      training::accuracy(training::fit_logistic_regression(X_train, train_control, kClasses, config), X_test, test_control);
  result.selectivity = result.accuracy - result.control_accuracy;
  std::vector<int> counts(kClasses, 0);
  for (int label : train.labels) ++counts[label];
  const int majority = static_cast<int>(std::max_element(counts.begin(), counts.end()) - counts.begin());
  result.majority_accuracy =
      static_cast<float>(std::count(test.labels.begin(), test.labels.end(), majority)) / static_cast<float>(test.labels.size());
  return result;
}

}  // namespace headlab::analysis

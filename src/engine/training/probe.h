#pragma once
// Probing each head (Hewitt & Liang 2019, "Designing and Interpreting Probes with Control Tasks"):
// a logistic-regression probe on the head's output Z_i (one d_v row per token) predicts
//   (a) the part of speech of the query token, and
//   (b) the dependency relation between the query and the token it attends to most (row argmax):
//       "nsubj" when the attended token is the query's head with relation nsubj, "nsubj^-1" when the
//       query is the attended token's head, "none" otherwise;
// trained on generated sentences, scored on other (held-out) sentences. Each task has a control
// task with the same label distribution but no linguistic content: (a) one random label per word
// type, (b) one random label per (query type, attended type) pair, drawn from the task's
// empirical label distribution. Selectivity = accuracy - control accuracy: a probe that scores
// well by memorising word identities is not selective.
#include <cstdint>
#include <string>
#include <vector>

#include "evaluation.h"
#include "logistic_regression.h"

namespace headlab::training {

struct ProbeConfig {
  int train_sentences = 150;
  int test_sentences = 100;
  LogisticRegressionConfig regression;
  std::uint32_t seed = 1;  // sentences and control labels
};

struct HeadProbe {
  int layer = 0;
  int head = 0;
  float pos_accuracy = 0.0f;
  float pos_control_accuracy = 0.0f;
  float pos_selectivity = 0.0f;
  float relation_accuracy = 0.0f;
  float relation_control_accuracy = 0.0f;
  float relation_selectivity = 0.0f;
};

// The forward passes and labels every head's probes share; compute once, then probe the heads
// one at a time (e.g. one per frame) with probe_head.
struct ProbeData {
  HeldOutSet train;
  HeldOutSet test;
  std::vector<std::string> relation_labels;  // "none", "nsubj", ..., "nsubj^-1", ...
  std::vector<int> pos_control;              // per vocabulary id: control POS label
  int vocabulary_size = 0;
};

ProbeData prepare_probes(const Model& model, const Grammar& grammar, const ProbeConfig& config);
HeadProbe probe_head(const ProbeData& data, int layer, int head, const ProbeConfig& config);
// Every head, layer-major.
std::vector<HeadProbe> probe_heads(const Model& model, const Grammar& grammar, const ProbeConfig& config);

}  // namespace headlab::training

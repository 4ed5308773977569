#include "engine/analysis/query_key_sample.h"

#include <algorithm>

namespace headlab::analysis {
namespace {

SampledSentence take_layer(const LayerTrace& layer, const Tokens& tokens, std::string text, Eigen::Index n) {
  SampledSentence sentence;
  sentence.text = std::move(text);
  for (Eigen::Index t = 0; t < n; ++t) sentence.tokens.push_back(tokens[static_cast<std::size_t>(t)].text);
  sentence.annotated.assign(tokens.begin(), tokens.begin() + n);
  sentence.heads.reserve(layer.heads.size());
  for (const HeadTrace& head : layer.heads)
    sentence.heads.push_back({head.Q.topRows(n), head.K.topRows(n), head.attention.topLeftCorner(n, n)});
  return sentence;
}

}  // namespace

SampledSentence sentence_from_trace(const LayerTrace& layer, const Tokens& tokens, std::string text) {
  const Eigen::Index n = std::min<Eigen::Index>({static_cast<Eigen::Index>(tokens.size()), layer.input.rows(),
                                                 kSampledTokensPerSentence});
  return take_layer(layer, tokens, std::move(text), n);
}

SampledSentence sample_sentence(const Model& model, int layer, const std::string& text, const Lexicon& lexicon,
                                const bpe::BpeTokenizer* subword, Trace& trace) {
  Input input;
  input.kind = InputKind::text;
  input.text = text;
  PreparedInput prepared = prepare_input(model, input, lexicon, subword);
  const Eigen::Index n = std::min<Eigen::Index>(prepared.X.rows(), kSampledTokensPerSentence);
  if (n == 0 || layer < 0 || layer >= static_cast<int>(model.layers.size())) return SampledSentence{text, {}, {}, {}};
  // Only the first n tokens are read: in a causal model their attention is exactly what the whole
  // sentence gives them; a bidirectional one sees a sentence cut at n (a long one only).
  const Matrix X = prepared.X.topRows(n);
  forward_layers(model, X, trace, static_cast<std::size_t>(layer) + 1);
  return take_layer(trace.layers[static_cast<std::size_t>(layer)], prepared.tokens, text, n);
}

double sample_cost(const Model& model, int layer, int tokens) {
  double cost = 0.0;
  const double d = model.d_model;
  for (int l = 0; l <= layer && l < static_cast<int>(model.layers.size()); ++l) {
    const Layer& current = model.layers[static_cast<std::size_t>(l)];
    const double width = static_cast<double>(current.head_count()) * (2.0 * current.d_k + current.d_v);
    cost += tokens * d * (width + current.W_O.rows());                      // projections and W_O
    cost += static_cast<double>(tokens) * tokens * current.head_count() * (current.d_k + current.d_v);
    if (current.has_ffn) cost += 2.0 * tokens * d * current.ffn.W_1.cols();  // the feed-forward
  }
  return cost;
}

HeadQueryKeyMap head_query_key_map(const QueryKeySample& sample, int head) {
  HeadQueryKeyMap result;
  result.layer = sample.layer;
  result.head = head;
  Eigen::Index total = 0, d_k = 0;
  for (const SampledSentence& s : sample.sentences)
    if (head >= 0 && head < static_cast<int>(s.heads.size())) {
      total += s.heads[static_cast<std::size_t>(head)].queries.rows();
      d_k = s.heads[static_cast<std::size_t>(head)].queries.cols();
    }
  Matrix queries(total, d_k), keys(total, d_k);
  Eigen::Index row = 0;
  for (std::size_t s = 0; s < sample.sentences.size(); ++s) {
    const SampledSentence& sentence = sample.sentences[s];
    if (head < 0 || head >= static_cast<int>(sentence.heads.size())) continue;
    const HeadVectors& vectors = sentence.heads[static_cast<std::size_t>(head)];
    const Eigen::Index n = vectors.queries.rows();
    if (n == 0) continue;
    queries.middleRows(row, n) = vectors.queries;
    keys.middleRows(row, n) = vectors.keys;
    for (Eigen::Index t = 0; t < n; ++t) result.points.push_back({static_cast<int>(s), static_cast<int>(t)});
    row += n;
  }
  result.map = query_key_map(queries, keys);
  return result;
}

}  // namespace headlab::analysis

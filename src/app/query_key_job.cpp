#include "app/query_key_job.h"

#include <algorithm>

namespace headlab::app {

std::string input_as_text(const AppState& state) {
  const Input& input = state.document.input;
  if (input.kind == InputKind::text) return input.text;
  std::string text;
  for (const Token& token : state.input.tokens) text += (text.empty() ? "" : " ") + token.text;
  return text;
}

QueryKeyJob::QueryKeyJob(const AppState& state, const Resources& resources, int layer) {
  sample_.layer = layer;
  const std::size_t l = static_cast<std::size_t>(layer);
  if (l < state.trace.layers.size())
    sample_.sentences.push_back(analysis::sentence_from_trace(state.trace.layers[l], state.input.tokens, input_as_text(state)));
  const std::string own = input_as_text(state);
  const int cap = is_checkpoint_model(state.document.model) ? kQueryKeyCheckpointSentences : kQueryKeySentences;
  for (const std::string& text : resources.example_sentences) {
    if (static_cast<int>(pending_.size()) >= cap) break;
    if (text != own) pending_.push_back(text);
  }
}

bool QueryKeyJob::advance(const AppState& state, const Resources& resources) {
  if (done()) return true;
  const Model& model = state.document.model;
  const std::string& text = pending_[next_++];
  analysis::SampledSentence sentence = analysis::sample_sentence(
      model, sample_.layer, text, resources.lexicon, resources.subword_tokenizer(model.tokenizer), trace_);
  if (!sentence.tokens.empty()) sample_.sentences.push_back(std::move(sentence));
  return done();
}

analysis::QueryKeySample sample_query_keys(const AppState& state, const Resources& resources, int layer) {
  QueryKeyJob job(state, resources, layer);
  while (!job.advance(state, resources)) {
  }
  return job.sample();
}

}  // namespace headlab::app

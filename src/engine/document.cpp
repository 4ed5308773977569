#include "document.h"

#include "embedding.h"
#include "tokenizer.h"

namespace headlab {

namespace {

// A model that reads symbols: the symbol embedding, or a trained vocabulary of single letters
// (the induction task's). Its tokens are symbols, not English words, however they are spelt.
bool reads_symbols(const Model& model) {
  if (model.embedding == Embedding::symbols) return true;
  if (model.vocab.empty()) return false;
  for (const std::string& key : model.vocab)
    if (!(key.size() == 1 && key[0] >= 'a' && key[0] <= 'z') && !(key.size() > 2 && key.front() == '[' && key.back() == ']'))
      return false;
  return true;
}

// "A" and "I" are frequent English words and "J" is rare, but as symbols they are all alike: one
// frequency for every symbol, so no symbol is the sentence's rare word (analysis/sentence_context).
void forget_word_frequencies(Tokens& tokens) {
  for (Token& t : tokens)
    if (!t.is_special) t.zipf = 3.0f;
}

}  // namespace

PreparedInput prepare_input(const Document& document, const Lexicon& lexicon) {
  PreparedInput prepared;
  const Model& model = document.model;
  const Input& input = document.input;
  switch (input.kind) {
    case InputKind::text: {
      Tokenized tokenized = tokenize(input.text);
      prepared.truncated = tokenized.truncated;
      prepared.tokens = annotate_tokens(tokenized.words, lexicon, model.special_tokens);
      if (reads_symbols(model)) forget_word_frequencies(prepared.tokens);
      prepared.X = embed(prepared.tokens, model);
      break;
    }
    case InputKind::tokens:
      prepared.tokens = annotate_tokens(input.tokens, lexicon, model.special_tokens);
      if (reads_symbols(model)) forget_word_frequencies(prepared.tokens);
      prepared.X = embed(prepared.tokens, model);
      break;
    case InputKind::matrix: {
      // Special tokens are not added: X already has one row per token.
      prepared.tokens = annotate_tokens(input.tokens, lexicon, false);
      for (Eigen::Index i = static_cast<Eigen::Index>(prepared.tokens.size()); i < input.X.rows(); ++i)
        prepared.tokens.push_back(Token{"t" + std::to_string(i), "t" + std::to_string(i)});
      for (Token& t : prepared.tokens) {  // tokens named [CLS]/[SEP] are special in explicit inputs
        if (t.text == kClsToken || t.text == kSepToken) {
          t.is_special = true;
          t.pos = PartOfSpeech::special;
        }
      }
      prepared.X = input.X;
      break;
    }
  }
  return prepared;
}

namespace {

// Bit-for-bit equal in shape and values (NaN never compares equal: such a source is prepared again).
bool same_matrix(const Matrix& a, const Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && (a.size() == 0 || a == b);
}

}  // namespace

void capture_input_source(const Document& document, const Lexicon& lexicon, InputSource& out) {
  const Model& model = document.model;
  out.input = document.input;
  out.d_model = model.d_model;
  out.embedding = model.embedding;
  out.positional = model.positional;
  out.special_tokens = model.special_tokens;
  out.seed = model.seed;
  out.positional_table = model.positional_table;
  out.vocab = model.vocab;
  out.token_embedding = model.token_embedding;
  out.lexicon = &lexicon;
}

bool same_input_source(const InputSource& source, const Document& document, const Lexicon& lexicon) {
  const Model& model = document.model;
  const Input& input = document.input;
  return source.lexicon == &lexicon && source.input.kind == input.kind && source.input.text == input.text &&
         source.input.tokens == input.tokens && same_matrix(source.input.X, input.X) && source.d_model == model.d_model &&
         source.embedding == model.embedding && source.positional == model.positional &&
         source.special_tokens == model.special_tokens && source.seed == model.seed &&
         same_matrix(source.positional_table, model.positional_table) && source.vocab == model.vocab &&
         same_matrix(source.token_embedding, model.token_embedding);
}

Document default_document() {
  Document document;
  document.model = make_model(24, 1, 4, 1);
  return document;
}

}  // namespace headlab

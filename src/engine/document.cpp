#include "document.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "bpe/punctuation_tokens.h"
#include "bpe/token_labels.h"
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

// Tokens of subword ids: the label as text, the bytes (lower-cased, without the leading space) as key.
Tokens subword_tokens(const std::vector<int>& ids, const bpe::BpeTokenizer* subword) {
  Tokens tokens(ids.size());
  const std::vector<std::string> labels = subword ? bpe::token_labels(*subword, ids) : std::vector<std::string>{};
  for (std::size_t i = 0; i < ids.size(); ++i) {
    Token& t = tokens[i];
    t.id = ids[i];
    t.in_lexicon = true;  // a byte-level vocabulary has no unknown token
    if (!subword) {
      t.text = t.key = "#" + std::to_string(ids[i]);
      continue;
    }
    t.text = labels[i];
    const std::string bytes = ids[i] >= 0 && ids[i] < static_cast<int>(subword->token_bytes.size())
                                  ? subword->token_bytes[ids[i]]
                                  : std::string();
    t.is_punctuation = bpe::stands_for_punctuation(bytes);
    if (t.is_punctuation) t.pos = PartOfSpeech::punct;
    t.key = bytes.substr(std::min(bytes.size(), bytes.find_first_not_of(' ')));
    for (char& c : t.key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return tokens;
}

const bpe::BpeTokenizer* matching(const Model& model, const bpe::BpeTokenizer* subword) {
  return subword && !model.tokenizer.empty() && subword->name == model.tokenizer ? subword : nullptr;
}

// Bits of a few thousand evenly spaced values, with the shape: what stands for a table too large to copy.
std::uint64_t sample_fingerprint(const Matrix& m) {
  std::uint64_t hash = 1469598103934665603ull ^ static_cast<std::uint64_t>(m.rows()) * 31 ^ static_cast<std::uint64_t>(m.cols());
  const Eigen::Index size = m.size();
  const Eigen::Index step = std::max<Eigen::Index>(1, size / 4096);
  const float* data = m.data();
  for (Eigen::Index i = 0; i < size; i += step) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, data + i, sizeof bits);
    hash = (hash ^ bits) * 1099511628211ull;
  }
  return hash;
}

// Tables above this many values are fingerprinted rather than copied (InputSource).
constexpr Eigen::Index kCopiedEmbeddingValues = Eigen::Index{1} << 22;

}  // namespace

std::size_t max_input_tokens(const Model& model) {
  if (model.positional == Positional::learned && model.positional_table.rows() > 0 && !model.tokenizer.empty())
    return std::min<std::size_t>(kMaxTokens, static_cast<std::size_t>(model.positional_table.rows()));
  return kMaxTokens;
}

PreparedInput prepare_input(const Document& document, const Lexicon& lexicon, const bpe::BpeTokenizer* subword) {
  return prepare_input(document.model, document.input, lexicon, subword);
}

PreparedInput prepare_input(const Model& model, const Input& input, const Lexicon& lexicon, const bpe::BpeTokenizer* subword) {
  PreparedInput prepared;
  subword = matching(model, subword);
  if (!model.tokenizer.empty() && (input.kind == InputKind::text || input.kind == InputKind::token_ids)) {
    const std::size_t cap = max_input_tokens(model);
    std::vector<int> ids = input.kind == InputKind::token_ids ? input.ids : std::vector<int>{};
    Tokenized words;  // without the tokenizer: the words, with no embedding row
    if (input.kind == InputKind::text && subword) ids = bpe::encode(*subword, input.text).ids;
    if (input.kind == InputKind::text && !subword) {
      prepared.missing_tokenizer = true;
      words = tokenize(input.text, cap);
      ids.assign(words.words.size(), -1);
      prepared.truncated = words.truncated;
    }
    if (ids.size() > cap) {
      prepared.truncated = true;
      ids.resize(cap);
    }
    prepared.tokens = subword_tokens(ids, subword);
    for (std::size_t i = 0; i < words.words.size(); ++i) prepared.tokens[i].text = prepared.tokens[i].key = words.words[i];
    prepared.X = embed(prepared.tokens, model);
    return prepared;
  }
  switch (input.kind) {
    case InputKind::token_ids:  // ids without a subword model: read as words named by their ids
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

void capture_input_source(const Document& document, const Lexicon& lexicon, InputSource& out,
                          const bpe::BpeTokenizer* subword) {
  const Model& model = document.model;
  out.input = document.input;
  out.d_model = model.d_model;
  out.embedding = model.embedding;
  out.positional = model.positional;
  out.special_tokens = model.special_tokens;
  out.seed = model.seed;
  out.positional_table = model.positional_table;
  out.vocab = model.vocab;
  out.embedding_fingerprinted = model.token_embedding.size() > kCopiedEmbeddingValues;
  if (out.embedding_fingerprinted) {
    out.token_embedding.resize(0, 0);
    out.embedding_data = model.token_embedding.data();
    out.embedding_sample = sample_fingerprint(model.token_embedding);
  } else {
    out.token_embedding = model.token_embedding;
    out.embedding_data = nullptr;
  }
  out.tokenizer = model.tokenizer;
  out.subword = matching(model, subword);
  out.lexicon = &lexicon;
}

bool same_input_source(const InputSource& source, const Document& document, const Lexicon& lexicon,
                       const bpe::BpeTokenizer* subword) {
  const Model& model = document.model;
  const Input& input = document.input;
  const bool same_embedding =
      model.token_embedding.size() > kCopiedEmbeddingValues
          ? source.embedding_fingerprinted && source.embedding_data == model.token_embedding.data() &&
                source.embedding_sample == sample_fingerprint(model.token_embedding)
          : !source.embedding_fingerprinted && same_matrix(source.token_embedding, model.token_embedding);
  return source.lexicon == &lexicon && source.subword == matching(model, subword) && source.tokenizer == model.tokenizer &&
         source.input.ids == input.ids && same_embedding && source.input.kind == input.kind && source.input.text == input.text &&
         source.input.tokens == input.tokens && same_matrix(source.input.X, input.X) && source.d_model == model.d_model &&
         source.embedding == model.embedding && source.positional == model.positional &&
         source.special_tokens == model.special_tokens && source.seed == model.seed &&
         same_matrix(source.positional_table, model.positional_table) && source.vocab == model.vocab;
}

Document default_document() {
  Document document;
  document.model = make_model(24, 1, 4, 1);
  return document;
}

}  // namespace headlab

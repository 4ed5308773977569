#pragma once
// A document is what a model file holds: the model plus its input (text, tokens or explicit X).
#include <string>
#include <vector>

#include "bpe/bpe_tokenizer.h"
#include "lexicon.h"
#include "matrix.h"
#include "model.h"
#include "token.h"

namespace headlab {

// text: typed text, tokenized by the model's tokenizer; tokens: given words; matrix: an explicit X;
// token_ids: given ids of the model's subword vocabulary (a checkpoint's reference input).
enum class InputKind { text, tokens, matrix, token_ids };

struct Input {
  InputKind kind = InputKind::text;
  std::string text = "The quick brown fox jumps over the lazy dog.";
  std::vector<std::string> tokens;  // kind == tokens, or metadata for kind == matrix
  Matrix X;                         // kind == matrix: (n, d_model), bypasses tokenizer and embedding
  std::vector<int> ids;             // kind == token_ids
};

struct Document {
  Model model;
  Input input;
};

// The tokens (with metadata) and the model input X (n, d_model) of a document.
struct PreparedInput {
  Tokens tokens;
  Matrix X;
  bool truncated = false;  // the text had more than max_input_tokens(model) tokens
  // The model reads subword ids (Model::tokenizer) but no tokenizer of that name was given: the
  // words then have no embedding row (zero), and the lab says so.
  bool missing_tokenizer = false;
};

// The most tokens the model reads: kMaxTokens, or fewer when its learned positions end sooner.
std::size_t max_input_tokens(const Model& model);

// Tokenizes/annotates/embeds the input. For an explicit X, tokens (when given) supply metadata;
// without them, tokens are named "t0", "t1", ... with no metadata. A model with a `tokenizer`
// reads its text through `subword` (when its name matches): each token keeps its id, and its
// text is the readable label of bpe::token_labels ("␣the", "‹喜›").
PreparedInput prepare_input(const Document& document, const Lexicon& lexicon,
                            const bpe::BpeTokenizer* subword = nullptr);
// The same for `input` read by `model`, for inputs other than the document's own (a checkpoint's
// model is not copied to read another sentence).
PreparedInput prepare_input(const Model& model, const Input& input, const Lexicon& lexicon,
                            const bpe::BpeTokenizer* subword = nullptr);

// Everything prepare_input reads besides the lexicon: the input and the model's embedding fields,
// not the layers. Equal sources prepare equal inputs, so a weight edit need not re-tokenize and
// re-embed (a seeded Gaussian per word, the costliest part of an edit after forward and analysis).
// A field prepare_input starts to read must be added here too (tests/app/input_source_test.cpp).
struct InputSource {
  Input input;
  int d_model = 0;
  Embedding embedding = Embedding::named_features;
  Positional positional = Positional::sinusoidal;
  bool special_tokens = false;
  std::uint32_t seed = 0;
  Matrix positional_table;
  std::vector<std::string> vocab;
  Matrix token_embedding;
  // A checkpoint's embedding (GPT-2 small: 154 MB) is not copied: no action edits it in place, so
  // its address, shape and a sample of its values stand for it (a document replaced by another
  // gets other storage, or other values at the sampled places).
  bool embedding_fingerprinted = false;
  const float* embedding_data = nullptr;
  std::uint64_t embedding_sample = 0;
  std::string tokenizer;
  const bpe::BpeTokenizer* subword = nullptr;
  const Lexicon* lexicon = nullptr;
};

// Copies what prepare_input(document, lexicon, subword) reads into `out` (reusing its buffers).
void capture_input_source(const Document& document, const Lexicon& lexicon, InputSource& out,
                          const bpe::BpeTokenizer* subword = nullptr);
// True when prepare_input(document, lexicon, subword) would read exactly what `source` holds.
bool same_input_source(const InputSource& source, const Document& document, const Lexicon& lexicon,
                       const bpe::BpeTokenizer* subword = nullptr);

// The default document: the example sentence, 1 layer of 4 heads, named features (d_model 24).
Document default_document();

}  // namespace headlab

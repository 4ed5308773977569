#pragma once
// A document is what a model file holds: the model plus its input (text, tokens or explicit X).
#include <string>
#include <vector>

#include "lexicon.h"
#include "matrix.h"
#include "model.h"
#include "token.h"

namespace headlab {

enum class InputKind { text, tokens, matrix };

struct Input {
  InputKind kind = InputKind::text;
  std::string text = "The quick brown fox jumps over the lazy dog.";
  std::vector<std::string> tokens;  // kind == tokens, or metadata for kind == matrix
  Matrix X;                         // kind == matrix: (n, d_model), bypasses tokenizer and embedding
};

struct Document {
  Model model;
  Input input;
};

// The tokens (with metadata) and the model input X (n, d_model) of a document.
struct PreparedInput {
  Tokens tokens;
  Matrix X;
  bool truncated = false;  // the text had more than kMaxTokens tokens
};

// Tokenizes/annotates/embeds the input. For an explicit X, tokens (when given) supply metadata;
// without them, tokens are named "t0", "t1", ... with no metadata.
PreparedInput prepare_input(const Document& document, const Lexicon& lexicon);

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
  const Lexicon* lexicon = nullptr;
};

// Copies what prepare_input(document, lexicon) reads into `out` (reusing its buffers).
void capture_input_source(const Document& document, const Lexicon& lexicon, InputSource& out);
// True when prepare_input(document, lexicon) would read exactly what `source` holds.
bool same_input_source(const InputSource& source, const Document& document, const Lexicon& lexicon);

// The default document: the example sentence, 1 layer of 4 heads, named features (d_model 24).
Document default_document();

}  // namespace headlab

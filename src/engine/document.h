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

// The default document: the example sentence, 1 layer of 4 heads, named features (d_model 24).
Document default_document();

}  // namespace headlab

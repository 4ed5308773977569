#include "document.h"

#include "embedding.h"
#include "tokenizer.h"

namespace headlab {

PreparedInput prepare_input(const Document& document, const Lexicon& lexicon) {
  PreparedInput prepared;
  const Model& model = document.model;
  const Input& input = document.input;
  switch (input.kind) {
    case InputKind::text: {
      Tokenized tokenized = tokenize(input.text);
      prepared.truncated = tokenized.truncated;
      prepared.tokens = annotate_tokens(tokenized.words, lexicon, model.special_tokens);
      prepared.X = embed(prepared.tokens, model);
      break;
    }
    case InputKind::tokens:
      prepared.tokens = annotate_tokens(input.tokens, lexicon, model.special_tokens);
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

Document default_document() {
  Document document;
  document.model = make_model(24, 1, 4, 1);
  return document;
}

}  // namespace headlab

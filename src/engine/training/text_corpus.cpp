#include "text_corpus.h"

namespace headlab::training {

void append_text_lines(const bpe::BpeTokenizer& tokenizer, std::string_view text, TextCorpus& corpus) {
  const std::vector<int> newline = bpe::encode(tokenizer, "\n").ids;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    const std::vector<int> ids = bpe::encode(tokenizer, line).ids;
    corpus.ids.insert(corpus.ids.end(), ids.begin(), ids.end());
    corpus.ids.insert(corpus.ids.end(), newline.begin(), newline.end());
  }
}

TextCorpus text_corpus(const bpe::BpeTokenizer& tokenizer, std::string name, std::string_view text) {
  TextCorpus corpus;
  corpus.tokenizer = std::move(name);
  corpus.vocabulary = tokenizer.tokens;
  corpus.token_bytes = tokenizer.token_bytes;
  append_text_lines(tokenizer, text, corpus);
  return corpus;
}

}  // namespace headlab::training

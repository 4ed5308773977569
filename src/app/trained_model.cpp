#include "app/trained_model.h"

#include <algorithm>
#include <cctype>

namespace headlab::app {
namespace {

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

std::string annotated_sentence_in(const std::vector<std::string>& vocab, const analysis::GoldCorpus& gold) {
  const auto known = [&](const std::string& word) { return std::find(vocab.begin(), vocab.end(), lower(word)) != vocab.end(); };
  for (const analysis::GoldSentence& sentence : gold.sentences)
    if (sentence.has_parse && std::all_of(sentence.tokens.begin(), sentence.tokens.end(), known)) return sentence.text;
  return {};
}

Document with_annotated_sentence(Document document, const analysis::GoldCorpus& gold) {
  std::string sentence = annotated_sentence_in(document.model.vocab, gold);
  if (!sentence.empty()) {
    document.input = Input{};
    document.input.text = std::move(sentence);
  }
  return document;
}

}  // namespace headlab::app

#include "engine/analysis/head_corpus.h"

#include <algorithm>
#include <cctype>

namespace headlab::analysis {
namespace {

constexpr const char* kKindNames[kAttendedKindCount] = {"self",        "first_token", "previous_token", "next_token",
                                                        "same_token",  "punctuation", "other"};

// Lower-case ASCII, without the "␣" (U+2423) subword labels start a word with.
std::string comparable(const std::string& text) {
  static const std::string kSpaceMark = "\xE2\x90\xA3";
  std::string out = text.rfind(kSpaceMark, 0) == 0 ? text.substr(kSpaceMark.size()) : text;
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

AttendedKind classify(const Tokens& tokens, int query, int key) {
  if (key == query) return AttendedKind::self;
  if (key == 0) return AttendedKind::first_token;
  if (key == query - 1) return AttendedKind::previous_token;
  if (key == query + 1) return AttendedKind::next_token;
  const Token& q = tokens[static_cast<std::size_t>(query)];
  const Token& k = tokens[static_cast<std::size_t>(key)];
  if (!q.key.empty() && q.key == k.key) return AttendedKind::same_token;
  if (k.is_punctuation) return AttendedKind::punctuation;
  return AttendedKind::other;
}

PartOfSpeech word_class(const Token& token, const Lexicon& lexicon) {
  if (token.pos != PartOfSpeech::unknown) return token.pos;
  const LexiconEntry* entry = token.key.empty() ? nullptr : lexicon.find(token.key);
  return entry ? entry->pos : PartOfSpeech::unknown;
}

}  // namespace

const char* attended_kind_name(AttendedKind kind) { return kKindNames[static_cast<int>(kind)]; }

bool token_matches(const std::string& text, const std::string& filter) {
  return comparable(text).find(comparable(filter)) != std::string::npos;
}

HeadCorpus head_corpus(const QueryKeySample& sample, int head, const Lexicon& lexicon, bool causal, int count,
                       const std::string& filter) {
  HeadCorpus corpus;
  std::vector<StrongContext> all;
  for (std::size_t s = 0; s < sample.sentences.size(); ++s) {
    const SampledSentence& sentence = sample.sentences[s];
    if (head < 0 || head >= static_cast<int>(sentence.heads.size())) continue;
    const Matrix& attention = sentence.heads[static_cast<std::size_t>(head)].attention;  // (n, n)
    const int n = static_cast<int>(std::min<std::size_t>(sentence.annotated.size(), static_cast<std::size_t>(attention.rows())));
    for (int q = 0; q < n; ++q) {
      const int visible = causal ? q + 1 : n;
      if (visible < 2) {
        ++corpus.forced;
        continue;
      }
      Eigen::Index key = 0;
      const float weight = attention.row(q).head(visible).maxCoeff(&key);
      const int k = static_cast<int>(key);
      if (!filter.empty() && !token_matches(sentence.tokens[static_cast<std::size_t>(q)], filter) &&
          !token_matches(sentence.tokens[static_cast<std::size_t>(k)], filter))
        continue;
      const AttendedKind kind = classify(sentence.annotated, q, k);
      ++corpus.queries;
      ++corpus.kinds[static_cast<std::size_t>(kind)];
      ++corpus.word_classes[static_cast<std::size_t>(word_class(sentence.annotated[static_cast<std::size_t>(k)], lexicon))];
      all.push_back({static_cast<int>(s), q, k, weight, kind});
    }
  }
  // Largest weight first; ties keep the corpus order, so the list is the same every time.
  std::stable_sort(all.begin(), all.end(), [](const StrongContext& a, const StrongContext& b) { return a.weight > b.weight; });
  all.resize(std::min<std::size_t>(all.size(), static_cast<std::size_t>(std::max(0, count))));
  corpus.strongest = std::move(all);
  return corpus;
}

}  // namespace headlab::analysis

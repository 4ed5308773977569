#include "engine/analysis/sentence_context.h"

#include <algorithm>
#include <cmath>

namespace headlab::analysis {
namespace {

// Repeating a function word ("the ... the") says nothing about meaning; repeating a noun does.
bool is_content_word(const Token& t) {
  switch (t.pos) {
    case PartOfSpeech::noun:
    case PartOfSpeech::verb:
    case PartOfSpeech::adj:
    case PartOfSpeech::adv:
    case PartOfSpeech::pron:
    case PartOfSpeech::num:
    case PartOfSpeech::unknown:
      return !t.is_punctuation && !t.is_special;
    default:
      return false;
  }
}

// Tokens are the same symbol when their text matches up to ASCII case ("The" ... "the").
bool same_token(const Token& a, const Token& b) {
  if (a.text.size() != b.text.size()) return false;
  for (std::size_t k = 0; k < a.text.size(); ++k) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    if (lower(a.text[k]) != lower(b.text[k])) return false;
  }
  return true;
}

bool can_repeat(const Token& t) { return !t.is_special && !t.is_punctuation; }

void fill_repeat_masks(const Tokens& tokens, SentenceContext& out) {
  const int n = out.n;
  out.duplicate_mask.setZero(n, n);
  out.induction_mask.setZero(n, n);
  out.duplicate_rows = out.induction_rows = 0;
  for (int i = 0; i < n; ++i) {
    if (!can_repeat(tokens[i])) continue;
    bool duplicate = false, induction = false;
    for (int j = 0; j < i; ++j) {
      if (!can_repeat(tokens[j]) || !same_token(tokens[i], tokens[j])) continue;
      out.duplicate_mask(i, j) = 1.0f;
      duplicate = true;
      // The token after the earlier copy, if it came before i ("A A" has none: it would be i).
      if (j + 1 < i) {
        out.induction_mask(i, j + 1) = 1.0f;
        induction = true;
      }
    }
    out.duplicate_rows += duplicate;
    out.induction_rows += induction;
  }
  out.duplicate_key_counts = out.duplicate_mask.colwise().sum();
  out.induction_key_counts = out.induction_mask.colwise().sum();
}

}  // namespace

void make_sentence_context(const Tokens& tokens, bool causal, const GoldCorpus& corpus, SentenceContext& out) {
  const int n = static_cast<int>(tokens.size());
  out.n = n;
  out.causal = causal;
  out.is_delimiter.assign(n, 0);
  out.is_cls.assign(n, 0);
  out.is_special.assign(n, 0);
  out.is_rarest.assign(n, 0);
  out.related.assign(static_cast<std::size_t>(n) * n, 0);
  out.words.clear();
  out.delimiter_count = out.cls_count = 0;
  float min_zipf = 1e9f, max_zipf = -1e9f;
  for (int i = 0; i < n; ++i) {
    const Token& t = tokens[i];
    const bool cls = t.is_special && t.text == kClsToken;
    out.is_special[i] = t.is_special;
    out.is_cls[i] = cls;
    out.is_delimiter[i] = t.is_punctuation || (t.is_special && t.text == kSepToken);
    out.delimiter_count += out.is_delimiter[i];
    out.cls_count += cls;
    if (!t.is_special) out.words.push_back(i);
    if (!t.is_special && !t.is_punctuation) {
      min_zipf = std::min(min_zipf, t.zipf);
      max_zipf = std::max(max_zipf, t.zipf);
    }
  }
  // Voita et al. 2019, sec. 5.3: the least frequent token of the sentence. Punctuation and
  // special tokens are never "rare words"; with no spread in frequency there is no rare word.
  out.rarest = -1;
  if (min_zipf < max_zipf)
    for (int i = 0; i < n; ++i) {
      const Token& t = tokens[i];
      if (!t.is_special && !t.is_punctuation && t.zipf == min_zipf) {
        out.is_rarest[i] = 1;
        if (out.rarest < 0) out.rarest = i;
      }
    }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      const Token& a = tokens[i];
      const Token& b = tokens[j];
      if (a.is_special || b.is_special || a.is_punctuation || b.is_punctuation) continue;
      const bool same_class = (a.semantic_bits & b.semantic_bits) != 0;
      const bool same_word = is_content_word(a) && a.key == b.key;
      out.related[static_cast<std::size_t>(i) * n + j] = same_class || same_word;
    }
  out.delimiter_mask.resize(n);
  out.cls_mask.resize(n);
  out.rarest_mask.resize(n);
  out.related_mask.resize(n, n);
  out.has_related.assign(n, 0);
  for (int i = 0; i < n; ++i) {
    out.delimiter_mask(i) = out.is_delimiter[i];
    out.cls_mask(i) = out.is_cls[i];
    out.rarest_mask(i) = out.is_rarest[i];
    for (int j = 0; j < n; ++j) {
      out.related_mask(i, j) = out.is_related(i, j);
      if (out.is_related(i, j) && j < out.visible(i)) out.has_related[i] = 1;
    }
  }
  out.log_visible.resize(n);
  out.rarest_share.resize(n);
  for (int i = 0; i < n; ++i) {
    const int visible = out.visible(i);
    out.log_visible[i] = std::log(static_cast<float>(visible));
    int rarest_visible = 0;
    for (int j = 0; j < visible; ++j) rarest_visible += out.is_rarest[j];
    out.rarest_share[i] = static_cast<double>(rarest_visible) / visible;
  }
  fill_repeat_masks(tokens, out);
  out.gold = match_gold(corpus, tokens);
  out.gold_neighbour.assign(static_cast<std::size_t>(n) * n, 0);
  if (out.gold.has_gold)
    for (const Arc& arc : out.gold.sentence->arcs) {
      const int a = out.gold.input_index[arc.dependent], b = out.gold.input_index[arc.head];
      out.gold_neighbour[static_cast<std::size_t>(a) * n + b] = out.gold_neighbour[static_cast<std::size_t>(b) * n + a] = 1;
    }
}

}  // namespace headlab::analysis

#include "generator.h"

#include <array>

#include "engine/tokenizer.h"

namespace headlab::training {
namespace {

constexpr int kMaxDepth = 24;
using Scope = std::array<int, kMaxGrammarFeatures>;  // feature id -> value id, -1 when unbound

int sample(Rng& rng, const std::vector<float>& probabilities) {
  float u = rng.uniform();
  for (std::size_t i = 0; i + 1 < probabilities.size(); ++i) {
    if (u < probabilities[i]) return static_cast<int>(i);
    u -= probabilities[i];
  }
  return static_cast<int>(probabilities.size()) - 1;
}

class Expander {
 public:
  Expander(const Grammar& grammar, Rng& rng, Sentence& out, GeneratorScratch& scratch)
      : grammar_(grammar), rng_(rng), out_(out), candidates_(scratch.candidates), dependents_(scratch.dependents) {
    candidates_.clear();
    dependents_.clear();
  }
  std::string error;

  // Expands `symbol` with the features in `scope`; returns the index of its head token, or -1.
  int expand(int symbol, const Scope& scope, int depth) {
    if (depth > kMaxDepth) return fail("recursion deeper than " + std::to_string(kMaxDepth) + " at " + grammar_.symbols[symbol]);
    if (grammar_.is_category(symbol)) return word(symbol, scope);
    const std::vector<GrammarRule>& rules = grammar_.rules[symbol];
    float total = 0.0f;
    for (const GrammarRule& r : rules) total += r.weight;
    float u = rng_.uniform() * total;
    std::size_t chosen = 0;
    while (chosen + 1 < rules.size() && u >= rules[chosen].weight) u -= rules[chosen++].weight;
    const GrammarRule& rule = rules[chosen];

    Scope local = scope;
    for (const FeatureChoice& c : rule.choices)
      if (local[c.feature] < 0) local[c.feature] = c.values[sample(rng_, c.weights)];

    // Dependents attach to the head word, which may come after them: collect, then link.
    int head_token = -1;
    const std::size_t first_dependent = dependents_.size();
    for (const GrammarItem& item : rule.items) {
      const int copies = item.head ? 1 : sample(rng_, item.count);
      for (int c = 0; c < copies; ++c) {
        Scope child;
        child.fill(-1);
        for (const FeatureSetting& s : item.settings)
          child[s.feature] = s.from_variable ? local[s.value] : s.value;
        const int token = expand(item.symbol, child, depth + 1);
        if (token < 0) return -1;
        if (item.head) head_token = token;
        else dependents_.emplace_back(token, item.relation);
      }
    }
    for (std::size_t d = first_dependent; d < dependents_.size(); ++d) {
      out_.head[dependents_[d].first] = head_token;
      out_.relation[dependents_[d].first] = dependents_[d].second;
    }
    dependents_.resize(first_dependent);
    return head_token;
  }

 private:
  int fail(const std::string& message) {
    if (error.empty()) error = message;
    return -1;
  }

  int word(int symbol, const Scope& scope) {
    const int category = symbol - grammar_.nonterminal_count;
    candidates_.clear();
    float total = 0.0f;
    const std::vector<GrammarWord>& words = grammar_.words[category];
    for (std::size_t w = 0; w < words.size(); ++w) {
      bool fits = true;
      for (const auto& [feature, value] : words[w].features)
        if (scope[feature] >= 0 && scope[feature] != value) fits = false;
      if (fits) {
        candidates_.push_back(static_cast<int>(w));
        total += words[w].weight;
      }
    }
    if (candidates_.empty()) return fail("no word of category " + grammar_.symbols[symbol] + " fits the features");
    if (out_.size() >= static_cast<int>(kMaxTokens)) return fail("sentence longer than the engine's token limit");
    float u = rng_.uniform() * total;
    std::size_t pick = 0;
    while (pick + 1 < candidates_.size() && u >= words[candidates_[pick]].weight) u -= words[candidates_[pick++]].weight;
    const GrammarWord& chosen = words[candidates_[pick]];
    out_.tokens.push_back(chosen.token);
    out_.pos.push_back(grammar_.category_pos[category]);
    out_.head.push_back(-1);
    out_.relation.push_back(kRelationNone);
    return out_.size() - 1;
  }

  const Grammar& grammar_;
  Rng& rng_;
  Sentence& out_;
  std::vector<int>& candidates_;
  std::vector<std::pair<int, int>>& dependents_;
};

void push_special(Sentence& s, int token) {
  s.tokens.push_back(token);
  s.pos.push_back(PartOfSpeech::special);
  s.head.push_back(-1);
  s.relation.push_back(kRelationNone);
}

}  // namespace

void Sentence::clear() {
  tokens.clear();
  pos.clear();
  head.clear();
  relation.clear();
}

bool generate_sentence(const Grammar& grammar, Rng& rng, bool special_tokens, Sentence& out, std::string* error,
                       GeneratorScratch* scratch) {
  out.clear();
  if (special_tokens) push_special(out, kTokenCls);
  GeneratorScratch local;
  Expander expander(grammar, rng, out, scratch ? *scratch : local);
  Scope scope;
  scope.fill(-1);
  const int root = expander.expand(grammar.start, scope, 0);
  if (root < 0 || (special_tokens && out.size() >= static_cast<int>(kMaxTokens) + 1)) {
    if (error) *error = expander.error.empty() ? "sentence too long" : expander.error;
    return false;
  }
  out.relation[root] = kRelationRoot;
  if (special_tokens) push_special(out, kTokenSep);
  return true;
}

std::vector<Sentence> generate_sentences(const Grammar& grammar, std::uint64_t seed, int count, bool special_tokens) {
  Rng rng(seed);
  std::vector<Sentence> sentences;
  sentences.reserve(count);
  Sentence s;
  GeneratorScratch scratch;
  for (int i = 0; i < count; ++i)
    if (generate_sentence(grammar, rng, special_tokens, s, nullptr, &scratch)) sentences.push_back(s);
  return sentences;
}

Tokens to_tokens(const Sentence& sentence, const Grammar& grammar) {
  Tokens tokens(sentence.tokens.size());
  for (int i = 0; i < sentence.size(); ++i) {
    Token& t = tokens[i];
    t.text = t.key = grammar.vocabulary[sentence.tokens[i]];
    t.pos = sentence.pos[i];
    t.is_special = t.pos == PartOfSpeech::special;
    t.is_punctuation = t.pos == PartOfSpeech::punct;
    t.in_lexicon = true;
  }
  return tokens;
}

std::string sentence_text(const Sentence& sentence, const Grammar& grammar) {
  std::string text;
  for (int token : sentence.tokens) text += (text.empty() ? "" : " ") + grammar.vocabulary[token];
  return text;
}

}  // namespace headlab::training

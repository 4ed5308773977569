#include "engine/bpe/bpe_tokenizer.h"

#include <algorithm>
#include <cstdio>
#include <queue>

#include "engine/bpe/byte_alphabet.h"

namespace headlab::bpe {
namespace {

std::uint64_t pair_key(int left, int right) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

// A pair of adjacent symbols that a rule merges. Ordered so the heap's top is the lowest rank, and
// among equal ranks (the same rule) the leftmost position.
struct Candidate {
  int rank;
  int position;  // the left symbol's index in the piece
  int left;
  int right;
  int merged;  // the rule's result
  bool operator>(const Candidate& other) const {
    return rank != other.rank ? rank > other.rank : position > other.position;
  }
};

// The symbols of one piece as a linked list over their starting byte (a merged symbol keeps its
// left part's index), and the candidates waiting to merge. Reused from piece to piece.
struct MergeWork {
  std::vector<int> id;    // -1 once merged into its left neighbour
  std::vector<int> next;  // -1 at the end
  std::vector<int> prev;  // -1 at the start
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> queue;
  std::vector<Candidate> round;
};

void push_candidate(const BpeTokenizer& tokenizer, MergeWork& work, int position) {
  if (position < 0 || work.next[position] < 0) return;
  const int left = work.id[position], right = work.id[work.next[position]];
  const auto rule = tokenizer.rules.find(pair_key(left, right));
  if (rule != tokenizer.rules.end()) work.queue.push({rule->second.rank, position, left, right, rule->second.merged});
}

// Merges one piece's bytes. Equal, step for step, to the textbook loop (find the lowest-ranked
// adjacent pair, merge all its occurrences left to right, start again), which gpt-3-encoder runs:
// each round pops every candidate of the lowest rank, in position order, and merges those still in
// place. Pairs a round creates never belong to the same rule (their merged side is longer than
// either of its parts), so they wait for a later round, as in the textbook loop.
void merge_piece(const BpeTokenizer& tokenizer, std::string_view bytes, MergeWork& work, std::vector<int>& out) {
  const int n = static_cast<int>(bytes.size());
  work.id.resize(n);
  work.next.resize(n);
  work.prev.resize(n);
  for (int i = 0; i < n; ++i) {
    work.id[i] = tokenizer.byte_token[static_cast<unsigned char>(bytes[i])];
    work.next[i] = i + 1 < n ? i + 1 : -1;
    work.prev[i] = i - 1;
  }
  work.queue = {};
  for (int i = 0; i + 1 < n; ++i) push_candidate(tokenizer, work, i);
  while (!work.queue.empty()) {
    const int rank = work.queue.top().rank;
    work.round.clear();
    while (!work.queue.empty() && work.queue.top().rank == rank) {
      work.round.push_back(work.queue.top());
      work.queue.pop();
    }
    for (const Candidate& c : work.round) {
      const int p = c.position, q = work.next[p];
      if (work.id[p] != c.left || q < 0 || work.id[q] != c.right) continue;  // an earlier merge took a part
      work.id[p] = c.merged;
      work.id[q] = -1;
      work.next[p] = work.next[q];
      if (work.next[q] >= 0) work.prev[work.next[q]] = p;
      push_candidate(tokenizer, work, work.prev[p]);
      push_candidate(tokenizer, work, p);
    }
  }
  for (int i = 0; i >= 0 && i < n; i = work.next[i]) out.push_back(work.id[i]);
}

}  // namespace

SourceNames json_source_names() {
  return {[](std::size_t id) { return "tokens[" + std::to_string(id) + "]"; },
          [](std::size_t rank) { return "merges[" + std::to_string(rank) + "]"; }};
}

Result<BpeTokenizer> make_bpe_tokenizer(std::string name, PreTokenizer pre_tokenizer, std::vector<std::string> tokens,
                                        const std::vector<Merge>& merges, const SourceNames& names) {
  using R = Result<BpeTokenizer>;
  BpeTokenizer t;
  t.name = std::move(name);
  t.pre_tokenizer = pre_tokenizer;
  if (tokens.size() > static_cast<std::size_t>(INT32_MAX) || merges.size() > static_cast<std::size_t>(INT32_MAX))
    return R::failure("too many tokens or merges");
  std::unordered_map<std::string, int> id_of;
  id_of.reserve(tokens.size());
  t.token_bytes.resize(tokens.size());
  for (std::size_t id = 0; id < tokens.size(); ++id) {
    if (tokens[id].empty()) return R::failure(names.token(id) + ": a token cannot be empty");
    if (!symbols_to_bytes(tokens[id], t.token_bytes[id]))
      return R::failure(names.token(id) + ": " + quoted(tokens[id]) +
                        " is not written in GPT-2's byte alphabet (one character per byte)");
    const auto [existing, inserted] = id_of.emplace(tokens[id], static_cast<int>(id));
    if (!inserted)
      return R::failure(names.token(id) + ": " + quoted(tokens[id]) + " repeats " + names.token(existing->second));
  }
  for (int b = 0; b < 256; ++b) {
    const auto found = id_of.find(byte_symbol(static_cast<unsigned char>(b)));
    if (found == id_of.end()) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", b);
      return R::failure("tokens: the byte " + std::string(hex) + " has no token of its own (" +
                        quoted(byte_symbol(static_cast<unsigned char>(b))) + ")");
    }
    t.byte_token[b] = found->second;
  }
  t.merges.reserve(merges.size());
  t.rules.reserve(merges.size());
  for (std::size_t rank = 0; rank < merges.size(); ++rank) {
    const Merge& m = merges[rank];
    const auto left = id_of.find(m.left), right = id_of.find(m.right), merged = id_of.find(m.left + m.right);
    if (left == id_of.end()) return R::failure(names.merge(rank) + ": " + quoted(m.left) + " is not a token");
    if (right == id_of.end()) return R::failure(names.merge(rank) + ": " + quoted(m.right) + " is not a token");
    if (merged == id_of.end())
      return R::failure(names.merge(rank) + ": the merged " + quoted(m.left + m.right) + " is not a token");
    const auto [existing, inserted] = t.rules.emplace(pair_key(left->second, right->second),
                                                      BpeTokenizer::Rule{static_cast<int>(rank), merged->second});
    if (!inserted)
      return R::failure(names.merge(rank) + ": " + quoted(m.left + " " + m.right) + " repeats " +
                        names.merge(static_cast<std::size_t>(existing->second.rank)));
    t.merges.emplace_back(left->second, right->second);
  }
  t.tokens = std::move(tokens);
  return t;
}

BpeEncoding encode(const BpeTokenizer& tokenizer, std::string_view text) {
  BpeEncoding encoding;
  MergeWork work;
  for (const Piece& piece : pre_tokenize(text, tokenizer.pre_tokenizer))
    merge_piece(tokenizer, text.substr(piece.offset, piece.length), work, encoding.ids);
  encoding.tokens.reserve(encoding.ids.size());
  for (const int id : encoding.ids) encoding.tokens.push_back(tokenizer.tokens[id]);
  return encoding;
}

std::string decode(const BpeTokenizer& tokenizer, const std::vector<int>& ids) {
  std::string bytes;
  for (const int id : ids)
    if (id >= 0 && static_cast<std::size_t>(id) < tokenizer.token_bytes.size()) bytes += tokenizer.token_bytes[id];
  return bytes;
}

}  // namespace headlab::bpe

#include "engine/analysis/head_label.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace headlab::analysis {
namespace {

// Most specific first (see head_label.h).
// Induction before duplicate_token before content similarity: each is the more specific reading
// of attention to repeated words (the token after the earlier copy; the copy itself; any related word).
constexpr std::array<Role, kRoleCount> kPriority = {
    Role::cls,        Role::delimiter,      Role::induction,          Role::duplicate_token,
    Role::rare_word,  Role::syntactic,      Role::content_similarity, Role::previous_token,
    Role::next_token, Role::self,           Role::local,              Role::broad};

struct RoleCheck : RoleStatus {
  float progress() const { return threshold > 0.0f ? score / threshold : 0.0f; }
  float margin() const {
    return threshold >= 1.0f ? 1.0f : std::clamp((score - threshold) / (1.0f - threshold), 0.0f, 1.0f);
  }
};

std::array<RoleCheck, kRoleCount> check_roles(const HeadScores& s, const LabelConfig& c) {
  std::array<RoleCheck, kRoleCount> checks;
  const auto set = [&](Role role, float score, float threshold, bool fires, bool available) {
    checks[static_cast<int>(role)] = {{score, threshold, fires && available, available}};
  };
  set(Role::previous_token, s.previous_token.mass, c.previous_token, s.previous_token.mass > c.previous_token,
      s.previous_token.rows > 0);
  set(Role::next_token, s.next_token.mass, c.next_token, s.next_token.mass > c.next_token, s.next_token.rows > 0);
  set(Role::local, s.local.mass, s.local.required_mass, s.local.mass >= s.local.required_mass,
      s.local.uniform_share > 0.0f && s.local.uniform_share <= c.local_max_band_share);
  set(Role::self, s.self.mass, c.self, s.self.mass > c.self, s.self.rows > 0);
  set(Role::delimiter, s.delimiter.mass, c.delimiter, s.delimiter.mass > c.delimiter, s.delimiter.keys > 0);
  set(Role::cls, s.cls.mass, c.cls, s.cls.mass > c.cls, s.cls.keys > 0);
  set(Role::broad, s.broad, c.broad, s.broad > c.broad, s.self.rows > 0);
  const RelationScore* best = s.syntactic.best_relation();
  set(Role::syntactic, best ? best->accuracy : 0.0f, best ? std::min(1.0f, best->baseline + c.syntactic_margin) : 1.0f,
      s.syntactic.claimed(), s.syntactic.evaluated && best);
  set(Role::content_similarity, s.content_similarity.score, c.content_similarity,
      s.content_similarity.score > c.content_similarity, s.content_similarity.rows > 0);
  const auto repeat_fires = [](const RepeatScore& r, float threshold, float key_multiple) {
    return r.mass > threshold && r.mass >= key_multiple * r.key_mass;
  };
  set(Role::duplicate_token, s.duplicate_token.mass, c.duplicate_token,
      repeat_fires(s.duplicate_token, c.duplicate_token, c.duplicate_token_key_multiple), s.duplicate_token.rows > 0);
  set(Role::induction, s.induction.mass, c.induction, repeat_fires(s.induction, c.induction, c.induction_key_multiple),
      s.induction.rows > 0);
  set(Role::rare_word, s.rare_word.share, c.rare_word,
      s.rare_word.share > c.rare_word && s.rare_word.mass >= c.rare_word_min_target_mass &&
          s.rare_word.mass >= c.rare_word_uniform_multiple * s.rare_word.uniform_mass,
      s.rare_word.token >= 0);
  return checks;
}

// printf into `out`, replacing (format) or extending (append_format) it. Writing into the label's
// own strings reuses their capacity: relabelling a head on every edit allocates nothing.
void append_format_v(std::string& out, const char* pattern, va_list args) {
  char buffer[512];
  std::vsnprintf(buffer, sizeof buffer, pattern, args);
  out.append(buffer);
}

void format(std::string& out, const char* pattern, ...) __attribute__((format(printf, 2, 3)));
void format(std::string& out, const char* pattern, ...) {
  out.clear();
  va_list args;
  va_start(args, pattern);
  append_format_v(out, pattern, args);
  va_end(args);
}

void append_format(std::string& out, const char* pattern, ...) __attribute__((format(printf, 2, 3)));
void append_format(std::string& out, const char* pattern, ...) {
  va_list args;
  va_start(args, pattern);
  append_format_v(out, pattern, args);
  va_end(args);
}

int percent(float x) { return static_cast<int>(std::lround(100.0f * x)); }

const char* token_text(const Tokens& tokens, int i) {
  return i >= 0 && i < static_cast<int>(tokens.size()) ? tokens[i].text.c_str() : "?";
}

void explain_syntactic(const HeadScores& s, const SentenceContext& sentence, const GoldCorpus& corpus,
                       const Tokens& tokens, std::string& out) {
  const RelationScore& r = *s.syntactic.best_relation();
  const std::string& id = corpus.relations[r.relation].id;
  const std::string& name = corpus.relation_name(id);
  const int hits = r.head_to_dependent ? r.head_to_dependent_hits : r.dependent_to_head_hits;
  // One gold arc of the relation as an example ("jumps" -> "fox").
  int from = -1, to = -1;
  for (const Arc& arc : sentence.gold.sentence->arcs)
    if (arc.relation_index == r.relation) {
      const int dependent = sentence.gold.input_index[arc.dependent], head = sentence.gold.input_index[arc.head];
      from = r.head_to_dependent ? head : dependent;
      to = r.head_to_dependent ? dependent : head;
      break;
    }
  if (r.head_to_dependent)
    return format(out, "%d of %d %s arcs: the head word puts most weight on its %s (\"%s\" -> \"%s\"); the best fixed "
                  "offset gets %d%%.",
                  hits, r.arcs, id.c_str(), name.c_str(), token_text(tokens, from), token_text(tokens, to),
                  percent(r.baseline));
  return format(out, "%d of %d %s arcs: the %s puts most weight on the word it attaches to (\"%s\" -> \"%s\"); the best "
                "fixed offset gets %d%%.",
                hits, r.arcs, id.c_str(), name.c_str(), token_text(tokens, from), token_text(tokens, to),
                percent(r.baseline));
}

void explain(Role role, const HeadScores& s, const SentenceContext& sentence, const GoldCorpus& corpus,
             const Tokens& tokens, std::string& out) {
  switch (role) {
    case Role::previous_token:
      return format(out, "%d of %d tokens put most weight on the previous token (%d%% of their attention on average).",
                    s.previous_token.argmax_rows, s.previous_token.rows, percent(s.previous_token.mass));
    case Role::next_token:
      return format(out, "%d of %d tokens put most weight on the next token (%d%% of their attention on average).",
                    s.next_token.argmax_rows, s.next_token.rows, percent(s.next_token.mass));
    case Role::self:
      return format(out, "%d of %d tokens put most weight on themselves (%d%% of their attention on average).",
                    s.self.argmax_rows, s.self.rows, percent(s.self.mass));
    case Role::local:
      return format(out, "Tokens keep %d%% of their attention within %d positions of themselves, %.1fx what an even "
                    "spread would put there.",
                    percent(s.local.mass), s.local.window, s.local.ratio);
    case Role::delimiter:
      return format(out, "Tokens put %d%% of their attention on punctuation and [SEP] (%d such token%s).",
                    percent(s.delimiter.mass), s.delimiter.keys, s.delimiter.keys == 1 ? "" : "s");
    case Role::cls:
      return format(out, "Tokens put %d%% of their attention on [CLS].", percent(s.cls.mass));
    case Role::broad:
      return format(out, "Attention is spread out: the average row entropy is %d%% of an even spread's.", percent(s.broad));
    case Role::syntactic: return explain_syntactic(s, sentence, corpus, tokens, out);
    case Role::content_similarity: {
      int a = -1, b = -1;  // one related pair as an example
      for (int i = 0; i < sentence.n && a < 0; ++i)
        for (int j = i + 1; j < sentence.n; ++j)
          if (sentence.is_related(i, j)) {
            a = i, b = j;
            break;
          }
      return format(out, "%d words with a related word (e.g. \"%s\" and \"%s\") send %d%% of the attention they give "
                    "other words to related ones.",
                    s.content_similarity.rows, token_text(tokens, a), token_text(tokens, b),
                    percent(s.content_similarity.related_share));
    }
    case Role::duplicate_token:
      return format(out, "%d repeated token%s put %d%% of their attention on earlier copies of themselves.",
                    s.duplicate_token.rows, s.duplicate_token.rows == 1 ? "" : "s", percent(s.duplicate_token.mass));
    case Role::induction:
      return format(out, "%d repeated token%s put %d%% of their attention on the token that followed their earlier "
                    "copy (in \"A B ... A\", the second A looks at B): prefix matching.",
                    s.induction.rows, s.induction.rows == 1 ? "" : "s", percent(s.induction.mass));
    case Role::rare_word:
      if (s.rare_word.tied > 1)
        return format(out, "%d of %d tokens put most weight on one of the %d equally rarest words, mostly \"%s\".",
                      s.rare_word.hits, s.rare_word.rows, s.rare_word.tied, token_text(tokens, s.rare_word.token));
      return format(out, "%d of %d tokens put most weight on the rarest word, \"%s\".", s.rare_word.hits, s.rare_word.rows,
                    token_text(tokens, s.rare_word.token));
  }
  out.clear();
}

}  // namespace

std::array<RoleStatus, kRoleCount> role_status(const HeadScores& scores, const LabelConfig& config) {
  const std::array<RoleCheck, kRoleCount> checks = check_roles(scores, config);
  std::array<RoleStatus, kRoleCount> out;
  for (int r = 0; r < kRoleCount; ++r) out[r] = checks[r];
  return out;
}

void label_head(const HeadScores& scores, const SentenceContext& sentence, const GoldCorpus& corpus,
                const Tokens& tokens, const LabelConfig& config, HeadLabel& out) {
  const std::array<RoleCheck, kRoleCount> checks = check_roles(scores, config);
  const auto check = [&](Role r) -> const RoleCheck& { return checks[static_cast<int>(r)]; };
  const bool strict_previous = check(Role::previous_token).fires &&
                               scores.previous_token.argmax_share >= config.previous_token_strict_share;
  const bool strict_next =
      check(Role::next_token).fires && scores.next_token.argmax_share >= config.next_token_strict_share;

  out.mixed = true;
  out.strict = false;
  out.syntactic_relation.clear();
  // Assigned in place (not cleared and refilled), so the strings keep their capacity.
  std::size_t runners_up = 0;
  const auto add_runner_up = [&](Role role) {
    if (runners_up < out.runners_up.size()) out.runners_up[runners_up] = role_id(role);
    else out.runners_up.emplace_back(role_id(role));
    ++runners_up;
  };
  for (Role role : kPriority) {
    if (!check(role).fires) continue;
    const bool pattern_role = role == Role::syntactic || role == Role::content_similarity || role == Role::rare_word ||
                              role == Role::duplicate_token || role == Role::induction;
    if (pattern_role && (strict_previous || strict_next)) continue;  // positional explains it
    out.mixed = false;
    out.primary = role;
    break;
  }

  // Runners-up: other firing roles in priority order, then the closest others.
  std::array<Role, kRoleCount> by_progress = kPriority;
  // Insertion sort, stable like std::stable_sort, which takes a heap buffer on every call.
  for (std::size_t i = 1; i < by_progress.size(); ++i)
    for (std::size_t j = i; j > 0 && check(by_progress[j]).progress() > check(by_progress[j - 1]).progress(); --j)
      std::swap(by_progress[j], by_progress[j - 1]);
  for (Role role : kPriority)
    if (check(role).fires && (out.mixed || role != out.primary) && runners_up < 3) add_runner_up(role);
  for (Role role : by_progress) {
    if (runners_up >= 3) break;
    const RoleCheck& c = check(role);
    if (!c.available || c.fires || (!out.mixed && role == out.primary) || c.progress() < 0.5f) continue;
    add_runner_up(role);
  }
  out.runners_up.resize(runners_up);

  if (!out.mixed) {
    const RoleCheck& c = check(out.primary);
    out.confidence = c.margin();
    out.label = role_id(out.primary);
    if (out.primary == Role::syntactic) {
      out.syntactic_relation = corpus.relations[scores.syntactic.best_relation()->relation].id;
      out.label += ':';
      out.label += out.syntactic_relation;
    }
    out.strict = (out.primary == Role::previous_token && strict_previous) ||
                 (out.primary == Role::next_token && strict_next);
    explain(out.primary, scores, sentence, corpus, tokens, out.explanation);
    return;
  }
  out.label = kMixedLabel;
  float closest = 0.0f;
  for (const RoleCheck& c : checks)
    if (c.available) closest = std::max(closest, c.progress());
  out.confidence = std::clamp(1.0f - closest, 0.0f, 1.0f);
  out.explanation.assign("No single role fits.");
  int listed = 0;
  for (Role role : by_progress) {
    const RoleCheck& c = check(role);
    if (!c.available || listed == 2) continue;
    append_format(out.explanation, "%s %s %.2f (needs %.2f)", listed == 0 ? " Closest:" : ",", role_name_en(role),
                  c.score, c.threshold);
    ++listed;
  }
  if (listed) out.explanation += '.';
}

}  // namespace headlab::analysis

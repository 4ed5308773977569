#include "engine/analysis/head_label.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <string_view>

#include "engine/analysis/explanation.h"

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
  // score / threshold (0 without a threshold), computed once: sorting the roles by it compares
  // each role several times.
  float progress_share = 0.0f;
  float progress() const { return progress_share; }
  float margin() const {
    return threshold >= 1.0f ? 1.0f : std::clamp((score - threshold) / (1.0f - threshold), 0.0f, 1.0f);
  }
};

// For each available role whose score passes its threshold but does not fire, the guard that held
// it back, in the order check_roles tests them.
void set_guards(const HeadScores& s, const LabelConfig& c, std::array<RoleCheck, kRoleCount>& checks) {
  const auto passing = [&](Role role) -> RoleCheck* {
    RoleCheck& check = checks[static_cast<int>(role)];
    return check.available && !check.fires && check.score >= check.threshold - 1e-6f ? &check : nullptr;
  };
  if (RoleCheck* check = passing(Role::syntactic)) {
    const RelationScore& best = *s.syntactic.best_relation();
    if (best.partner_mass < c.syntactic_min_target_mass) check->guard = RoleGuard::weak_partner;
    else if (s.syntactic.sink_rows > c.syntactic_max_sink_share * s.syntactic.rows) check->guard = RoleGuard::sink;
    else check->guard = RoleGuard::unselective;
  }
  if (RoleCheck* check = passing(Role::duplicate_token)) check->guard = RoleGuard::shared_keys;
  if (RoleCheck* check = passing(Role::induction)) check->guard = RoleGuard::shared_keys;
  if (RoleCheck* check = passing(Role::rare_word))
    check->guard = s.rare_word.mass < c.rare_word_min_target_mass ? RoleGuard::weak_target : RoleGuard::near_uniform;
}

std::array<RoleCheck, kRoleCount> check_roles(const HeadScores& s, const LabelConfig& c) {
  std::array<RoleCheck, kRoleCount> checks;
  const auto set = [&](Role role, float score, float threshold, bool fires, bool available) {
    checks[static_cast<int>(role)] = {{score, threshold, fires && available, available},
                                      threshold > 0.0f ? score / threshold : 0.0f};
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
  set_guards(s, c, checks);
  return checks;
}

// The label's explanation as a template id and its values (explanation.h), and the English text.
// Values are assigned in place, so relabelling a head on every edit reuses the strings' capacity.
class Explainer {
 public:
  Explainer(HeadLabel& out, const GoldCorpus& corpus) : out_(out), corpus_(corpus) {}
  // Drops values left from the last label and writes the English text.
  void finish() {
    out_.explanation_values.resize(count_);
    out_.explanation.clear();
    // Views of names that outlive the call (static role names, the values, the corpus), not a
    // string built per name: in WASM most names are past libc++'s 10-character inline buffer.
    const auto name = [this](std::string_view kind, const std::string& value) -> std::string_view {
      Role role;
      if (kind == "role") return role_from_id(value, role) ? std::string_view(role_name_en(role)) : std::string_view(value);
      return corpus_.relation_name(value);
    };
    fill_explanation(explanation_template_en(out_.explanation_id), out_.explanation_values, name, out_.explanation);
  }
  Explainer& id(const char* template_id) {
    out_.explanation_id = template_id;
    return *this;
  }
  Explainer& text(const char* value) {
    slot().assign(value);
    return *this;
  }
  Explainer& number(int value) {
    char buffer[16];
    slot().assign(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
    return *this;
  }
  Explainer& percent(float share) { return number(static_cast<int>(std::lround(100.0f * share))); }
  Explainer& decimal(double value, int decimals) {  // "%.<decimals>f"
    char buffer[64];
    format_fixed(value, decimals, buffer, sizeof buffer);
    return text(buffer);
  }

 private:
  std::string& slot() {
    if (count_ == out_.explanation_values.size()) out_.explanation_values.emplace_back();
    return out_.explanation_values[count_++];
  }
  HeadLabel& out_;
  const GoldCorpus& corpus_;
  std::size_t count_ = 0;
};

const char* token_text(const Tokens& tokens, int i) {
  return i >= 0 && i < static_cast<int>(tokens.size()) ? tokens[i].text.c_str() : "?";
}

void explain_syntactic(const HeadScores& s, const SentenceContext& sentence, const GoldCorpus& corpus,
                       const Tokens& tokens, Explainer& e) {
  const RelationScore& r = *s.syntactic.best_relation();
  const std::string& id = corpus.relations[r.relation].id;
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
  if (r.both_ways) {
    const int other = r.head_to_dependent ? r.dependent_to_head_hits : r.head_to_dependent_hits;
    e.id("syntactic_both")
        .number(hits)
        .number(r.arcs)
        .text(id.c_str())
        .text(token_text(tokens, from))
        .text(token_text(tokens, to))
        .percent(r.baseline)
        .number(other);
    return;
  }
  e.id(r.head_to_dependent ? "syntactic_head" : "syntactic_dependent")
      .number(hits)
      .number(r.arcs)
      .text(id.c_str())
      .text(token_text(tokens, from))
      .text(token_text(tokens, to))
      .percent(r.baseline);
}

void explain(Role role, const HeadScores& s, const SentenceContext& sentence, const GoldCorpus& corpus,
             const Tokens& tokens, Explainer& e) {
  switch (role) {
    case Role::previous_token:
      e.id("previous_token").number(s.previous_token.argmax_rows).number(s.previous_token.rows).percent(s.previous_token.mass);
      return;
    case Role::next_token:
      e.id("next_token").number(s.next_token.argmax_rows).number(s.next_token.rows).percent(s.next_token.mass);
      return;
    case Role::self:
      e.id("self").number(s.self.argmax_rows).number(s.self.rows).percent(s.self.mass);
      return;
    case Role::local:
      e.id("local").percent(s.local.mass).number(s.local.window).decimal(double{s.local.ratio}, 1);
      return;
    case Role::delimiter:
      if (s.delimiter.keys == 1) e.id("delimiter_one").percent(s.delimiter.mass);
      else e.id("delimiter").percent(s.delimiter.mass).number(s.delimiter.keys);
      return;
    case Role::cls:
      e.id("cls").percent(s.cls.mass);
      return;
    case Role::broad:
      e.id("broad").percent(s.broad);
      return;
    case Role::syntactic: return explain_syntactic(s, sentence, corpus, tokens, e);
    case Role::content_similarity: {
      int a = -1, b = -1;  // one related pair as an example
      for (int i = 0; i < sentence.n && a < 0; ++i)
        for (int j = i + 1; j < sentence.n; ++j)
          if (sentence.is_related(i, j)) {
            a = i, b = j;
            break;
          }
      e.id("content_similarity")
          .number(s.content_similarity.rows)
          .text(token_text(tokens, a))
          .text(token_text(tokens, b))
          .percent(s.content_similarity.related_share);
      return;
    }
    case Role::duplicate_token:
      if (s.duplicate_token.rows == 1) e.id("duplicate_token_one").percent(s.duplicate_token.mass);
      else e.id("duplicate_token").number(s.duplicate_token.rows).percent(s.duplicate_token.mass);
      return;
    case Role::induction:
      if (s.induction.rows == 1) e.id("induction_one").percent(s.induction.mass);
      else e.id("induction").number(s.induction.rows).percent(s.induction.mass);
      return;
    case Role::rare_word:
      if (s.rare_word.tied > 1)
        e.id("rare_word_tied").number(s.rare_word.hits).number(s.rare_word.rows).number(s.rare_word.tied)
            .text(token_text(tokens, s.rare_word.token));
      else
        e.id("rare_word").number(s.rare_word.hits).number(s.rare_word.rows).text(token_text(tokens, s.rare_word.token));
      return;
  }
}

// "No single role fits. Closest: <role> <score> (needs <threshold>), held back: <why>." for a
// role whose score passes but a guard does not (set_guards).
void explain_guard(Role role, const RoleCheck& c, const HeadScores& s, const Tokens& tokens, const LabelConfig& config,
                   Explainer& e) {
  e.text(role_id(role)).decimal(double{c.score}, 2).decimal(double{c.threshold}, 2);
  switch (c.guard) {
    case RoleGuard::weak_partner:
      e.id("mixed_weak_partner").percent(s.syntactic.best_relation()->partner_mass).percent(config.syntactic_min_target_mass);
      return;
    case RoleGuard::unselective:
      e.id("mixed_unselective").percent(s.syntactic.selectivity).percent(config.syntactic_min_selectivity);
      return;
    case RoleGuard::sink:
      e.id("mixed_sink")
          .percent(s.syntactic.rows > 0 ? static_cast<float>(s.syntactic.sink_rows) / static_cast<float>(s.syntactic.rows) : 0.0f)
          .text(token_text(tokens, s.syntactic.sink_token))
          .percent(config.syntactic_max_sink_share);
      return;
    case RoleGuard::shared_keys: {
      const RepeatScore& r = role == Role::induction ? s.induction : s.duplicate_token;
      const float multiple = role == Role::induction ? config.induction_key_multiple : config.duplicate_token_key_multiple;
      e.id("mixed_shared_keys").percent(r.key_mass).decimal(double{multiple}, 0);
      return;
    }
    case RoleGuard::weak_target:
      e.id("mixed_weak_target").percent(s.rare_word.mass).percent(config.rare_word_min_target_mass);
      return;
    case RoleGuard::near_uniform:
      e.id("mixed_near_uniform")
          .decimal(s.rare_word.uniform_mass > 0.0f ? double{s.rare_word.mass / s.rare_word.uniform_mass} : 0.0, 1)
          .decimal(double{config.rare_word_uniform_multiple}, 1);
      return;
    case RoleGuard::none: break;
  }
  e.id("mixed_one");
}

}  // namespace

std::array<RoleStatus, kRoleCount> role_status(const HeadScores& scores, const LabelConfig& config) {
  const std::array<RoleCheck, kRoleCount> checks = check_roles(scores, config);
  std::array<RoleStatus, kRoleCount> out;
  for (int r = 0; r < kRoleCount; ++r) out[r] = checks[r];
  return out;
}

std::vector<Role> roles_by_progress(const std::array<RoleStatus, kRoleCount>& status, std::optional<Role> first) {
  std::vector<Role> roles;
  for (Role role : kPriority)
    if (status[static_cast<int>(role)].available) roles.push_back(role);
  std::stable_sort(roles.begin(), roles.end(), [&](Role a, Role b) {
    if (a == first || b == first) return a == first && b != first;
    return status[static_cast<int>(a)].progress() > status[static_cast<int>(b)].progress();
  });
  return roles;
}

void label_head(const HeadScores& scores, const SentenceContext& sentence, const GoldCorpus& corpus,
                const Tokens& tokens, const LabelConfig& config, HeadLabel& out) {
  const std::array<RoleCheck, kRoleCount> checks = check_roles(scores, config);
  const auto check = [&](Role r) -> const RoleCheck& { return checks[static_cast<int>(r)]; };
  const bool strict_previous = check(Role::previous_token).fires &&
                               scores.previous_token.argmax_share >= config.previous_token_strict_share;
  const bool strict_next =
      check(Role::next_token).fires && scores.next_token.argmax_share >= config.next_token_strict_share;

  out.role.reset();
  out.relation.reset();
  out.strict = false;
  // Assigned in place (not cleared and refilled), so the vector keeps its capacity.
  std::size_t runners_up = 0;
  const auto add_runner_up = [&](Role role) {
    if (runners_up < out.runners_up.size()) out.runners_up[runners_up] = role;
    else out.runners_up.push_back(role);
    ++runners_up;
  };
  for (Role role : kPriority) {
    if (!check(role).fires) continue;
    const bool pattern_role = role == Role::syntactic || role == Role::content_similarity || role == Role::rare_word ||
                              role == Role::duplicate_token || role == Role::induction;
    if (pattern_role && (strict_previous || strict_next)) continue;  // positional explains it
    out.role = role;
    break;
  }

  // Runners-up: other firing roles in priority order, then the closest others.
  std::array<Role, kRoleCount> by_progress = kPriority;
  // Insertion sort, stable like std::stable_sort, which takes a heap buffer on every call.
  for (std::size_t i = 1; i < by_progress.size(); ++i)
    for (std::size_t j = i; j > 0 && check(by_progress[j]).progress() > check(by_progress[j - 1]).progress(); --j)
      std::swap(by_progress[j], by_progress[j - 1]);
  for (Role role : kPriority)
    if (check(role).fires && !out.is(role) && runners_up < 3) add_runner_up(role);
  for (Role role : by_progress) {
    if (runners_up >= 3) break;
    const RoleCheck& c = check(role);
    if (!c.available || c.fires || out.is(role) || c.progress() < 0.5f) continue;
    add_runner_up(role);
  }
  out.runners_up.resize(runners_up);

  if (const std::optional<Role> primary = out.role) {
    const RoleCheck& c = check(*primary);
    out.confidence = c.margin();
    if (*primary == Role::syntactic) out.relation = corpus.relations[scores.syntactic.best_relation()->relation].relation;
    out.strict = (*primary == Role::previous_token && strict_previous) || (*primary == Role::next_token && strict_next);
    Explainer explainer(out, corpus);
    explain(*primary, scores, sentence, corpus, tokens, explainer);
    explainer.finish();
    return;
  }
  float closest = 0.0f;
  for (const RoleCheck& c : checks)
    if (c.available) closest = std::max(closest, c.progress());
  out.confidence = std::clamp(1.0f - closest, 0.0f, 1.0f);
  Explainer explainer(out, corpus);
  static constexpr std::array<const char*, 3> kMixedTemplates = {"mixed", "mixed_one", "mixed_two"};
  for (Role role : by_progress) {
    const RoleCheck& c = check(role);
    if (!c.available) continue;
    // The closest role passes its threshold: "(needs ...)" alone would read as a contradiction, so
    // the explanation names the guard that held it back.
    if (c.guard != RoleGuard::none) {
      explain_guard(role, c, scores, tokens, config, explainer);
      explainer.finish();
      return;
    }
    break;
  }
  int listed = 0;
  for (Role role : by_progress) {
    const RoleCheck& c = check(role);
    if (!c.available || listed == 2) continue;
    explainer.text(role_id(role)).decimal(double{c.score}, 2).decimal(double{c.threshold}, 2);
    ++listed;
  }
  explainer.id(kMixedTemplates[listed]);
  explainer.finish();
}

}  // namespace headlab::analysis

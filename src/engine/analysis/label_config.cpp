#include "engine/analysis/label_config.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/analysis/roles.h"
#include "engine/assets.h"
#include "engine/json_reader.h"

namespace headlab::analysis {
namespace {

using nlohmann::json;

// One required number field of a role or section, in [lo, hi].
bool number(JsonReader& r, const json& object, const std::string& path, const char* key, double lo, double hi, float& out) {
  return r.number(r.field(object, path, key), json_path(path, key), lo, hi, out);
}

}  // namespace

bool LabelConfig::operator==(const LabelConfig& o) const {
  return previous_token == o.previous_token && previous_token_strict_share == o.previous_token_strict_share &&
         next_token == o.next_token && next_token_strict_share == o.next_token_strict_share &&
         local_ratio == o.local_ratio && local_mass_cap == o.local_mass_cap &&
         local_max_band_share == o.local_max_band_share && self == o.self &&
         delimiter == o.delimiter && cls == o.cls && broad == o.broad && broad_smoothing == o.broad_smoothing &&
         syntactic_margin == o.syntactic_margin && syntactic_direction_tie == o.syntactic_direction_tie &&
         syntactic_min_target_mass == o.syntactic_min_target_mass &&
         syntactic_excluded_relations == o.syntactic_excluded_relations &&
         syntactic_confident_row_mass == o.syntactic_confident_row_mass &&
         syntactic_min_selectivity == o.syntactic_min_selectivity &&
         syntactic_max_sink_share == o.syntactic_max_sink_share &&
         rare_word_uniform_multiple == o.rare_word_uniform_multiple &&
         content_similarity == o.content_similarity && rare_word == o.rare_word &&
         duplicate_token == o.duplicate_token && induction == o.induction &&
         duplicate_token_key_multiple == o.duplicate_token_key_multiple &&
         induction_key_multiple == o.induction_key_multiple &&
         rare_word_min_target_mass == o.rare_word_min_target_mass &&
         near_duplicate_distance == o.near_duplicate_distance && redundancy_smoothing == o.redundancy_smoothing;
}

Result<LabelConfig> parse_label_config(const std::string& json_text) {
  using R = Result<LabelConfig>;
  const json doc = json::parse(json_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return R::failure("labels: not a JSON object");
  if (!doc.contains("format") || doc["format"] != "headlab-labels")
    return R::failure("labels.format: expected \"headlab-labels\"");
  if (!doc.contains("roles") || !doc["roles"].is_array()) return R::failure("labels.roles: expected an array");
  LabelConfig config;
  JsonReader r;
  bool seen[kRoleCount] = {};
  const json& roles = doc["roles"];
  for (std::size_t i = 0; i < roles.size(); ++i) {
    const std::string path = "labels.roles[" + std::to_string(i) + "]";
    const json& role = roles[i];
    Role id;
    if (!role.is_object() || !role.contains("id") || !role["id"].is_string() ||
        !role_from_id(role["id"].get<std::string>(), id))
      return R::failure(path + ".id: expected one of the role ids (docs/labels.md)");
    if (seen[static_cast<int>(id)]) return R::failure(path + ".id: role listed twice");
    seen[static_cast<int>(id)] = true;
    bool ok = true;
    switch (id) {
      case Role::previous_token:
        ok = number(r, role, path, "threshold", 0, 1, config.previous_token) &&
             number(r, role, path, "strict_argmax_share", 0, 1, config.previous_token_strict_share);
        break;
      case Role::next_token:
        ok = number(r, role, path, "threshold", 0, 1, config.next_token) &&
             number(r, role, path, "strict_argmax_share", 0, 1, config.next_token_strict_share);
        break;
      case Role::local:
        ok = number(r, role, path, "ratio", 1, 1000, config.local_ratio) &&
             number(r, role, path, "mass_cap", 0, 1, config.local_mass_cap) &&
             number(r, role, path, "max_band_share", 0, 1, config.local_max_band_share);
        break;
      case Role::self: ok = number(r, role, path, "threshold", 0, 1, config.self); break;
      case Role::delimiter: ok = number(r, role, path, "threshold", 0, 1, config.delimiter); break;
      case Role::cls: ok = number(r, role, path, "threshold", 0, 1, config.cls); break;
      case Role::broad:
        ok = number(r, role, path, "threshold", 0, 1, config.broad) &&
             number(r, role, path, "smoothing", 0, 0.5, config.broad_smoothing);
        break;
      case Role::syntactic:
        ok = number(r, role, path, "margin_over_baseline", 0, 1, config.syntactic_margin) &&
             number(r, role, path, "direction_tie", 0, 1, config.syntactic_direction_tie) &&
             number(r, role, path, "min_target_mass", 0, 1, config.syntactic_min_target_mass) &&
             number(r, role, path, "confident_row_mass", 0, 1, config.syntactic_confident_row_mass) &&
             number(r, role, path, "min_selectivity", 0, 1, config.syntactic_min_selectivity) &&
             number(r, role, path, "max_sink_share", 0, 1, config.syntactic_max_sink_share);
        if (ok) {
          const std::string at = json_path(path, "excluded_relations");
          const json* excluded = r.array(r.field(role, path, "excluded_relations"), at, 0, 64, "relation ids");
          config.syntactic_excluded_relations.clear();
          for (std::size_t k = 0; ok && excluded && k < excluded->size(); ++k) {
            std::string relation;
            ok = r.string(&(*excluded)[k], json_path(at, k), relation, true);
            config.syntactic_excluded_relations.push_back(relation);
          }
          ok = ok && excluded;
        }
        break;
      case Role::content_similarity:
        ok = number(r, role, path, "threshold", 0, 1, config.content_similarity);
        break;
      case Role::rare_word:
        ok = number(r, role, path, "threshold", 0, 1, config.rare_word) &&
             number(r, role, path, "min_target_mass", 0, 1, config.rare_word_min_target_mass) &&
             number(r, role, path, "uniform_multiple", 1, 1000, config.rare_word_uniform_multiple);
        break;
      case Role::duplicate_token:
        ok = number(r, role, path, "threshold", 0, 1, config.duplicate_token) &&
             number(r, role, path, "key_multiple", 1, 1000, config.duplicate_token_key_multiple);
        break;
      case Role::induction:
        ok = number(r, role, path, "threshold", 0, 1, config.induction) &&
             number(r, role, path, "key_multiple", 1, 1000, config.induction_key_multiple);
        break;
    }
    if (!ok) return R::failure(r.error());
  }
  for (int k = 0; k < kRoleCount; ++k)
    if (!seen[k]) return R::failure(std::string("labels.roles: missing role \"") + kRoleIds[k] + "\"");
  if (!doc.contains("redundancy") || !doc["redundancy"].is_object())
    return R::failure("labels.redundancy: expected an object");
  if (!number(r, doc["redundancy"], "labels.redundancy", "near_duplicate_distance", 0, 1, config.near_duplicate_distance) ||
      !number(r, doc["redundancy"], "labels.redundancy", "smoothing", 0, 0.5, config.redundancy_smoothing))
    return R::failure(r.error());
  return config;
}

LabelConfig load_label_config(std::string* error) {
  const auto text = read_asset("labels.json");
  if (!text) {
    if (error) *error = "assets/labels.json could not be read from " + assets_root() + "; using built-in thresholds";
    return {};
  }
  Result<LabelConfig> parsed = parse_label_config(*text);
  if (!parsed.ok()) {
    if (error) *error = parsed.error() + "; using built-in thresholds";
    return {};
  }
  return parsed.value();
}

}  // namespace headlab::analysis

#include "engine/presets.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <nlohmann/json.hpp>

#include "engine/assets.h"
#include "engine/embedding.h"
#include "engine/json_reader.h"

namespace headlab {
namespace {

using nlohmann::json;

bool read_entry(JsonReader& r, const json& value, const std::string& path, Embedding embedding, PresetEntry& entry) {
  if (!r.object(&value, path)) return false;
  std::string feature;
  if (!r.one_of<PresetMatrix>(JsonReader::optional_field(value, "matrix"), path + ".matrix",
                              {{"W_Q", PresetMatrix::W_Q}, {"W_K", PresetMatrix::W_K}, {"W_V", PresetMatrix::W_V},
                               {"W_O", PresetMatrix::W_O}},
                              entry.matrix) ||
      !r.string(r.field(value, path, "feature"), path + ".feature", feature, true))
    return false;
  entry.feature = feature_index(feature, embedding);
  if (entry.feature < 0) return r.fail(path + ".feature", "unknown feature " + json(feature).dump());
  return r.integer(JsonReader::optional_field(value, "col"), path + ".col", 0, kMaxDModel - 1, entry.col) &&
         r.number(JsonReader::optional_field(value, "value"), path + ".value", -1e6, 1e6, entry.value);
}

}  // namespace

int Preset::key_columns() const {
  int columns = 0;
  for (const PresetEntry& e : entries)
    if (e.matrix == PresetMatrix::W_Q || e.matrix == PresetMatrix::W_K) columns = std::max(columns, e.col + 1);
  return columns;
}

int Preset::features_needed() const {
  int needed = min_d_model(embedding);
  for (const PresetEntry& e : entries) needed = std::max(needed, e.feature + 1);
  return needed;
}

bool Preset::writes_output() const {
  return std::any_of(entries.begin(), entries.end(), [](const PresetEntry& e) { return e.matrix == PresetMatrix::W_O; });
}

Result<Preset> parse_preset(const std::string& json_text) {
  using R = Result<Preset>;
  const json doc = json::parse(json_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return R::failure("preset: not a JSON object");
  if (!doc.contains("format") || doc["format"] != "headlab-preset") return R::failure("format: expected \"headlab-preset\"");
  if (!doc.contains("version") || doc["version"] != 1) return R::failure("version: expected 1");
  Preset preset;
  if (!doc.contains("id") || !doc["id"].is_string() || doc["id"].get<std::string>().empty())
    return R::failure("id: expected a non-empty string");
  preset.id = doc["id"].get<std::string>();
  const std::optional<analysis::Label> label =
      doc.contains("label") && doc["label"].is_string() ? analysis::parse_label(doc["label"].get<std::string>()) : std::nullopt;
  if (!label) return R::failure("label: expected a label such as \"previous_token\" or \"syntactic:nsubj\"");
  preset.label = *label;
  if (!doc.contains("name") || !read_localized_text(doc["name"], preset.name))
    return R::failure("name: expected {\"en\": ..., \"zh\": ...}");
  if (!doc.contains("description") || !read_localized_text(doc["description"], preset.description))
    return R::failure("description: expected {\"en\": ..., \"zh\": ...}");
  if (doc.contains("requires")) {
    const json& requires_ = doc["requires"];
    if (!requires_.is_object()) return R::failure("requires: expected an object");
    for (const auto& [key, value] : requires_.items()) {
      if (key == "embedding") {
        JsonReader r;
        if (!r.one_of<Embedding>(&value, "requires.embedding",
                                 {{"named", Embedding::named_features}, {"symbols", Embedding::symbols}},
                                 preset.embedding))
          return R::failure(r.error());
        continue;
      }
      if (!value.is_boolean()) return R::failure("requires." + key + ": expected true or false");
      if (key == "special_tokens") preset.requires_special_tokens = value.get<bool>();
      else if (key == "positions") preset.requires_positions = value.get<bool>();
      else return R::failure("requires." + key + ": unknown requirement (special_tokens, positions, embedding)");
    }
  }
  // Named-feature presets promise their pattern on an annotated sentence; symbol presets work on
  // any repeated sequence of symbols.
  if (preset.embedding == Embedding::named_features) {
    JsonReader r;
    if (!r.string(JsonReader::optional_field(doc, "example_sentence"), "example_sentence", preset.example_sentence, true))
      return R::failure(r.error());
  }
  if (!doc.contains("entries") || !doc["entries"].is_array()) return R::failure("entries: expected an array");
  for (std::size_t i = 0; i < doc["entries"].size(); ++i) {
    PresetEntry entry;
    JsonReader r;
    if (!read_entry(r, doc["entries"][i], json_path("entries", i), preset.embedding, entry)) return R::failure(r.error());
    preset.entries.push_back(entry);
  }
  const bool uses_positions = std::any_of(preset.entries.begin(), preset.entries.end(), [](const PresetEntry& e) {
    return (e.matrix == PresetMatrix::W_Q || e.matrix == PresetMatrix::W_K) &&
           (e.feature == kFeaturePosition || e.feature == kFeaturePositionSquared);
  });
  if (uses_positions && !preset.requires_positions)
    return R::failure("requires.positions: the entries use pos / pos^2, so set \"positions\": true");
  return preset;
}

Result<std::vector<Preset>> load_presets() {
  using R = Result<std::vector<Preset>>;
  const auto index_text = read_asset("presets/index.json");
  if (!index_text) return R::failure("assets/presets/index.json could not be read from " + assets_root());
  const json index = json::parse(*index_text, nullptr, false);
  if (index.is_discarded() || !index.is_object() || !index.contains("presets") || !index["presets"].is_array())
    return R::failure("presets/index.json: expected {\"presets\": [ids]}");
  std::vector<Preset> presets;
  for (const json& id : index["presets"]) {
    if (!id.is_string()) return R::failure("presets/index.json: preset ids must be strings");
    const std::string file = "presets/" + id.get<std::string>() + ".json";
    const auto text = read_asset(file);
    if (!text) return R::failure(file + ": listed in presets/index.json but could not be read");
    Result<Preset> preset = parse_preset(*text);
    if (!preset.ok()) return R::failure(file + ": " + preset.error());
    if (preset.value().id != id.get<std::string>())
      return R::failure(file + ": id \"" + preset.value().id + "\" does not match the file name");
    presets.push_back(std::move(preset).value());
  }
  return presets;
}

const Preset* find_preset(const std::vector<Preset>& presets, const std::string& id) {
  for (const Preset& p : presets)
    if (p.id == id) return &p;
  return nullptr;
}

std::string apply_preset(Model& model, int layer, int head, const Preset& preset) {
  const std::string where = "preset \"" + preset.id + "\": ";
  if (layer < 0 || layer >= static_cast<int>(model.layers.size()))
    return where + "layer " + std::to_string(layer) + " does not exist";
  Layer& l = model.layers[layer];
  if (head < 0 || head >= l.head_count())
    return where + "head " + std::to_string(head) + " does not exist in layer " + std::to_string(layer);
  if (model.embedding != preset.embedding || !model.vocab.empty())
    return where + (preset.embedding == Embedding::symbols
                        ? "needs the symbol embedding (its entries name the symbols A..J and free dimensions)"
                        : "needs the named-feature embedding (its entries name features like \"noun\")");
  if (model.d_model < preset.features_needed())
    return where + "needs d_model >= " + std::to_string(preset.features_needed()) + " for the features it names";
  const int needed = std::max(2, preset.key_columns());
  if (l.d_k < needed)
    return where + "needs d_k >= " + std::to_string(needed) + " (layer " + std::to_string(layer) + " has d_k = " +
           std::to_string(l.d_k) + "; use fewer heads or a larger d_model)";
  if (preset.requires_special_tokens && !model.special_tokens)
    return where + "needs the [CLS]/[SEP] special tokens; turn them on first";
  if (preset.requires_positions && model.positional == Positional::none)
    return where + "needs the position features; positional is \"none\"";
  HeadWeights& w = l.heads[head];
  w.W_Q.setZero();
  w.W_K.setZero();
  w.W_V.setZero();
  if (preset.writes_output()) l.W_O.middleRows(static_cast<Eigen::Index>(head) * l.d_v, l.d_v).setZero();
  const float query_scale = std::sqrt(static_cast<float>(l.d_k));  // undoes the 1/sqrt(d_k) of the logits
  for (const PresetEntry& e : preset.entries) {
    switch (e.matrix) {
      case PresetMatrix::W_Q: w.W_Q(e.feature, e.col) = e.value * query_scale; break;
      case PresetMatrix::W_K: w.W_K(e.feature, e.col) = e.value; break;
      case PresetMatrix::W_V:
        if (e.col < l.d_v) w.W_V(e.feature, e.col) = e.value;
        break;
      case PresetMatrix::W_O:
        if (e.col < l.d_v) l.W_O(static_cast<Eigen::Index>(head) * l.d_v + e.col, e.feature) = e.value;
        break;
    }
  }
  return {};
}

}  // namespace headlab

#include "tensor_model_file.h"

#include <nlohmann/json.hpp>

#include "json_reader.h"

namespace headlab {
namespace {

using json = nlohmann::json;

std::string layer_key(std::size_t l, const std::string& rest) { return "layers." + std::to_string(l) + "." + rest; }
std::string head_key(std::size_t l, int h, const char* matrix) {
  return layer_key(l, "heads." + std::to_string(h) + "." + matrix);
}

// Every tensor of `model` with its name, in one fixed order (the writer's and the reader's).
template <class Visit>
void each_tensor(Model& model, Visit visit) {
  visit("token_embedding", model.token_embedding);
  if (model.positional == Positional::learned) visit("positional_table", model.positional_table);
  visit("output_bias", model.output_bias);
  for (std::size_t l = 0; l < model.layers.size(); ++l) {
    Layer& layer = model.layers[l];
    for (int h = 0; h < layer.head_count(); ++h) {
      visit(head_key(l, h, "W_Q"), layer.heads[h].W_Q);
      visit(head_key(l, h, "W_K"), layer.heads[h].W_K);
      visit(head_key(l, h, "W_V"), layer.heads[h].W_V);
    }
    visit(layer_key(l, "W_O"), layer.W_O);
    if (layer.norm != Norm::none) {
      visit(layer_key(l, "ln_gamma"), layer.ln_gamma);
      visit(layer_key(l, "ln_beta"), layer.ln_beta);
      if (layer.has_ffn) {
        visit(layer_key(l, "ln2_gamma"), layer.ln2_gamma);
        visit(layer_key(l, "ln2_beta"), layer.ln2_beta);
      }
    }
    if (layer.has_ffn) {
      visit(layer_key(l, "ffn.W_1"), layer.ffn.W_1);
      visit(layer_key(l, "ffn.b_1"), layer.ffn.b_1);
      visit(layer_key(l, "ffn.W_2"), layer.ffn.W_2);
      visit(layer_key(l, "ffn.b_2"), layer.ffn.b_2);
    }
  }
}

template <class Derived>
std::vector<std::int64_t> shape_of(const Eigen::MatrixBase<Derived>& m) {
  if (m.rows() == 1 && Derived::RowsAtCompileTime == 1) return {static_cast<std::int64_t>(m.cols())};
  return {static_cast<std::int64_t>(m.rows()), static_cast<std::int64_t>(m.cols())};
}

}  // namespace

std::vector<std::uint8_t> write_tensor_model(const Document& document, TensorType type) {
  Model model = document.model;
  json layers = json::array();
  for (const Layer& layer : model.layers)
    layers.push_back({{"heads", layer.head_count()}, {"d_k", layer.d_k}, {"d_v", layer.d_v}, {"residual", layer.residual},
                      {"norm", enum_name(kNormNames, layer.norm)}, {"d_ff", layer.has_ffn ? layer.ffn.W_1.cols() : 0},
                      {"activation", enum_name(kActivationNames, layer.ffn.activation)}});
  json meta = {{"format", kTensorModelFormat}, {"version", 1}, {"tokenizer", model.tokenizer},
                     {"text", document.input.text}, {"d_model", model.d_model}, {"causal", model.causal},
                     {"positional", enum_name(kPositionalNames, model.positional)}, {"layers", layers}};
  // Only when not softmax: files from before the choice have no key and read as softmax.
  if (model.attention != AttentionNormalization::softmax)
    meta["attention"] = enum_name(kAttentionNormalizationNames, model.attention);
  std::vector<TensorToWrite> tensors;
  each_tensor(model, [&](const std::string& name, const auto& m) { tensors.push_back({name, shape_of(m), m.data()}); });
  return write_safetensors(tensors, type, {{"headlab", meta.dump()}});
}

Result<Document> read_tensor_model(const std::uint8_t* bytes, std::size_t size) {
  using R = Result<Document>;
  const Result<SafetensorsIndex> index = read_safetensors_index(bytes, size);
  if (!index.ok()) return R::failure(index.error());
  std::string meta_text;
  for (const auto& [key, value] : index.value().metadata)
    if (key == "headlab") meta_text = value;
  const json meta = json::parse(meta_text, nullptr, false);
  if (meta.is_discarded() || !meta.is_object()) return R::failure("not a HeadLab model: its header has no headlab metadata");
  JsonReader r;
  std::string format;
  int version = 0;
  Document document;
  Model& model = document.model;
  if (!r.string(r.field(meta, "", "format"), "format", format) || !r.integer(r.field(meta, "", "version"), "version", 1, 1, version))
    return R::failure(r.error());
  if (format != kTensorModelFormat) return R::failure("format: expected \"" + std::string(kTensorModelFormat) + "\"");
  const json* layers = nullptr;
  if (!r.string(r.field(meta, "", "tokenizer"), "tokenizer", model.tokenizer, true, 64) ||
      !r.string(r.field(meta, "", "text"), "text", document.input.text, false, 100000) ||
      !r.integer(r.field(meta, "", "d_model"), "d_model", kMinDModel, kMaxDModel, model.d_model) ||
      !r.boolean(r.field(meta, "", "causal"), "causal", model.causal) ||
      !r.one_of(r.field(meta, "", "positional"), "positional", kPositionalNames, model.positional) ||
      !(layers = r.array(r.field(meta, "", "layers"), "layers", 1, kMaxLayers, "layers")))
    return R::failure(r.error());
  if (const json* v = JsonReader::optional_field(meta, "attention");
      v && !r.one_of(v, "attention", kAttentionNormalizationNames, model.attention))
    return R::failure(r.error());
  model.embedding = Embedding::random;
  model.special_tokens = false;
  for (std::size_t l = 0; l < layers->size(); ++l) {
    const std::string path = json_path("layers", l);
    const json& value = (*layers)[l];
    Layer layer;
    int heads = 0, d_ff = 0;
    if (!r.integer(r.field(value, path, "heads"), json_path(path, "heads"), 1, kMaxHeads, heads) ||
        !r.integer(r.field(value, path, "d_k"), json_path(path, "d_k"), 1, kMaxDModel, layer.d_k) ||
        !r.integer(r.field(value, path, "d_v"), json_path(path, "d_v"), 1, kMaxDModel, layer.d_v) ||
        !r.boolean(r.field(value, path, "residual"), json_path(path, "residual"), layer.residual) ||
        !r.one_of(r.field(value, path, "norm"), json_path(path, "norm"), kNormNames, layer.norm) ||
        !r.integer(r.field(value, path, "d_ff"), json_path(path, "d_ff"), 0, 4 * kMaxDModel, d_ff) ||
        !r.one_of(r.field(value, path, "activation"), json_path(path, "activation"), kActivationNames, layer.ffn.activation))
      return R::failure(r.error());
    const int d = model.d_model;
    layer.heads.resize(static_cast<std::size_t>(heads));
    for (HeadWeights& head : layer.heads) {
      head.W_Q.resize(d, layer.d_k);
      head.W_K.resize(d, layer.d_k);
      head.W_V.resize(d, layer.d_v);
    }
    layer.W_O.resize(heads * layer.d_v, d);
    layer.ln_gamma = layer.ln2_gamma = RowVector::Ones(d);
    layer.ln_beta = layer.ln2_beta = RowVector::Zero(d);
    layer.has_ffn = d_ff > 0;
    if (layer.has_ffn) {
      layer.ffn.W_1.resize(d, d_ff);
      layer.ffn.b_1.resize(d_ff);
      layer.ffn.W_2.resize(d_ff, d);
      layer.ffn.b_2.resize(d);
    }
    model.layers.push_back(std::move(layer));
  }
  // The vocabulary's size is the embedding's rows, whatever they are; positions as stored.
  const TensorEntry* embedding = index.value().find("token_embedding");
  if (!embedding || embedding->shape.size() != 2 || embedding->shape[0] < 1 || embedding->shape[0] > 1000000)
    return R::failure("token_embedding: missing or not (vocabulary, d_model)");
  model.token_embedding.resize(embedding->shape[0], model.d_model);
  model.output_bias.resize(embedding->shape[0]);
  if (model.positional == Positional::learned) {
    const TensorEntry* positions = index.value().find("positional_table");
    if (!positions || positions->shape.size() != 2 || positions->shape[0] < 1 || positions->shape[0] > kMaxCheckpointPositions)
      return R::failure("positional_table: missing or not (positions, d_model)");
    model.positional_table.resize(positions->shape[0], model.d_model);
  }
  std::string error;
  each_tensor(model, [&](const std::string& name, auto& m) {
    if (!error.empty()) return;
    const TensorEntry* t = index.value().find(name);
    if (!t) {
      error = name + ": missing";
      return;
    }
    if (t->shape != shape_of(m)) {
      error = name + ": its shape does not match the metadata";
      return;
    }
    if (tensor_element_bytes(t->type) == 0) {
      error = name + ": dtype " + t->dtype + " (HeadLab reads F32, F16 and BF16)";
      return;
    }
    decode_tensor(t->type, bytes + t->begin, static_cast<std::size_t>(t->element_count()), m.data());
  });
  if (!error.empty()) return R::failure(error);
  return document;
}

}  // namespace headlab

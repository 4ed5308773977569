#include "gpt2_checkpoint.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "json_reader.h"

namespace headlab {
namespace {

using json = nlohmann::json;

std::string layer_name(int layer, const char* rest) { return "h." + std::to_string(layer) + "." + rest; }

struct Expected {
  std::string name;  // without the prefix
  std::vector<std::int64_t> shape;
};

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

// d_ff from c_fc's shape (4 d_model in the released models; n_inner may say otherwise).
std::int64_t ffn_width(const SafetensorsIndex& index, const std::string& prefix, int d_model) {
  const TensorEntry* fc = index.find(prefix + layer_name(0, "mlp.c_fc.weight"));
  return fc && fc->shape.size() == 2 ? fc->shape[1] : 4 * static_cast<std::int64_t>(d_model);
}

std::vector<Expected> expected_tensors(const Gpt2Config& c, std::int64_t d_ff) {
  const std::int64_t d = c.d_model;
  std::vector<Expected> out = {{"wte.weight", {c.vocab_size, d}}, {"wpe.weight", {c.position_count, d}},
                               {"ln_f.weight", {d}}, {"ln_f.bias", {d}}};
  for (int l = 0; l < c.layer_count; ++l) {
    const std::vector<Expected> layer = {
        {layer_name(l, "ln_1.weight"), {d}},           {layer_name(l, "ln_1.bias"), {d}},
        {layer_name(l, "attn.c_attn.weight"), {d, 3 * d}}, {layer_name(l, "attn.c_attn.bias"), {3 * d}},
        {layer_name(l, "attn.c_proj.weight"), {d, d}}, {layer_name(l, "attn.c_proj.bias"), {d}},
        {layer_name(l, "ln_2.weight"), {d}},           {layer_name(l, "ln_2.bias"), {d}},
        {layer_name(l, "mlp.c_fc.weight"), {d, d_ff}}, {layer_name(l, "mlp.c_fc.bias"), {d_ff}},
        {layer_name(l, "mlp.c_proj.weight"), {d_ff, d}}, {layer_name(l, "mlp.c_proj.bias"), {d}}};
    out.insert(out.end(), layer.begin(), layer.end());
  }
  return out;
}

// "" or "transformer.", from where wte.weight is; or why this is not a GPT-2 checkpoint.
Result<std::string> find_prefix(const SafetensorsIndex& index) {
  if (index.find("transformer.wte.weight")) return std::string("transformer.");
  if (index.find("wte.weight")) return std::string();
  std::string seen;
  for (std::size_t i = 0; i < index.tensors.size() && i < 3; ++i) seen += (i ? ", " : "") + index.tensors[i].name;
  const bool llama_like = index.find("model.embed_tokens.weight") != nullptr;
  return Result<std::string>::failure(
      std::string("not a GPT-2 checkpoint: it has no wte.weight") +
      (llama_like ? " (its tensors are named like a LLaMA-family model, which HeadLab cannot open)" : "") +
      (seen.empty() ? " (it holds no tensors)" : " (it starts with " + seen + ")"));
}

Result<Gpt2Config> checked(const Gpt2Config& c) {
  using R = Result<Gpt2Config>;
  if (c.layer_count < 1 || c.layer_count > kMaxCheckpointLayers)
    return R::failure("n_layer: HeadLab opens 1 to " + std::to_string(kMaxCheckpointLayers) + " layers, got " + std::to_string(c.layer_count));
  if (c.head_count < 1 || c.head_count > kMaxCheckpointHeads)
    return R::failure("n_head: HeadLab opens 1 to " + std::to_string(kMaxCheckpointHeads) + " heads, got " + std::to_string(c.head_count));
  if (c.d_model < 1 || c.d_model > kMaxCheckpointDModel)
    return R::failure("n_embd: HeadLab opens 1 to " + std::to_string(kMaxCheckpointDModel) + ", got " + std::to_string(c.d_model));
  if (c.d_model % c.head_count != 0)
    return R::failure("n_embd " + std::to_string(c.d_model) + " is not a multiple of n_head " + std::to_string(c.head_count));
  if (c.position_count < 1 || c.position_count > kMaxCheckpointPositions)
    return R::failure("n_positions: HeadLab opens 1 to " + std::to_string(kMaxCheckpointPositions) + ", got " +
                      std::to_string(c.position_count));
  if (c.vocab_size < 1 || c.vocab_size > 1000000) return R::failure("vocab_size: expected 1 to 1000000, got " + std::to_string(c.vocab_size));
  return c;
}

}  // namespace

Result<Gpt2Config> read_gpt2_config(std::string_view config_json) {
  using R = Result<Gpt2Config>;
  const json doc = json::parse(config_json.begin(), config_json.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return R::failure("config.json is not a JSON object");
  JsonReader r;
  if (const json* type = JsonReader::optional_field(doc, "model_type")) {
    std::string model_type;
    if (!r.string(type, "model_type", model_type)) return R::failure(r.error());
    if (model_type != "gpt2")
      return R::failure("model_type is \"" + model_type + "\": HeadLab opens GPT-2-family checkpoints (model_type \"gpt2\")");
  }
  if (const json* act = JsonReader::optional_field(doc, "activation_function")) {
    std::string activation;
    if (!r.string(act, "activation_function", activation)) return R::failure(r.error());
    if (activation != "gelu_new" && activation != "gelu_pytorch_tanh")
      return R::failure("activation_function is \"" + activation + "\": HeadLab computes GELU's tanh form (\"gelu_new\")");
  }
  if (const json* eps = JsonReader::optional_field(doc, "layer_norm_epsilon")) {
    double epsilon = 0;
    if (!r.number(eps, "layer_norm_epsilon", 0.0, 1.0, epsilon)) return R::failure(r.error());
    if (std::abs(epsilon - 1e-5) > 1e-12) return R::failure("layer_norm_epsilon: HeadLab's LayerNorm uses 1e-5");
  }
  Gpt2Config c;
  const json* positions = JsonReader::optional_field(doc, "n_positions");
  if (!positions) positions = r.field(doc, "", "n_ctx");
  if (!r.integer(r.field(doc, "", "n_layer"), "n_layer", 1, 1000, c.layer_count) ||
      !r.integer(r.field(doc, "", "n_head"), "n_head", 1, 1000, c.head_count) ||
      !r.integer(r.field(doc, "", "n_embd"), "n_embd", 1, 100000, c.d_model) ||
      !r.integer(positions, "n_positions", 1, 100000, c.position_count) ||
      !r.integer(r.field(doc, "", "vocab_size"), "vocab_size", 1, 10000000, c.vocab_size))
    return R::failure("config.json: " + r.error());
  return checked(c);
}

Result<Gpt2Config> gpt2_config_from_tensors(const SafetensorsIndex& index, int head_count) {
  using R = Result<Gpt2Config>;
  const Result<std::string> prefix = find_prefix(index);
  if (!prefix.ok()) return R::failure(prefix.error());
  const TensorEntry* wte = index.find(prefix.value() + "wte.weight");
  const TensorEntry* wpe = index.find(prefix.value() + "wpe.weight");
  if (wte->shape.size() != 2) return R::failure("wte.weight: expected 2 dimensions, got " + shape_text(wte->shape));
  if (!wpe || wpe->shape.size() != 2) return R::failure("wpe.weight: missing or not 2-dimensional");
  Gpt2Config c;
  c.vocab_size = static_cast<int>(std::min<std::int64_t>(wte->shape[0], 1 << 30));
  c.d_model = static_cast<int>(std::min<std::int64_t>(wte->shape[1], 1 << 30));
  c.position_count = static_cast<int>(std::min<std::int64_t>(wpe->shape[0], 1 << 30));
  c.head_count = head_count;
  while (c.layer_count <= kMaxCheckpointLayers && index.find(prefix.value() + layer_name(c.layer_count, "ln_1.weight")))
    ++c.layer_count;
  return checked(c);
}

Result<std::unique_ptr<Gpt2CheckpointReader>> Gpt2CheckpointReader::open(SafetensorsIndex index, const Gpt2Config& config) {
  using R = Result<std::unique_ptr<Gpt2CheckpointReader>>;
  const Result<Gpt2Config> valid = checked(config);
  if (!valid.ok()) return R::failure(valid.error());
  const Result<std::string> prefix = find_prefix(index);
  if (!prefix.ok()) return R::failure(prefix.error());
  const std::int64_t d_ff = ffn_width(index, prefix.value(), config.d_model);
  if (d_ff < 1 || d_ff > 8 * static_cast<std::int64_t>(config.d_model))
    return R::failure(layer_name(0, "mlp.c_fc.weight") + ": an inner width of " + std::to_string(d_ff) + " is not GPT-2's");
  for (const Expected& e : expected_tensors(config, d_ff)) {
    const TensorEntry* t = index.find(prefix.value() + e.name);
    if (!t) return R::failure(e.name + ": missing (config.json says " + std::to_string(config.layer_count) + " layers)");
    if (t->shape != e.shape)
      return R::failure(e.name + ": expected shape " + shape_text(e.shape) + ", got " + shape_text(t->shape) +
                        " (does config.json belong to this checkpoint?)");
    if (tensor_element_bytes(t->type) == 0)
      return R::failure(e.name + ": dtype " + t->dtype + " (HeadLab reads F32, F16 and BF16)");
  }
  if (index.find(prefix.value() + layer_name(config.layer_count, "ln_1.weight")))
    return R::failure("the checkpoint has more layers than config.json's n_layer " + std::to_string(config.layer_count));
  return std::unique_ptr<Gpt2CheckpointReader>(new Gpt2CheckpointReader(std::move(index), config, prefix.value()));
}

Gpt2CheckpointReader::Gpt2CheckpointReader(SafetensorsIndex index, const Gpt2Config& config, std::string prefix)
    : index_(std::move(index)), config_(config), prefix_(std::move(prefix)) {
  const int d = config.d_model, h = config.head_count, d_head = d / h;
  model_.d_model = d;
  model_.embedding = Embedding::random;
  model_.positional = Positional::learned;
  model_.causal = true;
  model_.tokenizer = "gpt2";
  model_.layers.resize(config.layer_count);
  for (Layer& layer : model_.layers) {
    layer.heads.resize(h);
    layer.d_k = layer.d_v = d_head;
    layer.residual = true;
    layer.norm = Norm::pre;
    layer.has_ffn = true;
    layer.ffn.activation = Activation::gelu_tanh;
  }
  for (const Expected& e : expected_tensors(config, ffn_width(index_, prefix_, d))) {
    wanted_.push_back(prefix_ + e.name);
    bytes_needed_ = std::max(bytes_needed_, index_.find(prefix_ + e.name)->end);
  }
  stream_ = std::make_unique<TensorStream>(
      index_, wanted_, [this](const TensorEntry& entry) { return target(entry); },
      [this](const TensorEntry& entry) { split_heads(entry); });
}

void Gpt2CheckpointReader::feed(const std::uint8_t* bytes, std::size_t size) { stream_->feed(bytes, size); }

namespace {

// The tensor's name without the prefix, split into its layer (-1 for wte, wpe, ln_f) and the rest.
struct TensorSlot {
  int layer = -1;
  std::string rest;
};

TensorSlot slot_of(const std::string& name) {
  if (name.rfind("h.", 0) != 0) return {-1, name};
  const std::size_t dot = name.find('.', 2);
  return {std::stoi(name.substr(2, dot - 2)), name.substr(dot + 1)};
}

// Sizes `m` without clearing it (every element is about to be decoded) and hands out its memory.
template <typename Dense>
float* sized(Dense& m, Eigen::Index rows, Eigen::Index cols) {
  m.resize(rows, cols);
  return m.data();
}

// Columns [first, first + cols) of a row-major (rows, stride) block.
Matrix columns(const float* values, Eigen::Index rows, Eigen::Index stride, Eigen::Index first, Eigen::Index cols) {
  return Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>(values + first, rows, cols, Eigen::OuterStride<>(stride));
}

}  // namespace

float* Gpt2CheckpointReader::target(const TensorEntry& entry) {
  const TensorSlot slot = slot_of(entry.name.substr(prefix_.size()));
  const Eigen::Index d = config_.d_model;
  const std::string& rest = slot.rest;
  if (slot.layer < 0) {
    if (rest == "wte.weight") return sized(model_.token_embedding, config_.vocab_size, d);
    if (rest == "wpe.weight") return sized(model_.positional_table, config_.position_count, d);
    if (rest == "ln_f.weight") return sized(model_.final_gamma, 1, d);
    return sized(model_.final_beta, 1, d);  // ln_f.bias: the only other tensor outside the layers
  }
  Layer& layer = model_.layers[static_cast<std::size_t>(slot.layer)];
  // open() checked every shape: c_fc is (d, d_ff), c_proj (d_ff, d).
  const Eigen::Index d_ff = entry.shape.size() == 2 ? entry.shape[rest == "mlp.c_fc.weight" ? 1 : 0] : entry.shape[0];
  if (rest == "ln_1.weight") return sized(layer.ln_gamma, 1, d);
  if (rest == "ln_1.bias") return sized(layer.ln_beta, 1, d);
  if (rest == "ln_2.weight") return sized(layer.ln2_gamma, 1, d);
  if (rest == "ln_2.bias") return sized(layer.ln2_beta, 1, d);
  if (rest == "attn.c_proj.weight") return sized(layer.W_O, d, d);
  if (rest == "attn.c_proj.bias") return sized(layer.b_O, 1, d);
  if (rest == "mlp.c_fc.weight") return sized(layer.ffn.W_1, d, d_ff);
  if (rest == "mlp.c_fc.bias") return sized(layer.ffn.b_1, 1, d_ff);
  if (rest == "mlp.c_proj.weight") return sized(layer.ffn.W_2, d_ff, d);
  if (rest == "mlp.c_proj.bias") return sized(layer.ffn.b_2, 1, d);
  scratch_.resize(static_cast<std::size_t>(entry.element_count()));  // attn.c_attn.weight or .bias
  return scratch_.data();
}

void Gpt2CheckpointReader::split_heads(const TensorEntry& entry) {
  const TensorSlot slot = slot_of(entry.name.substr(prefix_.size()));
  if (slot.rest != "attn.c_attn.weight" && slot.rest != "attn.c_attn.bias") return;
  Layer& layer = model_.layers[static_cast<std::size_t>(slot.layer)];
  const Eigen::Index d = config_.d_model, d_head = layer.d_k;
  const bool weight = slot.rest == "attn.c_attn.weight";
  const Eigen::Index rows = weight ? d : 1;
  for (int h = 0; h < layer.head_count(); ++h) {
    HeadWeights& head = layer.heads[static_cast<std::size_t>(h)];
    Matrix q = columns(scratch_.data(), rows, 3 * d, h * d_head, d_head);
    Matrix k = columns(scratch_.data(), rows, 3 * d, d + h * d_head, d_head);
    Matrix v = columns(scratch_.data(), rows, 3 * d, 2 * d + h * d_head, d_head);
    if (weight) {
      head.W_Q = std::move(q);
      head.W_K = std::move(k);
      head.W_V = std::move(v);
    } else {
      head.b_Q = q;
      head.b_K = k;
      head.b_V = v;
    }
  }
}

Result<Model> Gpt2CheckpointReader::finish() {
  if (!complete()) {
    for (const TensorEntry& t : index_.tensors)
      if (t.end > bytes_fed() && std::find(wanted_.begin(), wanted_.end(), t.name) != wanted_.end())
        return Result<Model>::failure("the file ended before " + t.name.substr(prefix_.size()) + " (" +
                                      std::to_string(bytes_fed()) + " of " + std::to_string(bytes_needed_) + " bytes)");
    return Result<Model>::failure("the checkpoint is incomplete");
  }
  scratch_ = {};
  return std::move(model_);
}

Result<Model> read_gpt2_checkpoint(const std::vector<std::uint8_t>& file, std::string_view config_json, int head_count) {
  using R = Result<Model>;
  Result<SafetensorsIndex> index = read_safetensors_index(file.data(), file.size());
  if (!index.ok()) return R::failure(index.error());
  const Result<Gpt2Config> config =
      config_json.empty() ? gpt2_config_from_tensors(index.value(), head_count) : read_gpt2_config(config_json);
  if (!config.ok()) return R::failure(config.error());
  Result<std::unique_ptr<Gpt2CheckpointReader>> reader = Gpt2CheckpointReader::open(std::move(index).value(), config.value());
  if (!reader.ok()) return R::failure(reader.error());
  reader.value()->feed(file.data(), file.size());
  return reader.value()->finish();
}

}  // namespace headlab

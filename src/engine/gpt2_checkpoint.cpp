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
  stream_ = std::make_unique<TensorStream>(index_, wanted_, [this](const TensorEntry& entry, std::vector<float>&& values) {
    place(entry, std::move(values));
  });
}

void Gpt2CheckpointReader::feed(const std::uint8_t* bytes, std::size_t size) { stream_->feed(bytes, size); }

namespace {

// A row-major (rows, cols) block of `values` (whose rows are `stride` wide) starting at column `first`.
Matrix columns(const std::vector<float>& values, Eigen::Index rows, Eigen::Index stride, Eigen::Index first, Eigen::Index cols) {
  Matrix out(rows, cols);
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < cols; ++c) out(r, c) = values[static_cast<std::size_t>(r * stride + first + c)];
  return out;
}

RowVector row(const std::vector<float>& values, Eigen::Index first, Eigen::Index size) {
  RowVector out(size);
  for (Eigen::Index c = 0; c < size; ++c) out(c) = values[static_cast<std::size_t>(first + c)];
  return out;
}

Matrix whole(const std::vector<float>& values, Eigen::Index rows, Eigen::Index cols) { return columns(values, rows, cols, 0, cols); }

}  // namespace

void Gpt2CheckpointReader::place(const TensorEntry& entry, std::vector<float>&& values) {
  const std::string name = entry.name.substr(prefix_.size());
  const Eigen::Index d = config_.d_model;
  if (name == "wte.weight") model_.token_embedding = whole(values, config_.vocab_size, d);
  else if (name == "wpe.weight") model_.positional_table = whole(values, config_.position_count, d);
  else if (name == "ln_f.weight") model_.final_gamma = row(values, 0, d);
  else if (name == "ln_f.bias") model_.final_beta = row(values, 0, d);
  if (name.rfind("h.", 0) != 0) return;
  const std::size_t dot = name.find('.', 2);
  const int l = std::stoi(name.substr(2, dot - 2));
  const std::string rest = name.substr(dot + 1);
  Layer& layer = model_.layers[static_cast<std::size_t>(l)];
  const Eigen::Index d_head = layer.d_k;
  const Eigen::Index d_ff = entry.shape.size() == 2 ? entry.shape[1] : static_cast<Eigen::Index>(values.size());
  if (rest == "ln_1.weight") layer.ln_gamma = row(values, 0, d);
  else if (rest == "ln_1.bias") layer.ln_beta = row(values, 0, d);
  else if (rest == "ln_2.weight") layer.ln2_gamma = row(values, 0, d);
  else if (rest == "ln_2.bias") layer.ln2_beta = row(values, 0, d);
  else if (rest == "attn.c_attn.weight") {
    for (int h = 0; h < layer.head_count(); ++h) {
      HeadWeights& head = layer.heads[static_cast<std::size_t>(h)];
      head.W_Q = columns(values, d, 3 * d, h * d_head, d_head);
      head.W_K = columns(values, d, 3 * d, d + h * d_head, d_head);
      head.W_V = columns(values, d, 3 * d, 2 * d + h * d_head, d_head);
    }
  } else if (rest == "attn.c_attn.bias") {
    for (int h = 0; h < layer.head_count(); ++h) {
      HeadWeights& head = layer.heads[static_cast<std::size_t>(h)];
      head.b_Q = row(values, h * d_head, d_head);
      head.b_K = row(values, d + h * d_head, d_head);
      head.b_V = row(values, 2 * d + h * d_head, d_head);
    }
  } else if (rest == "attn.c_proj.weight") layer.W_O = whole(values, d, d);
  else if (rest == "attn.c_proj.bias") layer.b_O = row(values, 0, d);
  else if (rest == "mlp.c_fc.weight") layer.ffn.W_1 = whole(values, d, d_ff);
  else if (rest == "mlp.c_fc.bias") layer.ffn.b_1 = row(values, 0, static_cast<Eigen::Index>(values.size()));
  else if (rest == "mlp.c_proj.weight") layer.ffn.W_2 = whole(values, entry.shape[0], d);
  else if (rest == "mlp.c_proj.bias") layer.ffn.b_2 = row(values, 0, d);
}

Result<Model> Gpt2CheckpointReader::finish() {
  if (!complete()) {
    for (const TensorEntry& t : index_.tensors)
      if (t.end > bytes_fed() && std::find(wanted_.begin(), wanted_.end(), t.name) != wanted_.end())
        return Result<Model>::failure("the file ended before " + t.name.substr(prefix_.size()) + " (" +
                                      std::to_string(bytes_fed()) + " of " + std::to_string(bytes_needed_) + " bytes)");
    return Result<Model>::failure("the checkpoint is incomplete");
  }
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

#pragma once
// GPT-2 checkpoints in Hugging Face's layout (model.safetensors + config.json) as HeadLab models.
//
// Each layer is pre-norm and causal: x += attn(ln_1(x)); x += mlp(ln_2(x)), then ln_f and the
// tied unembedding (Radford et al. 2019; Hugging Face's GPT2Model). Conv1D weights are input-major
// (x W + b), the layout HeadLab's matrices already have: head i's W_Q is columns i d_k..(i+1) d_k
// of c_attn's first d_model columns, W_K of the next d_model, W_V of the last.
//
// Names may carry the `transformer.` prefix; `lm_head.weight` (the same matrix as wte) and the
// attention mask buffers `attn.bias` / `attn.masked_bias` are not read (`c_attn.bias` is a weight).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model.h"
#include "result.h"
#include "safetensors.h"

namespace headlab {

struct Gpt2Config {
  int layer_count = 0;     // n_layer
  int head_count = 0;      // n_head
  int d_model = 0;         // n_embd
  int position_count = 0;  // n_positions
  int vocab_size = 0;
};

// config.json: n_layer, n_head, n_embd, n_positions (or n_ctx), vocab_size; a model_type other
// than "gpt2", an activation other than GELU's tanh form or a LayerNorm epsilon other than 1e-5 is
// refused (HeadLab would compute something else).
Result<Gpt2Config> read_gpt2_config(std::string_view config_json);
// Without config.json: the shapes give everything but the head count, which the learner gives.
Result<Gpt2Config> gpt2_config_from_tensors(const SafetensorsIndex& index, int head_count);

// Reads a checkpoint whose bytes arrive in order, in pieces of any size, decoding each tensor
// straight into the model's matrices (only c_attn, split into heads, passes through a buffer).
class Gpt2CheckpointReader {
 public:
  // Checks that `index` holds every tensor `config` needs, with the right shapes and a type HeadLab
  // reads (F32, F16, BF16): the message names the first that does not.
  static Result<std::unique_ptr<Gpt2CheckpointReader>> open(SafetensorsIndex index, const Gpt2Config& config);

  // The next `size` bytes of the file, from byte 0.
  void feed(const std::uint8_t* bytes, std::size_t size);
  // Bytes the reader needs in all (the file up to its last tensor read) and has had so far.
  std::uint64_t bytes_needed() const { return bytes_needed_; }
  std::uint64_t bytes_fed() const { return stream_->bytes_fed(); }
  bool complete() const { return stream_->done(); }
  // The model, once complete ("the file ended before <tensor>" otherwise). Call once.
  Result<Model> finish();

  Gpt2CheckpointReader(const Gpt2CheckpointReader&) = delete;
  Gpt2CheckpointReader& operator=(const Gpt2CheckpointReader&) = delete;

 private:
  Gpt2CheckpointReader(SafetensorsIndex index, const Gpt2Config& config, std::string prefix);
  // Where a tensor decodes to: the model's own matrix, or scratch_ for c_attn, which is split
  // into heads once complete (split_heads).
  float* target(const TensorEntry& entry);
  void split_heads(const TensorEntry& entry);

  SafetensorsIndex index_;
  Gpt2Config config_;
  std::string prefix_;  // "" or "transformer."
  std::vector<std::string> wanted_;  // the tensors read, with the prefix
  Model model_;
  std::unique_ptr<TensorStream> stream_;
  std::vector<float> scratch_;  // one c_attn weight or bias while it arrives
  std::uint64_t bytes_needed_ = 0;
};

// The whole checkpoint in memory (the CLI and tests): index, config (or `head_count` when
// config_json is empty), then every tensor.
Result<Model> read_gpt2_checkpoint(const std::vector<std::uint8_t>& file, std::string_view config_json, int head_count = 0);

}  // namespace headlab

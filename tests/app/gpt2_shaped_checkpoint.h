#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "engine/gpt2_checkpoint.h"
#include "engine/safetensors.h"

namespace headlab {

// HeadLab ships no GPT-2: a checkpoint of its shape in Hugging Face's layout (7 layers of 12
// heads, enough for every head lesson 22 names, at d_model 24; GPT-2's vocabulary), random
// weights, read as a learner's file is.
inline Model gpt2_shaped_checkpoint() {
  const int layers = 7, d = 24, vocab = 50257, positions = 64, d_ff = 4 * d;
  std::mt19937 rng(3);
  std::normal_distribution<float> normal(0.0f, 0.02f);
  std::vector<std::vector<float>> values;
  std::vector<TensorToWrite> tensors;
  auto add = [&](std::string name, std::vector<std::int64_t> shape, bool gain = false) {
    std::int64_t count = 1;
    for (std::int64_t s : shape) count *= s;
    std::vector<float> v(static_cast<std::size_t>(count));
    for (float& x : v) x = gain ? 1.0f : normal(rng);
    values.push_back(std::move(v));
    tensors.push_back({std::move(name), std::move(shape), nullptr});
  };
  add("wte.weight", {vocab, d});
  add("wpe.weight", {positions, d});
  for (int l = 0; l < layers; ++l) {
    const std::string p = "h." + std::to_string(l) + ".";
    add(p + "ln_1.weight", {d}, true);
    add(p + "ln_1.bias", {d});
    add(p + "attn.c_attn.weight", {d, 3 * d});
    add(p + "attn.c_attn.bias", {3 * d});
    add(p + "attn.c_proj.weight", {d, d});
    add(p + "attn.c_proj.bias", {d});
    add(p + "ln_2.weight", {d}, true);
    add(p + "ln_2.bias", {d});
    add(p + "mlp.c_fc.weight", {d, d_ff});
    add(p + "mlp.c_fc.bias", {d_ff});
    add(p + "mlp.c_proj.weight", {d_ff, d});
    add(p + "mlp.c_proj.bias", {d});
  }
  add("ln_f.weight", {d}, true);
  add("ln_f.bias", {d});
  for (std::size_t i = 0; i < tensors.size(); ++i) tensors[i].values = values[i].data();
  const std::vector<std::uint8_t> file = write_safetensors(tensors, TensorType::f16, {});
  Result<Model> model = read_gpt2_checkpoint(file, "", 12);
  EXPECT_TRUE(model.ok()) << model.error();
  return model.ok() ? std::move(model).value() : Model{};
}

}  // namespace headlab

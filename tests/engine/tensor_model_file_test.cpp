#include "engine/tensor_model_file.h"

#include <gtest/gtest.h>

#include "engine/model.h"

namespace headlab {
namespace {

Document text_like_document() {
  Document document;
  Model& model = document.model;
  model = make_model(16, 2, 2, 7, Embedding::random);
  model.tokenizer = "text";
  model.positional = Positional::learned;
  model.causal = true;
  model.positional_table = Matrix::Random(66, 16);
  model.token_embedding = Matrix::Random(30, 16);
  model.output_bias = RowVector::Random(30);
  model.layers[1].norm = Norm::pre;
  model.layers[1].residual = true;
  set_ffn(model, 1, true);
  model.layers[1].ffn.activation = Activation::gelu_tanh;
  document.input.text = "a sentence, 中文";
  return document;
}

TEST(TensorModelFile, F32RoundTripsExactly) {
  const Document document = text_like_document();
  const std::vector<std::uint8_t> file = write_tensor_model(document, TensorType::f32);
  const Result<Document> back = read_tensor_model(file.data(), file.size());
  ASSERT_TRUE(back.ok()) << back.error();
  const Model& a = document.model;
  const Model& b = back.value().model;
  EXPECT_EQ(b.tokenizer, "text");
  EXPECT_EQ(back.value().input.text, "a sentence, 中文");
  EXPECT_EQ(b.token_embedding, a.token_embedding);
  EXPECT_EQ(b.positional_table, a.positional_table);
  EXPECT_EQ(b.output_bias, a.output_bias);
  EXPECT_EQ(b.layers[0].heads[1].W_K, a.layers[0].heads[1].W_K);
  EXPECT_EQ(b.layers[1].W_O, a.layers[1].W_O);
  EXPECT_EQ(b.layers[1].ffn.W_2, a.layers[1].ffn.W_2);
  EXPECT_EQ(b.layers[1].ln2_gamma, a.layers[1].ln2_gamma);
  EXPECT_EQ(b.layers[1].ffn.activation, Activation::gelu_tanh);
  EXPECT_EQ(b.layers[1].norm, Norm::pre);
  EXPECT_TRUE(b.causal);
}

TEST(TensorModelFile, F16IsHalfTheSizeAndWithinHalfPrecision) {
  const Document document = text_like_document();
  const std::vector<std::uint8_t> f32 = write_tensor_model(document, TensorType::f32);
  const std::vector<std::uint8_t> f16 = write_tensor_model(document, TensorType::f16);
  EXPECT_LT(f16.size(), f32.size() * 6 / 10);
  const Result<Document> back = read_tensor_model(f16.data(), f16.size());
  ASSERT_TRUE(back.ok()) << back.error();
  const Matrix& a = document.model.token_embedding;
  const Matrix& b = back.value().model.token_embedding;
  // F16 keeps 11 significant bits: a relative error of at most 2^-11.
  EXPECT_LE(((a - b).array().abs() / a.array().abs().max(1e-4f)).maxCoeff(), 1.0f / 2048.0f);
}

TEST(TensorModelFile, WhatIsMissingIsNamed) {
  Document document = text_like_document();
  std::vector<std::uint8_t> file = write_tensor_model(document, TensorType::f32);
  file.resize(file.size() - 4);
  EXPECT_FALSE(read_tensor_model(file.data(), file.size()).ok());
  const std::vector<std::uint8_t> plain = write_safetensors({}, TensorType::f32, {});
  const Result<Document> none = read_tensor_model(plain.data(), plain.size());
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error(), "not a HeadLab model: its header has no headlab metadata");
}

TEST(Safetensors, HalfEncodingRoundsToNearestEven) {
  const float values[] = {1.0f, 65504.0f, 65520.0f, 1.0f + 1.0f / 4096.0f, std::ldexp(1.0f, -24), -0.0f};
  std::vector<std::uint8_t> bytes;
  encode_tensor(TensorType::f16, values, 6, bytes);
  float back[6];
  decode_tensor(TensorType::f16, bytes.data(), 6, back);
  EXPECT_EQ(back[0], 1.0f);
  EXPECT_EQ(back[1], 65504.0f);
  EXPECT_TRUE(std::isinf(back[2]));
  EXPECT_EQ(back[3], 1.0f);  // exactly between 1 and 1 + 2^-10: to the even one
  EXPECT_EQ(back[4], std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::signbit(back[5]));
}

}  // namespace
}  // namespace headlab

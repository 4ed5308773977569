#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/model_file.h"

namespace headlab {
namespace {

using nlohmann::json;

json matrix(int rows, int cols, float value = 0.1f) {
  return json(std::vector<std::vector<float>>(rows, std::vector<float>(cols, value)));
}

json valid_file() {
  json head = {{"W_Q", matrix(8, 2)}, {"W_K", matrix(8, 2)}, {"W_V", matrix(8, 2)}};
  return {{"format", "headlab-model"}, {"version", 1}, {"d_model", 8}, {"embedding", "random"},
          {"text", "The fox."}, {"causal", false},
          {"layers", {{{"heads", {head, head, head}}, {"W_O", matrix(6, 8)}, {"residual", false},
                       {"norm", "none"}, {"ffn", nullptr}}}}};
}

std::string error_of(const json& file) {
  auto result = parse_model_file(file.dump());
  return result.ok() ? "" : result.error();
}

TEST(ModelFile, ValidFileParses) {
  auto result = parse_model_file(valid_file().dump());
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result.value().model.layers[0].head_count(), 3);
  EXPECT_EQ(result.value().model.layers[0].d_k, 2);
  EXPECT_EQ(result.value().input.text, "The fox.");
}

TEST(ModelFile, ErrorsNameThePathAndShape) {
  json f = valid_file();
  f["layers"][0]["heads"][2]["W_K"] = matrix(8, 3);
  EXPECT_EQ(error_of(f), "layers[0].heads[2].W_K: expected 8x2, got 8x3");

  f = valid_file();
  f["layers"][0]["W_O"] = matrix(5, 8);
  EXPECT_EQ(error_of(f), "layers[0].W_O: expected 6x8, got 5x8");

  f = valid_file();
  f["layers"][0]["heads"][1]["W_V"][3][1] = "x";
  EXPECT_EQ(error_of(f), "layers[0].heads[1].W_V[3][1]: expected a number (got \"x\")");

  f = valid_file();
  f["layers"][0]["heads"][0].erase("W_Q");
  EXPECT_EQ(error_of(f), "layers[0].heads[0].W_Q: missing");

  f = valid_file();
  f["d_model"] = 4;
  EXPECT_EQ(error_of(f), "d_model: expected an integer in 8..512 (got 4)");

  f = valid_file();
  f["format"] = "other";
  EXPECT_EQ(error_of(f), "format: expected \"headlab-model\"");

  f = valid_file();
  f["version"] = 7;
  EXPECT_NE(error_of(f).find("newer"), std::string::npos);

  f = valid_file();
  f["layers"][0]["norm"] = "batch";
  EXPECT_EQ(error_of(f), "layers[0].norm: expected one of \"none\", \"pre\", \"post\" (got \"batch\")");

  f = valid_file();
  f["layers"][0]["heads"][0]["W_Q"][0] = {0.1, 0.2, 0.3};
  EXPECT_EQ(error_of(f), "layers[0].heads[0].W_Q: rows have different lengths (3 and 2)");

  f = valid_file();
  f["layers"][0]["heads"][0]["pruned"] = 1;
  EXPECT_EQ(error_of(f), "layers[0].heads[0].pruned: expected true or false (got 1)");

  f = valid_file();
  f["tokens"] = {"a", 3};
  f.erase("text");
  EXPECT_EQ(error_of(f), "tokens[1]: expected a non-empty string (got 3)");

  f = valid_file();
  f["layers"][0]["heads"] = json::array();
  EXPECT_EQ(error_of(f), "layers[0].heads: expected 1 to 16 heads, got 0");

  EXPECT_EQ(parse_model_file("{not json").error(), "not valid JSON");
  EXPECT_EQ(parse_model_file("[]").error(), "expected a JSON object");
}

TEST(ModelFile, RejectsNonFiniteAndOversized) {
  // JSON has no NaN literal; the biggest doubles are out of float range and are refused.
  json f = valid_file();
  f["layers"][0]["heads"][0]["W_Q"][0][0] = 1e300;
  EXPECT_EQ(error_of(f), "layers[0].heads[0].W_Q[0][0]: must be a finite number (got 1e+300)");
  f = valid_file();
  f["layers"] = json::array();
  for (int i = 0; i < 7; ++i) f["layers"].push_back(valid_file()["layers"][0]);
  EXPECT_EQ(error_of(f), "layers: expected 1 to 6 layers, got 7");
  EXPECT_FALSE(parse_model_file(std::string(100000, '[')).ok());
}

TEST(ModelFile, ExplicitXWithTokens) {
  json f = valid_file();
  f.erase("text");
  f["tokens"] = {"a", "b", "c"};
  f["X"] = matrix(3, 8, 0.5f);
  auto result = parse_model_file(f.dump());
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result.value().input.kind, InputKind::matrix);
  f["X"] = matrix(2, 8);
  EXPECT_EQ(error_of(f), "X: expected 3x8, got 2x8");
}

// docs/model-format.md: explicit X bypasses the tokenizer and the embedding, so the named
// features' 24 dimensions are no limit on d_model then (the file need not name an embedding).
TEST(ModelFile, ExplicitXWorksBelowTheNamedFeatureWidth) {
  json f = valid_file();
  f.erase("text");
  f.erase("embedding");  // the default, named features
  f["tokens"] = {"a", "b", "c"};
  f["X"] = matrix(3, 8, 0.5f);
  auto result = parse_model_file(f.dump());
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result.value().model.d_model, 8);
  EXPECT_EQ(result.value().model.embedding, Embedding::named_features);
  EXPECT_EQ(result.value().input.kind, InputKind::matrix);
  EXPECT_EQ(result.value().input.X.rows(), 3);
  // Written back, the file names the embedding; it still reads.
  auto again = parse_model_file(serialize_model_file(result.value()));
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(again.value().input.X, result.value().input.X);
  f.erase("tokens");
  EXPECT_TRUE(parse_model_file(f.dump()).ok());  // X alone too
  // Without X the named features build the rows and need their width.
  f.erase("X");
  f["text"] = "The fox.";
  EXPECT_EQ(error_of(f), "d_model: the named-feature embedding needs at least 24");
}

TEST(ModelFile, RoundTripIsExact) {
  Document document = default_document();
  document.model.layers[0].heads[2].W_K(5, 1) = 0.123456789f;
  document.model.layers[0].residual = true;
  document.model.layers[0].norm = Norm::pre;
  set_ffn(document.model, 0, true);
  const std::string text = serialize_model_file(document);
  auto parsed = parse_model_file(text);
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(parsed.value().model.layers[0].heads[2].W_K, document.model.layers[0].heads[2].W_K);
  EXPECT_EQ(parsed.value().model.layers[0].ffn.W_2, document.model.layers[0].ffn.W_2);
  EXPECT_EQ(serialize_model_file(parsed.value()), text);
}

}  // namespace
}  // namespace headlab

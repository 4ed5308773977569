// Property: every model file inside the documented ranges (docs/model-format.md) either loads or
// is refused with a message, and a loaded one survives a recompute, the state request, an edit and
// one whole UI frame. Seeded random files cover d_model 8..512, 1..16 heads, 1..6 layers, 1..66
// tokens and every embedding, positional, norm, residual and FFN option. Runs natively (and under
// ASan + UBSan in scripts/fuzz) and as WebAssembly under SAFE_HEAP (preset web-test).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "api/api.h"
#include "app/controller.h"
#include "../app/test_resources.h"
#include "headless_imgui.h"
#include "imgui.h"
#include "ui/lab_window.h"

namespace headlab::ui {
namespace {

using nlohmann::json;

#ifdef __EMSCRIPTEN__
constexpr int kCases = 8;  // SAFE_HEAP checks every load and store: tens of times slower
#else
constexpr int kCases = 60;
#endif
// Keeps one case to a fraction of a second natively; the ranges still reach every extreme.
constexpr long kParameterBudget = 150000;

class ModelFileGenerator {
 public:
  explicit ModelFileGenerator(unsigned seed) : rng_(seed) {}

  json next() {
    json file = {{"format", "headlab-model"}, {"version", 1}};
    int d_model = log_uniform(8, 512);
    const std::string embedding = pick(4) == 0 ? "random" : "named";
    if (embedding == "named" && d_model < 24 && pick(2) == 0) d_model = 24 + pick(100);
    file["d_model"] = d_model;
    file["embedding"] = embedding;
    const char* positional[] = {"sinusoidal", "learned", "none"};
    file["positional"] = positional[pick(3)];
    if (file["positional"] == "learned" && pick(2) == 0) file["positional_table"] = matrix(66, d_model);
    file["special_tokens"] = pick(2) == 0;
    file["causal"] = pick(2) == 0;
    file["seed"] = pick(1000000);
    const int token_count = 1 + pick(66);
    switch (pick(4)) {
      case 0: file["X"] = matrix(token_count, d_model); break;
      case 1: {
        json tokens = json::array();
        for (int i = 0; i < token_count; ++i) tokens.push_back(word());
        file["tokens"] = tokens;
        if (pick(2) == 0) file["X"] = matrix(token_count, d_model);
        break;
      }
      default: {
        std::string text;
        for (int i = 0; i < std::max(1, token_count - 2); ++i) text += (i ? " " : "") + word();
        file["text"] = text + ".";
      }
    }
    if (pick(5) == 0) {  // a learned token embedding with its output head
      const int vocab_size = 1 + pick(40);
      json vocab = json::array();
      for (int i = 0; i < vocab_size; ++i) vocab.push_back(i == 0 ? std::string("[UNK]") : word() + std::to_string(i));
      file["vocab"] = vocab;
      file["token_embedding"] = matrix(vocab_size, d_model);
      if (pick(2) == 0) file["output_bias"] = row(vocab_size);
    }
    const int layer_count = 1 + pick(6);
    json layers = json::array();
    for (int l = 0; l < layer_count; ++l) layers.push_back(layer(d_model, layer_count));
    file["layers"] = layers;
    return file;
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  int log_uniform(int lo, int hi) {
    const double t = std::uniform_real_distribution<double>(std::log(lo), std::log(hi + 1))(rng_);
    return std::clamp(static_cast<int>(std::exp(t)), lo, hi);
  }
  float number() {
    // Mostly ordinary weights, sometimes large ones that saturate the softmax, sometimes zero.
    switch (pick(10)) {
      case 0: return 0.0f;
      case 1: return std::normal_distribution<float>(0.0f, 40.0f)(rng_);
      default: return std::normal_distribution<float>(0.0f, 0.5f)(rng_);
    }
  }
  json row(int n) {
    json r = json::array();
    for (int i = 0; i < n; ++i) r.push_back(number());
    return r;
  }
  json matrix(int rows, int cols) {
    json m = json::array();
    for (int i = 0; i < rows; ++i) m.push_back(row(cols));
    return m;
  }
  std::string word() {
    static const char* kWords[] = {"the", "cat", "sat", "on", "mat", "dog", "ran", "quickly", "a", "big",
                                   "猫", "🙂", "naïve", ",", "it", "was", "red", "blue", "saw", "her"};
    return kWords[pick(20)];
  }
  json layer(int d_model, int layer_count) {
    const int head_count = 1 + pick(16);
    // d_k and d_v anywhere in 1..d_model, shrunk until the layer fits the parameter budget.
    int d_k = 1 + pick(d_model), d_v = 1 + pick(d_model);
    while (d_k > 1 && static_cast<long>(head_count) * d_model * (2 * d_k + d_v) + static_cast<long>(head_count) * d_v * d_model >
                          kParameterBudget / layer_count) {
      d_k = std::max(1, d_k / 2);
      d_v = std::max(1, d_v / 2);
    }
    json heads = json::array();
    for (int h = 0; h < head_count; ++h) {
      json head = {{"W_Q", matrix(d_model, d_k)}, {"W_K", matrix(d_model, d_k)}, {"W_V", matrix(d_model, d_v)}};
      if (pick(6) == 0) head["pruned"] = true;
      heads.push_back(head);
    }
    const char* norms[] = {"none", "pre", "post"};
    json out = {{"heads", heads}, {"W_O", matrix(head_count * d_v, d_model)}, {"residual", pick(2) == 0}, {"norm", norms[pick(3)]}};
    if (pick(3) == 0) {
      const int d_ff = 1 + pick(std::min(4 * d_model, 96));
      out["ffn"] = {{"W_1", matrix(d_model, d_ff)}, {"b_1", row(d_ff)}, {"W_2", matrix(d_ff, d_model)}, {"b_2", row(d_model)}};
    } else {
      out["ffn"] = nullptr;
    }
    if (out["norm"] != "none" && pick(2) == 0)
      out["ln"] = {{"gamma", row(d_model)}, {"beta", row(d_model)}, {"gamma_2", row(d_model)}, {"beta_2", row(d_model)}};
    return out;
  }

  std::mt19937 rng_;
};

class ValidModelFiles : public ::testing::Test {
 protected:
  HeadlessImGui imgui;

  void frame(app::Controller& controller) {
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    draw_lab_window(controller, ui, nullptr);
    ImGui::Render();
  }

  LabUiState ui;
};

TEST_F(ValidModelFiles, LoadOrRefuseWithAMessageAndNeverTrap) {
  ModelFileGenerator generator(20261204);
  int loaded = 0;
  for (int i = 0; i < kCases; ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    const json file = generator.next();
    app::AppState state;
    app::Controller controller(state, app::test_resources());
    const json reply = json::parse(api::handle_request(controller, json{{"op", "loadModel"}, {"json", file.dump()}}.dump()));
    ASSERT_TRUE(reply.contains("ok")) << reply.dump();
    if (!reply["ok"].get<bool>()) {
      const std::string message = reply.value("error", "");
      EXPECT_GE(message.size(), 8u) << "a refusal says why";
      continue;
    }
    ++loaded;
    const json snapshot = json::parse(api::handle_request(controller, R"({"op":"state"})"));
    ASSERT_TRUE(snapshot.value("ok", false)) << snapshot.dump().substr(0, 300);
    EXPECT_EQ(static_cast<int>(state.trace.layers.size()), static_cast<int>(file["layers"].size()));
    for (const auto& layer : state.trace.layers)
      for (const auto& head : layer.heads)
        for (int r = 0; r < head.attention.rows(); ++r) {
          const float sum = head.attention.row(r).sum();
          EXPECT_TRUE(std::isfinite(sum));
        }
    frame(controller);
    const json edit = json::parse(api::handle_request(
        controller, R"({"op":"setWeight","layer":0,"head":0,"which":"W_Q","row":0,"col":0,"value":1.5})"));
    EXPECT_TRUE(edit.value("ok", false)) << edit.dump();
    frame(controller);
  }
  // The generator makes mostly valid files: the property is about files that load.
  EXPECT_GE(loaded, kCases * 2 / 3);
}

}  // namespace
}  // namespace headlab::ui

#include "app/resources.h"

#include <nlohmann/json.hpp>

#include "app/exports.h"
#include "app/lesson_control_names.h"
#include "engine/analysis/explanation.h"
#include "engine/assets.h"
#include "engine/bpe/bpe_files.h"
#include "engine/training/head_count_experiment.h"
#include "engine/training/text_corpus.h"

namespace headlab::app {
namespace {

Result<Resources> fail(const std::string& message) { return Result<Resources>::failure(message); }

// The display names and descriptions of the roles and the explanation templates;
// analysis::load_resources has checked the file's thresholds.
std::string read_label_texts(Resources& resources) {
  std::array<LocalizedText, analysis::kRoleCount>& names = resources.role_names;
  std::array<LocalizedText, analysis::kRoleCount>& descriptions = resources.role_descriptions;
  const std::optional<std::string> text = read_asset("labels.json");
  if (!text) return "assets/labels.json could not be read";
  const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
  if (!doc.is_object() || !doc.contains("roles") || !doc["roles"].is_array()) return "assets/labels.json: roles: expected an array";
  for (int r = 0; r < analysis::kRoleCount; ++r) {
    bool found = false;
    for (const nlohmann::json& role : doc["roles"])
      if (role.is_object() && role.value("id", std::string()) == analysis::kRoleIds[r] && role.contains("name") &&
          role.contains("description"))
        found = read_localized_text(role["name"], names[r]) && read_localized_text(role["description"], descriptions[r]);
    if (!found)
      return std::string("assets/labels.json: role \"") + analysis::kRoleIds[r] + "\" needs a name and a description in en and zh";
  }
  for (const analysis::ExplanationTemplate& t : analysis::kExplanationTemplates) {
    const nlohmann::json* entry = doc.contains("explanations") && doc["explanations"].is_object() &&
                                          doc["explanations"].contains(t.id)
                                      ? &doc["explanations"][t.id]
                                      : nullptr;
    if (!entry || !read_localized_text(*entry, resources.explanations[t.id]))
      return std::string("assets/labels.json: explanations.") + t.id + " needs a text in en and zh";
  }
  return {};
}

// The actions of the first visit's lab (assets/starting_model.json), in the lesson files' format.
std::string read_starting_model(std::vector<Action>& actions) {
  const std::optional<std::string> text = read_asset("starting_model.json");
  if (!text) return "assets/starting_model.json could not be read";
  const nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
  if (!doc.is_object() || doc.value("format", std::string()) != "headlab-starting-model" || !doc.contains("actions") ||
      !doc["actions"].is_array())
    return "assets/starting_model.json: expected {\"format\": \"headlab-starting-model\", \"actions\": [...]}";
  Result<std::vector<Action>> decoded = decode_action_list(doc["actions"], "actions");
  if (!decoded.ok()) return "assets/starting_model.json: " + decoded.error();
  actions = std::move(decoded).value();
  for (const Action& action : actions)
    if (std::holds_alternative<LoadStartingModel>(action)) return "assets/starting_model.json: actions: loadStartingModel cannot start itself";
  return {};
}

}  // namespace

Result<Resources> load_resources() {
  Resources resources;
  std::string error;
  resources.lexicon = load_lexicon(&error);
  if (!error.empty()) return fail(error);

  Result<std::vector<Preset>> presets = load_presets();
  if (!presets.ok()) return fail("assets/presets: " + presets.error());
  resources.presets = std::move(presets).value();

  resources.analysis = analysis::load_resources();
  if (!resources.analysis.errors.empty()) return fail(resources.analysis.errors.front());
  if (const std::string error = read_label_texts(resources); !error.empty())
    return fail(error);
  const std::optional<std::string> sentences = read_asset("sentences.json");
  if (!sentences) return fail("assets/sentences.json could not be read");
  resources.example_sentences = example_texts(*sentences);

  Result<std::vector<std::string>> lesson_files = lessons::lesson_files();
  if (!lesson_files.ok()) return fail(lesson_files.error());
  for (const std::string& name : lesson_files.value()) {
    const std::optional<std::string> text = read_asset("lessons/" + name);
    if (!text) return fail("assets/lessons/" + name + " could not be read");
    Result<LoadedLesson> lesson = parse_lesson_file(*text);
    if (!lesson.ok()) return fail("assets/lessons/" + name + ": " + lesson.error());
    resources.lessons.push_back(std::move(lesson.value().lesson));
    resources.lesson_actions.push_back(std::move(lesson.value().actions));
  }

  Result<training::Grammar> grammar = training::load_grammar();
  if (!grammar.ok()) return fail(grammar.error());
  resources.grammar = std::move(grammar).value();
  // Absent from the web app's embedded assets (the page fetches it); present everywhere else.
  if (std::optional<std::string> trained_model = read_asset("models/trained.json")) {
    resources.trained_model->text = std::move(*trained_model);
    resources.trained_model->arrived = true;
  }

  for (const AttentionNormalization attention :
       {AttentionNormalization::softmax, AttentionNormalization::softmax_plus_one, AttentionNormalization::sigmoid}) {
    LateAsset& slot = *resources.text_model_trained_with(attention);
    if (std::optional<std::string> bytes = read_asset(text_model_path(attention))) {
      slot.text = std::move(*bytes);
      slot.arrived = true;
    }
  }

  if (const std::string error = read_starting_model(resources.starting_actions); !error.empty()) return fail(error);

  // Absent from the web app's embedded assets (the page fetches it after the first frame).
  if (const std::optional<std::string> text_tokenizer = read_asset("tokenizers/text.json"))
    if (std::string error = set_text_tokenizer(resources, *text_tokenizer); !error.empty()) return fail(error);

  const std::optional<std::string> ui_text = read_asset("ui_text.json");
  if (!ui_text) return fail("assets/ui_text.json could not be read");
  Result<UiText> parsed_text = UiText::parse_strict(*ui_text);
  if (!parsed_text.ok()) return fail("assets/ui_text.json: " + parsed_text.error());
  resources.ui_text = std::move(parsed_text).value();
  for (lessons::Lesson& lesson : resources.lessons)
    if (const std::string error = name_controls(lesson, resources.ui_text); !error.empty())
      return fail("assets/lessons/" + lesson.id + ": " + error);
  return resources;
}

const bpe::BpeTokenizer* Resources::subword_tokenizer(const std::string& name) const {
  if (name.empty()) return nullptr;
  for (const std::shared_ptr<LateTokenizer>& slot : {text_tokenizer, gpt2_tokenizer})
    if (slot && slot->tokenizer && slot->tokenizer->name == name) return &*slot->tokenizer;
  return nullptr;
}

std::string set_text_tokenizer(const Resources& resources, std::string_view json_text) {
  Result<bpe::BpeTokenizer> tokenizer = bpe::parse_bpe_file(json_text);
  if (!tokenizer.ok()) return "assets/tokenizers/text.json: " + tokenizer.error();
  resources.text_tokenizer->tokenizer = std::move(tokenizer).value();
  return {};
}

const std::shared_ptr<LateAsset>& Resources::text_model_trained_with(AttentionNormalization attention) const {
  switch (attention) {
    case AttentionNormalization::softmax_plus_one: return text_model_plus_one;
    case AttentionNormalization::sigmoid: return text_model_sigmoid;
    case AttentionNormalization::softmax: break;
  }
  return text_model;
}

std::string text_model_path(AttentionNormalization attention) {
  if (attention == AttentionNormalization::softmax) return "models/text.safetensors";
  return "models/text-" + std::string(enum_name(kAttentionNormalizationNames, attention)) + ".safetensors";
}

std::string set_text_corpus(const Resources& resources, std::string_view train_text, std::string_view held_out_text) {
  LateCorpus& slot = *resources.text_corpus;
  const auto fail = [&](const std::string& why) { return slot.error = "The text sample: " + why; };
  if (!resources.text_tokenizer->tokenizer) return fail("the text vocabulary has not arrived");
  const bpe::BpeTokenizer& tokenizer = *resources.text_tokenizer->tokenizer;
  auto train = std::make_shared<training::TextCorpus>(training::text_corpus(tokenizer, tokenizer.name, train_text));
  auto held_out = std::make_shared<training::TextCorpus>(training::text_corpus(tokenizer, tokenizer.name, held_out_text));
  const training::TextTaskConfig config = training::head_count_plan(training::Task::lm).base.text;
  if (std::string e = training::validate_text_task(config, *train); !e.empty()) return fail("the training text: " + e);
  if (std::string e = training::validate_text_task(config, *held_out); !e.empty()) return fail("the held-out text: " + e);
  slot.train = std::move(train);
  slot.held_out = std::move(held_out);
  slot.error.clear();
  return {};
}

std::string set_gpt2_tokenizer(const Resources& resources, std::string_view encoder_json, std::string_view vocab_bpe) {
  Result<bpe::BpeTokenizer> tokenizer = bpe::read_gpt2_tokenizer(encoder_json, vocab_bpe, "gpt2");
  if (!tokenizer.ok()) return "GPT-2's tokenizer: " + tokenizer.error();
  resources.gpt2_tokenizer->tokenizer = std::move(tokenizer).value();
  return {};
}

}  // namespace headlab::app

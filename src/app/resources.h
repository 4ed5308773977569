#pragma once
// Everything the lab reads from assets/, loaded and validated once at start-up and then passed by
// const reference: recompute, actions, training and request handlers do no file I/O.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "app/lesson_actions.h"
#include "app/lesson_progress.h"
#include "app/ui_text.h"
#include "engine/analysis/analysis.h"
#include "engine/bpe/bpe_tokenizer.h"
#include "engine/lexicon.h"
#include "engine/localized_text.h"
#include "engine/presets.h"
#include "engine/result.h"
#include "engine/training/grammar.h"
#include "engine/training/text_task.h"

namespace headlab::app {

// An asset that may arrive after start-up. Resources stay one immutable value; only this slot is
// filled, once, when the file arrives (natively: at load; in the page: by the platform layer).
struct LateAsset {
  std::string text;
  bool arrived = false;
  // An asset the page fetches only when first asked for: asked for and not yet fetched; an action
  // waits to open it once it arrives.
  bool requested = false;
  bool open_when_arrived = false;
};

// A BPE vocabulary that may arrive after start-up: in the page, HeadLab's "text" vocabulary is
// fetched after the first frame (set_text_tokenizer) and GPT-2's (50,257 tokens, 1.5 MB of files)
// only when a GPT-2 checkpoint is opened (set_gpt2_tokenizer); each fills its slot once.
struct LateTokenizer {
  std::optional<bpe::BpeTokenizer> tokenizer;
};

// The real-text sample the text experiment trains on (scripts/corpus/page_sample.py), tokenized
// with the "text" vocabulary. In the page it is fetched only when a learner first asks for it: a
// job that needs it sets `requested`, the platform layer fetches it and fills the slot (or `error`).
struct LateCorpus {
  std::shared_ptr<const training::TextCorpus> train;
  std::shared_ptr<const training::TextCorpus> held_out;
  bool requested = false;
  std::string error;  // why it could not be had; a new request clears it
  bool arrived() const { return train && held_out; }
  void ask() {
    requested = true;
    error.clear();
  }
};

struct Resources {
  Lexicon lexicon;                           // assets/lexicon.json
  std::vector<Preset> presets;               // assets/presets/
  analysis::Resources analysis;              // label thresholds (labels.json), gold parses (sentences.json)
  std::vector<std::string> example_sentences;  // texts of assets/sentences.json, for the sentence picker
  LessonList lessons;                        // assets/lessons/
  // lesson_actions[l][s]: the setup and solution of lessons[l].steps[s], decoded when they loaded.
  std::vector<std::vector<StepActions>> lesson_actions;
  // assets/starting_model.json: what LoadStartingModel does, decoded when it loaded.
  std::vector<Action> starting_actions;
  training::Grammar grammar;                 // assets/grammar.json, for training in the page
  // assets/models/trained.json, parsed when loaded into the lab. The web page fetches it after the
  // first frame (it is the largest asset and few learners need it at once), so there it arrives
  // late: see LateAsset.
  std::shared_ptr<LateAsset> trained_model = std::make_shared<LateAsset>();
  // assets/models/text.safetensors (its bytes): the real-text language model, late in the page too.
  std::shared_ptr<LateAsset> text_model = std::make_shared<LateAsset>();
  // The same model trained as long with softmax + 1 and with sigmoid attention
  // (assets/models/text-softmax_plus_one.safetensors, text-sigmoid.safetensors; lesson 23): in the
  // page fetched only when first asked for.
  std::shared_ptr<LateAsset> text_model_plus_one = std::make_shared<LateAsset>();
  std::shared_ptr<LateAsset> text_model_sigmoid = std::make_shared<LateAsset>();
  // The real-text model trained with `attention`.
  const std::shared_ptr<LateAsset>& text_model_trained_with(AttentionNormalization attention) const;
  UiText ui_text;                            // assets/ui_text.json
  // The byte-level BPE vocabularies models can read (Model::tokenizer), once they arrived: HeadLab's
  // own "text" (assets/tokenizers/text.json, read at load where the assets are files) and GPT-2's.
  std::shared_ptr<LateTokenizer> text_tokenizer = std::make_shared<LateTokenizer>();
  std::shared_ptr<LateTokenizer> gpt2_tokenizer = std::make_shared<LateTokenizer>();
  std::shared_ptr<LateCorpus> text_corpus = std::make_shared<LateCorpus>();
  // The tokenizer named `name`, or nullptr when there is none (yet).
  const bpe::BpeTokenizer* subword_tokenizer(const std::string& name) const;
  // Role names and one-line descriptions in both languages, by analysis::Role (assets/labels.json).
  std::array<LocalizedText, analysis::kRoleCount> role_names;
  std::array<LocalizedText, analysis::kRoleCount> role_descriptions;
  // The explanation templates by id (analysis/explanation.h), in both languages (assets/labels.json).
  std::unordered_map<std::string, LocalizedText> explanations;
};

// Reads and checks every asset; the first missing or broken one is the error, naming the file
// and the field ("lessons/03-reading-heatmaps.json: ...steps[1].setup[0].layer: expected an integer").
Result<Resources> load_resources();

// Reads GPT-2's encoder.json and vocab.bpe into `resources.gpt2_tokenizer`; the error names the file.
std::string set_gpt2_tokenizer(const Resources& resources, std::string_view encoder_json, std::string_view vocab_bpe);
// Reads assets/tokenizers/text.json (headlab-bpe-1) into `resources.text_tokenizer`.
std::string set_text_tokenizer(const Resources& resources, std::string_view json_text);
// Where the real-text model trained with `attention` is, under assets/ and in the page:
// "models/text.safetensors" (softmax), "models/text-sigmoid.safetensors", ...
std::string text_model_path(AttentionNormalization attention);

// Tokenizes the text sample's two splits (lines of UTF-8) into `resources.text_corpus`; needs the
// text vocabulary. "" or why not (then also the slot's error).
std::string set_text_corpus(const Resources& resources, std::string_view train_text, std::string_view held_out_text);

}  // namespace headlab::app

#include "app/resources.h"

#include "app/exports.h"
#include "engine/assets.h"

namespace headlab::app {
namespace {

Result<Resources> fail(const std::string& message) { return Result<Resources>::failure(message); }

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

  const std::optional<std::string> ui_text = read_asset("ui_text.json");
  if (!ui_text) return fail("assets/ui_text.json could not be read");
  Result<UiText> parsed_text = UiText::parse_strict(*ui_text);
  if (!parsed_text.ok()) return fail("assets/ui_text.json: " + parsed_text.error());
  resources.ui_text = std::move(parsed_text).value();
  return resources;
}

}  // namespace headlab::app

// A lesson that says "press X" must name a control the learner can find: X is the label of some
// control in that language (assets/ui_text.json). A step that highlights one of the Training tab's
// buttons names it by a label no other of its buttons has, so the first "X" the learner sees is
// the one that advances the goal.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/lesson_control_names.h"
#include "engine/assets.h"
#include "../app/test_resources.h"

namespace headlab::app {
namespace {

// The Training tab's buttons: the widget (ui/widget_ids.h; a step's "highlight" names it) and the
// ui_text keys of every label it can show.
struct Control {
  const char* widget;
  std::vector<const char*> labels;
};
const Control kTrainingControls[] = {
    {"train/play", {"train_play", "train_pause"}},
    {"train/step", {"train_step10"}},
    {"train/restart", {"train_new_run"}},
    {"train/use", {"train_use"}},
    {"train/probe", {"train_probe_now"}},
    {"train/compare", {"train_compare_run", "train_pause"}},
    {"train/compare/restart", {"train_compare_restart"}},
    {"train/experiment", {"train_experiment_run", "train_experiment_go_on", "train_pause"}},
};

// The controls a text tells the learner to use: "Press Play", "press \"Prune them\"", "Tick
// \"pruned\""; 按“开始”, 点“在实验室中使用”, 勾选“因果”. Unquoted English names are one word.
std::vector<std::string> pressed_names(const std::string& text, Language language) {
  static const std::regex en(R"re(\b(?:[Pp]ress|[Cc]lick|[Tt]ick)\s+(?:"([^"]+)"|([A-Z][A-Za-z+]*)))re");
  static const std::regex zh("(?:按|点击|点|勾选)“(.*?)”");
  std::vector<std::string> names;
  const std::regex& pattern = language == Language::en ? en : zh;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern); it != std::sregex_iterator(); ++it)
    names.push_back((*it)[1].matched ? (*it)[1].str() : (*it)[2].str());
  return names;
}

// Every label of the string table in one language.
std::set<std::string> labels_in(Language language) {
  const auto text = read_asset("ui_text.json");
  EXPECT_TRUE(text.has_value());
  std::set<std::string> labels;
  if (!text) return labels;
  const nlohmann::json doc = nlohmann::json::parse(*text);
  for (const auto& entry : doc.at("texts")) labels.insert(entry.at(language == Language::en ? "en" : "zh").get<std::string>());
  return labels;
}

struct Text {
  std::string where;  // "text", "goal_text", "hints[1]"
  const LocalizedText* text;
};

std::vector<Text> texts_of(const lessons::Step& step) {
  std::vector<Text> texts = {{"text", &step.text}, {"goal_text", &step.goal_text}};
  for (std::size_t h = 0; h < step.hints.size(); ++h) texts.push_back({"hints[" + std::to_string(h) + "]", &step.hints[h]});
  return texts;
}

TEST(ControlNames, FindsWhatATextTellsTheLearnerToPress) {
  EXPECT_EQ(pressed_names("Press Play and watch; then press \"Prune them\". Tick \"causal\".", Language::en),
            (std::vector<std::string>{"Play", "Prune them", "causal"}));
  EXPECT_EQ(pressed_names("按“开始”观察，再点“在实验室中使用”，勾选“因果”。", Language::zh),
            (std::vector<std::string>{"开始", "在实验室中使用", "因果"}));
}

TEST(ControlNames, EveryControlALessonNamesHasThatLabel) {
  const Resources& resources = test_resources();
  for (const Language language : {Language::en, Language::zh}) {
    const std::set<std::string> labels = labels_in(language);
    for (const lessons::Lesson& lesson : resources.lessons)
      for (const lessons::Step& step : lesson.steps)
        for (const Text& t : texts_of(step))
          for (const std::string& name : pressed_names(localized(*t.text, language), language))
            EXPECT_TRUE(labels.count(name)) << lesson.id << " step \"" << step.id << "\" " << t.where << " ("
                                            << (language == Language::en ? "en" : "zh") << ") names \"" << name
                                            << "\", which no control shows";
  }
}

// A Chinese text names the lab's controls as the Chinese UI shows them: no English label of a
// control is left in it. Lessons write {ui:key} and the label comes from the string table
// (app/lesson_control_names.h), in the text's language.
TEST(ControlNames, ChineseTextsNameControlsInChinese) {
  const Resources& resources = test_resources();
  const char* const kControls[] = {
      "top_heads",        "top_layers",         "top_examples",       "top_undo",          "top_export",
      "window_weights",   "window_labels",      "window_heatmap",     "window_arcs",       "window_concat",
      "window_training",  "window_circuits",    "window_model_settings", "editor_presets", "editor_pruned",
      "editor_randomize", "editor_reset",       "labels_prune_least", "pruning_measure",   "pruning_apply",
      "model_positions",  "model_causal",       "model_trained",      "model_text",        "concat_zero_block",
      "next",             "hint",               "show_me",            "train_play",        "train_use"};
  int checked = 0;
  for (const lessons::Lesson& lesson : resources.lessons)
    for (const lessons::Step& step : lesson.steps)
      for (const Text& t : texts_of(step)) {
        const std::string& zh = t.text->zh;
        EXPECT_EQ(zh.find("{ui:"), std::string::npos) << lesson.id << " " << step.id << " " << t.where << ": unfilled";
        for (const char* key : kControls) {
          const std::string en = resources.ui_text.get(key, Language::en);
          if (en == resources.ui_text.get(key, Language::zh)) continue;
          // As a word: "Heads" in "Heads" but not in "heads" or "Headstart".
          const std::regex word("(^|[^A-Za-z_])" + std::regex_replace(en, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
                                "($|[^A-Za-z_])");
          EXPECT_FALSE(std::regex_search(zh, word)) << lesson.id << " step \"" << step.id << "\" " << t.where
                                                    << " (zh) names the control \"" << en << "\" in English: write {ui:" << key << "}";
          ++checked;
        }
      }
  EXPECT_GT(checked, 1000);
}

// The placeholder itself: filled in each language, and a key the table lacks is an error that
// names it (Resources refuses to load such a lesson).
TEST(ControlNames, PlaceholdersAreFilledFromTheStringTable) {
  const Resources& resources = test_resources();
  lessons::Lesson lesson;
  lesson.title = {"Open {ui:window_weights}", "打开“{ui:window_weights}”"};
  lesson.steps.push_back({});
  lesson.steps[0].id = "one";
  lesson.steps[0].hints.push_back({"{ui:editor_presets}, then {ui:top_heads}", "{ui:editor_presets}"});
  ASSERT_EQ(name_controls(lesson, resources.ui_text), "");
  EXPECT_EQ(lesson.title.en, "Open Weights");
  EXPECT_EQ(lesson.title.zh, std::string("打开“") + resources.ui_text.get("window_weights", Language::zh) + "”");
  EXPECT_EQ(lesson.steps[0].hints[0].en, "Presets, then Heads");
  lessons::Lesson broken;
  broken.steps.push_back({});
  broken.steps[0].id = "two";
  broken.steps[0].text = {"Press {ui:no_such_control}", "按"};
  EXPECT_EQ(name_controls(broken, resources.ui_text), "step \"two\": {ui:no_such_control} names no text of assets/ui_text.json");
  broken.steps[0].text = {"Press {ui:top_heads", "按"};
  EXPECT_EQ(name_controls(broken, resources.ui_text), "step \"two\": an unclosed {ui: placeholder");
}

TEST(ControlNames, ATrainingStepNamesItsButtonByALabelNoOtherButtonHas) {
  const Resources& resources = test_resources();
  int checked = 0;
  for (const Language language : {Language::en, Language::zh}) {
    const char* language_name = language == Language::en ? "en" : "zh";
    // Which of the table's buttons carry each label.
    std::map<std::string, std::set<std::string>> carriers;
    for (const Control& control : kTrainingControls)
      for (const char* key : control.labels) carriers[resources.ui_text.get(key, language)].insert(control.widget);
    for (const lessons::Lesson& lesson : resources.lessons)
      for (const lessons::Step& step : lesson.steps) {
        std::set<std::string> highlighted;
        for (const std::string& id : step.highlight)
          for (const Control& control : kTrainingControls)
            if (id == control.widget) highlighted.insert(id);
        if (highlighted.empty()) continue;
        ++checked;
        bool names_highlighted = false;
        for (const Text& t : texts_of(step))
          for (const std::string& name : pressed_names(localized(*t.text, language), language)) {
            const auto it = carriers.find(name);
            if (it == carriers.end()) continue;  // not a Training tab button (the test above checks it exists)
            std::string carried_by;
            for (const std::string& widget : it->second) carried_by += " " + widget;
            EXPECT_EQ(it->second.size(), 1u) << lesson.id << " step \"" << step.id << "\" " << t.where << " (" << language_name
                                             << ") says press \"" << name << "\", a label of" << carried_by;
            names_highlighted = names_highlighted || (it->second.size() == 1 && highlighted.count(*it->second.begin()));
          }
        EXPECT_TRUE(names_highlighted) << lesson.id << " step \"" << step.id << "\" (" << language_name
                                       << ") never names the button it highlights by a label only that button has";
      }
  }
  EXPECT_GE(checked, 6) << "lessons 16-18 highlight their buttons, in both languages";
}

}  // namespace
}  // namespace headlab::app

// Lint for the assets this part adds: every file parses, every reference resolves, every
// user-visible text has "en" and "zh", and the compiled-in thresholds equal assets/labels.json.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "analysis_fixture.h"
#include "app/lesson_actions.h"
#include "app/resources.h"
#include "engine/analysis/explanation.h"
#include "engine/tokenizer.h"

namespace headlab::analysis {
namespace {

using nlohmann::json;

json read_json(const std::string& relative) {
  const auto text = read_asset(relative);
  EXPECT_TRUE(text.has_value()) << relative;
  const json doc = json::parse(text.value_or(""), nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << relative << " is not valid JSON";
  return doc;
}

bool bilingual(const json& value) {
  LocalizedText text;
  return read_localized_text(value, text);
}

class AssetsLintTest : public AnalysisTest {};

TEST_F(AssetsLintTest, LabelsFileEqualsTheCompiledInDefaults) {
  const auto text = read_asset("labels.json");
  ASSERT_TRUE(text);
  Result<LabelConfig> parsed = parse_label_config(*text);
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_TRUE(parsed.value() == LabelConfig{}) << "assets/labels.json and label_config.h disagree";
  EXPECT_TRUE(resources().config == LabelConfig{});
}

TEST_F(AssetsLintTest, LabelsFileNamesEveryRoleInBothLanguages) {
  const json doc = read_json("labels.json");
  std::set<std::string> ids;
  for (const json& role : doc["roles"]) {
    const std::string id = role["id"].get<std::string>();
    ids.insert(id);
    EXPECT_TRUE(bilingual(role["name"])) << id;
    EXPECT_TRUE(bilingual(role["description"])) << id;
    EXPECT_TRUE(role.contains("citation") && role["citation"].is_string()) << id;
    Role r;
    ASSERT_TRUE(role_from_id(id, r)) << id;
    EXPECT_EQ(role["name"]["en"].get<std::string>(), role_name_en(r)) << id;
  }
  EXPECT_EQ(ids.size(), static_cast<std::size_t>(kRoleCount));
  for (const char* section : {"mixed", "redundancy", "importance"}) {
    EXPECT_TRUE(bilingual(doc[section]["name"])) << section;
    EXPECT_TRUE(bilingual(doc[section]["description"])) << section;
  }
  for (const std::string& rel : resources().config.syntactic_excluded_relations)
    EXPECT_NE(resources().gold.baseline(rel), nullptr) << "excluded relation " << rel << " is not a known relation";
}

// The placeholders of a template, as a sorted list ("{0}", "{role:3}", ...).
std::multiset<std::string> placeholders(const std::string& pattern) {
  std::multiset<std::string> found;
  for (std::size_t open = pattern.find('{'); open != std::string::npos; open = pattern.find('{', open + 1))
    found.insert(pattern.substr(open, pattern.find('}', open) - open + 1));
  return found;
}

TEST_F(AssetsLintTest, ExplanationTemplatesEqualTheEngineAndUseTheSameValuesInChinese) {
  const json doc = read_json("labels.json");
  ASSERT_TRUE(doc.contains("explanations"));
  for (const ExplanationTemplate& t : kExplanationTemplates) {
    ASSERT_TRUE(doc["explanations"].contains(t.id)) << t.id;
    const json& entry = doc["explanations"][t.id];
    ASSERT_TRUE(bilingual(entry)) << t.id;
    EXPECT_EQ(entry["en"].get<std::string>(), t.en) << t.id;
    // Chinese may reorder the values but must use each one the English uses, and no other.
    std::multiset<std::string> en = placeholders(t.en), zh = placeholders(entry["zh"].get<std::string>());
    EXPECT_EQ(std::set<std::string>(en.begin(), en.end()), std::set<std::string>(zh.begin(), zh.end())) << t.id;
  }
}

TEST_F(AssetsLintTest, LabelParserNamesTheBadField) {
  json doc = read_json("labels.json");
  doc["roles"][2]["ratio"] = 0.5;
  Result<LabelConfig> bad = parse_label_config(doc.dump());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "labels.roles[2].ratio: expected a number in [1, 1000] (got 0.5)");
  doc = read_json("labels.json");
  doc["roles"].erase(4);
  EXPECT_NE(parse_label_config(doc.dump()).error().find("missing role"), std::string::npos);
}

TEST_F(AssetsLintTest, SentencesAreTokenizedAnnotatedAndConsistentWithTheLexicon) {
  const GoldCorpus& gold = resources().gold;
  ASSERT_TRUE(gold.load_error.empty()) << gold.load_error;
  ASSERT_GE(gold.sentences.size(), 12u);
  int parsed = 0;
  for (const GoldSentence& s : gold.sentences) {
    SCOPED_TRACE(s.id);
    EXPECT_EQ(tokenize(s.text).words, s.tokens) << "tokens must be exactly what the tokenizer makes of text";
    EXPECT_FALSE(s.title.en.empty());
    EXPECT_FALSE(s.title.zh.empty());
    if (!s.has_parse) continue;
    ++parsed;
    for (std::size_t k = 0; k < s.tokens.size(); ++k) {
      const LexiconEntry* entry = lexicon().find(lexicon_key(s.tokens[k]));
      if (!entry) continue;  // unknown words (aardvark) fall back to rules; gold still says noun
      EXPECT_EQ(to_string(entry->pos), std::string(to_string(s.pos[k])))
          << "token " << k << " \"" << s.tokens[k] << "\": gold and lexicon disagree";
    }
    EXPECT_EQ(s.arcs.size() + 1, s.tokens.size());
  }
  EXPECT_GE(parsed, 10);
  for (const RelationInfo& r : gold.relations) EXPECT_FALSE(r.name.zh.empty()) << r.id;
}

TEST_F(AssetsLintTest, TheExampleSentenceHasTheIssuesParse) {
  const GoldSentence* fox = resources().gold.find("fox");
  ASSERT_NE(fox, nullptr);
  ASSERT_TRUE(fox->has_parse);
  // (dependent, head, relation) in tokens: The quick brown fox jumps over the lazy dog .
  const std::set<std::tuple<int, int, std::string>> expected = {
      {3, 4, "nsubj"}, {0, 3, "det"}, {1, 3, "amod"}, {2, 3, "amod"}, {5, 4, "prep"},
      {8, 5, "pobj"},  {6, 8, "det"}, {7, 8, "amod"}, {9, 4, "punct"}};
  std::set<std::tuple<int, int, std::string>> actual;
  for (const Arc& a : fox->arcs) actual.insert({a.dependent, a.head, a.relation});
  EXPECT_EQ(actual, expected);
  EXPECT_EQ(fox->root, 4);  // jumps
}

TEST_F(AssetsLintTest, TheCorpusHasTheSentenceKindsTheLessonsNeed) {
  const GoldCorpus& gold = resources().gold;
  bool subject_not_previous = false, rare_word = false, repeated_noun = false, animals = false, comma = false;
  for (const GoldSentence& s : gold.sentences) {
    Document doc;
    doc.input.text = s.text;
    const Tokens tokens = prepare_input(doc, lexicon()).tokens;
    SentenceContext context;
    make_sentence_context(tokens, false, gold, context);
    for (const Arc& a : s.arcs) subject_not_previous |= a.relation == "nsubj" && a.head != a.dependent + 1;
    rare_word |= context.rarest >= 0 && !tokens[context.rarest].in_lexicon;
    std::set<std::string> nouns;
    int animal_count = 0;
    for (const Token& t : tokens) {
      if (t.pos == PartOfSpeech::noun && !nouns.insert(t.key).second) repeated_noun = true;
      animal_count += (t.semantic_bits & 1u) != 0;  // kSemanticClasses[0] == "animal"
      comma |= t.text == ",";
    }
    animals |= animal_count >= 3;
  }
  EXPECT_TRUE(subject_not_previous);
  EXPECT_TRUE(rare_word);
  EXPECT_TRUE(repeated_noun);
  EXPECT_TRUE(animals);
  EXPECT_TRUE(comma);
}

TEST_F(AssetsLintTest, GoldParserNamesTheBadField) {
  json doc = read_json("sentences.json");
  doc["sentences"][1]["heads"][2] = 42;
  EXPECT_EQ(parse_gold_corpus(doc.dump()).error(), "sentences[1].heads[2]: expected 1..8, or 0 for the root");
  doc = read_json("sentences.json");
  doc["sentences"][0]["relations"][0] = "detx";
  EXPECT_NE(parse_gold_corpus(doc.dump()).error().find("sentences[0].relations[0]"), std::string::npos);
  doc = read_json("sentences.json");
  doc["sentences"][0]["heads"][4] = 4;  // jumps its own head: no root left
  EXPECT_FALSE(parse_gold_corpus(doc.dump()).ok());
  doc = read_json("sentences.json");
  doc["sentences"][0]["heads"][3] = 1;  // fox -> The, The -> fox: a cycle
  EXPECT_NE(parse_gold_corpus(doc.dump()).error().find("cycle"), std::string::npos);
}

TEST_F(AssetsLintTest, EveryPresetFileIsListedParsesAndResolves) {
  const json index = read_json("presets/index.json");
  std::set<std::string> listed;
  for (const json& id : index["presets"]) listed.insert(id.get<std::string>());
  std::set<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(assets_root() + "/presets"))
    if (entry.path().extension() == ".json" && entry.path().stem() != "index") files.insert(entry.path().stem().string());
  EXPECT_EQ(listed, files) << "assets/presets/index.json must list every preset file";
  const std::set<std::string> required = {"previous_token", "next_token", "self", "delimiter", "cls",
                                          "content_similarity", "verb_subject", "adjective_noun", "uniform",
                                          "previous_token_writer", "induction"};
  EXPECT_EQ(listed, required);
  for (const Preset& p : presets()) {
    SCOPED_TRACE(p.id);
    if (p.embedding == Embedding::named_features) {  // symbol presets work on any repeated sequence
      EXPECT_NE(resources().gold.find(p.example_sentence), nullptr) << "example_sentence " << p.example_sentence;
    }
    Role role;
    const std::string label = p.label.text();
    const std::size_t colon = label.find(':');
    ASSERT_TRUE(role_from_id(label.substr(0, colon), role)) << "label " << label;
    if (colon != std::string::npos) {
      EXPECT_EQ(role, Role::syntactic);
      EXPECT_NE(resources().gold.baseline(label.substr(colon + 1)), nullptr) << "relation of " << label;
    }
    EXPECT_FALSE(p.name.zh.empty());
    EXPECT_FALSE(p.description.zh.empty());
    EXPECT_FALSE(p.entries.empty() && p.id != "uniform");
  }
}

TEST_F(AssetsLintTest, PresetParserNamesTheBadField) {
  json doc = read_json("presets/previous_token.json");
  doc["entries"][3]["feature"] = "nouns";
  EXPECT_EQ(parse_preset(doc.dump()).error(), "entries[3].feature: unknown feature \"nouns\"");
  doc = read_json("presets/previous_token.json");
  doc["name"].erase("zh");
  EXPECT_NE(parse_preset(doc.dump()).error().find("name"), std::string::npos);
  doc = read_json("presets/previous_token.json");
  doc["requires"]["positions"] = false;
  EXPECT_NE(parse_preset(doc.dump()).error().find("requires.positions"), std::string::npos);
}

// Every asset the lab reads, read and checked as the page does at start-up (app::load_resources):
// lesson setups and solutions included, decoded into actions.
TEST(AssetsLoadAtStartUp, EveryAssetLoadsIntoResources) {
  const Result<app::Resources> resources = app::load_resources();
  ASSERT_TRUE(resources.ok()) << resources.error();
  EXPECT_GE(resources.value().lessons.size(), 14u);
  ASSERT_EQ(resources.value().lesson_actions.size(), resources.value().lessons.size());
  for (std::size_t l = 0; l < resources.value().lessons.size(); ++l)
    EXPECT_EQ(resources.value().lesson_actions[l].size(), resources.value().lessons[l].steps.size());
}

// A bad op or field in a lesson fails when the lesson loads, naming the step and the field.
TEST(AssetsLoadAtStartUp, ABrokenLessonNamesTheStepAndTheField) {
  const json step = {{"id", "first"},
                     {"title", {{"en", "T"}, {"zh", "T"}}},
                     {"text", {{"en", "T"}, {"zh", "T"}}},
                     {"goal_text", {{"en", "T"}, {"zh", "T"}}},
                     {"goal", {{"kind", "head_count"}, {"layer", 0}, {"min", 1}}}};
  const auto lesson_with = [&](const json& setup, const json& solution) {
    json second = step;
    second["id"] = "second";
    second["setup"] = setup;
    second["solution"] = solution;
    return json{{"format", "headlab-lesson"},
                {"id", "broken"},
                {"title", {{"en", "T"}, {"zh", "T"}}},
                {"summary", {{"en", "T"}, {"zh", "T"}}},
                {"steps", json::array({step, second})}}
        .dump();
  };
  const json good = {{"op", "selectHead"}, {"layer", 0}, {"head", 0}};
  ASSERT_TRUE(app::parse_lesson_file(lesson_with(json::array({good}), json::array({good}))).ok());

  const json bad_layer = {{"op", "selectHead"}, {"layer", "0"}, {"head", 0}};
  Result<app::LoadedLesson> r = app::parse_lesson_file(lesson_with(json::array({good, bad_layer}), json::array()));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "broken.steps[1].setup[1].layer: expected an integer (got \"0\")");
  r = app::parse_lesson_file(lesson_with(json::array(), json::array({json{{"op", "setWeigth"}}})));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "broken.steps[1].solution[0].op: unknown operation \"setWeigth\"");
  const json misspelt = {{"op", "setPruned"}, {"layer", 0}, {"head", 0}, {"prune", true}};
  r = app::parse_lesson_file(lesson_with(json::array({misspelt}), json::array()));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().rfind("broken.steps[1].setup[0].", 0), 0u) << r.error();
}

}  // namespace
}  // namespace headlab::analysis

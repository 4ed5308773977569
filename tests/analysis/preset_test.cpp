// Every preset on its example sentence: the promised attention pattern, and the primary label the
// preset file promises with a score >= 0.9 (issue 3 item 4, issue 4 item 7).
#include <functional>
#include <map>

#include "analysis_fixture.h"
#include "engine/embedding.h"

namespace headlab::analysis {
namespace {

// The gold partner of each dependent of `relation` (dependent input index -> head input index).
std::map<int, int> arcs_of(const LabRun& r, const std::string& relation) {
  std::map<int, int> out;
  const GoldMatch& gold = r.analysis.sentence.gold;
  EXPECT_TRUE(gold.has_gold);
  if (!gold.has_gold) return out;
  for (const Arc& arc : gold.sentence->arcs)
    if (arc.relation == relation) out[gold.input_index[arc.dependent]] = gold.input_index[arc.head];
  return out;
}

using PatternCheck = std::function<void(const LabRun&, const Matrix&)>;

// The pattern each preset promises, as row-by-row checks (row i = query i).
const std::map<std::string, PatternCheck>& pattern_checks() {
  static const std::map<std::string, PatternCheck> checks = {
      {"previous_token",
       [](const LabRun&, const Matrix& A) {
         for (int i = 1; i < A.rows(); ++i) EXPECT_GE(A(i, i - 1), 0.9f) << "row " << i;
       }},
      {"next_token",
       [](const LabRun&, const Matrix& A) {
         for (int i = 0; i + 1 < A.rows(); ++i) EXPECT_GE(A(i, i + 1), 0.9f) << "row " << i;
       }},
      {"self",
       [](const LabRun&, const Matrix& A) {
         for (int i = 0; i < A.rows(); ++i) EXPECT_GE(A(i, i), 0.9f) << "row " << i;
       }},
      {"delimiter",
       [](const LabRun& r, const Matrix& A) {
         for (int i = 0; i < A.rows(); ++i) {
           float mass = 0;
           for (int j = 0; j < A.cols(); ++j) mass += r.analysis.sentence.is_delimiter[j] ? A(i, j) : 0.0f;
           EXPECT_GE(mass, 0.9f) << "row " << i;
         }
       }},
      {"cls",
       [](const LabRun& r, const Matrix& A) {
         ASSERT_EQ(r.input.tokens[0].text, "[CLS]");
         for (int i = 0; i < A.rows(); ++i) EXPECT_GE(A(i, 0), 0.9f) << "row " << i;
       }},
      {"content_similarity",
       [](const LabRun& r, const Matrix& A) {
         const SentenceContext& s = r.analysis.sentence;
         int rows = 0;
         for (int i = 0; i < A.rows(); ++i) {
           float related = 0;
           for (int j = 0; j < A.cols(); ++j) related += s.is_related(i, j) ? A(i, j) : 0.0f;
           if (related == 0.0f && [&] { for (int j = 0; j < s.n; ++j) if (s.is_related(i, j)) return false; return true; }())
             continue;
           ++rows;
           EXPECT_GE(related, 0.45f) << "row " << i;  // fox -> dog: half the row, the other half on itself
           EXPECT_GE(related + A(i, i), 0.9f) << "row " << i;
         }
         EXPECT_EQ(rows, 2);  // fox and dog
       }},
      {"verb_subject",
       [](const LabRun& r, const Matrix& A) {
         const auto subjects = arcs_of(r, "nsubj");  // subject -> verb
         ASSERT_FALSE(subjects.empty());
         for (const auto& [subject, verb] : subjects) EXPECT_GE(A(verb, subject), 0.9f) << "verb " << verb;
       }},
      {"adjective_noun",
       [](const LabRun& r, const Matrix& A) {
         const auto adjectives = arcs_of(r, "amod");  // adjective -> noun
         ASSERT_EQ(adjectives.size(), 3u);
         for (const auto& [adjective, noun] : adjectives) EXPECT_GE(A(adjective, noun), 0.9f) << "adj " << adjective;
       }},
      {"uniform",
       [](const LabRun&, const Matrix& A) {
         for (int i = 0; i < A.rows(); ++i)
           for (int j = 0; j < A.cols(); ++j) EXPECT_NEAR(A(i, j), 1.0f / A.cols(), 1e-6f);
       }},
  };
  return checks;
}

class PresetTest : public AnalysisTest {};

TEST_F(PresetTest, EveryPresetGivesItsPatternAndLabel) {
  ASSERT_EQ(presets().size(), 9u);
  for (const Preset& preset : presets()) {
    SCOPED_TRACE("preset " + preset.id);
    Document doc = text_document(sentence_text(preset.example_sentence));
    doc.model.special_tokens = preset.requires_special_tokens;
    constexpr int kHead = 2;  // not head 0, so indexing mistakes show
    ASSERT_EQ(apply_preset(doc.model, 0, kHead, preset), "");
    const LabRun r = run(doc);
    const auto check = pattern_checks().find(preset.id);
    ASSERT_NE(check, pattern_checks().end()) << "no pattern check for this preset";
    check->second(r, r.attention(0, kHead));
    const HeadAnalysis& head = r.head(0, kHead);
    EXPECT_EQ(head.label.label, preset.label) << head.label.explanation;
    ASSERT_FALSE(head.label.mixed);
    EXPECT_GE(head.scores.score(head.label.primary), 0.9f) << head.label.explanation;
    EXPECT_FALSE(head.label.explanation.empty());
  }
}

TEST_F(PresetTest, PositionalPresetsAreStrictAndConfident) {
  for (const char* id : {"previous_token", "next_token"}) {
    Document doc = text_document(sentence_text("fox"));
    ASSERT_EQ(apply_preset(doc.model, 0, 0, preset(id)), "");
    const LabRun r = run(doc);
    const HeadAnalysis& head = r.head(0, 0);
    EXPECT_TRUE(head.label.strict) << id;
    EXPECT_GT(head.label.confidence, 0.9f) << id;
    EXPECT_NE(head.label.explanation.find("9 of 9 tokens"), std::string::npos) << head.label.explanation;
    const auto status = role_status(head.scores, resources().config);
    const RoleStatus& positional = status[static_cast<int>(std::string(id) == "next_token" ? Role::next_token : Role::previous_token)];
    EXPECT_TRUE(positional.fires);
    EXPECT_FLOAT_EQ(positional.threshold, 0.5f);
    EXPECT_FLOAT_EQ(status[static_cast<int>(Role::local)].threshold, head.scores.local.required_mass);
    EXPECT_FALSE(status[static_cast<int>(Role::cls)].available);  // no [CLS] in this input
  }
}

TEST_F(PresetTest, WritesScaledEntriesAndZeroesTheRest) {
  Document doc = text_document(sentence_text("fox"));
  const int d_k = doc.model.layers[0].d_k;
  ASSERT_EQ(apply_preset(doc.model, 0, 1, preset("previous_token")), "");
  const HeadWeights& w = doc.model.layers[0].heads[1];
  EXPECT_FLOAT_EQ(w.W_Q(kFeaturePosition, 0), 80.0f * std::sqrt(static_cast<float>(d_k)));
  EXPECT_FLOAT_EQ(w.W_K(kFeaturePosition, 0), 8.0f);
  EXPECT_FLOAT_EQ(w.W_K(kFeaturePositionSquared, 1), 64.0f);
  EXPECT_EQ(w.W_Q.cwiseAbs().cast<double>().sum() > 0, true);
  EXPECT_EQ((w.W_K.array() != 0).count(), 2);
  EXPECT_EQ(w.W_V(kFeatureNoun, 0), 1.0f);
}

TEST_F(PresetTest, RefusesWhatItCannotBuild) {
  Document doc = text_document(sentence_text("fox"), 12);  // d_k = 2
  const Model before = doc.model;
  EXPECT_NE(apply_preset(doc.model, 0, 0, preset("content_similarity")).find("d_k >= 4"), std::string::npos);
  EXPECT_NE(apply_preset(doc.model, 0, 0, preset("verb_subject")).find("d_k >= 3"), std::string::npos);
  EXPECT_EQ(doc.model.layers[0].heads[0].W_Q, before.layers[0].heads[0].W_Q);
  EXPECT_EQ(apply_preset(doc.model, 0, 0, preset("previous_token")), "");  // two columns suffice
  EXPECT_NE(apply_preset(doc.model, 0, 0, preset("cls")).find("special tokens"), std::string::npos);
  EXPECT_NE(apply_preset(doc.model, 0, 99, preset("self")).find("head 99"), std::string::npos);
  Document random = text_document("The fox.");
  random.model = make_model(24, 1, 4, 1, Embedding::random);
  EXPECT_NE(apply_preset(random.model, 0, 0, preset("self")).find("named-feature"), std::string::npos);
  Document no_positions = text_document("The fox.");
  no_positions.model.positional = Positional::none;
  EXPECT_NE(apply_preset(no_positions.model, 0, 0, preset("self")).find("position"), std::string::npos);
  EXPECT_EQ(apply_preset(no_positions.model, 0, 0, preset("delimiter")), "");
}

TEST_F(PresetTest, VerbSubjectFindsTheNearestNounNotTheSubject) {
  // "The dog with the red ball sleeps.": the nearest noun before "sleeps" is "ball", not its
  // subject "dog". The preset attends there, so the analysis must not call it syntactic:nsubj.
  Document doc = text_document(sentence_text("dog_ball"));
  ASSERT_EQ(apply_preset(doc.model, 0, 0, preset("verb_subject")), "");
  const LabRun r = run(doc);
  EXPECT_GE(r.attention(0, 0)(6, 5), 0.5f);  // sleeps -> ball
  EXPECT_NE(r.head(0, 0).label.label, "syntactic:nsubj") << r.head(0, 0).label.explanation;
}

}  // namespace
}  // namespace headlab::analysis

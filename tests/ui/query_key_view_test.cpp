// The Q & K tab with no GPU: its sentences are read only while it is shown, a click on a point
// picks that point and says its sentence, and another head lets the pick go.
#include <gtest/gtest.h>

#include <cmath>

#include "../app/test_resources.h"
#include "app/controller.h"
#include "app/dispatcher.h"
#include "app/lesson_runner.h"
#include "headless_imgui.h"
#include "ui/lab_window.h"
#include "ui/widget_ids.h"

namespace headlab::ui {
namespace {

class QueryKeyViewTest : public ::testing::Test {
 protected:
  void frame() {
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    draw_lab_window(controller, ui);
    ImGui::Render();
  }
  // The screen position of a point, as the tab maps the bounding box into its plot rectangle.
  ImVec2 screen(const analysis::QueryKeyMap& m, float x, float y) const {
    const Rect& r = ui.widget_rects.at(ids::kQueryKeyPlot);
    return ImVec2(r.x + (x - m.min_x) / (m.max_x - m.min_x) * r.w, r.y + (m.max_y - y) / (m.max_y - m.min_y) * r.h);
  }
  app::AppState state;
  app::Controller controller{state, app::test_resources()};
  HeadlessImGui imgui;
  LabUiState ui;
};

TEST_F(QueryKeyViewTest, AClickPicksThePointUnderItAndTheLiveTextNamesItsSentence) {
  frame();
  EXPECT_EQ(ui.query_key.job, nullptr) << "nothing is read while another tab is shown";
  ui.detail = DetailView::query_key;
  frame();
  ASSERT_NE(ui.query_key.job, nullptr);
  EXPECT_TRUE(ui.query_key.job->done()) << "a toy model's sentences are read in one frame";
  frame();
  ASSERT_TRUE(ui.widget_rects.count(ids::kQueryKeyPlot));
  const analysis::HeadQueryKeyMap& map = ui.query_key.map;
  ASSERT_GT(map.points.size(), 100u);
  // The key of the point farthest from the others' centre: nothing else lies under the cursor.
  const analysis::QueryKeyMap& m = map.map;
  int far = 0;
  for (int i = 1; i < static_cast<int>(map.points.size()); ++i)
    if (m.key_points.row(i).norm() > m.key_points.row(far).norm()) far = i;
  const ImVec2 p = screen(m, m.key_points(far, 0), m.key_points(far, 1));
  ImGuiIO& io = ImGui::GetIO();
  io.AddMousePosEvent(p.x, p.y);
  frame();
  io.AddMouseButtonEvent(ImGuiMouseButton_Left, true);
  frame();
  io.AddMouseButtonEvent(ImGuiMouseButton_Left, false);
  frame();
  frame();
  EXPECT_EQ(ui.query_key.picked, far);
  EXPECT_TRUE(ui.query_key.picked_key);
  const analysis::PointRef ref = map.points[far];
  const std::string text = ui.query_key.job->sample().sentences[ref.sentence].text;
  EXPECT_NE(ui.query_key.announcement.find(text), std::string::npos) << ui.query_key.announcement;
  EXPECT_TRUE(ui.widget_rects.count(std::string(ids::kQueryKeyPicked) + "/" + std::to_string(ref.sentence) + "/" +
                                    std::to_string(ref.position) + "/key"));
  EXPECT_TRUE(ui.widget_rects.count(ids::kQueryKeySentence));
  // In Chinese the same pick reads in Chinese.
  app::set_language(controller, app::Language::zh);
  frame();
  EXPECT_NE(ui.query_key.announcement.find("\xE6\x9C\x80\xE5\xBC\xBA"), std::string::npos);  // "最强"
  // Another head: another picture, the pick let go; the sentences are not read again.
  const app::QueryKeyJob* job = ui.query_key.job.get();
  ASSERT_TRUE(controller.apply(app::SelectHead{0, 3}).ok());
  frame();
  EXPECT_EQ(ui.query_key.picked, -1);
  EXPECT_EQ(ui.query_key.head, 3);
  EXPECT_EQ(ui.query_key.job.get(), job);
  EXPECT_EQ(app::test_resources().ui_text.missing(), std::set<std::string>{});
}

// The Strongest attention view lists the head's strongest contexts, in both languages, and text
// typed into its search box (as the page's input path delivers it) keeps only those with the token.
TEST_F(QueryKeyViewTest, TheStrongestAttentionViewListsContextsAndTypedTextFiltersThem) {
  ui.detail = DetailView::query_key;
  ui.query_key.corpus_shown = true;
  frame();
  frame();
  const auto listed = [&] {
    int n = 0;
    while (ui.widget_rects.count(std::string(ids::kCorpusContext) + "/" + std::to_string(n))) ++n;
    return n;
  };
  EXPECT_EQ(listed(), 20);
  EXPECT_GT(ui.query_key.corpus.queries, 100);
  click_widget(ui, ids::kCorpusSearch, [&] { frame(); });
  ImGui::GetIO().AddInputCharactersUTF8("dog");
  frame();
  frame();
  EXPECT_EQ(ui.query_key.search, "dog");
  const analysis::HeadCorpus& corpus = ui.query_key.corpus;
  ASSERT_GT(corpus.queries, 0);
  EXPECT_EQ(listed(), static_cast<int>(corpus.strongest.size()));
  for (const analysis::StrongContext& c : corpus.strongest) {
    const analysis::SampledSentence& s = ui.query_key.job->sample().sentences[c.sentence];
    EXPECT_TRUE(analysis::token_matches(s.tokens[c.query], "dog") || analysis::token_matches(s.tokens[c.key], "dog"));
  }
  app::set_language(controller, app::Language::zh);
  frame();
  EXPECT_EQ(app::test_resources().ui_text.missing(), std::set<std::string>{});
}

}  // namespace
}  // namespace headlab::ui

// A heatmap's column labels: Latin text is turned to read bottom-up, while a label with Chinese
// characters stands upright, one character under the other (a rotated 猫 lies on its side). Read
// from the glyph quads the draw list receives: an upright quad's top edge runs left to right, a
// rotated one's runs upwards.
#include <gtest/gtest.h>

#include <vector>

#include "headless_imgui.h"
#include "ui/heatmap.h"

namespace headlab::ui {
namespace {

struct Quad {
  ImVec2 top_left, top_right;
};

// The glyph quads `draw` received from vertex `first` on (four vertices each, as AddText writes).
std::vector<Quad> quads_from(const ImDrawList* draw, int first) {
  std::vector<Quad> out;
  for (int i = first; i + 3 < draw->VtxBuffer.Size; i += 4) out.push_back({draw->VtxBuffer[i].pos, draw->VtxBuffer[i + 1].pos});
  return out;
}

std::vector<Quad> label_quads(const std::string& text, float room) {
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);  // AddText leaves out what its clip rectangle does not hold
  ImGui::Begin("labels");
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int first = draw->VtxBuffer.Size;
  add_column_label(draw, ImVec2(100, 300), IM_COL32_WHITE, text, room);
  std::vector<Quad> quads = quads_from(draw, first);
  ImGui::End();
  ImGui::EndFrame();
  return quads;
}

TEST(ColumnLabel, LatinReadsUpwards) {
  HeadlessImGui imgui;
  const std::vector<Quad> quads = label_quads("cat", 200);
  ASSERT_EQ(quads.size(), 3u);
  for (const Quad& q : quads) {
    EXPECT_FLOAT_EQ(q.top_left.x, q.top_right.x) << "turned: the glyph's top edge is vertical";
    EXPECT_GT(q.top_left.y, q.top_right.y);
  }
  EXPECT_GT(quads[0].top_left.y, quads[2].top_left.y) << "the first letter is at the bottom";
}

TEST(ColumnLabel, ChineseStandsUprightOneCharacterUnderTheOther) {
  HeadlessImGui imgui;
  const float line = ImGui::GetIO().Fonts->Fonts[0]->FontSize;  // the size frames draw with
  const std::vector<Quad> quads = label_quads("猫坐下", 200);
  ASSERT_EQ(quads.size(), 3u);
  for (const Quad& q : quads) {
    EXPECT_FLOAT_EQ(q.top_left.y, q.top_right.y) << "upright: the glyph's top edge is horizontal";
    EXPECT_LT(q.top_left.x, q.top_right.x);
    EXPECT_LE(q.top_left.y, 300.0f);
  }
  EXPECT_NEAR(quads[1].top_left.y - quads[0].top_left.y, line, 0.01f) << "one character per line, the first on top";
  EXPECT_NEAR(quads[2].top_left.y - quads[1].top_left.y, line, 0.01f);
}

TEST(ColumnLabel, AnUprightLabelTooLongForItsRoomEndsWithAnEllipsis) {
  HeadlessImGui imgui;
  const float line = ImGui::GetIO().Fonts->Fonts[0]->FontSize;  // the size frames draw with
  const std::vector<Quad> quads = label_quads("一二三四五六", line * 3.5f);
  ASSERT_EQ(quads.size(), 3u) << "two characters and the ellipsis in three lines";
  EXPECT_GE(quads[0].top_left.y, 300.0f - line * 3.5f);
}

}  // namespace
}  // namespace headlab::ui

// An unchanged frame is told apart from any frame that would put other pixels on the canvas: the
// page leaves the first undrawn, so a frame taken as unchanged by mistake would leave a stale
// picture on screen.
#include "ui/frame_memory.h"

#include <gtest/gtest.h>

#include <functional>

#include "../app/test_resources.h"
#include "app/controller.h"
#include "headless_imgui.h"
#include "ui/lab_window.h"

namespace headlab::ui {
namespace {

const ImDrawData& frame_of(const std::function<void()>& draw) {
  ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
  ImGui::NewFrame();
  draw();
  ImGui::Render();
  return *ImGui::GetDrawData();
}

TEST(FrameMemory, TheSameWidgetsAgainAreUnchangedAndAnyDifferenceIsNot) {
  HeadlessImGui imgui;
  FrameMemory memory;
  const auto window = [](const char* text, ImVec2 position) {
    ImGui::SetNextWindowPos(position);
    ImGui::Begin("w");
    ImGui::TextUnformatted(text);
    ImGui::End();
  };
  EXPECT_TRUE(memory.differs(frame_of([&] { window("step 10", ImVec2(10, 10)); }), 0));  // nothing drawn yet
  // ImGui settles a new window's size over its first frames.
  for (int i = 0; i < 3; ++i) memory.differs(frame_of([&] { window("step 10", ImVec2(10, 10)); }), 0);
  EXPECT_FALSE(memory.differs(frame_of([&] { window("step 10", ImVec2(10, 10)); }), 0));
  EXPECT_FALSE(memory.differs(frame_of([&] { window("step 10", ImVec2(10, 10)); }), 0));
  EXPECT_TRUE(memory.differs(frame_of([&] { window("step 11", ImVec2(10, 10)); }), 0));  // one glyph
  EXPECT_FALSE(memory.differs(frame_of([&] { window("step 11", ImVec2(10, 10)); }), 0));
  EXPECT_TRUE(memory.differs(frame_of([&] { window("step 11", ImVec2(11, 10)); }), 0));  // moved a pixel
  EXPECT_FALSE(memory.differs(frame_of([&] { window("step 11", ImVec2(11, 10)); }), 0));
  // The same triangles over textures whose pixels changed.
  EXPECT_TRUE(memory.differs(frame_of([&] { window("step 11", ImVec2(11, 10)); }), 1));
  EXPECT_FALSE(memory.differs(frame_of([&] { window("step 11", ImVec2(11, 10)); }), 1));
  // Another canvas size, or another pixel ratio: the canvas was resized, so it is drawn afresh.
  ImGui::GetIO().DisplaySize = ImVec2(1000, 700);
  EXPECT_TRUE(memory.differs(frame_of([&] { window("step 11", ImVec2(11, 10)); }), 1));
  ImGui::GetIO().DisplayFramebufferScale = ImVec2(2, 2);
  EXPECT_TRUE(memory.differs(frame_of([&] { window("step 11", ImVec2(11, 10)); }), 1));
  EXPECT_FALSE(memory.differs(frame_of([&] { window("step 11", ImVec2(11, 10)); }), 1));
  // After forget() (a new font atlas, an export about to read the canvas) the next frame is drawn.
  memory.forget();
  EXPECT_TRUE(memory.differs(frame_of([&] { window("step 11", ImVec2(11, 10)); }), 1));
}

TEST(FrameMemory, AColourChangeAloneIsADifference) {
  HeadlessImGui imgui;
  FrameMemory memory;
  const auto text = [](ImU32 colour) {
    ImGui::GetForegroundDrawList()->AddText(ImVec2(5, 5), colour, "heads");
  };
  memory.differs(frame_of([&] { text(IM_COL32(255, 255, 255, 255)); }), 0);
  EXPECT_FALSE(memory.differs(frame_of([&] { text(IM_COL32(255, 255, 255, 255)); }), 0));
  EXPECT_TRUE(memory.differs(frame_of([&] { text(IM_COL32(255, 255, 254, 255)); }), 0));
}

// The lab at rest draws the same picture frame after frame, so the page stops redrawing it; an
// edit or a hover that changes what it shows makes the next frame a new one.
TEST(FrameMemory, TheLabAtRestIsUnchangedUntilSomethingChanges) {
  app::AppState state;
  app::Controller controller(state, app::test_resources());
  HeadlessImGui imgui;
  LabUiState ui;
  FrameMemory memory;
  const auto lab = [&] { draw_lab_window(controller, ui); };
  for (int i = 0; i < 5; ++i) memory.differs(frame_of(lab), 0);
  EXPECT_FALSE(memory.differs(frame_of(lab), 0));
  EXPECT_FALSE(memory.differs(frame_of(lab), 0));
  ASSERT_TRUE(controller.apply(app::SetWeight{0, 0, app::WeightMatrix::W_Q, 0, 0, 3.0}).ok());
  EXPECT_TRUE(memory.differs(frame_of(lab), 0));
  for (int i = 0; i < 3; ++i) memory.differs(frame_of(lab), 0);
  EXPECT_FALSE(memory.differs(frame_of(lab), 0));
  const auto head = ui.widget_rects.find("overview/head/0/1");
  ASSERT_NE(head, ui.widget_rects.end());
  ImGui::GetIO().AddMousePosEvent(head->second.x + head->second.w / 2, head->second.y + head->second.h / 2);
  EXPECT_TRUE(memory.differs(frame_of(lab), 0));  // the thumbnail under the pointer lights up
}

}  // namespace
}  // namespace headlab::ui

// The cells' textures: one per heatmap or matrix widget, coloured like the rectangles they replace,
// recoloured only when what they show changes, released once no widget shows them.
#include "ui/cell_textures.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "../app/test_resources.h"
#include "app/controller.h"
#include "headless_imgui.h"
#include "ui/colormap.h"
#include "ui/lab_window.h"

namespace headlab::ui {
namespace {

// Keeps every texture's pixels as a GPU would, and counts what was asked of it.
class RecordingUploader final : public ImageUploader {
 public:
  struct Image {
    int width = 0, height = 0;
    std::vector<std::uint32_t> pixels;
  };
  ImTextureID create(int width, int height) override {
    if (refuse) return nullptr;
    const auto id = reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(++last_name));
    images[id] = Image{width, height, std::vector<std::uint32_t>(static_cast<std::size_t>(width) * height)};
    return id;
  }
  void update(ImTextureID texture, const std::uint32_t* pixels, int width, int height) override {
    Image& image = images.at(texture);
    ASSERT_EQ(image.width, width);
    ASSERT_EQ(image.height, height);
    image.pixels.assign(pixels, pixels + static_cast<std::size_t>(width) * height);
    ++updates;
  }
  void destroy(ImTextureID texture) override { ASSERT_EQ(images.erase(texture), 1u); }

  std::map<ImTextureID, Image> images;
  int last_name = 0;
  int updates = 0;
  bool refuse = false;
};

Matrix attention_3x3() {
  Matrix a(3, 3);
  a << 1.0f, 0.0f, 0.0f, 0.5f, 0.5f, 0.0f, 0.2f, 0.3f, 0.5f;
  return a;
}

TEST(CellTextures, OneTexelPerCellInTheHeatmapsColours) {
  RecordingUploader gpu;
  CellTextures textures(gpu);
  const Matrix a = attention_3x3();
  const ImTextureID t = textures.texture_for(1, a, CellColours::viridis);
  ASSERT_NE(t, nullptr);
  const auto& image = gpu.images.at(t);
  EXPECT_EQ(image.width, 3);
  EXPECT_EQ(image.height, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(image.pixels[static_cast<std::size_t>(i) * 3 + j], viridis_u32(a(i, j))) << i << "," << j;
}

TEST(CellTextures, RecolouredOnlyWhenTheAttentionChanges) {
  RecordingUploader gpu;
  CellTextures textures(gpu);
  Matrix a = attention_3x3();
  const ImTextureID t = textures.texture_for(1, a, CellColours::viridis);
  for (int frame = 0; frame < 5; ++frame) {
    textures.new_frame();
    EXPECT_EQ(textures.texture_for(1, a, CellColours::viridis), t);
  }
  EXPECT_EQ(gpu.updates, 1);
  a(2, 0) = std::nextafter(a(2, 0), 1.0f);  // the smallest change still shows
  textures.new_frame();
  EXPECT_EQ(textures.texture_for(1, a, CellColours::viridis), t);
  EXPECT_EQ(gpu.updates, 2);
  // NaN weights give NaN attention: it compares equal to itself here, so it is coloured once.
  a(1, 1) = std::nanf("");
  textures.texture_for(1, a, CellColours::viridis);
  textures.texture_for(1, a, CellColours::viridis);
  EXPECT_EQ(gpu.updates, 3);
  EXPECT_EQ(gpu.images.at(t).pixels[4], viridis_u32(0.0f));
  // Another widget showing the same attention has its own texture.
  EXPECT_NE(textures.texture_for(2, a, CellColours::viridis), t);
  EXPECT_EQ(textures.texture_count(), 2);
}

TEST(CellTextures, SignedValuesInTheWeightColoursAtTheirScale) {
  RecordingUploader gpu;
  CellTextures textures(gpu);
  Matrix m(1, 3);
  m << -2.0f, 0.0f, 1.0f;
  const ImTextureID t = textures.texture_for(1, m, CellColours::diverging, 2.0f);
  const auto& pixels = gpu.images.at(t).pixels;
  EXPECT_EQ(pixels[0], diverging_u32(-1.0f));
  EXPECT_EQ(pixels[1], diverging_u32(0.0f));
  EXPECT_EQ(pixels[2], diverging_u32(0.5f));
  // The same values at another scale are other colours.
  textures.texture_for(1, m, CellColours::diverging, 4.0f);
  EXPECT_EQ(gpu.updates, 2);
  EXPECT_EQ(gpu.images.at(t).pixels[0], diverging_u32(-0.5f));
}

TEST(CellTextures, ANewSizeGetsANewTexture) {
  RecordingUploader gpu;
  CellTextures textures(gpu);
  textures.texture_for(1, attention_3x3(), CellColours::viridis);
  const ImTextureID bigger = textures.texture_for(1, Matrix::Constant(5, 5, 0.2f), CellColours::viridis);
  EXPECT_EQ(gpu.images.size(), 1u);
  EXPECT_EQ(gpu.images.at(bigger).width, 5);
  EXPECT_EQ(textures.texture_for(1, Matrix(0, 0), CellColours::viridis), nullptr);  // no tokens: nothing to draw
}

TEST(CellTextures, TexturesNoHeatmapShowsAreReleased) {
  RecordingUploader gpu;
  {
    CellTextures textures(gpu);
    const Matrix a = attention_3x3();
    textures.texture_for(1, a, CellColours::viridis);
    textures.texture_for(2, a, CellColours::viridis);
    for (int frame = 0; frame < 200; ++frame) {
      textures.new_frame();
      textures.texture_for(1, a, CellColours::viridis);  // 2 has scrolled out of view
      if (frame == 60) {
        EXPECT_EQ(gpu.images.size(), 2u);  // kept a while: scrolling back is free
      }
    }
    EXPECT_EQ(gpu.images.size(), 1u);
    EXPECT_EQ(textures.texture_count(), 1);
  }
  EXPECT_TRUE(gpu.images.empty());  // and all of them with the lab
}

TEST(CellTextures, WithoutATextureTheHeatmapDrawsShapes) {
  RecordingUploader gpu;
  gpu.refuse = true;
  CellTextures textures(gpu);
  EXPECT_EQ(textures.texture_for(1, attention_3x3(), CellColours::viridis), nullptr);
  EXPECT_EQ(textures.texture_count(), 0);
}

// The lab's frame: the selected head's heatmap and every visible thumbnail are one textured quad
// each, and a frame where nothing changed sends no pixels.
TEST(CellTextures, TheLabDrawsItsHeatmapsAsTextures) {
  app::AppState state;
  app::Controller controller(state, app::test_resources());
  HeadlessImGui imgui;
  ImGuiIO& io = ImGui::GetIO();
  LabUiState ui;
  RecordingUploader gpu;
  CellTextures textures(gpu);
  const auto draw_frame = [&] {
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    draw_lab_window(controller, ui, &textures);
    ImGui::Render();
  };
  draw_frame();
  const int heads = state.document.model.layers[0].head_count();
  EXPECT_GE(textures.texture_count(), heads + 1);  // thumbnails of layer 0 and the detail view
  std::set<ImTextureID> drawn;
  const ImDrawData* data = ImGui::GetDrawData();
  for (int l = 0; l < data->CmdListsCount; ++l)
    for (const ImDrawCmd& command : data->CmdLists[l]->CmdBuffer)
      if (gpu.images.count(command.GetTexID())) drawn.insert(command.GetTexID());
  EXPECT_EQ(static_cast<int>(drawn.size()), textures.texture_count());
  const int updates = gpu.updates;
  draw_frame();
  EXPECT_EQ(gpu.updates, updates);
  // An edit of head 0's W_Q changes its attention only: its thumbnail and the detail view recolour.
  ASSERT_TRUE(controller.apply(app::SetWeight{0, 0, app::WeightMatrix::W_Q, 0, 0, 3.0}).ok());
  draw_frame();
  EXPECT_EQ(gpu.updates, updates + 2);
}

// The circuits view of a 512-wide model: two 512 x 512 matrices, a quarter of a million cells each,
// are two textured quads rather than half a million rectangles.
TEST(CellTextures, TheCircuitsOfAWideModelAreTwoTextures) {
  app::AppState state;
  app::Controller controller(state, app::test_resources());
  ASSERT_TRUE(controller.apply(app::SetDModel{512}).ok());
  HeadlessImGui imgui;
  LabUiState ui;
  ui.detail = DetailView::circuits;
  RecordingUploader gpu;
  CellTextures textures(gpu);
  ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
  ImGui::NewFrame();
  draw_lab_window(controller, ui, &textures);
  ImGui::Render();
  int wide = 0;
  for (const auto& [texture, image] : gpu.images) wide += image.width == 512 && image.height == 512;
  EXPECT_EQ(wide, 2);
  EXPECT_LT(ImGui::GetDrawData()->TotalVtxCount, 100000);
}

}  // namespace
}  // namespace headlab::ui

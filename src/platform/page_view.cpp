// Which views are open (the detail tab and the side tab), for the page's share links and autosave
// (web/persistence.js): a link reopens the lab where the learner was looking, not on the heatmap.
// UI state rather than an edit, so it travels beside the saved state, not in it.
#include <emscripten.h>

#include <array>
#include <cstring>
#include <string>

#include "platform.h"

namespace {

using headlab::ui::DetailView;
using headlab::ui::SidePanel;

// Names as the page's links spell them; index = the enum's value.
constexpr std::array<const char*, 7> kDetailNames = {"heatmap", "arcs", "concat", "training", "circuits", "predictions", "qkmap"};
constexpr std::array<const char*, 2> kSideNames = {"weights", "labels"};

template <std::size_t N>
int index_of(const std::array<const char*, N>& names, const std::string& name) {
  for (std::size_t i = 0; i < N; ++i)
    if (name == names[i]) return static_cast<int>(i);
  return -1;
}

}  // namespace

extern "C" {

// "arcs.labels": the open detail tab, a dot, the open side tab.
EMSCRIPTEN_KEEPALIVE const char* headlab_view() {
  if (!headlab::platform::g_platform) return "";
  const headlab::ui::LabUiState& ui = headlab::platform::g_platform->ui;
  headlab::platform::g_platform->api_response = std::string(kDetailNames[static_cast<int>(ui.detail)]) + "." +
                                                kSideNames[static_cast<int>(ui.side)];
  return headlab::platform::g_platform->api_response.c_str();
}

// Opens the views "detail.side" names; a name it does not know leaves that view as it is (a link
// from a later HeadLab with a new tab still opens). Returns 1 when both names were known.
EMSCRIPTEN_KEEPALIVE int headlab_set_view(const char* view) {
  if (!headlab::platform::g_platform || !view) return 0;
  const std::string text(view);
  const std::size_t dot = text.find('.');
  const int detail = index_of(kDetailNames, text.substr(0, dot));
  const int side = dot == std::string::npos ? -1 : index_of(kSideNames, text.substr(dot + 1));
  headlab::ui::LabUiState& ui = headlab::platform::g_platform->ui;
  if (detail >= 0) ui.detail = static_cast<DetailView>(detail);
  if (side >= 0) ui.side = static_cast<SidePanel>(side);
  return detail >= 0 && side >= 0;
}

}  // extern "C"

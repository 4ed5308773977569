#pragma once
// The page's one instance of the platform (SDL window, GL context, the lab and its UI state), which
// the browser bridge reaches through g_platform, and the parts of a frame that have files of their
// own: fonts (page_fonts.cpp), exports (page_exports.cpp), the accessible view (page_accessibility.cpp).
#include <SDL.h>

#include <cstdint>
#include <memory>
#include <string>

#include "app/checkpoint_loader.h"
#include "app/controller.h"
#include "app/resources.h"
#include "app/training_session.h"
#include "gl_image_uploader.h"
#include "ui/cell_textures.h"
#include "ui/frame_memory.h"
#include "ui/theme.h"
#include "ui/ui_state.h"
#include "ui/widgets.h"

namespace headlab::platform {

constexpr float kFontSize = 15.0f;
// Per frame for layers a drag left behind: at the largest model a frame that catches up one layer
// took 120-240 ms in WASM, so this recomputes one layer a frame there and every layer at once on
// the lesson models.
constexpr double kCatchUpSeconds = 0.008;
// A drag counts as paused, and the layers it left behind start catching up, after this long
// without a step: a pointer that skips a frame or two is still dragging.
constexpr double kDragSettleSeconds = 0.3;

// The browser bridge has no other way to reach the app than a single instance pointer.
struct Platform {
  SDL_Window* window = nullptr;
  SDL_GLContext gl = nullptr;
  ::headlab::app::AppState state;
  ::headlab::app::Controller* controller = nullptr;
  ::headlab::app::TrainingSession* training = nullptr;  // in-page training, outside the undo history
  ::headlab::ui::LabUiState ui;
  ::headlab::ui::FontFiles fonts;
  std::string applied_theme = "dark";
  bool wants_text_input = false;
  Uint32 page_text_event = 0;  // SDL user event: text from web/text-input.js, queued behind earlier keys
  bool export_waited = false;
  float pixel_ratio = 1.0f;
  ::headlab::ui::Pointer pointer = ::headlab::ui::Pointer::fine;  // phones and tablets: touch
  bool first_frame_reported = false;
  std::string api_response;  // keeps the last response alive for JS to read
  std::string clipboard;     // what ImGui last copied (the system clipboard is written as well)
  std::string accessible_view;  // the view last sent to the page's accessibility tree
  std::string accessible_view_signature;  // what that view was built from (accessible_view_signature)
  bool fonts_dirty = false;  // new glyphs arrived: rebuild the atlas before the next frame
  bool common_cjk_requested = false;
  bool emoji_requested = false;
  std::uint64_t glyphs_checked_revision = ~std::uint64_t{0};
  std::uint64_t cjk_checked_revision = ~std::uint64_t{0};
  std::shared_ptr<::headlab::app::LateAsset> trained_model;  // filled by headlab_add_trained_model
  const ::headlab::app::Resources* resources = nullptr;
  ::headlab::app::CheckpointLoader checkpoint;  // a checkpoint being read (web/checkpoint.js)
  ::headlab::platform::GlImageUploader image_uploader;
  ::headlab::ui::CellTextures cell_textures{image_uploader};
  ::headlab::ui::FrameMemory drawn_frame;  // what the canvas shows now
};

// The browser bridge has no other way to reach the app than this pointer (set once by main).
extern Platform* g_platform;

// The fonts the page fetches (web/fonts.js), by the kind headlab_add_font receives them as.
enum class PageFont : int { cjk_subset = 0, cjk_common = 1, emoji = 2 };

// Fonts: fetch the Chinese characters and emoji the sentence or the language needs; rebuild the atlas.
void request_missing_glyphs(Platform& p);
void use_whole_cjk_subset_when_needed(Platform& p);
void rebuild_fonts(Platform& p);
// The real-text sample, once a job asked for it (page_text_corpus.cpp).
void request_text_corpus_when_asked(Platform& p);
// The real-text models trained with softmax + 1 and sigmoid, once an action asked for one; opens
// it when it arrives (page_text_models.cpp).
void fetch_and_open_text_models(Platform& p);
// The export the menu asked for, a frame after it asked.
void handle_export(Platform& p);
// The live region and the accessibility tree, when what they show changed.
void mirror_to_live_region(Platform& p);

}  // namespace headlab::platform

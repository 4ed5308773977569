// The web platform: SDL2 window with a WebGL2 context, the ImGui backends, the main loop and the
// bridge that window.headlab (web/headlab-api.js) calls. Everything else lives in app/ and ui/.
#include <SDL.h>
#include <SDL_opengles2.h>
#include <emscripten.h>
#include <emscripten/heap.h>
#include <emscripten/html5.h>
#include <malloc.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/api.h"
#include "app/controller.h"
#include "app/exports.h"
#include "app/resources.h"
#include "app/training_session.h"
#include "gl_image_uploader.h"
#include "page_training_worker.h"
#include "engine/model_file.h"
#include "engine/assets.h"
#include "imgui.h"
#include "imgui_internal.h"  // ImGuiContext::InputEventsQueue (headlab_input_pending)
#include "imgui_impl_opengl3.h"
#include "imgui_impl_sdl2.h"
#include "ui/accessible_view.h"
#include "ui/format_text.h"
#include "ui/frame_memory.h"
#include "ui/cell_textures.h"
#include "ui/head_caption.h"
#include "ui/lab_window.h"
#include "ui/theme.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

#include "platform.h"

namespace headlab::platform {
Platform* g_platform = nullptr;
}  // namespace headlab::platform

namespace {

// The platform's instance and the parts of a frame in their own files (platform.h).
using namespace headlab::platform;

// The page's text goes through SDL's queue rather than straight to ImGui, so it stays in order with
// the keys SDL has queued but ImGui has not seen yet: ImGui ignores characters while Ctrl is down,
// and a "1" typed just after releasing Ctrl+A would otherwise overtake the Ctrl release and be lost.
enum PageText : Sint32 { typed, pasted };

void push_page_text(PageText kind, const char* utf8) {
  if (!g_platform || !utf8 || !*utf8 || g_platform->page_text_event == static_cast<Uint32>(-1)) return;
  SDL_Event event{};
  event.type = g_platform->page_text_event;
  event.user.code = kind;
  event.user.data1 = new std::string(utf8);
  if (SDL_PushEvent(&event) != 1) delete static_cast<std::string*>(event.user.data1);
}

void receive_page_text(const SDL_Event& event) {
  const std::unique_ptr<std::string> text(static_cast<std::string*>(event.user.data1));
  ImGuiIO& io = ImGui::GetIO();
  if (event.user.code == PageText::typed) {
    io.AddInputCharactersUTF8(text->c_str());
    return;
  }
  // ImGui ignores characters while Ctrl is held, so a paste becomes ImGui's clipboard and ImGui
  // pastes it as its own Ctrl+V: a selection is replaced, as in any text field.
  g_platform->clipboard = *text;
  io.AddKeyEvent(ImGuiMod_Ctrl, true);
  io.AddKeyEvent(ImGuiKey_V, true);
  io.AddKeyEvent(ImGuiKey_V, false);
  io.AddKeyEvent(ImGuiMod_Ctrl, false);
}

EM_JS(int, browser_inner_width, (), { return window.innerWidth | 0; });
EM_JS(int, browser_inner_height, (), { return window.innerHeight | 0; });
EM_JS(int, primary_pointer_is_coarse, (), { return window.matchMedia && window.matchMedia('(pointer: coarse)').matches ? 1 : 0; });
// Start-up marks for scripts/first-frame.mjs: where the time before the first frame goes.
EM_JS(void, mark_startup, (const char* name), { performance.mark(UTF8ToString(name)); });
EM_JS(void, report_first_frame, (), {
  if (Module.onFirstFrame) Module.onFirstFrame();
});
EM_JS(void, report_fatal, (const char* message), {
  if (Module.onFatal) Module.onFatal(UTF8ToString(message));
});
EM_JS(void, set_text_input_active, (int active), {
  if (window.headlabTextInput) window.headlabTextInput(!!active);
});

EM_JS(void, copy_to_system_clipboard, (const char* text), {
  if (window.headlabCopyText) window.headlabCopyText(UTF8ToString(text));
});

// ImGui's copy and cut go to the system clipboard; ImGui's own paste reads what it copied last
// (paste from the system clipboard arrives as text through web/text-input.js).
void set_clipboard_text(void* user_data, const char* text) {
  Platform& p = *static_cast<Platform*>(user_data);
  p.clipboard = text ? text : "";
  copy_to_system_clipboard(p.clipboard.c_str());
}
const char* get_clipboard_text(void* user_data) { return static_cast<Platform*>(user_data)->clipboard.c_str(); }

EM_JS(void, take_downloaded_cjk_fonts, (), {
  if (window.headlabFonts) window.headlabFonts.deliverDownloaded();
});

// Keeps the canvas the size of the window and the font crisp at the current devicePixelRatio.
void track_window_size(Platform& p) {
  const int width = browser_inner_width(), height = browser_inner_height();
  int current_w = 0, current_h = 0;
  SDL_GetWindowSize(p.window, &current_w, &current_h);
  if (width > 0 && height > 0 && (width != current_w || height != current_h)) SDL_SetWindowSize(p.window, width, height);
  const float ratio = static_cast<float>(emscripten_get_device_pixel_ratio());
  if (std::fabs(ratio - p.pixel_ratio) > 0.01f) {
    p.pixel_ratio = ratio;
    p.fonts_dirty = true;
  }
  if (p.fonts_dirty) rebuild_fonts(p);
}

// Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y (Cmd on a Mac), one per key-down event, never lost to a slow frame.
void queue_history_key(const SDL_Event& event, headlab::ui::LabUiState& ui) {
  if (event.type != SDL_KEYDOWN || event.key.repeat) return;
  const Uint16 mod = event.key.keysym.mod;
  if (!(mod & (KMOD_CTRL | KMOD_GUI))) return;
  const SDL_Keycode key = event.key.keysym.sym;
  if (key == SDLK_z) ui.history_keys.push_back((mod & KMOD_SHIFT) ? headlab::ui::HistoryKey::redo : headlab::ui::HistoryKey::undo);
  else if (key == SDLK_y) ui.history_keys.push_back(headlab::ui::HistoryKey::redo);
}

// Draws the frame ImGui has just built on the canvas. The clear colour is not in ImGui's draw
// data, but a theme change recolours every window too, so such a frame is never taken as unchanged.
void draw_frame() {
  const ImGuiIO& io = ImGui::GetIO();
  glViewport(0, 0, static_cast<int>(io.DisplaySize.x * io.DisplayFramebufferScale.x),
             static_cast<int>(io.DisplaySize.y * io.DisplayFramebufferScale.y));
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glDisable(GL_SCISSOR_TEST);  // ImGui leaves it on (it does not restore GL state, see CMakeLists.txt)
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void frame(void* arg) {
  Platform& p = *static_cast<Platform*>(arg);
  // ImGui's input queue keeps every key and button transition, in order, with the modifiers of its
  // own event, and spreads them over frames: a key pressed and released between two frames still
  // reaches the widgets as a press. Touch arrives as mouse events marked as touch by the backend.
  SDL_Event event;
  while (SDL_PollEvent(&event)) {
    if (event.type == p.page_text_event) {
      receive_page_text(event);
      continue;
    }
    queue_history_key(event, p.ui);
    ImGui_ImplSDL2_ProcessEvent(&event);
    // A lifted finger hovers nothing: without this the last touched widget would keep its hover
    // and its tooltip until the next touch. ImGui sees the release at the finger first (a tap
    // still clicks), the move away in the next frame.
    if (event.type == SDL_MOUSEBUTTONUP && event.button.which == SDL_TOUCH_MOUSEID)
      ImGui::GetIO().AddMousePosEvent(-FLT_MAX, -FLT_MAX);
  }
  use_whole_cjk_subset_when_needed(p);
  track_window_size(p);
  // Layers left behind by a drag that has paused, a few milliseconds' worth a frame.
  p.controller->catch_up(kCatchUpSeconds, kDragSettleSeconds);
  // Training gets its budget first, so this frame draws the newest steps.
  headlab::app::sync_training(*p.controller, *p.training);
  p.training->advance_frame();
  headlab::app::sync_training(*p.controller, *p.training);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  if (p.state.preferences.theme != p.applied_theme) {
    p.applied_theme = p.state.preferences.theme;
    headlab::ui::apply_theme(p.applied_theme == "light" ? headlab::ui::Theme::light : headlab::ui::Theme::dark, p.pointer, kFontSize);
  }
  headlab::app::Dispatcher dispatcher(*p.controller, p.training);
  headlab::ui::draw_lab_window(dispatcher, p.ui, &p.cell_textures);
  ImGui::Render();
  // An export reads the canvas after this frame's drawing, so that frame is always drawn.
  if (p.ui.pending_export != headlab::ui::ExportKind::none) p.drawn_frame.forget();
  if (p.drawn_frame.differs(*ImGui::GetDrawData(), p.image_uploader.changes())) draw_frame();
  // Exports read the canvas now, while this frame's pixels are still in the drawing buffer.
  handle_export(p);
  mirror_to_live_region(p);
  request_missing_glyphs(p);
  request_text_corpus_when_asked(p);
  fetch_and_open_text_models(p);
  if (ImGui::GetIO().WantTextInput != p.wants_text_input) {
    p.wants_text_input = ImGui::GetIO().WantTextInput;
    set_text_input_active(p.wants_text_input);
  }
  if (!p.first_frame_reported) {
    p.first_frame_reported = true;
    report_first_frame();
  }
}

}  // namespace

extern "C" {

// window.headlab calls this with a JSON request; the returned string stays valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* headlab_call(const char* request) {
  if (!g_platform || !g_platform->controller) return "{\"ok\":false,\"error\":\"HeadLab is still starting\"}";
  g_platform->api_response =
      headlab::api::handle_request(*g_platform->controller, request ? request : "", g_platform->training, &g_platform->checkpoint);
  return g_platform->api_response.c_str();
}

// Screen rectangle (CSS pixels) of a named widget from the last frame, as JSON, or "null".
EMSCRIPTEN_KEEPALIVE const char* headlab_widget_rect(const char* name) {
  if (!g_platform || !name) return "null";
  const auto it = g_platform->ui.widget_rects.find(name);
  if (it == g_platform->ui.widget_rects.end()) return "null";
  const headlab::ui::Rect& r = it->second;
  g_platform->api_response = "{\"x\":" + std::to_string(r.x) + ",\"y\":" + std::to_string(r.y) +
                             ",\"width\":" + std::to_string(r.w) + ",\"height\":" + std::to_string(r.h) + "}";
  return g_platform->api_response.c_str();
}

// Input the lab has received but not yet acted on: events in SDL's queue, and events ImGui's input
// queue keeps for later frames (it applies one change of each key or button per frame, so keys
// typed within one frame land over the next few). Tests wait for 0 before reading the result.
EMSCRIPTEN_KEEPALIVE int headlab_input_pending() {
  const int sdl = SDL_PeepEvents(nullptr, 0, SDL_PEEKEVENT, SDL_FIRSTEVENT, SDL_LASTEVENT);
  const ImGuiContext* context = ImGui::GetCurrentContext();
  return std::max(0, sdl) + (context ? context->InputEventsQueue.Size : 0);
}

// Text the browser inserted into the page's hidden input while a field is active (web/text-input.js):
// typing, input-method commits, emoji.
EMSCRIPTEN_KEEPALIVE void headlab_text_input(const char* utf8) { push_page_text(PageText::typed, utf8); }

// A paste from the system clipboard (web/text-input.js).
EMSCRIPTEN_KEEPALIVE void headlab_paste(const char* utf8) { push_page_text(PageText::pasted, utf8); }

// A font the page fetched (PageFont: the Chinese subset, the common Chinese characters or the emoji)
// and its list of characters, from web/fonts.js; copied, and merged into the UI font when a text
// needs it.
EMSCRIPTEN_KEEPALIVE void headlab_add_font(int kind, const unsigned char* data, int size, const char* chars) {
  if (!g_platform || !data || size <= 0 || !chars) return;
  headlab::ui::FontFiles& fonts = g_platform->fonts;
  if (kind == static_cast<int>(PageFont::cjk_subset)) {
    fonts.cjk_font.assign(data, data + size);
    fonts.cjk_chars = chars;
    fonts.cjk_ranges.clear();
    // An English lab rasterises it only once a text needs Chinese.
    if (fonts.cjk_everything) g_platform->fonts_dirty = true;
  } else if (kind == static_cast<int>(PageFont::cjk_common)) {
    fonts.common_font.assign(data, data + size);
    fonts.common_chars = chars;
    fonts.common_ranges.clear();
    g_platform->fonts_dirty = true;
  } else if (kind == static_cast<int>(PageFont::emoji)) {
    fonts.emoji_font.assign(data, data + size);
    fonts.emoji_chars = chars;
    fonts.emoji_ranges.clear();
    g_platform->fonts_dirty = true;
  }
}

// The shipped trained model (models/trained.json), fetched by web/late-assets.js after the first
// frame. The text is checked when a learner loads it, like any model file.
EMSCRIPTEN_KEEPALIVE void headlab_add_trained_model(const char* json) {
  if (!g_platform || !g_platform->trained_model || !json) return;
  g_platform->trained_model->text = json;
  g_platform->trained_model->arrived = true;
}

// The real-text model (models/text.safetensors), fetched by web/late-assets.js after the first
// frame, from a buffer the page filled. Checked when a learner loads it.
EMSCRIPTEN_KEEPALIVE void headlab_add_text_model(const unsigned char* bytes, int size) {
  if (!g_platform || !g_platform->resources || !bytes || size < 0) return;
  const std::shared_ptr<headlab::app::LateAsset>& slot = g_platform->resources->text_model;
  slot->text.assign(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size));
  slot->arrived = true;
}

// The next bytes of the checkpoint being read (web/checkpoint.js), from a buffer the page filled;
// the reply is {"ok": true} or {"ok": false, "error": ...}, which also ends the reading.
EMSCRIPTEN_KEEPALIVE const char* headlab_checkpoint_feed(const unsigned char* bytes, int size) {
  if (!g_platform || !bytes || size < 0) return "{\"ok\":false,\"error\":\"HeadLab is still starting\"}";
  const std::string error = g_platform->checkpoint.feed(bytes, static_cast<std::size_t>(size));
  g_platform->api_response = error.empty() ? "{\"ok\":true}" : nlohmann::json{{"ok", false}, {"error", error}}.dump();
  return g_platform->api_response.c_str();
}

// HeadLab's text vocabulary (tokenizers/text.json), fetched by web/late-assets.js after the first
// frame. Returns "" or why it was refused.
EMSCRIPTEN_KEEPALIVE const char* headlab_set_text_tokenizer(const char* json) {
  if (!g_platform || !g_platform->resources || !g_platform->controller || !json) return "HeadLab is still starting";
  g_platform->api_response = headlab::app::set_text_tokenizer(*g_platform->resources, json);
  if (g_platform->api_response.empty()) {
    g_platform->state.dirty = true;
    g_platform->controller->catch_up_all();
  }
  return g_platform->api_response.c_str();
}

// GPT-2's encoder.json and vocab.bpe, fetched by web/checkpoint.js when a checkpoint is opened.
// Returns "" or why they were refused. The lab's text is tokenized again with it.
EMSCRIPTEN_KEEPALIVE const char* headlab_set_gpt2_tokenizer(const char* encoder_json, const char* vocab_bpe) {
  if (!g_platform || !g_platform->resources || !g_platform->controller || !encoder_json || !vocab_bpe) return "HeadLab is still starting";
  g_platform->api_response = headlab::app::set_gpt2_tokenizer(*g_platform->resources, encoder_json, vocab_bpe);
  if (g_platform->api_response.empty()) {
    g_platform->state.dirty = true;  // the input is prepared again with the tokenizer that arrived
    g_platform->controller->catch_up_all();
  }
  return g_platform->api_response.c_str();
}

EMSCRIPTEN_KEEPALIVE void headlab_font_failed(const char* reason) {
  if (!g_platform || !g_platform->controller) return;
  g_platform->controller->notify(headlab::app::NoticeLevel::warning, "notice_font_failed", {reason ? reason : ""});
}

}  // extern "C"

int main() {
  mark_startup("headlab-main");
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    report_fatal(SDL_GetError());
    return 1;
  }
  // WebGL2 is OpenGL ES 3.0.
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, 0);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
  SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);

  static Platform platform;
  g_platform = &platform;
  platform.page_text_event = SDL_RegisterEvents(1);
  // web/style.css sizes the canvas to the window, so SDL need not resize it to 1 x 1 to find out
  // (scripts/patches/sdl-canvas-sized-by-css.patch): that reallocated the WebGL drawing buffer the
  // loader made at its final size, twice, before the first frame.
  SDL_SetHint("SDL_EMSCRIPTEN_CANVAS_SIZED_BY_CSS", "1");
  platform.window = SDL_CreateWindow("HeadLab", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                     std::max(320, browser_inner_width()), std::max(240, browser_inner_height()),
                                     SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
  if (!platform.window) {
    report_fatal(SDL_GetError());
    return 1;
  }
  platform.gl = SDL_GL_CreateContext(platform.window);
  if (!platform.gl) {
    report_fatal("WebGL2 context could not be created");
    return 1;
  }
  SDL_GL_MakeCurrent(platform.window, platform.gl);
  SDL_GL_SetSwapInterval(1);

  // Every asset is read and checked here, once; a missing or broken one stops the start with its name.
  headlab::Result<headlab::app::Resources> loaded = headlab::app::load_resources();
  if (!loaded.ok()) {
    report_fatal(loaded.error().c_str());
    return 1;
  }
  static const headlab::app::Resources resources = std::move(loaded).value();
  mark_startup("headlab-resources");
  platform.trained_model = resources.trained_model;
  platform.resources = &resources;
  // What a checkpoint may still take: the heap's limit less what is in use now.
  platform.checkpoint.memory_left = [] {
    const std::uint64_t limit = emscripten_get_heap_max();
    const std::uint64_t used = static_cast<std::uint64_t>(mallinfo().uordblks);
    return limit > used ? limit - used : 0;
  };
  static headlab::app::Controller controller(platform.state, resources);
  platform.controller = &controller;
  static headlab::app::TrainingSession training(resources);
  platform.training = &training;
  // Play trains in a Web Worker; the page only adopts what it reaches (app/training_worker.h).
  static headlab::platform::PageTrainingWorker training_worker(training);
  training.attach_worker(&training_worker);
  mark_startup("headlab-lab");

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // layout is not persisted through files on the web
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  platform.pointer = primary_pointer_is_coarse() ? headlab::ui::Pointer::touch : headlab::ui::Pointer::fine;
  headlab::ui::apply_theme(headlab::ui::Theme::dark, platform.pointer, kFontSize);
  platform.pixel_ratio = static_cast<float>(emscripten_get_device_pixel_ratio());
  platform.fonts.ui_path = "/fonts/ui.ttf";
  platform.fonts.cjk_startup_path = "/fonts/cjk-startup.ttf";
  platform.fonts.cjk_startup_chars = headlab::ui::kLanguageButtonChinese;
  take_downloaded_cjk_fonts();  // a lab opening in Chinese has waited for its font (web/loader.js)
  headlab::ui::load_fonts(platform.fonts, kFontSize, platform.pixel_ratio);
  mark_startup("headlab-fonts");
  ImGui_ImplSDL2_InitForOpenGL(platform.window, platform.gl);
  io.SetClipboardTextFn = set_clipboard_text;
  io.GetClipboardTextFn = get_clipboard_text;
  io.ClipboardUserData = &platform;
  ImGui_ImplOpenGL3_Init("#version 300 es");

  mark_startup("headlab-initialized");
  // The first frame is drawn now rather than at the next animation frame, which would leave the
  // loading screen up for one more frame interval.
  frame(&platform);
  emscripten_set_main_loop_arg(frame, &platform, 0, true);
  return 0;
}

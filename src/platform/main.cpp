// The web platform: SDL2 window with a WebGL2 context, the ImGui backends, the main loop and the
// bridge that window.headlab (web/headlab-api.js) calls. Everything else lives in app/ and ui/.
#include <SDL.h>
#include <SDL_opengles2.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <cmath>
#include <string>

#include "app/api.h"
#include "app/controller.h"
#include "engine/assets.h"
#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "imgui_impl_sdl.h"
#include "ui/lab_window.h"
#include "ui/theme.h"

namespace {

constexpr const char* kFontPath = "/fonts/ui.ttf";
constexpr float kFontSize = 15.0f;

// The browser bridge has no other way to reach the app than a single instance pointer.
struct Platform {
  SDL_Window* window = nullptr;
  SDL_GLContext gl = nullptr;
  headlab::Lexicon lexicon;
  headlab::app::AppState state;
  headlab::app::Controller* controller = nullptr;
  headlab::ui::LabUiState ui;
  float pixel_ratio = 1.0f;
  bool first_frame_reported = false;
  std::string api_response;  // keeps the last response alive for JS to read
};

Platform* g_platform = nullptr;

EM_JS(int, browser_inner_width, (), { return window.innerWidth | 0; });
EM_JS(int, browser_inner_height, (), { return window.innerHeight | 0; });
EM_JS(void, report_first_frame, (), {
  if (Module.onFirstFrame) Module.onFirstFrame();
});
EM_JS(void, report_fatal, (const char* message), {
  if (Module.onFatal) Module.onFatal(UTF8ToString(message));
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
    headlab::ui::load_fonts(kFontPath, kFontSize, ratio);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
}

void frame(void* arg) {
  Platform& p = *static_cast<Platform*>(arg);
  SDL_Event event;
  while (SDL_PollEvent(&event)) ImGui_ImplSDL2_ProcessEvent(&event);
  track_window_size(p);
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  headlab::ui::draw_lab_window(*p.controller, p.ui);
  ImGui::Render();
  const ImGuiIO& io = ImGui::GetIO();
  glViewport(0, 0, static_cast<int>(io.DisplaySize.x * io.DisplayFramebufferScale.x),
             static_cast<int>(io.DisplaySize.y * io.DisplayFramebufferScale.y));
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
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
  g_platform->api_response = headlab::app::handle_request(*g_platform->controller, request ? request : "");
  return g_platform->api_response.c_str();
}

}  // extern "C"

int main() {
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

  std::string lexicon_error;
  platform.lexicon = headlab::load_lexicon(&lexicon_error);
  static headlab::app::Controller controller(platform.state, platform.lexicon);
  platform.controller = &controller;
  if (!lexicon_error.empty()) headlab::app::push_notice(platform.state, headlab::app::NoticeLevel::error, lexicon_error);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // layout is not persisted through files on the web
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  headlab::ui::apply_theme(headlab::ui::Theme::dark);
  platform.pixel_ratio = static_cast<float>(emscripten_get_device_pixel_ratio());
  headlab::ui::load_fonts(kFontPath, kFontSize, platform.pixel_ratio);
  ImGui_ImplSDL2_InitForOpenGL(platform.window, platform.gl);
  ImGui_ImplOpenGL3_Init("#version 300 es");

  emscripten_set_main_loop_arg(frame, &platform, 0, true);
  return 0;
}

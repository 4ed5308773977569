// eglGetProcAddress for the web app, in place of Emscripten's. SDL's EGL layer looks GL functions
// up by name only to probe what HeadLab never relies on (a context current without a surface,
// SDL_GL_ExtensionSupported); ImGui's WebGL2 backend calls GL directly. Emscripten's version
// answers from a table of every WebGL entry point, so linking it keeps a JS wrapper of each (271
// functions) in the module's script whether anything calls them or not. Answering "not available"
// drops them, and SDL takes the path it takes for a missing extension.
extern "C" void* eglGetProcAddress(const char* /*name*/) { return nullptr; }

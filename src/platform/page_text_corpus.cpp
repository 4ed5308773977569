// The real-text sample the head-count experiment trains on (app::LateCorpus): fetched by
// web/late-assets.js when a job asks for it, tokenized here with the text vocabulary.
#include <emscripten.h>

#include "platform.h"

namespace headlab::platform {
namespace {

EM_JS(void, request_text_corpus, (), {
  if (window.headlabLoadTextCorpus) window.headlabLoadTextCorpus();
});

}  // namespace

void request_text_corpus_when_asked(Platform& p) {
  app::LateCorpus& sample = *p.resources->text_corpus;
  if (!sample.requested) return;
  sample.requested = false;
  request_text_corpus();
}

}  // namespace headlab::platform

extern "C" {

// The sample's two splits as text (web/late-assets.js); "" or why they were refused.
EMSCRIPTEN_KEEPALIVE const char* headlab_set_text_corpus(const char* train, const char* held_out) {
  using headlab::platform::g_platform;
  if (!g_platform || !g_platform->resources || !train || !held_out) return "HeadLab is still starting";
  g_platform->api_response = headlab::app::set_text_corpus(*g_platform->resources, train, held_out);
  return g_platform->api_response.c_str();
}

// The sample could not be fetched: the job waiting for it says why.
EMSCRIPTEN_KEEPALIVE const char* headlab_text_corpus_failed(const char* reason) {
  using headlab::platform::g_platform;
  if (g_platform && g_platform->resources)
    g_platform->resources->text_corpus->error = std::string("The text sample could not be downloaded: ") + (reason ? reason : "");
  return "";
}

}  // extern "C"

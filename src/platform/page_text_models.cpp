// The real-text model trained with softmax + 1 or sigmoid attention (app::Resources, lesson 23):
// fetched by web/late-assets.js only once an action asks for it, and opened in the lab when it
// arrives if the action that asked is still waiting for it.
#include <emscripten.h>

#include <cstring>
#include <string>
#include <string_view>

#include "app/action.h"
#include "engine/attention_normalization.h"
#include "platform.h"

namespace headlab::platform {
namespace {

constexpr AttentionNormalization kFetchedLate[] = {AttentionNormalization::softmax_plus_one, AttentionNormalization::sigmoid};

EM_JS(void, request_text_model, (const char* attention), {
  if (window.headlabLoadTextModel) window.headlabLoadTextModel(UTF8ToString(attention));
});

}  // namespace

void fetch_and_open_text_models(Platform& p) {
  for (const AttentionNormalization attention : kFetchedLate) {
    app::LateAsset& slot = *p.resources->text_model_trained_with(attention);
    if (slot.requested) {
      slot.requested = false;
      request_text_model(enum_name(kAttentionNormalizationNames, attention).data());
    }
    if (slot.arrived && slot.open_when_arrived && p.resources->text_tokenizer->tokenizer) {
      slot.open_when_arrived = false;
      p.controller->apply(app::LoadTextModel{attention});
    }
  }
}

}  // namespace headlab::platform

extern "C" {

// The bytes of models/text-<attention>.safetensors, from a buffer the page filled.
EMSCRIPTEN_KEEPALIVE void headlab_add_text_model_trained_with(const char* attention, const unsigned char* bytes, int size) {
  using headlab::platform::g_platform;
  if (!g_platform || !g_platform->resources || !attention || !bytes || size < 0) return;
  const std::optional<headlab::AttentionNormalization> kind = headlab::enum_from_name(headlab::kAttentionNormalizationNames, attention);
  if (!kind) return;
  headlab::app::LateAsset& slot = *g_platform->resources->text_model_trained_with(*kind);
  slot.text.assign(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size));
  slot.arrived = true;
}

// The model could not be fetched: "<attention>\n<why>". An action waiting to open it gives up and
// the learner is told why; the next one that asks fetches it again.
EMSCRIPTEN_KEEPALIVE const char* headlab_text_model_failed(const char* message) {
  using headlab::platform::g_platform;
  if (!g_platform || !g_platform->resources || !message) return "";
  const char* newline = std::strchr(message, '\n');
  if (!newline) return "";
  const std::optional<headlab::AttentionNormalization> kind =
      headlab::enum_from_name(headlab::kAttentionNormalizationNames, std::string_view(message, static_cast<std::size_t>(newline - message)));
  if (!kind) return "";
  headlab::app::LateAsset& slot = *g_platform->resources->text_model_trained_with(*kind);
  slot.open_when_arrived = false;
  g_platform->controller->notify(headlab::app::NoticeLevel::error,
                                 std::string("The real-text model could not be downloaded (your lab is unchanged): ") + (newline + 1));
  return "";
}

}  // extern "C"

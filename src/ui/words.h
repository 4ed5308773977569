#pragma once
// The UI's words in the learner's language: the texts of assets/ui_text.json by key.
#include "app/resources.h"

namespace headlab::ui {

struct Words {
  const app::Resources& resources;
  app::Language language;
  const char* operator()(const char* key) const { return resources.ui_text.get(key, language); }
};

}  // namespace headlab::ui

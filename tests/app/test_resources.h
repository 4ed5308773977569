#pragma once
// The lab's Resources for tests: loaded once per test binary, as the page loads them at start-up.
#include <cstdio>
#include <cstdlib>

#include "app/resources.h"

namespace headlab::app {

inline const Resources& test_resources() {
  static const Resources resources = [] {
    Result<Resources> loaded = load_resources();
    if (!loaded.ok()) {
      std::fprintf(stderr, "the assets do not load: %s\n", loaded.error().c_str());
      std::abort();
    }
    return std::move(loaded).value();
  }();
  return resources;
}

}  // namespace headlab::app

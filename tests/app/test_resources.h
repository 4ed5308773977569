#pragma once
// The lab's Resources for tests: loaded once per test binary, as the page loads them at start-up.
#include <cstdio>
#include <cstdlib>
#include <string>

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

// A small text sample in both languages, many windows long, in place of the page's (the real one
// is cut from the corpus scripts/setup builds): what a text experiment trains on in tests.
inline void give_test_text_sample() {
  std::string train, held_out;
  for (int i = 0; i < 40; ++i) {
    train += "The cat sat on the mat, and the dog slept by the door number " + std::to_string(i) + ".\n";
    train += "我们在第" + std::to_string(i) + "页读到了新的命令和选项。\n";
  }
  for (int i = 0; i < 10; ++i) held_out += "A bird sang in the tree " + std::to_string(i) + " times.\n这是留出的文本。\n";
  const std::string error = set_text_corpus(test_resources(), train, held_out);
  if (!error.empty()) {
    std::fprintf(stderr, "the test text sample does not load: %s\n", error.c_str());
    std::abort();
  }
}

}  // namespace headlab::app

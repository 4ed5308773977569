// "No heap allocation per frame on the hot path" (issue 3, item 8), counted. This binary replaces
// malloc (glibc allows it; operator new and Eigen both end there) with a counting forwarder to
// glibc's own, so a test can count what one frame allocates. Not built under the sanitizers, which
// replace malloc themselves.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "api/benchmark_api.h"
#include "test_resources.h"

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void __libc_free(void* pointer);
}

// Plain C names, so a debugger can break on counted allocations to see where they come from:
//   gdb -ex 'break malloc if g_counting' ... tests/hot_path_allocation_tests
extern "C" {
long g_allocations = 0;  // single-threaded test: no atomics needed
bool g_counting = false;
}

extern "C" {
void* malloc(std::size_t size) {
  if (g_counting) ++g_allocations;
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  if (g_counting) ++g_allocations;
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, std::size_t size) {
  if (g_counting) ++g_allocations;
  return __libc_realloc(pointer, size);
}
void free(void* pointer) { __libc_free(pointer); }
}

namespace headlab::app {
namespace {

// Heap allocations made by `run`.
template <typename Run>
long allocations_in(Run&& run) {
  g_allocations = 0;
  g_counting = true;
  run();
  g_counting = false;
  return g_allocations;
}


TEST(HotPathAllocation, TheCounterSeesNewAndEigen) {
  std::vector<int> numbers;
  Matrix m;
  EXPECT_GE(allocations_in([&] { numbers.assign(100, 1); }), 1);
  EXPECT_GE(allocations_in([&] { m.resize(64, 64); }), 1);
  EXPECT_EQ(numbers.size() + m.size(), 100u + 64 * 64);
}

// A frame with nothing edited: recompute is a no-op.
TEST(HotPathAllocation, IdleFrameAllocatesNothing) {
  api::LessonEdit edit(test_resources(), false);
  AppState state = edit.state();
  EXPECT_EQ(allocations_in([&] { recompute(state, test_resources()); }), 0);
}

// forward() reuses the trace's buffers at the same sizes.
TEST(HotPathAllocation, ForwardAtTheSameSizeAllocatesNothing) {
  api::LessonEdit edit(test_resources(), false);
  const AppState& state = edit.state();
  Trace trace;
  forward(state.document.model, state.input.X, trace);
  EXPECT_EQ(allocations_in([&] { forward(state.document.model, state.input.X, trace); }), 0);
}

// The analysis of an unchanged trace, and after one edit (alternating two models as a drag does).
TEST(HotPathAllocation, AnalysisRecompute) {
  api::LessonEdit edit(test_resources(), false);
  ASSERT_EQ(edit(), "");
  const AppState& state = edit.state();
  const Model model_b = edit.next_model();
  Trace trace_a, trace_b;
  forward(state.document.model, state.input.X, trace_a);
  forward(model_b, state.input.X, trace_b);
  analysis::Analysis out;
  const auto analyze = [&](const Model& model, const Trace& trace) {
    analysis::analyze(model, state.input.tokens, trace, test_resources().analysis, state.analysis_options, out);
  };
  analyze(state.document.model, trace_a);
  analyze(model_b, trace_b);
  EXPECT_EQ(allocations_in([&] { analyze(model_b, trace_b); }), 0) << "unchanged trace";
  EXPECT_EQ(allocations_in([&] { analyze(state.document.model, trace_a); }), 0) << "after one edit";
}

// A whole drag step through the Controller, as the page does per frame while a weight is dragged:
// undo copy (into a kept buffer), the input kept, forward and analysis into reused buffers.
TEST(HotPathAllocation, DragEditFrameAllocatesNothing) {
  for (const bool gold : {false, true})
    for (const int layer : {0, 1}) {
      api::LessonEdit edit(test_resources(), gold, layer);
      ASSERT_EQ(edit(), "");
      ASSERT_EQ(edit(), "");
      EXPECT_EQ(allocations_in([&] { ASSERT_EQ(edit(), ""); }), 0) << "gold " << gold << ", layer " << layer;
      EXPECT_GT(edit.state().analysis.heads_scored, 0);
    }
}

}  // namespace
}  // namespace headlab::app

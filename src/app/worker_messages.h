#pragma once
// The training worker's messages as text: the JSON header of a WorkerRun (its state travels beside
// it as bytes) and of a WorkerUpdate (with its timeline samples). One codec, used by the page, the
// worker and the tests, so both ends of the postMessage agree by construction. Numbers round-trip
// exactly; a loss that is not a number travels as null.
#include <cstdint>
#include <string>
#include <vector>

#include "app/training_worker.h"
#include "engine/result.h"

namespace headlab::app {

std::string encode_run_header(const WorkerRun& run);         // every field but state
Result<WorkerRun> decode_run_header(const std::string& text);  // state left empty

std::string encode_update_header(const WorkerUpdate& update);         // every field but the states
Result<WorkerUpdate> decode_update_header(const std::string& text);  // states left empty

// A comparison's two trainers (Trainer::save_state) as one state: the size of the first, then both.
std::vector<std::uint8_t> pack_comparison_state(const std::vector<std::uint8_t>& many, const std::vector<std::uint8_t>& one);
// Empty `error` on success.
struct ComparisonState {
  std::vector<std::uint8_t> many, one;
  std::string error;
};
ComparisonState unpack_comparison_state(const std::vector<std::uint8_t>& packed);

}  // namespace headlab::app

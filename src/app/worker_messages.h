#pragma once
// The training worker's messages: the JSON header of a WorkerRun (its state travels beside it as
// bytes) and a WorkerUpdate as a header (with its timeline samples and probes) and bytes. One
// codec, used by the page, the worker and the tests, so both ends of the postMessage agree by
// construction. Numbers round-trip exactly; a loss that is not a number travels as null.
#include <cstdint>
#include <string>
#include <vector>

#include "app/training_worker.h"
#include "engine/result.h"

namespace headlab::app {

std::string encode_run_header(const WorkerRun& run);         // every field but state
Result<WorkerRun> decode_run_header(const std::string& text);  // state left empty

// An update travels as a JSON header and one buffer of bytes: the run's state, the comparison's
// and the experiment's, one after another, their sizes in the header.
struct EncodedUpdate {
  std::string header;
  std::vector<std::uint8_t> bytes;
};
EncodedUpdate encode_update(const WorkerUpdate& update);
Result<WorkerUpdate> decode_update(const std::string& header, const std::uint8_t* bytes, std::size_t size);

// A comparison's two trainers (Trainer::save_state) as one state: the size of the first, then both.
std::vector<std::uint8_t> pack_comparison_state(const std::vector<std::uint8_t>& many,
                                                const std::vector<std::uint8_t>& one);
// Empty `error` on success.
struct ComparisonState {
  std::vector<std::uint8_t> many, one;
  std::string error;
};
ComparisonState unpack_comparison_state(const std::vector<std::uint8_t>& packed);

}  // namespace headlab::app

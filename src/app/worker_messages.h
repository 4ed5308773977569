#pragma once
// The training worker's messages as text: the JSON header of a WorkerRun (its state travels beside
// it as bytes) and of a WorkerUpdate (with its timeline samples). One codec, used by the page, the
// worker and the tests, so both ends of the postMessage agree by construction. Numbers round-trip
// exactly; a loss that is not a number travels as null.
#include <string>

#include "app/training_worker.h"
#include "engine/result.h"

namespace headlab::app {

std::string encode_run_header(const WorkerRun& run);         // every field but state
Result<WorkerRun> decode_run_header(const std::string& text);  // state left empty

std::string encode_update_header(const WorkerUpdate& update);         // every field but state
Result<WorkerUpdate> decode_update_header(const std::string& text);  // state left empty

}  // namespace headlab::app

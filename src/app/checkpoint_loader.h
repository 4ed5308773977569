#pragma once
// Opening a GPT-2 checkpoint whose bytes arrive a piece at a time (the page reads a 500 MB file in
// 8 MiB slices): begin with the header and the config, feed the file from byte 0 in order, then
// finish, which hands the model to Controller::open_checkpoint. Nothing of the lab changes before
// finish succeeds: a refused header, a truncated file or a cancel leave the learner's model as it
// was, and free what was read.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "app/controller.h"
#include "engine/gpt2_checkpoint.h"

namespace headlab::app {

struct CheckpointPlan {
  Gpt2Config config;
  std::uint64_t file_bytes = 0;    // the file's size
  std::uint64_t bytes_needed = 0;  // the file up to its last tensor read
  std::uint64_t model_bytes = 0;   // the weights as floats, what the lab will hold
};

class CheckpointLoader {
 public:
  // Reads the safetensors header (`header_json`: the N bytes after the file's first 8) of a file of
  // `file_size` bytes and the config (config.json, or the head count when it is empty) and checks
  // the tensors. `memory_available` (bytes the page may still allocate) refuses a model that would
  // not fit before anything is read (memory_left, when set). Any reading under way is dropped first.
  Result<CheckpointPlan> begin(std::string_view header_json, std::uint64_t file_size, std::string_view config_json,
                               int head_count, std::string name);
  // The next `size` bytes of the file; an error when nothing is being read or past the file's end.
  std::string feed(const std::uint8_t* bytes, std::size_t size);
  // Opens the model in the lab (one undo step); the error ("the file ended before ...") leaves the
  // lab as it was. Reading is over either way.
  std::string finish(Controller& controller);
  void cancel() { reader_.reset(); }

  bool active() const { return reader_ != nullptr; }
  std::uint64_t bytes_fed() const { return reader_ ? reader_->bytes_fed() : 0; }
  const CheckpointPlan& plan() const { return plan_; }

  // Bytes the page may still allocate (the platform's heap limit less what it holds); unset: no limit.
  std::function<std::uint64_t()> memory_left;

 private:
  std::unique_ptr<Gpt2CheckpointReader> reader_;
  CheckpointPlan plan_;
  std::string name_;
};

}  // namespace headlab::app

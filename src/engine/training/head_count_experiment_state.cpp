// HeadCountExperiment::save_state and restore_state: an experiment under way as bytes, so the
// training worker can take it over and hand it back.
//
// Layout, host byte order (little-endian both natively and in WebAssembly):
//   u32 magic "HLHE", u32 version, u64 run count R, u64 current run,
//   R x (i32 steps done, f32 held-out loss, u32 done),
//   the current run's Trainer::save_state (empty when no run is under way).
#include <cstring>

#include "head_count_experiment.h"

namespace headlab::training {
namespace {

constexpr std::uint32_t kMagic = 0x45484C48;  // "HLHE"
constexpr std::uint32_t kVersion = 1;

struct Header {
  std::uint32_t magic;
  std::uint32_t version;
  std::uint64_t run_count;
  std::uint64_t current;
};

struct RunRecord {
  std::int32_t steps_done;
  float held_out_loss;
  std::uint32_t done;
};

}  // namespace

std::vector<std::uint8_t> HeadCountExperiment::save_state() const {
  const Header header{kMagic, kVersion, runs_.size(), current_};
  std::vector<std::uint8_t> out(sizeof header + runs_.size() * sizeof(RunRecord));
  std::memcpy(out.data(), &header, sizeof header);
  for (std::size_t r = 0; r < runs_.size(); ++r) {
    const RunRecord record{runs_[r].steps_done, runs_[r].held_out_loss, runs_[r].done ? 1u : 0u};
    std::memcpy(out.data() + sizeof header + r * sizeof record, &record, sizeof record);
  }
  if (trainer_) {
    const std::vector<std::uint8_t> trainer = trainer_->save_state();
    out.insert(out.end(), trainer.begin(), trainer.end());
  }
  return out;
}

std::string HeadCountExperiment::restore_state(const std::uint8_t* bytes, std::size_t size) {
  Header header;
  if (size < sizeof header) return "experiment state: too short for its header";
  std::memcpy(&header, bytes, sizeof header);
  if (header.magic != kMagic || header.version != kVersion)
    return "experiment state: not an experiment state of this version";
  if (header.run_count != runs_.size())
    return "experiment state: " + std::to_string(header.run_count) + " runs, this experiment has " +
           std::to_string(runs_.size());
  const std::size_t records = sizeof header + runs_.size() * sizeof(RunRecord);
  if (size < records || header.current > runs_.size())
    return "experiment state: " + std::to_string(size) + " bytes do not match its header";
  std::vector<HeadCountRun> runs = runs_;
  for (std::size_t r = 0; r < runs.size(); ++r) {
    RunRecord record;
    std::memcpy(&record, bytes + sizeof header + r * sizeof record, sizeof record);
    if (record.steps_done < 0 || record.steps_done > steps_per_run_)
      return "experiment state: a run's steps are out of range";
    runs[r].steps_done = record.steps_done;
    runs[r].held_out_loss = record.held_out_loss;
    runs[r].done = record.done != 0;
  }
  std::optional<Trainer> trainer;
  if (size > records) {
    if (header.current >= runs.size()) return "experiment state: a trainer but no run under way";
    Result<Trainer> created = make_trainer(runs[header.current]);
    if (!created.ok()) return created.error();
    if (std::string e = created.value().restore_state(bytes + records, size - records); !e.empty()) return e;
    trainer = std::move(created).value();
  }
  runs_ = std::move(runs);
  current_ = header.current;
  trainer_ = std::move(trainer);
  return {};
}

}  // namespace headlab::training

// Trainer::save_state and restore_state: a run as bytes.
//
// Layout, host byte order (little-endian both natively and in WebAssembly):
//   u32 magic "HLTS", u32 version, u64 parameter count P, u64 steps S, i64 Adam step,
//   u64 data stream state, f32 peak learning rate,
//   P floats of weights, P of Adam's first moment, P of its second, S losses.
#include <cstring>

#include "parameters.h"
#include "trainer.h"

namespace headlab::training {
namespace {

constexpr std::uint32_t kMagic = 0x53544C48;  // "HLTS"
constexpr std::uint32_t kVersion = 1;

struct Header {
  std::uint32_t magic;
  std::uint32_t version;
  std::uint64_t parameter_count;
  std::uint64_t steps;
  std::int64_t adam_step;
  std::uint64_t data_rng_state;
  float learning_rate;
};

void append_tensors(std::vector<std::uint8_t>& out, const std::vector<ParameterView>& views) {
  for (const ParameterView& view : views) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(view.data);
    out.insert(out.end(), bytes, bytes + view.size * sizeof(float));
  }
}

const std::uint8_t* read_tensors(const std::uint8_t* in, const std::vector<ParameterView>& views) {
  for (const ParameterView& view : views) {
    std::memcpy(view.data, in, view.size * sizeof(float));
    in += view.size * sizeof(float);
  }
  return in;
}

}  // namespace

std::vector<std::uint8_t> Trainer::save_state() const {
  // parameters() needs a mutable model only to hand out writable views; nothing is written here.
  auto& self = const_cast<Trainer&>(*this);
  const std::vector<ParameterView> weights = parameters(self.model_), first = parameters(self.adam_.first_moment),
                                   second = parameters(self.adam_.second_moment);
  const Header header{kMagic,
                      kVersion,
                      static_cast<std::uint64_t>(parameter_count(model_)),
                      loss_history_.size(),
                      adam_.step,
                      data_rng_.state(),
                      config_.learning_rate};
  std::vector<std::uint8_t> out(sizeof header);
  std::memcpy(out.data(), &header, sizeof header);
  out.reserve(sizeof header + (3 * header.parameter_count + header.steps) * sizeof(float));
  append_tensors(out, weights);
  append_tensors(out, first);
  append_tensors(out, second);
  const auto* losses = reinterpret_cast<const std::uint8_t*>(loss_history_.data());
  out.insert(out.end(), losses, losses + loss_history_.size() * sizeof(float));
  return out;
}

std::string Trainer::restore_state(const std::uint8_t* bytes, std::size_t size) {
  Header header;
  if (size < sizeof header) return "trainer state: too short for its header";
  std::memcpy(&header, bytes, sizeof header);
  if (header.magic != kMagic || header.version != kVersion) return "trainer state: not a trainer state of this version";
  const std::uint64_t parameters_here = static_cast<std::uint64_t>(parameter_count(model_));
  if (header.parameter_count != parameters_here)
    return "trainer state: " + std::to_string(header.parameter_count) + " parameters, this model has " +
           std::to_string(parameters_here);
  // Sizes are checked before any multiplication can wrap: S is bounded by the bytes there are.
  const std::uint64_t body = size - sizeof header;
  if (header.steps > body / sizeof(float) || (3 * header.parameter_count + header.steps) * sizeof(float) != body)
    return "trainer state: " + std::to_string(size) + " bytes do not match its header";
  const std::uint8_t* in = bytes + sizeof header;
  in = read_tensors(in, parameters(model_));
  in = read_tensors(in, parameters(adam_.first_moment));
  in = read_tensors(in, parameters(adam_.second_moment));
  loss_history_.resize(header.steps);
  std::memcpy(loss_history_.data(), in, header.steps * sizeof(float));
  adam_.step = header.adam_step;
  data_rng_ = Rng::from_state(header.data_rng_state);
  config_.learning_rate = header.learning_rate;
  return {};
}

}  // namespace headlab::training

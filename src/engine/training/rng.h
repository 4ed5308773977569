#pragma once
// A small deterministic random generator for training: the same seed gives the same sentences,
// masks and initial weights natively and in WebAssembly. (std::normal_distribution and
// std::uniform_int_distribution are implementation-defined, so libstdc++ and Emscripten's libc++
// would disagree; this generator is fully specified.)
//
// splitmix64 (Steele, Lea & Flood 2014, "Fast splittable pseudorandom number generators").
#include <cmath>
#include <cstdint>

namespace headlab::training {

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 1) : state_(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull) {}

  std::uint64_t next_u64() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, 1) with 24 random bits (exact in float).
  float uniform() { return static_cast<float>(next_u64() >> 40) * (1.0f / 16777216.0f); }

  // Uniform integer in [0, count); count > 0. The modulo bias is below 2^-40 for our counts.
  int below(int count) { return static_cast<int>(next_u64() % static_cast<std::uint64_t>(count)); }

  // Standard normal (Box-Muller), computed in double so both platforms round the same way.
  float normal() {
    const double u1 = (static_cast<double>(next_u64() >> 11) + 1.0) * (1.0 / 9007199254740993.0);
    const double u2 = static_cast<double>(next_u64() >> 11) * (1.0 / 9007199254740992.0);
    return static_cast<float>(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
  }

  bool chance(float probability) { return uniform() < probability; }

  // The whole state, so a trainer can be saved and resumed on the same stream.
  std::uint64_t state() const { return state_; }
  static Rng from_state(std::uint64_t state) {
    Rng rng;
    rng.state_ = state;
    return rng;
  }

 private:
  std::uint64_t state_;
};

// Derives an independent stream seed from a seed and a purpose tag ("data", "init", ...).
inline std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t tag) {
  Rng mixer(seed ^ (tag * 0xD1B54A32D192ED03ull));
  return mixer.next_u64();
}

}  // namespace headlab::training

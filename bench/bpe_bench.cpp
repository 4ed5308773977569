// GPT-2's byte-level BPE on a 100,000-character paste (the longest text the page accepts is far
// shorter, so this bounds what a learner can wait for): mixed English, Chinese, digits and emoji,
// and the worst case for the merge loop, 100,000 Chinese characters with no space (one piece of
// 300,000 bytes under GPT-2's pattern).
#include <benchmark/benchmark.h>

#include <fstream>
#include <iterator>
#include <string>

#include "engine/bpe/bpe_files.h"
#include "engine/bpe/bpe_tokenizer.h"

namespace {

using namespace headlab::bpe;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

const BpeTokenizer& gpt2() {
  static const BpeTokenizer tokenizer = [] {
    const std::string dir = HEADLAB_GPT2_TOKENIZER_DIR;
    auto read = read_gpt2_tokenizer(read_file(dir + "/encoder.json"), read_file(dir + "/vocab.bpe"));
    if (!read.ok()) std::abort();
    return std::move(read).value();
  }();
  return tokenizer;
}

// `characters` code points of `unit` repeated, cut at a character boundary.
std::string paste(const std::string& unit, std::size_t characters) {
  std::string text;
  std::size_t count = 0;
  while (count < characters)
    for (std::size_t i = 0; i < unit.size() && count < characters; ++count) {
      std::size_t length = 1;
      while (i + length < unit.size() && (static_cast<unsigned char>(unit[i + length]) & 0xC0) == 0x80) ++length;
      text.append(unit, i, length);
      i += length;
    }
  return text;
}

void BM_Gpt2LoadFiles(benchmark::State& state) {
  const std::string dir = HEADLAB_GPT2_TOKENIZER_DIR;
  const std::string encoder = read_file(dir + "/encoder.json"), merges = read_file(dir + "/vocab.bpe");
  for (auto _ : state) benchmark::DoNotOptimize(read_gpt2_tokenizer(encoder, merges).ok());
}
BENCHMARK(BM_Gpt2LoadFiles)->Unit(benchmark::kMillisecond);

void BM_Gpt2EncodeMixedPaste(benchmark::State& state) {
  const std::string text = paste(
      "My grandmother baked fresh bread for the neighbours yesterday. It's 3.14, isn't it? "
      "我喜欢自然语言处理，注意力头很有意思。 👋🏽 Tiếng Việt  café\n\t", 100000);
  for (auto _ : state) benchmark::DoNotOptimize(encode(gpt2(), text).ids.size());
  state.counters["tokens"] = static_cast<double>(encode(gpt2(), text).ids.size());
}
BENCHMARK(BM_Gpt2EncodeMixedPaste)->Unit(benchmark::kMillisecond);

void BM_Gpt2EncodeOneLongPiece(benchmark::State& state) {
  const std::string text = paste("我喜欢自然语言处理注意力头很有意思", 100000);
  for (auto _ : state) benchmark::DoNotOptimize(encode(gpt2(), text).ids.size());
  state.counters["tokens"] = static_cast<double>(encode(gpt2(), text).ids.size());
}
BENCHMARK(BM_Gpt2EncodeOneLongPiece)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

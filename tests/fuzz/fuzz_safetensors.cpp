// libFuzzer: safetensors files as HeadLab opens them. The bytes are a whole file: its index is read;
// when it reads, the file is opened as a GPT-2 checkpoint (2 heads unless a config says otherwise;
// the bytes fed in two pieces, split where the first byte says) and as one of HeadLab's compact
// models. Whatever comes, nothing traps or reads outside the file, and a model that opens has the
// shapes its config promises.
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "engine/gpt2_checkpoint.h"
#include "engine/safetensors.h"
#include "engine/tensor_model_file.h"

namespace {

using namespace headlab;

void check(bool condition) {
  if (!condition) std::abort();
}

void open_as_gpt2(const std::vector<std::uint8_t>& file, const SafetensorsIndex& index, std::size_t split) {
  const Result<Gpt2Config> config = gpt2_config_from_tensors(index, 2);
  if (!config.ok()) return;
  auto reader = Gpt2CheckpointReader::open(index, config.value());
  if (!reader.ok()) return;
  split = std::min(split, file.size());
  reader.value()->feed(file.data(), split);
  reader.value()->feed(file.data() + split, file.size() - split);
  const Result<Model> model = reader.value()->finish();
  check(model.ok());
  check(static_cast<int>(model.value().layers.size()) == config.value().layer_count);
  check(model.value().token_embedding.rows() == config.value().vocab_size);
  for (const Layer& layer : model.value().layers)
    check(layer.head_count() == 2 && layer.heads[1].W_V.cols() == config.value().d_model / 2 && layer.b_O.size() == config.value().d_model);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> file(data, data + size);
  const Result<SafetensorsIndex> index = read_safetensors_index(file.data(), file.size());
  if (index.ok()) {
    for (const TensorEntry& t : index.value().tensors) check(t.begin <= t.end && t.end <= size);
    open_as_gpt2(file, index.value(), size > 0 ? data[0] * size / 256 : 0);
  }
  const Result<Document> model = read_tensor_model(file.data(), file.size());
  if (model.ok()) check(!model.value().model.layers.empty());
  return 0;
}

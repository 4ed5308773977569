#include "app/checkpoint_loader.h"

#include <algorithm>
#include <utility>

namespace headlab::app {
namespace {

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// What the reader decodes: every float tensor but the tied output copy and the mask buffers.
bool is_read(const TensorEntry& entry) {
  return entry.type != TensorType::other && !ends_with(entry.name, "lm_head.weight") && !ends_with(entry.name, "attn.bias") &&
         !ends_with(entry.name, "attn.masked_bias");
}

std::string megabytes(std::uint64_t bytes) { return std::to_string((bytes + (1 << 19)) >> 20) + " MB"; }

}  // namespace

Result<CheckpointPlan> CheckpointLoader::begin(std::string_view header_json, std::uint64_t file_size, std::string_view config_json,
                                               int head_count, std::string name) {
  using R = Result<CheckpointPlan>;
  reader_.reset();
  Result<SafetensorsIndex> index = read_safetensors_index(header_json, file_size);
  if (!index.ok()) return R::failure("model.safetensors: " + index.error());
  Result<Gpt2Config> config = config_json.empty() ? gpt2_config_from_tensors(index.value(), head_count) : read_gpt2_config(config_json);
  if (!config.ok()) return R::failure((config_json.empty() ? "" : "config.json: ") + config.error());
  CheckpointPlan plan;
  plan.config = config.value();
  plan.file_bytes = file_size;
  std::uint64_t largest = 0;
  for (const TensorEntry& entry : index.value().tensors)
    if (is_read(entry)) {
      plan.model_bytes += entry.element_count() * sizeof(float);
      largest = std::max<std::uint64_t>(largest, entry.element_count() * sizeof(float));
    }
  // The reader holds one tensor twice while it moves it into the model.
  const std::uint64_t memory_available = memory_left ? memory_left() : ~std::uint64_t{0};
  if (plan.model_bytes + largest > memory_available)
    return R::failure("this model needs about " + megabytes(plan.model_bytes + largest) + " of memory to open and the page has " +
                      megabytes(memory_available) + " left: a smaller model (distilgpt2, GPT-2 small) fits");
  Result<std::unique_ptr<Gpt2CheckpointReader>> reader = Gpt2CheckpointReader::open(std::move(index).value(), plan.config);
  if (!reader.ok()) return R::failure("model.safetensors" + std::string(config_json.empty() ? "" : " and config.json") + ": " + reader.error());
  reader_ = std::move(reader).value();
  plan.bytes_needed = reader_->bytes_needed();
  plan_ = plan;
  name_ = std::move(name);
  return plan;
}

std::string CheckpointLoader::feed(const std::uint8_t* bytes, std::size_t size) {
  if (!reader_) return "no checkpoint is being read (checkpointBegin first)";
  if (reader_->bytes_fed() + size > plan_.file_bytes) {
    reader_.reset();
    return "model.safetensors: more bytes than the file's size";
  }
  reader_->feed(bytes, size);
  return {};
}

std::string CheckpointLoader::finish(Controller& controller) {
  if (!reader_) return "no checkpoint is being read (checkpointBegin first)";
  std::unique_ptr<Gpt2CheckpointReader> reader = std::move(reader_);
  Result<Model> model = reader->finish();
  reader.reset();  // its copy of the index and stream go before the lab grows
  if (!model.ok()) return "model.safetensors: " + model.error();
  controller.open_checkpoint(std::move(model).value(), name_);
  return {};
}

}  // namespace headlab::app

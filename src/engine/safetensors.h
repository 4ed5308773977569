#pragma once
// Reading Hugging Face's safetensors files: an 8-byte little-endian header length N, N bytes of
// UTF-8 JSON naming each tensor's dtype, shape and byte range, then the raw row-major data
// (huggingface/safetensors, "Format"). Nothing here trusts the file: overlapping or out-of-range
// byte ranges, shapes that do not match their byte length and headers past the end are refused
// with a message naming the tensor.
//
// The data can arrive in pieces (a page reads a 500 MB file a chunk at a time): TensorStream
// decodes each chunk straight into the tensors it was asked for, so the file itself is never held.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "result.h"

namespace headlab {

// F32, F16 and BF16 are read; any other dtype (I64 mask buffers, say) is listed but cannot be decoded.
enum class TensorType { f32, f16, bf16, other };

struct TensorEntry {
  std::string name;
  std::string dtype;           // as written: "F32", "F16", "BF16", "I64", ...
  TensorType type = TensorType::other;
  std::vector<std::int64_t> shape;
  std::uint64_t begin = 0;     // byte range in the file (the data_offsets moved past the header)
  std::uint64_t end = 0;
  std::uint64_t element_count() const;
};

struct SafetensorsIndex {
  std::uint64_t header_bytes = 0;    // 8 + N: where the data starts
  std::vector<TensorEntry> tensors;  // in file order (by begin)
  std::vector<std::pair<std::string, std::string>> metadata;  // __metadata__'s string members
  // nullptr when there is no tensor of that name.
  const TensorEntry* find(std::string_view name) const;
};

// The 8 + N bytes the header occupies, from the file's first 8 bytes; refuses a header that would
// run past `file_size` or is unreasonably large (over 100 MB of JSON).
Result<std::uint64_t> safetensors_header_size(const std::uint8_t* first_eight, std::uint64_t file_size);
// The index from the header's N bytes of JSON (after the first 8) and the file's size.
Result<SafetensorsIndex> read_safetensors_index(std::string_view header_json, std::uint64_t file_size);
// The whole file in memory: size, then index.
Result<SafetensorsIndex> read_safetensors_index(const std::uint8_t* file, std::uint64_t file_size);

// Bytes per element of a decodable type (4, 2, 2).
int tensor_element_bytes(TensorType type);
// `count` little-endian elements of `type` at `bytes` as floats (F16 subnormals, infinities and
// NaN kept as such; BF16 is the top half of a float).
void decode_tensor(TensorType type, const std::uint8_t* bytes, std::size_t count, float* out);
// The other way: floats as little-endian F32, F16 or BF16 (rounded to nearest, ties to even), appended to `out`.
void encode_tensor(TensorType type, const float* values, std::size_t count, std::vector<std::uint8_t>& out);

struct TensorToWrite {
  std::string name;
  std::vector<std::int64_t> shape;
  const float* values = nullptr;  // product of shape
};
// A whole safetensors file: the tensors in the order given, each as `type`, and `metadata` in
// __metadata__.
std::vector<std::uint8_t> write_safetensors(const std::vector<TensorToWrite>& tensors, TensorType type,
                                            const std::vector<std::pair<std::string, std::string>>& metadata);

// Feeds a file's bytes, in order and in pieces of any size, into float tensors. Each wanted tensor
// is decoded as its bytes arrive straight into memory its caller gives (the model's own matrix,
// say), so a 500 MB checkpoint is written once and never held twice.
class TensorStream {
 public:
  // Where a tensor's element_count() floats go; asked once, when its first byte arrives (or at
  // once for a tensor of no elements). The memory stays the caller's.
  using Target = std::function<float*(const TensorEntry& entry)>;
  // The tensor's floats are all at its target.
  using Done = std::function<void(const TensorEntry& entry)>;
  // `wanted` names tensors of `index` (decodable types; the caller checked them).
  TensorStream(const SafetensorsIndex& index, const std::vector<std::string>& wanted, Target target, Done on_tensor);
  // The next `size` bytes of the file (the first call starts at byte 0, header included).
  void feed(const std::uint8_t* bytes, std::size_t size);
  std::uint64_t bytes_fed() const { return fed_; }
  // Every wanted tensor is complete.
  bool done() const { return completed_ == pending_.size(); }

 private:
  struct Pending {
    const TensorEntry* entry;
    float* values = nullptr;     // its target, once asked
    std::uint8_t carry[4] = {};  // bytes of an element split between two pieces
    int carried = 0;
    std::size_t decoded = 0;     // elements written so far
  };
  void feed_tensor(Pending& tensor, const std::uint8_t* bytes, std::uint64_t from, std::uint64_t to);

  std::vector<Pending> pending_;  // by begin
  std::size_t next_ = 0;          // first tensor not yet complete
  std::size_t completed_ = 0;
  std::uint64_t fed_ = 0;
  Target target_;
  Done on_tensor_;
};

}  // namespace headlab

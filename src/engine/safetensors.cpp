#include "safetensors.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>

#include "json_reader.h"

namespace headlab {
namespace {

using json = nlohmann::json;

constexpr std::uint64_t kMaxHeaderJson = 100ull << 20;

struct DtypeInfo {
  const char* name;
  TensorType type;
  int bytes;  // 0: unknown width, the byte length is not checked
};
constexpr DtypeInfo kDtypes[] = {
    {"F32", TensorType::f32, 4},   {"F16", TensorType::f16, 2},   {"BF16", TensorType::bf16, 2},
    {"F64", TensorType::other, 8}, {"I64", TensorType::other, 8}, {"I32", TensorType::other, 4},
    {"I16", TensorType::other, 2}, {"I8", TensorType::other, 1},  {"U8", TensorType::other, 1},
    {"BOOL", TensorType::other, 1}};

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const int exponent = (h >> 10) & 0x1F;
  std::uint32_t mantissa = h & 0x3FFu;
  std::uint32_t bits = 0;
  if (exponent == 0x1F) {
    bits = sign | 0x7F800000u | (mantissa << 13);  // infinity or NaN
  } else if (exponent != 0) {
    bits = sign | (static_cast<std::uint32_t>(exponent - 15 + 127) << 23) | (mantissa << 13);
  } else if (mantissa != 0) {
    // Subnormal half: normalise it (every one is a normal float).
    int e = -14;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      --e;
    }
    mantissa &= 0x3FFu;
    bits = sign | (static_cast<std::uint32_t>(e + 127) << 23) | (mantissa << 13);
  } else {
    bits = sign;
  }
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

std::uint32_t float_bits(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

std::uint16_t float_to_half(float value) {
  const std::uint32_t bits = float_bits(value);
  const std::uint16_t sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const std::uint32_t magnitude = bits & 0x7FFFFFFFu;
  if (magnitude > 0x7F800000u) return static_cast<std::uint16_t>(sign | 0x7E00u);  // NaN
  if (magnitude >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // rounds past 65504: infinity
  if (magnitude < 0x38800000u) {
    // Subnormal half (or zero): the value in units of 2^-24, rounded to nearest even.
    const float scaled = std::fabs(value) * 16777216.0f;
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(std::nearbyint(scaled)));
  }
  // Normal: rebias the exponent, round the 13 dropped mantissa bits to nearest even.
  const std::uint32_t rebased = magnitude - (112u << 23);
  const std::uint32_t rounded = rebased + 0x0FFFu + ((rebased >> 13) & 1u);
  return static_cast<std::uint16_t>(sign | (rounded >> 13));
}

bool host_is_little_endian() {
  const std::uint32_t one = 1;
  std::uint8_t first = 0;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

float bits_to_float(std::uint32_t bits) {
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

}  // namespace

std::uint64_t TensorEntry::element_count() const {
  std::uint64_t count = 1;
  for (std::int64_t d : shape) count *= static_cast<std::uint64_t>(d);
  return count;
}

const TensorEntry* SafetensorsIndex::find(std::string_view name) const {
  for (const TensorEntry& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

Result<std::uint64_t> safetensors_header_size(const std::uint8_t* first_eight, std::uint64_t file_size) {
  using R = Result<std::uint64_t>;
  if (file_size < 8) return R::failure("not a safetensors file: " + std::to_string(file_size) + " bytes, shorter than its 8-byte header length");
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | first_eight[i];
  if (n < 2 || n > kMaxHeaderJson)
    return R::failure("not a safetensors file: its header length says " + std::to_string(n) + " bytes");
  if (n > file_size - 8)
    return R::failure("the file is cut short: its header needs " + std::to_string(n + 8) + " bytes, the file has " +
                      std::to_string(file_size));
  return n + 8;
}

Result<SafetensorsIndex> read_safetensors_index(std::string_view header_json, std::uint64_t file_size) {
  using R = Result<SafetensorsIndex>;
  SafetensorsIndex index;
  index.header_bytes = 8 + header_json.size();
  if (index.header_bytes > file_size) return R::failure("the file is cut short inside its header");
  const std::uint64_t data_bytes = file_size - index.header_bytes;
  const json doc = json::parse(header_json.begin(), header_json.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return R::failure("the safetensors header is not a JSON object");
  JsonReader r;
  for (const auto& [name, entry] : doc.items()) {
    if (name == "__metadata__") {
      if (!entry.is_object()) return R::failure("__metadata__: expected an object of strings");
      for (const auto& [key, value] : entry.items())
        if (value.is_string()) index.metadata.emplace_back(key, value.get<std::string>());
      continue;
    }
    const std::string path = json_path("", name);
    TensorEntry t;
    t.name = name;
    if (!r.string(r.field(entry, path, "dtype"), json_path(path, "dtype"), t.dtype, true, 16)) return R::failure(r.error());
    int element_bytes = 0;
    for (const DtypeInfo& d : kDtypes)
      if (t.dtype == d.name) {
        t.type = d.type;
        element_bytes = d.bytes;
      }
    const json* shape = r.array(r.field(entry, path, "shape"), json_path(path, "shape"), 0, 8, "dimensions");
    if (!shape) return R::failure(r.error());
    std::uint64_t count = 1;
    for (std::size_t i = 0; i < shape->size(); ++i) {
      long long d = 0;
      if (!r.integer(&(*shape)[i], json_path(json_path(path, "shape"), i), 0, 1ll << 40, d)) return R::failure(r.error());
      t.shape.push_back(d);
      if (d != 0 && count > std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(d))
        return R::failure(path + ".shape: too many elements");
      count *= static_cast<std::uint64_t>(d);
    }
    const json* offsets = r.array(r.field(entry, path, "data_offsets"), json_path(path, "data_offsets"), 2, 2, "offsets");
    long long begin = 0, end = 0;
    if (!offsets || !r.integer(&(*offsets)[0], json_path(path, "data_offsets[0]"), 0, 1ll << 62, begin) ||
        !r.integer(&(*offsets)[1], json_path(path, "data_offsets[1]"), 0, 1ll << 62, end))
      return R::failure(r.error());
    if (end < begin) return R::failure(path + ".data_offsets: ends before it begins");
    if (static_cast<std::uint64_t>(end) > data_bytes)
      return R::failure("the file is cut short: " + path + " needs " + std::to_string(end) + " bytes of tensor data, the file has " +
                        std::to_string(data_bytes));
    if (element_bytes > 0 && count > (static_cast<std::uint64_t>(end - begin)) / element_bytes + 1)
      return R::failure(path + ": shape has " + std::to_string(count) + " elements, its bytes hold " +
                        std::to_string((end - begin) / element_bytes));
    if (element_bytes > 0 && count * element_bytes != static_cast<std::uint64_t>(end - begin))
      return R::failure(path + ": shape has " + std::to_string(count) + " elements of " + std::to_string(element_bytes) +
                        " bytes, its data has " + std::to_string(end - begin) + " bytes");
    t.begin = index.header_bytes + static_cast<std::uint64_t>(begin);
    t.end = index.header_bytes + static_cast<std::uint64_t>(end);
    index.tensors.push_back(std::move(t));
  }
  std::sort(index.tensors.begin(), index.tensors.end(),
            [](const TensorEntry& a, const TensorEntry& b) { return a.begin != b.begin ? a.begin < b.begin : a.end < b.end; });
  for (std::size_t i = 1; i < index.tensors.size(); ++i)
    if (index.tensors[i].begin < index.tensors[i - 1].end)
      return R::failure(index.tensors[i].name + ": its bytes overlap those of " + index.tensors[i - 1].name);
  return index;
}

Result<SafetensorsIndex> read_safetensors_index(const std::uint8_t* file, std::uint64_t file_size) {
  const Result<std::uint64_t> size = safetensors_header_size(file, file_size);
  if (!size.ok()) return Result<SafetensorsIndex>::failure(size.error());
  return read_safetensors_index(std::string_view(reinterpret_cast<const char*>(file) + 8, size.value() - 8), file_size);
}

int tensor_element_bytes(TensorType type) {
  switch (type) {
    case TensorType::f32: return 4;
    case TensorType::f16:
    case TensorType::bf16: return 2;
    case TensorType::other: break;
  }
  return 0;
}

void decode_tensor(TensorType type, const std::uint8_t* bytes, std::size_t count, float* out) {
  switch (type) {
    case TensorType::f32:
      // On a little-endian machine (WebAssembly is one) the bytes are the floats already.
      if (host_is_little_endian()) {
        std::memcpy(out, bytes, count * sizeof(float));
        break;
      }
      for (std::size_t i = 0; i < count; ++i, bytes += 4)
        out[i] = bits_to_float(std::uint32_t{bytes[0]} | std::uint32_t{bytes[1]} << 8 | std::uint32_t{bytes[2]} << 16 |
                               std::uint32_t{bytes[3]} << 24);
      break;
    case TensorType::f16:
      for (std::size_t i = 0; i < count; ++i, bytes += 2)
        out[i] = half_to_float(static_cast<std::uint16_t>(bytes[0] | bytes[1] << 8));
      break;
    case TensorType::bf16:
      for (std::size_t i = 0; i < count; ++i, bytes += 2)
        out[i] = bits_to_float((std::uint32_t{bytes[0]} | std::uint32_t{bytes[1]} << 8) << 16);
      break;
    case TensorType::other: break;
  }
}

void encode_tensor(TensorType type, const float* values, std::size_t count, std::vector<std::uint8_t>& out) {
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t bits = 0;
    int bytes = 4;
    if (type == TensorType::f32) {
      bits = float_bits(values[i]);
    } else if (type == TensorType::f16) {
      bits = float_to_half(values[i]);
      bytes = 2;
    } else {
      const std::uint32_t f = float_bits(values[i]);
      bits = (f & 0x7FFFFFFFu) > 0x7F800000u ? ((f >> 16) | 0x40u) : (f + 0x7FFFu + ((f >> 16) & 1u)) >> 16;
      bytes = 2;
    }
    for (int b = 0; b < bytes; ++b) out.push_back(static_cast<std::uint8_t>(bits >> (8 * b)));
  }
}

std::vector<std::uint8_t> write_safetensors(const std::vector<TensorToWrite>& tensors, TensorType type,
                                            const std::vector<std::pair<std::string, std::string>>& metadata) {
  const char* dtype = type == TensorType::f32 ? "F32" : type == TensorType::f16 ? "F16" : "BF16";
  json header = json::object();
  std::uint64_t offset = 0;
  for (const TensorToWrite& t : tensors) {
    std::uint64_t count = 1;
    for (std::int64_t d : t.shape) count *= static_cast<std::uint64_t>(d);
    const std::uint64_t bytes = count * static_cast<std::uint64_t>(tensor_element_bytes(type));
    header[t.name] = {{"dtype", dtype}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  if (!metadata.empty()) {
    json meta = json::object();
    for (const auto& [key, value] : metadata) meta[key] = value;
    header["__metadata__"] = meta;
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // the data starts 8-byte aligned
  std::vector<std::uint8_t> out;
  out.reserve(8 + text.size() + offset);
  for (int b = 0; b < 8; ++b) out.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(text.size()) >> (8 * b)));
  out.insert(out.end(), text.begin(), text.end());
  for (const TensorToWrite& t : tensors) {
    std::uint64_t count = 1;
    for (std::int64_t d : t.shape) count *= static_cast<std::uint64_t>(d);
    encode_tensor(type, t.values, static_cast<std::size_t>(count), out);
  }
  return out;
}

TensorStream::TensorStream(const SafetensorsIndex& index, const std::vector<std::string>& wanted, Target target, Done on_tensor)
    : target_(std::move(target)), on_tensor_(std::move(on_tensor)) {
  for (const TensorEntry& t : index.tensors)
    if (tensor_element_bytes(t.type) > 0 && std::find(wanted.begin(), wanted.end(), t.name) != wanted.end())
      pending_.push_back({&t});
  // A tensor of no elements is complete before anything arrives.
  for (Pending& p : pending_)
    if (p.entry->element_count() == 0) {
      ++completed_;
      p.values = target_(*p.entry);
      on_tensor_(*p.entry);
    }
}

void TensorStream::feed(const std::uint8_t* bytes, std::size_t size) {
  const std::uint64_t start = fed_;
  const std::uint64_t stop = fed_ + size;
  fed_ = stop;
  for (std::size_t i = next_; i < pending_.size(); ++i) {
    Pending& p = pending_[i];
    if (p.entry->begin >= stop) break;
    const std::uint64_t from = std::max(start, p.entry->begin);
    const std::uint64_t to = std::min(stop, p.entry->end);
    if (from < to) feed_tensor(p, bytes + (from - start), from, to);
  }
  while (next_ < pending_.size() && pending_[next_].entry->end <= stop &&
         pending_[next_].decoded == pending_[next_].entry->element_count())
    ++next_;
}

void TensorStream::feed_tensor(Pending& p, const std::uint8_t* bytes, std::uint64_t from, std::uint64_t to) {
  const TensorEntry& t = *p.entry;
  const std::size_t count = static_cast<std::size_t>(t.element_count());
  if (!p.values) p.values = target_(t);
  const int width = tensor_element_bytes(t.type);
  std::size_t size = static_cast<std::size_t>(to - from);
  // Finish an element the last piece split.
  while (p.carried > 0 && p.carried < width && size > 0) {
    p.carry[p.carried++] = *bytes++;
    --size;
    if (p.carried == width) {
      decode_tensor(t.type, p.carry, 1, p.values + p.decoded++);
      p.carried = 0;
    }
  }
  const std::size_t whole = size / width;
  decode_tensor(t.type, bytes, whole, p.values + p.decoded);
  p.decoded += whole;
  for (std::size_t k = whole * width; k < size && p.carried < 4; ++k) p.carry[p.carried++] = bytes[k];
  if (p.decoded == count && to == t.end) {
    ++completed_;
    on_tensor_(t);
  }
}

}  // namespace headlab

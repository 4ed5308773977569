#include "engine/safetensors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace headlab {
namespace {

// A file with `header` as its JSON and `data_bytes` zero bytes of data.
std::vector<std::uint8_t> file_with(const std::string& header, std::size_t data_bytes) {
  std::vector<std::uint8_t> file(8 + header.size() + data_bytes, 0);
  std::uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) file[i] = static_cast<std::uint8_t>(n >> (8 * i));
  std::copy(header.begin(), header.end(), file.begin() + 8);
  return file;
}

std::string error_of(const std::string& header, std::size_t data_bytes) {
  const std::vector<std::uint8_t> file = file_with(header, data_bytes);
  const Result<SafetensorsIndex> index = read_safetensors_index(file.data(), file.size());
  return index.ok() ? "" : index.error();
}

TEST(Safetensors, IndexListsTensorsInFileOrder) {
  const std::vector<std::uint8_t> file = file_with(
      R"({"b":{"dtype":"F16","shape":[3],"data_offsets":[8,14]},"__metadata__":{"format":"pt"},)"
      R"("a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})",
      14);
  const Result<SafetensorsIndex> index = read_safetensors_index(file.data(), file.size());
  ASSERT_TRUE(index.ok()) << index.error();
  ASSERT_EQ(index.value().tensors.size(), 2u);
  EXPECT_EQ(index.value().tensors[0].name, "a");
  EXPECT_EQ(index.value().tensors[1].type, TensorType::f16);
  EXPECT_EQ(index.value().tensors[1].begin, index.value().header_bytes + 8);
  EXPECT_NE(index.value().find("b"), nullptr);
  EXPECT_EQ(index.value().find("c"), nullptr);
}

TEST(Safetensors, BrokenHeadersAreRefusedByName) {
  EXPECT_NE(error_of(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", 8).find("a: shape has 3 elements"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 4).find("cut short: a needs 8"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                     R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                     12)
                .find("overlap"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}})", 8).find("ends before"), std::string::npos);
  EXPECT_NE(error_of(R"({"a":{"shape":[2],"data_offsets":[0,8]}})", 8).find("a.dtype: missing"), std::string::npos);
  EXPECT_NE(error_of(R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,8]}})", 8).find("a.shape[0]"), std::string::npos);
  EXPECT_NE(error_of(R"({"a":{"dtype":"F32","shape":[4294967296,4294967296,4294967296],"data_offsets":[0,8]}})", 8)
                .find("a.shape"),
            std::string::npos);
  EXPECT_EQ(error_of("[1, 2]", 0), "the safetensors header is not a JSON object");
  EXPECT_EQ(error_of("{\"a\":", 0), "the safetensors header is not a JSON object");
}

TEST(Safetensors, AHeaderLengthPastTheFileIsRefused) {
  std::vector<std::uint8_t> file = file_with("{}", 0);
  file[0] = 200;
  const Result<SafetensorsIndex> index = read_safetensors_index(file.data(), file.size());
  ASSERT_FALSE(index.ok());
  EXPECT_NE(index.error().find("cut short"), std::string::npos) << index.error();
  const std::uint8_t short_file[3] = {1, 2, 3};
  EXPECT_FALSE(read_safetensors_index(short_file, 3).ok());
}

TEST(Safetensors, HalfAndBfloatDecodeExactly) {
  // F16: 1.0, -2.0, the smallest subnormal 2^-24, 65504, +inf, NaN.
  const std::uint8_t half[] = {0x00, 0x3C, 0x00, 0xC0, 0x01, 0x00, 0xFF, 0x7B, 0x00, 0x7C, 0x00, 0x7E};
  float out[6];
  decode_tensor(TensorType::f16, half, 6, out);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], -2.0f);
  EXPECT_EQ(out[2], std::ldexp(1.0f, -24));
  EXPECT_EQ(out[3], 65504.0f);
  EXPECT_EQ(out[4], std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(out[5]));
  // BF16: the top half of a float. 0x3FC0 = 1.5, 0xC120 = -10.
  const std::uint8_t bf[] = {0xC0, 0x3F, 0x20, 0xC1};
  decode_tensor(TensorType::bf16, bf, 2, out);
  EXPECT_EQ(out[0], 1.5f);
  EXPECT_EQ(out[1], -10.0f);
}

TEST(Safetensors, AStreamSplitsElementsAcrossPieces) {
  // Two F32 tensors and one we do not ask for between them.
  std::string header = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                       R"("skip":{"dtype":"I64","shape":[1],"data_offsets":[8,16]},)"
                       R"("b":{"dtype":"F16","shape":[3],"data_offsets":[16,22]}})";
  std::vector<std::uint8_t> file = file_with(header, 22);
  const std::size_t data = 8 + header.size();
  const float a[2] = {0.25f, -7.5f};
  std::memcpy(&file[data], a, 8);
  const std::uint8_t b[6] = {0x00, 0x3C, 0x00, 0x40, 0x00, 0xBC};  // 1, 2, -1
  std::memcpy(&file[data + 16], b, 6);
  const Result<SafetensorsIndex> index = read_safetensors_index(file.data(), file.size());
  ASSERT_TRUE(index.ok()) << index.error();
  std::map<std::string, std::vector<float>> targets;
  std::vector<std::pair<std::string, std::vector<float>>> got;
  TensorStream stream(
      index.value(), {"a", "b"},
      [&](const TensorEntry& t) { return (targets[t.name] = std::vector<float>(t.element_count(), 99.0f)).data(); },
      [&](const TensorEntry& t) { got.emplace_back(t.name, targets[t.name]); });
  for (std::size_t at = 0; at < file.size(); at += 3) stream.feed(file.data() + at, std::min<std::size_t>(3, file.size() - at));
  ASSERT_TRUE(stream.done());
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].second, (std::vector<float>{0.25f, -7.5f}));
  EXPECT_EQ(got[1].second, (std::vector<float>{1.0f, 2.0f, -1.0f}));
}

}  // namespace
}  // namespace headlab

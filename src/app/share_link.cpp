#include "app/share_link.h"

#include <zlib.h>

#include <array>
#include <cstdint>

namespace headlab::app {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
// Raw deflate (no zlib header or checksum), as the browser's CompressionStream('deflate-raw')
// writes it, so links made before the codec moved into the engine still open.
constexpr int kRawDeflateWindowBits = -15;

std::string to_base64url(const std::string& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const std::uint32_t v = (std::uint8_t(bytes[i]) << 16) | (std::uint8_t(bytes[i + 1]) << 8) | std::uint8_t(bytes[i + 2]);
    for (int shift = 18; shift >= 0; shift -= 6) out += kAlphabet[(v >> shift) & 63];
  }
  const std::size_t rest = bytes.size() - i;  // no '=' padding: it would need escaping in a URL
  if (rest == 1) {
    const std::uint32_t v = std::uint8_t(bytes[i]) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
  } else if (rest == 2) {
    const std::uint32_t v = (std::uint8_t(bytes[i]) << 16) | (std::uint8_t(bytes[i + 1]) << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
  }
  return out;
}

Result<std::string> from_base64url(std::string_view text) {
  static const std::array<int, 256> value = [] {
    std::array<int, 256> table;
    table.fill(-1);
    for (int i = 0; i < 64; ++i) table[static_cast<std::uint8_t>(kAlphabet[i])] = i;
    return table;
  }();
  std::string out;
  out.reserve(text.size() / 4 * 3 + 2);
  std::uint32_t bits = 0;
  int count = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const int v = value[static_cast<std::uint8_t>(text[i])];
    if (v < 0) return Result<std::string>::failure("the link contains a character that is not base64url at position " + std::to_string(i + 1));
    bits = (bits << 6) | static_cast<std::uint32_t>(v);
    if (++count == 4) {
      out += static_cast<char>((bits >> 16) & 0xff);
      out += static_cast<char>((bits >> 8) & 0xff);
      out += static_cast<char>(bits & 0xff);
      bits = 0;
      count = 0;
    }
  }
  if (text.size() % 4 == 1) return Result<std::string>::failure("the link is cut off (its length is not possible for base64url)");
  if (count == 2) out += static_cast<char>((bits >> 4) & 0xff);
  if (count == 3) {
    out += static_cast<char>((bits >> 10) & 0xff);
    out += static_cast<char>((bits >> 2) & 0xff);
  }
  return out;
}

Result<std::string> inflate_raw(const std::string& compressed) {
  z_stream stream{};
  if (inflateInit2(&stream, kRawDeflateWindowBits) != Z_OK) return Result<std::string>::failure("the link could not be unpacked (out of memory)");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  std::string out;
  std::array<char, 64 * 1024> chunk;
  int status = Z_OK;
  while (status == Z_OK) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk.data());
    stream.avail_out = static_cast<uInt>(chunk.size());
    status = inflate(&stream, Z_NO_FLUSH);
    const std::size_t produced = chunk.size() - stream.avail_out;
    if (out.size() + produced > kMaxSharedTextBytes) {
      inflateEnd(&stream);
      return Result<std::string>::failure("the link expands to more than 32 MB");
    }
    out.append(chunk.data(), produced);  // Z_BUF_ERROR (input ended early) or a data error ends the loop
  }
  inflateEnd(&stream);
  if (status != Z_STREAM_END) return Result<std::string>::failure("the link is cut off or damaged (its compressed data does not end properly)");
  if (stream.avail_in != 0) return Result<std::string>::failure("the link has extra data after its end");
  return out;
}

}  // namespace

std::string encode_share_payload(std::string_view text) {
  z_stream stream{};
  // Level 9: links are made rarely and shorter links survive chat apps and URL length limits.
  deflateInit2(&stream, 9, Z_DEFLATED, kRawDeflateWindowBits, 8, Z_DEFAULT_STRATEGY);
  std::string compressed(deflateBound(&stream, static_cast<uLong>(text.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(compressed.data());
  stream.avail_out = static_cast<uInt>(compressed.size());
  deflate(&stream, Z_FINISH);  // deflateBound guarantees one call finishes
  compressed.resize(stream.total_out);
  deflateEnd(&stream);
  return to_base64url(compressed);
}

Result<std::string> decode_share_payload(std::string_view payload) {
  if (payload.substr(0, kShareLinkPrefix.size()) == kShareLinkPrefix) payload.remove_prefix(kShareLinkPrefix.size());
  else if (payload.substr(0, 2) == "s=") payload.remove_prefix(2);
  if (payload.empty()) return Result<std::string>::failure("the link holds no lab (nothing after #s=)");
  if (payload.size() > kMaxShareLinkChars) return Result<std::string>::failure("the link is longer than 4 MB");
  Result<std::string> bytes = from_base64url(payload);
  if (!bytes.ok()) return bytes;
  return inflate_raw(bytes.value());  // the JSON loader that reads it rejects invalid UTF-8
}

}  // namespace headlab::app

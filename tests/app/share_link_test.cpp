// Share links (src/app/share_link.h): round trips, links made by other deflate-raw writers, and
// every way a hostile or damaged link is refused with a message instead of a crash or a huge
// allocation.
#include "app/share_link.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>

namespace headlab::app {
namespace {

TEST(ShareLink, RoundTripsTextWithAnyBytes) {
  std::string text = "{\"text\": \"狐狸 jumps 🦊 \\u0000\"}";
  for (int i = 0; i < 300; ++i) text += static_cast<char>(i % 256);  // every byte value, and 3n+1/3n+2 lengths
  for (std::size_t cut = text.size() - 3; cut <= text.size(); ++cut) {
    const std::string payload = encode_share_payload(text.substr(0, cut));
    EXPECT_EQ(payload.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"), std::string::npos);
    const Result<std::string> back = decode_share_payload(payload);
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(back.value(), text.substr(0, cut));
  }
}

TEST(ShareLink, AcceptsThePrefixAndLinksFromTheBrowsersCompressionStream) {
  // Node's zlib.deflateRawSync('{"format":"headlab-state"}').toString('base64url'): the same raw
  // deflate as CompressionStream('deflate-raw'), which wrote HeadLab's first links.
  const std::string payload = "q1ZKyy_KTSxRslLKSE1MyUlM0i0uSSxJVaoFAA";
  for (const std::string& link : {payload, "s=" + payload, "#s=" + payload}) {
    const Result<std::string> text = decode_share_payload(link);
    ASSERT_TRUE(text.ok()) << text.error();
    EXPECT_EQ(text.value(), "{\"format\":\"headlab-state\"}");
  }
}

TEST(ShareLink, RefusesDamagedLinksWithAReason) {
  std::string good = encode_share_payload("the quick brown fox");
  for (std::string tail; good.size() % 4 != 0; tail += 'y') good = encode_share_payload(std::string(2000, 'x') + tail);
  auto error_of = [](const std::string& link) {
    const Result<std::string> r = decode_share_payload(link);
    EXPECT_FALSE(r.ok()) << link.substr(0, 40);
    return r.ok() ? std::string() : r.error();
  };
  EXPECT_NE(error_of("#s=").find("holds no lab"), std::string::npos);
  EXPECT_NE(error_of("#s=ab<img>cd").find("not base64url at position 3"), std::string::npos);
  EXPECT_NE(error_of("#s=abc%20d").find("not base64url"), std::string::npos);
  EXPECT_NE(error_of("#s=abcde").find("cut off"), std::string::npos);                           // 4n+1 characters
  EXPECT_NE(error_of("#s=" + good.substr(0, good.size() / 2)).find("cut off"), std::string::npos);  // truncated stream
  EXPECT_NE(error_of("#s=AAAA").find("cut off or damaged"), std::string::npos);
  EXPECT_NE(error_of("#s=____").find("damaged"), std::string::npos);
  EXPECT_NE(error_of("#s=" + good + encode_share_payload("more")).find("extra data"), std::string::npos);  // whole groups: bytes stay aligned
  EXPECT_NE(error_of("#s=" + std::string(kMaxShareLinkChars + 4, 'A')).find("longer than 4 MB"), std::string::npos);
}

TEST(ShareLink, StopsADecompressionBombAtTheCap) {
  // 64 MB of zeros deflates to about 64 KB; inflating must stop at 32 MB, not expand it all.
  const std::string zeros(64u << 20, '\0');
  const std::string payload = encode_share_payload(zeros);
  EXPECT_LT(payload.size(), 100u * 1024);
  const Result<std::string> r = decode_share_payload(payload);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("more than 32 MB"), std::string::npos);
  // Just under the cap still opens.
  const Result<std::string> fits = decode_share_payload(encode_share_payload(std::string(kMaxSharedTextBytes, ' ')));
  ASSERT_TRUE(fits.ok()) << fits.error();
  EXPECT_EQ(fits.value().size(), kMaxSharedTextBytes);
}

}  // namespace
}  // namespace headlab::app

#pragma once
// Share links carry the whole lab in the URL fragment: "#s=" + base64url(deflate-raw(state JSON)).
// Links are untrusted input, so decoding is strict and bounded: only base64url characters, at most
// kMaxShareLinkChars of them, and inflation stops as soon as the text would pass
// kMaxSharedTextBytes (a few kilobytes of deflate can otherwise expand to gigabytes).
#include <cstddef>
#include <string>
#include <string_view>

#include "engine/result.h"

namespace headlab::app {

inline constexpr std::string_view kShareLinkPrefix = "#s=";
inline constexpr std::size_t kMaxShareLinkChars = 4u << 20;
inline constexpr std::size_t kMaxSharedTextBytes = 32u << 20;

// The payload after "#s=" for `text` (the saved-state JSON).
std::string encode_share_payload(std::string_view text);

// The text inside a payload (with or without the "#s=" prefix), or a message that says what is
// wrong with the link: not base64url, truncated, not deflate data, too large.
Result<std::string> decode_share_payload(std::string_view payload);

}  // namespace headlab::app

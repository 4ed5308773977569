#pragma once
// The text sample as bytes, so that a text experiment handed to the training worker brings the
// text it trains on: the worker has no tokenizer and never fetches the sample itself. About 1.3 MB
// for the page's sample (its ids as 32-bit integers), sent once per hand-over.
//
// Layout, host byte order (little-endian natively and in WebAssembly):
//   u32 magic "HLTX", u32 version, u32 name bytes, name, u32 vocabulary size,
//   per token u32 bytes and the token, per token u32 bytes and the text it stands for,
//   u64 training ids, i32 ids, u64 held-out ids, i32 ids.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/result.h"
#include "engine/training/text_task.h"

namespace headlab::app {

void append_corpus_bytes(const training::TextCorpus& train, const training::TextCorpus& held_out, std::vector<std::uint8_t>& out);

// Reads what append_corpus_bytes wrote at the start of `bytes`; the held-out corpus shares the
// training one's vocabulary. Returns the bytes read, or why they are not a corpus.
Result<std::size_t> read_corpus_bytes(const std::uint8_t* bytes, std::size_t size, training::TextCorpus& train,
                                      training::TextCorpus& held_out);
// The same into shared corpora, as the jobs keep them (a job handed to the worker brings its text).
Result<std::size_t> read_corpus_bytes(const std::vector<std::uint8_t>& bytes, std::shared_ptr<const training::TextCorpus>& train,
                                      std::shared_ptr<const training::TextCorpus>& held_out);

}  // namespace headlab::app

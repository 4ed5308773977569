#include "app/corpus_hand_over.h"

#include <cstring>
#include <string>

namespace headlab::app {
namespace {

constexpr std::uint32_t kMagic = 0x5854'4C48;  // "HLTX"
constexpr std::uint32_t kVersion = 2;

template <typename T>
void put(std::vector<std::uint8_t>& out, T value) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(&value);
  out.insert(out.end(), p, p + sizeof value);
}

void put_string(std::vector<std::uint8_t>& out, const std::string& text) {
  put(out, static_cast<std::uint32_t>(text.size()));
  out.insert(out.end(), text.begin(), text.end());
}

void put_ids(std::vector<std::uint8_t>& out, const std::vector<int>& ids) {
  put(out, static_cast<std::uint64_t>(ids.size()));
  const std::size_t at = out.size();
  out.resize(at + ids.size() * sizeof(std::int32_t));
  if (!ids.empty()) std::memcpy(out.data() + at, ids.data(), ids.size() * sizeof(std::int32_t));
}

// Reads from a byte range, failing once on anything past its end.
struct Reader {
  const std::uint8_t* bytes;
  std::size_t size;
  std::size_t at = 0;
  bool ok = true;

  template <typename T>
  T take() {
    T value{};
    if (!ok || size - at < sizeof value) return ok = false, value;
    std::memcpy(&value, bytes + at, sizeof value);
    at += sizeof value;
    return value;
  }
  std::string take_string() {
    const std::uint32_t n = take<std::uint32_t>();
    if (!ok || size - at < n) return ok = false, std::string();
    std::string text(reinterpret_cast<const char*>(bytes + at), n);
    at += n;
    return text;
  }
  bool take_ids(std::vector<int>& ids, std::size_t vocabulary) {
    const std::uint64_t n = take<std::uint64_t>();
    if (!ok || (size - at) / sizeof(std::int32_t) < n) return ok = false;
    ids.resize(static_cast<std::size_t>(n));
    if (n) std::memcpy(ids.data(), bytes + at, ids.size() * sizeof(std::int32_t));
    at += ids.size() * sizeof(std::int32_t);
    for (int id : ids)
      if (id < 0 || static_cast<std::size_t>(id) >= vocabulary) return ok = false;
    return true;
  }
};

}  // namespace

void append_corpus_bytes(const training::TextCorpus& train, const training::TextCorpus& held_out, std::vector<std::uint8_t>& out) {
  put(out, kMagic);
  put(out, kVersion);
  put_string(out, train.tokenizer);
  put(out, static_cast<std::uint32_t>(train.vocabulary.size()));
  for (const std::string& token : train.vocabulary) put_string(out, token);
  for (std::size_t id = 0; id < train.vocabulary.size(); ++id)
    put_string(out, id < train.token_bytes.size() ? train.token_bytes[id] : std::string());
  put_ids(out, train.ids);
  put_ids(out, held_out.ids);
}

Result<std::size_t> read_corpus_bytes(const std::uint8_t* bytes, std::size_t size, training::TextCorpus& train,
                                      training::TextCorpus& held_out) {
  using R = Result<std::size_t>;
  Reader in{bytes, size};
  if (in.take<std::uint32_t>() != kMagic || in.take<std::uint32_t>() != kVersion) return R::failure("text sample: not a text sample of this version");
  train.tokenizer = in.take_string();
  const std::uint32_t count = in.take<std::uint32_t>();
  if (!in.ok || count > size - in.at) return R::failure("text sample: cut short");
  train.vocabulary.clear();
  train.vocabulary.reserve(count);
  for (std::uint32_t i = 0; i < count && in.ok; ++i) train.vocabulary.push_back(in.take_string());
  train.token_bytes.clear();
  train.token_bytes.reserve(count);
  for (std::uint32_t i = 0; i < count && in.ok; ++i) train.token_bytes.push_back(in.take_string());
  if (!in.take_ids(train.ids, count) || !in.take_ids(held_out.ids, count)) return R::failure("text sample: cut short or an id out of range");
  held_out.tokenizer = train.tokenizer;
  held_out.vocabulary = train.vocabulary;
  held_out.token_bytes = train.token_bytes;
  return in.at;
}

Result<std::size_t> read_corpus_bytes(const std::vector<std::uint8_t>& bytes, std::shared_ptr<const training::TextCorpus>& train,
                                      std::shared_ptr<const training::TextCorpus>& held_out) {
  auto train_read = std::make_shared<training::TextCorpus>();
  auto held_out_read = std::make_shared<training::TextCorpus>();
  Result<std::size_t> read = read_corpus_bytes(bytes.data(), bytes.size(), *train_read, *held_out_read);
  if (read.ok()) {
    train = std::move(train_read);
    held_out = std::move(held_out_read);
  }
  return read;
}

}  // namespace headlab::app

#pragma once
// How the action codec (action_codec.cpp) reads and writes each field type: the enums' names, a
// strict reader over the engine's JsonReader that refuses undeclared fields, and a writer that
// writes every field. Only the codec includes this.
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/action.h"
#include "app/request_fields.h"
#include "engine/json_reader.h"

namespace headlab::app::action_fields {

using nlohmann::json;

// [SECTION] Field values: how each field type is read (strictly) and written.

inline constexpr EnumName<WeightMatrix> kWeightMatrices[] = {
    {"W_Q", WeightMatrix::W_Q}, {"W_K", WeightMatrix::W_K}, {"W_V", WeightMatrix::W_V}, {"W_O", WeightMatrix::W_O}};
inline constexpr EnumName<Axis> kAxes[] = {{"row", Axis::row}, {"column", Axis::column}};
inline constexpr EnumName<Norm> kNorms[] = {{"none", Norm::none}, {"pre", Norm::pre}, {"post", Norm::post}};
inline constexpr EnumName<Embedding> kEmbeddings[] = {
    {"named", Embedding::named_features}, {"random", Embedding::random}, {"symbols", Embedding::symbols}};
inline constexpr EnumName<Positional> kPositionals[] = {
    {"sinusoidal", Positional::sinusoidal}, {"learned", Positional::learned}, {"none", Positional::none}};
inline constexpr EnumName<Theme> kThemes[] = {{"dark", Theme::dark}, {"light", Theme::light}};

inline constexpr EnumName<Language> kLanguages[] = {{"en", Language::en}, {"zh", Language::zh}};
inline constexpr EnumName<LessonMove> kLessonMoves[] = {
    {"next", LessonMove::next},     {"previous", LessonMove::previous}, {"reset_step", LessonMove::reset_step},
    {"show_me", LessonMove::show_me}, {"hint", LessonMove::hint},       {"leave", LessonMove::leave},
    {"resume", LessonMove::resume}, {"reset_progress", LessonMove::reset_progress}};

inline const auto& enum_names(WeightMatrix) { return kWeightMatrices; }
inline const auto& enum_names(Axis) { return kAxes; }
inline const auto& enum_names(Norm) { return kNorms; }
inline const auto& enum_names(Embedding) { return kEmbeddings; }
inline const auto& enum_names(Positional) { return kPositionals; }
inline const auto& enum_names(Theme) { return kThemes; }
inline const auto& enum_names(training::Task) { return training::kTaskNames; }
inline const auto& enum_names(AttentionNormalization) { return kAttentionNormalizationNames; }
inline const auto& enum_names(Language) { return kLanguages; }
inline const auto& enum_names(LessonMove) { return kLessonMoves; }

// A weight line in a request is at most this long (the widest matrix has 512 entries a line).
inline constexpr std::size_t kMaxLineLength = 1000000;

// Reads the fields one op declares from a request with the JsonReader every HeadLab document uses;
// the first problem is kept, named "<path><field>: ...". A field the op does not declare is an
// error too (a typo in a lesson file must not be silently ignored). Indices are read as any int:
// app::apply checks them against the model and names the field when one is out of range.
class FieldReader {
 public:
  FieldReader(const json& request, const std::string& path) : request_(request), path_(path) {}

  template <class T>
  void operator()(const char* key, T& out) {
    declared_.push_back(key);
    if (!reader_.ok()) return;
    read(path_ + key, JsonReader::optional_field(request_, key), out);
  }
  template <class T>
  void operator()(const char* key, std::optional<T>& out) {
    declared_.push_back(key);
    const json* value = JsonReader::optional_field(request_, key);
    if (!reader_.ok() || !value) return;
    T read_value{};
    if (read(path_ + key, value, read_value)) out = std::move(read_value);
  }
  // Fields that may be left out and then keep the struct's default.
  template <class T>
  void with_default(const char* key, T& out) {
    declared_.push_back(key);
    const json* value = JsonReader::optional_field(request_, key);
    if (reader_.ok() && value) read(path_ + key, value, out);
  }

  void refuse_unknown_fields() {
    if (!reader_.ok()) return;
    if (const std::string error = unknown_field_error(request_, path_, declared_); !error.empty()) reader_.fail("", error);
  }
  const std::string& error() const { return reader_.error(); }

 private:
  bool read(const std::string& path, const json* v, int& out) { return reader_.integer(v, path, out); }
  bool read(const std::string& path, const json* v, std::uint32_t& out) {
    long long value = 0;
    if (!reader_.integer(v, path, 0, 0xFFFFFFFFll, value)) return false;
    out = static_cast<std::uint32_t>(value);
    return true;
  }
  bool read(const std::string& path, const json* v, bool& out) { return reader_.boolean(v, path, out); }
  bool read(const std::string& path, const json* v, double& out) { return reader_.finite(v, path, out); }
  bool read(const std::string& path, const json* v, std::string& out) { return reader_.string(v, path, out); }
  bool read(const std::string& path, const json* v, std::vector<float>& out) {
    const json* line = reader_.array(v, path, 0, kMaxLineLength, "finite numbers");
    if (!line) return false;
    out.clear();
    out.reserve(line->size());
    for (std::size_t i = 0; i < line->size(); ++i) {
      float element = 0.0f;
      if (!reader_.number(&(*line)[i], json_path(path, i), element)) return false;
      out.push_back(element);
    }
    return true;
  }
  bool read(const std::string& path, const json* v, std::vector<int>& out) {
    const json* list = reader_.array(v, path, 0, kMaxLineLength, "integers");
    if (!list) return false;
    out.assign(list->size(), 0);
    for (std::size_t i = 0; i < list->size(); ++i)
      if (!reader_.integer(&(*list)[i], json_path(path, i), out[i])) return false;
    return true;
  }
  template <class E, class = std::enable_if_t<std::is_enum_v<E>>>
  bool read(const std::string& path, const json* v, E& out) {
    return reader_.one_of(v, path, enum_names(E{}), out);
  }

  const json& request_;
  const std::string& path_;
  std::vector<const char*> declared_;
  JsonReader reader_;
};

// Writes every field, so a decoded request and its encoding hold the same action.
class FieldWriter {
 public:
  explicit FieldWriter(json& out) : out_(out) {}
  template <class T>
  void operator()(const char* key, const T& value) {
    out_[key] = write(value);
  }
  template <class T>
  void operator()(const char* key, const std::optional<T>& value) {
    if (value) out_[key] = write(*value);
  }
  template <class T>
  void with_default(const char* key, const T& value) {
    out_[key] = write(value);
  }

 private:
  template <class T>
  static json write(const T& value) {
    if constexpr (std::is_enum_v<T>) {
      for (const auto& [name, choice] : enum_names(T{}))
        if (choice == value) return name;
      return nullptr;
    } else {
      return value;
    }
  }
  json& out_;
};

}  // namespace headlab::app::action_fields

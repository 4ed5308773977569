#pragma once
// The fields of one JS API request, read with the JsonReader every HeadLab document uses. The
// action codec reads edits this way, and the training and benchmark handlers read their options
// this way, so a malformed field gets the same message whichever op carries it:
//   "steps: expected an integer in 1..5000", "gold: expected true or false",
//   "size: unknown field (benchmark takes n, d_model, heads, reps, seed)".
// Unknown fields are refused: a typo must never fall back to a default silently.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "engine/enum_names.h"
#include "engine/json_reader.h"

namespace headlab::app {

// "<path><key>: unknown field (<op> takes a, b)" for the first member of `request` other than "op"
// that is not in `known`; "" when there is none. `path` prefixes the field ("" or "steps[2].").
std::string unknown_field_error(const nlohmann::json& request, const std::string& path,
                                const std::vector<const char*>& known);

class RequestFields {
 public:
  // Refuses (records an error for) any member not in `known`. `request` must outlive this.
  RequestFields(const nlohmann::json& request, const std::vector<const char*>& known);

  bool ok() const { return reader_.ok(); }
  const std::string& error() const { return reader_.error(); }
  bool has(const char* key) const { return JsonReader::optional_field(request_, key) != nullptr; }

  // Each reads `key` into `out` and returns ok(). A field left out keeps `out` as it is (the
  // default) unless `required`; after an earlier error nothing is read.
  bool integer(const char* key, long long lo, long long hi, int& out, bool required = false);
  // Any int, for an index the handler checks itself against what exists: "expected an integer".
  bool integer(const char* key, int& out, bool required = false);
  bool seed(const char* key, std::uint32_t& out);
  bool number(const char* key, double lo, double hi, double& out);
  bool number(const char* key, double lo, double hi, float& out);
  bool boolean(const char* key, bool& out);
  bool string(const char* key, std::string& out, bool required = false);

  // One of the named values, e.g. {{"en", Language::en}, {"zh", Language::zh}}.
  template <class E>
  bool one_of(const char* key, std::initializer_list<std::pair<const char*, E>> choices, E& out, bool required = false) {
    if (!reader_.ok()) return false;
    const nlohmann::json* value = JsonReader::optional_field(request_, key);
    return (!value && !required) || reader_.one_of(value, key, choices, out);
  }

  template <class E, std::size_t N>
  bool one_of(const char* key, const EnumName<E> (&choices)[N], E& out, bool required = false) {
    if (!reader_.ok()) return false;
    const nlohmann::json* value = JsonReader::optional_field(request_, key);
    return (!value && !required) || reader_.one_of(value, key, choices, out);
  }

  // A check of the handler's own, with the same "key: message" form.
  bool fail(const char* key, const std::string& message) { return reader_.fail(key, message); }

 private:
  // The field, or nullptr when it is left out or an error came first.
  const nlohmann::json* present(const char* key) const;

  const nlohmann::json& request_;
  JsonReader reader_;
};

}  // namespace headlab::app

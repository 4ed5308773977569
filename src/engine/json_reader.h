#pragma once
// Strict reading of JSON fields with errors that name the JSON path:
//   "layers[0].heads[2].W_Q[3]: expected a number".
// One reader for every document HeadLab parses (model files, the training grammar, label
// thresholds, presets, lessons), for JS API requests and for the training worker's messages, so
// the same kind of mistake gets the same message everywhere. It never throws: nlohmann's checked accessors are only called after
// the type has been checked.
//
// The reader keeps the first error; every reading call returns false on failure, so a parser
// can chain them with && and return reader.error() once:
//
//   JsonReader r;
//   long long version = 0;
//   if (!r.integer(r.field(doc, "", "version"), "version", 1, 1000000, version)) return failure(r.error());
//
// Calls that take a `const json*` accept the result of field() or optional_field() directly. After
// field() a missing member is already recorded as "<path>: missing"; a nullptr from
// optional_field() makes the call record its own "expected ..." message (an API request that
// leaves out "steps" reads "steps: expected an integer in 1..5000"). An optional member that may
// be left out is read as
//
//   if (const json* v = JsonReader::optional_field(doc, "causal"); v && !r.boolean(v, "causal", causal)) ...
#include <cstddef>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>

namespace headlab {

// The path of a member: ("layers[0]", "W_O") -> "layers[0].W_O"; ("", "d_model") -> "d_model".
std::string json_path(const std::string& parent, std::string_view key);
// The path of an array element: ("layers", 2) -> "layers[2]".
std::string json_path(const std::string& parent, std::size_t index);

class JsonReader {
 public:
  using json = nlohmann::json;
  // The largest magnitude a float field accepts: a float itself (3e38 rounded to float), a little
  // under FLT_MAX. Every number at most this rounds to a float at most this, so whatever a file
  // accepts is written back as a number it accepts again.
  static constexpr double kFloatMax = static_cast<double>(3.0e38f);

  bool ok() const { return error_.empty(); }
  // The first error, "path: message"; "" while everything read was fine.
  const std::string& error() const { return error_; }
  // Records "path: message" (unless an earlier error is kept) and returns false.
  bool fail(const std::string& path, const std::string& message);

  // object[key], or nullptr after recording "<path>.<key>: missing" (also when `object` is not an
  // object). `path` is the object's own path.
  const json* field(const json& object, const std::string& path, std::string_view key);
  // object[key], or nullptr when the object has no such member (not an error).
  static const json* optional_field(const json& object, std::string_view key);

  // An integer in [lo, hi]; 3.0 counts as 3 (JavaScript has one number type).
  // "expected an integer in lo..hi".
  bool integer(const json* value, const std::string& path, long long lo, long long hi, long long& out);
  bool integer(const json* value, const std::string& path, long long lo, long long hi, int& out);
  // Any int, for indices whose real range is checked later by whoever knows it: "expected an integer".
  bool integer(const json* value, const std::string& path, int& out);
  // A number that fits a float: "expected a number", "must be a finite number" (out of float range).
  bool number(const json* value, const std::string& path, float& out);
  // A number in [lo, hi]: "expected a number in [lo, hi]".
  bool number(const json* value, const std::string& path, double lo, double hi, float& out);
  bool number(const json* value, const std::string& path, double lo, double hi, double& out);
  // Any finite double. JSON has no NaN or Infinity, so a page sends them as the strings "NaN" and
  // "Infinity"; the message shows what came: "expected a finite number (got NaN)".
  bool finite(const json* value, const std::string& path, double& out);
  // true or false: "expected true or false".
  bool boolean(const json* value, const std::string& path, bool& out);
  // A string (non-empty when asked, at most max_bytes): "expected a string", "expected a non-empty string",
  // "expected a string of at most N bytes".
  bool string(const json* value, const std::string& path, std::string& out, bool non_empty = false,
              std::size_t max_bytes = std::string::npos);
  // An array of min_size..max_size elements; returns it or nullptr ("expected an array of layers",
  // "expected 1 to 6 layers, got 7"; `noun` names the elements).
  const json* array(const json* value, const std::string& path, std::size_t min_size = 0,
                    std::size_t max_size = static_cast<std::size_t>(-1), const char* noun = "elements");
  // An object; returns it or nullptr ("expected an object").
  const json* object(const json* value, const std::string& path);

  // One of the named values: "expected one of \"none\", \"pre\", \"post\"".
  // `choices` is any range of (name, value) pairs, e.g. a constexpr table.
  template <class Choices, class E>
  bool one_of(const json* value, const std::string& path, const Choices& choices, E& out) {
    if (value && value->is_string())
      for (const auto& [name, choice] : choices)
        if (value->get_ref<const std::string&>() == name) {
          out = choice;
          return true;
        }
    std::string allowed;
    for (const auto& [name, choice] : choices) allowed += std::string(allowed.empty() ? "" : ", ") + "\"" + name + "\"";
    return fail(path, "expected one of " + allowed + shown(value));
  }
  template <class E>
  bool one_of(const json* value, const std::string& path, std::initializer_list<std::pair<const char*, E>> choices,
              E& out) {
    return one_of<std::initializer_list<std::pair<const char*, E>>, E>(value, path, choices, out);
  }

  // " (got <value>)" for a message, "" for a missing value.
  static std::string shown(const json* value);
  // "0.5", "1000", "0.0001": a bound as a learner would write it.
  static std::string format_bound(double value);

 private:
  std::string error_;
};

}  // namespace headlab

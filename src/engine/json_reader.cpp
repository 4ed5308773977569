#include "engine/json_reader.h"

#include <climits>
#include <cmath>
#include <cstdio>

namespace headlab {
namespace {

// " (got 17)", " (got NaN)", " (got \"yes\")": what came, so a learner sees the mistake at once. Strings
// that stand for numbers (a page sends NaN and Infinity as "NaN", "Infinity") are shown bare; long
// values are cut. Nothing when the value is missing.
std::string got(const nlohmann::json* value) {
  if (!value) return "";
  const bool number_word = value->is_string() && (*value == "NaN" || *value == "Infinity" || *value == "-Infinity");
  std::string shown = number_word ? value->get<std::string>() : value->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (shown.size() > 40) shown = shown.substr(0, 37) + "...";
  return " (got " + shown + ")";
}

}  // namespace

std::string json_path(const std::string& parent, std::string_view key) {
  std::string path;
  path.reserve(parent.size() + key.size() + 1);
  path = parent;
  if (!path.empty()) path += '.';
  path.append(key.data(), key.size());
  return path;
}

std::string json_path(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

bool JsonReader::fail(const std::string& path, const std::string& message) {
  if (error_.empty()) error_ = path.empty() ? message : path + ": " + message;
  return false;
}

const JsonReader::json* JsonReader::field(const json& object, const std::string& path, std::string_view key) {
  if (const json* value = optional_field(object, key)) return value;
  fail(json_path(path, key), "missing");
  return nullptr;
}

const JsonReader::json* JsonReader::optional_field(const json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(std::string(key));
  return it == object.end() ? nullptr : &*it;
}

bool JsonReader::integer(const json* value, const std::string& path, long long lo, long long hi, long long& out) {
  const std::string expected = "expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi) + got(value);
  if (!value || !value->is_number()) return fail(path, expected);
  if (value->is_number_integer()) {
    // Compare as integers: a double cannot hold every 64-bit value exactly.
    if (value->is_number_unsigned()) {
      const auto v = value->get<unsigned long long>();
      if (hi < 0 || v > static_cast<unsigned long long>(hi) || static_cast<long long>(v) < lo) return fail(path, expected);
      out = static_cast<long long>(v);
      return true;
    }
    const auto v = value->get<long long>();
    if (v < lo || v > hi) return fail(path, expected);
    out = v;
    return true;
  }
  const double d = value->get<double>();
  if (!std::isfinite(d) || std::floor(d) != d || d < static_cast<double>(lo) || d > static_cast<double>(hi))
    return fail(path, expected);
  out = static_cast<long long>(d);
  return true;
}

bool JsonReader::integer(const json* value, const std::string& path, long long lo, long long hi, int& out) {
  long long v = 0;
  if (!integer(value, path, lo, hi, v)) return false;
  out = static_cast<int>(v);
  return true;
}

bool JsonReader::integer(const json* value, const std::string& path, int& out) {
  const bool integral = value && value->is_number() && std::isfinite(value->get<double>()) &&
                        std::floor(value->get<double>()) == value->get<double>();
  if (!integral || value->get<double>() < INT_MIN || value->get<double>() > INT_MAX)
    return fail(path, "expected an integer" + got(value));
  out = static_cast<int>(value->get<double>());
  return true;
}

bool JsonReader::finite(const json* value, const std::string& path, double& out) {
  if (!value || !value->is_number() || !std::isfinite(value->get<double>()))
    return fail(path, "expected a finite number" + got(value));
  out = value->get<double>();
  return true;
}

bool JsonReader::number(const json* value, const std::string& path, float& out) {
  if (!value || !value->is_number()) return fail(path, "expected a number" + got(value));
  const double d = value->get<double>();
  if (!std::isfinite(d) || std::fabs(d) > kFloatMax) return fail(path, "must be a finite number" + got(value));
  out = static_cast<float>(d);
  return true;
}

bool JsonReader::number(const json* value, const std::string& path, double lo, double hi, double& out) {
  const auto expected = [&] { return "expected a number in [" + format_bound(lo) + ", " + format_bound(hi) + "]" + got(value); };
  if (!value || !value->is_number()) return fail(path, expected());
  const double d = value->get<double>();
  if (!std::isfinite(d) || d < lo || d > hi) return fail(path, expected());
  out = d;
  return true;
}

bool JsonReader::number(const json* value, const std::string& path, double lo, double hi, float& out) {
  double d = 0.0;
  if (!number(value, path, lo, hi, d)) return false;
  out = static_cast<float>(d);
  return true;
}

bool JsonReader::boolean(const json* value, const std::string& path, bool& out) {
  if (!value || !value->is_boolean()) return fail(path, "expected true or false" + got(value));
  out = value->get<bool>();
  return true;
}

bool JsonReader::string(const json* value, const std::string& path, std::string& out, bool non_empty,
                        std::size_t max_bytes) {
  if (!value || !value->is_string())
    return fail(path, (non_empty ? "expected a non-empty string" : "expected a string") + got(value));
  const std::string& text = value->get_ref<const std::string&>();
  if (non_empty && text.empty()) return fail(path, "expected a non-empty string");
  if (text.size() > max_bytes) return fail(path, "expected a string of at most " + std::to_string(max_bytes) + " bytes");
  out = text;
  return true;
}

const JsonReader::json* JsonReader::array(const json* value, const std::string& path, std::size_t min_size,
                                          std::size_t max_size, const char* noun) {
  if (!value || !value->is_array()) {
    fail(path, std::string("expected an array of ") + noun);
    return nullptr;
  }
  if (value->size() < min_size || value->size() > max_size) {
    const std::string bounds = max_size == static_cast<std::size_t>(-1)
                                   ? "at least " + std::to_string(min_size)
                                   : std::to_string(min_size) + " to " + std::to_string(max_size);
    fail(path, "expected " + bounds + " " + noun + ", got " + std::to_string(value->size()));
    return nullptr;
  }
  return value;
}

const JsonReader::json* JsonReader::object(const json* value, const std::string& path) {
  if (!value || !value->is_object()) {
    fail(path, "expected an object");
    return nullptr;
  }
  return value;
}

std::string JsonReader::shown(const json* value) { return got(value); }

std::string JsonReader::format_bound(double value) {
  char buffer[64];
  if (std::fabs(value) >= 1e6) {  // "1e+06", not a row of zeros
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
  }
  std::snprintf(buffer, sizeof buffer, "%.6f", value);
  std::string s = buffer;
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace headlab

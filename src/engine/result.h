#pragma once
// Errors are values: a Result holds either a value or a message that names the offending field
// ("layers[0].heads[2].W_K: expected 8x2, got 8x3"). The web build never relies on exceptions.
#include <optional>
#include <string>
#include <utility>

namespace headlab {

template <class T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit on purpose, like std::optional
  static Result failure(std::string message) {
    Result r;
    r.error_ = std::move(message);
    return r;
  }
  bool ok() const { return value_.has_value(); }
  const T& value() const& { return *value_; }
  T& value() & { return *value_; }
  T&& value() && { return std::move(*value_); }
  const std::string& error() const { return error_; }

 private:
  Result() = default;
  std::optional<T> value_;
  std::string error_;
};

}  // namespace headlab

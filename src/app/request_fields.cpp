#include "app/request_fields.h"

#include <algorithm>
#include <string_view>

namespace headlab::app {

std::string unknown_field_error(const nlohmann::json& request, const std::string& path,
                                const std::vector<const char*>& known) {
  if (!request.is_object()) return "";
  for (const auto& item : request.items()) {
    if (item.key() == "op") continue;
    if (std::any_of(known.begin(), known.end(), [&](const char* k) { return item.key() == k; })) continue;
    std::string list;
    for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    const auto op = request.find("op");
    const std::string owner = op != request.end() && op->is_string() ? op->get<std::string>() : "this request";
    return path + item.key() + ": unknown field (" + owner + " takes " + (list.empty() ? "no fields" : list) + ")";
  }
  return "";
}

RequestFields::RequestFields(const nlohmann::json& request, const std::vector<const char*>& known)
    : request_(request) {
  if (const std::string error = unknown_field_error(request, "", known); !error.empty()) reader_.fail("", error);
}

const nlohmann::json* RequestFields::present(const char* key) const {
  return reader_.ok() ? JsonReader::optional_field(request_, key) : nullptr;
}

bool RequestFields::integer(const char* key, long long lo, long long hi, int& out, bool required) {
  if (!reader_.ok()) return false;
  const nlohmann::json* value = JsonReader::optional_field(request_, key);
  // A missing required field reads as "expected an integer in lo..hi", which also says what to send.
  return (!value && !required) || reader_.integer(value, key, lo, hi, out);
}

bool RequestFields::integer(const char* key, int& out, bool required) {
  if (!reader_.ok()) return false;
  const nlohmann::json* value = JsonReader::optional_field(request_, key);
  return (!value && !required) || reader_.integer(value, key, out);
}

bool RequestFields::seed(const char* key, std::uint32_t& out) {
  const nlohmann::json* value = present(key);
  long long seed = 0;
  if (value && reader_.integer(value, key, 0, 0xFFFFFFFFll, seed)) out = static_cast<std::uint32_t>(seed);
  return ok();
}

bool RequestFields::number(const char* key, double lo, double hi, double& out) {
  const nlohmann::json* value = present(key);
  if (value) reader_.number(value, key, lo, hi, out);
  return ok();
}

bool RequestFields::number(const char* key, double lo, double hi, float& out) {
  const nlohmann::json* value = present(key);
  if (value) reader_.number(value, key, lo, hi, out);
  return ok();
}

bool RequestFields::boolean(const char* key, bool& out) {
  const nlohmann::json* value = present(key);
  if (value) reader_.boolean(value, key, out);
  return ok();
}

bool RequestFields::string(const char* key, std::string& out, bool required) {
  if (!reader_.ok()) return false;
  const nlohmann::json* value = JsonReader::optional_field(request_, key);
  // A missing required field reads as "expected a string".
  return (!value && !required) || reader_.string(value, key, out);
}

}  // namespace headlab::app

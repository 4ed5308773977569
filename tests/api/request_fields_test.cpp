// The ops that are not edits read their fields as strictly as the edits do: a wrong type or an
// unknown field is refused with a message naming it, and nothing a page can send makes a handler
// throw (in WebAssembly an exception aborts the page).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "../app/test_resources.h"
#include "api/api.h"
#include "app/controller.h"
#include "app/share_link.h"

namespace headlab::api {
namespace {

using nlohmann::json;

class RequestFieldsTest : public ::testing::Test {
 protected:
  json call(const json& request) { return json::parse(handle_request(controller, request.dump())); }
  app::AppState state;
  app::Controller controller{state, app::test_resources()};
};

TEST_F(RequestFieldsTest, WrongTypesAndUnknownFieldsAreRefusedByName) {
  const std::pair<json, std::string> refused[] = {
      {{{"op", "notify"}, {"level", 5}, {"text", "hi"}}, "level: expected one of \"info\", \"warning\", \"error\" (got 5)"},
      {{{"op", "notify"}, {"level", "info"}}, "text: expected a string"},
      {{{"op", "setLanguage"}, {"language", "fr"}}, "language: expected one of \"en\", \"zh\" (got \"fr\")"},
      {{{"op", "setLanguage"}}, "language: expected one of \"en\", \"zh\""},
      {{{"op", "startLesson"}, {"lesson", "1"}}, "lesson: expected an integer (got \"1\")"},
      {{{"op", "startLesson"}, {"lesson", 0}, {"step", 0.5}}, "step: expected an integer (got 0.5)"},
      {{{"op", "loadState"}, {"json", 5}}, "json: expected a string (got 5)"},
      {{{"op", "openShareLink"}, {"fragment", json::array()}}, "fragment: expected a string (got [])"},
      {{{"op", "state"}, {"verbose", true}}, "verbose: unknown field (state takes no fields)"},
      {{{"op", "startLesson"}, {"lesson", 0}, {"stp", 1}}, "stp: unknown field (startLesson takes lesson, step)"},
  };
  for (const auto& [request, message] : refused) {
    const json reply = call(request);
    EXPECT_FALSE(reply["ok"]) << request.dump();
    EXPECT_EQ(reply["error"], message) << request.dump();
  }
  // Refusals post no notice of their own and change nothing.
  EXPECT_TRUE(call({{"op", "state"}})["result"]["notices"].empty());
}

TEST_F(RequestFieldsTest, AShareLinkWhoseFormatIsNotAStringIsASavedStateThatFailsToLoad) {
  const std::string fragment =
      std::string(app::kShareLinkPrefix) + app::encode_share_payload(R"({"format": 5, "layers": []})");
  const json reply = call({{"op", "openShareLink"}, {"fragment", fragment}});
  EXPECT_FALSE(reply["ok"]);
  EXPECT_FALSE(reply["error"].get<std::string>().empty());
}

TEST_F(RequestFieldsTest, GoodRequestsStillWork) {
  EXPECT_TRUE(call({{"op", "notify"}, {"level", "warning"}, {"text", "careful"}})["ok"]);
  EXPECT_TRUE(call({{"op", "setLanguage"}, {"language", "zh"}})["ok"]);
  const json started = call({{"op", "startLesson"}, {"lesson", 3}, {"step", 1.0}});  // JavaScript's 1.0 is 1
  EXPECT_TRUE(started["ok"]) << started.dump();
  const json s = call({{"op", "state"}})["result"];
  EXPECT_EQ(s["lesson"]["step"], 1);
}

}  // namespace
}  // namespace headlab::api

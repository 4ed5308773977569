// web/headlab-api.js and docs/js-api.md list exactly the ops handle_request knows (api_op_names():
// the action codec's table plus the other handlers), so the page's API and its documentation
// cannot drift from the C++ side.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "api/api.h"

namespace headlab::app {
namespace {

std::string read_source(const std::string& relative) {
  std::ifstream in(std::string(HEADLAB_SOURCE_DIR) + "/" + relative);
  EXPECT_TRUE(in) << relative;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every capture of `pattern` in `text`.
std::set<std::string> matches(const std::string& text, const std::regex& pattern) {
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern); it != std::sregex_iterator(); ++it)
    out.insert((*it)[1].str());
  return out;
}

TEST(ApiOpsListed, HeadlabApiJsSendsEveryOpAndNoOther) {
  const std::vector<std::string> names = api::api_op_names();
  const std::set<std::string> known(names.begin(), names.end());
  const std::set<std::string> sent = matches(read_source("web/headlab-api.js"), std::regex(R"(op: '(\w+)')"));
  for (const std::string& op : known) EXPECT_TRUE(sent.count(op)) << "web/headlab-api.js has no call for \"" << op << "\"";
  for (const std::string& op : sent) EXPECT_TRUE(known.count(op)) << "web/headlab-api.js sends unknown op \"" << op << "\"";
}

TEST(ApiOpsListed, JsApiDocNamesEveryOpAndNoOther) {
  const std::string doc = read_source("docs/js-api.md");
  const std::vector<std::string> names = api::api_op_names();
  const std::set<std::string> known(names.begin(), names.end());
  // An op is documented as `headlab.op(...)` or as a request `{op: 'op', ...}` / `{"op": "op", ...}`.
  std::set<std::string> documented = matches(doc, std::regex(R"(`headlab\.(\w+)\()"));
  for (const std::string& op : matches(doc, std::regex(R"(op: '(\w+)')"))) documented.insert(op);
  for (const std::string& op : matches(doc, std::regex(R"re("op": "(\w+)")re"))) documented.insert(op);
  for (const std::string& op : known) EXPECT_TRUE(documented.count(op)) << "docs/js-api.md does not document \"" << op << "\"";
  const std::set<std::string> js_only = {"ready",          "request", "copyLink", "widgetRect",
                                          "lastExport",     "openCheckpoint", "view", "setView"};
  for (const std::string& op : documented)
    EXPECT_TRUE(known.count(op) || js_only.count(op)) << "docs/js-api.md documents unknown op \"" << op << "\"";
}

}  // namespace
}  // namespace headlab::app

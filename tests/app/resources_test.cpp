// load_resources() reads every asset once and reports the first missing or broken file by name
// and field, as the page shows it at start-up instead of failing later inside an edit.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/resources.h"
#include "engine/assets.h"

namespace headlab::app {
namespace {

namespace fs = std::filesystem;

// A copy of assets/ in a temporary folder, made the assets root while it lives.
class CopiedAssets {
 public:
  explicit CopiedAssets(const std::string& name) : root_(fs::temp_directory_path() / name) {
    fs::remove_all(root_);
    fs::copy(assets_root(), root_, fs::copy_options::recursive);
    setenv("HEADLAB_ASSETS", root_.c_str(), 1);
  }
  ~CopiedAssets() {
    unsetenv("HEADLAB_ASSETS");
    fs::remove_all(root_);
  }
  void write(const std::string& relative, const std::string& text) const { std::ofstream(root_ / relative) << text; }
  void remove(const std::string& relative) const { fs::remove(root_ / relative); }

 private:
  fs::path root_;
};

TEST(Resources, TheShippedAssetsLoad) {
  const Result<Resources> loaded = load_resources();
  ASSERT_TRUE(loaded.ok()) << loaded.error();
  EXPECT_FALSE(loaded.value().presets.empty());
  EXPECT_FALSE(loaded.value().example_sentences.empty());
  EXPECT_FALSE(loaded.value().grammar.relations.empty());
}

TEST(Resources, AMissingFileIsOneErrorNamingIt) {
  const CopiedAssets assets("headlab-missing-grammar");
  assets.remove("grammar.json");
  const Result<Resources> loaded = load_resources();
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().find("grammar.json"), std::string::npos) << loaded.error();
}

TEST(Resources, ABrokenLessonStepNamesFileStepAndField) {
  const CopiedAssets assets("headlab-broken-lesson");
  const std::optional<std::string> original = read_asset("lessons/02-projections.json");
  ASSERT_TRUE(original);
  // Misspell "head" in the first step's third setup request, {"op": "selectHead", "layer": 0, "head": 0}.
  std::string text = *original;
  const std::size_t select = text.find("\"selectHead\"");
  ASSERT_NE(select, std::string::npos);
  const std::size_t head = text.find("\"head\"", select);
  ASSERT_NE(head, std::string::npos);
  text.replace(head, 6, "\"hed\"");
  assets.write("lessons/02-projections.json", text);
  const Result<Resources> loaded = load_resources();
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().rfind("assets/lessons/02-projections.json: ", 0), 0u) << loaded.error();
  EXPECT_NE(loaded.error().find(".steps[0].setup[2].head: expected an integer"), std::string::npos) << loaded.error();
}

TEST(Resources, BrokenUiTextIsRefused) {
  const CopiedAssets assets("headlab-broken-ui-text");
  assets.write("ui_text.json", "{\"texts\": {\"next\": {\"en\": \"Next\"}}}");
  const Result<Resources> loaded = load_resources();
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error(), "assets/ui_text.json: texts.next: expected both languages");
}

}  // namespace
}  // namespace headlab::app

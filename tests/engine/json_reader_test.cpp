// The one JSON field reader: strict types, ranges, and errors that name the path.
#include <gtest/gtest.h>

#include "engine/json_reader.h"

namespace headlab {
namespace {

using nlohmann::json;

TEST(JsonPath, MembersAndElements) {
  EXPECT_EQ(json_path("", "d_model"), "d_model");
  EXPECT_EQ(json_path("layers[0]", "heads"), "layers[0].heads");
  EXPECT_EQ(json_path(json_path(json_path("layers", 0), "W_Q"), 3), "layers[0].W_Q[3]");
}

TEST(JsonReader, IntegersAreStrictAndRanged) {
  const json doc = {{"a", 3}, {"b", 3.0}, {"c", 2.5}, {"d", "3"}, {"e", -1}, {"f", 4294967295LL}, {"g", true}};
  JsonReader r;
  long long v = 0;
  EXPECT_TRUE(r.integer(r.field(doc, "", "a"), "a", 0, 10, v));
  EXPECT_EQ(v, 3);
  EXPECT_TRUE(r.integer(r.field(doc, "", "b"), "b", 0, 10, v));  // JavaScript numbers
  EXPECT_EQ(v, 3);
  EXPECT_TRUE(r.integer(r.field(doc, "", "f"), "f", 0, 4294967295LL, v));
  EXPECT_EQ(v, 4294967295LL);
  EXPECT_TRUE(r.ok());
  const std::pair<const char*, const char*> refused[] = {{"c", "2.5"}, {"d", "\"3\""}, {"e", "-1"}, {"g", "true"}};
  for (const auto& [key, shown] : refused) {
    JsonReader bad;
    EXPECT_FALSE(bad.integer(bad.field(doc, "request", key), json_path("request", key), 0, 10, v)) << key;
    EXPECT_EQ(bad.error(), std::string("request.") + key + ": expected an integer in 0..10 (got " + shown + ")");
  }
  JsonReader missing;
  EXPECT_FALSE(missing.integer(missing.field(doc, "request", "steps"), "request.steps", 1, 5, v));
  EXPECT_EQ(missing.error(), "request.steps: missing");
}

TEST(JsonReader, NumbersBooleansStringsArraysObjects) {
  const json doc = json::parse(R"({"x": 0.5, "big": 1e300, "s": "", "t": "text", "flag": false,
                                    "list": [1, 2, 3], "o": {}})");
  JsonReader r;
  float f = 0.0f;
  double d = 0.0;
  bool b = true;
  std::string s;
  EXPECT_TRUE(r.number(r.field(doc, "", "x"), "x", f));
  EXPECT_FLOAT_EQ(f, 0.5f);
  EXPECT_TRUE(r.number(r.field(doc, "", "x"), "x", 0, 1, d));
  EXPECT_TRUE(r.boolean(r.field(doc, "", "flag"), "flag", b));
  EXPECT_FALSE(b);
  EXPECT_TRUE(r.string(r.field(doc, "", "s"), "s", s));
  EXPECT_TRUE(r.string(r.field(doc, "", "t"), "t", s, true, 4));
  EXPECT_EQ(s, "text");
  EXPECT_NE(r.array(r.field(doc, "", "list"), "list", 1, 3), nullptr);
  EXPECT_NE(r.object(r.field(doc, "", "o"), "o"), nullptr);
  EXPECT_TRUE(r.ok());

  const auto error = [&](auto read) {
    JsonReader reader;
    EXPECT_FALSE(read(reader));
    return reader.error();
  };
  EXPECT_EQ(error([&](JsonReader& x) { return x.number(&doc["big"], "big", f); }), "big: must be a finite number (got 1e+300)");
  EXPECT_EQ(error([&](JsonReader& x) { return x.number(&doc["t"], "t", f); }), "t: expected a number (got \"text\")");
  EXPECT_EQ(error([&](JsonReader& x) { return x.number(&doc["x"], "x", 1, 1000, f); }), "x: expected a number in [1, 1000] (got 0.5)");
  EXPECT_EQ(error([&](JsonReader& x) { return x.number(&doc["x"], "x", 0, 0.25, d); }), "x: expected a number in [0, 0.25] (got 0.5)");
  EXPECT_EQ(error([&](JsonReader& x) { return x.boolean(&doc["x"], "x", b); }), "x: expected true or false (got 0.5)");
  EXPECT_EQ(error([&](JsonReader& x) { return x.string(&doc["s"], "s", s, true); }), "s: expected a non-empty string");
  EXPECT_EQ(error([&](JsonReader& x) { return x.string(&doc["x"], "x", s); }), "x: expected a string (got 0.5)");
  EXPECT_EQ(error([&](JsonReader& x) { return x.string(&doc["t"], "t", s, true, 3); }),
            "t: expected a string of at most 3 bytes");
  EXPECT_EQ(error([&](JsonReader& x) { return x.array(&doc["list"], "list", 1, 2, "layers") != nullptr; }),
            "list: expected 1 to 2 layers, got 3");
  EXPECT_EQ(error([&](JsonReader& x) { return x.array(&doc["o"], "o") != nullptr; }), "o: expected an array of elements");
  EXPECT_EQ(error([&](JsonReader& x) { return x.object(&doc["list"], "list") != nullptr; }), "list: expected an object");
  enum class Norm { none, pre };
  Norm norm = Norm::none;
  EXPECT_EQ(error([&](JsonReader& x) { return x.one_of<Norm>(&doc["t"], "norm", {{"none", Norm::none}, {"pre", Norm::pre}}, norm); }),
            "norm: expected one of \"none\", \"pre\" (got \"text\")");
}

TEST(JsonReader, KeepsTheFirstError) {
  JsonReader r;
  EXPECT_FALSE(r.fail("a", "first"));
  EXPECT_FALSE(r.fail("b", "second"));
  EXPECT_EQ(r.error(), "a: first");
  EXPECT_EQ(JsonReader::optional_field(json::array(), "x"), nullptr);
}

}  // namespace
}  // namespace headlab

#include "cli/tokenize_command.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>

#include "engine/assets.h"
#include "engine/bpe/bpe_files.h"
#include "engine/bpe/token_labels.h"

namespace headlab::cli {
namespace {

const char* const kTokenizeUsage =
    "usage: headlab-cli tokenize --tokenizer gpt2|FILE.json|NAME (--text \"...\" | --text-file PATH|-) [--labels]\n";

std::optional<std::string> read_file(const std::string& path) {
  if (path == "-") return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

Result<bpe::BpeTokenizer> load_tokenizer(const std::string& name) {
  using R = Result<bpe::BpeTokenizer>;
  if (name == "gpt2") {
    const char* from_environment = std::getenv("HEADLAB_GPT2_TOKENIZER");
    const std::string dir = from_environment && *from_environment ? from_environment : HEADLAB_GPT2_TOKENIZER_DIR;
    const auto encoder = read_file(dir + "/encoder.json"), merges = read_file(dir + "/vocab.bpe");
    if (!encoder || !merges)
      return R::failure("gpt2: cannot read encoder.json and vocab.bpe in " + dir + " (scripts/setup installs them)");
    return bpe::read_gpt2_tokenizer(*encoder, *merges);
  }
  const bool is_path = name.find('/') != std::string::npos ||
                       (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0);
  const auto text = is_path ? read_file(name) : read_asset("tokenizers/" + name + ".json");
  if (!text) return R::failure(is_path ? "cannot read " + name : "no tokenizer named \"" + name + "\" in assets/tokenizers");
  auto tokenizer = bpe::parse_bpe_file(*text);
  if (!tokenizer.ok()) return R::failure(name + ": " + tokenizer.error());
  return tokenizer;
}

int run_tokenize(const std::vector<std::string>& args) {
  std::string tokenizer_name, text;
  bool have_text = false, labels = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const bool has_value = i + 1 < args.size();
    if (args[i] == "--tokenizer" && has_value) {
      tokenizer_name = args[++i];
    } else if (args[i] == "--text" && has_value && !have_text) {
      text = args[++i];
      have_text = true;
    } else if (args[i] == "--text-file" && has_value && !have_text) {
      const auto read = read_file(args[++i]);
      if (!read) {
        std::cerr << "headlab-cli: cannot read " << args[i] << "\n";
        return 1;
      }
      text = *read;
      have_text = true;
    } else if (args[i] == "--labels") {
      labels = true;
    } else {
      std::cerr << kTokenizeUsage;
      return 2;
    }
  }
  if (tokenizer_name.empty() || !have_text) {
    std::cerr << kTokenizeUsage;
    return 2;
  }
  const auto tokenizer = load_tokenizer(tokenizer_name);
  if (!tokenizer.ok()) {
    std::cerr << "headlab-cli: " << tokenizer.error() << "\n";
    return 1;
  }
  const bpe::BpeEncoding encoding = bpe::encode(tokenizer.value(), text);
  nlohmann::json out = {{"ids", encoding.ids}, {"tokens", encoding.tokens}};
  if (labels) out["labels"] = bpe::token_labels(tokenizer.value(), encoding.ids);
  std::cout << out.dump() << "\n";
  return 0;
}

}  // namespace headlab::cli

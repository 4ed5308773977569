// headlab-cli: the engine from the command line.
//   headlab-cli forward MODEL.json   run the model on its input and print every head as JSON
//   headlab-cli forward -            read the model file from stdin
//   headlab-cli forward FILE.safetensors [--text "..."]
//                                    a GPT-2 checkpoint or a HeadLab text model on a text, with
//                                    next-token predictions
//   headlab-cli train [options]      train on the grammar's language, write a model + manifest;
//                                    --task induction: on repeated random segments
//                                    (options: headlab-cli train --help; docs/training.md)
//   headlab-cli tokenize --tokenizer gpt2|FILE.json|NAME --text "..."
//                                    a byte-level BPE's {"ids": [...], "tokens": [...]}
// Exit status 0 on success; 1 with a one-line message on stderr for bad input; 2 for bad usage.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/checkpoint_forward_command.h"
#include "cli/forward_command.h"
#include "cli/tokenize_command.h"
#include "cli/train_command.h"

namespace {

int usage() {
  std::cerr << "usage: headlab-cli forward MODEL.json|-\n       headlab-cli forward FILE.safetensors [--text \"...\"]\n"
               "       headlab-cli train [options]\n"
               "       headlab-cli tokenize --tokenizer gpt2|FILE.json|NAME --text \"...\"\n";
  return 2;
}

bool read_input(const std::string& path, std::string& text) {
  std::ostringstream buffer;
  if (path == "-") {
    buffer << std::cin.rdbuf();
  } else {
    std::ifstream file(path, std::ios::binary);
    if (!file) return false;
    buffer << file.rdbuf();
  }
  text = buffer.str();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string command = argv[1];
  if (command == "forward" && argc >= 3 && headlab::cli::is_checkpoint_path(argv[2]))
    return headlab::cli::run_checkpoint_forward(std::vector<std::string>(argv + 2, argv + argc));
  if (command == "forward") {
    if (argc != 3) return usage();
    std::string text;
    if (!read_input(argv[2], text)) {
      std::cerr << "headlab-cli: cannot read " << argv[2] << "\n";
      return 1;
    }
    std::string output, error;
    if (!headlab::cli::run_forward(text, output, error)) {
      std::cerr << "headlab-cli: " << error << "\n";
      return 1;
    }
    std::cout << output << "\n";
    return 0;
  }
  if (command == "tokenize") return headlab::cli::run_tokenize(std::vector<std::string>(argv + 2, argv + argc));
  if (command == "train") return headlab::cli::run_train(std::vector<std::string>(argv + 2, argv + argc));
  return usage();
}

#pragma once
// What a model learns from. Both tasks feed the same batches (Sentence -> make_batch) to the same
// model and optimiser (trainer.h); only where the sequences come from differs.
#include <string_view>

namespace headlab::training {

enum class Task {
  grammar,    // sentences of the grammar's language (masked tokens by default): syntactic heads
  induction,  // random symbols with a segment repeated (next token, causal): induction heads
};

// "grammar" | "induction", the names files, requests and lessons use.
constexpr std::string_view task_name(Task task) { return task == Task::induction ? "induction" : "grammar"; }

}  // namespace headlab::training

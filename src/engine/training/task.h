#pragma once
// What a model learns from. Both tasks feed the same batches (Sentence -> make_batch) to the same
// model and optimiser (trainer.h); only where the sequences come from differs.
#include <optional>
#include <string_view>

#include "engine/enum_names.h"

namespace headlab::training {

enum class Task {
  grammar,    // sentences of the grammar's language (masked tokens by default): syntactic heads
  induction,  // random symbols with a segment repeated (next token, causal): induction heads
  lm,         // windows of real text as BPE tokens (next token, causal): text_task.h
};

// The names files, requests, lessons and the command line use; every reader and writer goes
// through this table.
inline constexpr EnumName<Task> kTaskNames[] = {{"grammar", Task::grammar}, {"induction", Task::induction}, {"lm", Task::lm}};

constexpr std::string_view task_name(Task task) { return enum_name(kTaskNames, task); }
constexpr std::optional<Task> task_from_name(std::string_view name) { return enum_from_name(kTaskNames, name); }

}  // namespace headlab::training

#pragma once
// The one place an Action changes the AppState. Every field is validated before anything is
// written, so a refused action leaves the whole state (document, selection, progress, notices,
// preferences) exactly as it was. apply never recomputes and never reads files: the Controller
// recomputes after it, and presets come from the Resources loaded at start-up.
#include <string>
#include <vector>

#include "app/action.h"
#include "app/app_state.h"
#include "app/resources.h"

namespace headlab::app {

struct ActionResult {
  std::string error;              // empty on success; else names the field ("head 9 does not exist ...")
  std::vector<int> pruned_heads;  // PruneLeastImportant: the heads it pruned, least important first
  bool changed = true;            // Undo, Redo: false when there was nothing to undo or redo; LoadTextModel:
                                  // false when the model is only being fetched (no undo step)
  bool ok() const { return error.empty(); }
};

// PruneLeastImportant ranks heads by state.analysis, so the state must be analysed (not dirty);
// the Controller guarantees that. A successful document edit marks the state dirty.
ActionResult apply(AppState& state, const Resources& resources, const Action& action);

// Why `action` cannot apply to the state's model (empty: it can): a model read from a checkpoint
// keeps the shape its weights have (head count, d_k, layers, d_model, embedding, positions). The UI
// disables those controls with this reason.
std::string checkpoint_structure_refusal(const AppState& state, const Action& action);

}  // namespace headlab::app

#pragma once
// Exact numeric entry of one weight (double-click / Ctrl-click a cell).
#include <string>

#include "ui/ui_state.h"
#include "ui/words.h"

namespace headlab::ui {

struct PanelContext;

// Parses what the learner typed. Accepts decimal and scientific notation with surrounding spaces;
// refuses empty text, trailing garbage, NaN, infinities and |value| > 1e30, with a message.
bool parse_weight_text(const std::string& text, double& value, std::string& error, const Words& words);

void open_weight_entry(LabUiState& ui, const app::MatrixRef& ref, int row, int col, float current);
void draw_weight_entry_popup(PanelContext& context);

}  // namespace headlab::ui

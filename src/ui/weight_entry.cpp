#include "ui/weight_entry.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "imgui.h"
#include "ui/format_text.h"
#include "ui/panels.h"

namespace headlab::ui {

bool parse_weight_text(const std::string& text, double& value, std::string& error, const Words& words) {
  std::size_t begin = text.find_first_not_of(" \t");
  std::size_t end = text.find_last_not_of(" \t");
  if (begin == std::string::npos) {
    error = words("entry_empty");
    return false;
  }
  const std::string trimmed = text.substr(begin, end - begin + 1);
  char* stop = nullptr;
  const double parsed = std::strtod(trimmed.c_str(), &stop);
  if (stop == trimmed.c_str() || *stop != '\0') {
    error = format_text(words("entry_not_a_number"), trimmed.c_str());
    return false;
  }
  if (!std::isfinite(parsed)) {
    error = words("entry_not_finite");
    return false;
  }
  if (std::fabs(parsed) > 1e30) {
    error = words("entry_too_large");
    return false;
  }
  value = parsed;
  return true;
}

void open_weight_entry(LabUiState& ui, const app::MatrixRef& ref, int row, int col, float current) {
  ui.cell_entry.pending_open = true;  // opened by draw_weight_entry_popup at its own ID stack
  ui.cell_entry.matrix = ref;
  ui.cell_entry.row = row;
  ui.cell_entry.col = col;
  ui.cell_entry.error.clear();
  std::snprintf(ui.cell_entry.text, sizeof ui.cell_entry.text, "%.6g", current);
}

void draw_weight_entry_popup(PanelContext& context) {
  CellEntry& entry = context.ui.cell_entry;
  if (entry.pending_open) {
    ImGui::OpenPopup("weight_entry");
    entry.pending_open = false;
  }
  if (!ImGui::BeginPopup("weight_entry")) return;
  static const char* const kNames[4] = {"W_Q", "W_K", "W_V", "W_O"};
  // Named as the editor's axes are: W_Q, W_K, W_V rows are input features ("W_K[noun, 0]"), W_O
  // columns are the output's features ("W_O[3, noun]").
  const auto feature = [&](int index) {
    return index >= 0 && index < static_cast<int>(context.feature_names().size()) ? context.feature_names()[index] : std::to_string(index);
  };
  const bool output = entry.matrix.which == app::WeightMatrix::W_O;
  const std::string row = output ? std::to_string(entry.row) : feature(entry.row);
  const std::string col = output ? feature(entry.col) : std::to_string(entry.col);
  ImGui::Text("%s[%s, %s]", kNames[static_cast<int>(entry.matrix.which)], row.c_str(), col.c_str());
  // Focus the field when the popup opens, and again after a refused value so the learner can retype.
  if (ImGui::IsWindowAppearing() || entry.refocus) ImGui::SetKeyboardFocusHere();
  entry.refocus = false;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f);
  const bool submitted = ImGui::InputText("##value", entry.text, sizeof entry.text,
                                          ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
  ImGui::SameLine();
  const bool ok = ImGui::Button(with_id(context.tr("entry_set"), "set").c_str());
  ImGui::SameLine();
  if (ImGui::Button(with_id(context.tr("entry_cancel"), "cancel").c_str())) ImGui::CloseCurrentPopup();
  if (submitted || ok) {
    double value = 0.0;
    if (parse_weight_text(entry.text, value, entry.error, context.words())) {
      const std::string refused =
          context.actions.emit(app::SetWeight{entry.matrix.layer, entry.matrix.head, entry.matrix.which, entry.row, entry.col, value}).error;
      if (refused.empty()) ImGui::CloseCurrentPopup();
      else entry.error = refused;
    }
    entry.refocus = !entry.error.empty();
  }
  if (!entry.error.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 18.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", entry.error.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::TextDisabled("%s", context.tr("entry_keys"));
  ImGui::EndPopup();
}

}  // namespace headlab::ui

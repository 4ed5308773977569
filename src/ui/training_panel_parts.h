#pragma once
// What the Training tab's files share: its colours, a wrapped hint, and the views of the jobs beside
// the run (training_panel_jobs.cpp: probes, the comparison and the head-count experiment).
#include "app/training_session.h"
#include "imgui.h"
#include "ui/panels.h"
#include "ui/words.h"

namespace headlab::ui {

inline constexpr ImU32 kTrainColour = IM_COL32(86, 180, 233, 255);    // sky blue
inline constexpr ImU32 kHeldOutColour = IM_COL32(230, 159, 0, 255);   // orange
inline constexpr ImU32 kControlColour = IM_COL32(150, 150, 150, 255);
inline constexpr ImU32 kRepeatColour = IM_COL32(204, 121, 167, 255);  // reddish purple
// One colour per head index in the per-head curves (Okabe-Ito, distinguishable with colour blindness).
inline constexpr ImU32 kHeadColours[] = {IM_COL32(0, 114, 178, 255),  IM_COL32(213, 94, 0, 255),   IM_COL32(0, 158, 115, 255),
                                  IM_COL32(240, 228, 66, 255), IM_COL32(86, 180, 233, 255), IM_COL32(204, 121, 167, 255),
                                  IM_COL32(230, 159, 0, 255),  IM_COL32(150, 150, 150, 255)};

inline void wrapped_disabled(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

// Probes of every head on demand; one big head against several small ones, and the experiment.
void draw_training_probes(const app::TrainingSession& session, PanelContext& context, float width, const Words& t);
void draw_training_comparison(const app::TrainingSession& session, PanelContext& context, float width, float height,
                              const Words& t);

}  // namespace headlab::ui

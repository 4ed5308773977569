// "Which heads matter?": the pruning curve of the lab model (app/pruning_curve.h) in importance
// order against random orders, measured on request, and any point of it applied as one undoable
// edit (SetPruned per head, one merge group).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "imgui.h"
#include "ui/format_text.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/widget_ids.h"
#include "ui/value_slider.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

// How long a frame spends measuring a curve before it draws.
constexpr std::chrono::milliseconds kMeasuringSlice{30};

constexpr ImU32 kImportanceColour = IM_COL32(0, 114, 178, 255);  // blue
constexpr ImU32 kRandomColour = IM_COL32(230, 159, 0, 255);      // orange
constexpr ImU32 kRangeColour = IM_COL32(230, 159, 0, 110);
// One merge group for "prune the first k heads": a single undo step.
constexpr std::uint64_t kApplyMergeKey = 0x9E0C'0001'0000'0000ull;

const char* measure_text(app::PruningMeasure measure, const Words& words) {
  switch (measure) {
    case app::PruningMeasure::held_out_loss: return words("pruning_measure_loss");
    case app::PruningMeasure::text_loss: return words("pruning_measure_text_loss");
    case app::PruningMeasure::output_change: break;
  }
  return words("pruning_measure_change");
}

}  // namespace

void draw_pruning_curve(PanelContext& context, float width) {
  LabUiState& ui = context.ui;
  const app::AppState& state = context.state();
  const float font = ImGui::GetFontSize();
  const Words words = context.words();
  // A lesson step about pruning opens the section and scrolls it into view, once.
  const bool reveal = ui.reveal_pruning;
  ui.reveal_pruning = false;
  if (reveal) ImGui::SetNextItemOpen(true);
  const bool open = ImGui::CollapsingHeader(with_id(words("pruning_title"), "pruning").c_str());
  register_item(ui, ids::kPruningSection);
  if (reveal) ImGui::SetScrollHereY(0.0f);
  if (!open) return;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", words("pruning_help"));
  ImGui::PopTextWrapPos();
  const bool stale = ui.pruning_curve && ui.pruning_revision != state.revision;
  if (ui.pruning_job) {
    // Measurements until this frame's slice is spent (at least one), then draw: the page stays
    // alive while a checkpoint's curve takes seconds.
    const auto start = std::chrono::steady_clock::now();
    while (!ui.pruning_job->advance() && std::chrono::steady_clock::now() - start < kMeasuringSlice) {
    }
    if (ui.pruning_job->done()) {
      ui.pruning_curve = ui.pruning_job->curve();
      ui.pruning_revision = ui.pruning_job_revision;
      ui.pruning_apply = 0;
      ui.pruning_job.reset();
    } else {
      char overlay[64];
      std::snprintf(overlay, sizeof overlay, words("pruning_measuring"), ui.pruning_job->measured(), ui.pruning_job->total());
      ImGui::ProgressBar(static_cast<float>(ui.pruning_job->measured()) / static_cast<float>(std::max(1, ui.pruning_job->total())),
                         ImVec2(std::max(font * 8.0f, width - font * 6.0f), 0), overlay);
      register_item(ui, ids::kPruningProgress);
      ImGui::SameLine();
      if (ImGui::Button(with_id(words("pruning_cancel"), "cancel").c_str())) ui.pruning_job.reset();
      register_item(ui, ids::kPruningCancel);
      return;
    }
  }
  if (ImGui::Button(with_id(words(ui.pruning_curve ? "pruning_measure_again" : "pruning_measure"), "measure").c_str())) {
    ui.pruning_job = std::make_shared<app::PruningCurveJob>(state, context.resources());
    ui.pruning_job_revision = state.revision;
  }
  register_item(ui, ids::kPruningMeasure);
  if (!ui.pruning_curve) return;
  const app::PruningCurve& curve = *ui.pruning_curve;
  if (stale) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", words("pruning_stale"));
  }
  const int steps = static_cast<int>(curve.importance_order.size());
  if (steps == 0) {
    ImGui::TextDisabled("%s", words("pruning_all_pruned"));
    return;
  }
  std::vector<float> x(curve.pruned_counts.begin(), curve.pruned_counts.end());
  const int last_point = static_cast<int>(x.size()) - 1;
  const std::string random_name = format_text(words("pruning_random_mean"), curve.random_orders);
  std::vector<PlotSeries> series = {
      {curve.importance.data(), x.data(), static_cast<int>(x.size()), kImportanceColour, words("pruning_importance_order")}};
  if (!curve.random_mean.empty()) {
    series.push_back({curve.random_mean.data(), x.data(), static_cast<int>(x.size()), kRandomColour, random_name.c_str()});
    series.push_back({curve.random_min.data(), x.data(), static_cast<int>(x.size()), kRangeColour, words("pruning_random_range"), true});
    series.push_back({curve.random_max.data(), x.data(), static_cast<int>(x.size()), kRangeColour, "", true});
  }
  ui.pruning_apply = std::clamp(ui.pruning_apply, 0, last_point);
  const int point = ui.pruning_apply;
  const int k = curve.pruned_counts[point];
  PlotOptions options;
  options.x_label = words("pruning_x_label");
  options.x_max_at_least = static_cast<float>(steps);
  options.mark_x = static_cast<float>(k);
  options.mark_label = "";
  options.y_label = measure_text(curve.measure, words);
  options.whole_x = true;
  line_plot("pruning", series, ImVec2(std::min(width, ImGui::GetContentRegionAvail().x), font * 11.0f), options);
  register_item(ui, ids::kPruningPlot);

  ImGui::SetNextItemWidth(std::min(width * 0.5f, font * 10.0f));
  if (last_point == steps) {
    value_slider_int("##prune_count", &ui.pruning_apply, 0, steps, words("pruning_count"));
  } else {
    // A dozen measured points of many heads: the slider steps through them, showing the count.
    char shown[32];
    std::snprintf(shown, sizeof shown, words("pruning_count"), k);
    ImGui::SliderInt("##prune_count", &ui.pruning_apply, 0, last_point, shown);
  }
  register_item(ui, ids::kPruningCount);
  ImGui::SameLine();
  ImGui::BeginDisabled(stale || k == 0);
  if (ImGui::Button(with_id(words("pruning_apply"), "prune_them").c_str())) {
    for (int i = 0; i < k; ++i) {
      const auto [layer, head] = curve.importance_order[i];
      context.actions.emit(app::SetPruned{layer, head, true}, kApplyMergeKey);
    }
    context.actions.end_merge();
  }
  ImGui::EndDisabled();
  register_item(ui, ids::kPruningApply);
  item_tooltip(words("pruning_apply_tip"));
  std::string names;
  for (int i = 0; i < k && i < 6; ++i)
    names += (i ? ", L" : "L") + std::to_string(curve.importance_order[i].first) + "H" + std::to_string(curve.importance_order[i].second);
  if (k > 6) names += ", ...";
  ImGui::PushTextWrapPos(0.0f);
  if (curve.random_mean.empty())
    ImGui::Text(words("pruning_point"), k, measure_text(curve.measure, words), curve.importance[point], curve.importance[0]);
  else
    ImGui::Text(words("pruning_point_random"), k, k ? " " : "", names.c_str(), curve.importance[point], curve.random_mean[point],
                curve.importance[0]);
  ImGui::PopTextWrapPos();
}

}  // namespace headlab::ui

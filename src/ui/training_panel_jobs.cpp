// The Training tab's views of the jobs beside the run: probes of every head, one big head against
// several small ones, and the head-count experiment. They draw the session and emit actions.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/analysis/label_families.h"
#include "ui/plot.h"
#include "ui/training_panel_parts.h"
#include "ui/value_slider.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

// One row per head: probe accuracy as a bar, the control task's accuracy as a grey bar inside it.
void probe_bar(float accuracy, float control, float selectivity, float width, const Words& t) {
  const float font = ImGui::GetFontSize();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float bar_w = std::max(font * 2.0f, width - font * 2.8f), h = font * 0.95f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(p, ImVec2(p.x + bar_w, p.y + h), ImGui::GetColorU32(ImGuiCol_FrameBg), 2.0f);
  draw->AddRectFilled(p, ImVec2(p.x + bar_w * std::clamp(accuracy, 0.0f, 1.0f), p.y + h), kTrainColour, 2.0f);
  draw->AddRectFilled(ImVec2(p.x, p.y + h * 0.55f), ImVec2(p.x + bar_w * std::clamp(control, 0.0f, 1.0f), p.y + h), kControlColour, 2.0f);
  char text[16];
  std::snprintf(text, sizeof text, "%+.2f", selectivity);
  draw->AddText(ImVec2(p.x + bar_w + font * 0.3f, p.y),
                selectivity >= 0.1f ? ImGui::GetColorU32(ImGuiCol_Text) : ImGui::GetColorU32(ImGuiCol_TextDisabled), text);
  ImGui::Dummy(ImVec2(width, h));
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::Text(t("train_probe_tooltip"), accuracy, control, selectivity);
    ImGui::EndTooltip();
  }
}

}  // namespace

void draw_training_probes(const app::TrainingSession& session, PanelContext& context, float width, const Words& t) {
  LabUiState& ui = context.ui;
  const float font = ImGui::GetFontSize();
  const app::ProbeProgress& probes = session.probes();
  if (session.settings().task != training::Task::grammar) {
    // Probes read parts of speech and relations: random symbols and the text sample have none.
    wrapped_disabled(t(session.settings().task == training::Task::lm ? "train_probe_text" : "train_probe_symbols"));
    return;
  }
  ImGui::BeginDisabled(probes.running());
  if (ImGui::Button(t("train_probe_now"))) context.actions.emit(app::StartProbes{});
  ImGui::EndDisabled();
  register_item(ui, ids::kTrainProbe);
  ImGui::SameLine();
  if (probes.running()) ImGui::Text(t("train_probing"), static_cast<int>(probes.heads.size()) + 1, probes.total);
  else if (probes.step >= 0) ImGui::TextDisabled(t("train_probed_at"), probes.step);
  else ImGui::TextDisabled("%s", t("train_not_probed"));
  wrapped_disabled(t("train_probe_help"));
  if (probes.heads.empty()) return;
  const float name_w = font * 3.5f, column_w = (width - name_w) * 0.5f - font * 0.5f;
  const ImVec2 chart = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(ImVec2(chart.x + name_w, chart.y));
  ImGui::TextUnformatted(t("train_probe_pos"));
  ImGui::SameLine(name_w + column_w + font * 0.5f);
  ImGui::TextUnformatted(t("train_probe_relation"));
  for (const training::HeadProbe& h : probes.heads) {
    ImGui::PushID(h.layer * 64 + h.head);
    ImGui::Text("L%dH%d", h.layer, h.head);
    ImGui::SameLine(name_w);
    probe_bar(h.pos_accuracy, h.pos_control_accuracy, h.pos_selectivity, column_w, t);
    ImGui::SameLine(name_w + column_w + font * 0.5f);
    probe_bar(h.relation_accuracy, h.relation_control_accuracy, h.relation_selectivity, column_w, t);
    ImGui::PopID();
  }
  register_rect(ui, ids::kTrainProbeChart, chart, ImVec2(chart.x + width, ImGui::GetCursorScreenPos().y));
}

// One vs many as an experiment: held-out loss against the number of heads (same width), the mean
// of three seeds as a line and each seed as a dot, filled in as the runs finish; then the same
// shape beside what Vaswani et al. 2017 measured.
namespace {

// Vaswani et al. 2017, "Attention is all you need", table 3, rows (A) and the base model: English
// to German development perplexity (per word piece) with h heads of d_model / h at d_model 512.
struct PaperPoint {
  int heads;
  float perplexity;
};
constexpr PaperPoint kVaswaniTable3[] = {{1, 5.29f}, {4, 5.00f}, {8, 4.92f}, {16, 4.91f}, {32, 5.01f}};

// Each value minus the smallest: how far a head count is from the best one, in nats per token.
std::vector<float> above_best(std::vector<float> values) {
  const float best = values.empty() ? 0.0f : *std::min_element(values.begin(), values.end());
  for (float& v : values) v -= best;
  return values;
}

void task_choice(const app::TrainingSession& session, PanelContext& context, const Words& t) {
  LabUiState& ui = context.ui;
  const bool busy = session.experiment_running() || session.experiment_waiting();
  ImGui::BeginDisabled(busy);
  int task = ui.experiment_task == training::Task::lm ? 1 : 0;
  // On one line where it fits (a phone puts each choice on a line of its own).
  const float radio = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::GetStyle().ItemSpacing.x;
  const float line = ImGui::CalcTextSize(t("train_experiment_text")).x + ImGui::CalcTextSize(t("train_experiment_grammar")).x +
                     ImGui::CalcTextSize(t("train_experiment_real_text")).x + 2 * radio + ImGui::GetStyle().ItemSpacing.x;
  const bool one_line = line <= ImGui::GetContentRegionAvail().x;
  ImGui::TextUnformatted(t("train_experiment_text"));
  if (one_line) ImGui::SameLine();
  if (ImGui::RadioButton(t("train_experiment_grammar"), &task, 0)) ui.experiment_task = training::Task::grammar;
  register_item(ui, ids::kTrainExperimentGrammar);
  if (one_line) ImGui::SameLine();
  if (ImGui::RadioButton(t("train_experiment_real_text"), &task, 1)) ui.experiment_task = training::Task::lm;
  register_item(ui, ids::kTrainExperimentText);
  ImGui::EndDisabled();
}

void draw_paper_shape(const training::HeadCountExperiment& e, float width, float height, PanelContext& context, const Words& t) {
  std::vector<float> heads, means;
  for (const training::HeadCountPoint& p : e.points())
    if (p.runs > 0) heads.push_back(std::log2(static_cast<float>(p.heads))), means.push_back(p.mean);
  if (heads.size() < 2) return;
  std::vector<float> paper_heads, paper_loss;
  for (const PaperPoint& p : kVaswaniTable3)
    paper_heads.push_back(std::log2(static_cast<float>(p.heads))), paper_loss.push_back(std::log(p.perplexity));
  const std::vector<float> ours = above_best(means), theirs = above_best(paper_loss);
  ImGui::TextUnformatted(t("train_experiment_paper_title"));
  help_marker(t("train_experiment_paper_help"));
  PlotOptions options;
  options.x_label = t("train_experiment_axis");
  options.y_label = t("train_experiment_paper_y_axis");
  options.whole_x = true;
  options.x_powers_of_two = true;
  options.x_max_at_least = 5.6f;  // room for the 32 tick before the axis title
  line_plot("experiment_paper", {{ours.data(), heads.data(), static_cast<int>(ours.size()), kTrainColour, t("train_experiment_ours")},
                                 {theirs.data(), paper_heads.data(), static_cast<int>(theirs.size()), kHeldOutColour,
                                  t("train_experiment_vaswani")}},
            ImVec2(width, std::clamp(height * 0.3f, ImGui::GetFontSize() * 7.0f, ImGui::GetFontSize() * 11.0f)), options);
  register_item(context.ui, ids::kTrainExperimentPaperPlot);
}

void draw_experiment(const app::TrainingSession& session, PanelContext& context, float width, float height, const Words& t) {
  LabUiState& ui = context.ui;
  const float font = ImGui::GetFontSize();
  const training::HeadCountExperiment* e = session.experiment();
  const bool running = session.experiment_running(), waiting = session.experiment_waiting();
  if (session.experiment_starts() != ui.experiment_starts_seen) {
    ui.experiment_starts_seen = session.experiment_starts();
    ui.experiment_task = session.experiment_asked_task();
  }
  const training::Task shown = e || waiting ? session.experiment_task() : ui.experiment_task;
  ImGui::TextUnformatted(t(shown == training::Task::lm ? "train_experiment_title_text" : "train_experiment_title"));
  help_marker(t(shown == training::Task::lm ? "train_experiment_help_text" : "train_experiment_help"));
  task_choice(session, context, t);
  // Run goes on with the experiment shown while it has the chosen text; another text starts anew.
  const bool same_text = e && session.experiment_task() == ui.experiment_task;
  ImGui::PushID("experiment");
  ImGui::BeginDisabled(waiting);
  if (ImGui::Button(t(running ? "train_pause" : (same_text && !e->done() ? "train_experiment_go_on" : "train_experiment_run")))) {
    if (running || (same_text && !e->done())) context.actions.emit(app::SetExperimentRunning{!running});
    else context.actions.emit(app::StartExperiment{ui.experiment_task});
  }
  ImGui::EndDisabled();
  ImGui::PopID();
  register_item(ui, ids::kTrainExperiment);
  if (waiting) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", t("train_experiment_fetching"));
  }
  if (!session.experiment_error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(session.experiment_error().c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  if (!e) return;
  ImGui::SameLine();
  char progress[64];
  std::snprintf(progress, sizeof progress, t("train_experiment_progress"), e->steps_done(), e->steps_total());
  ImGui::ProgressBar(static_cast<float>(e->steps_done()) / std::max(1, e->steps_total()), ImVec2(-1, 0), progress);
  std::vector<float> heads, means, seed_x, seed_losses;
  for (const training::HeadCountPoint& p : e->points())
    if (p.runs > 0) heads.push_back(std::log2(static_cast<float>(p.heads))), means.push_back(p.mean);
  for (const training::HeadCountRun& run : e->runs())
    if (run.done) seed_x.push_back(std::log2(static_cast<float>(run.heads))), seed_losses.push_back(run.held_out_loss);
  PlotOptions options;
  options.x_label = t("train_experiment_axis");
  options.y_label = t("train_experiment_y_axis");
  options.whole_x = true;
  options.x_powers_of_two = true;
  options.x_max_at_least = std::log2(static_cast<float>(e->points().back().heads)) + 0.6f;  // its tick clears the title
  options.y_from_zero = false;
  line_plot("experiment", {{means.data(), heads.data(), static_cast<int>(means.size()), kTrainColour, t("train_experiment_mean")},
                           {seed_losses.data(), seed_x.data(), static_cast<int>(seed_losses.size()), kHeldOutColour,
                            t("train_experiment_seed"), true}},
            ImVec2(width, std::clamp(height * 0.4f, font * 8.0f, font * 14.0f)), options);
  register_item(ui, ids::kTrainExperimentPlot);
  const int d_model = e->base().architecture.d_model;
  for (const training::HeadCountPoint& p : e->points()) {
    if (p.runs == 0) continue;
    ImGui::Text(t("train_experiment_row"), p.heads, d_model / p.heads, p.mean, p.min, p.max, p.runs);
  }
  draw_paper_shape(*e, width, height, context, t);
}

}  // namespace

void draw_training_comparison(const app::TrainingSession& session, PanelContext& context, float width, float height,
                              const Words& t) {
  LabUiState& ui = context.ui;
  const float font = ImGui::GetFontSize();
  const training::HeadComparison* c = session.comparison();
  const bool running = session.comparison_running();
  ImGui::PushID("compare");
  if (ImGui::Button(t(running ? "train_pause" : "train_compare_run"), ImVec2(font * 4.0f, 0)))
    context.actions.emit(app::SetComparisonRunning{!running});
  register_item(ui, ids::kTrainCompare);
  item_tooltip(t("train_compare_tip"));
  ImGui::SameLine();
  if (ImGui::Button(t("train_compare_restart"))) context.actions.emit(app::StartComparison{});
  ImGui::PopID();
  register_item(ui, ids::kTrainCompareRestart);
  item_tooltip(t("train_compare_restart_tip"));
  if (c) {
    const Layer& many = c->many.model().layers[0];
    const Layer& one = c->one.model().layers[0];
    ImGui::SameLine();
    ImGui::Text(t("train_compare_step"), c->many.steps_done());
    char many_name[64], one_name[64];
    std::snprintf(many_name, sizeof many_name, t("train_compare_many"), many.head_count(), many.d_k);
    std::snprintf(one_name, sizeof one_name, t("train_compare_one"), one.head_count(), one.d_k);
    if (c->many.steps_done() > 0)
      ImGui::Text(t("train_compare_recent"), many_name, training::mean_recent_loss(c->many, 100), one_name,
                  training::mean_recent_loss(c->one, 100));
    const std::vector<float>& a = c->many.loss_history();
    const std::vector<float>& b = c->one.loss_history();
    PlotOptions options;
    options.x_label = t("train_step_axis");
    options.y_label = t("train_loss_axis");
    options.x_max_at_least = static_cast<float>(app::kComparisonTargetSteps);
    line_plot("compare", {{a.data(), nullptr, static_cast<int>(a.size()), kTrainColour, many_name},
                          {b.data(), nullptr, static_cast<int>(b.size()), kHeldOutColour, one_name}},
              ImVec2(width, std::clamp(height * 0.5f, font * 8.0f, font * 18.0f)), options);
    register_item(ui, ids::kTrainComparePlot);
  }
  wrapped_disabled(t("train_compare_help"));
  ImGui::Separator();
  draw_experiment(session, context, width, height, t);
}


}  // namespace headlab::ui

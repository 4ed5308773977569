// Training tab (issue 7): play / pause / step a small transformer on the grammar's language, with
// learning rate, seed and speed; the loss curve and the per-head role timeline; probes of every
// head on demand; one big head against several small ones. The numbers come from the
// TrainingSession (app/), which trains within a per-frame budget; this file only draws and clicks.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/training_session.h"
#include "imgui.h"
#include "ui/panels.h"
#include "ui/plot.h"
#include "ui/role_timeline.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

constexpr ImU32 kTrainColour = IM_COL32(86, 180, 233, 255);    // sky blue
constexpr ImU32 kHeldOutColour = IM_COL32(230, 159, 0, 255);   // orange
constexpr ImU32 kControlColour = IM_COL32(150, 150, 150, 255);

void wrapped_disabled(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

// Buttons first, then the seed, learning rate and speed groups; each group wraps as a whole.
void draw_controls(app::TrainingSession& session, PanelContext& context) {
  LabUiState& ui = context.ui;
  const float font = ImGui::GetFontSize();
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const bool running = session.running();
  if (running) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  if (ImGui::Button(running ? "Pause" : "Play", ImVec2(font * 4.0f, 0))) session.set_running(!running);
  if (running) ImGui::PopStyleColor();
  register_item(ui, ids::kTrainPlay);
  item_tooltip("Train a few steps every frame (as much as the speed allows) until paused.");
  ImGui::SameLine();
  if (ImGui::Button("+10 steps")) session.step(10);
  register_item(ui, ids::kTrainStep);
  item_tooltip("Train 10 steps now (each step: 16 sentences, one Adam update).");
  ImGui::SameLine();
  if (ImGui::Button("Use in lab")) {
    if (session.use_in_lab(context.controller).empty()) {
      ui.detail = DetailView::heatmap;
      ui.side = SidePanel::labels;
    }
  }
  register_item(ui, ids::kTrainUse);
  item_tooltip("Load the trained model into the lab (undoable) to look at its heads' heatmaps and labels.");

  flow_same_line(ImGui::CalcTextSize("seed New run").x + font * 9.5f + spacing * 3);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("seed");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(font * 7.5f);  // the field and its -/+ buttons
  if (ImGui::InputInt("##seed", &ui.training_seed, 1, 1)) ui.training_seed = std::max(0, ui.training_seed);
  register_item(ui, ids::kTrainSeed);
  item_tooltip("The seed draws the initial weights and the training sentences. Another seed: other heads take the roles.");
  ImGui::SameLine();
  if (ImGui::Button("New run")) session.reset(static_cast<std::uint32_t>(ui.training_seed), session.settings().learning_rate);
  register_item(ui, ids::kTrainRestart);
  item_tooltip("Start over from fresh weights drawn with this seed.");

  flow_same_line(ImGui::CalcTextSize("learning rate").x + font * 7.5f + spacing * 2);
  float lr = session.settings().learning_rate;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("learning rate");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(font * 7.5f);
  if (ImGui::SliderFloat("##lr", &lr, app::kMinLearningRate, app::kMaxLearningRate, "%.4f", ImGuiSliderFlags_Logarithmic))
    session.set_learning_rate(lr);
  register_item(ui, ids::kTrainRate);
  item_tooltip("Adam's peak step size (after 100 warm-up steps; decays to 10% by step 3000). Too high and the loss jumps; too low and nothing happens.");

  flow_same_line(ImGui::CalcTextSize("speed").x + font * 9.0f + spacing * 2);
  float percent = session.settings().speed * 100.0f;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("speed");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(font * 9.0f);
  if (ImGui::SliderFloat("##speed", &percent, app::kMinSpeed * 100.0f, app::kMaxSpeed * 100.0f, "%.0f%% of each frame"))
    session.set_speed(percent / 100.0f);
  register_item(ui, ids::kTrainSpeed);
  item_tooltip("Share of each frame spent training. More trains faster but makes the page choppier.");
}

void draw_status(const app::TrainingSession& session) {
  const training::Trainer& trainer = *session.trainer();
  const int steps = trainer.steps_done();
  if (steps == 0) {
    wrapped_disabled("Step 0: press Play. The loss says how surprised the model is by hidden words (guessing evenly among 67 words gives 4.2).");
    return;
  }
  int roles = 0;
  for (const app::HeadRole& role : session.timeline().back().heads) roles += role.label != "mixed";
  ImGui::Text("step %d   loss %.2f (from %.2f)", steps, training::mean_recent_loss(trainer, 50), trainer.loss_history().front());
  char role_count[48];
  std::snprintf(role_count, sizeof role_count, "%d of %zu heads have a role", roles, session.timeline().back().heads.size());
  flow_same_line(ImGui::CalcTextSize(role_count).x, ImGui::GetFontSize());
  ImGui::TextUnformatted(role_count);
  char speed[64] = "paused";
  if (session.running())
    std::snprintf(speed, sizeof speed, "%.0f steps/s, %.0f fps", session.steps_per_second(), session.frames_per_second());
  flow_same_line(ImGui::CalcTextSize(speed).x, ImGui::GetFontSize());
  ImGui::TextDisabled("%s", speed);
}

void draw_progress(app::TrainingSession& session, LabUiState& ui, float width, float height) {
  const float font = ImGui::GetFontSize();
  const training::Trainer& trainer = *session.trainer();
  std::vector<float> held_out_steps, held_out_losses;
  for (const app::TimelineSample& s : session.timeline()) {
    held_out_steps.push_back(static_cast<float>(s.step));
    held_out_losses.push_back(s.held_out_loss);
  }
  const std::vector<float>& losses = trainer.loss_history();
  std::vector<PlotSeries> series;
  series.push_back({losses.data(), nullptr, static_cast<int>(losses.size()), kTrainColour, "training loss"});
  series.push_back({held_out_losses.data(), held_out_steps.data(), static_cast<int>(held_out_losses.size()), kHeldOutColour,
                    "held-out loss", true});
  PlotOptions options;
  options.x_max_at_least = 3000.0f;
  line_plot("loss", series, ImVec2(width, std::clamp(height * 0.36f, font * 7.0f, font * 16.0f)), options);
  register_item(ui, ids::kTrainLoss);
  ImGui::TextUnformatted("What each head does, measured on held-out sentences");
  help_marker(
      "Every 100 steps the model reads 60 sentences it never trained on. A head gets a syntactic role when its strongest "
      "attention lands on the word's grammatical partner (e.g. the verb finds its subject) at least 0.10 more often than "
      "the best fixed offset does (Clark et al. 2019); previous/next token when over half its attention goes one word "
      "back/forward. Brighter = clearer. Hover a cell for the numbers.");
  draw_role_timeline(session, ui, width);
}

// One row per head: probe accuracy as a bar, the control task's accuracy as a grey bar inside it.
void probe_bar(float accuracy, float control, float selectivity, float width) {
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
    ImGui::Text("probe accuracy %.2f, control %.2f, selectivity %+.2f", accuracy, control, selectivity);
    ImGui::EndTooltip();
  }
}

void draw_probes(app::TrainingSession& session, LabUiState& ui, float width) {
  const float font = ImGui::GetFontSize();
  const app::ProbeProgress& probes = session.probes();
  ImGui::BeginDisabled(probes.running());
  if (ImGui::Button("Probe every head now")) session.start_probes();
  ImGui::EndDisabled();
  register_item(ui, ids::kTrainProbe);
  ImGui::SameLine();
  if (probes.running()) ImGui::Text("probing head %zu of %d...", probes.heads.size() + 1, probes.total);
  else if (probes.step >= 0) ImGui::TextDisabled("probes of the model at step %d", probes.step);
  else ImGui::TextDisabled("not run yet");
  wrapped_disabled(
      "A probe is a small linear classifier reading one head's output Z_i. It predicts the part of speech of each "
      "word (POS) and the word's grammatical relation to the word the head attends to. Grey: the same probe on a "
      "control task (random labels per word type, Hewitt & Liang 2019). Selectivity = accuracy - control: only what "
      "beats the control says the head carries grammar.");
  if (probes.heads.empty()) return;
  const float name_w = font * 3.5f, column_w = (width - name_w) * 0.5f - font * 0.5f;
  const ImVec2 chart = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(ImVec2(chart.x + name_w, chart.y));
  ImGui::TextUnformatted("part of speech");
  ImGui::SameLine(name_w + column_w + font * 0.5f);
  ImGui::TextUnformatted("relation to attended word");
  for (const training::HeadProbe& h : probes.heads) {
    ImGui::PushID(h.layer * 64 + h.head);
    ImGui::Text("L%dH%d", h.layer, h.head);
    ImGui::SameLine(name_w);
    probe_bar(h.pos_accuracy, h.pos_control_accuracy, h.pos_selectivity, column_w);
    ImGui::SameLine(name_w + column_w + font * 0.5f);
    probe_bar(h.relation_accuracy, h.relation_control_accuracy, h.relation_selectivity, column_w);
    ImGui::PopID();
  }
  register_rect(ui, ids::kTrainProbeChart, chart, ImVec2(chart.x + width, ImGui::GetCursorScreenPos().y));
}

void draw_comparison(app::TrainingSession& session, LabUiState& ui, float width, float height) {
  const float font = ImGui::GetFontSize();
  const training::HeadComparison* c = session.comparison();
  const bool running = session.comparison_running();
  if (ImGui::Button(running ? "Pause##compare" : "Run##compare", ImVec2(font * 4.0f, 0))) session.set_comparison_running(!running);
  register_item(ui, ids::kTrainCompare);
  item_tooltip("Trains both models side by side within the frame budget; pauses itself every 1,500 steps.");
  ImGui::SameLine();
  if (ImGui::Button("Restart##compare")) session.start_comparison();
  register_item(ui, ids::kTrainCompareRestart);
  item_tooltip("Both models from fresh weights (the seed and learning rate of the Training controls).");
  if (c) {
    const Layer& many = c->many.model().layers[0];
    const Layer& one = c->one.model().layers[0];
    ImGui::SameLine();
    ImGui::Text("step %d", c->many.steps_done());
    char many_name[48], one_name[48];
    std::snprintf(many_name, sizeof many_name, "%d heads x %d dims", many.head_count(), many.d_k);
    std::snprintf(one_name, sizeof one_name, "%d head x %d dims", one.head_count(), one.d_k);
    if (c->many.steps_done() > 0)
      ImGui::Text("recent loss: %s %.2f, %s %.2f", many_name, training::mean_recent_loss(c->many, 100), one_name,
                  training::mean_recent_loss(c->one, 100));
    const std::vector<float>& a = c->many.loss_history();
    const std::vector<float>& b = c->one.loss_history();
    PlotOptions options;
    options.x_max_at_least = static_cast<float>(app::kComparisonTargetSteps);
    line_plot("compare", {{a.data(), nullptr, static_cast<int>(a.size()), kTrainColour, many_name},
                          {b.data(), nullptr, static_cast<int>(b.size()), kHeldOutColour, one_name}},
              ImVec2(width, std::clamp(height * 0.5f, font * 8.0f, font * 18.0f)), options);
    register_item(ui, ids::kTrainComparePlot);
  }
  wrapped_disabled(
      "Same width (d_model = 64 = h x d_k), same data, same seed: the only difference is whether each layer's attention "
      "is split into 4 heads of 16 dimensions or kept as 1 head of 64. Vaswani et al. (2017, section 3.2.2) claim one "
      "head averages away what several heads keep apart: here a verb needs its subject, its object and the final "
      "punctuation at once. Run it and see which loss falls faster.");
}

}  // namespace

void draw_training_panel(PanelContext& context, float width, float height) {
  if (!context.training) {
    ImGui::TextDisabled("Training is not available in this build.");
    return;
  }
  app::TrainingSession& session = *context.training;
  if (!session.started() && session.error().empty()) session.ensure_started();  // the tab is open: build the model
  if (!session.error().empty()) {
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", session.error().c_str());
    return;
  }
  LabUiState& ui = context.ui;
  const float top = ImGui::GetCursorPosY();
  draw_controls(session, context);
  draw_status(session);
  static const char* const kViews[3] = {"Loss and roles", "Probes", "One vs many heads"};
  static const char* const kViewIds[3] = {ids::kTrainViewProgress, ids::kTrainViewProbes, ids::kTrainViewCompare};
  int view = static_cast<int>(ui.training_view);
  if (segmented("training_view", kViews, 3, view, &ui, kViewIds)) ui.training_view = static_cast<TrainingView>(view);
  const float rest = height - (ImGui::GetCursorPosY() - top);
  switch (ui.training_view) {
    case TrainingView::progress: draw_progress(session, ui, width, rest); break;
    case TrainingView::probes: draw_probes(session, ui, width); break;
    case TrainingView::comparison: draw_comparison(session, ui, width, rest); break;
  }
}

}  // namespace headlab::ui

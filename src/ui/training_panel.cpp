// Training tab: play / pause / step a small transformer on one of three tasks (masked words of the
// grammar's language, next symbol on repeated random segments, where induction heads form, or next
// token of real text), with learning rate, seed and speed; the loss curve and the per-head role
// timeline (for the induction task and real text also every head's prefix-matching, previous-token
// and first-token curves with the phase change marked); probes of every head on demand; one big head against several small ones. The numbers come from the
// TrainingSession (app/), which trains within a per-frame budget; this file only draws and clicks.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/training_session.h"
#include "engine/analysis/label_families.h"
#include "engine/head_index.h"
#include "imgui.h"
#include "ui/head_caption.h"
#include "ui/heatmap.h"
#include "ui/panels.h"
#include "ui/training_panel_parts.h"
#include "ui/plot.h"
#include "ui/role_timeline.h"
#include "app/ui_text.h"
#include "ui/widget_ids.h"
#include "ui/value_slider.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

// Buttons first, then the seed, learning rate and speed groups; each group wraps as a whole.
// Which task the run trains on; a choice is a RequestTraining (a fresh, paused run of that task
// from the seed field), the same request a lesson makes.
void draw_task_choice(const app::TrainingSession& session, PanelContext& context, const Words& t) {
  LabUiState& ui = context.ui;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(t("train_task"));
  ImGui::SameLine();
  const char* const tasks[3] = {t("train_task_grammar"), t("train_task_induction"), t("train_task_text")};
  static const char* const kTaskIds[3] = {ids::kTrainTaskGrammar, ids::kTrainTaskInduction, ids::kTrainTaskText};
  static constexpr training::Task kTasks[3] = {training::Task::grammar, training::Task::induction, training::Task::lm};
  static const char* const kHelp[3] = {"train_task_grammar_help", "train_task_induction_help", "train_task_text_help"};
  int task = static_cast<int>(std::find(kTasks, kTasks + 3, session.run_task()) - kTasks) % 3;
  if (segmented("training_task", tasks, 3, task, &ui, kTaskIds))
    context.actions.emit(app::RequestTraining{kTasks[task], static_cast<std::uint32_t>(ui.training_seed), false, true,
                                              session.settings().attention});
  help_marker(t(kHelp[task]));
  // The text sample comes only when a run on real text is asked for: say so while it does, and
  // why if it cannot (the run the learner had stays).
  if (session.run_waiting()) {
    wrapped_disabled(t("train_text_fetching"));
    register_item(ui, ids::kTrainTaskWaiting);
  } else if (!session.run_wait_error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(session.run_wait_error().c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    register_item(ui, ids::kTrainTaskWaiting);
  }
}

// How the run's heads turn scores into weights; a choice is a fresh, paused run of the same task,
// through the same RequestTraining as the task choice (and a lesson).
void draw_attention_choice(const app::TrainingSession& session, PanelContext& context, const Words& t) {
  LabUiState& ui = context.ui;
  const char* const kinds[3] = {t("train_attention_softmax"), t("train_attention_plus_one"), t("train_attention_sigmoid")};
  static const char* const kKindIds[3] = {ids::kTrainAttentionSoftmax, ids::kTrainAttentionPlusOne, ids::kTrainAttentionSigmoid};
  float kinds_width = ImGui::CalcTextSize(t("train_attention")).x + ImGui::GetFontSize() * 6.0f;
  for (const char* kind : kinds) kinds_width += ImGui::CalcTextSize(kind).x;
  flow_same_line(kinds_width);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(t("train_attention"));
  ImGui::SameLine();
  int kind = static_cast<int>(session.settings().attention);
  if (segmented("training_attention", kinds, 3, kind, &ui, kKindIds))
    context.actions.emit(app::RequestTraining{session.settings().task, static_cast<std::uint32_t>(ui.training_seed), false, true,
                                              static_cast<AttentionNormalization>(kind)});
  help_marker(t("train_attention_help"));
}

void draw_controls(const app::TrainingSession& session, PanelContext& context, const Words& t) {
  LabUiState& ui = context.ui;
  const float font = ImGui::GetFontSize();
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  const bool running = session.running();
  if (running) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  ImGui::PushID("play");  // one id whatever the label says
  if (ImGui::Button(t(running ? "train_pause" : "train_play"), ImVec2(font * 4.0f, 0)))
    context.actions.emit(app::PlayTraining{!running});
  ImGui::PopID();
  if (running) ImGui::PopStyleColor();
  register_item(ui, ids::kTrainPlay);
  item_tooltip(t("train_play_tip"));
  ImGui::SameLine();
  if (ImGui::Button(t("train_step10"))) context.actions.emit(app::StepTraining{10});
  register_item(ui, ids::kTrainStep);
  item_tooltip(t("train_step10_tip"));
  ImGui::SameLine();
  if (ImGui::Button(t("train_use"))) {
    if (context.actions.emit(app::UseTrainedModel{}).ok()) {
      ui.detail = DetailView::heatmap;
      ui.side = SidePanel::labels;
    }
  }
  register_item(ui, ids::kTrainUse);
  item_tooltip(t("train_use_tip"));

  flow_same_line(ImGui::CalcTextSize(t("train_seed")).x + ImGui::CalcTextSize(t("train_new_run")).x + font * 9.5f + spacing * 3);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(t("train_seed"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(font * 7.5f);  // the field and its -/+ buttons
  if (ImGui::InputInt("##seed", &ui.training_seed, 1, 1)) ui.training_seed = std::max(0, ui.training_seed);
  register_item(ui, ids::kTrainSeed);
  item_tooltip(t("train_seed_tip"));
  ImGui::SameLine();
  if (ImGui::Button(t("train_new_run")))
    context.actions.emit(app::NewTrainingRun{static_cast<std::uint32_t>(ui.training_seed), std::nullopt});
  register_item(ui, ids::kTrainRestart);
  item_tooltip(t("train_new_run_tip"));

  flow_same_line(ImGui::CalcTextSize(t("train_lr")).x + font * 7.5f + spacing * 2);
  float lr = session.settings().learning_rate;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(t("train_lr"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(font * 7.5f);
  if (value_slider_float("##lr", &lr, app::kMinLearningRate, app::kMaxLearningRate, "%.4f", ImGuiSliderFlags_Logarithmic))
    context.actions.emit(app::SetLearningRate{lr});
  register_item(ui, ids::kTrainRate);
  item_tooltip(t("train_lr_tip"));

  // With a worker, training has a core of its own and takes no share of the page's frames.
  if (session.uses_worker()) return;
  flow_same_line(ImGui::CalcTextSize(t("train_speed")).x + font * 9.0f + spacing * 2);
  float percent = session.settings().speed * 100.0f;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(t("train_speed"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(font * 9.0f);
  if (value_slider_float("##speed", &percent, app::kMinSpeed * 100.0f, app::kMaxSpeed * 100.0f, t("train_speed_format")))
    context.actions.emit(app::SetTrainingSpeed{percent / 100.0f});
  register_item(ui, ids::kTrainSpeed);
  item_tooltip(t("train_speed_tip"));
}

void draw_status(const app::TrainingSession& session, const Words& t) {
  const training::Trainer& trainer = *session.trainer();
  const int steps = trainer.steps_done();
  const training::Task task = session.settings().task;
  if (steps == 0) {
    wrapped_disabled(t(task == training::Task::induction ? "train_step0_symbols"
                       : task == training::Task::lm    ? "train_step0_text"
                                                       : "train_step0"));
    return;
  }
  ImGui::Text(t("train_status"), steps, training::mean_recent_loss(trainer, 50), trainer.loss_history().front());
  if (task != training::Task::lm) {  // real-text runs are read by their scores, not the lab's labels
    int roles = 0;
    for (const app::HeadRole& role : session.timeline().back().heads) roles += role.learned();
    char role_count[96];
    std::snprintf(role_count, sizeof role_count, t("train_roles"), roles, static_cast<int>(session.timeline().back().heads.size()));
    flow_same_line(ImGui::CalcTextSize(role_count).x, ImGui::GetFontSize());
    ImGui::TextUnformatted(role_count);
  }
  char speed[96];
  std::snprintf(speed, sizeof speed, "%s", t("train_paused"));
  if (session.running())
    std::snprintf(speed, sizeof speed, t(session.training_in_worker() ? "train_rate_worker" : "train_rate"),
                  session.steps_per_second(), session.frames_per_second());
  flow_same_line(ImGui::CalcTextSize(speed).x, ImGui::GetFontSize());
  ImGui::TextDisabled("%s", speed);
}

// One score of every head of the chosen layers over the samples, one line per head.
void head_score_plot(const char* id, const app::TrainingSession& session, bool layer0, float score_of(const training::InductionHeadScores&),
                     ImVec2 size, const PlotOptions& options) {
  const std::vector<app::TimelineSample>& timeline = session.timeline();
  const Model& model = session.trainer()->model();
  const int layers = static_cast<int>(model.layers.size());
  std::vector<float> steps;
  for (const app::TimelineSample& s : timeline) steps.push_back(static_cast<float>(s.step));
  // Scores per series, kept alive until the plot is drawn.
  std::vector<std::vector<float>> values;
  std::vector<std::string> names;
  std::vector<std::pair<int, int>> heads;
  for (int l = layer0 ? 0 : (layers > 1 ? 1 : 0); l < (layer0 ? 1 : layers); ++l)
    for (int h = 0; h < model.layers[l].head_count(); ++h) heads.emplace_back(l, h);
  for (const auto& [l, h] : heads) {
    std::vector<float> v;
    const std::size_t index = static_cast<std::size_t>(flat_head_index(model, l, h));
    for (const app::TimelineSample& s : timeline) v.push_back(index < s.induction.size() ? score_of(s.induction[index]) : NAN);
    values.push_back(std::move(v));
    names.push_back("L" + std::to_string(l) + "H" + std::to_string(h));
  }
  std::vector<PlotSeries> series;
  for (std::size_t k = 0; k < values.size(); ++k)
    series.push_back({values[k].data(), steps.data(), static_cast<int>(steps.size()),
                      kHeadColours[(heads[k].first * 3 + heads[k].second) % 8], names[k].c_str()});
  line_plot(id, series, size, options);
}

// Layer dependence of the model now, on the held-out inputs: per layer how far and how widely its
// heads look and which roles they hold (the same measures as the lab's overview summary).
void draw_layer_dependence(const app::TrainingSession& session, LabUiState& ui, const Words& t) {
  const app::TimelineSample& sample = session.timeline().back();
  const Model& model = session.trainer()->model();
  ImGui::TextUnformatted(t("train_layers_title"));
  help_marker(t("train_layers_help"));
  const ImVec2 start = ImGui::GetCursorScreenPos();
  std::size_t index = 0;
  for (std::size_t l = 0; l < model.layers.size() && l < sample.spreads.size(); ++l) {
    std::vector<analysis::Label> labels;
    for (int h = 0; h < model.layers[l].head_count() && index < sample.heads.size(); ++h, ++index)
      labels.push_back(sample.heads[index].label);
    std::string roles;
    for (const auto& [family, count] : analysis::count_label_families(labels))
      roles += (roles.empty() ? "" : ", ") + std::to_string(count) + " " + label_display_name(family, t);
    const analysis::AttentionSpread& s = sample.spreads[l];
    ImGui::Text(t("train_layer_row"), static_cast<int>(l), s.distance, s.entropy, s.uniform_entropy);
    ImGui::SameLine();
    ImGui::TextDisabled("%s", roles.c_str());
  }
  register_rect(ui, ids::kTrainLayers, start, ImVec2(start.x + ImGui::GetContentRegionAvail().x, ImGui::GetCursorScreenPos().y));
}

// The model being trained, head by head, on one held-out input the learner picks, redrawn as it
// learns (the session refreshes the trace a few times a second), each head captioned with its
// label at the latest sample; a click shows that head large.
void draw_training_heads(const app::TrainingSession& session, PanelContext& context, LabUiState& ui, CellTextures* textures, float width, const Words& t) {
  const app::HeadsSnapshot& snapshot = session.snapshot();
  if (snapshot.step < 0) return;
  const float font = ImGui::GetFontSize();
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  ImGui::TextUnformatted(t("train_heads_title"));
  help_marker(t("train_heads_help"));
  ImGui::SetNextItemWidth(width);
  const std::string current = session.snapshot_input_text(snapshot.input);
  if (ImGui::BeginCombo("##train_input", current.c_str())) {
    TallItems tall;
    const int shown = std::min(session.snapshot_input_count(), 20);
    for (int i = 0; i < shown; ++i) {
      ImGui::PushID(i);
      if (ImGui::Selectable(session.snapshot_input_text(i).c_str(), i == snapshot.input))
        context.actions.emit(app::SetTrainingInput{i});
      ImGui::PopID();
    }
    tall.end();
    ImGui::EndCombo();
  }
  register_item(ui, ids::kTrainHeadsInput);
  const Model& model = session.trainer()->model();
  const std::vector<app::HeadRole>& roles = session.timeline().back().heads;
  int max_heads = 1;
  for (const Layer& layer : model.layers) max_heads = std::max(max_heads, layer.head_count());
  const float tile = std::max(font * 3.0f, std::min(font * 7.0f, (width - font * 2.2f) / max_heads - spacing));
  std::size_t index = 0;
  for (int l = 0; l < static_cast<int>(model.layers.size()) && l < static_cast<int>(snapshot.trace.layers.size()); ++l) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("L%d", l);
    ImGui::SameLine(font * 2.0f);
    for (int h = 0; h < model.layers[l].head_count(); ++h, ++index) {
      if (h > 0) ImGui::SameLine();
      ImGui::BeginGroup();
      ImGui::PushID(l * 64 + h);
      HeatmapOptions options;
      options.tokens = &snapshot.texts;
      options.show_labels = false;
      options.empty_text = t("heatmap_no_tokens");
      options.selected = ui.training_head_layer == l && ui.training_head == h;
      options.textures = textures;
      const HeatmapResult r = heatmap("train_thumb", snapshot.trace.layers[l].heads[h].attention, ImVec2(tile, tile), options);
      register_item(ui, std::string(ids::kTrainHead) + "/" + std::to_string(l) + "/" + std::to_string(h));
      if (r.clicked) ui.training_head_layer = l, ui.training_head = h;
      const std::string caption = index < roles.size() ? role_text(roles[index], t, false) : "";
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + tile);
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(index < roles.size() && !roles[index].label.mixed()
                                                            ? role_colour(roles[index].label)
                                                            : ImGui::GetColorU32(ImGuiCol_TextDisabled)),
                         "%s", caption.c_str());
      ImGui::PopTextWrapPos();
      ImGui::PopID();
      ImGui::EndGroup();
    }
  }
  const int l = ui.training_head_layer, h = ui.training_head;
  if (l < 0 || l >= static_cast<int>(snapshot.trace.layers.size()) || h >= static_cast<int>(snapshot.trace.layers[l].heads.size()))
    return;
  ImGui::Text(t("train_head_detail"), l, h, snapshot.step);
  HeatmapOptions options;
  options.tokens = &snapshot.texts;
  options.show_axis_titles = true;
  options.key_title = t("heatmap_key_title");
  options.query_title = t("heatmap_query_title");
  options.empty_text = t("heatmap_no_tokens");
  options.textures = textures;
  const float side = std::min(width, font * 24.0f);
  const HeatmapResult r = heatmap("train_head_detail", snapshot.trace.layers[l].heads[h].attention, ImVec2(side, side), options);
  register_item(ui, ids::kTrainHeadDetail);
  if (r.hovered_row >= 0) {
    ImGui::BeginTooltip();
    ImGui::Text("\"%s\" -> \"%s\": %.3f", snapshot.texts[r.hovered_row].c_str(), snapshot.texts[r.hovered_col].c_str(),
                snapshot.trace.layers[l].heads[h].attention(r.hovered_row, r.hovered_col));
    ImGui::EndTooltip();
  }
}

void draw_progress(const app::TrainingSession& session, PanelContext& context, LabUiState& ui, CellTextures* textures, float width, float height,
                   const Words& t) {
  const float font = ImGui::GetFontSize();
  const training::Trainer& trainer = *session.trainer();
  const training::Task task = session.settings().task;
  const bool induction = task == training::Task::induction, text = task == training::Task::lm;
  std::vector<float> held_out_steps, held_out_losses, repeat_losses;
  for (const app::TimelineSample& s : session.timeline()) {
    held_out_steps.push_back(static_cast<float>(s.step));
    held_out_losses.push_back(s.held_out_loss);
    repeat_losses.push_back(s.repeat_loss);
  }
  const std::vector<float>& losses = trainer.loss_history();
  std::vector<PlotSeries> series;
  series.push_back({losses.data(), nullptr, static_cast<int>(losses.size()), kTrainColour, t("train_loss_train")});
  series.push_back({held_out_losses.data(), held_out_steps.data(), static_cast<int>(held_out_losses.size()), kHeldOutColour,
                    t("train_loss_held_out"), true});
  if (induction)
    series.push_back({repeat_losses.data(), held_out_steps.data(), static_cast<int>(repeat_losses.size()), kRepeatColour,
                      t("train_loss_repeat"), true});
  PlotOptions options;
  options.x_label = t("train_step_axis");
  options.y_label = t("train_loss_axis");
  options.x_max_at_least = 3000.0f;
  const int phase_change = session.phase_change_step();
  char mark[64];
  if (phase_change >= 0) {
    std::snprintf(mark, sizeof mark, t("train_phase_change"), phase_change);
    options.mark_x = static_cast<float>(phase_change);
    options.mark_label = mark;
  }
  const float plot_h = std::clamp(height * (induction || text ? 0.24f : 0.36f), font * 7.0f, font * 16.0f);
  line_plot("loss", series, ImVec2(width, plot_h), options);
  register_item(ui, ids::kTrainLoss);
  if (induction || text) {
    // The two halves of the circuit (Elhage et al. 2021): layer 0 looks one token back, a later
    // layer's head matches prefixes. A jump in the second is the phase change (Olsson et al. 2022).
    ImGui::TextUnformatted(t(text ? "train_prefix_title_text" : "train_prefix_title"));
    help_marker(t("train_prefix_help"));
    PlotOptions scores = options;
    scores.x_label = t("train_step_axis");
    scores.y_label = t("train_score_axis");
    scores.y_max_at_least = 1.0f;
    scores.guide_y = training::kInductionFormedScore;
    head_score_plot("prefix", session, false, [](const training::InductionHeadScores& s) { return s.prefix_matching; },
                    ImVec2(width, plot_h), scores);
    register_item(ui, ids::kTrainPrefixPlot);
    ImGui::TextUnformatted(t("train_previous_title"));
    help_marker(t("train_previous_help"));
    scores.guide_y = -1.0f;
    head_score_plot("previous", session, true, [](const training::InductionHeadScores& s) { return s.previous_token; },
                    ImVec2(width, plot_h * 0.8f), scores);
    register_item(ui, ids::kTrainPreviousPlot);
    // Where the later heads park attention when nothing earlier fits: the attention sink
    // (Xiao et al. 2024), which lesson 23 has the learner grow and take away.
    ImGui::TextUnformatted(t("train_first_token_title"));
    help_marker(t(text ? "train_first_token_help_text" : "train_first_token_help"));
    head_score_plot("first_token", session, false, [](const training::InductionHeadScores& s) { return s.first_token; },
                    ImVec2(width, plot_h * 0.8f), scores);
    register_item(ui, ids::kTrainFirstTokenPlot);
  }
  if (text) {  // held-out windows are ids: the lab's labels and its layer summary need text it can tag
    draw_training_heads(session, context, ui, textures, width, t);
    return;
  }
  ImGui::TextUnformatted(t(induction ? "train_roles_title_symbols" : "train_roles_title"));
  help_marker(t(induction ? "train_roles_help_symbols" : "train_roles_help"));
  draw_role_timeline(session, ui, width, t);
  draw_training_heads(session, context, ui, textures, width, t);
  draw_layer_dependence(session, ui, t);
}

}  // namespace

void draw_training_panel(PanelContext& context, float width, float height) {
  const Words t = context.words();
  if (!context.training) {
    ImGui::TextDisabled("%s", t("train_unavailable"));
    return;
  }
  const app::TrainingSession& session = *context.training;
  // The tab is open: build the first run, so it draws at once.
  if (!session.started() && session.error().empty()) context.actions.emit(app::PrepareTraining{});
  if (!session.error().empty()) {
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", session.error().c_str());
    return;
  }
  LabUiState& ui = context.ui;
  const float top = ImGui::GetCursorPosY();
  draw_task_choice(session, context, t);
  draw_attention_choice(session, context, t);
  if (!session.started()) return;  // the first run waits for the text sample (said above)
  draw_controls(session, context, t);
  draw_status(session, t);
  const char* const views[3] = {t("train_view_progress"), t("train_view_probes"), t("train_view_compare")};
  static const char* const kViewIds[3] = {ids::kTrainViewProgress, ids::kTrainViewProbes, ids::kTrainViewCompare};
  int view = static_cast<int>(ui.training_view);
  if (segmented("training_view", views, 3, view, &ui, kViewIds)) ui.training_view = static_cast<TrainingView>(view);
  const float rest = height - (ImGui::GetCursorPosY() - top);
  switch (ui.training_view) {
    case TrainingView::progress: draw_progress(session, context, ui, context.cell_textures, width, rest, t); break;
    case TrainingView::probes: draw_training_probes(session, context, width, t); break;
    case TrainingView::comparison: draw_training_comparison(session, context, width, rest, t); break;
  }
}

}  // namespace headlab::ui

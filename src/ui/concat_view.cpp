// Concat and W_O: Z_1..Z_h side by side, their concatenation times W_O, and the output. Zeroing a
// head's block of W_O removes exactly that head from the output, which the learner can try here.
#include <algorithm>
#include <cstdio>

#include "imgui.h"
#include "ui/format_text.h"
#include "ui/panels.h"
#include "ui/matrix_view.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {

void draw_concat_view(PanelContext& context, float width, float height) {
  const app::AppState& state = context.state();
  const int layer = state.selection.layer;
  const Layer& model_layer = state.document.model.layers[layer];
  const LayerTrace& lt = state.trace.layers[layer];
  const float font = ImGui::GetFontSize();
  const int n = static_cast<int>(lt.concat.rows());
  const int h = model_layer.head_count();
  const int d_model = state.document.model.d_model;
  ImGui::TextWrapped(context.tr("concat_summary"), layer, n, model_layer.d_v, n, h * model_layer.d_v, h * model_layer.d_v,
                     d_model, n, d_model);
  register_item(context.ui, ids::kConcat);
  if (n == 0) return;
  const float avail = width - font;
  const float block_h = std::clamp(height * 0.28f, font * 3.0f, font * 9.0f);
  const float unit = std::min(font * 1.2f, (avail - font * 2.0f * h) / std::max(1, h * model_layer.d_v));
  const float scale = std::max(1e-6f, lt.concat.cwiseAbs().maxCoeff());
  int hr = -1, hc = -1;
  // Z blocks.
  // Under a narrow block its button says only "zero" (the tooltip says the rest); a block is as
  // wide as its button when that is wider, and blocks that do not fit wrap to a new row.
  const auto button_w = [&](const char* key) { return ImGui::CalcTextSize(context.tr(key)).x + ImGui::GetStyle().FramePadding.x * 2.0f; };
  const char* zero_label = button_w("concat_zero_block") <= unit * model_layer.d_v ? "concat_zero_block" : "concat_zero_short";
  const float block_w = std::max(unit * model_layer.d_v, button_w(zero_label));
  for (int i = 0; i < h; ++i) {
    if (i > 0) flow_same_line(block_w, font * 0.6f);
    ImGui::BeginGroup();
    ImGui::PushID(i);
    ImGui::Text("Z_%d%s", i, model_layer.heads[i].pruned ? context.tr("concat_pruned") : "");
    matrix_view("z", lt.heads[i].Z, ImVec2(unit * model_layer.d_v, block_h), scale, &hr, &hc, context.cell_textures);
    if (hr >= 0) ImGui::SetTooltip("Z_%d[%s][%d] = %.4f", i, context.tokens()[hr].c_str(), hc, lt.heads[i].Z(hr, hc));
    if (ImGui::SmallButton(with_id(context.tr(zero_label), "zero_w_o_block").c_str()))
      context.actions.emit(app::ZeroOutputBlock{layer, i});
    item_tooltip(context.tr("concat_zero_block_tip"));
    ImGui::PopID();
    ImGui::EndGroup();
  }
  ImGui::Spacing();
  // Concat x W_O = output.
  const float out_w = std::min(avail * 0.3f, unit * state.document.model.d_model);
  ImGui::BeginGroup();
  ImGui::TextUnformatted("Concat(Z_1..Z_h)");
  const float concat_w = std::min(avail * 0.3f, unit * h * model_layer.d_v);
  matrix_view("concat", lt.concat, ImVec2(concat_w, block_h), scale, &hr, &hc, context.cell_textures);
  if (hr >= 0)
    ImGui::SetTooltip(context.tr("concat_cell_tip"), context.tokens()[hr].c_str(), hc, lt.concat(hr, hc), hc / model_layer.d_v);
  // Each matrix's colour scale in numbers: the Z blocks share the concatenation's.
  diverging_legend(lt.concat, scale, concat_w);
  register_item(context.ui, ids::kConcatScale);
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::TextUnformatted("x  W_O");
  matrix_view("W_O", model_layer.W_O, ImVec2(out_w, block_h), 0.0f, &hr, &hc, context.cell_textures);
  if (hr >= 0)
    ImGui::SetTooltip(context.tr("concat_wo_cell_tip"), hr, hc, model_layer.W_O(hr, hc), hr / model_layer.d_v);
  diverging_legend(model_layer.W_O, 0.0f, out_w);
  register_item(context.ui, ids::kWoScale);
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::TextUnformatted(context.tr("concat_output"));
  matrix_view("out", lt.attention_output, ImVec2(out_w, block_h), 0.0f, &hr, &hc, context.cell_textures);
  if (hr >= 0)
    ImGui::SetTooltip(context.tr("concat_output_cell_tip"), context.tokens()[hr].c_str(), context.feature_names()[hc].c_str(),
                      lt.attention_output(hr, hc));
  diverging_legend(lt.attention_output, 0.0f, out_w);
  ImGui::EndGroup();
  ImGui::TextDisabled("%s", context.tr("concat_legend"));
}

}  // namespace headlab::ui

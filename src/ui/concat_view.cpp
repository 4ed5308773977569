// Concat and W_O: Z_1..Z_h side by side, their concatenation times W_O, and the output. Zeroing a
// head's block of W_O removes exactly that head from the output, which the learner can try here.
#include <algorithm>
#include <cstdio>

#include "imgui.h"
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
  ImGui::TextWrapped("Layer %d: each head's output Z_i = A_i V_i is (n x d_v) = (%d x %d). They are placed side by side "
                     "(Concat, %d x %d) and multiplied by W_O (%d x %d) to give the layer output (%d x %d).",
                     layer, n, model_layer.d_v, n, h * model_layer.d_v, h * model_layer.d_v, state.document.model.d_model, n,
                     state.document.model.d_model);
  register_item(context.ui, ids::kConcat);
  if (n == 0) return;
  const float avail = width - font;
  const float block_h = std::clamp(height * 0.28f, font * 3.0f, font * 9.0f);
  const float unit = std::min(font * 1.2f, (avail - font * 2.0f * h) / std::max(1, h * model_layer.d_v));
  const float scale = std::max(1e-6f, lt.concat.cwiseAbs().maxCoeff());
  int hr = -1, hc = -1;
  // Z blocks.
  for (int i = 0; i < h; ++i) {
    if (i > 0) ImGui::SameLine(0, font * 0.6f);
    ImGui::BeginGroup();
    ImGui::PushID(i);
    ImGui::Text("Z_%d%s", i, model_layer.heads[i].pruned ? " (pruned)" : "");
    matrix_view("z", lt.heads[i].Z, ImVec2(unit * model_layer.d_v, block_h), scale, &hr, &hc);
    if (hr >= 0) ImGui::SetTooltip("Z_%d[%s][%d] = %.4f", i, context.tokens[hr].c_str(), hc, lt.heads[i].Z(hr, hc));
    if (ImGui::SmallButton("zero W_O block"))
      context.actions.emit(app::ZeroOutputBlock{layer, i});
    item_tooltip("Set this head's rows of W_O to zero: the head still computes Z_i, but the output no longer "
                 "uses it. Undo with Ctrl+Z.");
    ImGui::PopID();
    ImGui::EndGroup();
  }
  ImGui::Spacing();
  // Concat x W_O = output.
  const float out_w = std::min(avail * 0.3f, unit * state.document.model.d_model);
  ImGui::BeginGroup();
  ImGui::TextUnformatted("Concat(Z_1..Z_h)");
  matrix_view("concat", lt.concat, ImVec2(std::min(avail * 0.3f, unit * h * model_layer.d_v), block_h), scale, &hr, &hc);
  if (hr >= 0) ImGui::SetTooltip("concat[%s][%d] = %.4f (head %d)", context.tokens[hr].c_str(), hc, lt.concat(hr, hc),
                                 hc / model_layer.d_v);
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::TextUnformatted("x  W_O");
  matrix_view("W_O", model_layer.W_O, ImVec2(out_w, block_h), 0.0f, &hr, &hc);
  if (hr >= 0) ImGui::SetTooltip("W_O[%d][%d] = %.4f (row of head %d)", hr, hc, model_layer.W_O(hr, hc), hr / model_layer.d_v);
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::TextUnformatted("=  output");
  matrix_view("out", lt.attention_output, ImVec2(out_w, block_h), 0.0f, &hr, &hc);
  if (hr >= 0) ImGui::SetTooltip("output[%s][%s] = %.4f", context.tokens[hr].c_str(),
                                 context.feature_names[hc].c_str(), lt.attention_output(hr, hc));
  ImGui::EndGroup();
  ImGui::TextDisabled("blue = negative, orange = positive; hover any cell for its value");
}

}  // namespace headlab::ui

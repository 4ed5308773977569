#include "parameters.h"

namespace headlab::training {
namespace {

void add(std::vector<ParameterView>& out, const char* name, int layer, int head, Matrix& m) {
  out.push_back({name, layer, head, m.data(), m.size(), true});
}
void add(std::vector<ParameterView>& out, const char* name, int layer, int head, RowVector& v) {
  out.push_back({name, layer, head, v.data(), v.size(), false});
}

}  // namespace

void collect_parameters(Model& model, std::vector<ParameterView>& out) {
  out.clear();
  if (!model.vocab.empty()) {
    add(out, "token_embedding", -1, -1, model.token_embedding);
    if (model.positional == Positional::learned) add(out, "positional_table", -1, -1, model.positional_table);
    add(out, "output_bias", -1, -1, model.output_bias);
  }
  for (int l = 0; l < static_cast<int>(model.layers.size()); ++l) {
    Layer& layer = model.layers[l];
    for (int h = 0; h < layer.head_count(); ++h) {
      HeadWeights& head = layer.heads[h];
      if (head.pruned) continue;
      add(out, "W_Q", l, h, head.W_Q);
      add(out, "W_K", l, h, head.W_K);
      add(out, "W_V", l, h, head.W_V);
    }
    add(out, "W_O", l, -1, layer.W_O);
    if (layer.norm != Norm::none) {
      add(out, "ln_gamma", l, -1, layer.ln_gamma);
      add(out, "ln_beta", l, -1, layer.ln_beta);
      if (layer.has_ffn) {
        add(out, "ln2_gamma", l, -1, layer.ln2_gamma);
        add(out, "ln2_beta", l, -1, layer.ln2_beta);
      }
    }
    if (layer.has_ffn) {
      add(out, "W_1", l, -1, layer.ffn.W_1);
      add(out, "b_1", l, -1, layer.ffn.b_1);
      add(out, "W_2", l, -1, layer.ffn.W_2);
      add(out, "b_2", l, -1, layer.ffn.b_2);
    }
  }
}

std::vector<ParameterView> parameters(Model& model) {
  std::vector<ParameterView> out;
  collect_parameters(model, out);
  return out;
}

Model zero_like(const Model& model) {
  Model zero = model;
  set_zero(zero);
  return zero;
}

void set_zero(Model& model) {
  std::vector<ParameterView> views;
  collect_parameters(model, views);
  for (const ParameterView& p : views) std::fill(p.data, p.data + p.size, 0.0f);
}

long parameter_count(const Model& model) {
  Model copy = model;
  long total = 0;
  for (const ParameterView& p : parameters(copy)) total += static_cast<long>(p.size);
  return total;
}

}  // namespace headlab::training

#pragma once
// A head's place when the heads of every layer are listed one after another, layer 0's first
// (layer-major): whole-model readings such as held-out labels and probes are stored this way.
// Layers may have different head counts, so the place is a sum, not layer * head_count + head.
#include "engine/model.h"

namespace headlab {

struct HeadPosition {
  int layer = 0;
  int head = 0;
  bool operator==(const HeadPosition& other) const { return layer == other.layer && head == other.head; }
};

inline int flat_head_index(const Model& model, int layer, int head) {
  int index = head;
  for (int l = 0; l < layer; ++l) index += model.layers[l].head_count();
  return index;
}

// The inverse of flat_head_index; {-1, -1} for an index outside [0, total_head_count).
inline HeadPosition head_at_flat_index(const Model& model, int index) {
  if (index < 0) return {-1, -1};
  for (int l = 0; l < static_cast<int>(model.layers.size()); ++l) {
    if (index < model.layers[l].head_count()) return {l, index};
    index -= model.layers[l].head_count();
  }
  return {-1, -1};
}

// Heads over every layer: the length of a layer-major list.
inline int total_head_count(const Model& model) {
  int count = 0;
  for (const Layer& layer : model.layers) count += layer.head_count();
  return count;
}

}  // namespace headlab

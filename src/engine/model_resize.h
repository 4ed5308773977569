#pragma once
// Changing d_model keeps the learner's work: every weight keeps its overlapping block, new rows
// and columns are freshly seeded (rows of W_Q/W_K/W_V are input features, so feature k keeps its
// weights as long as it exists).
#include "model.h"

namespace headlab {

void set_d_model(Model& model, int d_model);

}  // namespace headlab

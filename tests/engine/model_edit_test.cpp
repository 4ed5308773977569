// Changing head, layer and dimension counts keeps the learner's work.
#include <gtest/gtest.h>

#include "engine/head_index.h"
#include "engine/model.h"

namespace headlab {
namespace {

TEST(ModelEdit, AddingHeadsKeepsExistingOnesAndSeedsNewOnes) {
  Model model = make_model(24, 1, 4, 7);
  model.layers[0].heads[1].W_K(3, 2) = 42.0f;
  model.layers[0].W_O(7, 5) = -3.0f;  // row 7 belongs to head 1 (d_v = 6)
  const Model before = model;
  set_head_count(model, 0, 6);
  ASSERT_EQ(model.layers[0].head_count(), 6);
  for (int h = 0; h < 4; ++h) {
    EXPECT_EQ(model.layers[0].heads[h].W_Q, before.layers[0].heads[h].W_Q);
    EXPECT_EQ(model.layers[0].heads[h].W_K, before.layers[0].heads[h].W_K);
    EXPECT_EQ(model.layers[0].heads[h].W_V, before.layers[0].heads[h].W_V);
  }
  EXPECT_EQ(model.layers[0].W_O.rows(), 36);
  EXPECT_EQ(model.layers[0].W_O.topRows(24), before.layers[0].W_O);
  // A fresh head is the seeded initialisation, independent of history.
  EXPECT_EQ(model.layers[0].heads[5].W_Q, init_head(24, 6, 6, 7, 0, 5, init_stddev(model)).W_Q);
}

TEST(ModelEdit, RemovingHeadsDropsOnlyThem) {
  Model model = make_model(24, 1, 4, 7);
  const Model before = model;
  set_head_count(model, 0, 2);
  ASSERT_EQ(model.layers[0].head_count(), 2);
  EXPECT_EQ(model.layers[0].heads[1].W_V, before.layers[0].heads[1].W_V);
  EXPECT_EQ(model.layers[0].W_O, before.layers[0].W_O.topRows(12));
}

TEST(ModelEdit, LayerCountKeepsExistingLayers) {
  Model model = make_model(24, 2, 4, 7);
  model.layers[1].heads[0].W_Q(0, 0) = 9.0f;
  set_layer_count(model, 4, 3);
  ASSERT_EQ(model.layers.size(), 4u);
  EXPECT_EQ(model.layers[1].heads[0].W_Q(0, 0), 9.0f);
  EXPECT_EQ(model.layers[3].head_count(), 3);
  set_layer_count(model, 2, 3);
  ASSERT_EQ(model.layers.size(), 2u);
  EXPECT_EQ(model.layers[1].heads[0].W_Q(0, 0), 9.0f);
}

TEST(ModelEdit, HeadDimsKeepOverlap) {
  Model model = make_model(24, 1, 2, 7);
  const Model before = model;
  ASSERT_EQ(before.layers[0].d_k, 12);
  set_head_dims(model, 0, 14, 4);
  EXPECT_EQ(model.layers[0].heads[1].W_Q.cols(), 14);
  EXPECT_EQ(Matrix(model.layers[0].heads[1].W_Q.leftCols(12)), before.layers[0].heads[1].W_Q);
  EXPECT_EQ(model.layers[0].heads[1].W_V, Matrix(before.layers[0].heads[1].W_V.leftCols(4)));
  EXPECT_EQ(model.layers[0].W_O.rows(), 8);
  EXPECT_EQ(Matrix(model.layers[0].W_O.middleRows(4, 4)), Matrix(before.layers[0].W_O.middleRows(12, 4)));
}

TEST(ModelEdit, SameSeedSameModel) {
  EXPECT_EQ(make_model(32, 2, 4, 99).layers[1].heads[3].W_K, make_model(32, 2, 4, 99).layers[1].heads[3].W_K);
  EXPECT_NE(make_model(32, 2, 4, 99).layers[1].heads[3].W_K, make_model(32, 2, 4, 98).layers[1].heads[3].W_K);
}

// Layers with 1, 4 and 3 heads: the flat index counts the heads before the layer, and the inverse
// walks back to every (layer, head) and nowhere else.
TEST(ModelEdit, FlatHeadIndexFollowsEachLayersOwnHeadCount) {
  Model model = make_model(24, 3, 4, 7);
  set_head_count(model, 0, 1);
  set_head_count(model, 2, 3);
  ASSERT_EQ(total_head_count(model), 8);
  EXPECT_EQ(flat_head_index(model, 0, 0), 0);
  EXPECT_EQ(flat_head_index(model, 1, 0), 1);
  EXPECT_EQ(flat_head_index(model, 1, 3), 4);
  EXPECT_EQ(flat_head_index(model, 2, 1), 6);
  int index = 0;
  for (int l = 0; l < 3; ++l)
    for (int h = 0; h < model.layers[l].head_count(); ++h, ++index) {
      EXPECT_EQ(flat_head_index(model, l, h), index);
      EXPECT_EQ(head_at_flat_index(model, index), (HeadPosition{l, h}));
    }
  EXPECT_EQ(head_at_flat_index(model, 8), (HeadPosition{-1, -1}));
  EXPECT_EQ(head_at_flat_index(model, -1), (HeadPosition{-1, -1}));
}

}  // namespace
}  // namespace headlab

#include "engine/analysis/head_scores.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/analysis/fast_log.h"
#include "engine/analysis/row_math.h"

namespace headlab::analysis {

float HeadScores::score(Role role) const {
  switch (role) {
    case Role::previous_token: return previous_token.mass;
    case Role::next_token: return next_token.mass;
    case Role::local: return local.mass;
    case Role::self: return self.mass;
    case Role::delimiter: return delimiter.mass;
    case Role::cls: return cls.mass;
    case Role::broad: return broad;
    case Role::syntactic: {
      if (!syntactic.evaluated) return std::numeric_limits<float>::quiet_NaN();
      const RelationScore* best = syntactic.best_relation();
      return best ? best->accuracy : 0.0f;
    }
    case Role::content_similarity: return content_similarity.score;
    case Role::rare_word: return rare_word.share;
    case Role::duplicate_token:
      return duplicate_token.rows > 0 ? duplicate_token.mass : std::numeric_limits<float>::quiet_NaN();
    case Role::induction: return induction.rows > 0 ? induction.mass : std::numeric_limits<float>::quiet_NaN();
  }
  return 0.0f;
}

namespace {

// Mean of A[i, i + offset] over the informative rows that have that key, and how many of those
// rows have their argmax there.
OffsetScore offset_score(const Matrix& attention, const SentenceContext& s, const std::vector<int>& argmax, int offset) {
  OffsetScore out;
  double mass = 0.0;
  for (int i = s.causal ? 1 : 0; i < s.n; ++i) {
    const int j = i + offset;
    if (j < 0 || j >= s.visible(i)) continue;
    mass += attention(i, j);
    ++out.rows;
    out.argmax_rows += argmax[i] == j;
  }
  if (out.rows > 0) {
    out.mass = static_cast<float>(mass / out.rows);
    out.argmax_share = static_cast<float>(out.argmax_rows) / static_cast<float>(out.rows);
  }
  return out;
}

}  // namespace

namespace {

// A sigmoid row (engine/model.h) may sum to more than 1: such rows are read as shares, the row over
// its sum, so a head that gives every key 0.9 is not a delimiter, local and previous-token head at
// once. Rows that sum to 1 or less are read as they are. Returns `attention` itself when no row
// needs it (every softmax and softmax + 1 head), else the rescaled copy in `scratch`.
const Matrix& rows_as_shares(const Matrix& attention, Matrix& scratch) {
  // Row by row, no temporary: the analysis of a drag step allocates nothing (hot_path_allocation_test).
  Eigen::Index first_over = 0;
  while (first_over < attention.rows() && attention.row(first_over).sum() <= 1.0f + 1e-4f) ++first_over;
  if (first_over == attention.rows()) return attention;
  scratch = attention;
  for (Eigen::Index i = first_over; i < scratch.rows(); ++i) {
    const float total = scratch.row(i).sum();
    if (total > 1.0f + 1e-4f) scratch.row(i) /= total;
  }
  return scratch;
}

}  // namespace

void score_head(const Matrix& raw_attention, const SentenceContext& sentence, const LabelConfig& config,
                const AnalysisOptions& options, HeadScores& out) {
  Matrix shares;  // allocated only for a sigmoid head with a row above 1; softmax heads read raw_attention
  const Matrix& attention = rows_as_shares(raw_attention, shares);
  const int n = sentence.n;
  const int w = std::max(0, options.local_window);
  // Informative rows: a query with a single visible key (row 0 under the causal mask) has no
  // choice to score.
  const int first = sentence.causal ? 1 : 0;
  const int rows = n >= 2 ? n - first : 0;
  std::vector<int>& argmax = out.argmax;
  argmax.assign(n, -1);
  double entropy = 0.0, related_share = 0.0, off_mass = 0.0, band_mass = 0.0, band_uniform = 0.0, rare_uniform = 0.0;
  double duplicate_mass = 0.0, induction_mass = 0.0;
  int rare_hits = 0, content_rows = 0;
  const float keep = 1.0f - config.broad_smoothing;
  // (1, n) attention each key receives, summed over informative rows: key-set masses are its dot
  // products with the sets' masks.
  RowVector& column_mass = out.column_mass;
  column_mass.setZero(n);
  for (int i = first; i < n && rows > 0; ++i) {
    const int visible = sentence.visible(i);
    const float* row = attention.data() + static_cast<std::ptrdiff_t>(i) * n;
    argmax[i] = row_unique_argmax(row, visible);
    rare_hits += argmax[i] >= 0 && sentence.is_rarest[argmax[i]];
    add_row(column_mass.data(), row, visible);
    // Clark et al. 2019, sec. 3.3: entropy of the smoothed row over ln(visible keys).
    const float floor = config.broad_smoothing / static_cast<float>(visible);
    // Softmax + 1 and sigmoid rows that sum to less than 1 (rows_as_shares scaled those above 1):
    // the masses below stay as they are (a head that attends to nothing is no previous-token head),
    // but the entropy is of the row's shape, the row over its sum, weighted by the sum: a head that
    // attends to (almost) nothing is not broad, whatever the shape of its crumbs.
    const float row_total = row_sum(row, visible);
    const bool distribution = std::abs(row_total - 1.0f) <= 1e-4f;
    if (distribution) {
      entropy += smoothed_entropy(row, visible, keep, floor) / sentence.log_visible[i];
    } else if (row_total > 0.0f) {
      out.shape_scratch.assign(row, row + visible);
      for (float& a : out.shape_scratch) a /= row_total;
      entropy += std::min(1.0f, row_total) * smoothed_entropy(out.shape_scratch.data(), visible, keep, floor) /
                 sentence.log_visible[i];
    }
    const int band_lo = std::max(0, i - w), band_hi = std::min(visible - 1, i + w);
    band_mass += row_sum(row + band_lo, band_hi - band_lo + 1);
    band_uniform += static_cast<double>(band_hi - band_lo + 1) / visible;
    rare_uniform += sentence.rarest_share[i];
    // Both masks are 0 outside j < i, so the causal mask changes nothing here.
    const std::ptrdiff_t row_start = static_cast<std::ptrdiff_t>(i) * n;
    if (sentence.duplicate_rows > 0) duplicate_mass += row_dot(row, sentence.duplicate_mask.data() + row_start, visible);
    if (sentence.induction_rows > 0) induction_mass += row_dot(row, sentence.induction_mask.data() + row_start, visible);
    if (sentence.has_related[i]) {
      const double related = row_dot(row, sentence.related_mask.data() + static_cast<std::ptrdiff_t>(i) * n, visible);
      const double off_diagonal = std::max(0.0, (distribution ? 1.0 : static_cast<double>(row_total)) - attention(i, i));
      related_share += off_diagonal > 1e-6 ? std::min(1.0, related / off_diagonal) : 0.0;
      off_mass += off_diagonal;
      ++content_rows;
    }
  }
  out.previous_token = offset_score(attention, sentence, argmax, -1);
  out.next_token = offset_score(attention, sentence, argmax, +1);
  out.self = offset_score(attention, sentence, argmax, 0);

  const double inv_rows = rows > 0 ? 1.0 / rows : 0.0;
  out.delimiter = {static_cast<float>(row_dot(column_mass.data(), sentence.delimiter_mask.data(), n) * inv_rows),
                   sentence.delimiter_count};
  out.cls = {static_cast<float>(row_dot(column_mass.data(), sentence.cls_mask.data(), n) * inv_rows), sentence.cls_count};

  LocalScore& local = out.local;
  local.window = w;
  local.mass = static_cast<float>(band_mass * inv_rows);
  local.uniform_share = static_cast<float>(band_uniform * inv_rows);
  local.ratio = local.uniform_share > 0.0f ? local.mass / local.uniform_share : 0.0f;
  local.required_mass = std::min(config.local_ratio * local.uniform_share, config.local_mass_cap);

  out.broad = std::clamp(static_cast<float>(entropy * inv_rows), 0.0f, 1.0f);

  RareWordScore& rare_word = out.rare_word;
  rare_word = {};
  rare_word.token = sentence.rarest;
  for (int j = 0; j < n; ++j) rare_word.tied += sentence.is_rarest[j];
  if (rare_word.tied > 1) {  // name the tied rarest word the rows pick most often
    int best_hits = -1;
    for (int j = 0; j < n; ++j) {
      if (!sentence.is_rarest[j]) continue;
      const int hits = static_cast<int>(std::count(argmax.begin(), argmax.end(), j));
      if (hits > best_hits) best_hits = hits, rare_word.token = j;
    }
  }
  if (sentence.rarest >= 0 && rows > 0) {
    rare_word.rows = rows;
    rare_word.hits = rare_hits;
    rare_word.share = static_cast<float>(rare_hits) / static_cast<float>(rows);
    rare_word.mass = static_cast<float>(row_dot(column_mass.data(), sentence.rarest_mask.data(), n) * inv_rows);
    rare_word.uniform_mass = static_cast<float>(rare_uniform * inv_rows);
  }

  // What all rows give the repeated rows' keys, averaged over the repeated rows: the sum over
  // repeated rows i of (column mass on i's keys) / rows is column_mass . (the masks' column sums).
  const auto key_mass = [&](const RowVector& key_counts, int repeat_rows) {
    if (repeat_rows == 0 || rows == 0) return 0.0f;
    return static_cast<float>(row_dot(column_mass.data(), key_counts.data(), n) * inv_rows / repeat_rows);
  };
  out.duplicate_token = {sentence.duplicate_rows > 0 ? static_cast<float>(duplicate_mass / sentence.duplicate_rows) : 0.0f,
                         key_mass(sentence.duplicate_key_counts, sentence.duplicate_rows), sentence.duplicate_rows};
  out.induction = {sentence.induction_rows > 0 ? static_cast<float>(induction_mass / sentence.induction_rows) : 0.0f,
                   key_mass(sentence.induction_key_counts, sentence.induction_rows), sentence.induction_rows};

  ContentScore& content = out.content_similarity;
  content = {};
  content.rows = content_rows;
  if (content_rows > 0) {
    content.related_share = static_cast<float>(related_share / content_rows);
    content.off_diagonal_mass = static_cast<float>(off_mass / content_rows);
    content.score = content.related_share * std::min(1.0f, 2.0f * content.off_diagonal_mass);
  }
}

}  // namespace headlab::analysis

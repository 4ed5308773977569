#include "engine/analysis/head_scores.h"

#include <algorithm>
#include <limits>

#include "engine/analysis/fast_log.h"

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
  }
  return 0.0f;
}

namespace {

struct OffsetAccumulator {
  double mass = 0.0;
  int rows = 0;
  int argmax_rows = 0;

  void add(const Matrix& attention, int i, int j, int visible, int argmax) {
    if (j < 0 || j >= visible) return;
    mass += attention(i, j);
    ++rows;
    argmax_rows += argmax == j;
  }
  OffsetScore result() const {
    OffsetScore s;
    s.rows = rows;
    s.argmax_rows = argmax_rows;
    if (rows > 0) {
      s.mass = static_cast<float>(mass / rows);
      s.argmax_share = static_cast<float>(argmax_rows) / static_cast<float>(rows);
    }
    return s;
  }
};

// Entropy of the smoothed row A' = (1 - s) A + s / k over its k visible keys, divided by ln k
// (Clark et al. 2019, sec. 3.3; smoothing as in their released code).
float normalized_row_entropy(const Matrix& attention, int i, int visible, float smoothing) {
  const float keep = 1.0f - smoothing, floor = smoothing / static_cast<float>(visible);
  const float* row = attention.data() + static_cast<std::ptrdiff_t>(i) * attention.cols();
  float entropy = 0.0f;
  for (int j = 0; j < visible; ++j) {
    const float p = keep * row[j] + floor;
    entropy -= p * fast_log(p);
  }
  return entropy / std::log(static_cast<float>(visible));
}

}  // namespace

void score_head(const Matrix& attention, const SentenceContext& sentence, const LabelConfig& config,
                const AnalysisOptions& options, HeadScores& out) {
  const int n = sentence.n;
  const int w = std::max(0, options.local_window);
  OffsetAccumulator previous, next, self;
  double band_mass = 0.0, band_uniform = 0.0, delimiter_mass = 0.0, cls_mass = 0.0, entropy = 0.0;
  double rare_mass = 0.0, related_share = 0.0, off_mass = 0.0;
  int rows = 0, rare_hits = 0, content_rows = 0;
  for (int i = 0; i < n; ++i) {
    const int visible = sentence.visible(i);
    if (visible < 2) continue;  // a query with one visible key has no choice to score
    ++rows;
    const int argmax = unique_argmax(attention, i, visible, [](int) { return true; });
    previous.add(attention, i, i - 1, visible, argmax);
    next.add(attention, i, i + 1, visible, argmax);
    self.add(attention, i, i, visible, argmax);
    const int band_lo = std::max(0, i - w), band_hi = std::min(visible - 1, i + w);
    double band = 0.0, delimiters = 0.0, cls = 0.0, rare = 0.0, related = 0.0;
    bool has_related = false;
    for (int j = 0; j < visible; ++j) {
      const float a = attention(i, j);
      if (j >= band_lo && j <= band_hi) band += a;
      if (sentence.is_delimiter[j]) delimiters += a;
      if (sentence.is_cls[j]) cls += a;
      if (sentence.is_rarest[j]) rare += a;
      if (sentence.is_related(i, j)) {
        has_related = true;
        related += a;
      }
    }
    band_mass += band;
    band_uniform += static_cast<double>(band_hi - band_lo + 1) / visible;
    delimiter_mass += delimiters;
    cls_mass += cls;
    entropy += normalized_row_entropy(attention, i, visible, config.broad_smoothing);
    rare_mass += rare;
    rare_hits += argmax >= 0 && sentence.is_rarest[argmax];
    if (has_related) {
      const double off_diagonal = std::max(0.0, 1.0 - attention(i, i));
      related_share += off_diagonal > 1e-6 ? std::min(1.0, related / off_diagonal) : 0.0;
      off_mass += off_diagonal;
      ++content_rows;
    }
  }
  out.previous_token = previous.result();
  out.next_token = next.result();
  out.self = self.result();

  const double inv_rows = rows > 0 ? 1.0 / rows : 0.0;
  LocalScore& local = out.local;
  local.window = w;
  local.mass = static_cast<float>(band_mass * inv_rows);
  local.uniform_share = static_cast<float>(band_uniform * inv_rows);
  local.ratio = local.uniform_share > 0.0f ? local.mass / local.uniform_share : 0.0f;
  local.required_mass = std::min(config.local_ratio * local.uniform_share, config.local_mass_cap);

  out.delimiter = {static_cast<float>(delimiter_mass * inv_rows), sentence.delimiter_count};
  out.cls = {static_cast<float>(cls_mass * inv_rows), sentence.cls_count};
  out.broad = std::clamp(static_cast<float>(entropy * inv_rows), 0.0f, 1.0f);

  RareWordScore& rare_word = out.rare_word;
  rare_word = {};
  rare_word.token = sentence.rarest;
  if (sentence.rarest >= 0 && rows > 0) {
    rare_word.rows = rows;
    rare_word.hits = rare_hits;
    rare_word.share = static_cast<float>(rare_hits) / static_cast<float>(rows);
    rare_word.mass = static_cast<float>(rare_mass * inv_rows);
  }

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

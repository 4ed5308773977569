#include "ui/goal_number_text.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include "ui/format_text.h"
#include "ui/head_caption.h"

namespace headlab::ui {
namespace {

using lessons::Goal;
using lessons::GoalKind;

// Counts (heads, d_k) print as integers, measures with two decimals.
std::string format_value(double value, bool count) {
  if (!std::isfinite(value)) return "-";
  char text[32];
  if (count) std::snprintf(text, sizeof text, "%d", static_cast<int>(std::lround(value)));
  else std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

// What the goal measures, without its value.
std::string subject(const lessons::GoalNumber& number, const app::Resources& resources, app::Language language) {
  const app::UiText& text = resources.ui_text;
  const Goal& g = *number.goal;
  const int head = number.head;
  switch (g.kind) {
    case GoalKind::attention:
      return format_text(text.get("goal_num_attention", language), g.layer, head, g.from.text.c_str(), g.to.text.c_str());
    case GoalKind::score:  // "syntactic:nsubj" reads "nsubj (syntax)" / "nsubj（句法）"
      return format_text(text.get("goal_num_score", language), g.layer, head,
                         label_display_name(analysis::Label::of(g.role), Words{resources, language}).c_str());
    case GoalKind::distance: return format_text(text.get("goal_num_distance", language), g.layer, g.head, g.head_b);
    case GoalKind::head_count: return format_text(text.get("goal_num_head_count", language), g.layer);
    case GoalKind::d_k: return format_text(text.get("goal_num_d_k", language), g.layer);
    case GoalKind::pruned:
      return g.layer < 0 ? std::string(text.get("goal_num_pruned_all", language))
                         : format_text(text.get("goal_num_pruned", language), g.layer);
    case GoalKind::weight:
      if (g.matrix == lessons::GoalMatrix::W_O) return format_text("L%d W_O[%s, %d]", g.layer, g.row_name.c_str(), g.col);
      return format_text("L%dH%d %s[%s, %d]", g.layer, head, lessons::matrix_name(g.matrix), g.row_name.c_str(), g.col);
    case GoalKind::output_block: return format_text(text.get("goal_num_output_block", language), g.layer, head);
    case GoalKind::sink:
      // A guess before a head of the layer is selected: no head to name yet.
      if (head < 0) return format_text(text.get("goal_num_sink_unselected", language), g.layer);
      return format_text(text.get(g.sink_measure == lessons::SinkMeasure::first_token ? "goal_num_sink_first" : "goal_num_sink_punctuation",
                                  language), g.layer, head);
    case GoalKind::held_out:
      if (g.measure == lessons::HeldOutMeasure::loss) return text.get("goal_num_held_out_loss", language);
      return format_text(text.get(g.measure == lessons::HeldOutMeasure::distance ? "goal_num_held_out_distance" : "goal_num_held_out_entropy", language),
                         g.layer);
    default: return {};
  }
}

std::string target(const Goal& g, bool count, const app::UiText& text, app::Language language) {
  const bool has_min = g.has_min(), has_max = g.has_max();
  if (has_min && has_max && g.min == g.max) return "= " + format_value(g.min, count);
  if (has_min && has_max)
    return format_text(text.get("goal_target_range", language), format_value(g.min, count).c_str(), format_value(g.max, count).c_str());
  if (has_max) return "\xE2\x89\xA4 " + format_value(g.max, count);
  return "\xE2\x89\xA5 " + format_value(g.min, count);
}

}  // namespace

std::string goal_number_text(const lessons::GoalNumber& number, const app::Resources& resources, app::Language language) {
  const Goal& g = *number.goal;
  if (g.kind == GoalKind::held_out && !std::isfinite(number.value))
    return resources.ui_text.get("goal_num_held_out_unavailable", language);
  const bool count = g.kind == GoalKind::head_count || g.kind == GoalKind::d_k || g.kind == GoalKind::pruned;
  return subject(number, resources, language) + "  " + format_value(number.value, count) + " / " +
         target(g, count, resources.ui_text, language);
}

}  // namespace headlab::ui

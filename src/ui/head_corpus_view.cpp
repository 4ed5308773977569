// The "Strongest attention" view of the sentences tab (exBERT, Hoover et al. 2019): the selected
// head over the same sentences as the queries-and-keys picture (app::QueryKeyJob), counted by
// engine/analysis/head_corpus.h. A search box, which takes text through the page's input path as
// the sentence box does, keeps the contexts whose query or attended token holds what is typed.
#include <algorithm>
#include <string>

#include "imgui.h"
#include "imgui_stdlib.h"
#include "ui/format_text.h"
#include "ui/panels.h"
#include "ui/widget_ids.h"
#include "ui/widgets.h"

namespace headlab::ui {
namespace {

constexpr ImU32 kQueryColour = IM_COL32(240, 140, 40, 255);
constexpr ImU32 kKeyColour = IM_COL32(70, 160, 235, 255);
constexpr int kContextTokens = 4;  // tokens shown around the query and its key

const char* word_class_key(PartOfSpeech pos) {
  switch (pos) {
    case PartOfSpeech::det: return "feature_det";
    case PartOfSpeech::adj: return "feature_adj";
    case PartOfSpeech::noun: return "feature_noun";
    case PartOfSpeech::verb: return "feature_verb";
    case PartOfSpeech::prep: return "feature_prep";
    case PartOfSpeech::pron: return "feature_pron";
    case PartOfSpeech::adv: return "feature_adv";
    case PartOfSpeech::conj: return "feature_conj";
    case PartOfSpeech::punct: return "feature_punct";
    case PartOfSpeech::num: return "word_class_num";
    case PartOfSpeech::special: return "word_class_special";
    case PartOfSpeech::unknown: break;
  }
  return "word_class_unknown";
}

// A row of a count table: the name, a bar as long as its share, the count.
void count_row(const char* name, int count, int total, float name_width, float bar_width) {
  ImGui::TextUnformatted(name);
  ImGui::SameLine(name_width);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float font = ImGui::GetFontSize();
  const float share = total > 0 ? static_cast<float>(count) / static_cast<float>(total) : 0.0f;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(ImVec2(p.x, p.y + font * 0.2f), ImVec2(p.x + bar_width, p.y + font * 0.9f), ImGui::GetColorU32(ImGuiCol_FrameBg));
  draw->AddRectFilled(ImVec2(p.x, p.y + font * 0.2f), ImVec2(p.x + bar_width * share, p.y + font * 0.9f),
                      ImGui::GetColorU32(ImGuiCol_PlotHistogram));
  ImGui::Dummy(ImVec2(bar_width, font));
  ImGui::SameLine();
  ImGui::Text("%d", count);
}

// One context: a few tokens either side of the query and its key, the query in orange and the
// key it attends to in blue, wrapping at `width`.
void context_line(const analysis::SampledSentence& sentence, const analysis::StrongContext& c, float width) {
  const int n = static_cast<int>(sentence.tokens.size());
  const int from = std::max(0, std::min(c.query, c.key) - kContextTokens);
  const int to = std::min(n, std::max(c.query, c.key) + kContextTokens + 1);
  ImGui::Text("%.2f", c.weight);
  const float start_x = ImGui::GetCursorScreenPos().x;
  float x = ImGui::CalcTextSize("0.00").x + ImGui::GetStyle().ItemSpacing.x;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const auto piece = [&](const std::string& text, ImU32 colour, bool boxed) {
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    if (x + size.x > width) {
      x = 0.0f;  // wraps: the next line starts under the weight
    } else {
      ImGui::SameLine(0.0f, 0.0f);
      ImGui::SetCursorScreenPos(ImVec2(start_x + x, ImGui::GetCursorScreenPos().y));
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    if (boxed) draw->AddRectFilled(ImVec2(p.x - 2, p.y), ImVec2(p.x + size.x + 2, p.y + size.y), colour & IM_COL32(255, 255, 255, 70), 3.0f);
    ImGui::TextColored(ImColor(colour), "%s", text.c_str());
    x = p.x - start_x + size.x + 4.0f;  // a subword's own "␣" shows where words start
  };
  const ImU32 plain = ImGui::GetColorU32(ImGuiCol_Text), faint = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  if (from > 0) piece("\xE2\x80\xA6", faint, false);  // "…"
  for (int t = from; t < to; ++t) {
    const bool query = t == c.query, key = t == c.key;
    piece(drawable_text(sentence.tokens[static_cast<std::size_t>(t)]), query ? kQueryColour : key ? kKeyColour : plain, query || key);
  }
  if (to < n) piece("\xE2\x80\xA6", faint, false);
}

}  // namespace

void draw_head_corpus_view(PanelContext& context, QueryKeyView& view, float width, float height) {
  const app::AppState& state = context.state();
  const float top = ImGui::GetCursorPosY();
  // The search box, handled like the sentence box: typed text, input methods and paste all arrive.
  ImGui::SetNextItemWidth(std::min(width - ImGui::GetFrameHeight() * 1.5f, ImGui::GetFontSize() * 16.0f));
  bool entered_by_keyboard = !view.search_active && !ImGui::IsMouseDown(ImGuiMouseButton_Left);
  const auto keep_text = [](ImGuiInputTextCallbackData* data) {
    bool& fresh = *static_cast<bool*>(data->UserData);
    if (fresh) data->SelectionStart = data->SelectionEnd = data->CursorPos = data->BufTextLen;
    fresh = false;
    return 0;
  };
  ImGui::InputTextWithHint("##corpus_search", context.tr("corpus_search_hint"), &view.search,
                           ImGuiInputTextFlags_CallbackAlways, keep_text, &entered_by_keyboard);
  register_item(context.ui, ids::kCorpusSearch);
  view.search_active = ImGui::IsItemActive();
  ImGui::SameLine();
  help_marker(context.tr("corpus_help"));
  const int head = state.selection.head;
  if (view.corpus_serial != view.job_serial || view.corpus_head != head || view.corpus_search != view.search) {
    view.corpus = analysis::head_corpus(view.job->sample(), head, context.resources().lexicon, state.document.model.causal, 20,
                                        view.search);
    view.corpus_serial = view.job_serial;
    view.corpus_head = head;
    view.corpus_search = view.search;
  }
  const analysis::HeadCorpus& corpus = view.corpus;
  ImGui::BeginChild("corpus_body", ImVec2(width, std::max(ImGui::GetFontSize() * 6.0f, height - (ImGui::GetCursorPosY() - top))));
  const float inner = width - ImGui::GetStyle().ScrollbarSize;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + inner);
  ImGui::TextDisabled("%s", format_text(context.tr("corpus_counted"), corpus.queries, corpus.forced).c_str());
  ImGui::PopTextWrapPos();
  if (corpus.queries == 0) {
    ImGui::TextUnformatted(context.tr("corpus_none"));
    ImGui::EndChild();
    return;
  }
  // Two tables side by side when there is room, one under the other on a phone.
  const float font = ImGui::GetFontSize();
  const bool beside = inner > font * 34.0f;
  const float column = beside ? inner * 0.5f - font : inner;
  // Names as wide as the longest kind's, so no bar covers one.
  float name_width = font * 6.0f;
  for (int k = 0; k < analysis::kAttendedKindCount; ++k) {
    const std::string key = std::string("kind_") + analysis::attended_kind_name(static_cast<analysis::AttendedKind>(k));
    name_width = std::max(name_width, ImGui::CalcTextSize(context.tr(key.c_str())).x + font);
  }
  const float bar = std::max(font * 3.0f, column - name_width - font * 3.0f);
  ImGui::BeginGroup();
  ImGui::TextUnformatted(context.tr("corpus_kinds"));
  for (int k = 0; k < analysis::kAttendedKindCount; ++k) {
    const std::string key = std::string("kind_") + analysis::attended_kind_name(static_cast<analysis::AttendedKind>(k));
    count_row(context.tr(key.c_str()), corpus.kinds[static_cast<std::size_t>(k)], corpus.queries, name_width, bar);
  }
  ImGui::EndGroup();
  register_item(context.ui, ids::kCorpusCounts);
  if (beside) ImGui::SameLine(column + font * 2.0f);
  ImGui::BeginGroup();
  ImGui::TextUnformatted(context.tr("corpus_word_classes"));
  for (int pos = 0; pos < analysis::kPartOfSpeechCount; ++pos)
    if (corpus.word_classes[static_cast<std::size_t>(pos)] > 0)
      count_row(context.tr(word_class_key(static_cast<PartOfSpeech>(pos))), corpus.word_classes[static_cast<std::size_t>(pos)],
                corpus.queries, name_width, bar);
  ImGui::EndGroup();
  ImGui::Separator();
  ImGui::TextUnformatted(context.tr("corpus_contexts"));
  const analysis::QueryKeySample& sample = view.job->sample();
  for (std::size_t i = 0; i < corpus.strongest.size(); ++i) {
    const analysis::StrongContext& c = corpus.strongest[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::BeginGroup();
    context_line(sample.sentences[static_cast<std::size_t>(c.sentence)], c, inner);
    ImGui::EndGroup();
    register_item(context.ui, std::string(ids::kCorpusContext) + "/" + std::to_string(i));
    ImGui::PopID();
  }
  ImGui::EndChild();
}

}  // namespace headlab::ui

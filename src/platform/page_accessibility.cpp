// Screen readers cannot see the canvas: the page's live region and accessibility tree
// (web/accessible-view.js) follow what a sighted learner reads.
#include <emscripten.h>

#include <string>

#include "platform.h"
#include "ui/accessible_view.h"
#include "ui/format_text.h"
#include "ui/head_caption.h"
#include "ui/words.h"

namespace headlab::platform {
namespace {

EM_JS(void, set_live_text, (const char* text), {
  const live = document.getElementById('live');
  if (live) live.textContent = UTF8ToString(text);
});
EM_JS(void, set_accessible_view, (const char* json), {
  if (window.headlabAccessibleView) window.headlabAccessibleView(UTF8ToString(json));
});

// What the accessible view reads, in brief: the model's revision (analysis, labels), the selection,
// the lesson's place, goal and numbers, the language and the notices.
std::string accessible_view_signature(const headlab::app::AppState& state) {
  const headlab::app::LessonProgress& p = state.progress;
  std::string s = std::to_string(state.revision) + ' ' + std::to_string(state.selection.layer) + ' ' +
                  std::to_string(state.selection.head) + ' ' + std::to_string(p.lesson) + ' ' + std::to_string(p.step) + ' ' +
                  std::to_string(p.goal_met) + ' ' + std::to_string(p.hints_shown) + ' ' +
                  std::to_string(static_cast<int>(p.language));
  for (const headlab::lessons::GoalNumber& number : p.numbers)
    s += ' ' + std::to_string(number.head) + ':' + std::to_string(number.value) + ':' + std::to_string(number.holds);
  for (const headlab::app::Notice& notice : state.notices) s += '\n' + notice.text;  // the language is above
  return s;
}

}  // namespace

// Screen readers cannot see the canvas: the selected head and the latest notice are announced in
// the page's ARIA live region whenever they change, and the whole readable view (lesson, head,
// notices) is mirrored into the page's accessibility tree.
void mirror_to_live_region(Platform& p) {
  const auto& sel = p.state.selection;
  const headlab::ui::Words words{p.controller->resources(), p.state.progress.language};
  std::string text = headlab::ui::format_text(words("a11y_head_title"), sel.layer, sel.head) + ": " +
                     headlab::ui::head_caption(p.state, sel.layer, sel.head, words) + ".";
  // The point picked in the queries-and-keys picture, while that tab is shown.
  if (p.ui.detail == headlab::ui::DetailView::query_key && !p.ui.query_key.announcement.empty())
    text += " " + p.ui.query_key.announcement;
  if (!p.state.notices.empty())
    text += " " + headlab::app::notice_text(p.state.notices.back(), words.resources.ui_text, words.language);
  if (text != p.ui.live_text) {
    p.ui.live_text = text;
    set_live_text(text.c_str());
  }
  // Rebuilt only when something it shows may have changed, not every frame.
  const std::string signature = accessible_view_signature(p.state);
  if (signature == p.accessible_view_signature) return;
  p.accessible_view_signature = signature;
  // Texts quote tokens, which may be cut inside a character: replaced, never a throw.
  std::string view = headlab::ui::accessible_view(p.state, p.controller->resources())
                         .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (view != p.accessible_view) {
    p.accessible_view = std::move(view);
    set_accessible_view(p.accessible_view.c_str());
  }
}

}  // namespace headlab::platform

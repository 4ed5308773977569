// Exports the menu asks for: PNGs of a figure or the screen, SVGs of a figure, the attention as CSV, the model file,
// and the share link or file picker of web/persistence.js.
#include <emscripten.h>

#include <string>

#include "app/exports.h"
#include "engine/model_file.h"
#include "imgui.h"
#include "platform.h"
#include "ui/widget_ids.h"

namespace headlab::platform {
namespace {

// Downloads of exports are done by web/exports.js.
EM_JS(void, export_png, (float x, float y, float w, float h, const char* name), {
  if (window.headlabExports) window.headlabExports.png(Module.canvas, x, y, w, h, UTF8ToString(name));
});
EM_JS(void, export_text, (const char* name, const char* mime, const char* text), {
  if (window.headlabExports) window.headlabExports.text(UTF8ToString(name), UTF8ToString(mime), UTF8ToString(text));
});
EM_JS(void, start_persistence_action, (int share), {
  if (!window.headlabPersistence) return;
  if (share) window.headlabPersistence.copyLink();
  else window.headlabPersistence.pickFile();
});

// model.safetensors and config.json through web/checkpoint.js's file picker.
EM_JS(void, pick_checkpoint, (), {
  if (window.headlabCheckpoint) window.headlabCheckpoint.pick();
});

}  // namespace

void handle_export(Platform& p) {
  using headlab::ui::ExportKind;
  const ExportKind kind = p.ui.pending_export;
  if (kind == ExportKind::none) return;
  // Wait one frame so the menu that asked for the export is gone from the picture.
  if (!p.export_waited) {
    p.export_waited = true;
    return;
  }
  p.export_waited = false;
  p.ui.pending_export = ExportKind::none;
  const auto& sel = p.state.selection;
  const std::string stem = "headlab-L" + std::to_string(sel.layer) + "H" + std::to_string(sel.head);
  const auto rect_of = [&](const char* name) {
    const auto it = p.ui.widget_rects.find(name);
    return it == p.ui.widget_rects.end() ? headlab::ui::Rect{} : it->second;
  };
  switch (kind) {
    case ExportKind::heatmap_png: {
      // The heatmap with its token labels, axis titles and colour legend (ui/head_detail.cpp).
      const headlab::ui::Rect r = rect_of(headlab::ui::ids::kDetailFigure);
      export_png(r.x, r.y, r.w, r.h, (stem + "-heatmap.png").c_str());
      break;
    }
    case ExportKind::arcs_png: {
      // The arcs with the legend of heads (colour and line style) and the threshold above them.
      const headlab::ui::Rect r = rect_of(headlab::ui::ids::kArcFigure);
      export_png(r.x, r.y, r.w, r.h, (stem + "-arcs.png").c_str());
      break;
    }
    case ExportKind::heatmap_svg:
      export_text((stem + "-heatmap.svg").c_str(), "image/svg+xml", p.ui.export_document.c_str());
      break;
    case ExportKind::arcs_svg:
      export_text((stem + "-arcs.svg").c_str(), "image/svg+xml", p.ui.export_document.c_str());
      break;
    case ExportKind::screen_png: {
      const ImGuiIO& io = ImGui::GetIO();
      export_png(0, 0, io.DisplaySize.x, io.DisplaySize.y, "headlab-screen.png");
      break;
    }
    case ExportKind::heatmap_csv:
      export_text((stem + "-attention.csv").c_str(), "text/csv",
                  headlab::app::attention_csv(p.state, sel.layer, sel.head).c_str());
      break;
    case ExportKind::model_json:
      export_text("headlab-model.json", "application/json", headlab::serialize_model_file(p.state.document, 1).c_str());
      break;
    case ExportKind::share_link: start_persistence_action(1); break;
    case ExportKind::import_file: start_persistence_action(0); break;
    case ExportKind::open_checkpoint: pick_checkpoint(); break;
    case ExportKind::none: break;
  }
  p.ui.detail = p.ui.detail_before_export;
  p.ui.export_document.clear();
}

}  // namespace headlab::platform

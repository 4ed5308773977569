#pragma once
// Names of widgets that tests and lessons refer to (window.headlab.widgetRect(name)). Heads and
// cells are addressed by suffixes, e.g. "overview/head/0/2", "editor/cell/5/0".
namespace headlab::ui::ids {

inline constexpr const char* kSentence = "sentence";
inline constexpr const char* kExamples = "examples";
inline constexpr const char* kHeadCount = "heads/count";
inline constexpr const char* kHeadCountPlus = "heads/plus";
inline constexpr const char* kHeadCountMinus = "heads/minus";
inline constexpr const char* kLayerCount = "layers/count";
inline constexpr const char* kUndo = "undo";
inline constexpr const char* kRedo = "redo";
inline constexpr const char* kOverview = "overview";
inline constexpr const char* kOverviewHead = "overview/head";  // + "/layer/head"
inline constexpr const char* kDetailHeatmap = "detail/heatmap";
inline constexpr const char* kTabHeatmap = "tab/heatmap";
inline constexpr const char* kTabArcs = "tab/arcs";
inline constexpr const char* kTabConcat = "tab/concat";
inline constexpr const char* kTabWeights = "tab/weights";
inline constexpr const char* kTabLabels = "tab/labels";
inline constexpr const char* kArcView = "arcs";
inline constexpr const char* kArcThreshold = "arcs/threshold";
inline constexpr const char* kEditorMatrix = "editor/matrix";  // the grid of the edited matrix
inline constexpr const char* kEditorCell = "editor/cell";      // + "/row/col"
inline constexpr const char* kEditorTab = "editor/tab";        // + "/W_Q" ...
inline constexpr const char* kPresetCombo = "editor/preset";
inline constexpr const char* kLabels = "labels";
inline constexpr const char* kConcat = "concat";
inline constexpr const char* kExportPng = "export/png";
inline constexpr const char* kHelp = "help";

}  // namespace headlab::ui::ids

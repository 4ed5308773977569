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
inline constexpr const char* kOverviewSummary = "overview/summary";  // layers as means, with their profile
inline constexpr const char* kOverviewLayerProfile = "overview/layer";  // + "/layer": distance, entropy, roles
inline constexpr const char* kDetailHeatmap = "detail/heatmap";
inline constexpr const char* kDetailFigure = "detail/figure";  // title, heatmap, axes and legend: the PNG export
inline constexpr const char* kDetailTitle = "detail/title";    // layer, head, label and the sentence
inline constexpr const char* kDetailScroll = "detail/scroll";  // the scrolling area of a long input's heatmap
inline constexpr const char* kTabHeatmap = "tab/heatmap";
inline constexpr const char* kTabArcs = "tab/arcs";
inline constexpr const char* kTabConcat = "tab/concat";
inline constexpr const char* kTabCircuits = "tab/circuits";
inline constexpr const char* kCircuitPrefix = "circuits/";  // + "qk" or "ov": the circuit's matrix
inline constexpr const char* kTabPredictions = "tab/predictions";
inline constexpr const char* kTabQueryKey = "tab/qkmap";
// The queries-and-keys plot: the rectangle its points' bounding box (queryKeyMap's "bounds") fills.
inline constexpr const char* kQueryKeyPlot = "qkmap/plot";
inline constexpr const char* kQueryKeyPicked = "qkmap/picked";  // + "/sentence/position/query" or "/key"
inline constexpr const char* kQueryKeySentence = "qkmap/sentence";  // the picked point's sentence
inline constexpr const char* kQueryKeyByPosition = "qkmap/colour/position";
inline constexpr const char* kQueryKeyByRole = "qkmap/colour/role";
inline constexpr const char* kQueryKeyPictureView = "qkmap/view/picture";  // the tab's two views
inline constexpr const char* kCorpusView = "corpus/view";
inline constexpr const char* kCorpusSearch = "corpus/search";
inline constexpr const char* kCorpusCounts = "corpus/counts";
inline constexpr const char* kCorpusContext = "corpus/context";  // + "/i": the i-th strongest context listed
inline constexpr const char* kRepeatedSequence = "model/repeated_sequence";
inline constexpr const char* kLoadTrainedModel = "model/trained";  // the shipped trained model
inline constexpr const char* kLoadTextModel = "model/text";  // the real-text language model
inline constexpr const char* kLoadTextModelPlusOne = "model/text/softmax_plus_one";  // the same, trained with softmax + 1
inline constexpr const char* kLoadTextModelSigmoid = "model/text/sigmoid";  // the same, trained with sigmoid attention
inline constexpr const char* kOpenCheckpoint = "model/open_checkpoint";  // the GPT-2 checkpoint file picker
inline constexpr const char* kPredictions = "predictions";  // the next-token predictions panel
inline constexpr const char* kTabWeights = "tab/weights";
inline constexpr const char* kTabLabels = "tab/labels";
inline constexpr const char* kArcView = "arcs";
inline constexpr const char* kConcatScale = "concat/scale";  // the colour scales under Concat and W_O
inline constexpr const char* kWoScale = "concat/scale/W_O";
inline constexpr const char* kArcFigure = "arcs/figure";  // the canvas with the heads' legend: the PNG export
inline constexpr const char* kArcThreshold = "arcs/threshold";
inline constexpr const char* kEditorMatrix = "editor/matrix";  // the grid of the edited matrix
inline constexpr const char* kEditorCell = "editor/cell";      // + "/row/col"
inline constexpr const char* kEditorTab = "editor/tab";        // + "/W_Q" ...
inline constexpr const char* kEditorTabs[4] = {"editor/tab/W_Q", "editor/tab/W_K", "editor/tab/W_V", "editor/tab/W_O"};
inline constexpr const char* kPresetCombo = "editor/preset";
inline constexpr const char* kModelSettings = "model/settings";  // the section's header
inline constexpr const char* kDModel = "model/d_model";  // Model settings' drags
inline constexpr const char* kHeadDim = "model/d_k";
// A lesson step's frames as drawn this frame: + the framed widget's id ("highlight/pulse/editor/tab/W_K").
inline constexpr const char* kHighlightPulse = "highlight/pulse/";
inline constexpr const char* kHighlightStill = "highlight/still/";
inline constexpr const char* kEditorPruned = "editor/pruned";  // the selected head's "pruned" checkbox
inline constexpr const char* kLabels = "labels";
inline constexpr const char* kSinks = "labels/sinks";  // the attention-sink grid: first-token and punctuation shares
inline constexpr const char* kSinksSection = "labels/sinks_section";  // the sink grid's header
inline constexpr const char* kLabelsHeldOut = "labels/held_out";       // + "/layer/head": a trained head's held-out label
inline constexpr const char* kPruningSection = "labels/pruning";        // the pruning curve's header
inline constexpr const char* kPruningMeasure = "labels/pruning/measure";
inline constexpr const char* kPruningProgress = "labels/pruning/progress";  // while a curve is measured
inline constexpr const char* kPruningCancel = "labels/pruning/cancel";
inline constexpr const char* kPruningPlot = "labels/pruning/plot";
inline constexpr const char* kPruningCount = "labels/pruning/count";    // how many heads to prune
inline constexpr const char* kPruningApply = "labels/pruning/apply";
inline constexpr const char* kConcat = "concat";
inline constexpr const char* kExportPng = "export/png";
inline constexpr const char* kHelp = "help";

// Training tab (issue 7).
inline constexpr const char* kTabTraining = "tab/training";
inline constexpr const char* kTrainTaskGrammar = "train/task/grammar";      // the task selector's two choices
inline constexpr const char* kTrainTaskInduction = "train/task/induction";
inline constexpr const char* kTrainTaskText = "train/task/text";
inline constexpr const char* kTrainTaskWaiting = "train/task/waiting";  // fetching the text sample, or why it failed
// The attention normalisation's three choices (engine/model.h).
inline constexpr const char* kTrainAttentionSoftmax = "train/attention/softmax";
inline constexpr const char* kTrainAttentionPlusOne = "train/attention/softmax_plus_one";
inline constexpr const char* kTrainAttentionSigmoid = "train/attention/sigmoid";
inline constexpr const char* kTrainPlay = "train/play";        // play / pause
inline constexpr const char* kTrainStep = "train/step";
inline constexpr const char* kTrainSeed = "train/seed";
inline constexpr const char* kTrainRestart = "train/restart";  // a new run from the seed
inline constexpr const char* kTrainRate = "train/lr";
inline constexpr const char* kTrainSpeed = "train/speed";
inline constexpr const char* kTrainUse = "train/use";          // load the trained model into the lab
inline constexpr const char* kTrainViewProgress = "train/view/progress";
inline constexpr const char* kTrainViewProbes = "train/view/probes";
inline constexpr const char* kTrainViewCompare = "train/view/compare";
inline constexpr const char* kTrainLoss = "train/loss";
inline constexpr const char* kTrainTimeline = "train/timeline";
inline constexpr const char* kTrainLayers = "train/layers";  // layer dependence of the model now
inline constexpr const char* kTrainHeadsInput = "train/heads/input";  // the held-out input the heads are shown on
inline constexpr const char* kTrainHead = "train/head";               // + "/layer/head": a thumbnail
inline constexpr const char* kTrainHeadDetail = "train/head/detail";  // the picked head, large
inline constexpr const char* kTrainPrefixPlot = "train/induction/prefix";      // per-head prefix matching
inline constexpr const char* kTrainPreviousPlot = "train/induction/previous";  // layer-0 previous-token scores
inline constexpr const char* kTrainFirstTokenPlot = "train/induction/first_token";  // layer-1+ attention on the first token
inline constexpr const char* kTrainProbe = "train/probe";
inline constexpr const char* kTrainProbeChart = "train/probes";
inline constexpr const char* kTrainCompare = "train/compare";  // run / pause the comparison
inline constexpr const char* kTrainCompareRestart = "train/compare/restart";
inline constexpr const char* kTrainComparePlot = "train/compare/plot";
inline constexpr const char* kTrainExperiment = "train/experiment";  // run / pause the head counts x 3 seeds
inline constexpr const char* kTrainExperimentPlot = "train/experiment/plot";
inline constexpr const char* kTrainExperimentGrammar = "train/experiment/grammar";  // the experiment's text: the grammar
inline constexpr const char* kTrainExperimentText = "train/experiment/text";        // or real text
inline constexpr const char* kTrainExperimentPaperPlot = "train/experiment/paper";  // its shape beside Vaswani et al.

}  // namespace headlab::ui::ids

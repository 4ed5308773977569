#include "model_file.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "embedding.h"
#include "json_reader.h"
#include "tokenizer.h"

namespace headlab {
namespace {

using nlohmann::json;

std::string shape_text(long rows, long cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

// The JSON reader plus what only the model file needs: matrices with shape messages and the
// file-wide budget of numbers.
struct ModelReader : JsonReader {
  long numbers = 0;

  // A matrix given as an array of rows. rows/cols < 0 means "any" (then the shape is read).
  bool matrix(const json* value, const std::string& path, long rows, long cols, Matrix& out) {
    if (!value) return false;  // field() recorded "missing"
    if (!value->is_array()) return fail(path, "expected an array of rows");
    const long r = static_cast<long>(value->size());
    long c = -1;
    for (long i = 0; i < r; ++i) {
      const json& row = (*value)[i];
      if (!row.is_array()) return fail(json_path(path, i), "expected an array of numbers");
      const long row_length = static_cast<long>(row.size());
      if (c >= 0 && row_length != c)
        return fail(path, "rows have different lengths (" + std::to_string(c) + " and " +
                              std::to_string(row_length) + ")");
      c = row_length;
    }
    if (c < 0) c = 0;
    if ((rows >= 0 && r != rows) || (cols >= 0 && c != cols))
      return fail(path, "expected " + shape_text(rows >= 0 ? rows : r, cols >= 0 ? cols : c) + ", got " +
                            shape_text(r, c));
    if (r == 0 || c == 0) return fail(path, "matrix is empty");
    numbers += r * c;
    if (numbers > kMaxModelNumbers)
      return fail(path, "too many numbers in the file (limit " + std::to_string(kMaxModelNumbers) + ")");
    out.resize(r, c);
    for (long i = 0; i < r; ++i)
      for (long j = 0; j < c; ++j) {
        const json& v = (*value)[i][j];
        // Millions of entries: the element's path is only built for an error.
        const double d = v.is_number() ? v.get<double>() : NAN;
        if (std::fabs(d) <= kFloatMax) {
          out(i, j) = static_cast<float>(d);
          continue;
        }
        float ignored = 0.0f;
        return number(&v, json_path(json_path(path, i), j), ignored);
      }
    return true;
  }

  bool row_vector(const json* value, const std::string& path, long length, RowVector& out) {
    if (!value) return false;
    if (!value->is_array()) return fail(path, "expected an array of numbers");
    if (static_cast<long>(value->size()) != length)
      return fail(path, "expected " + std::to_string(length) + " numbers, got " + std::to_string(value->size()));
    numbers += length;
    if (numbers > kMaxModelNumbers)
      return fail(path, "too many numbers in the file (limit " + std::to_string(kMaxModelNumbers) + ")");
    out.resize(length);
    for (long j = 0; j < length; ++j) {
      const json& v = (*value)[j];
      const double d = v.is_number() ? v.get<double>() : NAN;
      if (std::fabs(d) <= kFloatMax) {
        out(j) = static_cast<float>(d);
        continue;
      }
      float ignored = 0.0f;
      return number(&v, json_path(path, j), ignored);
    }
    return true;
  }
};

bool read_layer(ModelReader& r, const json& value, const std::string& path, int d_model, Layer& layer) {
  if (!r.object(&value, path)) return false;
  const json* heads = r.array(r.field(value, path, "heads"), json_path(path, "heads"), 1, kMaxHeads, "heads");
  if (!heads) return false;
  long d_k = -1, d_v = -1;
  for (std::size_t h = 0; h < heads->size(); ++h) {
    const std::string hp = json_path(json_path(path, "heads"), h);
    const json& head_json = (*heads)[h];
    if (!r.object(&head_json, hp)) return false;
    HeadWeights head;
    if (!r.matrix(r.field(head_json, hp, "W_Q"), hp + ".W_Q", d_model, d_k, head.W_Q)) return false;
    d_k = head.W_Q.cols();
    if (d_k > kMaxDModel) return r.fail(hp + ".W_Q", "d_k must be at most " + std::to_string(kMaxDModel));
    if (!r.matrix(r.field(head_json, hp, "W_K"), hp + ".W_K", d_model, d_k, head.W_K)) return false;
    if (!r.matrix(r.field(head_json, hp, "W_V"), hp + ".W_V", d_model, d_v, head.W_V)) return false;
    d_v = head.W_V.cols();
    if (d_v > kMaxDModel) return r.fail(hp + ".W_V", "d_v must be at most " + std::to_string(kMaxDModel));
    if (const json* pruned = JsonReader::optional_field(head_json, "pruned"); pruned && !r.boolean(pruned, hp + ".pruned", head.pruned))
      return false;
    layer.heads.push_back(std::move(head));
  }
  layer.d_k = static_cast<int>(d_k);
  layer.d_v = static_cast<int>(d_v);
  const long concat = static_cast<long>(heads->size()) * d_v;
  if (!r.matrix(r.field(value, path, "W_O"), path + ".W_O", concat, d_model, layer.W_O)) return false;
  if (const json* residual = JsonReader::optional_field(value, "residual");
      residual && !r.boolean(residual, path + ".residual", layer.residual))
    return false;
  if (const json* norm = JsonReader::optional_field(value, "norm");
      norm && !r.one_of(norm, path + ".norm", kNormNames, layer.norm))
    return false;
  layer.ln_gamma = layer.ln2_gamma = RowVector::Ones(d_model);
  layer.ln_beta = layer.ln2_beta = RowVector::Zero(d_model);
  if (const json* ln = JsonReader::optional_field(value, "ln")) {
    if (!r.object(ln, path + ".ln")) return false;
    for (auto [key, target] : {std::pair{"gamma", &layer.ln_gamma}, {"beta", &layer.ln_beta},
                               {"gamma_2", &layer.ln2_gamma}, {"beta_2", &layer.ln2_beta}})
      if (const json* v = JsonReader::optional_field(*ln, key); v && !r.row_vector(v, path + ".ln." + key, d_model, *target))
        return false;
  }
  if (const json* ffn = JsonReader::optional_field(value, "ffn"); ffn && !ffn->is_null()) {
    const std::string fp = path + ".ffn";
    if (!ffn->is_object()) return r.fail(fp, "expected an object or null");
    for (const char* key : {"W_1", "b_1", "W_2", "b_2"})
      if (!r.field(*ffn, fp, key)) return false;
    if (!r.matrix(&(*ffn)["W_1"], fp + ".W_1", d_model, -1, layer.ffn.W_1)) return false;
    const long d_ff = layer.ffn.W_1.cols();
    if (d_ff > 4 * kMaxDModel) return r.fail(fp + ".W_1", "d_ff must be at most " + std::to_string(4 * kMaxDModel));
    if (!r.row_vector(&(*ffn)["b_1"], fp + ".b_1", d_ff, layer.ffn.b_1)) return false;
    if (!r.matrix(&(*ffn)["W_2"], fp + ".W_2", d_ff, d_model, layer.ffn.W_2)) return false;
    if (!r.row_vector(&(*ffn)["b_2"], fp + ".b_2", d_model, layer.ffn.b_2)) return false;
    layer.has_ffn = true;
  }
  return true;
}

json matrix_json(const Matrix& m) {
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    json row = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(m(i, j));
    rows.push_back(std::move(row));
  }
  return rows;
}

json vector_json(const RowVector& v) {
  json row = json::array();
  for (Eigen::Index j = 0; j < v.size(); ++j) row.push_back(v(j));
  return row;
}

}  // namespace

Result<Document> parse_model_file(const std::string& json_text) {
  using R = Result<Document>;
  const json doc = json::parse(json_text, nullptr, false);
  if (doc.is_discarded()) return R::failure("not valid JSON");
  if (!doc.is_object()) return R::failure("expected a JSON object");
  if (!doc.contains("format") || doc["format"] != kModelFormat)
    return R::failure(std::string("format: expected \"") + kModelFormat + "\"");
  ModelReader r;
  long long version = 0;
  int d_model = 0;
  if (!r.integer(r.field(doc, "", "version"), "version", 1, 1000000, version)) return R::failure(r.error());
  if (version > kModelFormatVersion)
    return R::failure("version: " + std::to_string(version) + " is newer than this HeadLab understands (" +
                      std::to_string(kModelFormatVersion) + ")");
  if (!r.integer(r.field(doc, "", "d_model"), "d_model", kMinDModel, kMaxDModel, d_model)) return R::failure(r.error());

  Document document;
  Model& model = document.model;
  model = Model{};
  model.d_model = d_model;
  const auto optional = [&](const char* key) { return JsonReader::optional_field(doc, key); };
  if (const json* v = optional("embedding");
      v && !r.one_of<Embedding>(v, "embedding", {{"named", Embedding::named_features}, {"random", Embedding::random}, {"symbols", Embedding::symbols}}, model.embedding))
    return R::failure(r.error());
  if (const json* v = optional("positional");
      v && !r.one_of(v, "positional", kPositionalNames, model.positional))
    return R::failure(r.error());
  if (const json* v = optional("causal"); v && !r.boolean(v, "causal", model.causal)) return R::failure(r.error());
  // Files from before the choice have none: softmax, as they were trained and shown.
  if (const json* v = optional("attention"); v && !r.one_of(v, "attention", kAttentionNormalizationNames, model.attention))
    return R::failure(r.error());
  if (const json* v = optional("special_tokens"); v && !r.boolean(v, "special_tokens", model.special_tokens))
    return R::failure(r.error());
  if (const json* v = optional("seed")) {
    long long seed = 0;
    if (!r.integer(v, "seed", 0, 4294967295LL, seed)) return R::failure(r.error());
    model.seed = static_cast<std::uint32_t>(seed);
  }
  // The learned positional table is part of the model when positional == learned.
  Model seeded = make_model(model.d_model, 1, 1, model.seed);
  model.positional_table = seeded.positional_table;
  if (const json* v = optional("positional_table");
      v && !r.matrix(v, "positional_table", model.positional_table.rows(), d_model, model.positional_table))
    return R::failure(r.error());

  // A list of words (vocab, tokens): non-empty strings of at most 200 bytes.
  const auto words = [&](const json* list, const char* path, std::size_t min, std::size_t max, const char* noun,
                         std::vector<std::string>& out) {
    if (!r.array(list, path, min, max, noun)) return false;
    out.resize(list->size());
    for (std::size_t i = 0; i < list->size(); ++i)
      if (!r.string(&(*list)[i], json_path(path, i), out[i], true, 200)) return false;
    return true;
  };

  // Optional learned token embedding (trained models): vocab + token_embedding (+ output_bias).
  if (optional("vocab") || optional("token_embedding")) {
    if (!words(optional("vocab"), "vocab", 1, kMaxVocabulary, "words", model.vocab)) return R::failure(r.error());
    const long vocab_size = static_cast<long>(model.vocab.size());
    if (!optional("token_embedding")) return R::failure("token_embedding: missing (required with vocab)");
    if (!r.matrix(optional("token_embedding"), "token_embedding", vocab_size, d_model, model.token_embedding))
      return R::failure(r.error());
    model.output_bias = RowVector::Zero(vocab_size);
    if (const json* v = optional("output_bias"); v && !r.row_vector(v, "output_bias", vocab_size, model.output_bias))
      return R::failure(r.error());
  }

  // Input: exactly one of text / tokens / X (X may come with tokens for metadata).
  Input& input = document.input;
  const json *text = optional("text"), *tokens = optional("tokens"), *X = optional("X");
  if (text && (tokens || X)) return R::failure("text: give either \"text\" or \"tokens\"/\"X\", not both");
  if (text) {
    if (!r.string(text, "text", input.text, false, 200000)) return R::failure(r.error());
    input.kind = InputKind::text;
  }
  if (tokens) {
    if (!words(tokens, "tokens", 0, kMaxTokens + 2, "tokens", input.tokens)) return R::failure(r.error());
    input.kind = InputKind::tokens;
  }
  if (X) {
    if (!r.matrix(X, "X", tokens ? static_cast<long>(input.tokens.size()) : -1, d_model, input.X))
      return R::failure(r.error());
    if (input.X.rows() > static_cast<long>(kMaxTokens) + 2)
      return R::failure("X: at most " + std::to_string(kMaxTokens + 2) + " rows, got " + std::to_string(input.X.rows()));
    input.kind = InputKind::matrix;
  }
  // The named features (24) and the symbols' fixed dimensions (13) are needed only where they build
  // the input rows: explicit X and a learned token embedding bypass them (embed() reads `embedding`
  // only without a vocab).
  const bool embedding_builds_input = model.vocab.empty() && input.kind != InputKind::matrix;
  if (embedding_builds_input && d_model < min_d_model(model.embedding))
    return R::failure(std::string("d_model: the ") +
                      (model.embedding == Embedding::symbols ? "symbol" : "named-feature") +
                      " embedding needs at least " + std::to_string(min_d_model(model.embedding)));

  const json* layers = r.array(r.field(doc, "", "layers"), "layers", 1, kMaxLayers, "layers");
  if (!layers) return R::failure(r.error());
  for (std::size_t l = 0; l < layers->size(); ++l) {
    Layer layer;
    if (!read_layer(r, (*layers)[l], json_path("layers", l), model.d_model, layer)) return R::failure(r.error());
    model.layers.push_back(std::move(layer));
  }
  return document;
}

std::string serialize_model_file(const Document& document, int indent) {
  const Model& model = document.model;
  json doc;
  doc["format"] = kModelFormat;
  doc["version"] = kModelFormatVersion;
  doc["d_model"] = model.d_model;
  doc["embedding"] = embedding_id(model.embedding);
  doc["positional"] = enum_name(kPositionalNames, model.positional);
  doc["causal"] = model.causal;
  // Written only when it is not the default, so a softmax model's file reads as it always did.
  if (model.attention != AttentionNormalization::softmax)
    doc["attention"] = enum_name(kAttentionNormalizationNames, model.attention);
  doc["special_tokens"] = model.special_tokens;
  doc["seed"] = model.seed;
  switch (document.input.kind) {
    case InputKind::text: doc["text"] = document.input.text; break;
    // Ids are a checkpoint's test input (setTokenIds): a model file keeps the text instead.
    case InputKind::token_ids: doc["text"] = document.input.text; break;
    case InputKind::tokens: doc["tokens"] = document.input.tokens; break;
    case InputKind::matrix:
      if (!document.input.tokens.empty()) doc["tokens"] = document.input.tokens;
      doc["X"] = matrix_json(document.input.X);
      break;
  }
  if (model.positional == Positional::learned) doc["positional_table"] = matrix_json(model.positional_table);
  if (!model.vocab.empty()) {
    doc["vocab"] = model.vocab;
    doc["token_embedding"] = matrix_json(model.token_embedding);
    if (model.output_bias.size() == static_cast<Eigen::Index>(model.vocab.size()))
      doc["output_bias"] = vector_json(model.output_bias);
  }
  json layers = json::array();
  for (const Layer& layer : model.layers) {
    json l;
    json heads = json::array();
    for (const HeadWeights& head : layer.heads) {
      json h = {{"W_Q", matrix_json(head.W_Q)}, {"W_K", matrix_json(head.W_K)}, {"W_V", matrix_json(head.W_V)}};
      if (head.pruned) h["pruned"] = true;
      heads.push_back(std::move(h));
    }
    l["heads"] = std::move(heads);
    l["W_O"] = matrix_json(layer.W_O);
    l["residual"] = layer.residual;
    l["norm"] = enum_name(kNormNames, layer.norm);
    if (layer.norm != Norm::none)
      l["ln"] = {{"gamma", vector_json(layer.ln_gamma)}, {"beta", vector_json(layer.ln_beta)},
                 {"gamma_2", vector_json(layer.ln2_gamma)}, {"beta_2", vector_json(layer.ln2_beta)}};
    if (layer.has_ffn)
      l["ffn"] = {{"W_1", matrix_json(layer.ffn.W_1)}, {"b_1", vector_json(layer.ffn.b_1)},
                  {"W_2", matrix_json(layer.ffn.W_2)}, {"b_2", vector_json(layer.ffn.b_2)}};
    else
      l["ffn"] = nullptr;
    layers.push_back(std::move(l));
  }
  doc["layers"] = std::move(layers);
  return doc.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace headlab

#include "model_file.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "embedding.h"
#include "tokenizer.h"

namespace headlab {
namespace {

using nlohmann::json;

std::string shape_text(long rows, long cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

// Reads fields of a JSON object, remembering the first error with its path.
class Reader {
 public:
  std::string error;
  long numbers = 0;

  bool fail(const std::string& path, const std::string& message) {
    if (error.empty()) error = path + ": " + message;
    return false;
  }

  // A matrix given as an array of rows. rows/cols < 0 means "any" (then the shape is read).
  bool matrix(const json& value, const std::string& path, long rows, long cols, Matrix& out) {
    if (!value.is_array()) return fail(path, "expected an array of rows");
    const long r = static_cast<long>(value.size());
    long c = -1;
    for (long i = 0; i < r; ++i) {
      if (!value[i].is_array()) return fail(path + "[" + std::to_string(i) + "]", "expected an array of numbers");
      const long row_length = static_cast<long>(value[i].size());
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
        const json& v = value[i][j];
        const std::string at = path + "[" + std::to_string(i) + "][" + std::to_string(j) + "]";
        if (!v.is_number()) return fail(at, "expected a number");
        const double d = v.get<double>();
        if (!std::isfinite(d) || std::fabs(d) > 3.0e38) return fail(at, "must be a finite number");
        out(i, j) = static_cast<float>(d);
      }
    return true;
  }

  bool row_vector(const json& value, const std::string& path, long length, RowVector& out) {
    if (!value.is_array()) return fail(path, "expected an array of numbers");
    Matrix m;
    json wrapped = json::array({value});
    if (!matrix(wrapped, path, 1, length, m)) {
      // Re-word the shape message for a vector.
      error = path + ": expected " + std::to_string(length) + " numbers, got " + std::to_string(value.size());
      return false;
    }
    out = m.row(0);
    return true;
  }

  template <class E>
  bool enumeration(const json& object, const char* key, const std::string& path,
                   std::initializer_list<std::pair<const char*, E>> choices, E& out) {
    if (!object.contains(key)) return true;
    const json& v = object[key];
    std::string allowed;
    for (const auto& [name, value] : choices) {
      if (v.is_string() && v.get<std::string>() == name) {
        out = value;
        return true;
      }
      allowed += std::string(allowed.empty() ? "" : ", ") + "\"" + name + "\"";
    }
    return fail(path + key, "expected one of " + allowed);
  }

  bool boolean(const json& object, const char* key, const std::string& path, bool& out) {
    if (!object.contains(key)) return true;
    if (!object[key].is_boolean()) return fail(path + key, "expected true or false");
    out = object[key].get<bool>();
    return true;
  }

  bool integer(const json& object, const char* key, const std::string& path, long long lo, long long hi, long long& out) {
    if (!object.contains(key)) return fail(path + key, "missing");
    const json& v = object[key];
    if (!v.is_number_integer() && !(v.is_number_float() && std::floor(v.get<double>()) == v.get<double>()))
      return fail(path + key, "expected an integer");
    const double d = v.get<double>();
    if (d < lo || d > hi)
      return fail(path + key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
    out = static_cast<long long>(d);
    return true;
  }
};

bool read_layer(Reader& r, const json& value, const std::string& path, int d_model, Layer& layer) {
  if (!value.is_object()) return r.fail(path, "expected an object");
  if (!value.contains("heads") || !value["heads"].is_array()) return r.fail(path + ".heads", "expected an array of heads");
  const json& heads = value["heads"];
  if (heads.empty() || heads.size() > kMaxHeads)
    return r.fail(path + ".heads", "expected 1 to " + std::to_string(kMaxHeads) + " heads, got " + std::to_string(heads.size()));
  long d_k = -1, d_v = -1;
  for (std::size_t h = 0; h < heads.size(); ++h) {
    const std::string hp = path + ".heads[" + std::to_string(h) + "]";
    if (!heads[h].is_object()) return r.fail(hp, "expected an object");
    HeadWeights head;
    const auto field = [&](const char* key) -> const json* {
      if (!heads[h].contains(key)) {
        r.fail(hp + "." + key, "missing");
        return nullptr;
      }
      return &heads[h][key];
    };
    const json* W_Q = field("W_Q");
    if (!W_Q || !r.matrix(*W_Q, hp + ".W_Q", d_model, d_k, head.W_Q)) return false;
    d_k = head.W_Q.cols();
    if (d_k > kMaxDModel) return r.fail(hp + ".W_Q", "d_k must be at most " + std::to_string(kMaxDModel));
    const json* W_K = field("W_K");
    if (!W_K || !r.matrix(*W_K, hp + ".W_K", d_model, d_k, head.W_K)) return false;
    const json* W_V = field("W_V");
    if (!W_V || !r.matrix(*W_V, hp + ".W_V", d_model, d_v, head.W_V)) return false;
    d_v = head.W_V.cols();
    if (d_v > kMaxDModel) return r.fail(hp + ".W_V", "d_v must be at most " + std::to_string(kMaxDModel));
    if (!r.boolean(heads[h], "pruned", hp + ".", head.pruned)) return false;
    layer.heads.push_back(std::move(head));
  }
  layer.d_k = static_cast<int>(d_k);
  layer.d_v = static_cast<int>(d_v);
  const long concat = static_cast<long>(heads.size()) * d_v;
  if (!value.contains("W_O")) return r.fail(path + ".W_O", "missing");
  if (!r.matrix(value["W_O"], path + ".W_O", concat, d_model, layer.W_O)) return false;
  if (!r.boolean(value, "residual", path + ".", layer.residual)) return false;
  if (!r.enumeration<Norm>(value, "norm", path + ".", {{"none", Norm::none}, {"pre", Norm::pre}, {"post", Norm::post}}, layer.norm))
    return false;
  layer.ln_gamma = layer.ln2_gamma = RowVector::Ones(d_model);
  layer.ln_beta = layer.ln2_beta = RowVector::Zero(d_model);
  if (value.contains("ln")) {
    const json& ln = value["ln"];
    if (!ln.is_object()) return r.fail(path + ".ln", "expected an object");
    for (auto [key, target] : {std::pair{"gamma", &layer.ln_gamma}, {"beta", &layer.ln_beta},
                               {"gamma_2", &layer.ln2_gamma}, {"beta_2", &layer.ln2_beta}})
      if (ln.contains(key) && !r.row_vector(ln[key], path + ".ln." + key, d_model, *target)) return false;
  }
  if (value.contains("ffn") && !value["ffn"].is_null()) {
    const json& ffn = value["ffn"];
    const std::string fp = path + ".ffn";
    if (!ffn.is_object()) return r.fail(fp, "expected an object or null");
    for (const char* key : {"W_1", "b_1", "W_2", "b_2"})
      if (!ffn.contains(key)) return r.fail(fp + "." + key, "missing");
    if (!r.matrix(ffn["W_1"], fp + ".W_1", d_model, -1, layer.ffn.W_1)) return false;
    const long d_ff = layer.ffn.W_1.cols();
    if (d_ff > 4 * kMaxDModel) return r.fail(fp + ".W_1", "d_ff must be at most " + std::to_string(4 * kMaxDModel));
    if (!r.row_vector(ffn["b_1"], fp + ".b_1", d_ff, layer.ffn.b_1)) return false;
    if (!r.matrix(ffn["W_2"], fp + ".W_2", d_ff, d_model, layer.ffn.W_2)) return false;
    if (!r.row_vector(ffn["b_2"], fp + ".b_2", d_model, layer.ffn.b_2)) return false;
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
  Reader r;
  long long version = 0, d_model = 0;
  if (!r.integer(doc, "version", "", 1, 1000000, version)) return R::failure(r.error);
  if (version > kModelFormatVersion)
    return R::failure("version: " + std::to_string(version) + " is newer than this HeadLab understands (" +
                      std::to_string(kModelFormatVersion) + ")");
  if (!r.integer(doc, "d_model", "", kMinDModel, kMaxDModel, d_model)) return R::failure(r.error);

  Document document;
  Model& model = document.model;
  model = Model{};
  model.d_model = static_cast<int>(d_model);
  if (!r.enumeration<Embedding>(doc, "embedding", "", {{"named", Embedding::named_features}, {"random", Embedding::random}}, model.embedding) ||
      !r.enumeration<Positional>(doc, "positional", "", {{"sinusoidal", Positional::sinusoidal}, {"learned", Positional::learned}, {"none", Positional::none}}, model.positional) ||
      !r.boolean(doc, "causal", "", model.causal) || !r.boolean(doc, "special_tokens", "", model.special_tokens))
    return R::failure(r.error);
  if (model.embedding == Embedding::named_features && d_model < kNamedFeatureCount)
    return R::failure("d_model: the named-feature embedding needs at least " + std::to_string(kNamedFeatureCount));
  if (doc.contains("seed")) {
    long long seed = 0;
    if (!r.integer(doc, "seed", "", 0, 4294967295LL, seed)) return R::failure(r.error);
    model.seed = static_cast<std::uint32_t>(seed);
  }
  // The learned positional table is part of the model when positional == learned.
  Model seeded = make_model(model.d_model, 1, 1, model.seed);
  model.positional_table = seeded.positional_table;
  if (doc.contains("positional_table") &&
      !r.matrix(doc["positional_table"], "positional_table", model.positional_table.rows(), d_model, model.positional_table))
    return R::failure(r.error);

  // Optional learned token embedding (trained models): vocab + token_embedding (+ output_bias).
  if (doc.contains("vocab") || doc.contains("token_embedding")) {
    const json& vocab = doc.contains("vocab") ? doc["vocab"] : json();
    if (!vocab.is_array() || vocab.empty() || vocab.size() > kMaxVocabulary)
      return R::failure("vocab: expected an array of 1 to " + std::to_string(kMaxVocabulary) + " words");
    for (std::size_t v = 0; v < vocab.size(); ++v) {
      if (!vocab[v].is_string() || vocab[v].get<std::string>().empty() || vocab[v].get<std::string>().size() > 200)
        return R::failure("vocab[" + std::to_string(v) + "]: expected a non-empty string of at most 200 bytes");
      model.vocab.push_back(vocab[v].get<std::string>());
    }
    if (!doc.contains("token_embedding")) return R::failure("token_embedding: missing (required with vocab)");
    if (!r.matrix(doc["token_embedding"], "token_embedding", static_cast<long>(vocab.size()), d_model, model.token_embedding))
      return R::failure(r.error);
    model.output_bias = RowVector::Zero(static_cast<Eigen::Index>(vocab.size()));
    if (doc.contains("output_bias") &&
        !r.row_vector(doc["output_bias"], "output_bias", static_cast<long>(vocab.size()), model.output_bias))
      return R::failure(r.error);
  }

  // Input: exactly one of text / tokens / X (X may come with tokens for metadata).
  Input& input = document.input;
  const bool has_text = doc.contains("text"), has_tokens = doc.contains("tokens"), has_X = doc.contains("X");
  if (has_text && (has_tokens || has_X)) return R::failure("text: give either \"text\" or \"tokens\"/\"X\", not both");
  if (has_text) {
    if (!doc["text"].is_string()) return R::failure("text: expected a string");
    input.kind = InputKind::text;
    input.text = doc["text"].get<std::string>();
    if (input.text.size() > 200000) return R::failure("text: longer than 200000 characters");
  }
  if (has_tokens) {
    const json& tokens = doc["tokens"];
    if (!tokens.is_array()) return R::failure("tokens: expected an array of strings");
    if (tokens.size() > kMaxTokens + 2)
      return R::failure("tokens: at most " + std::to_string(kMaxTokens + 2) + " tokens, got " + std::to_string(tokens.size()));
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (!tokens[i].is_string() || tokens[i].get<std::string>().empty() || tokens[i].get<std::string>().size() > 200)
        return R::failure("tokens[" + std::to_string(i) + "]: expected a non-empty string of at most 200 bytes");
      input.tokens.push_back(tokens[i].get<std::string>());
    }
    input.kind = InputKind::tokens;
  }
  if (has_X) {
    if (!r.matrix(doc["X"], "X", has_tokens ? static_cast<long>(input.tokens.size()) : -1, d_model, input.X))
      return R::failure(r.error);
    if (input.X.rows() > static_cast<long>(kMaxTokens) + 2)
      return R::failure("X: at most " + std::to_string(kMaxTokens + 2) + " rows, got " + std::to_string(input.X.rows()));
    input.kind = InputKind::matrix;
  }

  if (!doc.contains("layers") || !doc["layers"].is_array()) return R::failure("layers: expected an array");
  const json& layers = doc["layers"];
  if (layers.empty() || layers.size() > kMaxLayers)
    return R::failure("layers: expected 1 to " + std::to_string(kMaxLayers) + " layers, got " + std::to_string(layers.size()));
  for (std::size_t l = 0; l < layers.size(); ++l) {
    Layer layer;
    if (!read_layer(r, layers[l], "layers[" + std::to_string(l) + "]", model.d_model, layer)) return R::failure(r.error);
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
  doc["embedding"] = model.embedding == Embedding::named_features ? "named" : "random";
  doc["positional"] = model.positional == Positional::sinusoidal ? "sinusoidal"
                      : model.positional == Positional::learned ? "learned" : "none";
  doc["causal"] = model.causal;
  doc["special_tokens"] = model.special_tokens;
  doc["seed"] = model.seed;
  switch (document.input.kind) {
    case InputKind::text: doc["text"] = document.input.text; break;
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
    l["norm"] = layer.norm == Norm::none ? "none" : layer.norm == Norm::pre ? "pre" : "post";
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

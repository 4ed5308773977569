#include "embedding.h"

#include <cmath>
#include <random>

#include "lexicon.h"

namespace headlab {
namespace {

const char* const kNamedFeatureNames[kNamedFeatureCount] = {
    "bias", "pos",  "pos^2", "det",   "adj",    "noun",  "verb",   "prep",   "pron",
    "adv",  "conj", "punct", "unk",   "[CLS]",  "[SEP]", "animal", "person", "object",
    "place", "motion", "colour", "size", "speed", "rarity"};

// FNV-1a: a stable hash of the word, so its random vector is the same in every session.
std::uint32_t word_hash(const std::string& key, std::uint32_t seed) {
  std::uint32_t h = 2166136261u ^ seed;
  for (unsigned char c : key) h = (h ^ c) * 16777619u;
  return h;
}

void fill_gaussian(Eigen::Ref<RowVector> row, std::uint32_t seed, float stddev) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, stddev);
  for (Eigen::Index j = 0; j < row.size(); ++j) row(j) = normal(rng);
}

int pos_feature(PartOfSpeech pos) {
  switch (pos) {
    case PartOfSpeech::det: return kFeatureDet;
    case PartOfSpeech::adj: return kFeatureAdj;
    case PartOfSpeech::noun: return kFeatureNoun;
    case PartOfSpeech::num: return kFeatureNoun;  // numbers behave like nominals here
    case PartOfSpeech::verb: return kFeatureVerb;
    case PartOfSpeech::prep: return kFeaturePrep;
    case PartOfSpeech::pron: return kFeaturePron;
    case PartOfSpeech::adv: return kFeatureAdv;
    case PartOfSpeech::conj: return kFeatureConj;
    case PartOfSpeech::punct: return kFeaturePunct;
    case PartOfSpeech::special: return -1;
    case PartOfSpeech::unknown: return kFeatureUnknown;
  }
  return kFeatureUnknown;
}

// Name of dimension d of the symbol embedding: "bias", "pos", "pos^2", "A".."J", "free1", ...
std::string symbol_feature_name(int d) {
  if (d < kFeatureSymbolFirst) return kNamedFeatureNames[d];
  if (d < kFeatureFreeFirst) return std::string(1, static_cast<char>('A' + d - kFeatureSymbolFirst));
  return "free" + std::to_string(d - kFeatureFreeFirst + 1);
}

}  // namespace

const char* embedding_id(Embedding embedding) {
  switch (embedding) {
    case Embedding::named_features: return "named";
    case Embedding::random: return "random";
    case Embedding::symbols: return "symbols";
  }
  return "named";
}

int min_d_model(Embedding embedding) {
  switch (embedding) {
    case Embedding::named_features: return kNamedFeatureCount;
    case Embedding::symbols: return kMinSymbolDModel;
    case Embedding::random: return kMinDModel;
  }
  return kMinDModel;
}

int symbol_index(const std::string& text) {
  if (text.size() != 1) return -1;
  const char c = text[0];
  if (c >= 'A' && c < 'A' + kSymbolCount) return c - 'A';
  if (c >= 'a' && c < 'a' + kSymbolCount) return c - 'a';
  return -1;
}

std::vector<std::string> feature_names(const Model& model) {
  std::vector<std::string> names;
  names.reserve(model.d_model);
  for (int d = 0; d < model.d_model; ++d) {
    if (model.embedding == Embedding::symbols && model.vocab.empty())
      names.push_back(symbol_feature_name(d));
    else if (model.embedding == Embedding::named_features && d < kNamedFeatureCount)
      names.emplace_back(kNamedFeatureNames[d]);
    else if (model.embedding == Embedding::named_features)
      names.push_back("id " + std::to_string(d - kNamedFeatureCount + 1));
    else
      names.push_back("d" + std::to_string(d));
  }
  return names;
}

int feature_index(const std::string& name) {
  for (int d = 0; d < kNamedFeatureCount; ++d)
    if (name == kNamedFeatureNames[d]) return d;
  return -1;
}

int feature_index(const std::string& name, Embedding embedding) {
  if (embedding == Embedding::named_features) return feature_index(name);
  if (embedding != Embedding::symbols) return -1;
  for (int d = 0; d < kFeatureFreeFirst; ++d)
    if (name == symbol_feature_name(d)) return d;
  if (name.rfind("free", 0) == 0 && name.size() > 4 && name.size() <= 7 &&
      name.find_first_not_of("0123456789", 4) == std::string::npos && name[4] != '0')
    return kFeatureFreeFirst + std::stoi(name.substr(4)) - 1;
  return -1;
}

int vocabulary_index(const Model& model, const std::string& key) {
  int unknown = -1;
  for (std::size_t v = 0; v < model.vocab.size(); ++v) {
    if (model.vocab[v] == key) return static_cast<int>(v);
    if (model.vocab[v] == "[UNK]") unknown = static_cast<int>(v);
  }
  return unknown;
}

Matrix embed_token_ids(const std::vector<int>& ids, const Model& model) {
  Tokens tokens(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) tokens[i].id = ids[i];
  return embed(tokens, model);
}

Matrix embed(const Tokens& tokens, const Model& model) {
  const int n = static_cast<int>(tokens.size());
  Matrix X = Matrix::Zero(n, model.d_model);
  if (model.embedding == Embedding::named_features && model.vocab.empty()) {
    const int named = std::min<int>(kNamedFeatureCount, model.d_model);
    const int identity_dims = model.d_model - named;
    for (int i = 0; i < n; ++i) {
      const Token& t = tokens[i];
      RowVector row = RowVector::Zero(kNamedFeatureCount);
      row(kFeatureBias) = 1.0f;
      if (model.positional != Positional::none) {
        row(kFeaturePosition) = i * kPositionScale;
        row(kFeaturePositionSquared) = (i * kPositionScale) * (i * kPositionScale);
      }
      if (t.is_special) row(t.text == kClsToken ? kFeatureCls : kFeatureSep) = 1.0f;
      if (const int f = pos_feature(t.pos); f >= 0) row(f) = 1.0f;
      const unsigned bits = t.semantic_bits;
      for (int c = 0; c < kSemanticClassCount; ++c)
        if (bits & (1u << c)) row(kFeatureSemanticFirst + c) = 1.0f;
      row(kFeatureRarity) = (9.0f - t.zipf) / 10.0f;
      X.row(i).head(named) = row.head(named);
      if (identity_dims > 0) {
        RowVector id(identity_dims);
        fill_gaussian(id, word_hash(t.key, model.seed), 1.0f);
        X.row(i).tail(identity_dims) = id / std::max(1e-6f, id.norm());
      }
    }
    return X;
  }
  if (model.embedding == Embedding::symbols && model.vocab.empty()) {
    const int fixed = std::min(kFeatureFreeFirst, model.d_model);
    for (int i = 0; i < n; ++i) {
      RowVector row = RowVector::Zero(kFeatureFreeFirst);
      row(kFeatureBias) = 1.0f;
      if (model.positional != Positional::none) {
        row(kFeaturePosition) = i * kPositionScale;
        row(kFeaturePositionSquared) = (i * kPositionScale) * (i * kPositionScale);
      }
      if (const int s = symbol_index(tokens[i].text); s >= 0) row(kFeatureSymbolFirst + s) = 1.0f;
      X.row(i).head(fixed) = row.head(fixed);  // the free dimensions stay 0
    }
    return X;
  }
  if (has_learned_embedding(model)) {
    // Learned embedding (trained models, checkpoints): the token's row of the table, then positions.
    for (int i = 0; i < n; ++i) {
      const int index = tokens[i].id >= 0 ? tokens[i].id : vocabulary_index(model, tokens[i].key);
      if (index >= 0 && index < model.token_embedding.rows() && model.token_embedding.cols() == model.d_model)
        X.row(i) = model.token_embedding.row(index);
    }
  } else {
    // Random embedding: N(0, 1) per word, then positional encoding.
    for (int i = 0; i < n; ++i) fill_gaussian(X.row(i), word_hash(tokens[i].key, model.seed), 1.0f);
  }
  if (model.positional == Positional::sinusoidal) {
    for (int i = 0; i < n; ++i)
      for (int d = 0; d < model.d_model; ++d) {
        const double angle = i / std::pow(10000.0, 2.0 * (d / 2) / model.d_model);
        X(i, d) += static_cast<float>(d % 2 == 0 ? std::sin(angle) : std::cos(angle));
      }
  } else if (model.positional == Positional::learned) {
    const int rows = std::min<int>(n, static_cast<int>(model.positional_table.rows()));
    X.topRows(rows) += model.positional_table.topRows(rows);
  }
  return X;
}

}  // namespace headlab

#pragma once
// A model as a safetensors file: each matrix as F16 (or F32), the architecture, the tokenizer's
// name and an example text as JSON in the header's __metadata__ ("headlab"). The form of models
// with a large learned vocabulary: the text models' 6,144 x 64 token embedding, which the JSON
// model file spells in about 3 MB, takes 0.8 MB here. The vocabulary's strings are the
// tokenizer's (assets/tokenizers/<name>.json), not repeated.
//
//   __metadata__.headlab = {"format": "headlab-tensors", "version": 1, "tokenizer": "text",
//     "text": "...", "d_model": 64, "causal": true, "positional": "learned",
//     "layers": [{"heads": 4, "d_k": 16, "d_v": 16, "residual": true, "norm": "pre", "d_ff": 0,
//                 "activation": "relu"}, ...]}
//   tensors: token_embedding (V, d), positional_table (P, d) when learned, output_bias (V),
//     layers.L.heads.H.W_Q / W_K / W_V, layers.L.W_O, layers.L.ln_gamma / ln_beta / ln2_gamma /
//     ln2_beta when normed, layers.L.ffn.W_1 / b_1 / W_2 / b_2 when it has one.
#include <cstdint>
#include <string>
#include <vector>

#include "document.h"
#include "result.h"
#include "safetensors.h"

namespace headlab {

inline constexpr const char* kTensorModelFormat = "headlab-tensors";

// The document's model and input text; `type` F16 (the shipped models) or F32.
std::vector<std::uint8_t> write_tensor_model(const Document& document, TensorType type = TensorType::f16);
// Strict: every tensor the metadata implies, with its shape; the model's `tokenizer` names the
// vocabulary whose ids it reads (its token count must equal the embedding's rows: the caller checks).
Result<Document> read_tensor_model(const std::uint8_t* bytes, std::size_t size);

}  // namespace headlab

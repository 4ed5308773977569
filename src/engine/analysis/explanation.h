#pragma once
// A head's explanation as data: the id of a sentence template and the values that fill it, so the
// lab can say it in either language (assets/labels.json, "explanations", holds every template in
// English and Chinese) while the engine, the CLI and the JS API carry the English text.
//
// In a template, {0}, {1}... stand for values as they are (numbers already rounded, token texts);
// {role:N} for a value that is a role id and {relation:N} for a dependency relation id, which the
// filler replaces with that name in the text's language.
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace headlab::analysis {

struct ExplanationTemplate {
  const char* id;
  const char* en;
};

// The English templates label_head fills; assets/labels.json has the same text (a test keeps them
// equal) plus Chinese.
inline constexpr std::array<ExplanationTemplate, 27> kExplanationTemplates = {{
    {"previous_token", "{0} of {1} tokens put most weight on the previous token ({2}% of their attention on average)."},
    {"next_token", "{0} of {1} tokens put most weight on the next token ({2}% of their attention on average)."},
    {"self", "{0} of {1} tokens put most weight on themselves ({2}% of their attention on average)."},
    {"local", "Tokens keep {0}% of their attention within {1} positions of themselves, {2}x what an even spread would "
              "put there."},
    {"delimiter", "Tokens put {0}% of their attention on punctuation and [SEP] ({1} such tokens)."},
    {"delimiter_one", "Tokens put {0}% of their attention on punctuation and [SEP] (one such token)."},
    {"cls", "Tokens put {0}% of their attention on [CLS]."},
    {"broad", "Attention is spread out: the average row entropy is {0}% of an even spread's."},
    {"syntactic_head", "{0} of {1} {2} arcs: the head word puts most weight on its {relation:2} (\"{3}\" -> \"{4}\"); the "
                       "best fixed offset gets {5}%."},
    {"syntactic_dependent", "{0} of {1} {2} arcs: the {relation:2} puts most weight on the word it attaches to (\"{3}\" "
                            "-> \"{4}\"); the best fixed offset gets {5}%."},
    {"syntactic_both", "{0} of {1} {2} arcs one way and {6} the other: the {relation:2} and the word it attaches to look "
                       "at each other (\"{3}\" <-> \"{4}\"); the best fixed offset gets {5}%."},
    {"content_similarity", "{0} words with a related word (e.g. \"{1}\" and \"{2}\") send {3}% of the attention they give "
                           "other words to related ones."},
    {"duplicate_token", "{0} repeated tokens put {1}% of their attention on earlier copies of themselves."},
    {"duplicate_token_one", "One repeated token puts {0}% of its attention on earlier copies of itself."},
    {"induction", "{0} repeated tokens put {1}% of their attention on the token that followed their earlier copy (in "
                  "\"A B ... A\", the second A looks at B): prefix matching."},
    {"induction_one", "One repeated token puts {0}% of its attention on the token that followed its earlier copy (in "
                      "\"A B ... A\", the second A looks at B): prefix matching."},
    {"rare_word", "{0} of {1} tokens put most weight on the rarest word, \"{2}\"."},
    {"rare_word_tied", "{0} of {1} tokens put most weight on one of the {2} equally rarest words, mostly \"{3}\"."},
    {"mixed", "No single role fits."},
    {"mixed_one", "No single role fits. Closest: {role:0} {1} (needs {2})."},
    {"mixed_two", "No single role fits. Closest: {role:0} {1} (needs {2}), {role:3} {4} (needs {5})."},    {"mixed_weak_partner", "No single role fits. Closest: {role:0} {1} (needs {2}), but held back: the word it picks gets only {3}% of the attention on average (needs {4}%)."},
    {"mixed_unselective", "No single role fits. Closest: {role:0} {1} (needs {2}), but held back: of the words it looks at firmly, only {3}% are linked to the looking word in the parse (needs {4}%)."},
    {"mixed_sink", "No single role fits. Closest: {role:0} {1} (needs {2}), but held back: {3}% of the words look at the same word, \"{4}\" (at most {5}% allowed): a resting place, not a relation."},
    {"mixed_shared_keys", "No single role fits. Closest: {role:0} {1} (needs {2}), but held back: every token gives those same tokens {3}% on average, and matching needs at least {4}x that: a resting place, not a match."},
    {"mixed_weak_target", "No single role fits. Closest: {role:0} {1} (needs {2}), but held back: the rare word gets only {3}% of the attention (needs {4}%)."},
    {"mixed_near_uniform", "No single role fits. Closest: {role:0} {1} (needs {2}), but held back: the rare word gets only {3}x what an even spread would give it (needs {4}x)."},
}};

// The English template of `id`, or "" for an unknown id.
const char* explanation_template_en(std::string_view id);

// Writes what snprintf(out, size, "%.<decimals>f", value) writes, for 0 <= decimals <= 3 (a label's
// numbers): the exact binary value rounded half to even, then a '\0'. Returns the characters
// written. printf parses its pattern and formats in arbitrary precision on every call, which cost
// a tenth of relabelling a head; std::to_chars would do this, but the libc++ of Debian's Emscripten
// (3.1.6) has no floating-point overloads.
int format_fixed(double value, int decimals, char* out, int size);

// Appends `pattern` to `out` with its placeholders replaced: {N} by values[N], {role:N} and
// {relation:N} by name(kind, values[N]) with kind "role" or "relation". A placeholder past the
// values, or malformed, is copied as it is, so a broken translation shows rather than crashes.
template <class NameOf>
void fill_explanation(std::string_view pattern, const std::vector<std::string>& values, NameOf&& name, std::string& out) {
  std::size_t i = 0;
  while (i < pattern.size()) {
    const std::size_t open = pattern.find('{', i);
    const std::size_t close = open == std::string_view::npos ? open : pattern.find('}', open);
    if (close == std::string_view::npos) {
      out.append(pattern.substr(i));
      return;
    }
    out.append(pattern.substr(i, open - i));
    const std::string_view inside = pattern.substr(open + 1, close - open - 1);
    const std::size_t colon = inside.find(':');
    const std::string_view kind = colon == std::string_view::npos ? std::string_view() : inside.substr(0, colon);
    const std::string_view digits = colon == std::string_view::npos ? inside : inside.substr(colon + 1);
    std::size_t index = 0;
    bool valid = !digits.empty() && digits.size() <= 2 && (kind.empty() || kind == "role" || kind == "relation");
    for (char c : digits) {
      valid = valid && c >= '0' && c <= '9';
      index = index * 10 + static_cast<std::size_t>(c - '0');
    }
    if (!valid || index >= values.size()) out.append(pattern.substr(open, close - open + 1));
    else if (kind.empty()) out.append(values[index]);
    else out.append(name(kind, values[index]));
    i = close + 1;
  }
}

}  // namespace headlab::analysis

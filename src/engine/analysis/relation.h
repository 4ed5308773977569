#pragma once
// The dependency relations HeadLab knows (Stanford basic labels, the ones Clark et al. 2019 sec. 4.2
// score), with the ids assets/sentences.json, assets/grammar.json, labels.json, lesson goals and
// head labels ("syntactic:nsubj") spell. A file naming any other relation is refused where it is read.
#include <optional>
#include <string_view>

#include "engine/enum_names.h"

namespace headlab::analysis {

enum class Relation { nsubj, dobj, det, amod, prep, pobj, punct, advmod, cc, conj, aux, poss };

inline constexpr EnumName<Relation> kRelationIds[] = {
    {"nsubj", Relation::nsubj}, {"dobj", Relation::dobj},   {"det", Relation::det},       {"amod", Relation::amod},
    {"prep", Relation::prep},   {"pobj", Relation::pobj},   {"punct", Relation::punct},   {"advmod", Relation::advmod},
    {"cc", Relation::cc},       {"conj", Relation::conj},   {"aux", Relation::aux},       {"poss", Relation::poss}};
inline constexpr int kRelationCount = static_cast<int>(sizeof kRelationIds / sizeof kRelationIds[0]);

constexpr std::string_view relation_id(Relation relation) { return enum_name(kRelationIds, relation); }
constexpr std::optional<Relation> relation_from_id(std::string_view id) { return enum_from_name(kRelationIds, id); }

}  // namespace headlab::analysis

// The state text readers' shared parts (both variants, classic/text.cpp and pavilion/text.cpp):
// key=value fields, integer and tile-count fields, the history's head and rounds, each with the
// messages the pure engine's twins (_pycommon.key_values and the _int_field/_count_list
// readers) give.
// Pure-Python twin: python/azul_engine/_pure/common.py.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "azul/common/textutil.h"

namespace azul {

struct Fields {
  std::map<std::string, std::string> values;
  std::vector<std::string> order;  // the keys as written
  const std::string& operator[](const std::string& k) const { return values.at(k); }
  bool has(const std::string& k) const { return values.count(k) > 0; }
};

// tokens[1:] (after the version) as fields: StateFormatError for a non-ASCII token, a token that
// is not key=value, or a key given twice.
Fields ReadFields(const std::vector<std::string>& tokens);
// Field `key` as an integer in lo..hi (an optional '-' and decimal digits, at most 21 characters).
long long IntField(const Fields& f, const std::string& key, long long lo, long long hi);
// Field `key` as an integer in 0..2**64 - 1 (a seed; "-0" is 0).
uint64_t U64Field(const Fields& f, const std::string& key);
// `value` as `n` tile counts "a,b,...", each at most `max_count`, into out[0..n-1].
void CountList(const std::string& value, const std::string& key, int n, int max_count,
               uint8_t* out);

// The history field's head "seed:first:complete[:...]" (head[0..2]); sets the seed (seed_known
// false for "-"), the first player (-1..players-1) and the completeness flag.
void ReadHistoryHead(const std::vector<std::string>& head, int players, bool* seed_known,
                     uint64_t* seed, int* first, bool* complete);
// The history's rounds r1, r2, ... (`keys`: the text's keys from "history" on, in order) as
// "factories|moves|scores"; at most `max_rounds` when it is above 0 (`order` names the order in
// the message: "r1, r2, ..." or "r1 ... r6").  check_factory(text, what) refuses a bad
// factory; is_move(text) tells a move's notation.
std::vector<RoundHistory> ReadHistoryRounds(const Fields& f, const std::vector<std::string>& keys,
                                            int players, int max_rounds, const char* order,
                                            void (*check_factory)(const std::string&,
                                                                  const std::string&),
                                            bool (*is_move)(const std::string&));

}  // namespace azul

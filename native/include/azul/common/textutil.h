// Small text helpers shared by the state text and record writers of every variant (classic/text.cpp,
// classic/record.cpp, pavilion/text.cpp).
// Pure-Python twin: python/azul_engine/_pure/common.py.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace azul {

// Why record() and score_sheet() refuse a state read from text without its history.
constexpr const char* kNoHistory =
    "no record: this state was read from text without its history (write it with "
    "to_text(history=True))";

// `s` cut at every `sep` (Python's s.split(sep)): "" gives [""].
std::vector<std::string> Split(const std::string& s, char sep);
// A state text's tokens: the runs between ASCII white space (space, \t, \n, \r, \v, \f), so
// that a non-ASCII space (U+00A0, U+2003, ...) stays inside a token and is refused by name
// (the pure engine: common.state_tokens).
std::vector<std::string> StateTokens(const std::string& text);
// ASCII digits only, at least one (str.isdigit also takes other scripts' digits).
bool IsUint(const std::string& t);
// The value of a string of digits (IsUint) into *value; false (and *value untouched) when it is
// above 2**64 - 1.  Plain 64-bit arithmetic: no __int128, which MSVC lacks.
bool DigitsValue(const std::string& t, uint64_t* value);
std::string U64(uint64_t v);
std::string OrDash(const std::string& s);
// One round of a game's history (both variants): its factories, every move, the scores after it.
struct RoundHistory {
  std::vector<std::string> factories;
  std::vector<std::string> moves;
  std::vector<int> scores;  // empty (None) while the round is in play
};

// The history's rounds as state text: " r1=factories|moves|scores r2=...".
std::string RoundsText(const std::vector<RoundHistory>& rounds);
// A record (records.md) as JSON; `extra` is the text of any fields between first_player and
// rounds (", \"supply\": ..."); `final_scores` and `winners` are null unless `over`.
std::string RecordJsonText(const char* variant, int players, bool seed_known, uint64_t seed,
                           int first, const std::string& extra,
                           const std::vector<RoundHistory>& rounds, bool over,
                           const std::vector<int>& final_scores, const std::vector<int>& winners);

// State text is ASCII: refuses (StateFormatError) a token holding another character, naming
// its field and the first such character.  The pure twin is key_values in
// python/azul_engine/_pure/common.py.
void CheckAsciiToken(const std::string& token);
// A field's name as a message shows it: as written when it is printable ASCII, else repr().
std::string FieldName(const std::string& key);

// deal(): throws IllegalMove unless `count` factory strings are given for `factories` factories
// (both variants' message).
void CheckDealCount(int players, int factories, size_t count);

// n tile counts as "a,b,c,...".
std::string Counts(const uint8_t* c, int n);
// JSON as Python's json.dumps(..., separators=(", ", ": ")) writes it (ASCII text).
std::string JsonString(const std::string& s);
std::string JsonStrings(const std::vector<std::string>& v);
std::string JsonInts(const std::vector<int>& v);

}  // namespace azul

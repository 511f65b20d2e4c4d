// Summer Pavilion's state text (one versioned line), reading it back with checks, the readable
// board, and the record and score sheet (record.cpp), as classic/text.h.
// Pure-Python twin: python/azul_engine/_pure/pavilion/text.py.
#pragma once

#include <string>
#include <vector>

#include "azul/pavilion/state.h"

namespace azul {
namespace sp {

// The position and generator as one line; with `h`, the history follows.
std::string ToText(const State& s, const History* h);
// Reads ToText's output; throws StateFormatError naming the field.
State FromText(const std::string& text, History* h);
std::string BoardText(const State& s);
// The board of `player` as 7 strings of 6 characters.
std::vector<std::string> BoardStrings(const State& s, int player);
// The game so far as an "azul-record" v1 JSON object (records.md), compact, in key order.
std::string RecordJson(const State& s, const History& h);
// The score sheet (a JSON list per round of event objects), made by replaying the history.
std::string ScoreSheetJson(const State& s, const History& h);

}  // namespace sp
}  // namespace azul

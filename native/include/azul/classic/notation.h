// Move notation (records.md, classic and grey) and tile strings.
// Pure-Python twin: python/azul_engine/_pure/classic/notation.py.
#pragma once

#include <string>
#include <vector>

#include "azul/classic/state.h"

namespace azul {

// Tile counts as colour letters in colour order: {1, 0, 2, 0, 0} -> "BRR".
std::string TilesToStr(const uint8_t* counts);
std::string DraftToStr(int action);
// Parses colour letters in colour order ("" or "-" for none); throws StateFormatError naming
// `what`.
void ParseTiles(const std::string& text, const std::string& what, int* counts);
// Parses notation without a state; sets `row` to the row of a grey tiling move, else -1.
int ParseMove(const std::string& text, int* row);
std::string ActionToString(const State& s, int action);
int StringToAction(const State& s, const std::string& text);

}  // namespace azul

// Summer Pavilion's move notation (docs/records.md): action ids to text and back, tile lists.
// Pure-Python twin: python/azul_engine/_pure/pavilion/notation.py.
#pragma once

#include <string>

#include "azul/pavilion/state.h"

namespace azul {
namespace sp {

std::string TilesToStr(const uint8_t* counts);
std::string ActionText(int action);
// Colour letters in colour order ("" or "-" for none) into counts[6]; throws IllegalMove when
// `illegal_move`, else StateFormatError, the message starting with `what`.
void ParseTiles(const std::string& text, const std::string& what, int* counts,
                bool illegal_move = false);
// Notation to an action id; a refill of several tiles ('~BR') returns -1 and fills `counts`.
int ParseMove(const std::string& text, int* counts);
// Throws IllegalMove for ids outside 0..kNumActions-1.
int CheckActionRange(long long action);

}  // namespace sp
}  // namespace azul

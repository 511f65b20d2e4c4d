// Move notation (records.md, classic and grey) and tile strings.
// The pure-Python twin is the "Notation" section of python/azul_engine/_pyengine.py.
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
// Python's repr() of a str, so that messages match the pure engine character for character.
// Text with non-ASCII characters (UTF-8) goes to the hook the bindings install, when there is
// one: repr() decides by Unicode tables which characters it escapes.
std::string PyRepr(const std::string& text);
// Python's str.split() without arguments: the tokens between runs of Unicode white space.
std::vector<std::string> PySplit(const std::string& utf8);
// Length in bytes of the UTF-8 character starting at text[i] (i < text.size()).
size_t Utf8CharLen(const std::string& text, size_t i);
using ReprHook = std::string (*)(const std::string& utf8);
void SetReprHook(ReprHook hook);

}  // namespace azul

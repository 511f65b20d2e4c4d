// State text (one versioned line), reading it back with checks, and the readable board.
// Pure-Python twin: python/azul_engine/_pure/classic/text.py.
#pragma once

#include <string>
#include <vector>

#include "azul/classic/state.h"

namespace azul {

// The position and generator as one line; with `h`, the history follows.
std::string ToText(const State& s, const History* h);
// Reads ToText's output; throws StateFormatError naming the field.  Fills `h` with the
// history in the text, or with what can be known without it.
State FromText(const std::string& text, History* h);
std::string BoardText(const State& s);
// One wall row as five characters ('.' for empty), one pattern line as its tiles, one floor
// ('M' for the marker, then tiles): the forms of the walls, pattern_lines and floors queries.
std::string WallRow(const PlayerBoard& b, int r);
std::string LineText(const PlayerBoard& b, int r);
std::string FloorText(const State& s, int p);
// The game so far as an "azul-record" v1 JSON object (records.md), compact, in key order.
std::string RecordJson(const State& s, const History& h);
// The score sheet (a JSON list per round of event objects), made by replaying the history.
std::string ScoreSheetJson(const State& s, const History& h);
// Five rows of five cells (colour letters, '.') into `wall`; throws StateFormatError, its
// message starting with `what`, for an impossible wall.
void ParseWall(const std::vector<std::string>& rows, bool classic, const std::string& what,
               int8_t* wall);
// A wall given as one text: rows separated by '/' or white space.
std::vector<std::string> WallRows(const std::string& text);
// Throws StateFormatError unless `rows` are 5 rows of 5 characters (code points).
void CheckWallShape(const std::vector<std::string>& rows);
// end_bonus(): the end-game bonus a wall of 5 rows of 5 cells scores (rules section 2); throws
// StateFormatError for a wall of another shape or an impossible wall.
EndBonus WallEndBonus(const std::vector<std::string>& rows, bool classic);

}  // namespace azul

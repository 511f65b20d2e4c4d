// The game state: a fixed-size position copied by value, plus the history behind records.
// Pure-Python twin: python/azul_engine/_pure/classic/state.py.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "azul/common/chance.h"
#include "azul/common/textutil.h"
#include "azul/common/types.h"

namespace azul {

// This variant's chance actions (common/chance.h).
constexpr ChanceActions kChanceActions = {kColours, kColourNames, kDrawActionBase,
                                          kFirstPlayerActionBase};

struct PlayerBoard {
  int8_t line_colour[5];   // -1 when the pattern line is empty
  uint8_t line_count[5];
  int8_t wall[25];         // row * 5 + column: a colour, or -1 when empty
  uint8_t floor[5];        // floor tiles by colour (the marker is State::marker_floor)
  uint8_t row_colours[5];  // derived from `wall`: bit c set when wall row r holds colour c
  int32_t score;
};

// Everything that decides the game's future: position and generator.  No pointers, no heap:
// a copy is a clone.
struct State {
  uint64_t seed;
  uint64_t rng;
  int32_t round;
  int32_t moves;           // moves made this round (drafts and tiling decisions)
  int8_t players;
  int8_t variant;
  int8_t explicit_chance;  // 1: the state stops at every draw as a chance node
  int8_t phase;
  int8_t turn;             // seat to move; kChance at chance nodes and when over
  int8_t start;            // seat that started this round; -1 before it is drawn
  int8_t marker;           // -1 while the first-player marker is in the centre
  int8_t marker_floor;     // 1 when the marker occupies a space on its holder's floor
  uint8_t num_factories;
  uint8_t factories[kMaxFactories][5];
  uint8_t centre[5];
  uint8_t bag[5];
  uint8_t lid[5];
  uint8_t prefill_bag[5];  // bag and lid before this round's fill, for Deal
  uint8_t prefill_lid[5];
  PlayerBoard board[kMaxPlayers];
};

bool operator==(const State& a, const State& b);

// One round of a record: the factories as dealt, every decision, the scores after tiling.
// One line of a score sheet (score_sheet() in Python): what wall tiling scored, and why.
struct ScoreEvent {
  enum Kind : int8_t { kTile, kLineToFloor, kFloor, kBonus };
  Kind kind;
  int8_t player;
  int8_t row = 0, column = 0, colour = 0;  // kTile: the cell and colour; kLineToFloor: row, colour
  int8_t across = 0, down = 0;  // kTile: the runs through the new tile (points: what they score)
  int8_t tiles = 0, to_lid = 0;  // kLineToFloor: the line's tiles, how many overflowed to the lid
  int8_t items = 0;              // kFloor: floor items (the marker included); points: the penalty
  bool marker = false;           // kFloor: the first-player marker is one of them
  int8_t rows = 0, columns = 0, colours = 0;  // kBonus: what completed; points: the bonus
  int32_t points = 0;
  int32_t before = 0, after = 0;  // kFloor and kBonus: the score before and after
};

struct History {
  bool complete = true;     // false for a state read from text without its history
  bool seed_known = true;   // false when draws did not all come from the game's seed
  uint64_t seed = 0;
  int first = -1;
  std::vector<RoundHistory> rounds;
  // Score sheet events per round, kept only while `capture` is set (ScoreSheetJson replays
  // the game with it); normal play pays nothing for them.
  bool capture = false;
  std::vector<std::vector<ScoreEvent>> sheet;
};

// ---- round.cpp: new games, refills, deals ----
State NewGame(int players, Variant variant, uint64_t seed, bool explicit_chance, History* h);
void StartRound(State& s, History* h);
void ContinueFill(State& s, History* h);
// Throws IllegalMove unless `count` factories may be dealt now (before the round's first
// move, one string per factory).
void CheckDealShape(const State& s, size_t count);
// Sets this round's factories; throws IllegalMove, leaving `s` unchanged, when impossible.
void Deal(State& s, const std::vector<std::string>& factories, History* h);

// ---- movegen.cpp ----
// Legal action ids, ascending; returns how many were written to `out` (room for kNumActions:
// up to kLegalScratch entries past the count may be overwritten too).
int LegalActions(const State& s, int16_t* out);
// LegalActions, and mask[a] = 1 for each listed id a; `mask` (kNumActions bytes) must be all
// zero on entry.
int LegalActionsAndMask(const State& s, int16_t* out, uint8_t* mask);
std::vector<int> LegalActionList(const State& s);
// LegalActions(s)[Below(policy, count)], without listing them (the random playouts' hot path).
int PickLegalAction(const State& s, uint64_t& policy);
// Bit 5c + r set when pattern line r of `player` can take colour c (offer rules).
uint32_t OpenLanes(const State& s, int player);
// (action, probability) at a chance node, in action order.
std::vector<std::pair<int, double>> ChanceOutcomes(const State& s);
int PendingRow(const State& s, int player);
// Bit c set when the empty cell in `row`, column c, may take `colour` (grey wall).
int AllowedColumns(const State& s, int player, int row, int colour);
bool RowHas(const State& s, int player, int row, int colour);

// ---- apply.cpp ----
// Throws IllegalMove, naming the rule, unless `action` is legal in `s`.
void CheckLegal(const State& s, int action);
// Plays a legal action (unchecked); records it in `h` when not null.
void ApplyAction(State& s, int action, History* h);
// `n` tiles fall to the player's floor, left to right; past 7 items, to the lid.  Returns
// how many went to the lid.
int ToFloor(State& s, int player, int colour, int n);
// Checks the action range: throws IllegalMove for ids outside 0..kNumActions-1.
int CheckActionRange(long long action);

// ---- scoring.cpp: wall tiling, scoring, the end ----
// Lengths of the horizontal (`across`) and vertical runs through (row, col), the tile in each.
void TileRuns(const int8_t* wall, int row, int col, int* across, int* down);
int TilePoints(int across, int down);
// Complete rows, complete columns, colours with all five tiles.
void WallBonus(const int8_t* wall, int* rows, int* columns, int* colours);
// The end-game bonus of a wall: its complete rows, columns and colours, and what they score.
struct EndBonus {
  int rows, columns, colours, points;
};
constexpr int kRowBonus = 2, kColumnBonus = 7, kColourBonus = 10;
inline int EndBonusPoints(int rows, int columns, int colours) {
  return kRowBonus * rows + kColumnBonus * columns + kColourBonus * colours;
}
// Moves the tile of pattern line `row` to wall cell (row, col) and scores it (wall tiling).
void MoveToWall(State& s, int player, int row, int col, History* h);
void ContinueTiling(State& s, History* h);
int CompleteRows(const State& s, int player);
// Each player's score if wall tiling and floor penalties happened now (no end bonuses); on the
// grey wall each complete line goes to its best-scoring allowed column, leftmost of equals.
std::vector<int> ScoreIfRoundEnded(const State& s);
std::vector<int> Winners(const State& s);

// ---- bookkeeping shared by the files above ----
inline int Sum5(const uint8_t* c) { return c[0] + c[1] + c[2] + c[3] + c[4]; }
inline bool Any5(const uint8_t* c) { return (c[0] | c[1] | c[2] | c[3] | c[4]) != 0; }

}  // namespace azul

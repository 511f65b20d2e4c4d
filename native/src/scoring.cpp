// Wall tiling, scoring, the end of a round and of the game (rules.md sections 1-2).
// The pure-Python twin is the "wall tiling and scoring" section of class GameState.
#include <algorithm>
#include <vector>

#include "azul/state.h"

namespace azul {

int TilePoints(const int8_t* wall, int row, int col) {
  int h = 1, v = 1;
  for (int c = col - 1; c >= 0 && wall[row * 5 + c] >= 0; --c) ++h;
  for (int c = col + 1; c < 5 && wall[row * 5 + c] >= 0; ++c) ++h;
  for (int r = row - 1; r >= 0 && wall[r * 5 + col] >= 0; --r) ++v;
  for (int r = row + 1; r < 5 && wall[r * 5 + col] >= 0; ++r) ++v;
  if (h == 1 && v == 1) return 1;
  return (h > 1 ? h : 0) + (v > 1 ? v : 0);
}

void Place(State& s, int p, int row, int col) {
  PlayerBoard& b = s.board[p];
  const int colour = b.line_colour[row];
  b.wall[row * 5 + col] = static_cast<int8_t>(colour);
  s.lid[colour] = static_cast<uint8_t>(s.lid[colour] + row);  // the line's other tiles
  b.line_count[row] = 0;
  b.line_colour[row] = -1;
  b.score += TilePoints(b.wall, row, col);
}

static void FloorPenalty(State& s, int p) {
  PlayerBoard& b = s.board[p];
  const bool holds_marker = s.marker == p && s.marker_floor;
  int items = Sum5(b.floor) + (holds_marker ? 1 : 0);
  b.score = std::max(0, b.score - kFloorPenalty[std::min(items, kFloorSpaces)]);
  for (int c = 0; c < kColours; ++c) {
    s.lid[c] = static_cast<uint8_t>(s.lid[c] + b.floor[c]);
    b.floor[c] = 0;
  }
  if (holds_marker) s.marker_floor = 0;  // the marker goes back to its holder
}

int CompleteRows(const State& s, int p) {
  const int8_t* wall = s.board[p].wall;
  int rows = 0;
  for (int r = 0; r < 5; ++r) {
    bool full = true;
    for (int c = 0; c < 5; ++c) full = full && wall[r * 5 + c] >= 0;
    rows += full;
  }
  return rows;
}

int EndBonus(const State& s, int p) {
  const int8_t* wall = s.board[p].wall;
  int cols = 0, colours = 0;
  for (int c = 0; c < 5; ++c) {
    bool full = true;
    for (int r = 0; r < 5; ++r) full = full && wall[r * 5 + c] >= 0;
    cols += full;
  }
  for (int k = 0; k < kColours; ++k) colours += std::count(wall, wall + 25, k) == 5;
  return 2 * CompleteRows(s, p) + 7 * cols + 10 * colours;
}

// Rules 1, stuck games: no tile in the bag or lid can ever reach a wall.
static bool IsStuck(const State& s) {
  for (int p = 0; p < s.players; ++p) {
    const PlayerBoard& b = s.board[p];
    for (int r = 0; r < 5; ++r) {
      for (int c = 0; c < kColours; ++c) {
        if (!(s.bag[c] + s.lid[c])) continue;
        if ((b.line_count[r] && b.line_colour[r] != c) || RowHas(s, p, r, c))
          continue;  // the pattern line cannot take colour c
        if (AllowedColumns(s, p, r, c)) return false;
      }
    }
  }
  return true;
}

static void EndRound(State& s, History* h) {
  if (h) {
    std::vector<int>& scores = h->rounds.back().scores;
    scores.clear();
    for (int p = 0; p < s.players; ++p) scores.push_back(s.board[p].score);
  }
  bool ended = false;
  for (int p = 0; p < s.players && !ended; ++p) ended = CompleteRows(s, p) > 0;
  if (ended || IsStuck(s)) {
    for (int p = 0; p < s.players; ++p) s.board[p].score += EndBonus(s, p);
    s.phase = kOver;
    s.turn = kChance;
    return;
  }
  if (s.marker >= 0) s.start = s.marker;
  ++s.round;
  StartRound(s, h);
}

void ContinueTiling(State& s, History* h) {
  const bool grey = s.variant == kGrey;
  int p = s.turn;
  while (true) {
    PlayerBoard& b = s.board[p];
    for (int r = 0; r < 5; ++r) {
      if (b.line_count[r] != r + 1) continue;
      const int colour = b.line_colour[r];
      if (!grey) {
        Place(s, p, r, WallColumn(colour, r));
      } else if (AllowedColumns(s, p, r, colour)) {
        s.turn = static_cast<int8_t>(p);
        return;  // the player chooses the column
      } else {
        // No allowed cell: the whole line goes to the floor (overflow to the lid).
        b.line_count[r] = 0;
        b.line_colour[r] = -1;
        ToFloor(s, p, colour, r + 1);
      }
    }
    FloorPenalty(s, p);
    p = (p + 1) % s.players;
    if (p == s.start) break;
  }
  EndRound(s, h);
}

std::vector<int> Winners(const State& s) {
  std::vector<int> out;
  if (s.phase != kOver) return out;
  int best_score = -1, best_rows = -1;
  for (int p = 0; p < s.players; ++p) {
    int sc = s.board[p].score, rows = CompleteRows(s, p);
    if (sc > best_score || (sc == best_score && rows > best_rows)) {
      best_score = sc;
      best_rows = rows;
    }
  }
  for (int p = 0; p < s.players; ++p)
    if (s.board[p].score == best_score && CompleteRows(s, p) == best_rows) out.push_back(p);
  return out;
}

}  // namespace azul

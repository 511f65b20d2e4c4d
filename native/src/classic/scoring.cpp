// Wall tiling, scoring, the end of a round and of the game (rules.md sections 1-2).
// Pure-Python twin: python/azul_engine/_pure/classic/scoring.py.
#include <algorithm>
#include <vector>

#include "azul/classic/state.h"

namespace azul {

// Placed tiles next to (row, col) going in direction (dr, dc), up to the first gap.
static int Run(const int8_t* wall, int row, int col, int dr, int dc) {
  int n = 0;
  for (row += dr, col += dc; row >= 0 && row < 5 && col >= 0 && col < 5 && wall[row * 5 + col] >= 0;
       row += dr, col += dc)
    ++n;
  return n;
}

void TileRuns(const int8_t* wall, int row, int col, int* across, int* down) {
  *across = 1 + Run(wall, row, col, 0, -1) + Run(wall, row, col, 0, 1);
  *down = 1 + Run(wall, row, col, -1, 0) + Run(wall, row, col, 1, 0);
}

int TilePoints(int across, int down) {
  if (across == 1 && down == 1) return 1;
  return (across > 1 ? across : 0) + (down > 1 ? down : 0);
}

void WallBonus(const int8_t* wall, int* rows, int* columns, int* colours) {
  *rows = *columns = *colours = 0;
  for (int i = 0; i < 5; ++i) {
    bool row = true, column = true;
    for (int j = 0; j < 5; ++j) {
      row = row && wall[i * 5 + j] >= 0;
      column = column && wall[j * 5 + i] >= 0;
    }
    *rows += row;
    *columns += column;
    *colours += std::count(wall, wall + 25, i) == 5;
  }
}

static void Record(History* h, const ScoreEvent& e) {
  if (h && h->capture) h->sheet.back().push_back(e);
}

void MoveToWall(State& s, int p, int row, int col, History* h) {
  PlayerBoard& b = s.board[p];
  const int colour = b.line_colour[row];
  b.wall[row * 5 + col] = static_cast<int8_t>(colour);
  b.row_colours[row] = static_cast<uint8_t>(b.row_colours[row] | 1 << colour);
  s.lid[colour] = static_cast<uint8_t>(s.lid[colour] + row);  // the line's other tiles
  b.line_count[row] = 0;
  b.line_colour[row] = -1;
  int across, down;
  TileRuns(b.wall, row, col, &across, &down);
  const int points = TilePoints(across, down);
  b.score += points;
  if (h && h->capture) {
    ScoreEvent e{ScoreEvent::kTile, static_cast<int8_t>(p)};
    e.row = static_cast<int8_t>(row);
    e.column = static_cast<int8_t>(col);
    e.colour = static_cast<int8_t>(colour);
    e.across = static_cast<int8_t>(across);
    e.down = static_cast<int8_t>(down);
    e.points = points;
    Record(h, e);
  }
}

static void FloorPenalty(State& s, int p, History* h) {
  PlayerBoard& b = s.board[p];
  const bool holds_marker = s.marker == p && s.marker_floor;
  const int items = Sum5(b.floor) + (holds_marker ? 1 : 0);
  const int before = b.score, penalty = kFloorPenalty[std::min(items, kFloorSpaces)];
  b.score = std::max(0, before - penalty);
  if (h && h->capture) {
    ScoreEvent e{ScoreEvent::kFloor, static_cast<int8_t>(p)};
    e.items = static_cast<int8_t>(items);
    e.marker = holds_marker;
    e.points = penalty;
    e.before = before;
    e.after = b.score;
    Record(h, e);
  }
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
  if (h && !h->rounds.empty()) {
    std::vector<int>& scores = h->rounds.back().scores;
    scores.clear();
    for (int p = 0; p < s.players; ++p) scores.push_back(s.board[p].score);
  }
  bool ended = false;
  for (int p = 0; p < s.players && !ended; ++p) ended = CompleteRows(s, p) > 0;
  if (ended || s.round >= kMaxRounds || IsStuck(s)) {
    for (int p = 0; p < s.players; ++p) {
      int rows, columns, colours;
      WallBonus(s.board[p].wall, &rows, &columns, &colours);
      const int points = EndBonusPoints(rows, columns, colours), before = s.board[p].score;
      s.board[p].score += points;
      if (h && h->capture) {
        ScoreEvent e{ScoreEvent::kBonus, static_cast<int8_t>(p)};
        e.rows = static_cast<int8_t>(rows);
        e.columns = static_cast<int8_t>(columns);
        e.colours = static_cast<int8_t>(colours);
        e.points = points;
        e.before = before;
        e.after = s.board[p].score;
        Record(h, e);
      }
    }
    s.phase = kOver;
    s.turn = kChance;
    return;
  }
  if (s.marker >= 0) s.start = s.marker;
  ++s.round;
  StartRound(s, h);
}

// The allowed column (grey wall) where the line's tile scores most, the leftmost of equals; -1 if none.
static int BestColumn(State& s, int p, int row, int colour) {
  int8_t* wall = s.board[p].wall;
  const int allowed = AllowedColumns(s, p, row, colour);
  int best = -1, best_points = -1;
  for (int col = 0; col < 5; ++col) {
    if (!(allowed >> col & 1)) continue;
    int across, down;
    wall[row * 5 + col] = static_cast<int8_t>(colour);
    TileRuns(wall, row, col, &across, &down);
    wall[row * 5 + col] = -1;
    if (TilePoints(across, down) > best_points) {
      best = col;
      best_points = TilePoints(across, down);
    }
  }
  return best;
}

// Tiles the walls player by player from s.turn until the round's starter comes round again, each
// player's lines top to bottom, then their floor.  On the grey wall it stops at the first decision
// (returning false, s.turn the player choosing), or with `choose_best` takes the best column.
static bool TileWalls(State& s, History* h, bool choose_best) {
  const bool grey = s.variant == kGrey;
  int p = s.turn;
  do {
    PlayerBoard& b = s.board[p];
    for (int r = 0; r < 5; ++r) {
      if (b.line_count[r] != r + 1) continue;
      const int colour = b.line_colour[r];
      if (!grey) {
        MoveToWall(s, p, r, WallColumn(colour, r), h);
      } else if (AllowedColumns(s, p, r, colour)) {
        if (!choose_best) {
          s.turn = static_cast<int8_t>(p);
          return false;  // the player chooses the column
        }
        MoveToWall(s, p, r, BestColumn(s, p, r, colour), h);
      } else {
        // No allowed cell: the whole line goes to the floor (overflow to the lid).
        b.line_count[r] = 0;
        b.line_colour[r] = -1;
        const int to_lid = ToFloor(s, p, colour, r + 1);
        if (h && h->capture) {
          ScoreEvent e{ScoreEvent::kLineToFloor, static_cast<int8_t>(p)};
          e.row = static_cast<int8_t>(r);
          e.colour = static_cast<int8_t>(colour);
          e.tiles = static_cast<int8_t>(r + 1);
          e.to_lid = static_cast<int8_t>(to_lid);
          Record(h, e);
        }
      }
    }
    FloorPenalty(s, p, h);
    p = (p + 1) % s.players;
  } while (p != s.start);
  return true;
}

void ContinueTiling(State& s, History* h) {
  if (TileWalls(s, h, false)) EndRound(s, h);
}

std::vector<int> ScoreIfRoundEnded(const State& state) {
  State s = state;  // a plain copy: scoring it touches no history
  if (s.phase == kOffer || s.phase == kTiling) {
    if (s.phase == kOffer) s.turn = s.start;
    TileWalls(s, nullptr, true);
  }
  std::vector<int> scores;
  for (int p = 0; p < s.players; ++p) scores.push_back(s.board[p].score);
  return scores;
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

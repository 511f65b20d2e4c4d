// Move generation: legal actions in ascending id order, chance outcomes, wall queries.
// The pure-Python twin is the "move generation" section of class GameState.
#include <utility>
#include <vector>

#include "azul/state.h"

namespace azul {

int PendingRow(const State& s, int player) {
  const PlayerBoard& b = s.board[player];
  for (int r = 0; r < 5; ++r)
    if (b.line_count[r] == r + 1) return r;
  return -1;
}

int AllowedColumns(const State& s, int player, int row, int colour) {
  const int8_t* wall = s.board[player].wall;
  int mask = 0;
  for (int c = 0; c < 5; ++c) {
    if (wall[row * 5 + c] >= 0) continue;
    bool free = true;
    for (int r = 0; r < 5; ++r)
      if (wall[r * 5 + c] == colour) free = false;
    if (free) mask |= 1 << c;
  }
  return mask;
}

bool RowHas(const State& s, int player, int row, int colour) {
  const int8_t* wall = s.board[player].wall;
  if (s.variant == kClassic) return wall[row * 5 + WallColumn(colour, row)] >= 0;
  for (int c = 0; c < 5; ++c)
    if (wall[row * 5 + c] == colour) return true;
  return false;
}

int LegalActions(const State& s, int16_t* out) {
  int n = 0;
  switch (s.phase) {
    case kOffer: {
      const int p = s.turn;
      const PlayerBoard& b = s.board[p];
      // Destinations open to each colour: bit r for pattern line r (the floor is always open).
      int dests[5];
      for (int c = 0; c < kColours; ++c) {
        int mask = 0;
        for (int r = 0; r < 5; ++r)
          if ((b.line_count[r] == 0 || (b.line_colour[r] == c && b.line_count[r] <= r)) &&
              !RowHas(s, p, r, c))
            mask |= 1 << r;
        dests[c] = mask;
      }
      for (int src = 0; src <= kCentre; ++src) {
        const uint8_t* tiles;
        if (src == kCentre) {
          tiles = s.centre;
        } else if (src < s.num_factories) {
          tiles = s.factories[src];
        } else {
          continue;
        }
        for (int c = 0; c < kColours; ++c) {
          if (!tiles[c]) continue;
          int base = (src * 5 + c) * 6;
          for (int r = 0; r < 5; ++r)
            if (dests[c] >> r & 1) out[n++] = static_cast<int16_t>(base + r);
          out[n++] = static_cast<int16_t>(base + kFloor);
        }
      }
      break;
    }
    case kTiling: {
      const int p = s.turn;
      const int r = PendingRow(s, p);
      int mask = AllowedColumns(s, p, r, s.board[p].line_colour[r]);
      for (int c = 0; c < 5; ++c)
        if (mask >> c & 1) out[n++] = static_cast<int16_t>(kTileActionBase + c);
      break;
    }
    case kFill:
      for (int c = 0; c < kColours; ++c)
        if (s.bag[c]) out[n++] = static_cast<int16_t>(kDrawActionBase + c);
      break;
    case kFirstPlayer:
      for (int p = 0; p < s.players; ++p) out[n++] = static_cast<int16_t>(kFirstPlayerActionBase + p);
      break;
    default:
      break;
  }
  return n;
}

std::vector<int> LegalActionList(const State& s) {
  int16_t buf[kNumActions];
  int n = LegalActions(s, buf);
  return std::vector<int>(buf, buf + n);
}

std::vector<std::pair<int, double>> ChanceOutcomes(const State& s) {
  std::vector<std::pair<int, double>> out;
  if (s.phase == kFill) {
    const double total = Sum5(s.bag);
    for (int c = 0; c < kColours; ++c)
      if (s.bag[c]) out.emplace_back(kDrawActionBase + c, s.bag[c] / total);
    return out;
  }
  if (s.phase == kFirstPlayer) {
    for (int p = 0; p < s.players; ++p)
      out.emplace_back(kFirstPlayerActionBase + p, 1.0 / s.players);
    return out;
  }
  throw IllegalMove(std::string("not a chance node (phase ") + kPhaseNames[s.phase] + ")");
}

}  // namespace azul

// Position keys; the field order is README's "Position keys" and the pure twin's key().
#include "azul/key.h"

namespace azul {

uint64_t PositionKey(const State& s) {
  KeyHash k;
  k.Add(s.variant);
  k.Add(s.players);
  k.Add(s.explicit_chance);
  k.Add(s.round);
  k.Add(s.phase);
  k.Add(s.turn);
  k.Add(s.start);
  k.Add(s.marker);
  k.Add(s.marker_floor);
  for (int f = 0; f < s.num_factories; ++f)
    for (int c = 0; c < kColours; ++c) k.Add(s.factories[f][c]);
  for (int c = 0; c < kColours; ++c) k.Add(s.centre[c]);
  for (int c = 0; c < kColours; ++c) k.Add(s.bag[c]);
  for (int c = 0; c < kColours; ++c) k.Add(s.lid[c]);
  for (int p = 0; p < s.players; ++p) {
    const PlayerBoard& b = s.board[p];
    for (int r = 0; r < 5; ++r) k.Add(b.line_colour[r]);
    for (int r = 0; r < 5; ++r) k.Add(b.line_count[r]);
    for (int i = 0; i < 25; ++i) k.Add(b.wall[i]);
    for (int c = 0; c < kColours; ++c) k.Add(b.floor[c]);
    k.Add(b.score);
  }
  return k.Done();
}

uint64_t PositionKey(const sp::State& s) {
  KeyHash k;
  k.Add(2);
  k.Add(s.players);
  k.Add(s.explicit_chance);
  k.Add(s.round);
  k.Add(s.phase);
  k.Add(s.fill);
  k.Add(s.turn);
  k.Add(s.start);
  k.Add(s.marker);
  k.Add(s.next);
  k.Add(s.owed);
  const int n = sp::kColours;
  for (int f = 0; f < s.num_factories; ++f)
    for (int c = 0; c < n; ++c) k.Add(s.factories[f][c]);
  for (int c = 0; c < n; ++c) k.Add(s.centre[c]);
  for (int c = 0; c < n; ++c) k.Add(s.supply[c]);
  for (int c = 0; c < n; ++c) k.Add(s.refill[c]);
  for (int c = 0; c < n; ++c) k.Add(s.bag[c]);
  for (int c = 0; c < n; ++c) k.Add(s.tower[c]);
  for (int p = 0; p < s.players; ++p) {
    k.Add(s.score[p]);
    for (int c = 0; c < n; ++c) k.Add(s.hand[p][c]);
    for (int i = 0; i < sp::kSpaces; ++i) k.Add(s.board[p][i]);
    k.Add(s.passed[p]);
  }
  return k.Done();
}

}  // namespace azul

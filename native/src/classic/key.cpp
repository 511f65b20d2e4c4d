// The position key of classic and grey; the field order is docs/game-api.md, "Position keys", and the pure
// twin's key().
// Pure-Python twin: python/azul_engine/_pure/classic/key.py.
#include "azul/classic/key.h"

#include "azul/common/key.h"

namespace azul {

namespace {

// The words of docs/game-api.md, "Position keys", fed to `k`.
template <typename H>
void AddWords(const State& s, H& k) {
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
}

}  // namespace

uint64_t PositionKey(const State& s) {
  KeyHash k;
  AddWords(s, k);
  return k.Done();
}

uint64_t PositionKey(const State& s, uint64_t* check) {
  KeyAndCheck k;
  AddWords(s, k);
  *check = k.check.Done();
  return k.key.Done();
}

}  // namespace azul

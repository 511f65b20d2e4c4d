// The position key of Summer Pavilion; the field order is docs/game-api.md, "Position keys", and the pure
// twin's key().
// Pure-Python twin: python/azul_engine/_pure/pavilion/key.py.
#include "azul/pavilion/key.h"

#include "azul/common/key.h"

namespace azul {
namespace sp {

namespace {

// The words of docs/game-api.md, "Position keys", fed to `k`.
template <typename H>
void AddWords(const State& s, H& k) {
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
  const int n = kColours;
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
    for (int i = 0; i < kSpaces; ++i) k.Add(s.board[p][i]);
    k.Add(s.passed[p]);
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

}  // namespace sp
}  // namespace azul

// Azul: Summer Pavilion: random playouts on the full State (PlayRandom), the reference that the
// compact playout kernel (kernel.cpp) must match game for game.
// Pure-Python twin: python/azul_engine/_pure/pavilion/playout.py.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "azul/common/parallel.h"
#include "azul/common/rng.h"
#include "azul/pavilion/playout.h"
#include "internal.h"

namespace azul {
namespace sp {

using namespace internal;

void ResumeSampled(State& s) {
  if (!s.explicit_chance) return;
  s.explicit_chance = 0;
  if (s.phase == kFirstPlayer) {
    s.start = static_cast<int8_t>(Below(s.rng, s.players));
    BeginSetup(s, nullptr);
  } else if (s.phase == kFill) {
    ContinueFill(s, nullptr);
  }
}

uint64_t PlayRandom(State& s, uint64_t& policy) {
  ResumeSampled(s);
  uint64_t plies = 0;
  while (s.phase != kOver) {
    ApplyAction(s, PickLegalAction(s, policy), nullptr);
    ++plies;
  }
  return plies;
}

// Plays `s` on and writes its final scores.
static uint64_t PlayTo(State& s, uint64_t& policy, int32_t* scores) {
  const uint64_t plies = PlayRandom(s, policy);
  for (int p = 0; p < s.players; ++p) scores[p] = s.score[p];
  return plies;
}

uint64_t ReferenceRandomPlayouts(int n, int players, uint64_t seed, int threads, int32_t* out) {
  return PlayoutBatch(n, players, seed, threads, out, {},
                      [&](uint64_t game_seed, uint64_t& policy, int32_t* scores) {
                        State s = NewGame(players, game_seed, false, nullptr);
                        return PlayTo(s, policy, scores);
                      });
}

uint64_t ReferencePlayoutsFrom(const State& from, int n, uint64_t seed, int threads, int32_t* out) {
  return PlayoutBatch(n, from.players, seed, threads, out, {},
                      [&](uint64_t game_seed, uint64_t& policy, int32_t* scores) {
                        State s = from;
                        s.rng = game_seed;
                        return PlayTo(s, policy, scores);
                      });
}

}  // namespace sp
}  // namespace azul

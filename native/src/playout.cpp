// Random playouts inside the engine, on several threads.
#include "azul/playout.h"

#include "azul/rng.h"

namespace azul {

uint64_t SplitMixOutput(uint64_t seed, uint64_t k) {
  uint64_t s = seed + (k - 1) * 0x9E3779B97F4A7C15ULL;
  return SplitMixNext(s);
}

// From an explicit-chance state, play on as in sampled mode: the game's generator draws.
static void SampleChance(State& s) {
  if (!s.explicit_chance) return;
  s.explicit_chance = 0;
  if (s.phase == kFirstPlayer) {
    s.start = static_cast<int8_t>(Below(s.rng, s.players));
    StartRound(s, nullptr);
  } else if (s.phase == kFill) {
    ContinueFill(s, nullptr);
  }
}

static uint64_t Play(State& s, uint64_t& policy) {
  SampleChance(s);
  uint64_t plies = 0;
  while (s.phase != kOver) {
    ApplyAction(s, PickLegalAction(s, policy), nullptr);
    ++plies;
  }
  return plies;
}

void PlayRandom(State& s, uint64_t& policy) { Play(s, policy); }

uint64_t RandomPlayouts(int n, int players, Variant variant, uint64_t seed, int threads,
                        int32_t* out) {
  return Parallel(n, threads, [&](int i) {
    State s = NewGame(players, variant, SplitMixOutput(seed, 2 * static_cast<uint64_t>(i) + 1),
                      false, nullptr);
    uint64_t policy = SplitMixOutput(seed, 2 * static_cast<uint64_t>(i) + 2);
    uint64_t plies = Play(s, policy);
    for (int p = 0; p < players; ++p) out[static_cast<int64_t>(i) * players + p] = s.board[p].score;
    return plies;
  });
}

uint64_t PlayoutsFrom(const State& start, int n, uint64_t seed, int threads, int32_t* out) {
  const int players = start.players;
  return Parallel(n, threads, [&](int i) {
    State s = start;
    s.rng = SplitMixOutput(seed, 2 * static_cast<uint64_t>(i) + 1);
    uint64_t policy = SplitMixOutput(seed, 2 * static_cast<uint64_t>(i) + 2);
    uint64_t plies = Play(s, policy);
    for (int p = 0; p < players; ++p) out[static_cast<int64_t>(i) * players + p] = s.board[p].score;
    return plies;
  });
}

}  // namespace azul

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

static int32_t Score(const State& s, int p) { return s.board[p].score; }

uint64_t RandomPlayouts(int n, int players, Variant variant, uint64_t seed, int threads,
                        int32_t* out) {
  auto start = [&](uint64_t game_seed) { return NewGame(players, variant, game_seed, false, nullptr); };
  return PlayoutBatch(n, players, seed, threads, out, start, Play, Score);
}

uint64_t PlayoutsFrom(const State& from, int n, uint64_t seed, int threads, int32_t* out) {
  auto start = [&](uint64_t game_seed) {
    State s = from;
    s.rng = game_seed;
    return s;
  };
  return PlayoutBatch(n, from.players, seed, threads, out, start, Play, Score);
}

}  // namespace azul

// Random playouts inside the engine, on several threads: the playout kernel (kernel.cpp) plays them.
// Pure-Python twin: python/azul_engine/_pure/classic/playout.py.
#include "azul/classic/playout.h"

#include "azul/classic/kernel.h"
#include "azul/common/rng.h"

namespace azul {

uint64_t SplitMixOutput(uint64_t seed, uint64_t k) {
  uint64_t s = seed + (k - 1) * 0x9E3779B97F4A7C15ULL;
  return SplitMixNext(s);
}

uint64_t RandomPlayouts(int n, int players, Variant variant, uint64_t seed, int threads,
                        int32_t* out, StopCheck stop, Policy policy) {
  const bool light = policy == Policy::kLight;
  return PlayoutBatch(n, players, seed, threads, out, stop,
                      [&](uint64_t game_seed, uint64_t& choices, int32_t* scores) {
                        return KernelNewGame(players, variant, game_seed, choices, scores, light);
                      });
}

uint64_t PlayoutsFrom(const State& from, int n, uint64_t seed, int threads, int32_t* out,
                      StopCheck stop, Policy policy) {
  return KernelPlayoutsFrom(from, n, seed, threads, out, stop, policy == Policy::kLight);
}

}  // namespace azul

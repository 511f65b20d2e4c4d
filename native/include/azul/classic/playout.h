// Random playouts inside the engine: whole games of uniformly random legal moves, on any number
// of threads, with per-game seeds so that results do not depend on the thread count, played by
// the playout kernel (kernel.h).
// Pure-Python twin: python/azul_engine/_pure/classic/playout.py.
#pragma once

#include <cstdint>

#include "azul/common/parallel.h"
#include "azul/classic/state.h"

namespace azul {

// Final scores (n x players, row-major, into `out`) of n random games: game i is
// NewGame(players, variant, output 2i+1) played with policy seed output 2i+2.  threads <= 0:
// all cores.  Returns the plies played (moves, not chance draws).
uint64_t RandomPlayouts(int n, int players, Variant variant, uint64_t seed, int threads,
                        int32_t* out, StopCheck stop = {}, Policy policy = Policy::kUniform);

// Final scores (n x players) of n random continuations of `s`: continuation i reseeds the
// game's generator with output 2i+1 of SplitMix64(seed) and chooses moves with output 2i+2.
uint64_t PlayoutsFrom(const State& s, int n, uint64_t seed, int threads, int32_t* out,
                      StopCheck stop = {}, Policy policy = Policy::kUniform);

}  // namespace azul

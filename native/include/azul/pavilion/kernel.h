// Summer Pavilion's playout batches, played by the compact kernel (native/src/pavilion/kernel.cpp).
// Pure-Python twin: python/azul_engine/_pure/pavilion/playout.py.
#pragma once

#include <cstdint>

#include "azul/common/parallel.h"
#include "azul/pavilion/state.h"

namespace azul {
namespace sp {

// As RandomPlayouts/PlayoutsFrom in classic/playout.h, played by the compact kernel (the light
// policy's rules: its PlayMove).
uint64_t RandomPlayouts(int n, int players, uint64_t seed, int threads, int32_t* out,
                        StopCheck stop = {}, Policy policy = Policy::kUniform);
uint64_t PlayoutsFrom(const State& s, int n, uint64_t seed, int threads, int32_t* out,
                      StopCheck stop = {}, Policy policy = Policy::kUniform);

}  // namespace sp
}  // namespace azul

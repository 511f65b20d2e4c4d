// Summer Pavilion's random playouts on the full State: the reference the compact kernel
// (kernel.h) must match game for game, and the first step of a playout from a position.
// Pure-Python twin: python/azul_engine/_pure/pavilion/playout.py.
#pragma once

#include <cstdint>

#include "azul/pavilion/state.h"

namespace azul {
namespace sp {

// Plays `s` to its end with LegalActions(s)[Below(policy, count)]; explicit chance is drawn
// from the game's generator.  Returns the moves played.  No allocation.
uint64_t PlayRandom(State& s, uint64_t& policy);
// PlayRandom's first step: an explicit-chance state goes on in sampled mode, drawing a pending
// first player or fill from the game's generator.
void ResumeSampled(State& s);
// The same, played on the full State by PlayRandom: the reference the kernel must match game
// for game (tests compare the two).
uint64_t ReferenceRandomPlayouts(int n, int players, uint64_t seed, int threads, int32_t* out);
uint64_t ReferencePlayoutsFrom(const State& s, int n, uint64_t seed, int threads, int32_t* out);

}  // namespace sp
}  // namespace azul

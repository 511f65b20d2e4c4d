// The playout kernel of classic and grey-wall Azul: a compact, playout-only representation of a
// game (byte-packed colour counts, wall bitboards, per-colour open-line masks kept incrementally),
// templated on the player count and the variant, that plays uniformly random games exactly as
// PlayRandom does on a full State: the same moves, the same draws in the same order, the same
// scores.  It keeps nothing a playout does not need (no history, no phase machine, no chance
// nodes).  The ideas: count the legal moves instead of listing them, keep counts and walls in
// machine words, find the k-th move arithmetically, apply it without branches, draw from the bag
// by byte-wise prefix sums; kernel.cpp says where each one is used.
// Pure-Python twin: python/azul_engine/_pure/classic/playout.py.
#pragma once

#include <cstdint>

#include "azul/common/parallel.h"
#include "azul/classic/state.h"

namespace azul {

// Plays a new game, NewGame(players, variant, game_seed) in sampled mode, to its end with move
// choices LegalActions(s)[Below(policy, count)] (light: the light policy's, docs/playouts.md,
// "Rollout policies"); writes the final scores to `scores` (players of them) and returns the plies
// played (moves, not chance draws).
uint64_t KernelNewGame(int players, Variant variant, uint64_t game_seed, uint64_t& policy,
                       int32_t* scores, bool light = false);

// PlayoutsFrom (playout.h) played by the kernel: `s`, of any phase (an explicit-chance state plays
// on as if sampled), is converted once.
uint64_t KernelPlayoutsFrom(const State& s, int n, uint64_t seed, int threads, int32_t* out,
                            StopCheck stop, bool light = false);

}  // namespace azul

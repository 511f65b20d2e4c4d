// The position key of classic and grey-wall Azul (docs/game-api.md "Position keys"; the hash:
// common/key.h).
// Pure-Python twin: python/azul_engine/_pure/classic/key.py.
#pragma once

#include <cstdint>

#include "azul/classic/state.h"

namespace azul {

// Variant, players, chance mode, round, phase, player to move, starting player, marker holder,
// marker on floor; factories, centre, bag, lid; per player pattern-line colours and counts,
// wall, floor, score.
uint64_t PositionKey(const State& s);
// The key, and KeyCheck's hash of the same words into `check` (common/key.h).
uint64_t PositionKey(const State& s, uint64_t* check);

}  // namespace azul

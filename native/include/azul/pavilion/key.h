// The position key of Azul: Summer Pavilion (docs/game-api.md "Position keys"; the hash: common/key.h).
// Pure-Python twin: python/azul_engine/_pure/pavilion/key.py.
#pragma once

#include <cstdint>

#include "azul/pavilion/state.h"

namespace azul {
namespace sp {

// Variant (2), players, chance mode, round, phase, fill, player to move, starting player,
// marker holder, next player, bonus owed; factories, centre, supply, refill, bag, tower; per
// player score, hand, board, passed.
uint64_t PositionKey(const State& s);
// The key, and KeyCheck's hash of the same words into `check` (common/key.h).
uint64_t PositionKey(const State& s, uint64_t* check);

}  // namespace sp
}  // namespace azul

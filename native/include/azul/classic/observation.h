// Observation tensors: the state as one player sees it, as floats for learning code.
// The pure-Python twin is GameState.observation_tensor in python/azul_engine/_pyengine.py, whose
// docstring gives the layout.
#pragma once

#include "azul/classic/state.h"

namespace azul {

constexpr int kSeatFeatures = 154;
constexpr int kSharedFeatures = 76;
inline int ObservationSize(int players) { return kSeatFeatures * players + kSharedFeatures; }

// Writes ObservationSize(s.players) values for `player` (perspective-relative) into `out`.
void Observation(const State& s, int player, float* out);

}  // namespace azul

// Summer Pavilion's observation tensor (docs/observation.md).
// Pure-Python twin: python/azul_engine/_pure/pavilion/observation.py.
#pragma once

#include "azul/pavilion/state.h"

namespace azul {
namespace sp {

// Observation tensor (PavilionState.observation_tensor): kSeatFeatures per seat, observer
// first, then kSharedFeatures; writes ObservationSize(s.players) floats for `player`.
constexpr int kSeatFeatures = 87;
constexpr int kSharedFeatures = 97;
// Named offsets of the layout.
namespace obs {
// In a seat's block:
constexpr int kCovered = 0;        // 42: 1 for each covered space (star * 6 + number - 1)
constexpr int kCentreColours = 42; // 36: at 6 * (centre space) + colour, the colour on it
constexpr int kHand = 78;          // 6: tiles / 22
constexpr int kScore = 84;         // score / 100
constexpr int kPassed = 85;        // 1: passed this round
constexpr int kHasMarker = 86;     // 1: holds the start token
// In the shared block:
constexpr int kFactories = 0;      // 54: at 6 * factory + colour, tiles / 4
constexpr int kCentre = 54;        // 6: tiles / 22
constexpr int kMarkerInCentre = 60;  // 1: during the acquire phase, the token is still in the centre
constexpr int kSupply = 61;        // 6: tiles / 10
constexpr int kBag = 67;           // 6: tiles / 22
constexpr int kTower = 73;         // 6: tiles / 22
constexpr int kRound = 79;         // round / 6
constexpr int kRoundOneHot = 80;   // 6: one-hot round (its wild colour)
constexpr int kPhase = 86;         // 6: one-hot phase
constexpr int kOwed = 92;          // bonus tiles owed / 18
constexpr int kStarter = 93;       // 4: one-hot seat that started the round, relative to the observer
static_assert(kSeatFeatures == kHasMarker + 1 && kSharedFeatures == kStarter + 4, "layout");
}  // namespace obs
inline int ObservationSize(int players) { return kSeatFeatures * players + kSharedFeatures; }
void Observation(const State& s, int player, float* out);

}  // namespace sp
}  // namespace azul

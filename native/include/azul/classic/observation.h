// Observation tensors: the state as one player sees it, as floats for learning code.
// docs/observation.md gives the layout.
// Pure-Python twin: python/azul_engine/_pure/classic/observation.py.
#pragma once

#include "azul/classic/state.h"

namespace azul {

constexpr int kSeatFeatures = 154;
constexpr int kSharedFeatures = 76;

// Named offsets of the layout: kSeatFeatures values per seat, the observer first, then the
// kSharedFeatures shared values.
namespace obs {
// In a seat's block:
constexpr int kWall = 0;            // 125: 1 at 25 * colour + cell for each wall tile
constexpr int kLines = 125;         // 25: at 5 * row + colour, the pattern line's fill (count / (row + 1))
constexpr int kFloor = 150;         // floor tiles / 7
constexpr int kMarkerOnFloor = 151; // 1: the first-player marker takes a space of this floor
constexpr int kHasMarker = 152;     // 1: this seat holds the first-player marker
constexpr int kScore = 153;         // score / 100
// In the shared block:
constexpr int kFactories = 0;       // 45: at 5 * factory + colour, tiles / 4
constexpr int kCentre = 45;         // 5: tiles / 20
constexpr int kMarkerInCentre = 50; // 1: during the offer, the marker is still in the centre
constexpr int kBag = 51;            // 5: tiles / 20
constexpr int kLid = 56;            // 5: tiles / 20
constexpr int kRound = 61;          // round / 10
constexpr int kPhase = 62;          // 5: one-hot phase
constexpr int kPendingRow = 67;     // 5: one-hot row of the grey wall's pending column choice
constexpr int kStarter = 72;        // 4: one-hot seat that starts the round, relative to the observer
static_assert(kSeatFeatures == kScore + 1 && kSharedFeatures == kStarter + kMaxPlayers, "layout");
}  // namespace obs
inline int ObservationSize(int players) { return kSeatFeatures * players + kSharedFeatures; }

// Writes ObservationSize(s.players) values for `player` (perspective-relative) into `out`.
void Observation(const State& s, int player, float* out);

}  // namespace azul

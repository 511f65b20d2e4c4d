// Observation tensors.
#include "azul/classic/observation.h"

#include <algorithm>

namespace azul {

void Observation(const State& s, int player, float* out) {
  const int players = s.players;
  std::fill(out, out + ObservationSize(players), 0.0f);
  for (int k = 0; k < players; ++k) {
    const int seat = (player + k) % players;
    const PlayerBoard& b = s.board[seat];
    float* o = out + kSeatFeatures * k;
    for (int i = 0; i < 25; ++i)
      if (b.wall[i] >= 0) o[obs::kWall + 25 * b.wall[i] + i] = 1.0f;
    for (int r = 0; r < 5; ++r)
      if (b.line_count[r])
        o[obs::kLines + 5 * r + b.line_colour[r]] = static_cast<float>(b.line_count[r]) / static_cast<float>(r + 1);
    o[obs::kFloor] = static_cast<float>(Sum5(b.floor)) / 7.0f;
    o[obs::kMarkerOnFloor] = (s.marker == seat && s.marker_floor) ? 1.0f : 0.0f;
    o[obs::kHasMarker] = s.marker == seat ? 1.0f : 0.0f;
    o[obs::kScore] = static_cast<float>(b.score) / 100.0f;
  }
  float* o = out + kSeatFeatures * players;
  for (int f = 0; f < kMaxFactories; ++f)
    for (int c = 0; c < kColours; ++c) o[obs::kFactories + 5 * f + c] = static_cast<float>(s.factories[f][c]) / 4.0f;
  for (int c = 0; c < kColours; ++c) {
    o[obs::kCentre + c] = static_cast<float>(s.centre[c]) / 20.0f;
    o[obs::kBag + c] = static_cast<float>(s.bag[c]) / 20.0f;
    o[obs::kLid + c] = static_cast<float>(s.lid[c]) / 20.0f;
  }
  o[obs::kMarkerInCentre] = (s.phase == kOffer && s.marker < 0) ? 1.0f : 0.0f;
  o[obs::kRound] = static_cast<float>(s.round) / 10.0f;
  o[obs::kPhase + s.phase] = 1.0f;
  if (s.phase == kTiling) o[obs::kPendingRow + PendingRow(s, s.turn)] = 1.0f;
  if (s.start >= 0) o[obs::kStarter + ((s.start - player) % players + players) % players] = 1.0f;
}

}  // namespace azul

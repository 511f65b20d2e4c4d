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
      if (b.wall[i] >= 0) o[25 * b.wall[i] + i] = 1.0f;
    for (int r = 0; r < 5; ++r)
      if (b.line_count[r])
        o[125 + 5 * r + b.line_colour[r]] = static_cast<float>(b.line_count[r]) / static_cast<float>(r + 1);
    o[150] = static_cast<float>(Sum5(b.floor)) / 7.0f;
    o[151] = (s.marker == seat && s.marker_floor) ? 1.0f : 0.0f;
    o[152] = s.marker == seat ? 1.0f : 0.0f;
    o[153] = static_cast<float>(b.score) / 100.0f;
  }
  float* o = out + kSeatFeatures * players;
  for (int f = 0; f < kMaxFactories; ++f)
    for (int c = 0; c < kColours; ++c) o[5 * f + c] = static_cast<float>(s.factories[f][c]) / 4.0f;
  for (int c = 0; c < kColours; ++c) {
    o[45 + c] = static_cast<float>(s.centre[c]) / 20.0f;
    o[51 + c] = static_cast<float>(s.bag[c]) / 20.0f;
    o[56 + c] = static_cast<float>(s.lid[c]) / 20.0f;
  }
  o[50] = (s.phase == kOffer && s.marker < 0) ? 1.0f : 0.0f;
  o[61] = static_cast<float>(s.round) / 10.0f;
  o[62 + s.phase] = 1.0f;
  if (s.phase == kTiling) o[67 + PendingRow(s, s.turn)] = 1.0f;
  if (s.start >= 0) o[72 + ((s.start - player) % players + players) % players] = 1.0f;
}

}  // namespace azul

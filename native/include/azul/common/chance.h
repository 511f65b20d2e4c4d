// The chance nodes both rule sets share: the first player drawn before round 1, and a tile drawn
// from the bag during a fill (explicit-chance mode).  Each variant's CheckLegal and
// ChanceOutcomes call these with its own action ids and colours.
// Pure-Python twin: python/azul_engine/_pure/common.py.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "azul/common/types.h"

namespace azul {

// The most outcomes a chance node has: a seat of 4, or a colour of 6.
constexpr int kMaxChanceOutcomes = 6;

// A variant's chance actions: draw_base + colour draws a tile, first_player_base + seat starts.
struct ChanceActions {
  int colours;
  const char* const* colour_names;
  int draw_base;
  int first_player_base;
};

// Throws IllegalMove unless `action` is an outcome of the chance node: the first player's draw
// when `first_player`, else a draw from `bag`.
inline void CheckChanceOutcome(const ChanceActions& r, bool first_player, const uint8_t* bag,
                               int players, int action) {
  if (!first_player && action >= r.draw_base && action < r.first_player_base) {
    const int c = action - r.draw_base;
    if (!bag[c]) throw IllegalMove(std::string("the bag has no ") + r.colour_names[c]);
    return;
  }
  if (first_player && action >= r.first_player_base) {
    const int seat = action - r.first_player_base;
    if (seat >= players)
      throw IllegalMove("seat " + std::to_string(seat) + " does not exist with " +
                        std::to_string(players) + " players");
    return;
  }
  throw IllegalMove(std::string("this is a chance node (") +
                    (first_player ? "the first player" : "a tile from the bag") +
                    " is drawn); apply one of its outcomes");
}

// The chance node's actions, in action order, written to out; returns how many: every seat for
// the first player, every colour left in `bag` for a draw.
inline int ListChanceActions(const ChanceActions& r, bool first_player, const uint8_t* bag, int players,
                             int16_t* out) {
  int n = 0;
  if (first_player) {
    for (int p = 0; p < players; ++p) out[n++] = static_cast<int16_t>(r.first_player_base + p);
  } else {
    for (int c = 0; c < r.colours; ++c)
      if (bag[c]) out[n++] = static_cast<int16_t>(r.draw_base + c);
  }
  return n;
}

// (action, probability) at a chance node, in action order, written to `actions` and `probabilities`
// (room for every seat or colour); returns how many: each seat alike for the first player, each
// colour by its share of `bag` for a draw.  Allocates nothing (the search draws with it).
inline int ChanceOutcomesInto(const ChanceActions& r, bool first_player, const uint8_t* bag, int players,
                              int16_t* actions, double* probabilities) {
  int n = 0;
  if (first_player) {
    for (int p = 0; p < players; ++p, ++n) {
      actions[n] = static_cast<int16_t>(r.first_player_base + p);
      probabilities[n] = 1.0 / players;
    }
    return n;
  }
  int total = 0;
  for (int c = 0; c < r.colours; ++c) total += bag[c];
  for (int c = 0; c < r.colours; ++c)
    if (bag[c]) {
      actions[n] = static_cast<int16_t>(r.draw_base + c);
      probabilities[n++] = bag[c] / static_cast<double>(total);
    }
  return n;
}

// ChanceOutcomesInto as a list.
inline std::vector<std::pair<int, double>> ChanceOutcomeList(const ChanceActions& r,
                                                             bool first_player,
                                                             const uint8_t* bag, int players) {
  int16_t actions[kMaxChanceOutcomes];
  double probabilities[kMaxChanceOutcomes];
  const int n = ChanceOutcomesInto(r, first_player, bag, players, actions, probabilities);
  std::vector<std::pair<int, double>> out;
  for (int i = 0; i < n; ++i) out.emplace_back(actions[i], probabilities[i]);
  return out;
}

}  // namespace azul

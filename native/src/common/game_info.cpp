// Per-variant game facts (game_info.h): the same part names, the same order, the same numbers as
// the twin.
// Pure-Python twin: python/azul_engine/_pure/game_info.py.
#include "azul/common/game_info.h"

#include <stdexcept>

#include "azul/classic/observation.h"
#include "azul/common/types.h"
#include "azul/pavilion/observation.h"
#include "azul/pavilion/state.h"

namespace azul {
namespace {

struct Part {
  const char* name;
  int length;
};

// Observation parts in layout order (classic/observation.cpp and pavilion/observation.cpp write them, at the
// offsets named in their headers' obs namespaces; docs/observation.md).
constexpr Part kClassicSeat[] = {{"wall", 125}, {"pattern_lines", 25}, {"floor", 1},
                                 {"marker_on_floor", 1}, {"holds_marker", 1}, {"score", 1}};
constexpr Part kClassicShared[] = {{"factories", 45}, {"centre", 5}, {"marker_in_centre", 1}, {"bag", 5},
                                   {"lid", 5}, {"round", 1}, {"phase", 5}, {"pending_row", 5},
                                   {"starting_seat", 4}};
constexpr Part kPavilionSeat[] = {{"spaces", 42}, {"centre_colours", 36}, {"hand", 6}, {"score", 1},
                                  {"passed", 1}, {"holds_token", 1}};
constexpr Part kPavilionShared[] = {{"factories", 54}, {"centre", 6}, {"token_in_centre", 1}, {"supply", 6},
                                    {"bag", 6}, {"tower", 6}, {"round", 1}, {"wild_colour", 6}, {"phase", 6},
                                    {"bonus_owed", 1}, {"starting_seat", 4}};

template <size_t N>
constexpr int Length(const Part (&parts)[N]) {
  int n = 0;
  for (const Part& p : parts) n += p.length;
  return n;
}
static_assert(Length(kClassicSeat) == kSeatFeatures && Length(kClassicShared) == kSharedFeatures, "layout");
static_assert(Length(kPavilionSeat) == sp::kSeatFeatures && Length(kPavilionShared) == sp::kSharedFeatures,
              "layout");
template <size_t N>
constexpr int Start(const Part (&parts)[N], size_t index) {
  int n = 0;
  for (size_t i = 0; i < index; ++i) n += parts[i].length;
  return n;
}
// The parts start where the observation writers' named offsets say.
static_assert(Start(kClassicSeat, 1) == obs::kLines && Start(kClassicSeat, 5) == obs::kScore &&
                  Start(kClassicShared, 5) == obs::kRound && Start(kClassicShared, 8) == obs::kStarter,
              "layout");
static_assert(Start(kPavilionSeat, 1) == sp::obs::kCentreColours && Start(kPavilionShared, 10) == sp::obs::kStarter,
              "layout");

template <size_t S, size_t H>
int AddParts(GameInfo& info, const Part (&seat)[S], const Part (&shared)[H]) {
  int start = 0;
  for (int k = 0; k < info.players; ++k)
    for (const Part& p : seat) {
      info.observation_parts.push_back({"seat" + std::to_string(k) + "." + p.name, start, p.length});
      start += p.length;
    }
  for (const Part& p : shared) {
    info.observation_parts.push_back({p.name, start, p.length});
    start += p.length;
  }
  return start;
}

}  // namespace

GameInfo MakeGameInfo(const std::string& variant, int players) {
  if (players < 2 || players > kMaxPlayers) throw std::invalid_argument("players must be 2, 3 or 4");
  GameInfo info;
  info.variant = variant;
  info.players = players;
  info.factories = NumFactories(players);
  if (variant == "classic" || variant == "grey") {
    info.num_actions = kNumActions;
    info.seat_features = kSeatFeatures;
    info.observation_size = AddParts(info, kClassicSeat, kClassicShared);
    info.colours = kColourLetters;
    info.start_score = 0;
    info.min_score = 0;
    // 25 wall tiles x 10 points at most (a run of 5 across plus 5 down), plus every end bonus.
    info.max_score = 25 * 10 + 5 * 2 + 5 * 7 + 5 * 10;
    info.max_rounds = kMaxRounds;
    info.rounds = 0;
    info.tiles_per_colour = kTilesPerColour;
    info.end_bonuses = {{"row", 2}, {"column", 7}, {"colour", 10}};
    for (int k = 1; k <= kFloorSpaces; ++k) info.floor_penalties.push_back(kFloorPenalty[k] - kFloorPenalty[k - 1]);
    if (variant == "classic")
      for (int r = 0; r < 5; ++r) {
        std::string row;
        for (int c = 0; c < 5; ++c) row += kColourLetters[(c - r + 5) % 5];  // rules section 1: the wall's pattern
        info.wall_pattern.push_back(row);
      }
  } else if (variant == "summer-pavilion") {
    info.num_actions = sp::kNumActions;
    info.seat_features = sp::kSeatFeatures;
    info.observation_size = AddParts(info, kPavilionSeat, kPavilionShared);
    info.colours = sp::kColourLetters;
    info.start_score = sp::kStartScore;
    info.min_score = sp::kMinScore;  // every loss stops at 1 (rules section 3)
    int bonuses = 0;
    for (int s = 0; s < 7; ++s) {
      info.end_bonuses.push_back({std::string("star-") + sp::kStarLetters[s], sp::kStarBonus[s]});
      bonuses += sp::kStarBonus[s];
    }
    for (int n = 0; n < 4; ++n) {
      info.end_bonuses.push_back({"number-" + std::to_string(n + 1), sp::kNumberBonus[n]});
      bonuses += sp::kNumberBonus[n];
    }
    // The start score, 42 spaces x 6 points at most (a star's run is at most 6), plus every end bonus.
    info.max_score = sp::kStartScore + 42 * 6 + bonuses;
    info.max_rounds = sp::kRounds;
    info.rounds = sp::kRounds;
    info.tiles_per_colour = sp::kTilesPerColour;
    info.wild_colours = sp::kColourLetters;  // round i's wild colour is colour i - 1 (rules section 3)
    info.stars = sp::kStarLetters;
  } else {
    throw std::invalid_argument("unknown variant " + variant);
  }
  return info;
}

}  // namespace azul

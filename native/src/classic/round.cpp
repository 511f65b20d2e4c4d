// Rounds: new games, refilling the factories, explicit deals (rules.md sections 1 and 5).
// Pure-Python twin: python/azul_engine/_pure/classic/round.py.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "azul/classic/notation.h"
#include "azul/common/rng.h"
#include "azul/classic/state.h"

namespace azul {

bool operator==(const State& a, const State& b) {
  if (a.seed != b.seed || a.rng != b.rng || a.round != b.round || a.moves != b.moves ||
      a.players != b.players || a.variant != b.variant ||
      a.explicit_chance != b.explicit_chance || a.phase != b.phase || a.turn != b.turn ||
      a.start != b.start || a.marker != b.marker || a.marker_floor != b.marker_floor ||
      a.num_factories != b.num_factories)
    return false;
  if (std::memcmp(a.factories, b.factories, sizeof a.factories) ||
      std::memcmp(a.centre, b.centre, 5) || std::memcmp(a.bag, b.bag, 5) ||
      std::memcmp(a.lid, b.lid, 5) || std::memcmp(a.prefill_bag, b.prefill_bag, 5) ||
      std::memcmp(a.prefill_lid, b.prefill_lid, 5))
    return false;
  for (int p = 0; p < a.players; ++p) {
    const PlayerBoard &x = a.board[p], &y = b.board[p];
    if (std::memcmp(x.line_colour, y.line_colour, 5) || std::memcmp(x.line_count, y.line_count, 5) ||
        std::memcmp(x.wall, y.wall, 25) || std::memcmp(x.floor, y.floor, 5) || x.score != y.score)
      return false;
  }
  return true;
}

State NewGame(int players, Variant variant, uint64_t seed, bool explicit_chance, History* h) {
  State s;
  std::memset(&s, 0, sizeof s);
  s.seed = seed;
  s.rng = seed;
  s.round = 1;
  s.players = static_cast<int8_t>(players);
  s.variant = variant;
  s.explicit_chance = explicit_chance;
  s.phase = kFirstPlayer;
  s.turn = kChance;
  s.start = -1;
  s.marker = -1;
  s.num_factories = static_cast<uint8_t>(NumFactories(players));
  for (int c = 0; c < kColours; ++c) s.bag[c] = s.prefill_bag[c] = kTilesPerColour;
  for (int p = 0; p < kMaxPlayers; ++p) {
    std::memset(s.board[p].line_colour, -1, 5);
    std::memset(s.board[p].wall, -1, 25);
  }
  if (h) {
    *h = History();
    h->seed_known = !explicit_chance;
    h->seed = seed;
  }
  if (!explicit_chance) {
    s.start = static_cast<int8_t>(Below(s.rng, players));
    if (h) h->first = s.start;
    StartRound(s, h);
  }
  return s;
}

void StartRound(State& s, History* h) {
  std::memcpy(s.prefill_bag, s.bag, 5);
  std::memcpy(s.prefill_lid, s.lid, 5);
  std::memset(s.factories, 0, sizeof s.factories);
  s.marker = -1;
  s.marker_floor = 0;
  s.moves = 0;
  s.phase = kFill;
  s.turn = kChance;
  ContinueFill(s, h);
}

static void BeginOffer(State& s, History* h) {
  s.phase = kOffer;
  s.turn = s.start;
  if (h) {
    RoundHistory round;
    for (int f = 0; f < s.num_factories; ++f) round.factories.push_back(TilesToStr(s.factories[f]));
    h->rounds.push_back(std::move(round));
    if (h->capture) h->sheet.emplace_back();
  }
}

void ContinueFill(State& s, History* h) {
  uint8_t* bag = s.bag;
  int total = Sum5(bag);
  for (int f = 0; f < s.num_factories; ++f) {
    uint8_t* tiles = s.factories[f];
    for (int have = Sum5(tiles); have < 4; ++have) {
      if (!total) {
        for (int c = 0; c < kColours; ++c) {
          bag[c] = static_cast<uint8_t>(bag[c] + s.lid[c]);
          s.lid[c] = 0;
        }
        total = Sum5(bag);
        if (!total) {
          BeginOffer(s, h);
          return;
        }
      }
      if (s.explicit_chance) return;  // wait at the chance node
      int k = Below(s.rng, total);
      int c = 0;
      while (k >= bag[c]) k -= bag[c++];
      --bag[c];
      ++tiles[c];
      --total;
    }
  }
  BeginOffer(s, h);
}

void CheckDealShape(const State& s, size_t count) {
  if ((s.phase != kFill && s.phase != kOffer) || s.moves)
    throw IllegalMove("deal: factories can only be dealt before the round's first move");
  CheckDealCount(s.players, s.num_factories, count);
}

void Deal(State& s, const std::vector<std::string>& factories, History* h) {
  CheckDealShape(s, factories.size());
  const int nf = s.num_factories;
  int counts[kMaxFactories][5];
  for (int i = 0; i < nf; ++i) {
    try {
      ParseTiles(factories[i], "factory " + std::to_string(i + 1), counts[i]);
    } catch (const StateFormatError& e) {
      throw IllegalMove("deal: " + e.message());
    }
    int n = counts[i][0] + counts[i][1] + counts[i][2] + counts[i][3] + counts[i][4];
    if (n > 4)
      throw IllegalMove("deal: factory " + std::to_string(i + 1) + " holds " +
                        std::to_string(n) + " tiles; a factory holds 4");
  }
  const uint8_t* bag = s.prefill_bag;
  const uint8_t* lid = s.prefill_lid;
  const int available = Sum5(bag) + Sum5(lid);
  for (int i = 0; i < nf; ++i) {
    int want = std::min(4, std::max(0, available - 4 * i));
    int n = counts[i][0] + counts[i][1] + counts[i][2] + counts[i][3] + counts[i][4];
    if (n != want)
      throw IllegalMove("deal: factory " + std::to_string(i + 1) + " holds " +
                        std::to_string(n) + " tiles, but with " +
                        std::to_string(available) + " tiles in bag and lid it must hold " +
                        std::to_string(want));
  }
  int need[5] = {0, 0, 0, 0, 0};
  for (int i = 0; i < nf; ++i)
    for (int c = 0; c < kColours; ++c) need[c] += counts[i][c];
  uint8_t new_bag[5], new_lid[5];
  bool from_bag = true;
  for (int c = 0; c < kColours; ++c) from_bag = from_bag && need[c] <= bag[c];
  if (from_bag) {
    for (int c = 0; c < kColours; ++c) {
      new_bag[c] = static_cast<uint8_t>(bag[c] - need[c]);
      new_lid[c] = lid[c];
    }
  } else {
    // The bag ran out, so all of it was drawn before the lid was poured in.
    for (int c = 0; c < kColours; ++c) {
      if (need[c] < bag[c])
        throw IllegalMove("deal: the bag held " + std::to_string(bag[c]) + " " +
                          kColourNames[c] +
                          ", more than dealt, so the lid cannot have been poured in, yet the "
                          "bag alone cannot supply these factories");
      if (need[c] > bag[c] + lid[c])
        throw IllegalMove("deal: " + std::to_string(need[c]) + " " + kColourNames[c] +
                          " dealt, but bag and lid hold only " + std::to_string(bag[c] + lid[c]));
    }
    for (int c = 0; c < kColours; ++c) {
      new_bag[c] = static_cast<uint8_t>(bag[c] + lid[c] - need[c]);
      new_lid[c] = 0;
    }
  }
  std::memcpy(s.bag, new_bag, 5);
  std::memcpy(s.lid, new_lid, 5);
  for (int i = 0; i < nf; ++i)
    for (int c = 0; c < kColours; ++c) s.factories[i][c] = static_cast<uint8_t>(counts[i][c]);
  if (h) {
    h->seed_known = false;
    if (s.phase == kOffer && !h->rounds.empty()) h->rounds.pop_back();
  }
  BeginOffer(s, h);
}

}  // namespace azul

// Azul: Summer Pavilion: new games, the fills (setup supply, factories, refills) and deals
// (rules.md section 3).
// The same draws in the same order as the twin.
// Pure-Python twin: python/azul_engine/_pure/pavilion/round.py.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "azul/common/rng.h"
#include "azul/pavilion/notation.h"
#include "internal.h"

namespace azul {
namespace sp {

using namespace internal;

namespace internal {

void StartRound(State& s, History* h) {
  std::memcpy(s.prefill_bag, s.bag, 8);
  std::memcpy(s.prefill_tower, s.tower, 8);
  s.marker = -1;
  s.moves = 0;
  std::memset(s.passed, 0, sizeof s.passed);
  s.phase = kFill;
  s.fill = kFillFactories;
  s.turn = kChance;
  ContinueFill(s, h);
}

void BeginSetup(State& s, History* h) {
  s.phase = kFill;
  s.fill = kFillSetup;
  s.turn = kChance;
  ContinueFill(s, h);
}

void PutDrawn(State& s, int c) {
  --s.bag[c];
  if (s.fill == kFillFactories) {
    for (int f = 0; f < s.num_factories; ++f)
      if (Sum6(s.factories[f]) < 4) {
        ++s.factories[f][c];
        return;
      }
  } else {
    ++s.supply[c];
    if (s.fill == kFillRefill) ++s.refill[c];
  }
}

void FillDone(State& s, History* h) {
  const int fill = s.fill;
  s.fill = kNoFill;
  if (fill == kFillSetup) {
    if (h && h->complete) {
      h->supply_known = true;
      h->supply = TilesToStr(s.supply);
    }
    StartRound(s, h);
  } else if (fill == kFillFactories) {
    s.phase = kAcquire;
    s.turn = s.start;
    if (h && h->complete) {
      RoundHistory round;
      for (int f = 0; f < s.num_factories; ++f) round.factories.push_back(TilesToStr(s.factories[f]));
      h->rounds.push_back(std::move(round));
    }
    if (h && h->capture) h->sheet.emplace_back();
    // Bag and tower were both empty: nothing to acquire, phase 2 starts at once (docs/decisions.md).
    bool offer = false;
    for (int f = 0; f < s.num_factories; ++f) offer = offer || Any6(s.factories[f]);
    if (!offer) s.phase = kPlay;
  } else {  // kFillRefill
    if (Any6(s.refill)) {
      if (h && h->complete && !h->rounds.empty())
        h->rounds.back().moves.push_back("~" + TilesToStr(s.refill));
      std::memset(s.refill, 0, sizeof s.refill);
    }
    if (s.next >= 0) {
      s.phase = kPlay;
      s.turn = s.next;
      s.next = -1;
    } else {
      if (s.marker >= 0) s.start = s.marker;
      ++s.round;
      StartRound(s, h);
    }
  }
}

// Draw until the supply (or every factory) is full, pouring the tower into the bag only when
// the bag is empty; with both empty, go on with what was drawn.  Explicit chance stops at each
// draw.
void ContinueFill(State& s, History* h) {
  int total = Sum6(s.bag);
  const bool factories = s.fill == kFillFactories;
  int need;
  int f = 0, in_f = 0;  // the first factory with room, and its tiles
  if (factories) {
    need = 4 * s.num_factories;
    for (int i = 0; i < s.num_factories; ++i) need -= Sum6(s.factories[i]);
    while (f < s.num_factories && Sum6(s.factories[f]) >= 4) ++f;
    if (f < s.num_factories) in_f = Sum6(s.factories[f]);
  } else {
    need = kSupplySize - Sum6(s.supply);
  }
  int cum[kColours];  // cum[c]: tiles of colours 0..c in the bag
  for (int c = 0, run = 0; c < kColours; ++c) cum[c] = run += s.bag[c];
  while (need != 0) {
    if (!total) {
      for (int c = 0, run = 0; c < kColours; ++c) {
        s.bag[c] = static_cast<uint8_t>(s.bag[c] + s.tower[c]);
        s.tower[c] = 0;
        cum[c] = run += s.bag[c];
      }
      total = Sum6(s.bag);
      if (!total) break;
    }
    if (s.explicit_chance) return;
    // The colour whose tiles hold position k: how many prefix sums are <= k.
    const int k = Below(s.rng, total);
    int c = 0;
    for (int i = 0; i < kColours - 1; ++i) c += cum[i] <= k;
    for (int i = 0; i < kColours; ++i) cum[i] -= i >= c;
    --s.bag[c];
    if (factories) {
      if (f < s.num_factories) {  // always: need counts the room left
        ++s.factories[f][c];
        if (++in_f >= 4) {
          ++f;
          while (f < s.num_factories && (in_f = Sum6(s.factories[f])) >= 4) ++f;
          if (f == s.num_factories) in_f = 0;
        }
      }
    } else {
      ++s.supply[c];
      if (s.fill == kFillRefill) ++s.refill[c];
    }
    --total;
    --need;
  }
  FillDone(s, h);
}


// Bag and tower after drawing the multiset `need`: from the bag alone, or (when it is not
// enough) the whole bag, the tower poured in, and the rest from there.
void DrawMultiset(const uint8_t* bag, const uint8_t* tower, const int* need, const char* what,
                  uint8_t* new_bag, uint8_t* new_tower) {
  bool fits = true;
  for (int c = 0; c < kColours; ++c) fits = fits && need[c] <= bag[c];
  if (fits) {
    for (int c = 0; c < kColours; ++c) {
      new_bag[c] = static_cast<uint8_t>(bag[c] - need[c]);
      new_tower[c] = tower[c];
    }
    return;
  }
  for (int c = 0; c < kColours; ++c) {
    if (need[c] < bag[c])
      throw IllegalMove(std::string(what) + ": the bag held " + Str(bag[c]) + " " +
                        kColourNames[c] +
                        ", more than drawn, so the tower cannot have been poured in, yet the bag "
                        "alone cannot give these tiles");
    if (need[c] > bag[c] + tower[c])
      throw IllegalMove(std::string(what) + ": " + Str(need[c]) + " " + kColourNames[c] +
                        " drawn, but bag and tower hold only " + Str(bag[c] + tower[c]));
  }
  for (int c = 0; c < kColours; ++c) {
    new_bag[c] = static_cast<uint8_t>(bag[c] + tower[c] - need[c]);
    new_tower[c] = 0;
  }
}

}  // namespace internal

State Blank(int players, uint64_t seed, bool explicit_chance, History* h) {
  State s;
  std::memset(&s, 0, sizeof s);
  s.seed = seed;
  s.rng = seed;
  s.players = static_cast<int8_t>(players);
  s.explicit_chance = explicit_chance;
  s.round = 1;
  s.phase = kFirstPlayer;
  s.fill = kNoFill;
  s.turn = kChance;
  s.start = -1;
  s.marker = -1;
  s.next = -1;
  s.num_factories = static_cast<uint8_t>(NumFactories(players));
  for (int c = 0; c < kColours; ++c) s.bag[c] = s.prefill_bag[c] = kTilesPerColour;
  for (int p = 0; p < players; ++p) s.score[p] = kStartScore;
  std::memset(s.board, -1, sizeof s.board);
  if (h) {
    *h = History();
    h->seed_known = !explicit_chance;
    h->seed = seed;
  }
  return s;
}

State NewGame(int players, uint64_t seed, bool explicit_chance, History* h) {
  State s = Blank(players, seed, explicit_chance, h);
  if (!explicit_chance) {
    s.start = static_cast<int8_t>(Below(s.rng, players));
    if (h) h->first = s.start;
    BeginSetup(s, h);
  }
  return s;
}

void CheckDealShape(const State& s, size_t count) {
  if (!((s.phase == kFill && s.fill == kFillFactories) || (s.phase == kAcquire && !s.moves)))
    throw IllegalMove("deal: factories can only be dealt before the round's first move");
  CheckDealCount(s.players, s.num_factories, count);
}

void Deal(State& s, const std::vector<std::string>& factories, History* h) {
  CheckDealShape(s, factories.size());
  const int nf = s.num_factories;
  int counts[kMaxFactories][kColours];
  for (int i = 0; i < nf; ++i) {
    ParseTiles(factories[i], "deal: factory " + Str(i + 1), counts[i], true);
    int sum = 0;
    for (int c = 0; c < kColours; ++c) sum += counts[i][c];
    if (sum > 4)
      throw IllegalMove("deal: factory " + Str(i + 1) + " holds " + Str(sum) +
                        " tiles; a factory holds 4");
  }
  const int available = Sum6(s.prefill_bag) + Sum6(s.prefill_tower);
  for (int i = 0; i < nf; ++i) {
    const int want = std::min(4, std::max(0, available - 4 * i));
    int sum = 0;
    for (int c = 0; c < kColours; ++c) sum += counts[i][c];
    if (sum != want)
      throw IllegalMove("deal: factory " + Str(i + 1) + " holds " + Str(sum) +
                        " tiles, but with " + Str(available) +
                        " tiles in bag and tower it must hold " + Str(want));
  }
  int need[kColours] = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < nf; ++i)
    for (int c = 0; c < kColours; ++c) need[c] += counts[i][c];
  uint8_t bag[8] = {0}, tower[8] = {0};
  DrawMultiset(s.prefill_bag, s.prefill_tower, need, "deal", bag, tower);
  std::memcpy(s.bag, bag, 8);
  std::memcpy(s.tower, tower, 8);
  for (int i = 0; i < nf; ++i)
    for (int c = 0; c < kColours; ++c) s.factories[i][c] = static_cast<uint8_t>(counts[i][c]);
  if (h) h->seed_known = false;
  if (s.phase == kAcquire && h && h->complete) {
    if (!h->rounds.empty()) h->rounds.pop_back();
    if (h->capture && !h->sheet.empty()) h->sheet.pop_back();
  }
  s.fill = kFillFactories;
  FillDone(s, h);
}

void DealSupply(State& s, const int* counts, History* h) {
  if (s.phase != kFill || s.fill == kFillFactories || Any6(s.refill) ||
      (s.fill == kFillSetup && Any6(s.supply)))
    throw IllegalMove(
        "deal_supply: the supply is not waiting to be filled (or some of its tiles are already "
        "drawn)");
  const int room = kSupplySize - Sum6(s.supply);
  const int available = Sum6(s.bag) + Sum6(s.tower);
  const int want = std::min(room, available);
  long long sum = 0;
  for (int c = 0; c < kColours; ++c) sum += counts[c];
  if (sum != want)
    throw IllegalMove("deal_supply: " + std::to_string(sum) +
                      " tiles drawn, but the supply has " + Str(room) +
                      " empty spaces and bag and tower hold " + Str(available) + ", so " +
                      Str(want) + " are drawn");
  uint8_t bag[8] = {0}, tower[8] = {0};
  DrawMultiset(s.bag, s.tower, counts, "deal_supply", bag, tower);
  std::memcpy(s.bag, bag, 8);
  std::memcpy(s.tower, tower, 8);
  for (int c = 0; c < kColours; ++c) {
    s.supply[c] = static_cast<uint8_t>(s.supply[c] + counts[c]);
    if (s.fill == kFillRefill) s.refill[c] = static_cast<uint8_t>(s.refill[c] + counts[c]);
  }
  if (h) h->seed_known = false;
  FillDone(s, h);
}

}  // namespace sp
}  // namespace azul

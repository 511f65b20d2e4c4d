// Summer Pavilion random playouts on a compact, playout-only game (rules.md section 3).
//
// sp::State serves the whole API (explicit chance, history, text, exact messages); a playout
// needs none of that.  Game<P> keeps only what decides the rest of a sampled game, in words:
// every source (factories, centre), the supply, the tower and each hand is one uint64_t with one
// byte per colour count; each board is its 42-bit "filled" mask plus the colours on its centre
// star; the bag is six 9-bit lanes of prefix sums with a guard bit, so a draw is a subtract, a
// mask and a count of trailing zeros.  The colours one may take from each source are kept as
// masks (and their number in total), updated as sources change, so a phase-1 move is found by
// walking weights.  The player count is a template parameter.
//
// The games are exactly those of PlayRandom on the full State (playout.cpp): the same moves in
// the same id order, chosen by the same draws from the policy generator, and the same tiles drawn
// from the game's generator in the same order.  tests/test_pavilion_playouts.py compares the two
// over many states and seeds (ReferencePlayoutsFrom keeps the full-State path callable).
// Pure-Python twin: python/azul_engine/_pure/pavilion/playout.py.
#include <cstdint>
#include <cstring>

#include "azul/common/bits.h"
#include "azul/pavilion/kernel.h"
#include "azul/pavilion/playout.h"
#include "azul/pavilion/state.h"
#include "azul/classic/playout.h"
#include "azul/common/rng.h"
#include "kernel_tables.h"

namespace azul {
namespace sp {

namespace {
using namespace kernel;  // kernel_tables.h: the constants and KernelTables

const KernelTables kK;

inline int Byte(uint64_t w, int c) { return static_cast<int>((w >> (8 * c)) & 0xFF); }
inline uint64_t One(int c) { return 1ULL << (8 * c); }
inline uint64_t Load(const uint8_t* c) {
  uint64_t w;
  std::memcpy(&w, c, 8);
  return w;
}
// Sum of the byte counts (each word here holds at most 132 tiles).
inline int ByteSum(uint64_t w) { return static_cast<int>((w * kBytes) >> 56); }
// Bit c set when colour c has tiles (bytes 6-7 are zero).
inline int Present(uint64_t w) {
  const uint64_t high = (((w & kLow7) + kLow7) | w) & kHigh;
  return static_cast<int>(((high >> 7) * 0x0102040810204080ULL) >> 56);
}
// Each byte (of 0-5, at most 22) capped at `cap` (4 or 6).
inline uint64_t CapBytes(uint64_t w, int cap) {
  const uint64_t over = ((w + (128 - 1 - cap) * 0x0000010101010101ULL) & kHigh) >> 7;  // byte > cap
  const uint64_t mask = over * 0xFF;
  return (w & ~mask) | (static_cast<uint64_t>(cap) * over);
}
// Lane i (9 bits, the guard bit dropped) of a word of 9-bit lanes.
inline int Lane(uint64_t w, int i) { return static_cast<int>((w >> (9 * i)) & 0xFF); }
inline int Clamp(int x) { return x > kMinScore ? x : kMinScore; }

// The guard bits of the lanes at bit `from9` (a multiple of 9) and above whose value (guard
// dropped) exceeds x (x < 255; one must exist, so the result is not 0).
inline uint64_t AboveMask(uint64_t lanes, int x, int from9) {
  return (lanes - static_cast<uint64_t>(x + 1) * kLane) & kGuard & (~0ULL << from9);
}

template <int P>
struct Game {
  static constexpr int kF = 2 * P + 1;  // factories; source kF is the centre
  uint64_t rng;
  uint64_t bag;  // lanes of prefix sums, see kLane
  uint64_t source[kF + 1];
  uint64_t supply, tower;
  uint64_t hand[P];
  uint64_t filled[P];
  int32_t score[P];
  int32_t bag_total;
  int32_t offered;  // phase 1: the moves on offer, the sum of weight[]
  uint8_t present[kF + 1];  // phase 1: the colours each source holds
  uint32_t order[kF + 1];  // phase 1: the colours one may take from each source, in 4-bit digits
  uint8_t weight[kF + 1];  // how many
  uint8_t centre_used[P];  // the colours on each centre star
  int8_t phase, round, turn, start, marker, owed;
  uint8_t passed;  // bit p: player p has passed this round
};

// Colours one may take from a source: those present but the wild one, or only the wild one.
inline int ChoiceOf(int present, int wild) {
  const int others = present & ~(1 << wild);
  return others ? others : present;
}
inline int Choice(uint64_t w, int wild) { return ChoiceOf(Present(w), wild); }

template <int P>
inline void SetChoice(Game<P>& g, int src) {
  g.present[src] = static_cast<uint8_t>(Present(g.source[src]));
  const int m = Choice(g.source[src], g.round - 1);
  g.offered += kK.bits[m] - g.weight[src];
  g.order[src] = kK.order[m];
  g.weight[src] = kK.bits[m];
}

template <int P>
inline void Pour(Game<P>& g) {
  // Only when the bag is empty: the tower becomes the bag.
  uint64_t bag = 0;
  int run = 0;
  for (int c = 0; c < kColours; ++c) {
    run += Byte(g.tower, c);
    bag |= static_cast<uint64_t>(256 + run) << (9 * c);
  }
  g.bag = bag;
  g.bag_total = run;
  g.tower = 0;
}

// The tile at position k (from 0, colour by colour) of the bag, removed; returns One(its colour).
inline uint64_t TakeAt(uint64_t& bag, uint64_t k) {
  const uint64_t t = (bag - (k + 1) * kLane) & kGuard;  // guard kept where prefix > k
  bag -= t >> 8;
  return kK.one_at[LowestBit(t)];
}
// The tile at a uniform position of the bag (not empty), removed.
inline uint64_t DrawFrom(uint64_t& rng, uint64_t& bag, int& total) {
  const uint64_t k = static_cast<uint64_t>(Below(rng, total));
  --total;
  return TakeAt(bag, k);
}
template <int P>
inline uint64_t Draw(Game<P>& g) {
  return DrawFrom(g.rng, g.bag, g.bag_total);
}

// Draws up to `need` tiles into *into, pouring the tower into the bag when the bag is empty;
// with both empty, stops.  Returns false when it stopped short.
template <int P>
inline bool DrawInto(Game<P>& g, uint64_t* into, int need) {
  uint64_t w = *into;
  if (g.bag_total >= need) {  // no pouring: the usual case
    uint64_t rng = g.rng, bag = g.bag;
    int total = g.bag_total;
    for (; need > 0; --need) w += DrawFrom(rng, bag, total);
    g.rng = rng;
    g.bag = bag;
    g.bag_total = total;
    *into = w;
    return true;
  }
  for (; need > 0; --need) {
    if (!g.bag_total) {
      Pour(g);
      if (!g.bag_total) {
        *into = w;
        return false;
      }
    }
    w += Draw(g);
  }
  *into = w;
  return true;
}

template <int P>
void StartRound(Game<P>& g) {
  g.marker = -1;
  g.passed = 0;
  g.turn = g.start;
  g.offered = 0;
  if (g.bag_total >= 4 * Game<P>::kF) {  // the usual case: no pouring
    // The draws' positions first (rng.h's BelowCountdown: four at a time), then the tiles.
    constexpr int kDraws = 4 * Game<P>::kF;
    uint64_t at[kDraws];
    BelowCountdown(g.rng, g.bag_total, at, kDraws);
    g.rng += kDraws * kSplitMixGamma;
    uint64_t bag = g.bag;
    for (int f = 0; f < Game<P>::kF; ++f) {
      uint64_t w = 0;
      for (int j = 0; j < 4; ++j) w += TakeAt(bag, at[4 * f + j]);
      g.source[f] = w;
    }
    g.bag = bag;
    g.bag_total -= kDraws;
  } else {
    for (int f = 0; f < Game<P>::kF; ++f) g.source[f] = 0;
    for (int f = 0; f < Game<P>::kF; ++f)
      if (!DrawInto(g, &g.source[f], 4)) break;
  }
  for (int src = 0; src <= Game<P>::kF; ++src) {
    g.weight[src] = 0;
    SetChoice(g, src);
  }
  g.phase = g.offered ? kAcquire : kPlay;
}

template <int P>
void Finish(Game<P>& g) {
  for (int p = 0; p < P; ++p) {
    const uint64_t filled = g.filled[p];
    int points = 0;
    for (int st = 0; st < 7; ++st)
      if ((filled & kK.star_mask[st]) == kK.star_mask[st]) points += kStarBonus[st];
    for (int n = 0; n < 4; ++n)
      if ((filled & kK.number_mask[n]) == kK.number_mask[n]) points += kNumberBonus[n];
    g.score[p] = Clamp(g.score[p] + points - ByteSum(g.hand[p]));
  }
  g.phase = kOver;
}

// After a phase-2 turn of player p: the next player who has not passed, or the round's end.
template <int P>
void EndTurn(Game<P>& g, int p) {
  const int next = kK.next[P - 1][g.passed][p];
  if (next < 0 && g.round == kRounds) {
    Finish(g);
    return;
  }
  DrawInto(g, &g.supply, kSupplySize - ByteSum(g.supply));
  if (next >= 0) {
    g.phase = kPlay;
    g.turn = static_cast<int8_t>(next);
    return;
  }
  if (g.marker >= 0) g.start = g.marker;
  ++g.round;
  StartRound(g);
}

// Phase 1 to its end: every move takes a source's colour; returns the moves.  What each move
// changes and the next depends on (moves on offer, the centre, its choices, the turn) lives in
// locals, so that no store and reload lies on the chain from one move to the next.
template <int P>
uint64_t AcquirePhase(Game<P>& g, uint64_t& policy_seed) {
  uint64_t policy = policy_seed;
  constexpr int kF = Game<P>::kF;
  const int wild = g.round - 1;
  const uint64_t wild_one = One(wild);
  uint64_t centre = g.source[kF];
  int centre_present = g.present[kF], centre_weight = g.weight[kF];
  uint32_t centre_order = g.order[kF];
  int offered = g.offered, p = g.turn, marker = g.marker;
  uint64_t plies = 0;
  do {
    int k = Below(policy, offered);
    int src = 0;
    while (src < kF && k >= g.weight[src]) k -= g.weight[src++];
    uint64_t w, gain;
    int taken;
    // The colours left: all but c (unless c is the wild colour), and the wild one when the
    // source held more than the one wild tile taken.
    if (src < kF) {
      w = g.source[src];
      const int c = (g.order[src] >> (4 * k)) & 15, wilds = (w >> (8 * wild)) & 0xFF;
      const uint64_t colour = c != wild ? w & (0xFFULL << (8 * c)) : 0;
      gain = colour + (wilds ? wild_one : 0);
      centre_present |= g.present[src] & ~((c != wild) << c) & ~((wilds <= 1) << wild);
      offered -= g.weight[src];
      g.source[src] = 0;
      g.weight[src] = 0;
      g.order[src] = 0;
      g.present[src] = 0;
      centre += w - gain;
    } else {
      w = centre;
      const int c = (centre_order >> (4 * k)) & 15, wilds = (w >> (8 * wild)) & 0xFF;
      const uint64_t colour = c != wild ? w & (0xFFULL << (8 * c)) : 0;
      gain = colour + (wilds ? wild_one : 0);
      centre_present &= ~((c != wild) << c) & ~((wilds <= 1) << wild);
      centre = w - gain;
      if (marker < 0) {
        marker = p;
        taken = ByteSum(gain);
        g.score[p] = Clamp(g.score[p] - taken);
      }
    }
    g.hand[p] += gain;
    const int m = ChoiceOf(centre_present, wild), weight = kK.bits[m];
    offered += weight - centre_weight;
    centre_order = kK.order[m];
    centre_weight = weight;
    p = p + 1 < P ? p + 1 : 0;
    ++plies;
  } while (offered);
  policy_seed = policy;
  g.source[kF] = centre;
  g.present[kF] = static_cast<uint8_t>(centre_present);
  g.order[kF] = centre_order;
  g.weight[kF] = static_cast<uint8_t>(centre_weight);
  g.offered = 0;
  g.marker = static_cast<int8_t>(marker);
  g.phase = kPlay;
  g.turn = static_cast<int8_t>(marker >= 0 ? marker : g.start);
  return plies;
}

template <int P>
void Place(Game<P>& g, int p, int space, int c, int w) {
  const int cost = space % 6 + 1, wild = g.round - 1;
  g.hand[p] -= static_cast<uint64_t>(cost - w) << (8 * c);
  g.hand[p] -= static_cast<uint64_t>(w) << (8 * wild);
  g.tower += static_cast<uint64_t>(cost - w - 1) << (8 * c);
  g.tower += static_cast<uint64_t>(w) << (8 * wild);
  const uint64_t filled = g.filled[p] | 1ULL << space;
  g.filled[p] = filled;
  const int star = space / 6;
  if (star == kCentreStar) g.centre_used[p] = static_cast<uint8_t>(g.centre_used[p] | 1 << c);
  g.score[p] += kK.run[(filled >> (6 * star)) & 63][space % 6];
  int owed = 0;
  for (int j = 0; j < 4; ++j) {
    const uint64_t m = kK.ornament_mask[space][j];
    owed += (filled & m) == m ? kK.ornament_tiles[space][j] : 0;
  }
  if (owed && g.supply) {
    g.owed = static_cast<int8_t>(owed);
    g.phase = kBonus;
    return;
  }
  EndTurn(g, p);
}

// A play-phase move.  Uniform: LegalActions(s)[Below(policy, count)].  Light (docs/playouts.md,
// "Rollout policies"): while a placement is possible, Below(policy, kLightPassOdds) == 0 passes, else a
// second draw picks the placement; a pass keeps as many tiles as possible (the last passes in
// KeepSets() order: those of the largest size), one draw among them.
constexpr int kLightPassOdds = 16;

template <int P, bool Light>
void PlayMove(Game<P>& g, uint64_t& policy) {
  const int p = g.turn, wild = g.round - 1;
  const uint64_t hw = g.hand[p];
  const int wilds = Byte(hw, wild);
  const uint64_t empty = ~g.filled[p];
  // Placements, counted star by star (outer stars take one colour each).
  // row[c]: colour c's row of place_count (have 0 counts no placements).
  const uint64_t have6 = CapBytes(hw, 6) + (7ULL << (8 * wild));
  const uint8_t(*rows)[64] = kK.place_count[Min(wilds, 5)];
  const uint8_t* row[kColours];
  for (int c = 0; c < kColours; ++c) row[c] = rows[Byte(have6, c)];
  int stars[6];
  int placements = 0;
  for (int star = 0; star < 6; ++star) {
    stars[star] = row[kStarColour[star]][(empty >> (6 * star)) & 63];
    placements += stars[star];
  }
  const int centre_empty = static_cast<int>((empty >> 36) & 63);
  const int centre_used = g.centre_used[p];
  if (centre_empty) {
    for (int c = 0; c < kColours; ++c)  // a colour already on the centre star: none
      placements += row[c][centre_empty] & ((centre_used >> c & 1) - 1);
  }
  // The hand capped at 4 a colour, as base-5 digits (colour 0 lowest): one multiply forms
  // h0 + 5 h1 + 25 h2 in byte 2 and h3 + 5 h4 + 25 h5 in byte 5, with no carries.
  const uint64_t h4 = CapBytes(hw, 4);
  const uint64_t digits = h4 * (25 | 5 << 8 | 1 << 16);
  const int code = Byte(digits, 2) + 125 * Byte(digits, 5);
  // The running pass counts of the whole hand from those of colours 1-5 (a table 5 times
  // smaller, so it stays in L1): cum0[i] = sum over n <= h0 of cum1[i - n].
  const uint64_t digits1 = (h4 >> 8) * (25 | 5 << 8 | 1 << 16);  // the same for colours 1-5
  const uint64_t cum1 = kK.cum[kK.offset[1] + Byte(digits1, 2) + 125 * Byte(digits1, 5)];
  const uint64_t plain1 = cum1 & ~kGuard;
  const int h0 = Byte(h4, 0);
  // (The sum of shifted copies is one multiply: no lane exceeds 210, so nothing carries.)
  const uint64_t copies = kLane & ((1ULL << (9 * (h0 + 1))) - 1);
  const uint64_t cum0 = ((plain1 * copies) & ((1ULL << 54) - 1)) | kGuard;
  int k;
  if (!Light) {
    k = Below(policy, placements + Lane(cum0, 5));
  } else if (placements && Below(policy, kLightPassOdds) != 0) {
    k = Below(policy, placements);
  } else {
    const int r = Min(ByteSum(h4), 4);  // the largest kept size
    const int smaller = Lane(cum0, r);  // passes keeping fewer tiles
    k = placements + smaller + Below(policy, Lane(cum0, 5) - smaller);
  }
  if (k < placements) {
    // A space's placements of colour c are row[c][its bit]; they are the wild counts lo, lo + 1,
    // ... with lo the tiles the colour lacks (the wild colour itself: 0 wilds only).
    auto place = [&](int space, int c, int nth) {
      const int lack = space % 6 + 1 - Byte(hw, c);
      Place(g, p, space, c, (c != wild && lack > 0 ? lack : 0) + nth);
    };
    for (int star = 0; star < 6; ++star) {
      if (k >= stars[star]) {
        k -= stars[star];
        continue;
      }
      const uint8_t* counts = row[kStarColour[star]];
      for (int bits = static_cast<int>((empty >> (6 * star)) & 63);; bits &= bits - 1) {
        const int n = counts[bits & -bits];
        if (k < n) return place(star * 6 + LowestBit(bits), kStarColour[star], k);
        k -= n;
      }
    }
    for (int bits = centre_empty;; bits &= bits - 1) {
      const int bit = bits & -bits;
      for (int c = 0; c < kColours; ++c) {
        const int n = row[c][bit] & ((centre_used >> c & 1) - 1);
        if (k < n) return place(36 + LowestBit(bits), c, k);
        k -= n;
      }
    }
  }
  // The k-th kept multiset in KeepSets() order: by size, then (combinations_with_replacement)
  // the most of colour 0 first, and so on; counting completions picks each colour's count.
  // The k-th kept multiset, by completions: the size r is the first whose running count of
  // passes exceeds k; then colour c's count n runs down from min(h[c], r), a block of
  // ways[c + 1][r - n] passes each, and the block holding k is the first lane i > r - top whose
  // running sum cum[i] - cum[r - top] exceeds k (then n = r - i + 1); colour 5 takes the rest.
  // Sizes are kept as bit offsets of lanes (9 r), so that the lowest surviving guard bit (at
  // 9 i + 8) gives the next offset 9 (i - 1) by one subtraction.
  k -= placements;
  int r9 = LowestBit(AboveMask(cum0, k, 9)) - 17;
  k -= (cum0 >> r9) & 0xFF;
  uint64_t keep = 0;
  int suffix = code;
  for (int c = 0; c < 3; ++c) {
    suffix /= 5;
    const uint64_t cum = c ? kK.cum[kK.offset[c + 1] + suffix] : cum1;
    const int top9 = 9 * Byte(h4, c), low9 = r9 - (top9 < r9 ? top9 : r9);
    const int base = (cum >> low9) & 0xFF;
    const int next9 = LowestBit(AboveMask(cum, k + base, low9 + 9)) - 17;
    k -= static_cast<int>((cum >> next9) & 0xFF) - base;
    keep |= static_cast<uint64_t>(((r9 - next9) * 57) >> 9) << (8 * c);  // (r9 - next9) / 9
    r9 = next9;
  }
  // Colours 3-5 (suffix: their capped counts) from one table.
  keep |= static_cast<uint64_t>(kK.triples[kK.tail[suffix][(r9 * 57) >> 9][k]]) << 24;
  g.tower += hw - keep;  // bytewise: keep <= hand
  g.score[p] = Clamp(g.score[p] - (ByteSum(hw) - ByteSum(keep)));
  g.hand[p] = keep;
  g.passed = static_cast<uint8_t>(g.passed | 1 << p);
  EndTurn(g, p);
}

template <int P>
void BonusMove(Game<P>& g, uint64_t& policy) {
  const int p = g.turn;
  const int m = Present(g.supply);
  const uint64_t one = One(kK.kth[m][Below(policy, kK.bits[m])]);
  g.supply -= one;
  g.hand[p] += one;
  if (!--g.owed || !g.supply) {
    g.owed = 0;
    EndTurn(g, p);
  }
}

template <int P, bool Light>
uint64_t Run(Game<P>& g, uint64_t& policy_seed) {
  uint64_t policy = policy_seed;  // a local: no aliasing with the game's words
  uint64_t plies = 0;
  for (;;) {
    switch (g.phase) {
      case kAcquire:
        plies += AcquirePhase(g, policy);
        break;
      case kPlay:
        PlayMove<P, Light>(g, policy);
        ++plies;
        break;
      case kBonus:
        BonusMove(g, policy);
        ++plies;
        break;
      default:
        policy_seed = policy;
        return plies;
    }
  }
}

template <int P>
Game<P> NewCompactGame(uint64_t seed) {
  Game<P> g;
  std::memset(&g, 0, sizeof g);
  g.rng = seed;
  g.round = 1;
  g.start = static_cast<int8_t>(Below(g.rng, P));
  g.bag_total = 0;
  g.tower = kTilesPerColour * 0x0000010101010101ULL;  // the whole bag, poured in at once
  Pour(g);
  for (int p = 0; p < P; ++p) g.score[p] = kStartScore;
  DrawInto(g, &g.supply, kSupplySize);
  StartRound(g);
  return g;
}

// The compact game of a full State in phase acquire, play, bonus or over.
template <int P>
Game<P> Compact(const State& s) {
  Game<P> g;
  std::memset(&g, 0, sizeof g);
  g.rng = s.rng;
  g.phase = s.phase;
  g.round = s.round;
  g.turn = s.turn;
  g.start = s.start;
  g.marker = s.marker;
  g.owed = s.owed;
  g.tower = Load(s.bag);  // poured into g.bag below
  Pour(g);
  g.tower = Load(s.tower);
  g.supply = Load(s.supply);
  for (int f = 0; f < Game<P>::kF; ++f) g.source[f] = Load(s.factories[f]);
  g.source[Game<P>::kF] = Load(s.centre);
  for (int src = 0; src <= Game<P>::kF; ++src) SetChoice(g, src);
  for (int p = 0; p < P; ++p) {
    g.score[p] = s.score[p];
    g.hand[p] = Load(s.hand[p]);
    g.filled[p] = s.filled[p];
    for (int k = 36; k < kSpaces; ++k)
      if (s.board[p][k] >= 0) g.centre_used[p] = static_cast<uint8_t>(g.centre_used[p] | 1 << s.board[p][k]);
    if (s.passed[p]) g.passed = static_cast<uint8_t>(g.passed | 1 << p);
  }
  return g;
}

inline bool Compactable(const State& s) {
  return s.phase == kAcquire || s.phase == kPlay || s.phase == kBonus || s.phase == kOver;
}

template <int P, bool Light>
uint64_t Finished(Game<P>& g, uint64_t& policy, int32_t* scores) {
  const uint64_t plies = Run<P, Light>(g, policy);
  for (int p = 0; p < P; ++p) scores[p] = g.score[p];
  return plies;
}

template <int P, bool Light>
uint64_t RandomBatch(int n, uint64_t seed, int threads, int32_t* out, StopCheck stop) {
  return PlayoutBatch(n, P, seed, threads, out, stop, [](uint64_t game_seed, uint64_t& policy, int32_t* scores) {
    Game<P> g = NewCompactGame<P>(game_seed);
    return Finished<P, Light>(g, policy, scores);
  });
}

// (The chance phases before the compact game takes over have no policy of their own: uniform.)
template <int P, bool Light>
uint64_t FromBatch(const State& from, int n, uint64_t seed, int threads, int32_t* out, StopCheck stop) {
  if (Compactable(from)) {
    const Game<P> start = Compact<P>(from);
    return PlayoutBatch(n, P, seed, threads, out, stop, [&](uint64_t game_seed, uint64_t& policy, int32_t* scores) {
      Game<P> g = start;
      g.rng = game_seed;
      return Finished<P, Light>(g, policy, scores);
    });
  }
  // A pending chance node (first player, fill): the full State plays up to the next move,
  // then the compact game takes over.
  return PlayoutBatch(n, P, seed, threads, out, stop, [&](uint64_t game_seed, uint64_t& policy, int32_t* scores) {
    State s = from;
    s.rng = game_seed;
    ResumeSampled(s);
    uint64_t plies = 0;
    while (!Compactable(s)) {
      ApplyAction(s, PickLegalAction(s, policy), nullptr);
      ++plies;
    }
    Game<P> g = Compact<P>(s);
    return plies + Finished<P, Light>(g, policy, scores);
  });
}

}  // namespace

uint64_t RandomPlayouts(int n, int players, uint64_t seed, int threads, int32_t* out, StopCheck stop,
                        Policy policy) {
  const bool light = policy == Policy::kLight;
  switch (players) {
    case 2:
      return light ? RandomBatch<2, true>(n, seed, threads, out, stop)
                   : RandomBatch<2, false>(n, seed, threads, out, stop);
    case 3:
      return light ? RandomBatch<3, true>(n, seed, threads, out, stop)
                   : RandomBatch<3, false>(n, seed, threads, out, stop);
    default:
      return light ? RandomBatch<4, true>(n, seed, threads, out, stop)
                   : RandomBatch<4, false>(n, seed, threads, out, stop);
  }
}

uint64_t PlayoutsFrom(const State& from, int n, uint64_t seed, int threads, int32_t* out,
                      StopCheck stop, Policy policy) {
  const bool light = policy == Policy::kLight;
  switch (from.players) {
    case 2:
      return light ? FromBatch<2, true>(from, n, seed, threads, out, stop)
                   : FromBatch<2, false>(from, n, seed, threads, out, stop);
    case 3:
      return light ? FromBatch<3, true>(from, n, seed, threads, out, stop)
                   : FromBatch<3, false>(from, n, seed, threads, out, stop);
    default:
      return light ? FromBatch<4, true>(from, n, seed, threads, out, stop)
                   : FromBatch<4, false>(from, n, seed, threads, out, stop);
  }
}

}  // namespace sp
}  // namespace azul

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
// The games are exactly those of PlayRandom on the full State (pavilion.cpp): the same moves in
// the same id order, chosen by the same draws from the policy generator, and the same tiles drawn
// from the game's generator in the same order.  tests/test_pavilion_playouts.py compares the two
// over many states and seeds (ReferencePlayoutsFrom keeps the full-State path callable).
#include <cstdint>
#include <cstring>

#include "azul/pavilion.h"
#include "azul/playout.h"
#include "azul/rng.h"

namespace azul {
namespace sp {

namespace {

constexpr uint64_t kHigh = 0x8080808080808080ULL;
constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
constexpr uint64_t kBytes = 0x0101010101010101ULL;
// The bag: lane c (bits 9c..9c+8) holds 256 + the tiles of colours 0..c.
constexpr uint64_t kLane = 1ULL | 1ULL << 9 | 1ULL << 18 | 1ULL << 27 | 1ULL << 36 | 1ULL << 45;
constexpr uint64_t kGuard = kLane << 8;

constexpr int kPow5[7] = {1, 5, 25, 125, 625, 3125, 15625};

struct KernelTables {
  uint8_t bits[64];    // popcount of a 6-bit mask
  uint8_t run[64][6];  // run length through position k of a ring (bit k set)
  // place_count[wild][have][wilds][empty], as in pavilion.cpp.
  uint8_t place_count[2][7][6][64];
  uint64_t ornament_mask[kSpaces][4];  // the ornaments around a space (0: none)
  uint8_t ornament_tiles[kSpaces][4];
  uint64_t star_mask[7];
  uint64_t number_mask[4];
  // Kept multisets of a pass.  ways[c][code][r]: multisets of r tiles from colours c..5 within a
  // hand whose capped counts (at most 4) for colours c..5 are `code` in base 5 (colour c the
  // lowest digit), at offset[c]; c = 6 is the empty suffix.
  uint8_t ways[15625 + 3125 + 625 + 125 + 25 + 5 + 1][5];
  int offset[7];
  uint8_t pass_count[15625];  // multisets of at most 4 tiles within a hand: sum of ways[0][code]

  KernelTables() : bits(), run(), place_count(), ornament_mask(), ornament_tiles(), star_mask(),
                   number_mask(), ways(), offset(), pass_count() {
    for (int m = 0; m < 64; ++m)
      for (int c = 0; c < 6; ++c) bits[m] = static_cast<uint8_t>(bits[m] + (m >> c & 1));
    for (int m = 0; m < 64; ++m)
      for (int k = 0; k < 6; ++k) {
        const int filled = m | 1 << k;
        int len = 1;
        while (len < 6 && filled >> ((k + len) % 6) & 1) ++len;
        if (len < 6) {
          int back = 1;
          while (filled >> ((k - back + 6) % 6) & 1) ++back;
          len += back - 1;
        }
        run[m][k] = static_cast<uint8_t>(len);
      }
    for (int wild = 0; wild < 2; ++wild)
      for (int have = 0; have <= 6; ++have)
        for (int wilds = 0; wilds <= 5; ++wilds)
          for (int m = 0; m < 64; ++m) {
            int count = 0;
            for (int k = 0; k < 6; ++k) {
              if (!(m >> k & 1) || !have) continue;
              const int cost = k + 1;
              if (wild) {
                count += have >= cost;
              } else {
                const int lo = cost > have ? cost - have : 0;
                const int hi = cost - 1 < wilds ? cost - 1 : wilds;
                if (hi >= lo) count += hi - lo + 1;
              }
            }
            place_count[wild][have][wilds][m] = static_cast<uint8_t>(count);
          }
    // Ornaments: windows (3 bonus tiles), statues (2), pillars (1), as in pavilion.cpp.
    auto bit = [](int star, int number) { return 1ULL << (star * 6 + number - 1); };
    uint64_t masks[18];
    int tiles[18];
    for (int s = 0; s < 6; ++s) {
      const int b = (s + 1) % 6;
      masks[s] = bit(s, 5) | bit(s, 6);
      tiles[s] = 3;
      masks[6 + s] = bit(s, 1) | bit(s, 2) | bit(b, 3) | bit(b, 4);
      tiles[6 + s] = 2;
      masks[12 + s] = bit(s, 2) | bit(s, 3) | bit(kCentreStar, (s + 5) % 6 + 1) | bit(kCentreStar, s + 1);
      tiles[12 + s] = 1;
    }
    for (int space = 0; space < kSpaces; ++space) {
      int j = 0;
      for (int i = 0; i < 18; ++i)
        if (masks[i] >> space & 1) {
          ornament_mask[space][j] = masks[i];
          ornament_tiles[space][j] = static_cast<uint8_t>(tiles[i]);
          ++j;
        }
    }
    for (int s = 0; s < 7; ++s) star_mask[s] = 0x3FULL << (6 * s);
    for (int k = 0; k < 4; ++k)
      for (int s = 0; s < 7; ++s) number_mask[k] |= 1ULL << (s * 6 + k);
    for (int c = 0, at = 0; c <= 6; ++c) {
      offset[c] = at;
      at += kPow5[6 - c];
    }
    ways[offset[6]][0] = 1;
    for (int c = 5; c >= 0; --c)
      for (int code = 0; code < kPow5[6 - c]; ++code) {
        const int h = code % 5, rest = code / 5;
        for (int r = 0; r <= 4; ++r) {
          int w = 0;
          for (int n = 0; n <= h && n <= r; ++n) w += ways[offset[c + 1] + rest][r - n];
          ways[offset[c] + code][r] = static_cast<uint8_t>(w);
        }
      }
    for (int code = 0; code < 15625; ++code) {
      int total = 0;
      for (int r = 0; r <= 4; ++r) total += ways[code][r];  // offset[0] == 0
      pass_count[code] = static_cast<uint8_t>(total);
    }
  }
};

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
inline int Clamp(int x) { return x > kMinScore ? x : kMinScore; }
inline int Min(int a, int b) { return a < b ? a : b; }

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
  uint8_t choice[kF + 1];  // phase 1: the colours one may take from each source
  uint8_t weight[kF + 1];  // popcount of choice[]
  uint8_t centre_used[P];  // the colours on each centre star
  int8_t phase, round, turn, start, marker, owed;
  uint8_t passed;  // bit p: player p has passed this round
};

// Colours one may take from a source: those present but the wild one, or only the wild one.
inline int Choice(uint64_t w, int wild) {
  const int present = Present(w), others = present & ~(1 << wild);
  return others ? others : present;
}

template <int P>
inline void SetChoice(Game<P>& g, int src) {
  const int m = Choice(g.source[src], g.round - 1);
  g.offered += kK.bits[m] - g.weight[src];
  g.choice[src] = static_cast<uint8_t>(m);
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

// The tile at a uniform position of the bag (not empty), removed; returns its colour.
template <int P>
inline int Draw(Game<P>& g) {
  const uint64_t k = static_cast<uint64_t>(Below(g.rng, g.bag_total)) + 1;
  const uint64_t t = (g.bag - k * kLane) & kGuard;  // guard kept where prefix >= k
  g.bag -= t >> 8;
  --g.bag_total;
  return __builtin_ctzll(t) / 9;
}

// Draws up to `need` tiles into *into, pouring the tower into the bag when the bag is empty;
// with both empty, stops.  Returns false when it stopped short.
template <int P>
inline bool DrawInto(Game<P>& g, uint64_t* into, int need) {
  uint64_t w = *into;
  for (; need > 0; --need) {
    if (!g.bag_total) {
      Pour(g);
      if (!g.bag_total) {
        *into = w;
        return false;
      }
    }
    w += One(Draw(g));
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
  for (int f = 0; f < Game<P>::kF; ++f) g.source[f] = 0;
  for (int f = 0; f < Game<P>::kF; ++f)
    if (!DrawInto(g, &g.source[f], 4)) break;
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
  int next = -1;
  for (int i = 1; i <= P; ++i) {
    const int q = p + i < P ? p + i : p + i - P;
    if (!(g.passed >> q & 1)) {
      next = q;
      break;
    }
  }
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

template <int P>
void AcquireMove(Game<P>& g, uint64_t& policy) {
  constexpr int kF = Game<P>::kF;
  int k = Below(policy, g.offered);
  int src = 0;
  while (k >= g.weight[src]) k -= g.weight[src++];
  int m = g.choice[src];
  while (k--) m &= m - 1;
  const int c = __builtin_ctz(m), p = g.turn, wild = g.round - 1;
  uint64_t w = g.source[src];
  const int taken_wild = Byte(w, wild) ? 1 : 0;
  int taken = taken_wild;
  uint64_t gain = static_cast<uint64_t>(taken_wild) << (8 * wild);
  if (c != wild) {
    const int n = Byte(w, c);
    taken += n;
    gain += static_cast<uint64_t>(n) << (8 * c);
  }
  w -= gain;
  g.hand[p] += gain;
  if (src == kF) {
    g.source[kF] = w;
    if (g.marker < 0) {
      g.marker = static_cast<int8_t>(p);
      g.score[p] = Clamp(g.score[p] - taken);
    }
  } else {
    g.source[src] = 0;
    g.offered -= g.weight[src];
    g.weight[src] = 0;
    g.choice[src] = 0;
    g.source[kF] += w;
  }
  SetChoice(g, kF);
  if (g.offered) {
    g.turn = static_cast<int8_t>(p + 1 < P ? p + 1 : 0);
  } else {
    g.phase = kPlay;
    g.turn = g.marker >= 0 ? g.marker : g.start;
  }
}

// Placements of colour c on a space costing `cost` are the wild counts lo..hi; returns
// hi - lo + 1 (0: none) and sets *lo.
inline int PlaceRange(int c, int cost, int have, int wild, int wilds, int* lo) {
  if (!have) return 0;
  if (c == wild) {
    *lo = 0;
    return have >= cost;
  }
  *lo = cost > have ? cost - have : 0;
  const int hi = cost - 1 < wilds ? cost - 1 : wilds;
  return hi >= *lo ? hi - *lo + 1 : 0;
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

template <int P>
void PlayMove(Game<P>& g, uint64_t& policy) {
  const int p = g.turn, wild = g.round - 1;
  const uint64_t hw = g.hand[p];
  int hand[kColours];
  for (int c = 0; c < kColours; ++c) hand[c] = Byte(hw, c);
  const int wilds = hand[wild], capped_wilds = Min(wilds, 5);
  const uint64_t empty = ~g.filled[p];
  // Placements, counted star by star (outer stars take one colour each).
  int stars[7];
  int placements = 0;
  for (int star = 0; star < 6; ++star) {
    const int c = kStarColour[star];
    stars[star] = hand[c] ? kK.place_count[c == wild][Min(hand[c], 6)][capped_wilds]
                                          [(empty >> (6 * star)) & 63]
                          : 0;
    placements += stars[star];
  }
  const int centre_empty = static_cast<int>((empty >> 36) & 63);
  const int centre_used = g.centre_used[p];
  if (centre_empty) {
    for (int c = 0; c < kColours; ++c)
      if (!(centre_used >> c & 1) && hand[c])
        placements += kK.place_count[c == wild][Min(hand[c], 6)][capped_wilds][centre_empty];
  }
  int h[kColours], code = 0;
  for (int c = kColours - 1; c >= 0; --c) {
    h[c] = Min(hand[c], 4);
    code = code * 5 + h[c];
  }
  int k = Below(policy, placements + kK.pass_count[code]);
  if (k < placements) {
    int lo = 0;
    for (int star = 0; star < 6; ++star) {
      if (k >= stars[star]) {
        k -= stars[star];
        continue;
      }
      const int c = kStarColour[star];
      for (int bits = static_cast<int>((empty >> (6 * star)) & 63);; bits &= bits - 1) {
        const int j = __builtin_ctz(bits);
        const int n = PlaceRange(c, j + 1, hand[c], wild, wilds, &lo);
        if (k < n) return Place(g, p, star * 6 + j, c, lo + k);
        k -= n;
      }
    }
    for (int bits = centre_empty;; bits &= bits - 1) {
      const int j = __builtin_ctz(bits);
      for (int c = 0; c < kColours; ++c) {
        if (centre_used >> c & 1) continue;
        const int n = PlaceRange(c, j + 1, hand[c], wild, wilds, &lo);
        if (k < n) return Place(g, p, 36 + j, c, lo + k);
        k -= n;
      }
    }
  }
  // The k-th kept multiset in KeepSets() order: by size, then (combinations_with_replacement)
  // the most of colour 0 first, and so on; counting completions picks each colour's count.
  k -= placements;
  int r = 0;
  while (k >= kK.ways[code][r]) k -= kK.ways[code][r++];
  uint64_t keep = 0;
  int suffix = code;
  for (int c = 0; c < kColours && r; ++c) {
    suffix /= 5;
    const uint8_t* rest = kK.ways[kK.offset[c + 1] + suffix];
    int n = Min(h[c], r);
    while (k >= rest[r - n]) k -= rest[r - n--];
    keep |= static_cast<uint64_t>(n) << (8 * c);
    r -= n;
  }
  g.tower += hw - keep;  // bytewise: keep <= hand
  g.score[p] = Clamp(g.score[p] - (ByteSum(hw) - ByteSum(keep)));
  g.hand[p] = keep;
  g.passed = static_cast<uint8_t>(g.passed | 1 << p);
  EndTurn(g, p);
}

template <int P>
void BonusMove(Game<P>& g, uint64_t& policy) {
  const int p = g.turn;
  int m = Present(g.supply);
  int k = Below(policy, kK.bits[m]);
  while (k--) m &= m - 1;
  const uint64_t one = One(__builtin_ctz(m));
  g.supply -= one;
  g.hand[p] += one;
  if (!--g.owed || !g.supply) {
    g.owed = 0;
    EndTurn(g, p);
  }
}

template <int P>
uint64_t Run(Game<P>& g, uint64_t& policy) {
  uint64_t plies = 0;
  for (;;) {
    switch (g.phase) {
      case kAcquire:
        AcquireMove(g, policy);
        break;
      case kPlay:
        PlayMove(g, policy);
        break;
      case kBonus:
        BonusMove(g, policy);
        break;
      default:
        return plies;
    }
    ++plies;
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

template <int P>
int32_t Score(const Game<P>& g, int p) {
  return g.score[p];
}

template <int P>
uint64_t RandomBatch(int n, uint64_t seed, int threads, int32_t* out) {
  return PlayoutBatch(n, P, seed, threads, out, NewCompactGame<P>, Run<P>, Score<P>);
}

template <int P>
uint64_t FromBatch(const State& from, int n, uint64_t seed, int threads, int32_t* out) {
  if (Compactable(from)) {
    const Game<P> start = Compact<P>(from);
    auto reseed = [&](uint64_t game_seed) {
      Game<P> g = start;
      g.rng = game_seed;
      return g;
    };
    return PlayoutBatch(n, P, seed, threads, out, reseed, Run<P>, Score<P>);
  }
  // A pending chance node (first player, fill): the full State plays up to the next move,
  // then the compact game takes over.
  auto reseed = [&](uint64_t game_seed) {
    State s = from;
    s.rng = game_seed;
    return s;
  };
  auto play = [](State& s, uint64_t& policy) {
    ResumeSampled(s);
    uint64_t plies = 0;
    while (!Compactable(s)) {
      Play(s, PickLegalAction(s, policy), nullptr);
      ++plies;
    }
    Game<P> g = Compact<P>(s);
    plies += Run(g, policy);
    for (int p = 0; p < P; ++p) s.score[p] = g.score[p];
    return plies;
  };
  auto score = [](const State& s, int p) { return s.score[p]; };
  return PlayoutBatch(n, P, seed, threads, out, reseed, play, score);
}

}  // namespace

uint64_t RandomPlayouts(int n, int players, uint64_t seed, int threads, int32_t* out) {
  switch (players) {
    case 2:
      return RandomBatch<2>(n, seed, threads, out);
    case 3:
      return RandomBatch<3>(n, seed, threads, out);
    default:
      return RandomBatch<4>(n, seed, threads, out);
  }
}

uint64_t PlayoutsFrom(const State& from, int n, uint64_t seed, int threads, int32_t* out) {
  switch (from.players) {
    case 2:
      return FromBatch<2>(from, n, seed, threads, out);
    case 3:
      return FromBatch<3>(from, n, seed, threads, out);
    default:
      return FromBatch<4>(from, n, seed, threads, out);
  }
}

}  // namespace sp
}  // namespace azul

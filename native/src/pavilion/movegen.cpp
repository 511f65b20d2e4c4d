// Azul: Summer Pavilion: move generation, legality with messages, moves, fills, scoring and
// random playouts (rules.md section 3).
// The pure-Python twin is python/azul_engine/_pypavilion.py ("move generation", "moves",
// "filling", "random playouts"): the same checks in the same order, the same draws.
#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "azul/common/bits.h"
#include "azul/pavilion/pavilion.h"
#include "azul/classic/playout.h"
#include "azul/common/rng.h"

namespace azul {
namespace sp {

namespace {

constexpr int kOrnaments = 18;
constexpr uint64_t kHigh = 0x8080808080808080ULL;

inline int Space(int star, int number) { return star * 6 + number - 1; }

struct Tables {
  uint8_t keep[kNumKeepSets][kColours];
  // fits[c][v]: bit k (of 256) set when kept multiset k holds at most v tiles of colour c; the
  // multisets a hand can keep are the AND of fits[c][its count of c, capped at 4] over c.
  uint64_t fits[kColours][5][4];
  uint64_t expand[256];  // byte b set to 1 for each set bit b
  uint8_t pass_count[15625];           // by hand capped at 4 per colour, base 5
  int16_t keep_index[15625];           // index in keep[] of counts (each <= 4) in base 5, or -1
  uint8_t bits[64];                    // popcount of a 6-bit mask
  uint8_t run[64][6];                  // run length through position k of a ring (bit k set)
  uint64_t ornament_mask[kOrnaments];
  int ornament_tiles[kOrnaments];
  int8_t ornaments_of[kSpaces][4];  // ornaments around a space, -1 terminated
  uint64_t star_mask[7];
  uint64_t number_mask[6];
  // place_count[wild][have][wilds][empty]: placements of one colour into the empty spaces
  // (6-bit mask, bit k = space k+1) of a star; have capped at 6, wilds at 5.
  uint8_t place_count[2][7][6][64];

  Tables() : keep(), fits(), expand(), pass_count(), keep_index(), bits(), run(), ornament_mask(), ornament_tiles(),
             ornaments_of(), star_mask(), number_mask(), place_count() {
    int n = 0;
    for (int size = 0; size <= 4; ++size) {
      // combinations_with_replacement(range(6), size) in lexicographic order
      int combo[4] = {0, 0, 0, 0};
      while (true) {
        uint8_t counts[kColours] = {0, 0, 0, 0, 0, 0};
        for (int i = 0; i < size; ++i) ++counts[combo[i]];
        std::memcpy(keep[n], counts, kColours);
        for (int c = 0; c < kColours; ++c)
          for (int v = counts[c]; v <= 4; ++v) fits[c][v][n / 64] |= uint64_t{1} << (n % 64);
        ++n;
        int i = size - 1;
        while (i >= 0 && combo[i] == kColours - 1) --i;
        if (i < 0) break;
        ++combo[i];
        for (int j = i + 1; j < size; ++j) combo[j] = combo[i];
      }
    }
    for (int m = 0; m < 256; ++m)
      for (int b = 0; b < 8; ++b)
        if (m >> b & 1) expand[m] |= uint64_t{1} << (8 * b);
    for (int index = 0; index < 15625; ++index) keep_index[index] = -1;
    for (int k = 0; k < kNumKeepSets; ++k) {
      int code = 0;
      for (int c = kColours - 1; c >= 0; --c) code = code * 5 + keep[k][c];
      keep_index[code] = static_cast<int16_t>(k);
    }
    for (int m = 0; m < 64; ++m)
      for (int c = 0; c < 6; ++c) bits[m] = static_cast<uint8_t>(bits[m] + (m >> c & 1));
    for (int index = 0; index < 15625; ++index) {
      int h[kColours], x = index;
      for (int c = 0; c < kColours; ++c) {
        h[c] = x % 5;
        x /= 5;
      }
      // Coefficients of prod_c (1 + x + ... + x^h[c]) up to x^4: kept multisets by size.
      int poly[5] = {1, 0, 0, 0, 0};
      for (int c = 0; c < kColours; ++c)
        for (int d = 4; d >= 0; --d)
          for (int j = 1; j <= h[c] && j <= d; ++j) poly[d] += poly[d - j];
      pass_count[index] = static_cast<uint8_t>(poly[0] + poly[1] + poly[2] + poly[3] + poly[4]);
    }
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
    int o = 0;
    for (int s = 0; s < 6; ++s, ++o) {
      ornament_mask[o] = 1ULL << Space(s, 5) | 1ULL << Space(s, 6);
      ornament_tiles[o] = 3;
    }
    for (int s = 0; s < 6; ++s, ++o) {
      const int b = (s + 1) % 6;
      ornament_mask[o] = 1ULL << Space(s, 1) | 1ULL << Space(s, 2) | 1ULL << Space(b, 3) |
                         1ULL << Space(b, 4);
      ornament_tiles[o] = 2;
    }
    for (int s = 0; s < 6; ++s, ++o) {
      ornament_mask[o] = 1ULL << Space(s, 2) | 1ULL << Space(s, 3) |
                         1ULL << Space(kCentreStar, (s + 5) % 6 + 1) |
                         1ULL << Space(kCentreStar, s + 1);
      ornament_tiles[o] = 1;
    }
    for (int sp = 0; sp < kSpaces; ++sp) {
      int j = 0;
      for (int i = 0; i < kOrnaments; ++i)
        if (ornament_mask[i] >> sp & 1) ornaments_of[sp][j++] = static_cast<int8_t>(i);
      while (j < 4) ornaments_of[sp][j++] = -1;
    }
    for (int s = 0; s < 7; ++s) star_mask[s] = 0x3FULL << (6 * s);
    for (int k = 0; k < 6; ++k) {
      number_mask[k] = 0;
      for (int s = 0; s < 7; ++s) number_mask[k] |= 1ULL << (s * 6 + k);
    }
    for (int wild = 0; wild < 2; ++wild)
      for (int have = 0; have <= 6; ++have)
        for (int wilds = 0; wilds <= 5; ++wilds)
          for (int m = 0; m < 64; ++m) {
            place_count[wild][have][wilds][m] =
                static_cast<uint8_t>(SpacePlacements(wild, have, wilds, m));
          }
  }
};

const Tables kT;

inline uint64_t Word(const uint8_t* c) {
  uint64_t w;
  std::memcpy(&w, c, 8);
  return w;
}
inline void SetWord(uint8_t* c, uint64_t w) { std::memcpy(c, &w, 8); }
inline bool Any6(const uint8_t* c) { return Word(c) != 0; }
inline int Sum6(const uint8_t* c) { return c[0] + c[1] + c[2] + c[3] + c[4] + c[5]; }
// 0x80 in byte c when c < 6 and counts[c] > 0 (the two padding bytes are zero).
inline uint64_t PresentHigh(uint64_t w) {
  const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
  return (((w & low7) + low7) | w) & kHigh;
}
inline int ColourMask(const uint8_t* c) {
  // Gather the high bits of the bytes into bits 0-7.
  return static_cast<int>(((PresentHigh(Word(c)) >> 7) * 0x0102040810204080ULL) >> 56);
}

int Clamp(int x) { return x > kMinScore ? x : kMinScore; }

std::string Str(int x) { return std::to_string(x); }

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

std::string OrnamentName(int i) {
  const int kind = i / 6, s = i % 6;
  std::string star(1, kStarLetters[s]);
  if (kind == 1) return "statue " + star + "-" + kStarLetters[(s + 1) % 6];
  return (kind == 0 ? "window " : "pillar ") + star;
}

void ContinueFill(State& s, History* h);

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
    // Bag and tower were both empty: nothing to acquire, phase 2 starts at once (README decision).
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

void Finish(State& s, History* h) {
  for (int p = 0; p < s.players; ++p) {
    const uint64_t filled = s.filled[p];
    int star_points = 0, number_points = 0, stars_done = 0, numbers_done = 0;
    for (int st = 0; st < 7; ++st)
      if ((filled & kT.star_mask[st]) == kT.star_mask[st]) {
        star_points += kStarBonus[st];
        stars_done |= 1 << st;
      }
    for (int n = 0; n < 4; ++n)
      if ((filled & kT.number_mask[n]) == kT.number_mask[n]) {
        number_points += kNumberBonus[n];
        numbers_done |= 1 << n;
      }
    const int before = s.score[p];
    const int kept = Sum6(s.hand[p]);
    const int after = Clamp(before + star_points + number_points - kept);
    s.score[p] = after;
    if (h && h->capture && !h->sheet.empty()) {
      std::string stars, numbers;
      for (int st = 0; st < 7; ++st)
        if (stars_done >> st & 1) stars += kStarLetters[st];
      for (int n = 0; n < 4; ++n)
        if (numbers_done >> n & 1) numbers += (numbers.empty() ? "" : ", ") + Str(n + 1);
      h->sheet.back().push_back(
          "{\"event\": \"end\", \"player\": " + Str(p) + ", \"stars\": " + Quote(stars) +
          ", \"star_points\": " + Str(star_points) + ", \"numbers\": [" + numbers +
          "], \"number_points\": " + Str(number_points) + ", \"kept\": " + Str(kept) +
          ", \"before\": " + Str(before) + ", \"after\": " + Str(after) + "}");
    }
  }
  s.phase = kOver;
  s.turn = kChance;
  s.next = -1;
}

// After a phase-2 turn: the next player who has not passed, then the supply refill (except
// after the game's very last turn).
void EndTurn(State& s, int p, History* h) {
  s.phase = kPlay;
  const int n = s.players;
  int nxt = -1;
  for (int i = 1; i <= n; ++i) {
    const int q = (p + i) % n;
    if (!s.passed[q]) {
      nxt = q;
      break;
    }
  }
  if (nxt < 0) {
    if (h && h->complete && !h->rounds.empty())
      h->rounds.back().scores.assign(s.score, s.score + s.players);
    if (s.round == kRounds) {
      Finish(s, h);
      return;
    }
  }
  s.next = static_cast<int8_t>(nxt);
  s.phase = kFill;
  s.fill = kFillRefill;
  s.turn = kChance;
  ContinueFill(s, h);
}

void Acquire(State& s, int action, History* h) {
  const int source = action / 6, c = action % 6, p = s.turn, wild = s.round - 1;
  uint8_t* tiles = source == kCentre ? s.centre : s.factories[source];
  uint8_t* hand = s.hand[p];
  // The source's counts as one word (bytes 0-5), changed and stored whole: no byte stores
  // followed by a word load (a store-forwarding stall).
  uint64_t w = Word(tiles);
  const int taken_wild = (w >> (8 * wild)) & 0xFF ? 1 : 0;
  int taken = 0;
  if (c != wild) {
    taken = static_cast<int>((w >> (8 * c)) & 0xFF);
    w &= ~(0xFFULL << (8 * c));
    hand[c] = static_cast<uint8_t>(hand[c] + taken);
  }
  w -= static_cast<uint64_t>(taken_wild) << (8 * wild);
  hand[wild] = static_cast<uint8_t>(hand[wild] + taken_wild);
  taken += taken_wild;
  bool on_offer;
  if (source == kCentre) {
    SetWord(s.centre, w);
    on_offer = w != 0;
  } else {
    SetWord(tiles, 0);
    const uint64_t centre = Word(s.centre) + w;  // no byte carries: counts stay below 256
    SetWord(s.centre, centre);
    on_offer = centre != 0;
  }
  for (int f = 0; !on_offer && f < s.num_factories; ++f) on_offer = Any6(s.factories[f]);
  if (source == kCentre) {
    if (s.marker < 0) {
      s.marker = static_cast<int8_t>(p);
      const int before = s.score[p], after = Clamp(before - taken);
      s.score[p] = after;
      if (h && h->capture && !h->sheet.empty())
        h->sheet.back().push_back("{\"event\": \"start-token\", \"player\": " + Str(p) +
                                  ", \"tiles\": " + Str(taken) + ", \"before\": " + Str(before) +
                                  ", \"after\": " + Str(after) + "}");
    }
  }
  if (on_offer) {
    s.turn = static_cast<int8_t>((p + 1) % s.players);
  } else {
    s.phase = kPlay;
    s.turn = s.marker >= 0 ? s.marker : s.start;
  }
}

void PlaceTile(State& s, int action, History* h) {
  const int p = s.turn, a = action - kPlaceActionBase;
  const int space = a / 36, rest = a % 36, c = rest / 6, w = rest % 6;
  const int cost = space % 6 + 1, wild = s.round - 1;
  uint8_t* hand = s.hand[p];
  hand[c] = static_cast<uint8_t>(hand[c] - (cost - w));
  hand[wild] = static_cast<uint8_t>(hand[wild] - w);
  s.tower[c] = static_cast<uint8_t>(s.tower[c] + cost - w - 1);
  s.tower[wild] = static_cast<uint8_t>(s.tower[wild] + w);
  s.board[p][space] = static_cast<int8_t>(c);
  const uint64_t filled = s.filled[p] | 1ULL << space;
  s.filled[p] = filled;
  const int star = space / 6;
  const int run = kT.run[(filled >> (6 * star)) & 63][space % 6];
  const int before = s.score[p];
  s.score[p] = before + run;
  int owed = 0;
  for (int j = 0; j < 4; ++j) {
    const int i = kT.ornaments_of[space][j];
    if (i < 0) break;
    if ((filled & kT.ornament_mask[i]) == kT.ornament_mask[i]) owed += kT.ornament_tiles[i];
  }
  if (h && h->capture && !h->sheet.empty()) {
    std::string names;
    for (int j = 0; j < 4; ++j) {
      const int i = kT.ornaments_of[space][j];
      if (i < 0) break;
      if ((filled & kT.ornament_mask[i]) == kT.ornament_mask[i]) {
        if (!names.empty()) names += ", ";
        names += Quote(OrnamentName(i));
      }
    }
    h->sheet.back().push_back(
        "{\"event\": \"place\", \"player\": " + Str(p) + ", \"star\": " +
        Quote(std::string(1, kStarLetters[star])) + ", \"space\": " + Str(cost) +
        ", \"colour\": " + Quote(std::string(1, kColourLetters[c])) + ", \"wilds\": " + Str(w) +
        ", \"run\": " + Str(run) + ", \"points\": " + Str(run) + ", \"before\": " + Str(before) +
        ", \"after\": " + Str(before + run) + ", \"ornaments\": [" + names +
        "], \"bonus_tiles\": " + Str(owed) + "}");
  }
  if (owed && Any6(s.supply)) {
    s.owed = static_cast<int8_t>(owed);
    s.phase = kBonus;
    return;
  }
  EndTurn(s, p, h);
}

void Pass(State& s, int keep_index, History* h) {
  const int p = s.turn;
  const uint8_t* keep = kT.keep[keep_index];
  uint8_t* hand = s.hand[p];
  int discarded = 0;
  for (int c = 0; c < kColours; ++c) {
    const int d = hand[c] - keep[c];
    discarded += d;
    s.tower[c] = static_cast<uint8_t>(s.tower[c] + d);
    hand[c] = keep[c];
  }
  const int before = s.score[p], after = Clamp(before - discarded);
  s.score[p] = after;
  s.passed[p] = 1;
  if (h && h->capture && !h->sheet.empty())
    h->sheet.back().push_back("{\"event\": \"pass\", \"player\": " + Str(p) + ", \"kept\": " +
                              Quote(TilesToStr(keep)) + ", \"discarded\": " + Str(discarded) +
                              ", \"before\": " + Str(before) + ", \"after\": " + Str(after) + "}");
  EndTurn(s, p, h);
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

void CheckAcquire(const State& s, int action) {
  const int source = action / 6, c = action % 6, wild = s.round - 1;
  const uint8_t* tiles;
  // Messages are built only for a refused move: a legal one allocates nothing.
  auto where = [&] { return source == kCentre ? std::string("the centre") : "factory " + Str(source + 1); };
  if (source == kCentre) {
    tiles = s.centre;
  } else {
    const int nf = s.num_factories;
    if (source >= nf)
      throw IllegalMove("factory " + Str(source + 1) + " does not exist with " + Str(s.players) +
                        " players (factories 1-" + Str(nf) + ")");
    tiles = s.factories[source];
    if (!Any6(tiles)) throw IllegalMove("factory " + Str(source + 1) + " is empty");
  }
  if (!tiles[c]) throw IllegalMove(where() + " has no " + kColourNames[c]);
  if (c == wild) {
    bool others = false;
    for (int x = 0; x < kColours; ++x) others = others || (x != wild && tiles[x]);
    if (others)
      throw IllegalMove(std::string(kColourNames[c]) +
                        " is this round's wild colour: it cannot be chosen while " + where() +
                        " holds other colours (one wild tile comes with them)");
  }
}

void CheckPlace(const State& s, int action) {
  const int p = s.turn, a = action - kPlaceActionBase;
  const int space = a / 36, rest = a % 36, c = rest / 6, w = rest % 6;
  const int star = space / 6, cost = space % 6 + 1;
  // Messages are built only for a refused move: a legal one allocates nothing.
  auto where = [&] { return std::string(kStarNames[star]) + " star space " + Str(cost); };
  const int8_t* board = s.board[p];
  const uint8_t* hand = s.hand[p];
  const int wild = s.round - 1;
  const std::string_view name = kColourNames[c];
  if (board[space] >= 0) throw IllegalMove(where() + " is already covered");
  if (star < 6) {
    if (c != kStarColour[star])
      throw IllegalMove(std::string("the ") + kStarNames[star] + " star takes only " +
                        kColourNames[kStarColour[star]] + " tiles");
  } else {
    for (int k = 36; k < 42; ++k)
      if (board[k] == c)
        throw IllegalMove("the centre star already holds " + std::string(name) +
                          ": its six tiles must all differ");
  }
  if (c == wild) {
    if (w)
      throw IllegalMove(std::string(name) + " is this round's wild colour: placing it pays all " +
                        Str(cost) + " tiles in " + std::string(name) + ", written with 0 wild tiles");
    if (hand[c] < cost)
      throw IllegalMove(where() + " costs " + Str(cost) + " " + std::string(name) + "; player " +
                        Str(p) + " has " + Str(hand[c]));
    return;
  }
  if (w >= cost)
    throw IllegalMove(where() + " costs " + Str(cost) + " tiles: at most " + Str(cost - 1) +
                      " of them wild, since one real " + std::string(name) + " tile is placed");
  if (hand[c] < cost - w)
    throw IllegalMove(where() + " with " + Str(w) + " wild tile" + (w == 1 ? "" : "s") + " needs " +
                      Str(cost - w) + " " + std::string(name) + "; player " + Str(p) + " has " +
                      Str(hand[c]));
  if (hand[wild] < w)
    throw IllegalMove("player " + Str(p) + " has " + Str(hand[wild]) + " wild tile" +
                      (hand[wild] == 1 ? "" : "s") + " (" + kColourNames[wild] + "), not " +
                      Str(w));
}

inline int Cap(int x, int cap) { return x < cap ? x : cap; }

// Placements as groups of consecutive ids base+lo .. base+hi, one per (space, colour), in id
// order; `visit(base, lo, hi)` returns true to stop.
template <typename Visit>
void ForEachPlacement(const State& s, Visit visit) {
  const int p = s.turn, wild = s.round - 1;
  const uint8_t* hand = s.hand[p];
  const int wilds = hand[wild];
  const int8_t* board = s.board[p];
  int centre_used = 0;
  for (int k = 0; k < 6; ++k)
    if (board[36 + k] >= 0) centre_used |= 1 << board[36 + k];
  uint64_t empty = ~s.filled[p] & ((1ULL << kSpaces) - 1);
  // A coloured star gives nothing without its colour in hand (the skip below, star-wide).
  for (int star = 0; star < kCentreStar; ++star)
    if (!hand[kStarColour[star]]) empty &= ~kT.star_mask[star];
  while (empty) {
    const int space = LowestBit(empty);
    empty &= empty - 1;
    const int star = space / 6, cost = space % 6 + 1;
    const int first = star < 6 ? kStarColour[star] : 0, last = star < 6 ? first : 5;
    for (int c = first; c <= last; ++c) {
      if (star == kCentreStar && (centre_used >> c & 1)) continue;
      const int have = hand[c];
      if (!have) continue;
      const int base = kPlaceActionBase + (space * 6 + c) * 6;
      if (c == wild) {
        if (have >= cost && visit(base, 0, 0)) return;
        continue;
      }
      const int lo = cost > have ? cost - have : 0;
      const int hi = cost - 1 < wilds ? cost - 1 : wilds;
      if (hi >= lo && visit(base, lo, hi)) return;
    }
  }
}

inline int PassCount(const uint8_t* hand) {
  int index = 0;
  for (int c = kColours - 1; c >= 0; --c) index = index * 5 + Cap(hand[c], 4);
  return kT.pass_count[index];
}

// The k-th kept multiset (in KeepSets() order) that `hand` can keep, as its index.  Sets come
// by size, and within a size in descending lexicographic order of their counts (that is
// combinations_with_replacement's order), so counting completions picks each colour's count.
int KthKeep(const uint8_t* hand, int k) {
  int h[kColours];
  for (int c = 0; c < kColours; ++c) h[c] = Cap(hand[c], 4);
  // ways[c][r]: multisets of r tiles from colours c..5 within the hand.
  int ways[kColours + 1][5];
  ways[kColours][0] = 1;
  for (int r = 1; r <= 4; ++r) ways[kColours][r] = 0;
  for (int c = kColours - 1; c >= 0; --c)
    for (int r = 0; r <= 4; ++r) {
      int w = 0;
      for (int n = 0; n <= h[c] && n <= r; ++n) w += ways[c + 1][r - n];
      ways[c][r] = w;
    }
  int r = 0;
  while (k >= ways[0][r]) k -= ways[0][r++];
  int code = 0, scale = 1;
  for (int c = 0; c < kColours; ++c, scale *= 5) {
    int n = h[c] < r ? h[c] : r;
    while (k >= ways[c + 1][r - n]) k -= ways[c + 1][r - n--];
    code += n * scale;
    r -= n;
  }
  return kT.keep_index[code];
}

int PlacementCount(const State& s) {
  const int p = s.turn, wild = s.round - 1;
  const uint8_t* hand = s.hand[p];
  const int wilds = Cap(hand[wild], 5);
  const uint64_t empty = ~s.filled[p];
  int n = 0;
  for (int star = 0; star < 6; ++star) {
    const int c = kStarColour[star];
    if (!hand[c]) continue;
    n += kT.place_count[c == wild][Cap(hand[c], 6)][wilds][(empty >> (6 * star)) & 63];
  }
  const int centre_empty = static_cast<int>((empty >> 36) & 63);
  if (centre_empty) {
    int centre_used = 0;
    const int8_t* board = s.board[p];
    for (int k = 0; k < 6; ++k)
      if (board[36 + k] >= 0) centre_used |= 1 << board[36 + k];
    for (int c = 0; c < kColours; ++c) {
      if ((centre_used >> c & 1) || !hand[c]) continue;
      n += kT.place_count[c == wild][Cap(hand[c], 6)][wilds][centre_empty];
    }
  }
  return n;
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

// The k-th placement (k < PlacementCount(s)) in id order: whole outer stars are skipped by
// their counts; ids go space by space, and on the centre star colour by colour in a space.
int KthPlacement(const State& s, int k) {
  const int p = s.turn, wild = s.round - 1;
  const uint8_t* hand = s.hand[p];
  const int wilds = hand[wild];
  const uint64_t empty = ~s.filled[p];
  int lo = 0;
  for (int star = 0; star < 6; ++star) {
    const int c = kStarColour[star], have = hand[c];
    if (!have) continue;
    const int m = static_cast<int>((empty >> (6 * star)) & 63);
    const int count = kT.place_count[c == wild][Cap(have, 6)][Cap(wilds, 5)][m];
    if (k >= count) {
      k -= count;
      continue;
    }
    for (int bits = m;; bits &= bits - 1) {
      const int j = LowestBit(bits);
      const int n = PlaceRange(c, j + 1, have, wild, wilds, &lo);
      if (k < n) return kPlaceActionBase + ((star * 6 + j) * 6 + c) * 6 + lo + k;
      k -= n;
    }
  }
  int used = 0;
  const int8_t* board = s.board[p];
  for (int j = 0; j < 6; ++j)
    if (board[36 + j] >= 0) used |= 1 << board[36 + j];
  for (int bits = static_cast<int>((empty >> 36) & 63);; bits &= bits - 1) {
    const int j = LowestBit(bits);
    for (int c = 0; c < kColours; ++c) {
      if (used >> c & 1) continue;
      const int n = PlaceRange(c, j + 1, hand[c], wild, wilds, &lo);
      if (k < n) return kPlaceActionBase + ((36 + j) * 6 + c) * 6 + lo + k;
      k -= n;
    }
  }
}

}  // namespace

const uint8_t (*KeepSets())[kColours] { return kT.keep; }

int KeepIndex(const int* counts) {
  for (int k = 0; k < kNumKeepSets; ++k) {
    bool same = true;
    for (int c = 0; c < kColours; ++c) same = same && kT.keep[k][c] == counts[c];
    if (same) return k;
  }
  return -1;
}

bool operator==(const State& a, const State& b) {
  if (a.players != b.players || a.explicit_chance != b.explicit_chance || a.seed != b.seed ||
      a.rng != b.rng || a.round != b.round || a.phase != b.phase || a.fill != b.fill ||
      a.turn != b.turn || a.start != b.start || a.marker != b.marker || a.moves != b.moves ||
      a.next != b.next || a.owed != b.owed)
    return false;
  if (std::memcmp(a.factories, b.factories, sizeof a.factories) ||
      std::memcmp(a.centre, b.centre, 8) || std::memcmp(a.supply, b.supply, 8) ||
      std::memcmp(a.refill, b.refill, 8) || std::memcmp(a.bag, b.bag, 8) ||
      std::memcmp(a.tower, b.tower, 8) || std::memcmp(a.prefill_bag, b.prefill_bag, 8) ||
      std::memcmp(a.prefill_tower, b.prefill_tower, 8))
    return false;
  for (int p = 0; p < a.players; ++p)
    if (a.score[p] != b.score[p] || std::memcmp(a.hand[p], b.hand[p], 8) ||
        std::memcmp(a.board[p], b.board[p], kSpaces) || a.passed[p] != b.passed[p])
      return false;
  return true;
}

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

namespace {

// Eight int16 lanes (GCC/Clang vector extension: SSE2 on x86-64, NEON on ARM).
typedef int16_t Lanes8 __attribute__((vector_size(16)));
constexpr int16_t kIota[8] = {0, 1, 2, 3, 4, 5, 6, 7};

// kRun.bytes[lo][hi]: bytes lo..hi set to 1 (the mask bytes of a placement group).
struct RunBytes {
  uint64_t bytes[6][6];
  constexpr RunBytes() : bytes() {
    for (int lo = 0; lo < 6; ++lo)
      for (int hi = lo; hi < 6; ++hi)
        for (int w = lo; w <= hi; ++w) bytes[lo][hi] |= uint64_t{1} << (8 * w);
  }
};
constexpr RunBytes kRun;

// LegalActions, and with kMask each listed id's byte of `mask` (zero on entry) set to 1.
template <bool kMask>
int ListLegal(const State& s, int16_t* out, uint8_t* mask) {
  int n = 0;
  switch (s.phase) {
    case kPlay: {
      // A group's ids (at most 6) with one 8-wide store, and its mask bytes with one 8-byte
      // store (the 2 bytes past the group belong to later groups, written after it, or stay 0).
      ForEachPlacement(s, [&](int base, int lo, int hi) {
        Lanes8 ids;
        std::memcpy(&ids, kIota, sizeof ids);
        ids += static_cast<int16_t>(base + lo);
        std::memcpy(out + n, &ids, sizeof ids);
        n += hi - lo + 1;
        if (kMask) std::memcpy(mask + base, &kRun.bytes[lo][hi], 8);
        return false;
      });
      // The passes: the kept multisets the hand holds, ascending, from their bitset.
      const uint8_t* hand = s.hand[s.turn];
      for (int w = 0; w < 4; ++w) {
        uint64_t bits = ~uint64_t{0};
        for (int c = 0; c < kColours; ++c) bits &= kT.fits[c][Cap(hand[c], 4)][w];
        if (kMask)  // 8 ids a byte, up to id 1793 (ids past the passes are draws: 0 here)
          for (int b = 0; b < 8 && 64 * w + 8 * b < kNumKeepSets; ++b)
            std::memcpy(mask + kPassActionBase + 64 * w + 8 * b, &kT.expand[bits >> (8 * b) & 255],
                        8);
        for (; bits; bits &= bits - 1)
          out[n++] = static_cast<int16_t>(kPassActionBase + 64 * w + LowestBit(bits));
      }
      return n;
    }
    case kAcquire: {
      const int wild = s.round - 1;
      for (int src = 0; src <= s.num_factories; ++src) {
        const uint8_t* tiles = src == s.num_factories ? s.centre : s.factories[src];
        const int source = src == s.num_factories ? kCentre : src;
        bool only_wild = true;
        for (int c = 0; c < kColours; ++c)
          if (tiles[c] && c != wild) {
            out[n++] = static_cast<int16_t>(source * 6 + c);
            only_wild = false;
          }
        if (only_wild && tiles[wild]) out[n++] = static_cast<int16_t>(source * 6 + wild);
      }
      break;
    }
    case kBonus:
      for (int c = 0; c < kColours; ++c)
        if (s.supply[c]) out[n++] = static_cast<int16_t>(kBonusActionBase + c);
      break;
    case kFill:
      for (int c = 0; c < kColours; ++c)
        if (s.bag[c]) out[n++] = static_cast<int16_t>(kDrawActionBase + c);
      break;
    case kFirstPlayer:
      for (int p = 0; p < s.players; ++p) out[n++] = static_cast<int16_t>(kFirstPlayerActionBase + p);
      break;
    default:
      break;
  }
  if (kMask)
    for (int k = 0; k < n; ++k) mask[out[k]] = 1;
  return n;
}

}  // namespace

int LegalActions(const State& s, int16_t* out) { return ListLegal<false>(s, out, nullptr); }

int LegalActionsAndMask(const State& s, int16_t* out, uint8_t* mask) {
  return ListLegal<true>(s, out, mask);
}


std::vector<int> LegalActionList(const State& s) {
  int16_t buf[kNumActions];
  const int n = LegalActions(s, buf);
  return std::vector<int>(buf, buf + n);
}

int PickLegalAction(const State& s, uint64_t& policy) {
  switch (s.phase) {
    case kPlay: {
      const int placements = PlacementCount(s);
      const int passes = PassCount(s.hand[s.turn]);
      const int k = Below(policy, placements + passes);
      if (k < placements) return KthPlacement(s, k);
      return kPassActionBase + KthKeep(s.hand[s.turn], k - placements);
    }
    case kAcquire: {
      const int wild = s.round - 1, nf = s.num_factories;
      int mask[kMaxFactories + 1], weight[kMaxFactories + 1];
      int n = 0;
      for (int src = 0; src <= nf; ++src) {
        const int m = ColourMask(src == nf ? s.centre : s.factories[src]);
        const int others = m & ~(1 << wild);
        mask[src] = others ? others : m;  // a source of only wild tiles gives the wild colour
        weight[src] = kT.bits[mask[src]];
        n += weight[src];
      }
      // n > 0: phase 1 is entered only with tiles on offer (FillDone; from_text checks it).
      int k = Below(policy, n);
      int src = 0;
      while (k >= weight[src]) k -= weight[src++];
      int m = mask[src];
      while (k--) m &= m - 1;
      return (src == nf ? kCentre : src) * 6 + LowestBit(m);
    }
    default: {
      int16_t buf[kNumActions];
      return buf[Below(policy, LegalActions(s, buf))];
    }
  }
}

std::vector<std::pair<int, double>> ChanceOutcomes(const State& s) {
  std::vector<std::pair<int, double>> out;
  if (s.phase == kFill) {
    const double total = Sum6(s.bag);
    for (int c = 0; c < kColours; ++c)
      if (s.bag[c]) out.emplace_back(kDrawActionBase + c, s.bag[c] / total);
    return out;
  }
  if (s.phase == kFirstPlayer) {
    for (int p = 0; p < s.players; ++p)
      out.emplace_back(kFirstPlayerActionBase + p, 1.0 / s.players);
    return out;
  }
  throw IllegalMove(std::string("not a chance node (phase ") + kPhaseNames[s.phase] + ")");
}

void CheckLegal(const State& s, int action) {
  const int phase = s.phase;
  if (phase == kOver) throw IllegalMove("game is over");
  if (phase == kFirstPlayer || phase == kFill) {
    if (phase == kFill && action >= kDrawActionBase && action < kFirstPlayerActionBase) {
      const int c = action - kDrawActionBase;
      if (!s.bag[c]) throw IllegalMove(std::string("the bag has no ") + kColourNames[c]);
      return;
    }
    if (phase == kFirstPlayer && action >= kFirstPlayerActionBase) {
      const int seat = action - kFirstPlayerActionBase;
      if (seat >= s.players)
        throw IllegalMove("seat " + Str(seat) + " does not exist with " + Str(s.players) +
                          " players");
      return;
    }
    throw IllegalMove(std::string("this is a chance node (") +
                      (phase == kFirstPlayer ? "the first player" : "a tile from the bag") +
                      " is drawn); apply one of its outcomes");
  }
  if (action >= kDrawActionBase)
    throw IllegalMove("action " + Str(action) +
                      " is a chance outcome, and this is not a chance node");
  const int p = s.turn;
  if (phase == kAcquire) {
    if (action >= kPlaceActionBase)
      throw IllegalMove(
          "phase 1 (acquire): take tiles from a factory or the centre, as in 3R or CG");
    CheckAcquire(s, action);
  } else if (phase == kBonus) {
    if (action < kBonusActionBase || action >= kPassActionBase)
      throw IllegalMove("player " + Str(p) + " takes " + Str(s.owed) + " more bonus tile" +
                        (s.owed == 1 ? "" : "s") + " from the supply first (+ and a colour)");
    const int c = action - kBonusActionBase;
    if (!s.supply[c]) throw IllegalMove(std::string("the supply has no ") + kColourNames[c]);
  } else {  // kPlay
    if (action < kPlaceActionBase)
      throw IllegalMove("phase 2 (play): phase 1 is over; place a tile or pass");
    if (action < kBonusActionBase) {
      CheckPlace(s, action);
    } else if (action < kPassActionBase) {
      throw IllegalMove(
          "no bonus tile is owed: bonus tiles are taken right after a placement completes an "
          "ornament");
    } else {
      const uint8_t* keep = kT.keep[action - kPassActionBase];
      const uint8_t* hand = s.hand[p];
      for (int c = 0; c < kColours; ++c)
        if (keep[c] > hand[c])
          throw IllegalMove("player " + Str(p) + " cannot keep " + Str(keep[c]) + " " +
                            kColourNames[c] + ": they have " + Str(hand[c]));
    }
  }
}

void Play(State& s, int action, History* h) {
  const int phase = s.phase;
  if (phase == kFill) {
    PutDrawn(s, action - kDrawActionBase);
    ContinueFill(s, h);
    return;
  }
  if (phase == kFirstPlayer) {
    s.start = static_cast<int8_t>(action - kFirstPlayerActionBase);
    if (h) h->first = s.start;
    BeginSetup(s, h);
    return;
  }
  if (h && h->complete && !h->rounds.empty()) h->rounds.back().moves.push_back(ActionText(action));
  ++s.moves;
  if (phase == kAcquire) {
    Acquire(s, action, h);
  } else if (phase == kPlay) {
    if (action < kBonusActionBase)
      PlaceTile(s, action, h);
    else
      Pass(s, action - kPassActionBase, h);
  } else {  // kBonus
    const int p = s.turn, c = action - kBonusActionBase;
    --s.supply[c];
    ++s.hand[p][c];
    --s.owed;
    if (h && h->capture && !h->sheet.empty())
      h->sheet.back().push_back("{\"event\": \"bonus-tile\", \"player\": " + Str(p) +
                                ", \"colour\": " + Quote(std::string(1, kColourLetters[c])) + "}");
    if (!s.owed || !Any6(s.supply)) {
      s.owed = 0;  // what the supply cannot give is lost
      EndTurn(s, p, h);
    }
  }
}

void CheckDealPhase(const State& s) {
  if (!((s.phase == kFill && s.fill == kFillFactories) || (s.phase == kAcquire && !s.moves)))
    throw IllegalMove("deal: factories can only be dealt before the round's first move");
}

void Deal(State& s, const std::vector<std::string>& factories, History* h) {
  CheckDealPhase(s);
  const int nf = s.num_factories;
  if (static_cast<int>(factories.size()) != nf)
    throw IllegalMove("deal: " + Str(s.players) + " players need " + Str(nf) + " factory strings");
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

std::vector<int> Winners(const State& s) {
  std::vector<int> out;
  if (s.phase != kOver) return out;
  int best = s.score[0];
  for (int p = 1; p < s.players; ++p) best = std::max(best, static_cast<int>(s.score[p]));
  for (int p = 0; p < s.players; ++p)
    if (s.score[p] == best) out.push_back(p);
  return out;
}

void Observation(const State& s, int player, float* out) {
  const int n = s.players;
  std::fill(out, out + ObservationSize(n), 0.0f);
  // Values are computed in double and rounded once to float, as numpy stores Python floats.
  auto put = [&](int i, double v) { out[i] = static_cast<float>(v); };
  for (int k = 0; k < n; ++k) {
    const int seat = (player + k) % n, base = kSeatFeatures * k;
    const int8_t* board = s.board[seat];
    for (int x = 0; x < kSpaces; ++x)
      if (board[x] >= 0) {
        out[base + x] = 1.0f;
        if (x >= 36) out[base + 42 + 6 * (x - 36) + board[x]] = 1.0f;
      }
    for (int c = 0; c < kColours; ++c) put(base + 78 + c, s.hand[seat][c] / 22.0);
    put(base + 84, s.score[seat] / 100.0);
    out[base + 85] = s.passed[seat] ? 1.0f : 0.0f;
    out[base + 86] = s.marker == seat ? 1.0f : 0.0f;
  }
  const int base = kSeatFeatures * n;
  for (int f = 0; f < s.num_factories; ++f)
    for (int c = 0; c < kColours; ++c) put(base + 6 * f + c, s.factories[f][c] / 4.0);
  for (int c = 0; c < kColours; ++c) {
    put(base + 54 + c, s.centre[c] / 22.0);
    put(base + 61 + c, s.supply[c] / 10.0);
    put(base + 67 + c, s.bag[c] / 22.0);
    put(base + 73 + c, s.tower[c] / 22.0);
  }
  out[base + 60] = s.marker < 0 && s.phase == kAcquire ? 1.0f : 0.0f;
  put(base + 79, s.round / 6.0);
  out[base + 80 + s.round - 1] = 1.0f;
  out[base + 86 + s.phase] = 1.0f;
  put(base + 92, s.owed / 18.0);
  if (s.start >= 0) out[base + 93 + ((s.start - player) % n + n) % n] = 1.0f;
}

void ResumeSampled(State& s) {
  if (!s.explicit_chance) return;
  s.explicit_chance = 0;
  if (s.phase == kFirstPlayer) {
    s.start = static_cast<int8_t>(Below(s.rng, s.players));
    BeginSetup(s, nullptr);
  } else if (s.phase == kFill) {
    ContinueFill(s, nullptr);
  }
}

uint64_t PlayRandom(State& s, uint64_t& policy) {
  ResumeSampled(s);
  uint64_t plies = 0;
  while (s.phase != kOver) {
    Play(s, PickLegalAction(s, policy), nullptr);
    ++plies;
  }
  return plies;
}

// Plays `s` on and writes its final scores.
static uint64_t PlayTo(State& s, uint64_t& policy, int32_t* scores) {
  const uint64_t plies = PlayRandom(s, policy);
  for (int p = 0; p < s.players; ++p) scores[p] = s.score[p];
  return plies;
}

uint64_t ReferenceRandomPlayouts(int n, int players, uint64_t seed, int threads, int32_t* out) {
  return PlayoutBatch(n, players, seed, threads, out, {},
                      [&](uint64_t game_seed, uint64_t& policy, int32_t* scores) {
                        State s = NewGame(players, game_seed, false, nullptr);
                        return PlayTo(s, policy, scores);
                      });
}

uint64_t ReferencePlayoutsFrom(const State& from, int n, uint64_t seed, int threads, int32_t* out) {
  return PlayoutBatch(n, from.players, seed, threads, out, {},
                      [&](uint64_t game_seed, uint64_t& policy, int32_t* scores) {
                        State s = from;
                        s.rng = game_seed;
                        return PlayTo(s, policy, scores);
                      });
}

}  // namespace sp
}  // namespace azul

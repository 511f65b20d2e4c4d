// Azul: Summer Pavilion (rules.md section 3): the constants, the state, the history, and the rules
// of native/src/pavilion/: tables, round, movegen, apply, scoring (as classic/state.h; the other
// jobs have their own headers: notation.h, text.h, observation.h, playout.h, kernel.h, key.h).
// docs/rules.md section 3 and docs/observation.md describe the board model and the action ids.
// Pure-Python twin: python/azul_engine/_pure/pavilion/state.py, python/azul_engine/_pure/pavilion/tables.py.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "azul/common/chance.h"
#include "azul/common/textutil.h"
#include "azul/common/types.h"

namespace azul {
namespace sp {

constexpr int kColours = 6;
constexpr char kColourLetters[] = "PGOYBR";  // frozen order: purple green orange yellow blue red
constexpr const char* kColourNames[kColours] = {"purple", "green", "orange",
                                                "yellow", "blue",  "red"};
constexpr char kStarLetters[] = "ORBYGPC";  // outer stars clockwise from the upper left, centre
constexpr const char* kStarNames[7] = {"orange", "red",    "blue",  "yellow",
                                       "green",  "purple", "centre"};
constexpr int kStarColour[7] = {2, 5, 4, 3, 1, 0, -1};  // -1: the centre takes any colour
constexpr int kCentreStar = 6;
constexpr int kSpaces = 42;  // star * 6 + number - 1
constexpr int kTilesPerColour = 22;
constexpr int kSupplySize = 10;
constexpr int kStartScore = 5;
constexpr int kMinScore = 1;
constexpr int kRounds = 6;
constexpr int kMaxFactories = 9;
constexpr int kCentre = 9;  // source index of the centre; factories are 0-8
constexpr int kStarBonus[7] = {17, 14, 15, 16, 18, 20, 12};
constexpr int kNumberBonus[4] = {4, 8, 12, 16};

// Action ids (the pure twin: python/azul_engine/_pure/pavilion/tables.py).
constexpr int kPlaceActionBase = 60;        // 60 + (space * 6 + colour) * 6 + wilds
constexpr int kBonusActionBase = 1572;      // + colour
constexpr int kPassActionBase = 1578;       // + index of the kept multiset in KeepSets()
constexpr int kDrawActionBase = 1788;       // + colour drawn from the bag
constexpr int kFirstPlayerActionBase = 1794;  // + seat
constexpr int kNumActions = 1798;
constexpr int kNumKeepSets = 210;

// This variant's chance actions (common/chance.h).
constexpr ChanceActions kChanceActions = {kColours, kColourNames, kDrawActionBase,
                                          kFirstPlayerActionBase};

enum Phase : int8_t { kFirstPlayer = 0, kFill, kAcquire, kPlay, kBonus, kOver };
constexpr const char* kPhaseNames[6] = {"first-player", "fill", "acquire", "play", "bonus", "over"};
// What a fill phase fills: nothing, the setup supply, the round's factories, the supply after a turn.
enum Fill : int8_t { kNoFill = 0, kFillSetup, kFillFactories, kFillRefill };
constexpr const char* kFillNames[4] = {"-", "setup", "factories", "refill"};

inline int NumFactories(int players) { return 2 * players + 1; }

// The run of covered spaces through space k of a star ring whose covered spaces are m, space k
// counted as covered (the points a tile placed there scores alone): 6 for a whole ring.  (The run
// tables of tables.cpp and kernel.cpp.)
inline int RunThrough(int m, int k) {
  const int filled = m | 1 << k;
  int len = 1;
  while (len < 6 && filled >> ((k + len) % 6) & 1) ++len;
  if (len < 6) {
    int back = 1;
    while (filled >> ((k - back + 6) % 6) & 1) ++back;
    len += back - 1;
  }
  return len;
}

// Ornament i of 18 (rules.md section 3): 6 windows (3 bonus tiles), 6 statues (2), 6 pillars (1),
// star by star; the spaces around it as a mask of board spaces (bit 6 * star + number - 1).
inline uint64_t OrnamentMask(int i) {
  auto bit = [](int star, int number) { return 1ULL << (star * 6 + number - 1); };
  const int s = i % 6, b = (s + 1) % 6;
  if (i < 6) return bit(s, 5) | bit(s, 6);
  if (i < 12) return bit(s, 1) | bit(s, 2) | bit(b, 3) | bit(b, 4);
  return bit(s, 2) | bit(s, 3) | bit(6, (s + 5) % 6 + 1) | bit(6, s + 1);
}
inline int OrnamentTiles(int i) { return i < 6 ? 3 : i < 12 ? 2 : 1; }

// The placements of one colour on a star's empty spaces `m` (bit k: the space of cost k + 1) with
// `have` tiles of it in hand and `wilds` wild tiles; `wild`: the colour is the round's wild colour
// itself, paid in full.  (The placement-count tables of tables.cpp and kernel.cpp.)
inline int SpacePlacements(bool wild, int have, int wilds, int m) {
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
  return count;
}

// The kept-tile multisets of a pass in action order (size, then colour order): counts[6].
const uint8_t (*KeepSets())[kColours];
// Index of a multiset of at most 4 tiles in KeepSets(), or -1.
int KeepIndex(const int* counts);

// Everything that decides the game's future: position and generator.  A copy is a clone.
struct State {
  uint64_t seed;
  uint64_t rng;
  uint64_t filled[4];  // per player, bit space set when covered (derived from board)
  int32_t moves;       // moves made this round (not chance outcomes)
  int32_t score[4];
  int8_t players;
  int8_t explicit_chance;
  int8_t round;  // 1-6
  int8_t phase;
  int8_t fill;
  int8_t turn;    // seat to move; kChance at chance nodes and once over
  int8_t start;   // seat that started this round's phase 1; -1 before it is drawn
  int8_t marker;  // -1 while the start token is in the centre
  int8_t next;    // during a refill: the next player, or -1 when the round ends
  int8_t owed;    // bonus tiles still owed (phase kBonus)
  uint8_t num_factories;
  uint8_t passed[4];
  uint8_t factories[kMaxFactories][8];  // 6 counts, 2 bytes padding (kept zero)
  uint8_t centre[8];
  uint8_t supply[8];
  uint8_t refill[8];  // tiles drawn by the refill in progress
  uint8_t bag[8];
  uint8_t tower[8];
  uint8_t prefill_bag[8];  // bag and tower before this round's factory fill, for Deal
  uint8_t prefill_tower[8];
  uint8_t hand[4][8];
  int8_t board[4][kSpaces];  // a colour, or -1 for an empty space
};

bool operator==(const State& a, const State& b);

// One line of a score sheet (score_sheet() in Python): what a move or the game's end scored,
// and why.  Recorded as structs while History::capture is set; only record.cpp writes them out
// (as JSON).  Each kind uses the fields named for it; the others stay 0.
struct ScoreEvent {
  enum Kind : int8_t { kStartToken, kPlace, kBonusTile, kPass, kEnd };
  Kind kind;
  int8_t player;
  int8_t star = 0;        // kPlace: the star (0-6, kStarLetters order)
  int8_t space = 0;       // kPlace: the space's number, 1-6 (its cost)
  int8_t colour = 0;      // kPlace, kBonusTile: the colour placed or taken
  int8_t wilds = 0;       // kPlace: wild tiles paid
  int8_t tiles = 0;       // kStartToken: tiles taken with the start token (the penalty)
  int8_t run = 0;         // kPlace: the run through the new tile (its points)
  int8_t bonus_tiles = 0; // kPlace: bonus tiles owed for the ornaments it completed
  int8_t discarded = 0;   // kPass: tiles discarded to the tower (the penalty)
  int8_t kept = 0;        // kEnd: tiles still in hand (the penalty)
  uint8_t stars = 0;      // kEnd: bit s set for each completed star s
  uint8_t numbers = 0;    // kEnd: bit n set when every space n + 1 is covered
  int16_t keep_set = 0;   // kPass: the kept multiset, its index in KeepSets()
  uint32_t ornaments = 0; // kPlace: bit i set for each ornament i it completed
  int32_t star_points = 0, number_points = 0;  // kEnd
  int32_t before = 0, after = 0;  // the player's score before and after (all kinds but kBonusTile)
};

struct History {
  bool complete = true;    // false for a state read from text without its history
  bool seed_known = true;  // false: the record's seed is null
  uint64_t seed = 0;
  int first = -1;
  bool supply_known = false;  // false: the record's supply is null
  std::string supply;         // the 10 setup tiles
  std::vector<RoundHistory> rounds;
  // Score sheet events per round, kept only while `capture` is set (ScoreSheetJson replays the
  // game with it); normal play pays nothing for them.
  bool capture = false;
  std::vector<std::vector<ScoreEvent>> sheet;
};

// ---- round.cpp: new games, fills, deals ----
// A game before anything is drawn (first-player phase), its history empty.
State Blank(int players, uint64_t seed, bool explicit_chance, History* h);
State NewGame(int players, uint64_t seed, bool explicit_chance, History* h);
// Throws IllegalMove unless `count` factories may be dealt now (before the round's first move;
// the phase is checked first), as classic's CheckDealShape.
void CheckDealShape(const State& s, size_t count);
// Sets this round's factories; throws IllegalMove, leaving `s` unchanged, when impossible.
void Deal(State& s, const std::vector<std::string>& factories, History* h);
// Fills the supply with the tiles `counts`; throws IllegalMove, leaving `s` unchanged.
void DealSupply(State& s, const int* counts, History* h);

// ---- movegen.cpp ----
// Legal action ids, ascending; returns how many were written (room for kNumActions: up to
// kLegalScratch entries past the count may be overwritten too).
int LegalActions(const State& s, int16_t* out);
// LegalActions, and mask[a] = 1 for each listed id a; `mask` (kNumActions bytes) must be all
// zero on entry.
int LegalActionsAndMask(const State& s, int16_t* out, uint8_t* mask);
std::vector<int> LegalActionList(const State& s);
// LegalActions(s)[Below(policy, count)] without listing them.
int PickLegalAction(const State& s, uint64_t& policy);
std::vector<std::pair<int, double>> ChanceOutcomes(const State& s);

// ---- apply.cpp ----
// Throws IllegalMove, naming the rule, unless the action id (0..kNumActions-1) is legal.
void CheckLegal(const State& s, int action);
// Plays a legal action (unchecked); records it in `h` when not null.
void ApplyAction(State& s, int action, History* h);

// ---- scoring.cpp ----
std::vector<int> Winners(const State& s);

}  // namespace sp
}  // namespace azul

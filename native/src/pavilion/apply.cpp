// Azul: Summer Pavilion: legality with messages, and the moves (acquire, place, pass, bonus tile)
// (rules.md section 3).
// The same checks in the same order, the same messages as the twin.
// Pure-Python twin: python/azul_engine/_pure/pavilion/apply.py.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <string_view>

#include "azul/common/chance.h"
#include "azul/pavilion/notation.h"
#include "internal.h"

namespace azul {
namespace sp {

using namespace internal;

namespace internal {

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

}  // namespace internal

namespace {

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
      if (h && h->capture && !h->sheet.empty()) {
        ScoreEvent e{ScoreEvent::kStartToken, static_cast<int8_t>(p)};
        e.tiles = static_cast<int8_t>(taken);
        e.before = before;
        e.after = after;
        h->sheet.back().push_back(e);
      }
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
    ScoreEvent e{ScoreEvent::kPlace, static_cast<int8_t>(p)};
    e.star = static_cast<int8_t>(star);
    e.space = static_cast<int8_t>(cost);
    e.colour = static_cast<int8_t>(c);
    e.wilds = static_cast<int8_t>(w);
    e.run = static_cast<int8_t>(run);
    e.bonus_tiles = static_cast<int8_t>(owed);
    for (int j = 0; j < 4; ++j) {
      const int i = kT.ornaments_of[space][j];
      if (i < 0) break;
      if ((filled & kT.ornament_mask[i]) == kT.ornament_mask[i]) e.ornaments |= 1u << i;
    }
    e.before = before;
    e.after = before + run;
    h->sheet.back().push_back(e);
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
  if (h && h->capture && !h->sheet.empty()) {
    ScoreEvent e{ScoreEvent::kPass, static_cast<int8_t>(p)};
    e.keep_set = static_cast<int16_t>(keep_index);
    e.discarded = static_cast<int8_t>(discarded);
    e.before = before;
    e.after = after;
    h->sheet.back().push_back(e);
  }
  EndTurn(s, p, h);
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


}  // namespace

void CheckLegal(const State& s, int action) {
  const int phase = s.phase;
  if (phase == kOver) throw IllegalMove("game is over");
  if (phase == kFirstPlayer || phase == kFill)
    return CheckChanceOutcome(kChanceActions, phase == kFirstPlayer, s.bag, s.players, action);
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

void ApplyAction(State& s, int action, History* h) {
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
    if (h && h->capture && !h->sheet.empty()) {
      ScoreEvent e{ScoreEvent::kBonusTile, static_cast<int8_t>(p)};
      e.colour = static_cast<int8_t>(c);
      h->sheet.back().push_back(e);
    }
    if (!s.owed || !Any6(s.supply)) {
      s.owed = 0;  // what the supply cannot give is lost
      EndTurn(s, p, h);
    }
  }
}

}  // namespace sp
}  // namespace azul

// Azul: Summer Pavilion: state text written and read back with every check (the history behind
// records included), and the readable board.
// The same checks in the same order, the same messages as the twin.  Text from Python arrives as UTF-8: lengths and characters in messages are counted
// in code points, as Python counts them.
// Pure-Python twin: python/azul_engine/_pure/pavilion/text.py.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "azul/common/pystr.h"
#include "azul/classic/notation.h"
#include "azul/pavilion/notation.h"
#include "azul/pavilion/state.h"
#include "azul/pavilion/text.h"
#include "azul/common/fields.h"
#include "azul/common/textutil.h"
#include "internal.h"

namespace azul {
namespace sp {

using namespace internal;

namespace {


// The characters (code points) of a UTF-8 string, each as its own UTF-8 string.
std::vector<std::string> Chars(const std::string& text) {
  std::vector<std::string> out;
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8CharLen(text, i);
    out.push_back(text.substr(i, n));
    i += n;
  }
  return out;
}

size_t PyLen(const std::string& text) {
  size_t n = 0;
  for (size_t i = 0; i < text.size(); i += Utf8CharLen(text, i)) ++n;
  return n;
}

[[noreturn]] void Fail(const std::string& message) { throw StateFormatError(message); }

// The shared readers (common/fields.h) with this variant's tile counts.
void CountList(const std::string& value, const std::string& key, uint8_t* out) {
  azul::CountList(value, key, kColours, kTilesPerColour, out);
}

// _tile_field: colour letters, at most `limit` tiles.
void TileField(const std::string& value, const std::string& what, int limit, int* counts) {
  ParseTiles(value, what, counts);
  long long sum = 0;
  for (int c = 0; c < kColours; ++c) sum += counts[c];
  if (sum > limit) Fail(what + ": more than " + Str(limit) + " tiles");
}

void TileField(const std::string& value, const std::string& what, int limit, uint8_t* out) {
  int counts[kColours];
  TileField(value, what, limit, counts);
  for (int c = 0; c < kColours; ++c) out[c] = static_cast<uint8_t>(counts[c]);
}

void CheckFactory(const std::string& text, const std::string& what) {
  int counts[kColours];
  TileField(text, what, 4, counts);
}

bool IsMove(const std::string& text) {
  int counts[kColours];
  try {
    ParseMove(text, counts);
  } catch (const IllegalMove&) {
    return false;
  }
  return true;
}

void ReadPlayer(State& g, int p, const std::string& key, const std::string& value) {
  const std::vector<std::string> parts = Split(value, ':');
  if (parts.size() != 4) Fail("field " + key + ": " + Repr(value) + " is not score:tiles:board:passed");
  const std::string &score_text = parts[0], &hand_text = parts[1], &board_text = parts[2],
                    &passed_text = parts[3];
  if (!IsUint(score_text) || score_text.size() > 6 || std::stoi(score_text) < kMinScore)
    Fail("field " + key + ": score " + Repr(score_text) + " is not a whole number of 1 or more");
  g.score[p] = std::stoi(score_text);
  TileField(hand_text, "field " + key + ", tiles", 6 * kTilesPerColour, g.hand[p]);
  const std::vector<std::string> stars = Split(board_text, '/');
  bool shape = stars.size() == 7;
  for (size_t i = 0; shape && i < stars.size(); ++i) shape = PyLen(stars[i]) == 6;
  if (!shape) Fail("field " + key + ": board " + Repr(board_text) + " is not 7 stars of 6 spaces");
  int8_t* board = g.board[p];
  for (int s = 0; s < 7; ++s) {
    const std::vector<std::string> chars = Chars(stars[s]);
    for (int k = 0; k < 6; ++k) {
      const std::string& ch = chars[k];
      if (ch == ".") continue;
      const int c = ch.size() == 1 ? Find(kColourLetters, ch[0]) : -1;
      if (c < 0)
        Fail("field " + key + ": star " + kStarLetters[s] + " space " + Str(k + 1) + " has " +
             Repr(ch) + ", not a colour or '.'");
      if (s < 6 && c != kStarColour[s])
        Fail("field " + key + ": the " + kStarNames[s] + " star cannot hold " + kColourNames[c]);
      if (s == kCentreStar)
        for (int x = 36; x < 42; ++x)
          if (board[x] == c) Fail("field " + key + ": the centre star holds " + kColourNames[c] + " twice");
      board[s * 6 + k] = static_cast<int8_t>(c);
      g.filled[p] |= 1ULL << (s * 6 + k);
    }
  }
  if (passed_text != "0" && passed_text != "1")
    Fail("field " + key + ": passed " + Repr(passed_text) + " is not 0 or 1");
  g.passed[p] = passed_text == "1";
}

bool AnyTiles(const uint8_t* c) {
  for (int i = 0; i < kColours; ++i)
    if (c[i]) return true;
  return false;
}

int SumTiles(const uint8_t* c) {
  int n = 0;
  for (int i = 0; i < kColours; ++i) n += c[i];
  return n;
}

void CheckConsistency(const State& g) {
  const int n = g.players, nf = g.num_factories;
  for (int c = 0; c < kColours; ++c) {
    int total = g.bag[c] + g.tower[c] + g.centre[c] + g.supply[c];
    for (int f = 0; f < nf; ++f) total += g.factories[f][c];
    for (int p = 0; p < n; ++p) total += g.hand[p][c];
    for (int p = 0; p < n; ++p)
      for (int x = 0; x < kSpaces; ++x) total += g.board[p][x] == c;
    if (total != kTilesPerColour)
      Fail("tile count: " + Str(total) + " " + kColourNames[c] + " tiles in the game, not " +
           Str(kTilesPerColour));
  }
  const int phase = g.phase, fill = g.fill;
  const std::string name = kPhaseNames[phase];
  const bool chance = phase == kFirstPlayer || phase == kFill || phase == kOver;
  if (chance && g.turn != kChance)
    Fail("field turn: " + Str(g.turn) + ", but nobody moves in phase " + name);
  if (!chance && g.turn < 0) Fail("field turn: a player moves in phase " + name);
  if ((phase == kFill) != (fill != kNoFill))
    Fail(std::string("field fill: ") + kFillNames[fill] + " does not fit phase " + name);
  if (phase != kFirstPlayer && g.start < 0) Fail("field start: no starting player in phase " + name);
  if (phase == kFirstPlayer) {
    bool full = true;
    for (int c = 0; c < kColours; ++c) full = full && g.bag[c] == kTilesPerColour;
    if (g.start >= 0 || !full)
      Fail("phase first-player: the game has not started, yet tiles or a starting player are set");
  }
  if ((phase == kBonus) != (g.owed > 0))
    Fail("field owed: " + Str(g.owed) + " bonus tiles owed in phase " + name);
  if (phase == kBonus && !AnyTiles(g.supply)) Fail("phase bonus: the supply is empty");
  if ((phase == kPlay || phase == kBonus) && g.passed[g.turn])
    Fail("field turn: player " + Str(g.turn) + " has passed");
  bool on_offer = AnyTiles(g.centre);
  for (int f = 0; f < nf; ++f) on_offer = on_offer || AnyTiles(g.factories[f]);
  if (phase == kAcquire && !on_offer) Fail("phase acquire: factories and centre are empty");
  if ((phase == kPlay || phase == kBonus) && on_offer)
    Fail("phase " + name + ": tiles are still on offer");
  if (AnyTiles(g.refill) && fill != kFillRefill)
    Fail(std::string("field refill: tiles drawn by a refill, but fill is ") + kFillNames[fill]);
  for (int c = 0; c < kColours; ++c)
    if (g.refill[c] > g.supply[c]) Fail("field refill: more tiles drawn than the supply holds");
  if (fill == kFillRefill && g.next >= 0 && g.passed[g.next])
    Fail("field next: player " + Str(g.next) + " has passed");
  if (fill != kFillRefill && g.next != -1)
    Fail("field next: only a supply refill has a next player");
  if (phase == kFill) {
    int need;
    if (fill == kFillFactories) {
      need = 4 * nf;
      for (int f = 0; f < nf; ++f) need -= SumTiles(g.factories[f]);
      if (g.marker >= 0 || g.moves)
        Fail("fill factories: the round has not started, yet marker or moves are set");
    } else {
      need = kSupplySize - SumTiles(g.supply);
    }
    if (!need || !SumTiles(g.bag))
      Fail("phase fill: nothing to draw (the fill is complete or the bag is empty)");
    bool factories_empty = true;
    for (int f = 0; f < nf; ++f) factories_empty = factories_empty && !AnyTiles(g.factories[f]);
    if (fill == kFillSetup && (g.round != 1 || !factories_empty))
      Fail("fill setup: the supply is filled before round 1's factories");
  }
  if (phase == kOver && g.round != kRounds)
    Fail("phase over: the game ends after round " + Str(kRounds));
  bool any_passed = false, all_passed = true;
  for (int p = 0; p < n; ++p) {
    any_passed = any_passed || g.passed[p];
    all_passed = all_passed && g.passed[p];
  }
  if ((phase == kAcquire || phase == kFill) && fill != kFillRefill && any_passed)
    Fail("phase " + name + ": no player has passed before phase 2");
  if (phase == kPlay && all_passed) Fail("phase play: every player has passed");
  if (fill == kFillRefill && g.next < 0 && !all_passed)
    Fail("field next: -1 ends the round, but not every player has passed");
  if (fill == kFillRefill && g.next < 0 && g.round == kRounds)
    Fail("field next: -1 ends the round, but round " + Str(kRounds) +
         " ends the game without a refill");
}

void ReadHistory(const State& g, const Fields& f, const std::vector<std::string>& keys,
                 History* h) {
  const std::vector<std::string> head = Split(f["history"], ':');
  if (head.size() != 4)
    Fail("field history: " + Repr(f["history"]) + " is not seed:first:complete:supply");
  ReadHistoryHead(head, g.players, &h->seed_known, &h->seed, &h->first, &h->complete);
  if (head[3] == "*") {
    h->supply_known = false;
    h->supply.clear();
  } else {
    int counts[kColours];
    TileField(head[3], "field history, supply", kSupplySize, counts);
    h->supply_known = true;
    h->supply = head[3] == "-" ? "" : head[3];
  }
  h->rounds = ReadHistoryRounds(f, keys, g.players, kRounds, "r1 ... r6", &CheckFactory, &IsMove);
  const bool before_round = (g.phase == kFirstPlayer || g.phase == kFill) && g.fill != kFillRefill;
  const int expected = before_round ? g.round - 1 : g.round;
  if (h->complete && static_cast<int>(h->rounds.size()) != expected)
    Fail("field history: " + Str(static_cast<long long>(h->rounds.size())) +
         " rounds of history for a state in round " + Str(g.round));
}

const char* const kFieldNames[] = {"variant", "players", "chance", "seed",    "rng",
                                   "round",   "phase",   "fill",   "turn",    "start",
                                   "marker",  "moves",   "next",   "owed",    "factories",
                                   "center",  "supply",  "refill", "bag",     "tower",
                                   "prefill"};

}  // namespace

std::vector<std::string> BoardStrings(const State& s, int player) {
  std::vector<std::string> out;
  for (int st = 0; st < 7; ++st) {
    std::string row;
    for (int k = 0; k < 6; ++k) {
      const int x = s.board[player][st * 6 + k];
      row += x < 0 ? '.' : kColourLetters[x];
    }
    out.push_back(row);
  }
  return out;
}

std::string ToText(const State& s, const History* h) {
  char rng[17];
  std::snprintf(rng, sizeof rng, "%016llx", static_cast<unsigned long long>(s.rng));
  std::string out = "azul-state/1 variant=summer-pavilion";
  out += " players=" + Str(s.players);
  out += std::string(" chance=") + (s.explicit_chance ? "explicit" : "sampled");
  out += " seed=" + U64(s.seed);
  out += std::string(" rng=") + rng;
  out += " round=" + Str(s.round);
  out += std::string(" phase=") + kPhaseNames[s.phase];
  out += std::string(" fill=") + kFillNames[s.fill];
  out += " turn=" + Str(s.turn);
  out += " start=" + Str(s.start);
  out += " marker=" + (s.marker < 0 ? std::string("C") : Str(s.marker));
  out += " moves=" + Str(s.moves);
  out += " next=" + Str(s.next);
  out += " owed=" + Str(s.owed);
  out += " factories=";
  for (int f = 0; f < s.num_factories; ++f) {
    if (f) out += ',';
    out += OrDash(TilesToStr(s.factories[f]));
  }
  out += " center=" + OrDash(TilesToStr(s.centre));
  out += " supply=" + OrDash(TilesToStr(s.supply));
  out += " refill=" + OrDash(TilesToStr(s.refill));
  out += " bag=" + Counts(s.bag, kColours);
  out += " tower=" + Counts(s.tower, kColours);
  out += " prefill=" + Counts(s.prefill_bag, kColours) + "/" +
         Counts(s.prefill_tower, kColours);
  for (int p = 0; p < s.players; ++p) {
    out += " p" + Str(p) + "=" + Str(s.score[p]) + ":" + OrDash(TilesToStr(s.hand[p])) + ":";
    const std::vector<std::string> board = BoardStrings(s, p);
    for (int st = 0; st < 7; ++st) {
      if (st) out += '/';
      out += board[st];
    }
    out += s.passed[p] ? ":1" : ":0";
  }
  if (h) {
    out += " history=" + (h->seed_known ? U64(h->seed) : std::string("-")) + ":" + Str(h->first) +
           ":" + (h->complete ? "1" : "0") + ":" + (h->supply_known ? OrDash(h->supply) : "*") +
           RoundsText(h->rounds);
  }
  return out;
}

State FromText(const std::string& text, History* h) {
  const std::vector<std::string> tokens = StateTokens(text);
  if (tokens.empty() || tokens[0] != "azul-state/1")
    Fail("not an Azul state: the text must start with azul-state/1");
  const Fields f = ReadFields(tokens);
  for (const char* key : kFieldNames)
    if (!f.has(key)) Fail(std::string("field ") + key + " is missing");
  if (f["variant"] != "summer-pavilion")
    Fail("field variant: " + Repr(f["variant"]) + " is not summer-pavilion");
  const int players = static_cast<int>(IntField(f, "players", 2, 4));
  if (f["chance"] != "sampled" && f["chance"] != "explicit")
    Fail("field chance: " + Repr(f["chance"]) + " is not sampled or explicit");
  const uint64_t seed = U64Field(f, "seed");
  const std::string& rng_text = f["rng"];
  bool rng_ok = rng_text.size() == 16;
  for (char ch : rng_text) rng_ok = rng_ok && Find("0123456789abcdef", ch) >= 0;
  if (!rng_ok) Fail("field rng: " + Repr(rng_text) + " is not 16 lower-case hex digits");
  History hist;
  State g = Blank(players, seed, f["chance"] == "explicit", &hist);
  g.rng = std::stoull(rng_text, nullptr, 16);
  g.round = static_cast<int8_t>(IntField(f, "round", 1, kRounds));
  int phase = -1;
  for (int i = 0; i < 6; ++i)
    if (f["phase"] == kPhaseNames[i]) phase = i;
  if (phase < 0) Fail("field phase: unknown phase " + Repr(f["phase"]));
  g.phase = static_cast<int8_t>(phase);
  int fill = -1;
  for (int i = 0; i < 4; ++i)
    if (f["fill"] == kFillNames[i]) fill = i;
  if (fill < 0) Fail("field fill: " + Repr(f["fill"]) + " is not -, setup, factories or refill");
  g.fill = static_cast<int8_t>(fill);
  g.turn = static_cast<int8_t>(IntField(f, "turn", -1, players - 1));
  g.start = static_cast<int8_t>(IntField(f, "start", -1, players - 1));
  g.marker = f["marker"] == "C" ? -1 : static_cast<int8_t>(IntField(f, "marker", 0, players - 1));
  g.moves = static_cast<int32_t>(IntField(f, "moves", 0, 1000000));
  g.next = static_cast<int8_t>(IntField(f, "next", -1, players - 1));
  g.owed = static_cast<int8_t>(IntField(f, "owed", 0, 18));
  const std::vector<std::string> facs = Split(f["factories"], ',');
  const int nf = NumFactories(players);
  if (static_cast<int>(facs.size()) != nf)
    Fail("field factories: " + Str(players) + " players have " + Str(nf) + " factories, not " +
         Str(static_cast<long long>(facs.size())));
  for (int i = 0; i < nf; ++i)
    TileField(facs[i], "field factories, factory " + Str(i + 1), 4, g.factories[i]);
  TileField(f["center"], "field center", 4 * nf, g.centre);
  TileField(f["supply"], "field supply", kSupplySize, g.supply);
  TileField(f["refill"], "field refill", kSupplySize, g.refill);
  CountList(f["bag"], "bag", g.bag);
  CountList(f["tower"], "tower", g.tower);
  const std::vector<std::string> pre = Split(f["prefill"], '/');
  if (pre.size() != 2) Fail("field prefill: " + Repr(f["prefill"]) + " is not bag counts/tower counts");
  CountList(pre[0], "prefill", g.prefill_bag);
  CountList(pre[1], "prefill", g.prefill_tower);
  for (int p = 0; p < players; ++p) {
    const std::string key = "p" + Str(p);
    if (!f.has(key)) Fail("field " + key + " is missing");
    ReadPlayer(g, p, key, f[key]);
  }
  std::vector<std::string> history_keys;
  for (const std::string& k : f.order)
    if (k == "history" || (k.size() > 1 && k[0] == 'r' && IsUint(k.substr(1))))
      history_keys.push_back(k);
  for (const std::string& key : f.order) {
    bool known = false;
    for (const std::string& k : history_keys) known = known || key == k;
    for (const char* name : kFieldNames) known = known || key == name;
    for (int p = 0; p < players; ++p) known = known || key == "p" + Str(p);
    if (!known) Fail("unknown field " + FieldName(key));
  }
  CheckConsistency(g);
  if (f.has("history")) {
    ReadHistory(g, f, history_keys, &hist);
  } else {
    if (!history_keys.empty())  // history rounds (r1=...) need the history field
      Fail("field " + history_keys[0] + ": a history round needs the history field");
    hist.complete = g.phase == kFirstPlayer;
    hist.seed_known = false;
    hist.first = g.start;
  }
  if (h) *h = std::move(hist);
  return g;
}


std::string BoardText(const State& s) {
  const int round = s.round < kRounds ? s.round : kRounds;
  std::string out = "Azul: Summer Pavilion, " + Str(s.players) + " players, round " +
                    Str(s.round) + " (wild " + kColourNames[round - 1] + "), phase " +
                    kPhaseNames[s.phase] + ", ";
  if (s.phase == kOver)
    out += "game over";
  else if (s.turn < 0)
    out += "chance";
  else
    out += "player " + Str(s.turn) + " to move";
  out += "\nfactories:";
  for (int f = 0; f < s.num_factories; ++f)
    out += " " + Str(f + 1) + ":" + OrDash(TilesToStr(s.factories[f]));
  out += std::string("\ncentre: ") + (s.marker < 0 && s.phase == kAcquire ? "token " : "") +
         OrDash(TilesToStr(s.centre)) + "   supply: " + OrDash(TilesToStr(s.supply)) + "   bag " +
         Str(SumTiles(s.bag)) + ", tower " + Str(SumTiles(s.tower));
  for (int p = 0; p < s.players; ++p) {
    out += "\nplayer " + Str(p) + ": score " + Str(s.score[p]) +
           (s.marker == p ? ", start token" : "") + (s.passed[p] ? ", passed" : "") + ", tiles " +
           OrDash(TilesToStr(s.hand[p]));
    const std::vector<std::string> board = BoardStrings(s, p);
    out += "\n ";
    for (int st = 0; st < 7; ++st) out += std::string(" ") + (st ? " " : "") + kStarLetters[st] + ":" + board[st];
  }
  return out;
}

}  // namespace sp
}  // namespace azul
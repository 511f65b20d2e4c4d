// Azul: Summer Pavilion: the game record ("azul-record" v1 JSON, records.md) and the score sheet,
// made by replaying the history; the only writer of Summer Pavilion's JSON.
// Pure-Python twin: python/azul_engine/_pure/pavilion/record.py.
#include <cstring>
#include <string>
#include <vector>

#include "azul/pavilion/notation.h"
#include "azul/pavilion/text.h"
#include "internal.h"

namespace azul {
namespace sp {

using namespace internal;

namespace {

std::string Letter(const char* letters, int i) { return std::string(1, letters[i]); }

// One score sheet event as a JSON object, keys in the pure engine's order.
std::string EventJson(const ScoreEvent& e) {
  const std::string player = "\"player\": " + Str(e.player);
  auto n = [](const char* key, long long value) { return std::string(", \"") + key + "\": " + Str(value); };
  auto scores = [&] { return n("before", e.before) + n("after", e.after); };
  switch (e.kind) {
    case ScoreEvent::kStartToken:
      return "{\"event\": \"start-token\", " + player + n("tiles", e.tiles) + scores() + "}";
    case ScoreEvent::kPlace: {
      std::string names;
      for (int i = 0; i < 32; ++i)
        if (e.ornaments >> i & 1) names += (names.empty() ? "" : ", ") + Quote(OrnamentName(i));
      return "{\"event\": \"place\", " + player + ", \"star\": " + Quote(Letter(kStarLetters, e.star)) +
             n("space", e.space) + ", \"colour\": " + Quote(Letter(kColourLetters, e.colour)) +
             n("wilds", e.wilds) + n("run", e.run) + n("points", e.run) + scores() +
             ", \"ornaments\": [" + names + "]" + n("bonus_tiles", e.bonus_tiles) + "}";
    }
    case ScoreEvent::kBonusTile:
      return "{\"event\": \"bonus-tile\", " + player + ", \"colour\": " +
             Quote(Letter(kColourLetters, e.colour)) + "}";
    case ScoreEvent::kPass:
      return "{\"event\": \"pass\", " + player + ", \"kept\": " +
             Quote(TilesToStr(KeepSets()[e.keep_set])) + n("discarded", e.discarded) + scores() + "}";
    default: {  // kEnd
      std::string stars, numbers;
      for (int st = 0; st < 7; ++st)
        if (e.stars >> st & 1) stars += kStarLetters[st];
      for (int k = 0; k < 4; ++k)
        if (e.numbers >> k & 1) numbers += (numbers.empty() ? "" : ", ") + Str(k + 1);
      return "{\"event\": \"end\", " + player + ", \"stars\": " + Quote(stars) +
             n("star_points", e.star_points) + ", \"numbers\": [" + numbers + "]" +
             n("number_points", e.number_points) + n("kept", e.kept) + scores() + "}";
    }
  }
}

// apply(move) with a notation string, as the score sheet's replay plays the history.
void ApplyText(State& g, const std::string& move, History* h) {
  int counts[kColours];
  const int action = ParseMove(move, counts);
  if (action < 0) {
    DealSupply(g, counts, h);
    return;
  }
  CheckLegal(g, action);
  ApplyAction(g, action, h);
}


}  // namespace

std::string RecordJson(const State& s, const History& h) {
  if (!h.complete) throw std::invalid_argument(kNoHistory);
  const bool over = s.phase == kOver;
  return RecordJsonText(
      "summer-pavilion", s.players, h.seed_known, h.seed, h.first,
      ", \"supply\": " + (h.supply_known ? JsonString(h.supply) : std::string("null")), h.rounds,
      over, std::vector<int>(s.score, s.score + s.players),
      over ? Winners(s) : std::vector<int>());
}

std::string ScoreSheetJson(const State& s, const History& h) {
  if (!h.complete) throw std::invalid_argument(kNoHistory);
  History replay;
  State g = NewGame(s.players, 0, true, &replay);
  replay.capture = true;
  if (h.first >= 0) {
    ApplyText(g, "~" + Str(h.first), &replay);
    if (h.supply_known) {
      int counts[kColours];
      ParseTiles(h.supply, "deal_supply", counts, true);
      DealSupply(g, counts, &replay);
      for (const RoundHistory& round : h.rounds) {
        Deal(g, round.factories, &replay);
        for (const std::string& move : round.moves) ApplyText(g, move, &replay);
      }
    }
  }
  std::string out = "[";
  for (size_t i = 0; i < replay.sheet.size(); ++i) {
    out += i ? ", [" : "[";
    for (size_t j = 0; j < replay.sheet[i].size(); ++j) out += (j ? ", " : "") + EventJson(replay.sheet[i][j]);
    out += "]";
  }
  return out + "]";
}

}  // namespace sp
}  // namespace azul

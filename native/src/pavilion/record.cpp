// Azul: Summer Pavilion: the game record ("azul-record" v1 JSON, records.md) and the score sheet,
// made by replaying the history; the only writer of Summer Pavilion's JSON.
// The pure-Python twin is the "history and records" section of python/azul_engine/_pypavilion.py.
#include <cstring>
#include <string>
#include <vector>

#include "internal.h"

namespace azul {
namespace sp {

using namespace internal;

namespace {

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
    for (size_t j = 0; j < replay.sheet[i].size(); ++j) out += (j ? ", " : "") + replay.sheet[i][j];
    out += "]";
  }
  return out + "]";
}

}  // namespace sp
}  // namespace azul

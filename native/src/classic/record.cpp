// Game records: "azul-record" version 1 as JSON (records.md).  The text matches Python's
// json.dumps with separators (", ", ": ") byte for byte, so both engines write the same files.
// Pure-Python twin: python/azul_engine/_pure/classic/record.py.
#include <string>
#include <vector>

#include "azul/classic/notation.h"
#include "azul/classic/text.h"
#include "azul/common/textutil.h"

namespace azul {

namespace {

std::string EventJson(const ScoreEvent& e) {
  const std::string player = "\"player\": " + std::to_string(e.player);
  auto n = [](const char* key, int value) { return std::string(", \"") + key + "\": " + std::to_string(value); };
  auto colour = [](int c) { return std::string(", \"colour\": \"") + kColourLetters[c] + "\""; };
  switch (e.kind) {
    case ScoreEvent::kTile:
      return "{\"event\": \"tile\", " + player + n("row", e.row) + n("column", e.column) +
             colour(e.colour) + n("across", e.across) + n("down", e.down) + n("points", e.points) + "}";
    case ScoreEvent::kLineToFloor:
      return "{\"event\": \"line-to-floor\", " + player + n("row", e.row) + colour(e.colour) +
             n("tiles", e.tiles) + n("to_lid", e.to_lid) + "}";
    case ScoreEvent::kFloor:
      return "{\"event\": \"floor\", " + player + n("items", e.items) +
             ", \"marker\": " + (e.marker ? "true" : "false") + n("penalty", e.points) +
             n("before", e.before) + n("after", e.after) + "}";
    default:
      return "{\"event\": \"bonus\", " + player + n("rows", e.rows) + n("columns", e.columns) +
             n("colours", e.colours) + n("points", e.points) + n("before", e.before) +
             n("after", e.after) + "}";
  }
}

}  // namespace

std::string ScoreSheetJson(const State& s, const History& h) {
  if (!h.complete) throw std::invalid_argument(kNoHistory);
  History replay;
  State g = NewGame(s.players, static_cast<Variant>(s.variant), 0, true, &replay);
  replay.capture = true;  // an explicit-chance game has begun no round yet
  if (h.first >= 0) {
    ApplyAction(g, kFirstPlayerActionBase + h.first, &replay);
    for (const RoundHistory& round : h.rounds) {
      Deal(g, round.factories, &replay);
      for (const std::string& move : round.moves) {
        const int action = StringToAction(g, move);
        CheckLegal(g, action);
        ApplyAction(g, action, &replay);
      }
    }
  }
  std::string out = "[";
  for (size_t i = 0; i < replay.sheet.size(); ++i) {
    out += i ? ", [" : "[";
    for (size_t j = 0; j < replay.sheet[i].size(); ++j)
      out += (j ? ", " : "") + EventJson(replay.sheet[i][j]);
    out += "]";
  }
  return out + "]";
}

std::string RecordJson(const State& s, const History& h) {
  if (!h.complete) throw std::invalid_argument(kNoHistory);
  const bool over = s.phase == kOver;
  std::vector<int> scores;
  for (int p = 0; p < s.players; ++p) scores.push_back(s.board[p].score);
  return RecordJsonText(kVariantNames[s.variant], s.players, h.seed_known, h.seed, h.first, "",
                        h.rounds, over, scores, over ? Winners(s) : std::vector<int>());
}

}  // namespace azul

// Game records: "azul-record" version 1 as JSON (records.md).  The text matches Python's
// json.dumps with separators (", ", ": ") byte for byte, so both engines write the same files.
#include <string>
#include <vector>

#include "azul/text.h"

namespace azul {

namespace {

// History strings are checked notation and tile letters, but escape anyway for safety.
std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

std::string JsonStrings(const std::vector<std::string>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + JsonString(v[i]);
  return out + "]";
}

std::string JsonInts(const std::vector<int>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + "]";
}

}  // namespace

std::string RecordJson(const State& s, const History& h) {
  if (!h.complete)
    throw std::invalid_argument(
        "no record: this state was read from text without its history (write it with "
        "to_text(history=True))");
  const bool over = s.phase == kOver;
  std::string out = "{\"format\": \"azul-record\", \"version\": 1, \"variant\": ";
  out += JsonString(kVariantNames[s.variant]);
  out += ", \"players\": " + std::to_string(s.players);
  out += ", \"seed\": " + (h.seed_known ? std::to_string(h.seed) : std::string("null"));
  out += ", \"first_player\": " + std::to_string(h.first);
  out += ", \"rounds\": [";
  for (size_t i = 0; i < h.rounds.size(); ++i) {
    const RoundHistory& r = h.rounds[i];
    if (i) out += ", ";
    out += "{\"factories\": " + JsonStrings(r.factories) + ", \"moves\": " + JsonStrings(r.moves) +
           ", \"scores\": " + (r.scores.empty() ? std::string("null") : JsonInts(r.scores)) + "}";
  }
  out += "], \"final_scores\": ";
  if (over) {
    std::vector<int> scores;
    for (int p = 0; p < s.players; ++p) scores.push_back(s.board[p].score);
    out += JsonInts(scores) + ", \"winners\": " + JsonInts(Winners(s));
  } else {
    out += "null, \"winners\": null";
  }
  return out + "}";
}

}  // namespace azul

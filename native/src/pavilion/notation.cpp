// Azul: Summer Pavilion: move notation (records.md) and tile strings: action ids to text and back.
// The same checks in the same order, the same messages as the twin.
// Pure-Python twin: python/azul_engine/_pure/pavilion/notation.py.
#include <cstring>
#include <string>
#include <vector>

#include "azul/pavilion/notation.h"
#include "internal.h"

namespace azul {
namespace sp {

using namespace internal;

std::string TilesToStr(const uint8_t* counts) {
  std::string out;
  for (int c = 0; c < kColours; ++c) out.append(counts[c], kColourLetters[c]);
  return out;
}

std::string ActionText(int action) {
  if (action < kPlaceActionBase) {
    const int source = action / 6, colour = action % 6;
    std::string out = source == kCentre ? "C" : Str(source + 1);
    return out + kColourLetters[colour];
  }
  if (action < kBonusActionBase) {
    const int a = action - kPlaceActionBase;
    const int space = a / 36, rest = a % 36, colour = rest / 6, wilds = rest % 6;
    std::string out(1, kStarLetters[space / 6]);
    out += static_cast<char>('1' + space % 6);
    out += kColourLetters[colour];
    out += static_cast<char>('0' + wilds);
    return out;
  }
  if (action < kPassActionBase)
    return std::string("+") + kColourLetters[action - kBonusActionBase];
  if (action < kDrawActionBase) return "-" + TilesToStr(KeepSets()[action - kPassActionBase]);
  if (action < kFirstPlayerActionBase)
    return std::string("~") + kColourLetters[action - kDrawActionBase];
  return "~" + Str(action - kFirstPlayerActionBase);
}

void ParseTiles(const std::string& text, const std::string& what, int* counts, bool illegal_move) {
  for (int c = 0; c < kColours; ++c) counts[c] = 0;
  if (text.empty() || text == "-") return;
  int last = 0;
  for (size_t i = 0; i < text.size();) {
    const size_t n = Utf8CharLen(text, i);
    const int c = n == 1 ? Find(kColourLetters, text[i]) : -1;
    std::string message;
    if (c < 0) {
      message = what + ": unknown colour " + Repr(text.substr(i, n)) + " in " + Repr(text) +
                " (colours are P G O Y B R)";
    } else if (c < last) {
      message = what + ": tiles " + Repr(text) + " are not in colour order (P G O Y B R)";
    }
    if (!message.empty()) {
      if (illegal_move) throw IllegalMove(message);
      throw StateFormatError(message);
    }
    last = c;
    ++counts[c];
    i += n;
  }
}

int ParseMove(const std::string& text, int* counts) {
  const std::string bad = Repr(text) + " is not a move: ";
  for (unsigned char ch : text)
    if (ch >= 0x80) throw IllegalMove(bad + "move notation is ASCII");
  if (!text.empty() && text[0] == '~') {
    const std::string body = text.substr(1);
    if (body.size() == 1 && body[0] >= '0' && body[0] <= '3')
      return kFirstPlayerActionBase + (body[0] - '0');
    if (body.empty() || body == "-")
      throw IllegalMove(bad +
                        "a chance outcome is ~ and the tiles drawn (colour letters P G O Y B R) "
                        "or ~ and a seat (0-3)");
    ParseTiles(body, bad + "tiles drawn", counts, true);
    if (body.size() == 1) return kDrawActionBase + Find(kColourLetters, body[0]);
    return -1;
  }
  if (!text.empty() && text[0] == '+') {
    if (text.size() != 2 || Find(kColourLetters, text[1]) < 0)
      throw IllegalMove(bad + "a bonus tile is + and a colour letter (P G O Y B R)");
    return kBonusActionBase + Find(kColourLetters, text[1]);
  }
  if (!text.empty() && text[0] == '-') {
    if (text == "--") throw IllegalMove(bad + "a pass keeping nothing is written -");
    int keep[kColours];
    ParseTiles(text.substr(1), bad + "kept tiles", keep, true);
    long long sum = 0;
    for (int c = 0; c < kColours; ++c) sum += keep[c];
    if (sum > 4) throw IllegalMove(bad + "a pass keeps at most 4 tiles");
    return kPassActionBase + KeepIndex(keep);
  }
  if (text.size() == 2) {
    const char s = text[0], c = text[1];
    int source;
    if (s == 'C') {
      source = kCentre;
    } else if (s >= '1' && s <= '9') {
      source = s - '1';
    } else {
      throw IllegalMove(bad + "unknown source " + Repr(std::string(1, s)) +
                        " (factories 1-9, C for the centre)");
    }
    const int colour = Find(kColourLetters, c);
    if (colour < 0)
      throw IllegalMove(bad + "unknown colour " + Repr(std::string(1, c)) +
                        " (colours are P G O Y B R)");
    return source * 6 + colour;
  }
  if (text.size() == 4) {
    const char star = text[0], k = text[1], c = text[2], w = text[3];
    const int st = Find(kStarLetters, star);
    if (st < 0)
      throw IllegalMove(bad + "unknown star " + Repr(std::string(1, star)) +
                        " (stars O R B Y G P, C for the centre)");
    if (k < '1' || k > '6')
      throw IllegalMove(bad + "unknown space " + Repr(std::string(1, k)) + " (spaces 1-6)");
    const int colour = Find(kColourLetters, c);
    if (colour < 0)
      throw IllegalMove(bad + "unknown colour " + Repr(std::string(1, c)) +
                        " (colours are P G O Y B R)");
    if (w < '0' || w > '5')
      throw IllegalMove(bad + "the number of wild tiles is 0-5, not " + Repr(std::string(1, w)));
    const int space = st * 6 + (k - '1');
    return kPlaceActionBase + (space * 6 + colour) * 6 + (w - '0');
  }
  throw IllegalMove(bad +
                    "Summer Pavilion moves are an acquire (3R, CG), a placement (R3R1), a bonus "
                    "tile (+G), a pass (-GRR) or a chance outcome (~BR)");
}

int CheckActionRange(long long action) {
  if (action < 0 || action >= kNumActions)
    throw IllegalMove("action " + Str(action) + " is out of range 0-" + Str(kNumActions - 1));
  return static_cast<int>(action);
}

}  // namespace sp
}  // namespace azul

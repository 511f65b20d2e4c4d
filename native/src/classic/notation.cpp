// Move notation (records.md, classic and grey) and tile strings.
// Pure-Python twin: python/azul_engine/_pure/classic/notation.py.
#include "azul/classic/notation.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "azul/common/pystr.h"

namespace azul {

std::string TilesToStr(const uint8_t* counts) {
  std::string out;
  for (int c = 0; c < kColours; ++c) out.append(counts[c], kColourLetters[c]);
  return out;
}

std::string DraftToStr(int action) {
  int source = action / 30, colour = (action % 30) / 6, dest = action % 6;
  std::string out;
  out += source == kCentre ? 'C' : static_cast<char>('1' + source);
  out += kColourLetters[colour];
  out += dest == kFloor ? 'F' : static_cast<char>('1' + dest);
  return out;
}

static int ColourIndex(char ch) {
  for (int c = 0; c < kColours; ++c)
    if (kColourLetters[c] == ch) return c;
  return -1;
}

void ParseTiles(const std::string& text, const std::string& what, int* counts) {
  for (int c = 0; c < kColours; ++c) counts[c] = 0;
  if (text.empty() || text == "-") return;
  int last = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    int c = ColourIndex(text[i]);
    if (c < 0)  // the whole character, as Python sees it, when it is not ASCII
      throw StateFormatError(what + ": unknown colour " +
                             PyRepr(text.substr(i, Utf8CharLen(text, i))) + " in " +
                             PyRepr(text) + " (colours are B Y R K W)");
    if (c < last)
      throw StateFormatError(what + ": tiles " + PyRepr(text) +
                             " are not in colour order (B Y R K W)");
    last = c;
    ++counts[c];
  }
}

int ParseMove(const std::string& text, int* row) {
  *row = -1;
  const std::string bad = PyRepr(text) + " is not a move: ";
  for (unsigned char ch : text)
    if (ch >= 0x80) throw IllegalMove(bad + "move notation is ASCII");
  if (text.size() == 2 && text[0] == '~') {
    char ch = text[1];
    int c = ColourIndex(ch);
    if (c >= 0) return kDrawActionBase + c;
    if (ch >= '0' && ch <= '3') return kFirstPlayerActionBase + (ch - '0');
    throw IllegalMove(bad +
                      "a chance outcome is ~ and a colour letter (B Y R K W) or ~ and a seat (0-3)");
  }
  if (text.size() == 3 && text[0] == 'W') {
    char r = text[1], c = text[2];
    if (r < '1' || r > '5' || c < '1' || c > '5')
      throw IllegalMove(bad + "a wall tiling move is W, a row 1-5 and a column 1-5");
    *row = r - '1';
    return kColumnActionBase + (c - '1');
  }
  if (text.size() != 3)
    throw IllegalMove(bad +
                      "a draft is 3 characters: source (1-9 or C), colour (B Y R K W), "
                      "destination (1-5 or F), as in 3R4");
  char sc = text[0], cc = text[1], dc = text[2];
  int source;
  if (sc == 'C') {
    source = kCentre;
  } else if (sc >= '1' && sc <= '9') {
    source = sc - '1';
  } else {
    throw IllegalMove(bad + "unknown source " + PyRepr(std::string(1, sc)) +
                      " (factories 1-9, C for the centre)");
  }
  int colour = ColourIndex(cc);
  if (colour < 0)
    throw IllegalMove(bad + "unknown colour " + PyRepr(std::string(1, cc)) +
                      " (colours are B Y R K W)");
  int dest;
  if (dc == 'F') {
    dest = kFloor;
  } else if (dc >= '1' && dc <= '5') {
    dest = dc - '1';
  } else {
    throw IllegalMove(bad + "unknown destination " + PyRepr(std::string(1, dc)) +
                      " (pattern lines 1-5, F for the floor)");
  }
  return (source * 5 + colour) * 6 + dest;
}

std::string ActionToString(const State& s, int action) {
  action = CheckActionRange(action);
  if (action < kNumDraftActions) return DraftToStr(action);
  if (action < kDrawActionBase) {
    if (s.phase != kTiling)
      throw IllegalMove("action " + std::to_string(action) +
                        " is a wall tiling choice, and no wall tiling decision is pending");
    std::string out = "W";
    out += static_cast<char>('1' + PendingRow(s, s.turn));
    out += static_cast<char>('1' + action - kColumnActionBase);
    return out;
  }
  if (action < kFirstPlayerActionBase)
    return std::string("~") + kColourLetters[action - kDrawActionBase];
  return "~" + std::to_string(action - kFirstPlayerActionBase);
}

int StringToAction(const State& s, const std::string& text) {
  int row;
  int action = ParseMove(text, &row);
  if (row >= 0) {
    if (s.phase == kOver) throw IllegalMove("game is over");
    if (s.phase != kTiling)
      throw IllegalMove(PyRepr(text) + ": no wall tiling decision is pending");
    int pending = PendingRow(s, s.turn);
    if (row != pending)
      throw IllegalMove(PyRepr(text) + ": the pending wall tiling decision is for pattern line " +
                        std::to_string(pending + 1) + ", not " + std::to_string(row + 1));
  }
  return action;
}

}  // namespace azul

// Move notation (records.md, classic and grey) and tile strings.
#include "azul/classic/notation.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

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

size_t Utf8CharLen(const std::string& text, size_t i) {
  const unsigned char lead = static_cast<unsigned char>(text[i]);
  const size_t n = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  return std::min(n, text.size() - i);
}

static uint32_t CodePoint(const std::string& text, size_t i, size_t len) {
  const unsigned char lead = static_cast<unsigned char>(text[i]);
  if (len == 1) return lead;
  uint32_t cp = lead & (0x7F >> len);
  for (size_t j = 1; j < len; ++j) cp = cp << 6 | (static_cast<unsigned char>(text[i + j]) & 0x3F);
  return cp;
}

// str.isspace(): Python's white space, what str.split() splits on.
static bool IsSpace(uint32_t cp) {
  return (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x20) || cp == 0x85 || cp == 0xA0 ||
         cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
         cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

std::vector<std::string> PySplit(const std::string& text) {
  std::vector<std::string> out;
  size_t i = 0, start = std::string::npos;
  while (i < text.size()) {
    const size_t n = Utf8CharLen(text, i);
    if (IsSpace(CodePoint(text, i, n))) {
      if (start != std::string::npos) out.push_back(text.substr(start, i - start));
      start = std::string::npos;
    } else if (start == std::string::npos) {
      start = i;
    }
    i += n;
  }
  if (start != std::string::npos) out.push_back(text.substr(start));
  return out;
}

static ReprHook repr_hook = nullptr;

void SetReprHook(ReprHook hook) { repr_hook = hook; }

std::string PyRepr(const std::string& text) {
  if (repr_hook)
    for (unsigned char ch : text)
      if (ch >= 0x80) return repr_hook(text);
  bool has_single = text.find('\'') != std::string::npos;
  bool has_double = text.find('"') != std::string::npos;
  char quote = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, quote);
  for (unsigned char ch : text) {
    if (ch == '\\') {
      out += "\\\\";
    } else if (ch == static_cast<unsigned char>(quote)) {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (ch == '\t') {
      out += "\\t";
    } else if (ch < 0x20 || ch == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", ch);
      out += buf;
    } else {
      out += static_cast<char>(ch);
    }
  }
  out += quote;
  return out;
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
    return kTileActionBase + (c - '1');
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
    out += static_cast<char>('1' + action - kTileActionBase);
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

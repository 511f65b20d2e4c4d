// State text: writing, reading with consistency checks, and the readable board.
// Pure-Python twin: python/azul_engine/_pure/classic/text.py.
#include "azul/classic/text.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "azul/classic/notation.h"
#include "azul/common/fields.h"
#include "azul/common/pystr.h"
#include "azul/common/textutil.h"

namespace azul {

namespace {

std::string Repr(const std::string& s) { return PyRepr(s); }

// The shared readers (common/fields.h) with this variant's tile counts.
void CountList(const std::string& value, const std::string& key, uint8_t* out) {
  azul::CountList(value, key, kColours, kTilesPerColour, out);
}

void CheckFactory(const std::string& text, const std::string& what) {
  int counts[kColours];
  ParseTiles(text, what, counts);
}

bool IsMove(const std::string& text) {
  int row;
  try {
    ParseMove(text, &row);
  } catch (const IllegalMove&) {
    return false;
  }
  return true;
}

bool ColourInRow(const int8_t* wall, int row, int colour) {
  for (int c = 0; c < 5; ++c)
    if (wall[row * 5 + c] == colour) return true;
  return false;
}

void ReadPlayer(State& s, int p, const std::string& value) {
  const std::string key = "p" + std::to_string(p);
  std::vector<std::string> parts = Split(value, ':');
  if (parts.size() != 4)
    throw StateFormatError("field " + key + ": " + Repr(value) + " is not score:lines:wall:floor");
  const std::string &score_text = parts[0], &lines_text = parts[1], &wall_text = parts[2];
  std::string floor_text = parts[3];
  PlayerBoard& b = s.board[p];
  if (!IsUint(score_text) || score_text.size() > 6)
    throw StateFormatError("field " + key + ": score " + Repr(score_text) +
                           " is not a whole number of 0 or more");
  b.score = std::stoi(score_text);
  std::vector<std::string> lines = Split(lines_text, '/');
  if (lines.size() != 5)
    throw StateFormatError("field " + key + ": " + Repr(lines_text) + " is not 5 pattern lines");
  for (int r = 0; r < 5; ++r) {
    int counts[5];
    ParseTiles(lines[r], "field " + key + ", pattern line " + std::to_string(r + 1), counts);
    int colour = -1, kinds = 0;
    for (int c = 0; c < 5; ++c)
      if (counts[c]) {
        ++kinds;
        if (colour < 0) colour = c;
      }
    if (kinds > 1)
      throw StateFormatError("field " + key + ": pattern line " + std::to_string(r + 1) +
                             " mixes colours");
    if (colour >= 0) {
      if (counts[colour] > r + 1)
        throw StateFormatError("field " + key + ": pattern line " + std::to_string(r + 1) +
                               " holds " + std::to_string(counts[colour]) +
                               " tiles, more than its " + std::to_string(r + 1) + " spaces");
      b.line_colour[r] = static_cast<int8_t>(colour);
      b.line_count[r] = static_cast<uint8_t>(counts[colour]);
    }
  }
  std::vector<std::string> rows = Split(wall_text, '/');
  bool shape = rows.size() == 5;
  for (size_t i = 0; shape && i < rows.size(); ++i) shape = rows[i].size() == 5;
  if (!shape)
    throw StateFormatError("field " + key + ": wall " + Repr(wall_text) +
                           " is not 5 rows of 5 cells");
  ParseWall(rows, s.variant == kClassic, "field " + key, b.wall);
  for (int i = 0; i < 25; ++i)
    if (b.wall[i] >= 0) b.row_colours[i / 5] = static_cast<uint8_t>(b.row_colours[i / 5] | 1 << b.wall[i]);
  for (int r = 0; r < 5; ++r) {
    int c = b.line_colour[r];
    if (c >= 0 && ColourInRow(b.wall, r, c))
      throw StateFormatError("field " + key + ": pattern line " + std::to_string(r + 1) +
                             " holds " + kColourNames[c] + ", which wall row " +
                             std::to_string(r + 1) + " already has");
  }
  if (!floor_text.empty() && floor_text[0] == 'M') {
    if (s.marker != p)
      throw StateFormatError("field " + key + ": the floor holds the marker, but marker=" +
                             (s.marker < 0 ? std::string("C") : std::to_string(s.marker)));
    s.marker_floor = 1;
    floor_text = floor_text.substr(1);
    if (floor_text.empty()) floor_text = "-";
  }
  int fl[5];
  ParseTiles(floor_text, "field " + key + ", floor", fl);
  int items = fl[0] + fl[1] + fl[2] + fl[3] + fl[4] + ((s.marker == p && s.marker_floor) ? 1 : 0);
  if (items > kFloorSpaces)
    throw StateFormatError("field " + key + ": the floor holds more than 7 items");
  for (int c = 0; c < 5; ++c) b.floor[c] = static_cast<uint8_t>(fl[c]);
}

bool OnOffer(const State& s) {
  if (Any5(s.centre)) return true;
  for (int f = 0; f < s.num_factories; ++f)
    if (Any5(s.factories[f])) return true;
  return false;
}

void CheckConsistency(const State& s) {
  for (int c = 0; c < kColours; ++c) {
    int total = s.centre[c] + s.bag[c] + s.lid[c];
    for (int f = 0; f < s.num_factories; ++f) total += s.factories[f][c];
    for (int p = 0; p < s.players; ++p) {
      const PlayerBoard& b = s.board[p];
      total += static_cast<int>(std::count(b.wall, b.wall + 25, c)) + b.floor[c];
      for (int r = 0; r < 5; ++r)
        if (b.line_colour[r] == c) total += b.line_count[r];
    }
    if (total != kTilesPerColour)
      throw StateFormatError("wrong tile total: " + std::to_string(total) + " " + kColourNames[c] +
                             " tiles in play, not " + std::to_string(kTilesPerColour));
  }
  if (Sum5(s.prefill_bag) + Sum5(s.prefill_lid) > 5 * kTilesPerColour)
    throw StateFormatError("field prefill: more than 100 tiles");
  if (s.phase == kFirstPlayer || s.phase == kFill || (s.phase == kOffer && s.moves == 0)) {
    // Deal takes its tiles from the prefill bag and lid: they must be this round's tiles.
    for (int c = 0; c < kColours; ++c) {
      const int before = s.prefill_bag[c] + s.prefill_lid[c];
      int now = s.bag[c] + s.lid[c];
      for (int f = 0; f < s.num_factories; ++f) now += s.factories[f][c];
      if (before != now)
        throw StateFormatError("field prefill: " + std::to_string(before) + " " + kColourNames[c] +
                               " tiles in bag and lid before the fill, but " + std::to_string(now) +
                               " in bag, lid and factories");
    }
  }
  const int phase = s.phase;
  const std::string name = kPhaseNames[phase];
  if (phase == kFirstPlayer || phase == kFill || phase == kOver) {
    if (s.turn != kChance) throw StateFormatError("field turn: must be -1 in phase " + name);
  } else if (s.turn < 0) {
    throw StateFormatError("field turn: phase " + name + " needs a player to move");
  }
  if ((phase == kFirstPlayer || phase == kFill) && !s.explicit_chance)
    throw StateFormatError("field phase: " + name + " happens only with chance=explicit");
  if (phase == kFirstPlayer) {
    if (s.start != -1 || s.round != 1)
      throw StateFormatError("field phase: first-player is round 1 with start=-1");
  } else if (s.start < 0) {
    throw StateFormatError("field start: phase " + name + " needs the round's starting player");
  }
  if (phase == kFill) {
    bool ordered = true, all_full = true;
    for (int i = 0; i < s.num_factories; ++i) {
      if (Sum5(s.factories[i]) < 4) all_full = false;
      if (i + 1 < s.num_factories && Sum5(s.factories[i]) < 4 && Sum5(s.factories[i + 1]) > 0)
        ordered = false;
    }
    if (!ordered)
      throw StateFormatError("field factories: factories fill in order, 4 tiles each");
    if (all_full || !(Any5(s.bag) || Any5(s.lid)))
      throw StateFormatError("field phase: fill, but the factories cannot take a tile");
    if (Any5(s.centre) || s.marker >= 0)
      throw StateFormatError("field phase: fill, but the round is under way");
  }
  if (phase == kTiling) {
    if (s.variant != kGrey)
      throw StateFormatError("field phase: tiling decisions happen only on the grey wall");
    int p = s.turn;
    int r = PendingRow(s, p);
    if (r < 0 || !AllowedColumns(s, p, r, s.board[p].line_colour[r]))
      throw StateFormatError("field phase: tiling, but player " + std::to_string(p) +
                             " has no pattern line waiting for a wall column");
    if (OnOffer(s)) throw StateFormatError("field phase: tiling, but tiles are still on offer");
  }
  if (phase == kOffer && !OnOffer(s))
    throw StateFormatError("field phase: offer, but no tile is on offer");
  if (s.marker >= 0 && phase != kOffer && phase != kTiling && phase != kOver)
    throw StateFormatError("field marker: the marker is taken only during the offer");
  if (phase == kOffer && s.marker >= 0 && !s.marker_floor &&
      Sum5(s.board[s.marker].floor) < kFloorSpaces)
    throw StateFormatError("field marker: player " + std::to_string(s.marker) +
                           " keeps the marker aside, which happens only on a full floor");
}

void ReadHistory(const State& s, const Fields& f, const std::vector<std::string>& keys,
                 History* h) {
  std::vector<std::string> head = Split(f["history"], ':');
  if (head.size() != 3)
    throw StateFormatError("field history: " + Repr(f["history"]) +
                           " is not seed:first:complete");
  ReadHistoryHead(head, s.players, &h->seed_known, &h->seed, &h->first, &h->complete);
  h->rounds = ReadHistoryRounds(f, keys, s.players, 0, "r1, r2, ...", &CheckFactory, &IsMove);
}

const char* const kFieldNames[] = {"variant", "players", "chance", "seed",  "rng",       "round",
                                   "phase",   "turn",    "start",  "marker", "moves",    "factories",
                                   "center",  "bag",     "lid",    "prefill"};

}  // namespace

std::string WallRow(const PlayerBoard& b, int r) {
  std::string row;
  for (int c = 0; c < 5; ++c) row += b.wall[r * 5 + c] < 0 ? '.' : kColourLetters[b.wall[r * 5 + c]];
  return row;
}

std::string LineText(const PlayerBoard& b, int r) {
  return b.line_count[r] ? std::string(b.line_count[r], kColourLetters[b.line_colour[r]])
                         : std::string();
}

std::string FloorText(const State& s, int p) {
  return ((s.marker == p && s.marker_floor) ? "M" : "") + TilesToStr(s.board[p].floor);
}

void ParseWall(const std::vector<std::string>& rows, bool classic, const std::string& what,
               int8_t* wall) {
  std::memset(wall, -1, 25);
  for (int r = 0; r < 5; ++r) {
    size_t at_byte = 0;  // rows are 5 characters of UTF-8 (end_bonus takes any str)
    for (int c = 0; c < 5; ++c) {
      const size_t len = Utf8CharLen(rows[r], at_byte);
      const char ch = rows[r][at_byte];
      at_byte += len;
      if (ch == '.') continue;
      const char* at = len == 1 ? std::strchr(kColourLetters, ch) : nullptr;
      if (ch == '\0' || at == nullptr)
        throw StateFormatError(what + ": wall row " + std::to_string(r + 1) + " has " +
                               Repr(rows[r].substr(at_byte - len, len)) +
                               ", not a colour or '.'");
      int colour = static_cast<int>(at - kColourLetters);
      if (classic && WallColumn(colour, r) != c)
        throw StateFormatError(what + ": impossible wall: " + kColourNames[colour] +
                               " cannot be in row " + std::to_string(r + 1) + ", column " +
                               std::to_string(c + 1) + " of the coloured wall");
      wall[r * 5 + c] = static_cast<int8_t>(colour);
    }
  }
  for (int r = 0; r < 5; ++r) {
    int row_seen = 0, col_seen = 0;
    for (int c = 0; c < 5; ++c) {
      int x = wall[r * 5 + c];
      if (x >= 0) {
        if (row_seen >> x & 1)
          throw StateFormatError(what + ": impossible wall: row " +
                                 std::to_string(r + 1) + " repeats a colour");
        row_seen |= 1 << x;
      }
    }
    for (int rr = 0; rr < 5; ++rr) {
      int x = wall[rr * 5 + r];
      if (x >= 0) {
        if (col_seen >> x & 1)
          throw StateFormatError(what + ": impossible wall: column " +
                                 std::to_string(r + 1) + " repeats a colour");
        col_seen |= 1 << x;
      }
    }
  }
}

std::vector<std::string> WallRows(const std::string& text) {
  std::string spaced = text;  // wall.replace("/", " ").split(), as the pure engine
  std::replace(spaced.begin(), spaced.end(), '/', ' ');
  return PySplit(spaced);
}

void CheckWallShape(const std::vector<std::string>& rows) {
  bool shape = rows.size() == 5;
  for (const std::string& row : rows) {  // len(row) == 5: characters, not UTF-8 bytes
    size_t chars = 0;
    for (size_t i = 0; i < row.size(); i += Utf8CharLen(row, i)) ++chars;
    shape = shape && chars == 5;
  }
  if (!shape) throw StateFormatError("wall: not 5 rows of 5 cells (colour letters or '.')");
}

EndBonus WallEndBonus(const std::vector<std::string>& rows, bool classic) {
  CheckWallShape(rows);
  int8_t cells[25];
  ParseWall(rows, classic, "wall", cells);
  EndBonus bonus;
  WallBonus(cells, &bonus.rows, &bonus.columns, &bonus.colours);
  bonus.points = EndBonusPoints(bonus.rows, bonus.columns, bonus.colours);
  return bonus;
}

std::string ToText(const State& s, const History* h) {
  char rng[17];
  std::snprintf(rng, sizeof rng, "%016llx", static_cast<unsigned long long>(s.rng));
  std::string out = "azul-state/" + std::to_string(kTextVersion);
  out += std::string(" variant=") + kVariantNames[s.variant];
  out += " players=" + std::to_string(s.players);
  out += std::string(" chance=") + (s.explicit_chance ? "explicit" : "sampled");
  out += " seed=" + std::to_string(s.seed);
  out += std::string(" rng=") + rng;
  out += " round=" + std::to_string(s.round);
  out += std::string(" phase=") + kPhaseNames[s.phase];
  out += " turn=" + std::to_string(s.turn);
  out += " start=" + std::to_string(s.start);
  out += " marker=" + (s.marker < 0 ? std::string("C") : std::to_string(s.marker));
  out += " moves=" + std::to_string(s.moves);
  out += " factories=";
  for (int f = 0; f < s.num_factories; ++f) {
    if (f) out += ',';
    out += OrDash(TilesToStr(s.factories[f]));
  }
  out += " center=" + OrDash(TilesToStr(s.centre));
  out += " bag=" + Counts(s.bag, 5);
  out += " lid=" + Counts(s.lid, 5);
  out += " prefill=" + Counts(s.prefill_bag, 5) + "/" + Counts(s.prefill_lid, 5);
  for (int p = 0; p < s.players; ++p) {
    const PlayerBoard& b = s.board[p];
    out += " p" + std::to_string(p) + "=" + std::to_string(b.score) + ":";
    for (int r = 0; r < 5; ++r) {
      if (r) out += '/';
      out += OrDash(LineText(b, r));
    }
    out += ':';
    for (int r = 0; r < 5; ++r) {
      if (r) out += '/';
      out += WallRow(b, r);
    }
    out += ':' + OrDash(FloorText(s, p));
  }
  if (h) {
    out += " history=" + (h->seed_known ? std::to_string(h->seed) : std::string("-")) + ":" +
           std::to_string(h->first) + ":" + (h->complete ? "1" : "0") + RoundsText(h->rounds);
  }
  return out;
}

State FromText(const std::string& text, History* h) {
  const std::vector<std::string> tokens = StateTokens(text);
  const std::string version = "azul-state/" + std::to_string(kTextVersion);
  if (tokens.empty() || tokens[0].compare(0, 11, "azul-state/") != 0)
    throw StateFormatError("not an Azul state: the text must start with " + version);
  if (tokens[0] != version && tokens[0].compare(0, version.size(), version) == 0)
    CheckAsciiToken(tokens[0]);  // the header ran on: a non-ASCII space after it
  if (tokens[0] != version)
    throw StateFormatError("unsupported state text version " + Repr(tokens[0]) +
                           " (this engine reads " + version + ")");
  const Fields f = ReadFields(tokens);
  for (const char* key : kFieldNames)
    if (!f.has(key)) throw StateFormatError(std::string("field ") + key + " is missing");
  int variant = -1;
  for (int v = kClassic; v <= kGrey; ++v)  // the variants of these rules (Summer Pavilion's text has its own reader)
    if (f["variant"] == kVariantNames[v]) variant = v;
  if (variant < 0)
    throw StateFormatError("field variant: unknown variant " + Repr(f["variant"]));
  const int players = static_cast<int>(IntField(f, "players", 2, 4));
  if (f["chance"] != "sampled" && f["chance"] != "explicit")
    throw StateFormatError("field chance: " + Repr(f["chance"]) + " is not sampled or explicit");
  const bool explicit_chance = f["chance"] == "explicit";
  const uint64_t seed = U64Field(f, "seed");  // "-0" is 0
  const std::string& rng_text = f["rng"];
  bool rng_ok = rng_text.size() == 16;
  for (char ch : rng_text) rng_ok = rng_ok && ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'));
  if (!rng_ok)
    throw StateFormatError("field rng: " + Repr(rng_text) + " is not 16 lower-case hex digits");
  State s = NewGame(players, static_cast<Variant>(variant), seed, true, nullptr);
  s.rng = std::stoull(rng_text, nullptr, 16);
  s.round = static_cast<int32_t>(IntField(f, "round", 1, kMaxRounds));
  int phase = -1;
  for (int i = 0; i < 5; ++i)
    if (f["phase"] == kPhaseNames[i]) phase = i;
  if (phase < 0) throw StateFormatError("field phase: unknown phase " + Repr(f["phase"]));
  s.explicit_chance = explicit_chance;
  s.phase = static_cast<int8_t>(phase);
  s.turn = static_cast<int8_t>(IntField(f, "turn", -1, players - 1));
  s.start = static_cast<int8_t>(IntField(f, "start", -1, players - 1));
  s.marker = f["marker"] == "C" ? -1 : static_cast<int8_t>(IntField(f, "marker", 0, players - 1));
  s.moves = static_cast<int32_t>(IntField(f, "moves", 0, 1000000));
  std::vector<std::string> facs = Split(f["factories"], ',');
  const int nf = NumFactories(players);
  if (static_cast<int>(facs.size()) != nf)
    throw StateFormatError("field factories: " + std::to_string(players) + " players have " +
                           std::to_string(nf) + " factories, not " + std::to_string(facs.size()));
  for (int i = 0; i < nf; ++i) {
    int counts[5];
    ParseTiles(facs[i], "field factories, factory " + std::to_string(i + 1), counts);
    if (counts[0] + counts[1] + counts[2] + counts[3] + counts[4] > 4)
      throw StateFormatError("field factories: factory " + std::to_string(i + 1) +
                             " holds more than 4 tiles");
    for (int c = 0; c < 5; ++c) s.factories[i][c] = static_cast<uint8_t>(counts[c]);
  }
  {
    int counts[5];
    ParseTiles(f["center"], "field center", counts);
    for (int c = 0; c < 5; ++c)
      if (counts[c] > kTilesPerColour)
        throw StateFormatError("field center: more than " + std::to_string(kTilesPerColour) +
                               " tiles of a colour");
    for (int c = 0; c < 5; ++c) s.centre[c] = static_cast<uint8_t>(counts[c]);
  }
  CountList(f["bag"], "bag", s.bag);
  CountList(f["lid"], "lid", s.lid);
  std::vector<std::string> pre = Split(f["prefill"], '/');
  if (pre.size() != 2)
    throw StateFormatError("field prefill: " + Repr(f["prefill"]) +
                           " is not bag counts/lid counts");
  CountList(pre[0], "prefill", s.prefill_bag);
  CountList(pre[1], "prefill", s.prefill_lid);
  for (int p = 0; p < players; ++p) {
    std::string key = "p" + std::to_string(p);
    if (!f.has(key)) throw StateFormatError("field " + key + " is missing");
    ReadPlayer(s, p, f[key]);
  }
  std::vector<std::string> history_keys;
  for (const std::string& k : f.order)
    if (k == "history" || (k.size() > 1 && k[0] == 'r' && IsUint(k.substr(1))))
      history_keys.push_back(k);
  for (const std::string& key : f.order) {
    bool known = std::find(history_keys.begin(), history_keys.end(), key) != history_keys.end();
    for (const char* name : kFieldNames) known = known || key == name;
    for (int p = 0; p < players; ++p) known = known || key == "p" + std::to_string(p);
    if (!known) throw StateFormatError("unknown field " + FieldName(key));
  }
  CheckConsistency(s);
  History hist;
  if (f.has("history")) {
    ReadHistory(s, f, history_keys, &hist);
  } else {
    if (!history_keys.empty())  // history rounds (r1=...) need the history field
      throw StateFormatError("field " + history_keys[0] + ": a history round needs the history field");
    hist.complete = s.round == 1 && s.moves == 0 &&
                    (s.phase == kFirstPlayer || s.phase == kFill || s.phase == kOffer);
    hist.seed_known = false;
    hist.first = s.start;
    if (s.phase == kOffer && hist.complete) {
      RoundHistory round;
      for (int i = 0; i < nf; ++i) round.factories.push_back(TilesToStr(s.factories[i]));
      hist.rounds.push_back(std::move(round));
    }
  }
  if (h) *h = std::move(hist);
  return s;
}

std::string BoardText(const State& s) {
  std::string out = std::string("Azul (") + (s.variant == kClassic ? "coloured" : "grey") +
                    " wall), " + std::to_string(s.players) + " players, round " +
                    std::to_string(s.round) + ", ";
  switch (s.phase) {
    case kOver: {
      out += "game over, winners: ";
      std::vector<int> w = Winners(s);
      for (size_t i = 0; i < w.size(); ++i) out += (i ? ", player " : "player ") + std::to_string(w[i]);
      break;
    }
    case kFirstPlayer:
      out += "chance: the first player is drawn";
      break;
    case kFill:
      out += "chance: a tile is drawn from the bag";
      break;
    case kTiling:
      out += "wall tiling: player " + std::to_string(s.turn) + " places pattern line " +
             std::to_string(PendingRow(s, s.turn) + 1);
      break;
    default:
      out += "player " + std::to_string(s.turn) + " to move";
  }
  out += "\nFactories: ";
  for (int f = 0; f < s.num_factories; ++f) {
    if (f) out += "  ";
    out += std::to_string(f + 1) + ":" + OrDash(TilesToStr(s.factories[f]));
  }
  out += std::string("\nCentre: ") + ((s.marker < 0 && s.phase == kOffer) ? "M " : "") +
         OrDash(TilesToStr(s.centre));
  out += "\nBag: " + std::to_string(Sum5(s.bag)) + "  Lid: " + std::to_string(Sum5(s.lid));
  for (int p = 0; p < s.players; ++p) {
    const PlayerBoard& b = s.board[p];
    std::vector<std::string> tags;
    if (p == s.start) tags.push_back("started the round");
    if (p == s.turn) tags.push_back("to move");
    out += "\nPlayer " + std::to_string(p) + ": score " + std::to_string(b.score);
    if (!tags.empty()) {
      out += " (" + tags[0];
      for (size_t i = 1; i < tags.size(); ++i) out += ", " + tags[i];
      out += ")";
    }
    for (int r = 0; r < 5; ++r) {
      std::string line = LineText(b, r);
      std::string shown = std::string(r + 1 - line.size(), '.') + line;
      char buf[16];
      std::snprintf(buf, sizeof buf, "%5s", shown.c_str());
      out += "\n  " + std::string(buf) + " >";
      for (int c = 0; c < 5; ++c) {
        int x = b.wall[r * 5 + c];
        char ch = x >= 0 ? kColourLetters[x]
                         : (s.variant == kClassic ? static_cast<char>(kColourLetters[(c - r + 5) % 5] + 32)
                                                  : '.');
        out += ' ';
        out += ch;
      }
    }
    std::string floor = FloorText(s, p);
    std::string spaced;
    for (size_t i = 0; i < floor.size(); ++i) {
      if (i) spaced += ' ';
      spaced += floor[i];
    }
    out += "\n  floor: " + OrDash(spaced) + " (-" +
           std::to_string(kFloorPenalty[std::min<int>(static_cast<int>(floor.size()), kFloorSpaces)]) + ")";
  }
  return out;
}

}  // namespace azul

// Moves: legality with messages that name the rule, and applying drafts and tiling choices.
// Pure-Python twin: python/azul_engine/_pure/classic/apply.py.
#include <string>

#include "azul/classic/notation.h"
#include "azul/classic/state.h"

namespace azul {

int CheckActionRange(long long action) {
  if (action < 0 || action >= kNumActions)
    throw IllegalMove("action " + std::to_string(action) + " is out of range 0-" +
                      std::to_string(kNumActions - 1));
  return static_cast<int>(action);
}

void CheckLegal(const State& s, int action) {
  const int phase = s.phase;
  if (phase == kOver) throw IllegalMove("game is over");
  if (phase == kFirstPlayer || phase == kFill)
    return CheckChanceOutcome(kChanceActions, phase == kFirstPlayer, s.bag, s.players, action);
  if (action >= kDrawActionBase)
    throw IllegalMove("action " + std::to_string(action) +
                      " is a chance outcome, and this is not a chance node");
  const int p = s.turn;
  const PlayerBoard& b = s.board[p];
  if (phase == kTiling) {
    int r = PendingRow(s, p);
    if (action < kNumDraftActions)
      throw IllegalMove("wall tiling: player " + std::to_string(p) +
                        " must first choose a wall column for pattern line " +
                        std::to_string(r + 1));
    int col = action - kColumnActionBase;
    int colour = b.line_colour[r];
    if (b.wall[r * 5 + col] >= 0)
      throw IllegalMove("wall row " + std::to_string(r + 1) + ", column " +
                        std::to_string(col + 1) + " is already taken");
    for (int rr = 0; rr < 5; ++rr)
      if (b.wall[rr * 5 + col] == colour)
        throw IllegalMove("wall column " + std::to_string(col + 1) + " already has " +
                          kColourNames[colour]);
    return;
  }
  if (action >= kNumDraftActions)
    throw IllegalMove("action " + std::to_string(action) +
                      " is a wall tiling choice, and no wall tiling decision is pending");
  const int source = action / 30, colour = (action % 30) / 6, dest = action % 6;
  const std::string name = kColourNames[colour];
  if (source == kCentre) {
    if (!s.centre[colour]) throw IllegalMove("the centre has no " + name);
  } else {
    const int nf = s.num_factories;
    if (source >= nf)
      throw IllegalMove("factory " + std::to_string(source + 1) + " does not exist with " +
                        std::to_string(s.players) + " players (factories 1-" +
                        std::to_string(nf) + ")");
    const uint8_t* tiles = s.factories[source];
    if (!Any5(tiles)) throw IllegalMove("factory " + std::to_string(source + 1) + " is empty");
    if (!tiles[colour])
      throw IllegalMove("factory " + std::to_string(source + 1) + " has no " + name);
  }
  if (dest == kFloor) return;
  int lc = b.line_colour[dest], ln = b.line_count[dest];
  if (ln && lc != colour)
    throw IllegalMove("pattern line " + std::to_string(dest + 1) + " already holds " +
                      kColourNames[lc]);
  if (ln == dest + 1) throw IllegalMove("pattern line " + std::to_string(dest + 1) + " is full");
  if (RowHas(s, p, dest, colour))
    throw IllegalMove("wall row " + std::to_string(dest + 1) + " already has " + name);
}

int ToFloor(State& s, int p, int colour, int n) {
  uint8_t* floor = s.board[p].floor;
  int items = Sum5(floor) + ((s.marker == p && s.marker_floor) ? 1 : 0);
  int room = kFloorSpaces - items;
  if (room < 0) room = 0;
  int kept = n < room ? n : room;
  floor[colour] = static_cast<uint8_t>(floor[colour] + kept);
  s.lid[colour] = static_cast<uint8_t>(s.lid[colour] + n - kept);
  return n - kept;
}

static void Draft(State& s, int action, History* h) {
  const int source = action / 30, colour = (action % 30) / 6, dest = action % 6;
  const int p = s.turn;
  PlayerBoard& b = s.board[p];
  int n;
  if (source == kCentre) {
    n = s.centre[colour];
    s.centre[colour] = 0;
    if (s.marker < 0) {
      // The first taker from the centre takes the marker, onto the leftmost free floor space
      // before the tiles land; on a full floor it is kept aside.
      s.marker = static_cast<int8_t>(p);
      s.marker_floor = Sum5(b.floor) < kFloorSpaces;
    }
  } else {
    uint8_t* tiles = s.factories[source];
    n = tiles[colour];
    for (int c = 0; c < kColours; ++c) {
      if (c != colour) s.centre[c] = static_cast<uint8_t>(s.centre[c] + tiles[c]);
      tiles[c] = 0;
    }
  }
  if (dest == kFloor) {
    ToFloor(s, p, colour, n);
  } else {
    int room = dest + 1 - b.line_count[dest];
    int put = n < room ? n : room;
    b.line_colour[dest] = static_cast<int8_t>(colour);
    b.line_count[dest] = static_cast<uint8_t>(b.line_count[dest] + put);
    if (n > put) ToFloor(s, p, colour, n - put);
  }
  bool on_offer = Any5(s.centre);
  for (int f = 0; f < s.num_factories && !on_offer; ++f) on_offer = Any5(s.factories[f]);
  if (on_offer) {
    s.turn = static_cast<int8_t>((p + 1) % s.players);
  } else {
    s.phase = kTiling;
    s.turn = s.start;
    ContinueTiling(s, h);
  }
}

void ApplyAction(State& s, int action, History* h) {
  switch (s.phase) {
    case kOffer:
      // A state read from text may not know the rounds before it: history is written where known.
      if (h && !h->rounds.empty()) h->rounds.back().moves.push_back(DraftToStr(action));
      ++s.moves;
      Draft(s, action, h);
      break;
    case kTiling: {
      const int p = s.turn;
      const int r = PendingRow(s, p);
      if (h && !h->rounds.empty()) {
        std::string m = "W";
        m += static_cast<char>('1' + r);
        m += static_cast<char>('1' + action - kColumnActionBase);
        h->rounds.back().moves.push_back(m);
      }
      ++s.moves;
      MoveToWall(s, p, r, action - kColumnActionBase, h);
      ContinueTiling(s, h);
      break;
    }
    case kFill: {
      const int colour = action - kDrawActionBase;
      for (int f = 0; f < s.num_factories; ++f) {
        if (Sum5(s.factories[f]) < 4) {
          ++s.factories[f][colour];
          --s.bag[colour];
          break;
        }
      }
      ContinueFill(s, h);
      break;
    }
    case kFirstPlayer:
      s.start = static_cast<int8_t>(action - kFirstPlayerActionBase);
      if (h) h->first = s.start;
      StartRound(s, h);
      break;
    default:
      break;
  }
}

}  // namespace azul

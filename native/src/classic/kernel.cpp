// The playout kernel of classic and grey-wall Azul (kernel.h): a game as a few words, templated on
// the player count and the variant, played exactly as PlayRandom plays a full State.
//
// Representation (one Game<P, Grey> is 248 bytes for 2 players, 424 for 4):
// - every source (factories, then the centre), the lid and the bag is one uint64_t holding one
//   byte per colour; the bag is kept as guarded prefix sums (byte c: 0x80 | tiles of colours 0..c),
//   so drawing the k-th tile is a subtraction and a mask;
// - a player's wall is a 25-bit bitboard (bit 5 * row + column) and its transpose, plus the colours
//   of each row and the columns of each colour;
// - `lanes` has one byte per colour, bit r set when pattern line r may take that colour (the offer
//   rules), updated when a line takes a colour, fills or empties;
// - the floor line is a sixth pattern line of capacity 0, so every draft takes the same path; floor
//   tiles go straight to the lid (nothing reads the lid before the round's end), and only the number
//   of floor items is kept.
// A draft is found without listing the legal moves: a source's number of moves is the byte sum of
// (1 + open lines) over its colours, the colour within a source by a byte-wise prefix-sum compare, the
// line by a table.  Tables and an incrementally kept transposed wall replace the limit build's
// pext/pdep/popcnt; the one bit trick left (lowest set bit, bits.h) has a plain C++ fallback.
// Pure-Python twin: python/azul_engine/_pure/classic/playout.py.
#include "azul/classic/kernel.h"

#include <cstring>

#include "azul/common/bits.h"
#include "azul/common/parallel.h"
#include "azul/common/rng.h"

namespace azul {
namespace {

constexpr uint64_t kOnes = 0x0101010101ULL;     // 1 in each of the five colour bytes
constexpr uint64_t kGuards = 0x8080808080ULL;   // bit 7 of each colour byte
constexpr uint64_t kLow7 = 0x7F7F7F7F7FULL;
constexpr uint64_t kFiveBytes = 0xFFFFFFFFFFULL;
constexpr uint32_t kRowStarts = 0x108421;       // bits 0, 5, 10, 15, 20: column 0 of each row
constexpr int kCapacity[6] = {1, 2, 3, 4, 5, 0};  // pattern lines 1-5, then the floor as a dummy line

struct Tables {
  uint8_t select[32][8];  // the k-th set bit of m for k < popcount(m), else 5 (the floor)
  uint8_t run[32][5];     // the length of the run of set bits of m through bit j (set)
  uint8_t bits[32];       // popcount
  uint64_t spread[32];    // bit c of m moved to bit 8c
  constexpr Tables() : select(), run(), bits(), spread() {
    for (int m = 0; m < 32; ++m) {
      int k = 0;
      for (int j = 0; j < 5; ++j)
        if (m >> j & 1) select[m][k++] = static_cast<uint8_t>(j);
      bits[m] = static_cast<uint8_t>(k);
      for (; k < 8; ++k) select[m][k] = 5;
      for (int j = 0; j < 5; ++j) {
        if (!(m >> j & 1)) continue;
        int lo = j, hi = j;
        while (lo > 0 && (m >> (lo - 1) & 1)) --lo;
        while (hi < 4 && (m >> (hi + 1) & 1)) ++hi;
        run[m][j] = static_cast<uint8_t>(hi - lo + 1);
      }
      for (int c = 0; c < 5; ++c)
        if (m >> c & 1) spread[m] |= 1ULL << (8 * c);
    }
  }
};
constexpr Tables kT;

inline uint64_t Pack(const uint8_t* counts) {
  uint64_t w = 0;
  for (int c = 0; c < kColours; ++c) w |= static_cast<uint64_t>(counts[c]) << (8 * c);
  return w;
}

// 0xFF in byte c when counts has colour c (counts below 128).
inline uint64_t Present(uint64_t counts) { return (((counts + kLow7) & kGuards) >> 7) * 0xFF; }

inline int ByteSum(uint64_t w) { return static_cast<int>((w * kOnes) >> 32 & 0xFF); }

// The bag's counts as guarded prefix sums (totals of at most 100 < 128).
inline uint64_t Cumulate(uint64_t counts) { return ((counts * kOnes) & kFiveBytes) | kGuards; }
inline int CumTotal(uint64_t cum) { return static_cast<int>(cum >> 32 & 0x7F); }
inline uint64_t Uncumulate(uint64_t cum) {
  const uint64_t prefix = cum & kLow7;
  return (prefix - (prefix << 8)) & kFiveBytes;
}

// Takes the k-th tile in colour order out of `cum`; returns one tile of its colour (1 << 8c).
inline uint64_t TakeTile(uint64_t& cum, uint64_t k) {
  const uint64_t at_or_above = ((cum - (k + 1) * kOnes) & kGuards) >> 7;  // 1 in bytes c..4
  cum -= at_or_above;
  return at_or_above & (~at_or_above + 1);
}
// Draws the k-th tile in colour order, k = Below(rng, total), as ContinueFill does.
inline uint64_t DrawTile(uint64_t& rng, uint64_t& cum, int total) {
  return TakeTile(cum, static_cast<uint64_t>(Below(rng, total)));
}

inline int TilePoints(int across, int down) {
  if (across == 1 && down == 1) return 1;
  return (across > 1 ? across : 0) + (down > 1 ? down : 0);
}

// Number of set bits among bits 0, 5, 10, 15, 20.
inline int CountRowStarts(uint32_t m) {
  return (m & 1) + (m >> 5 & 1) + (m >> 10 & 1) + (m >> 15 & 1) + (m >> 20 & 1);
}
// Bit 5r set when row r of the bitboard is full.
inline uint32_t FullRows(uint32_t w) { return w & w >> 1 & w >> 2 & w >> 3 & w >> 4 & kRowStarts; }

struct Player {
  uint64_t lanes;              // byte c: bit r set when pattern line r may take colour c
  uint64_t widths;             // byte c: 1 + the lines open to colour c (the moves it gives a source)
  uint32_t wall;               // bit 5 * row + column
  uint32_t wall_t;             // bit 5 * column + row
  int32_t score;
  int32_t floor_items;         // tiles and the marker on the floor line, at most 7
  uint8_t line_count[6];       // [5]: the floor as a dummy line, always empty
  uint8_t line_colour[6];
  uint8_t row_colours[5];      // bit c: the wall row holds colour c
  uint8_t colour_columns[5];   // bit col: the wall column holds colour c
};

template <int P, bool Grey>
struct Game {
  static constexpr int kFactories = 2 * P + 1;
  static constexpr int kSources = kFactories + 1;  // the centre is source kFactories
  uint64_t rng;
  uint64_t source[kSources];
  uint64_t present[kSources];  // 0xFF in byte c when the source holds colour c
  uint64_t bag;  // guarded prefix sums
  uint64_t lid;
  int on_offer;  // tiles left in the sources
  int round;
  int start;
  int marker;    // -1 while the first-player marker is in the centre
  Player player[P];

  // Fills the factories from (factory, its tiles) on, as ContinueFill.
  void FillFrom(int f) {
    uint64_t cum = bag;
    int total = CumTotal(cum);
    for (; f < kFactories; ++f) {
      for (int have = ByteSum(source[f]); have < 4; ++have) {
        if (!total) {
          cum = Cumulate(lid);
          lid = 0;
          total = CumTotal(cum);
          if (!total) {
            present[f] = Present(source[f]);
            bag = cum;
            return;
          }
        }
        source[f] += DrawTile(rng, cum, total--);
        ++on_offer;
      }
      present[f] = Present(source[f]);
    }
    bag = cum;
  }

  // A new round's fill (every source empty).
  void FillRound() {
    if (CumTotal(bag) >= 4 * kFactories) {  // no refill can happen: no checks
      // The draws' positions first (rng.h's BelowCountdown: four at a time), then the tiles.
      constexpr int kDraws = 4 * kFactories;
      uint64_t at[kDraws];
      uint64_t cum = bag;
      BelowCountdown(rng, CumTotal(cum), at, kDraws);
      rng += kDraws * kSplitMixGamma;
      for (int f = 0; f < kFactories; ++f) {
        uint64_t tiles = TakeTile(cum, at[4 * f]);
        tiles += TakeTile(cum, at[4 * f + 1]);
        tiles += TakeTile(cum, at[4 * f + 2]);
        tiles += TakeTile(cum, at[4 * f + 3]);
        source[f] = tiles;
        present[f] = Present(tiles);
      }
      bag = cum;
      on_offer = 4 * kFactories;
    } else {
      FillFrom(0);
    }
  }

  // One random draft by `p`: LegalActions(s)[Below(policy, count)] applied.  Light: the
  // drafts to a pattern line only (widths less the floor's 1 a colour), or when there is none,
  // the drafts to the floor (1 a colour, and `floor` set), in the same id order.
  template <bool Light>
  void Draft(int p, uint64_t& policy) {
    Player& me = player[p];
    const uint64_t lanes = me.lanes;
    uint64_t widths = me.widths;
    bool floor = false;
    // Bytes summed over the sources stay below 256 (at most 10 sources x 6 moves a colour).
    uint64_t all = 0, colours = 0;
    for (int i = 0; i < kSources; ++i) {
      all += widths & present[i];
      if (Light) colours += kOnes & present[i];
    }
    int n = ByteSum(all);
    if (Light) {
      const int floors = ByteSum(colours);
      floor = n == floors;
      widths = floor ? kOnes : widths - kOnes;
      n = floor ? floors : n - floors;
    }
    int k = Below(policy, n);
    int i = 0;
    uint64_t masked;
    for (;; ++i) {
      masked = widths & present[i];
      const int weight = ByteSum(masked);
      if (k < weight) break;
      k -= weight;
    }
    // The colour: the first whose prefix sum of widths exceeds k.
    const uint64_t prefix = (masked * kOnes) & kFiveBytes;
    const uint64_t above = ((prefix | kGuards) - static_cast<uint64_t>(k + 1) * kOnes) & kGuards;
    const int shift = LowestBit(above) - 7;  // 8 * colour
    const int colour = shift >> 3;
    const int within = k - static_cast<int>(prefix >> shift & 0xFF) +
                       static_cast<int>(masked >> shift & 0xFF);
    const int dest = Light && floor ? 5 : kT.select[lanes >> shift & 31][within];

    const uint64_t tiles = source[i];
    const int count = static_cast<int>(tiles >> shift & 0xFF);
    const uint64_t others = ~(0xFFULL << shift);
    source[i] = 0;
    source[kFactories] += tiles & others;  // from the centre: the centre's other tiles
    const uint64_t left = present[i] & others;
    present[i] = 0;
    present[kFactories] |= left;
    on_offer -= count;
    // The first taker from the centre takes the marker, onto a free floor space if there is one
    // (without branches: whether a draft is from the centre is a coin toss for the predictor).
    const bool takes_marker = (i == kFactories) & (marker < 0);
    marker = takes_marker ? p : marker;
    me.floor_items += takes_marker & (me.floor_items < kFloorSpaces);
    const int room = kCapacity[dest] - me.line_count[dest];
    const int put = count < room ? count : room;
    me.line_count[dest] = static_cast<uint8_t>(me.line_count[dest] + put);
    me.line_colour[dest] = static_cast<uint8_t>(colour);
    const int over = count - put, floor_room = kFloorSpaces - me.floor_items;
    me.floor_items += over < floor_room ? over : floor_room;
    lid += static_cast<uint64_t>(over) << shift;
    const uint64_t open = (lanes & ~(kOnes << dest)) |
                          static_cast<uint64_t>(me.line_count[dest] != kCapacity[dest]) << (shift + dest);
    me.lanes = open;
    me.widths -= (lanes & ~open) >> dest;  // one less in each colour byte that lost line `dest`
  }

  void Place(Player& b, int row, int col, int colour) {
    b.wall |= 1u << (5 * row + col);
    b.wall_t |= 1u << (5 * col + row);
    b.row_colours[row] = static_cast<uint8_t>(b.row_colours[row] | 1 << colour);
    b.colour_columns[colour] = static_cast<uint8_t>(b.colour_columns[colour] | 1 << col);
    b.score += TilePoints(kT.run[b.wall >> (5 * row) & 31][col], kT.run[b.wall_t >> (5 * col) & 31][row]);
    lid += static_cast<uint64_t>(row) << (8 * colour);  // the line's other tiles
  }

  // Wall tiling from player `from` round to the starter, as TileWalls; returns the grey-wall
  // decisions made (plies).
  uint64_t Tile(int from, uint64_t& policy) {
    uint64_t plies = 0;
    int p = from;
    do {
      Player& b = player[p];
      for (int r = 0; r < 5; ++r) {
        if (b.line_count[r] != r + 1) continue;
        const int colour = b.line_colour[r];
        if (!Grey) {
          const int col = colour + r < 5 ? colour + r : colour + r - 5;
          Place(b, r, col, colour);
        } else {
          const int allowed = ~(b.wall >> (5 * r)) & 31 & ~b.colour_columns[colour];
          if (allowed) {
            Place(b, r, kT.select[allowed][Below(policy, kT.bits[allowed])], colour);
            ++plies;
          } else {  // no allowed cell: the line goes to the floor, the rest to the lid
            const int floor_room = kFloorSpaces - b.floor_items;
            b.floor_items += r + 1 < floor_room ? r + 1 : floor_room;
            lid += static_cast<uint64_t>(r + 1) << (8 * colour);
          }
        }
        b.line_count[r] = 0;
        b.lanes |= kT.spread[~b.row_colours[r] & 31] << r;  // the line was closed to every colour
        b.widths += kT.spread[~b.row_colours[r] & 31];
      }
      const int score = b.score - kFloorPenalty[b.floor_items];
      b.score = score > 0 ? score : 0;
      b.floor_items = 0;
      p = p + 1 == P ? 0 : p + 1;
    } while (p != start);
    return plies;
  }

  // Rules 1, stuck games: no tile in the bag or lid can ever reach a wall (IsStuck).
  bool Stuck() const {
    const uint64_t available = Uncumulate(bag) | lid;
    for (int p = 0; p < P; ++p) {
      const Player& b = player[p];
      for (int r = 0; r < 5; ++r) {
        const int empty = ~(b.wall >> (5 * r)) & 31;
        for (int c = 0; c < kColours; ++c) {
          if (!(available >> (8 * c) & 0xFF)) continue;
          if ((b.line_count[r] && b.line_colour[r] != c) || (b.row_colours[r] >> c & 1)) continue;
          if (empty & ~b.colour_columns[c]) return false;
        }
      }
    }
    return true;
  }

  // The end of a round (EndRound): true when the game is over, with the end bonuses scored.
  bool EndRound() {
    uint32_t full = 0;
    for (int p = 0; p < P; ++p) full |= FullRows(player[p].wall);
    if (full || round >= kMaxRounds || Stuck()) {
      for (int p = 0; p < P; ++p) {
        Player& b = player[p];
        int colours = 0;
        for (int c = 0; c < kColours; ++c) colours += b.colour_columns[c] == 31;
        b.score += 2 * CountRowStarts(FullRows(b.wall)) + 7 * CountRowStarts(FullRows(b.wall_t)) +
                   10 * colours;
      }
      return true;
    }
    if (marker >= 0) start = marker;
    marker = -1;
    ++round;
    return false;
  }

  // Plays on from the offer phase with `turn` to move; returns the plies played.
  template <bool Light>
  uint64_t PlayFromOffer(int turn, uint64_t& policy) {
    uint64_t plies = 0;
    for (;;) {
      int p = turn;
      while (on_offer) {
        Draft<Light>(p, policy);
        p = p + 1 == P ? 0 : p + 1;
        ++plies;
      }
      plies += Tile(start, policy);
      if (EndRound()) return plies;
      FillRound();
      turn = start;
    }
  }

  void Scores(int32_t* out) const {
    for (int p = 0; p < P; ++p) out[p] = player[p].score;
  }

  void NewGame(uint64_t seed) {
    std::memset(static_cast<void*>(this), 0, sizeof *this);
    rng = seed;
    round = 1;
    bag = Cumulate(kOnes * kTilesPerColour);
    marker = -1;
    for (int p = 0; p < P; ++p) {
      player[p].lanes = kOnes * 31;
      player[p].widths = kOnes * 6;
    }
    start = Below(rng, P);
    FillRound();
  }

  void Load(const State& s) {
    std::memset(static_cast<void*>(this), 0, sizeof *this);
    rng = s.rng;
    round = s.round;
    for (int f = 0; f < kFactories; ++f) source[f] = Pack(s.factories[f]);
    source[kFactories] = Pack(s.centre);
    for (int i = 0; i < kSources; ++i) {
      on_offer += ByteSum(source[i]);
      present[i] = Present(source[i]);
    }
    bag = Cumulate(Pack(s.bag));
    lid = Pack(s.lid);
    start = s.start;
    marker = s.marker;
    for (int p = 0; p < P; ++p) {
      const PlayerBoard& from = s.board[p];
      Player& b = player[p];
      b.score = from.score;
      lid += Pack(from.floor);
      b.floor_items = Sum5(from.floor) + (s.marker == p && s.marker_floor ? 1 : 0);
      if (b.floor_items > kFloorSpaces) b.floor_items = kFloorSpaces;
      for (int r = 0; r < 5; ++r) {
        for (int col = 0; col < 5; ++col) {
          const int colour = from.wall[r * 5 + col];
          if (colour < 0) continue;
          b.wall |= 1u << (5 * r + col);
          b.wall_t |= 1u << (5 * col + r);
          b.row_colours[r] = static_cast<uint8_t>(b.row_colours[r] | 1 << colour);
          b.colour_columns[colour] = static_cast<uint8_t>(b.colour_columns[colour] | 1 << col);
        }
        b.line_count[r] = from.line_count[r];
        b.line_colour[r] = static_cast<uint8_t>(from.line_count[r] ? from.line_colour[r] : 0);
        int ok = 0;  // the colours pattern line r may take, as OpenLanes
        if (from.line_count[r] == 0)
          ok = ~b.row_colours[r] & 31;
        else if (from.line_count[r] <= r)
          ok = (1 << from.line_colour[r]) & ~b.row_colours[r];
        b.lanes |= kT.spread[ok] << r;
        b.widths += kT.spread[ok];
      }
      b.widths += kOnes;
    }
  }

  // Plays a loaded state on from its phase, as PlayRandom (explicit chance played as sampled).
  template <bool Light>
  uint64_t PlayLoaded(const State& s, uint64_t& policy) {
    switch (s.phase) {
      case kFirstPlayer:
        start = Below(rng, P);
        FillRound();
        return PlayFromOffer<Light>(start, policy);
      case kFill:
        FillFrom(0);
        return PlayFromOffer<Light>(start, policy);
      case kOffer:
        return PlayFromOffer<Light>(s.turn, policy);
      case kTiling: {
        uint64_t plies = Tile(s.turn, policy);
        if (EndRound()) return plies;
        FillRound();
        return plies + PlayFromOffer<Light>(start, policy);
      }
      default:
        return 0;
    }
  }
};

template <int P, bool Grey, bool Light>
uint64_t NewAndPlay(uint64_t seed, uint64_t& policy, int32_t* scores) {
  Game<P, Grey> g;
  g.NewGame(seed);
  const uint64_t plies = g.template PlayFromOffer<Light>(g.start, policy);
  g.Scores(scores);
  return plies;
}

// Continuations of one state: it is converted once; each continuation copies the compact game
// and gets its own generator.
template <int P, bool Grey, bool Light>
uint64_t LoadAndPlay(const State& s, int n, uint64_t seed, int threads, int32_t* out, StopCheck stop) {
  Game<P, Grey> start;
  start.Load(s);
  return PlayoutBatch(n, P, seed, threads, out, stop,
                      [&](uint64_t game_seed, uint64_t& policy, int32_t* scores) {
                        Game<P, Grey> g = start;
                        g.rng = game_seed;
                        const uint64_t plies = g.template PlayLoaded<Light>(s, policy);
                        g.Scores(scores);
                        return plies;
                      });
}

}  // namespace

template <bool Light>
uint64_t NewGameOf(int players, bool grey, uint64_t game_seed, uint64_t& policy, int32_t* scores) {
  switch (players) {
    case 2: return grey ? NewAndPlay<2, true, Light>(game_seed, policy, scores)
                        : NewAndPlay<2, false, Light>(game_seed, policy, scores);
    case 3: return grey ? NewAndPlay<3, true, Light>(game_seed, policy, scores)
                        : NewAndPlay<3, false, Light>(game_seed, policy, scores);
    default: return grey ? NewAndPlay<4, true, Light>(game_seed, policy, scores)
                         : NewAndPlay<4, false, Light>(game_seed, policy, scores);
  }
}

template <bool Light>
uint64_t PlayoutsOf(const State& s, int n, uint64_t seed, int threads, int32_t* out,
                    StopCheck stop) {
  const bool grey = s.variant == kGrey;
  switch (s.players) {
    case 2: return grey ? LoadAndPlay<2, true, Light>(s, n, seed, threads, out, stop)
                        : LoadAndPlay<2, false, Light>(s, n, seed, threads, out, stop);
    case 3: return grey ? LoadAndPlay<3, true, Light>(s, n, seed, threads, out, stop)
                        : LoadAndPlay<3, false, Light>(s, n, seed, threads, out, stop);
    default: return grey ? LoadAndPlay<4, true, Light>(s, n, seed, threads, out, stop)
                         : LoadAndPlay<4, false, Light>(s, n, seed, threads, out, stop);
  }
}

uint64_t KernelNewGame(int players, Variant variant, uint64_t game_seed, uint64_t& policy,
                       int32_t* scores, bool light) {
  return light ? NewGameOf<true>(players, variant == kGrey, game_seed, policy, scores)
               : NewGameOf<false>(players, variant == kGrey, game_seed, policy, scores);
}

uint64_t KernelPlayoutsFrom(const State& s, int n, uint64_t seed, int threads, int32_t* out,
                            StopCheck stop, bool light) {
  return light ? PlayoutsOf<true>(s, n, seed, threads, out, stop)
               : PlayoutsOf<false>(s, n, seed, threads, out, stop);
}

}  // namespace azul

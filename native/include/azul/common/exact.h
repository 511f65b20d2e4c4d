// The exact search of the rest of a round (docs/search.md section 16), over the rules traits of
// azul/variant.h: each position's best line to the round's end, each player maximising its points
// gained this round against the others' (alpha-beta at 2 players, max^n at 3 and 4), with a
// transposition table keyed by the position key.  solve_round runs it from a position; both searches
// run it at their leaves near a round's end (exact=N).
// Pure-Python twin: python/azul_engine/_pure/exact.py.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "azul/common/parallel.h"
#include "azul/common/types.h"

namespace azul {

constexpr int64_t kDefaultSolveNodes = 1000000;  // solve_round's node cap (section 16.5)
constexpr int kExactTableBits = 16;              // a search's table: 2^16 slots a thread (section 16.4)

// What a table entry's value is.
enum ExactFlag : int8_t { kEmptyEntry = 0, kExactValue = 1, kLowerBound = 2, kUpperBound = 3 };

// A position's entry: at 2 players value[0] is its value for the player to move (section 16.3), at 3
// and 4 value[p] is player p's gain along its best line; `move` its best move (a hint when a bound).
struct ExactEntry {
  uint64_t key;
  uint64_t check;  // KeyCheck's hash of the key's words (azul/common/key.h: the key alone collides)
  int32_t value[kMaxPlayers];
  int16_t move;
  int8_t flag;
  int8_t unused;
};
static_assert(sizeof(ExactEntry) == 40, "an entry is 40 bytes");

// A transposition table keyed by the position key, each entry checked by a second hash of its words.
// Lossless (solve_round): every entry kept, the table growing as it fills, so that both engines search
// the same positions.  Otherwise (the searches) 2^bits slots, a new entry replacing the one in its slot:
// what it keeps changes how much is searched, never what is found (section 16.3).
class ExactTable {
 public:
  ExactTable(int bits, bool lossless);
  const ExactEntry* Find(uint64_t key, uint64_t check) const;
  void Store(const ExactEntry& e);

 private:
  void Grow();
  std::vector<ExactEntry> slots_;
  uint64_t mask_;
  size_t used_ = 0;
  bool lossless_;
};

// Thrown when a solve needs more positions than its cap.
class NodeCap : public std::exception {
 public:
  const char* what() const noexcept override { return "node cap"; }
};

// The exact search over rules R (ClassicRules or PavilionRules), for one variant and player count.
template <typename R>
class RoundSolver {
 public:
  using State = typename R::State;

  // max_nodes <= 0: no cap (the searches).  `stop` is polled about every kPollMillis ms, and `halt` (if
  // not null: a search's flag, set when another thread saw Ctrl-C) every 1024 positions; when either
  // says stop, Interrupted is thrown.
  // `bits`: a lossy table's size, 2^bits slots.
  RoundSolver(int players, bool lossless, int64_t max_nodes = 0, StopCheck stop = {},
              const std::atomic<bool>* halt = nullptr, int bits = kExactTableBits);

  // Section 16.3: the best line from `s` (a decision node within a round) to the horizon of 16.1,
  // into line(); `end` (if not null) receives the position it reaches.
  void Line(const State& s, State* end = nullptr);
  const std::vector<int16_t>& line() const { return line_; }

  // Section 16.4: the best line played on `s`, each pass replaced by one drawn from `rng` among the
  // legal passes that keep as many tiles.
  void PlayLine(State& s, uint64_t& rng);

  // Section 16.3: the best move of `s` (a decision node within a round), `s` solved first.
  int Best(const State& s);

  // What is polled for Ctrl-C from now on (the calling thread's, or nothing on another thread).
  void SetStop(StopCheck stop) { stop_ = stop; }

  // Section 16.2: the moves considered at `s`, ascending; returns their count.
  static int Moves(const State& s, int16_t* out) { return R::ExactMoves(s, out); }

  int64_t nodes() const { return nodes_; }

 private:
  int Negamax(const State& s, int alpha, int beta, int16_t* move);
  void MaxN(const State& s, int32_t* gains, int16_t* move);
  void Count();

  ExactTable table_;
  int players_;
  int64_t max_nodes_;
  StopCheck stop_;
  const std::atomic<bool>* halt_;
  int64_t nodes_ = 0;
  std::chrono::steady_clock::time_point polled_;
  std::vector<int16_t> line_;
};

// One root move of solve_round: every player's gains along its best line, and its value for the
// player to move (gain less the mean of the others').
struct RoundRow {
  int action;
  int32_t gains[kMaxPlayers];
  double value;
};

// What solve_round found (section 16.5).
struct RoundOutcome {
  int player = 0;
  std::vector<RoundRow> rows;  // best first; ties: the lower id
  std::vector<int> pv;
  std::vector<std::string> pv_moves;
  const char* end = "round";  // "round", "game" or "refill"
  int64_t nodes = 0;
  double seconds = 0;
};

// Section 16.5: every move of `s` (a decision node, not over; the caller checks) valued to the
// round's end.  Throws NodeCap past `max_nodes` positions, Interrupted when `stop` says stop.
template <typename R>
RoundOutcome SolveRound(const typename R::State& s, int64_t max_nodes, StopCheck stop = {});

}  // namespace azul

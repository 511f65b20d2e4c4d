// state.undo() (docs/game-api.md "Undo"): before each Apply() the game (common/game.h) keeps the position (a copy, the
// generator included) and the length of the history then; undo puts both back.  Only the end
// of a history ever changes during play (moves appended to its last round, that round's scores
// set, rounds appended, the first player and Summer Pavilion's setup supply written once), so a
// few counts restore it exactly.
// (In the pure engine: _pure/common.py history_mark / restore_history.)
// Pure-Python twin: python/azul_engine/_pure/classic/undo.py, python/azul_engine/_pure/pavilion/undo.py.
#pragma once

#include <cstdint>
#include <vector>

#include "azul/classic/state.h"
#include "azul/pavilion/state.h"

namespace azul {

template <typename S>
struct UndoStep {
  // Built in place in the undo vector: the position is copied once.
  template <typename H>
  UndoStep(const S& state, const H& h, bool supply_known)
      : s(state),
        rounds(static_cast<uint32_t>(h.rounds.size())),
        moves(h.rounds.empty() ? 0 : static_cast<uint32_t>(h.rounds.back().moves.size())),
        scored(!h.rounds.empty() && !h.rounds.back().scores.empty()),
        supply(supply_known),
        first(static_cast<int8_t>(h.first)) {}
  S s;
  uint32_t rounds;  // rounds in the history
  uint32_t moves;   // moves of its last round
  bool scored;      // the last round had its scores
  bool supply;      // Summer Pavilion: the setup supply was known
  int8_t first;
};

template <typename H, typename S>
void RestoreHistory(H& h, const UndoStep<S>& u) {
  if (h.rounds.size() > u.rounds) h.rounds.resize(u.rounds);
  if (!h.rounds.empty()) {
    RoundHistory& last = h.rounds.back();
    if (last.moves.size() > u.moves) last.moves.resize(u.moves);
    if (!u.scored) last.scores.clear();
  }
  h.first = u.first;
}

// Room for a whole game is made at the first move.
inline void PushUndo(std::vector<UndoStep<State>>& undo, const State& s, const History& h) {
  if (undo.capacity() == 0) undo.reserve(128);
  undo.emplace_back(s, h, false);
}

inline void PushUndo(std::vector<UndoStep<sp::State>>& undo, const sp::State& s,
                     const sp::History& h) {
  if (undo.capacity() == 0) undo.reserve(128);
  undo.emplace_back(s, h, h.supply_known);
}

inline void PopUndo(std::vector<UndoStep<State>>& undo, State& s, History& h) {
  const UndoStep<State>& u = undo.back();
  s = u.s;
  RestoreHistory(h, u);
  undo.pop_back();
}

inline void PopUndo(std::vector<UndoStep<sp::State>>& undo, sp::State& s, sp::History& h) {
  const UndoStep<sp::State>& u = undo.back();
  s = u.s;
  RestoreHistory(h, u);
  if (!u.supply) {
    h.supply_known = false;
    h.supply.clear();
  }
  undo.pop_back();
}

// What undo() says with nothing to take back (both engines raise IllegalMoveError with it).
constexpr const char* kNothingToUndo =
    "undo: no move to take back (none was applied since this state was made, read from text, "
    "dealt or reseeded)";

}  // namespace azul

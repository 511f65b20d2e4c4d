// A game: the position, the history of how it came about (what records and score sheets are written
// from) and what Undo() takes back, for the rules R (ClassicRules or PavilionRules, azul/variant.h),
// in the manner of OpenSpiel's State with its UndoAction.  This is what a C++ user of the core
// plays: Apply() checks and plays a move and keeps the history, Undo() takes it back exactly (the
// generator included), Deal()/Reseed() start the history of undos anew.  The Python bindings hold
// one Game per GameState/PavilionState and forward to it.
// Pure-Python twin: none (in the pure engine the state classes carry their history and undo stack
// themselves: _pure/classic/state.py, _pure/pavilion/state.py; the undo steps: common/undo.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "azul/common/undo.h"
#include "azul/variant.h"

namespace azul {

template <typename R>
class Game {
 public:
  using Rules = R;
  using State = typename R::State;
  using History = typename R::History;

  Game() = default;
  // A game that begins at `s`, with the history `h` that led there (undo starts empty).
  Game(State s, History h) : s_(std::move(s)), h_(std::move(h)) {}

  // A new game (azul::NewGame / sp::NewGame).
  static Game New(int players, Variant variant, uint64_t seed, bool explicit_chance) {
    Game g;
    g.s_ = R::NewGame(players, variant, seed, explicit_chance, &g.h_);
    return g;
  }
  // A game read from its state text (with or without history); StateFormatError when it is not
  // one of R's.
  static Game FromText(const std::string& text) {
    Game g;
    g.s_ = R::FromText(text, &g.h_);
    return g;
  }

  const State& state() const { return s_; }
  const History& history() const { return h_; }
  bool IsOver() const { return R::IsOver(s_); }
  bool IsChanceNode() const { return R::IsChanceNode(s_); }
  int CurrentPlayer() const { return R::CurrentPlayer(s_); }
  std::vector<int> LegalActions() const { return R::LegalActionList(s_); }
  uint64_t Key() const { return R::Key(s_); }
  // The state text, with the history when `with_history`.
  std::string ToText(bool with_history) const { return R::ToText(s_, with_history ? &h_ : nullptr); }
  std::string RecordJson() const { return R::RecordJson(s_, h_); }
  std::string ScoreSheetJson() const { return R::ScoreSheetJson(s_, h_); }
  // Each seat's return (docs/rules.md's winners, the adapters' returns): 0 for every seat until
  // the game is over, then +1 for a sole winner, 0 for each of several winners, -1 for the others.
  std::vector<double> Returns() const {
    const std::vector<int> winners = R::Winners(s_);
    std::vector<double> out(static_cast<std::size_t>(R::Players(s_)), winners.empty() ? 0.0 : -1.0);
    for (int p : winners) out[static_cast<std::size_t>(p)] = winners.size() == 1 ? 1.0 : 0.0;
    return out;
  }

  // Plays `action`: IllegalMove (naming why) unless it is legal here; the position is unchanged then.
  void Apply(int action) {
    R::CheckLegal(s_, action);
    ApplyLegal(action);
  }
  // Plays an action the caller has checked with R::CheckLegal (the bindings' fast path).
  void ApplyLegal(int action) {
    PushUndo(undo_, s_, h_);
    R::ApplyAction(s_, action, &h_);
  }
  // How many Apply()s Undo() can take back.
  std::size_t UndoDepth() const { return undo_.size(); }
  // Takes back the last Apply(): position, generator and history as they were before it.
  // IllegalMove(kNothingToUndo) when there is none.
  void Undo() {
    if (undo_.empty()) throw IllegalMove(kNothingToUndo);
    PopUndo(undo_, s_, h_);
  }
  // Fills the factories of an explicit-chance deal (one string of colour letters each); checks
  // the phase and the count first.  Nothing before it can be undone.
  void Deal(const std::vector<std::string>& factories) {
    R::CheckDealShape(s_, factories.size());
    R::Deal(s_, factories, &h_);
    undo_.clear();
  }
  // Checks the phase of a deal before its factories are read (the bindings check it first, as the
  // pure engine does).
  void CheckDealPhase() const { R::CheckDealShape(s_, s_.num_factories); }
  // Summer Pavilion's refill of the supply from the bag (counts per colour, sp::kColours of
  // them); only for PavilionRules.  Nothing before it can be undone.
  void DealSupply(const int* counts) {
    sp::DealSupply(s_, counts, &h_);
    undo_.clear();
  }
  // A new generator seed: the draws from here are no longer the game's seed's, and nothing
  // before it can be undone.
  void Reseed(uint64_t seed) {
    s_.rng = seed;
    h_.seed_known = false;
    undo_.clear();
  }

 private:
  State s_;
  History h_;
  std::vector<UndoStep<State>> undo_;
};

using ClassicGame = Game<ClassicRules>;
using PavilionGame = Game<PavilionRules>;

}  // namespace azul

// Shared by the binding files of azul_engine._cppengine (module.cpp, bind_classic.cpp,
// bind_pavilion.cpp, bind_vector.cpp, fast_loop.cpp): the Python game objects and the converters
// between Python values and the core's.  No rules here: the bindings convert types and forward
// to native/, whose rules they reach through the rules traits of azul/variant.h.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "azul/common/network.h"
#include "azul/common/parallel.h"
#include "azul/common/pystr.h"
#include "azul/common/game.h"
#include "azul/variant.h"

namespace azul {
namespace bind {

namespace py = pybind11;

// The flags of an input array read through a typed pointer (py::array_t<T, kReadable>): C-contiguous and aligned,
// numpy copying one that is not (an int64 or a float read at an address that is not a multiple of its size is
// undefined behaviour).  A caller's buffer that the engine writes into is refused instead when it is not aligned
// (bind_vector.cpp's CheckObservations, CheckRewards).
constexpr int kReadable = py::array::c_style | py::array::forcecast | py::detail::npy_api::NPY_ARRAY_ALIGNED_;

// A GameState holds an azul::ClassicGame, a PavilionState an azul::PavilionGame: the core's game
// with its history and undo (azul/common/game.h), to which the methods forward.

constexpr const char* kGameHint = "use azul_engine.new_game(...) or GameState.from_text(text)";
constexpr const char* kPavilionHint =
    "use azul_engine.new_game(..., variant='summer-pavilion') or from_text(text)";

// ---- module.cpp: converters ----
// A str as UTF-8; lone surrogates pass through (as the pure engine reads any str).
std::string Utf8(const py::handle& obj);
std::string TypeName(const py::handle& obj);
// Python truth, as `if history:` in the pure engine.
bool Truthy(const py::handle& obj);
// An action id of rules with `num_actions` actions from an int-like (ints, numpy integers);
// bools and other types are TypeErrors; the range is checked by `check_range`.
int ToAction(const py::handle& obj, int num_actions, int (*check_range)(long long));
// PyNumber_Index of an int-like (not a bool); otherwise TypeError, `words` and the type's name (the
// pure engine: common.as_index).
py::object AsIndex(const py::handle& obj, const char* words);
// action_to_string's argument: an action id; a str is refused naming string_to_action.
int IdToName(const py::handle& obj, int num_actions, int (*check_range)(long long));
template <typename R>
int ToAction(const py::handle& obj) {
  return ToAction(obj, R::kNumActions, &R::CheckActionRange);
}
template <typename R>
int IdToName(const py::handle& obj) {
  return IdToName(obj, R::kNumActions, &R::CheckActionRange);
}
uint64_t ToSeed(const py::handle& obj);
// new_game's arguments, checked in the pure engine's order.
struct NewGameArgs {
  int players;
  Variant variant;
  bool explicit_chance;
  uint64_t seed;
};
NewGameArgs CheckNewGame(const py::object& players, const py::object& variant,
                         const py::object& seed, const py::object& chance);
// The seat an observation tensor is for: `player`, or (None) the player to move, seat 0 at a
// chance node or once over.
int Observer(const py::object& player, int turn, int players);
// deal()'s factories as a list (a str is an empty one; an object that cannot be iterated is
// refused as the pure engine's iter() finds it).
py::list DealList(const py::object& factories, int num_factories);
// Each item of `items` as UTF-8; IllegalMove "deal: factory i is not a string" for another type.
std::vector<std::string> FactoryStrings(const py::list& items);
// from_text: a GameState, or a PavilionState for a text of variant summer-pavilion.
py::object FromTextAny(const py::object& text);
// A count argument (n, threads, games): an int in 0..limit.
int CheckCount(const py::object& value, const char* what, long long limit, const char* limit_text);

// reseed(seed): the seed checked as new_game checks it.
template <typename R>
void ReseedPy(Game<R>& g, const py::object& seed) {
  g.Reseed(ToSeed(seed));
}

// state.key() and hash(state) (docs/game-api.md "Position keys").
template <typename R>
uint64_t KeyPy(const Game<R>& g) {
  return g.Key();
}
template <typename R>
py::ssize_t HashPy(const Game<R>& g) {
  return py::hash(py::int_(g.Key()));
}

// The policy argument of the playouts: "uniform" or "light" (an exact str), as the pure engine's
// _pycommon.check_policy (module.cpp).
Policy ToPolicy(const py::object& policy);

// legal_action_mask(): R::kNumActions flags, the legal ones set.
template <typename R>
py::array_t<bool> LegalMask(const Game<R>& g) {
  py::array_t<bool> mask(R::kNumActions);
  LegalActionMask<R>(g.state(), mask.mutable_data());
  return mask;
}

// deal(factories): the phase first, then the list's length, then each factory string, as the
// pure engine checks them.
template <typename R>
void DealPy(Game<R>& g, const py::object& factories) {
  g.CheckDealPhase();
  const py::list items = DealList(factories, g.state().num_factories);
  R::CheckDealShape(g.state(), items.size());  // the count, before each factory's type
  g.Deal(FactoryStrings(items));
}

// The documented limits (docs/game-api.md, "Limits"), checked before any allocation, as in the pure
// engine: games per random_playouts/playouts_from call, threads, games in a VectorGame.
constexpr long long kMaxPlayouts = 1LL << 30;
constexpr long long kMaxThreads = 1024;
constexpr long long kMaxVectorGames = 1LL << 18;

// A long native batch answers Ctrl-C: the calling thread takes the GIL between blocks of games
// and runs the pending signal handlers; a handler that raises (KeyboardInterrupt) stops it.
bool SignalPending(void*);

// Runs `batch(stop)` without the GIL; rethrows the Python error a signal handler raised.
template <typename Batch>
uint64_t RunInterruptible(Batch batch) {
  bool interrupted = false;
  uint64_t plies = 0;
  {
    py::gil_scoped_release release;
    try {
      plies = batch(StopCheck{&SignalPending, nullptr});
    } catch (const Interrupted&) {
      interrupted = true;
    }
  }
  if (interrupted) throw py::error_already_set();
  return plies;
}

// A class whose instances only the engine makes: its __new__ refuses with `hint`.
void RefuseNew(py::handle cls, const char* hint);
// Sets X.__new__ (what Python finds) and the tp_new slot (what X() and the bases see).
void SetNew(py::handle cls, const py::cpp_function& function, newfunc slot);

// ---- bind_classic.cpp, bind_pavilion.cpp, bind_vector.cpp, bind_search.cpp, fast_loop.cpp ----
void BindClassic(py::module_& m);
void BindPavilion(py::module_& m);
void BindVector(py::module_& m);
void BindGameInfo(py::module_& m);
// search(), search_many() and SearchResult (bind_search.cpp).
void BindSearch(py::module_& m);
// Network and load_network (bind_network.cpp): the built-in network with its file's facts.
struct NetworkPy {
  std::shared_ptr<Network> net;
  py::dict meta;
  py::object path;  // the file it was read from, or None
};
void BindNetwork(py::module_& m);
// A Network called on a batch (observations checked as the pure engine checks them): (logits, values).
py::tuple CallNetwork(const NetworkPy& n, const py::object& observations, const py::object& masks, const char* where);
// Replaces is_over, legal_actions and apply of GameState and PavilionState by CPython methods.
void InstallFastLoops(py::module_& m);

}  // namespace bind
}  // namespace azul

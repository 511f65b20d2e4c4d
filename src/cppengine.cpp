// pybind11 bindings of the C++ engine as azul_engine._cppengine.  No rules here: each entry
// forwards to native/ and only converts Python values; the pure twin is _pyengine.py.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "azul/key.h"
#include "azul/notation.h"
#include "azul/observation.h"
#include "azul/pavilion.h"
#include "azul/playout.h"
#include "azul/state.h"
#include "azul/text.h"
#include "azul/undo.h"
#include "azul/vector.h"

namespace py = pybind11;
using namespace azul;

namespace {

// A game as Python sees it: the position, its history, and what undo() takes back (undo.h).
struct Game {
  State s;
  History h;
  std::vector<UndoStep<State>> undo;
};

// A game of Summer Pavilion (PavilionState).
struct PGame {
  sp::State s;
  sp::History h;
  std::vector<UndoStep<sp::State>> undo;
};

// state.undo(), both classes.
template <typename G>
void Undo(G& g) {
  if (g.undo.empty()) throw IllegalMove(kNothingToUndo);
  PopUndo(g.undo, g.s, g.h);
}

std::string Utf8(const py::handle& obj);

std::string TypeName(const py::handle& obj) {
  return Utf8(py::type::handle_of(obj).attr("__name__"));
}

// Python truth, as `if history:` in the pure engine.
bool Truthy(const py::handle& obj) {
  const int truth = PyObject_IsTrue(obj.ptr());
  if (truth < 0) throw py::error_already_set();
  return truth != 0;
}

// A str as UTF-8; lone surrogates pass through (as the pure engine reads any str).
std::string Utf8(const py::handle& obj) {
  PyObject* bytes = PyUnicode_AsEncodedString(obj.ptr(), "utf-8", "surrogatepass");
  if (!bytes) throw py::error_already_set();
  std::string out(PyBytes_AS_STRING(bytes), static_cast<size_t>(PyBytes_GET_SIZE(bytes)));
  Py_DECREF(bytes);
  return out;
}

// Python's own repr() of non-ASCII text, for messages (installed as PyRepr's hook).
std::string ReprHookImpl(const std::string& utf8) {
  py::gil_scoped_acquire gil;
  PyObject* text = PyUnicode_DecodeUTF8(utf8.data(), static_cast<Py_ssize_t>(utf8.size()),
                                        "surrogatepass");
  if (!text) {
    PyErr_Clear();
    return "'" + utf8 + "'";
  }
  py::object repr = py::reinterpret_steal<py::object>(PyObject_Repr(text));
  Py_DECREF(text);
  if (!repr) {
    PyErr_Clear();
    return "'" + utf8 + "'";
  }
  return Utf8(repr);
}

// An action id from an int-like (ints, numpy integers); bools and other types are TypeErrors.
int ToAction(const py::handle& obj, int num_actions = kNumActions) {
  if (PyBool_Check(obj.ptr()) || !PyIndex_Check(obj.ptr()))
    throw py::type_error("a move is an action id (int) or a notation string, not " +
                         TypeName(obj));
  py::int_ value = py::reinterpret_steal<py::int_>(PyNumber_Index(obj.ptr()));
  if (!value) throw py::error_already_set();
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow)
    throw IllegalMove("action " + std::string(py::str(value)) + " is out of range 0-" +
                      std::to_string(num_actions - 1));
  return num_actions == kNumActions ? CheckActionRange(v) : sp::CheckActionRange(v);
}

int MoveToAction(const Game& g, const py::handle& move) {
  if (py::isinstance<py::str>(move)) return StringToAction(g.s, Utf8(move));
  return ToAction(move);
}

uint64_t ToSeed(const py::handle& obj) {
  if (PyBool_Check(obj.ptr()) || !PyLong_Check(obj.ptr()))
    throw py::type_error("seed must be an int, not " + TypeName(obj));
  int overflow = 0;
  long long small = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
  if (!overflow && small < 0)
    throw py::value_error("seed must be in 0..2**64-1, got " + std::to_string(small));
  unsigned long long v = PyLong_AsUnsignedLongLong(obj.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw py::value_error("seed must be in 0..2**64-1, got " + std::string(py::str(obj)));
  }
  return v;
}

constexpr const char* kGameHint = "use azul_engine.new_game(...) or GameState.from_text(text)";
constexpr const char* kPavilionHint =
    "use azul_engine.new_game(..., variant='summer-pavilion') or from_text(text)";

constexpr int kPavilion = 2;  // VARIANTS index of summer-pavilion
const char* const kAllVariants[3] = {"classic", "grey", "summer-pavilion"};

// The index in VARIANTS of a variant name, or -1 (any object: `variant in VARIANTS`).
int VariantIndex(const py::handle& variant) {
  if (!py::isinstance<py::str>(variant)) return -1;
  const std::string name = Utf8(variant);
  for (int i = 0; i < 3; ++i)
    if (name == kAllVariants[i]) return i;
  return -1;
}

// new_game's arguments, checked in the pure engine's order.
struct NewGameArgs {
  int players;
  int variant;
  bool explicit_chance;
  uint64_t seed;
};

NewGameArgs CheckNewGame(const py::object& players, const py::object& variant,
                         const py::object& seed, const py::object& chance) {
  if (PyBool_Check(players.ptr()) || !PyLong_Check(players.ptr()))
    throw py::type_error("players must be an int, not " + TypeName(players));
  long long n = PyLong_AsLongLong(players.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    n = 0;
  }
  if (n < 2 || n > 4)
    throw py::value_error("players must be 2, 3 or 4, got " + std::string(py::str(players)));
  const int v = VariantIndex(variant);
  if (v < 0)
    throw py::value_error("unknown variant " + Utf8(py::repr(variant)) +
                          " (variants: classic, grey, summer-pavilion)");
  const bool is_str = py::isinstance<py::str>(chance);
  const std::string mode = is_str ? Utf8(chance) : std::string();
  if (!is_str || (mode != "sampled" && mode != "explicit"))
    throw py::value_error("chance must be 'sampled' or 'explicit', got " + Utf8(py::repr(chance)));
  uint64_t seed_value;
  if (seed.is_none()) {
    std::random_device rd;
    seed_value = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  } else {
    seed_value = ToSeed(seed);
  }
  return {static_cast<int>(n), v, mode == "explicit", seed_value};
}

py::object MakeGame(const py::object& players, const py::object& variant, const py::object& seed,
                    const py::object& chance) {
  const NewGameArgs a = CheckNewGame(players, variant, seed, chance);
  if (a.variant == kPavilion) {
    PGame g;
    g.s = sp::NewGame(a.players, a.seed, a.explicit_chance, &g.h);
    return py::cast(std::move(g));
  }
  Game g;
  g.s = NewGame(a.players, static_cast<Variant>(a.variant), a.seed, a.explicit_chance, &g.h);
  return py::cast(std::move(g));
}

// The seat an observation tensor is for: `player`, or (None) the player to move, seat 0 at a
// chance node or once over.
int Observer(const py::object& player, int turn, int players) {
  if (player.is_none()) return turn >= 0 ? turn : 0;
  if (PyBool_Check(player.ptr()) || !PyLong_Check(player.ptr()))
    throw py::type_error("player must be an int, not " + TypeName(player));
  const long long p = PyLong_AsLongLong(player.ptr());
  if (PyErr_Occurred() || p < 0 || p >= players) {
    PyErr_Clear();
    throw py::value_error("player " + std::string(py::str(player)) + " does not exist with " +
                          std::to_string(players) + " players");
  }
  return static_cast<int>(p);
}

std::vector<std::string> Factories(const State& s) {
  std::vector<std::string> out;
  for (int f = 0; f < s.num_factories; ++f) out.push_back(TilesToStr(s.factories[f]));
  return out;
}

Game FromTextGame(const std::string& text) {
  Game g;
  g.s = FromText(text, &g.h);
  return g;
}

PGame FromTextPavilion(const py::object& text) {
  if (!py::isinstance<py::str>(text))
    throw py::type_error("state text must be a str, not " + TypeName(text));
  PGame g;
  g.s = sp::FromText(Utf8(text), &g.h);
  return g;
}

// from_text: a GameState, or a PavilionState for a text of variant summer-pavilion.
py::object FromTextAny(const py::object& text) {
  if (!py::isinstance<py::str>(text))
    throw py::type_error("state text must be a str, not " + TypeName(text));
  const std::string t = Utf8(text);
  const std::vector<std::string> tokens = PySplit(t);
  const std::string version = "azul-state/" + std::to_string(kTextVersion);
  if (tokens.empty() || tokens[0].compare(0, 11, "azul-state/") != 0)
    throw StateFormatError("not an Azul state: the text must start with " + version);
  if (tokens[0] != version)
    throw StateFormatError("unsupported state text version " + PyRepr(tokens[0]) +
                           " (this engine reads " + version + ")");
  for (const std::string& token : tokens)
    if (token == "variant=summer-pavilion") {
      PGame g;
      g.s = sp::FromText(t, &g.h);
      return py::cast(std::move(g));
    }
  return py::cast(FromTextGame(t));
}

// deal()'s factories as a list: a str is no list of factory strings (an empty one), and an
// object that cannot be iterated is refused as the pure engine's iter() finds it.
py::list DealList(const py::object& factories, int num_factories) {
  if (py::isinstance<py::str>(factories)) return py::list();
  PyObject* it = PyObject_GetIter(factories.ptr());
  if (!it) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError)) throw py::error_already_set();
    PyErr_Clear();
    throw IllegalMove("deal: factories are a list of " + std::to_string(num_factories) +
                      " factory strings, not " + TypeName(factories));
  }
  py::object iter = py::reinterpret_steal<py::object>(it);
  return py::list(iter);
}

void DealPavilion(PGame& g, const py::object& factories) {
  sp::CheckDealPhase(g.s);
  const py::list items = DealList(factories, g.s.num_factories);
  const int nf = g.s.num_factories;
  if (static_cast<int>(items.size()) != nf)
    throw IllegalMove("deal: " + std::to_string(g.s.players) + " players need " +
                      std::to_string(nf) + " factory strings");
  std::vector<std::string> strings;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!py::isinstance<py::str>(items[i]))
      throw IllegalMove("deal: factory " + std::to_string(i + 1) + " is not a string");
  }
  for (size_t i = 0; i < items.size(); ++i) strings.push_back(Utf8(items[i]));
  sp::Deal(g.s, strings, &g.h);
  g.undo.clear();
}

void DealSupplyPavilion(PGame& g, const py::object& tiles) {
  if (!py::isinstance<py::str>(tiles))
    throw IllegalMove("deal_supply: tiles are a string of colour letters, not " + TypeName(tiles));
  int counts[sp::kColours];
  sp::ParseTiles(Utf8(tiles), "deal_supply", counts, true);
  sp::DealSupply(g.s, counts, &g.h);
  g.undo.clear();
}

void ApplyPavilion(PGame& g, const py::object& move) {
  int action;
  if (py::isinstance<py::str>(move)) {
    int counts[sp::kColours];
    action = sp::ParseMove(Utf8(move), counts);
    if (action < 0) {
      sp::DealSupply(g.s, counts, &g.h);
      g.undo.clear();
      return;
    }
  } else {
    action = ToAction(move, sp::kNumActions);
  }
  sp::CheckLegal(g.s, action);
  PushUndo(g.undo, g.s, g.h);
  sp::Play(g.s, action, &g.h);
}


void DealGame(Game& g, const py::object& factories) {
  std::vector<std::string> strings;
  CheckDealShape(g.s, g.s.num_factories);  // the phase first, as the pure engine
  const py::list items = DealList(factories, g.s.num_factories);
  CheckDealShape(g.s, items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    if (!py::isinstance<py::str>(items[i]))
      throw IllegalMove("deal: factory " + std::to_string(i + 1) + " is not a string");
  }
  for (size_t i = 0; i < items.size(); ++i) strings.push_back(Utf8(items[i]));
  Deal(g.s, strings, &g.h);
  g.undo.clear();
}

py::dict EndBonusOf(const py::object& wall, const py::object& variant) {
  std::vector<std::string> rows;
  if (py::isinstance<py::str>(wall)) {
    rows = WallRows(Utf8(wall));
  } else {
    for (const py::handle& row : wall)
      rows.push_back(py::isinstance<py::str>(row) ? Utf8(row) : std::string());
  }
  bool shape = rows.size() == 5;
  for (const std::string& row : rows) {  // len(row) == 5: characters, not UTF-8 bytes
    size_t chars = 0;
    for (size_t i = 0; i < row.size(); i += Utf8CharLen(row, i)) ++chars;
    shape = shape && chars == 5;
  }
  if (!shape) throw StateFormatError("wall: not 5 rows of 5 cells (colour letters or '.')");
  bool classic = false;
  if (!variant.is_none()) {
    std::string name = py::isinstance<py::str>(variant) ? Utf8(variant) : "";
    if (name != "classic" && name != "grey")
      throw py::value_error("unknown variant " + Utf8(py::repr(variant)) +
                            " (variants with a wall: classic, grey)");
    classic = name == "classic";
  }
  int8_t cells[25];
  ParseWall(rows, classic, "wall", cells);
  int r, c, k;
  WallBonus(cells, &r, &c, &k);
  py::dict out;
  out["rows"] = r;
  out["columns"] = c;
  out["colours"] = k;
  out["points"] = 2 * r + 7 * c + 10 * k;
  return out;
}

// The documented limits (README, "Limits"), checked before any allocation, as in the pure
// engine: games per random_playouts/playouts_from call, threads, games in a VectorGame.
constexpr long long kMaxPlayouts = 1LL << 30;
constexpr long long kMaxThreads = 1024;
constexpr long long kMaxVectorGames = 1LL << 18;

int CheckCount(const py::object& value, const char* what, long long limit, const char* limit_text) {
  if (PyBool_Check(value.ptr()) || !PyLong_Check(value.ptr()))
    throw py::type_error(std::string(what) + " must be an int, not " + TypeName(value));
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow < 0 || (!overflow && v < 0))
    throw py::value_error(std::string(what) + " must be 0 or more, got " +
                          std::string(py::str(value)));
  if (overflow || v > limit)
    throw py::value_error(std::string(what) + " is too large: " + std::string(py::str(value)) +
                          " (at most " + limit_text + ")");
  return static_cast<int>(v);
}

// A long native batch answers Ctrl-C: the calling thread takes the GIL between blocks of games and
// runs the pending signal handlers; a handler that raises (KeyboardInterrupt) stops the batch.
bool SignalPending(void*) {
  py::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}

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

// The scores, or (scores, plies) for the bench.
py::object Playouts(uint64_t plies, py::array_t<int32_t> out, bool with_plies) {
  if (with_plies) return py::make_tuple(out, plies);
  return out;
}

// The policy argument of the playouts: "uniform" or "light" (an exact str), as the pure engine's
// _pycommon.check_policy.
Policy ToPolicy(const py::object& policy) {
  if (PyUnicode_CheckExact(policy.ptr())) {
    const std::string name = Utf8(policy);
    if (name == "uniform") return Policy::kUniform;
    if (name == "light") return Policy::kLight;
  }
  throw py::value_error("unknown policy " + Utf8(py::repr(policy)) +
                        "; expected one of: uniform, light");
}

py::object RandomPlayoutsPy(const py::object& n_obj, const py::object& players,
                            const py::object& variant, const py::object& seed,
                            const py::object& threads_obj, bool with_plies,
                            const py::object& policy_obj) {
  const int n = CheckCount(n_obj, "n", kMaxPlayouts, "2**30");
  const int threads = CheckCount(threads_obj, "threads", kMaxThreads, "1024");
  const uint64_t seed_value = ToSeed(seed);
  // checks players and variant before any work
  const NewGameArgs a = CheckNewGame(players, variant, py::int_(0), py::str("sampled"));
  const Policy policy = ToPolicy(policy_obj);
  const int p = a.players;
  py::array_t<int32_t> out({n, p});
  int32_t* data = out.mutable_data();
  const uint64_t plies = RunInterruptible([&](StopCheck stop) {
    if (a.variant == kPavilion)
      return sp::RandomPlayouts(n, p, seed_value, threads, data, stop, policy);
    return RandomPlayouts(n, p, static_cast<Variant>(a.variant), seed_value, threads, data, stop,
                          policy);
  });
  return Playouts(plies, out, with_plies);
}

py::object PlayoutsFromPy(const py::object& state, const py::object& n_obj, const py::object& seed,
                          const py::object& threads_obj, bool with_plies,
                          const py::object& policy_obj) {
  const bool pavilion = py::isinstance<PGame>(state);
  if (!pavilion && !py::isinstance<Game>(state))
    throw py::type_error("state must be a GameState or PavilionState of this engine, not " +
                         TypeName(state));
  const int n = CheckCount(n_obj, "n", kMaxPlayouts, "2**30");
  const int threads = CheckCount(threads_obj, "threads", kMaxThreads, "1024");
  const uint64_t seed_value = ToSeed(seed);
  const Policy policy = ToPolicy(policy_obj);
  if (pavilion) {
    const sp::State start = state.cast<const PGame&>().s;
    py::array_t<int32_t> out({n, static_cast<int>(start.players)});
    int32_t* data = out.mutable_data();
    const uint64_t plies = RunInterruptible([&](StopCheck stop) {
      return sp::PlayoutsFrom(start, n, seed_value, threads, data, stop, policy);
    });
    return Playouts(plies, out, with_plies);
  }
  const State start = state.cast<const Game&>().s;
  py::array_t<int32_t> out({n, static_cast<int>(start.players)});
  int32_t* data = out.mutable_data();
  const uint64_t plies = RunInterruptible([&](StopCheck stop) {
    return PlayoutsFrom(start, n, seed_value, threads, data, stop, policy);
  });
  return Playouts(plies, out, with_plies);
}

VectorGame* MakeVector(const py::object& n_obj, const py::object& players, const py::object& variant,
                       const py::object& seed, const py::object& auto_reset) {
  const int n = CheckCount(n_obj, "n", kMaxVectorGames, "2**18 games");
  const uint64_t seed_value = ToSeed(seed);
  const NewGameArgs a = CheckNewGame(players, variant, py::int_(0), py::str("sampled"));
  if (!PyBool_Check(auto_reset.ptr()))
    throw py::type_error("auto_reset must be True or False, not " + TypeName(auto_reset));
  return new VectorGame(n, a.players, a.variant, seed_value, auto_reset.ptr() == Py_True);
}

// A game's slot in a VectorGame of n games from a Python int; IndexError outside 0..n-1.
int GameIndex(const py::object& value, int n) {
  if (!value) throw py::error_already_set();
  int overflow = 0;
  const long long i = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (i == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow || i < 0 || i >= n)
    throw py::index_error("game " + std::string(py::str(value)) + " is out of range 0-" +
                          std::to_string(n - 1));
  return static_cast<int>(i);
}

// Holds a VectorGame's one-caller-at-a-time flag for a step or a reset.
class Busy {
 public:
  explicit Busy(VectorGame& v) : v_(v) {
    if (!v_.Acquire())
      throw py::value_error("VectorGame is busy: another thread is stepping or resetting it");
  }
  ~Busy() { v_.Release(); }

 private:
  VectorGame& v_;
};

// A read-only numpy view of memory owned by the VectorGame `self`, which it keeps alive.
template <typename T>
py::array View(const py::object& self, T* data, std::vector<py::ssize_t> shape) {
  py::array_t<T> view(shape, data, self);
  py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return std::move(view);
}

// VectorGame.step's signal poll, called between games while the GIL is released: at most every
// kSignalPollMs it takes the GIL and runs Python's signal handlers; an exception from one
// (KeyboardInterrupt on Ctrl-C) stays set and stops the step there.  Python runs handlers in its
// main thread only, so a step in another thread does not poll (nor wait for the GIL to do so).
constexpr int kSignalPollMs = 25;
unsigned long g_main_thread = 0;  // threading.main_thread().ident, read at import

// The note an interrupted step adds to the handler's exception (as the pure engine's).
std::string VectorStepNote(int k, int n) {
  return "VectorGame.step stopped before game " + std::to_string(k) + ": the " +
         std::to_string(k) + " games before it took their actions, the other " +
         std::to_string(n - k) + " did not (VectorGame.stepped)";
}

struct SignalPoll {
  std::chrono::steady_clock::time_point next;
};
bool PollSignals(void* context) {
  SignalPoll& poll = *static_cast<SignalPoll*>(context);
  const auto now = std::chrono::steady_clock::now();
  if (now < poll.next) return false;
  poll.next = now + std::chrono::milliseconds(kSignalPollMs);
  py::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}

py::tuple StepVector(const py::object& self, const py::object& actions_obj) {
  VectorGame& v = self.cast<VectorGame&>();
  // An exact ndarray is used as it is (np.asarray would return it unchanged).
  py::array actions = Py_TYPE(actions_obj.ptr()) == py::detail::npy_api::get().PyArray_Type_
                          ? py::reinterpret_borrow<py::array>(actions_obj)
                          : py::array(py::module_::import("numpy").attr("asarray")(actions_obj));
  const char kind = actions.dtype().kind();
  if (actions.ndim() != 1 || actions.shape(0) != v.size() || (kind != 'i' && kind != 'u'))
    throw py::value_error("actions must be " + std::to_string(v.size()) + " integers, got shape " +
                          std::string(py::str(actions.attr("shape"))) + " of " +
                          std::string(py::str(actions.dtype())));
  auto values = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(actions);
  Busy busy(v);
  // A private copy: the caller's array may be the same memory, which another thread could change
  // between the check and the GIL-free apply.
  int64_t* data = v.action_buffer();
  std::copy(values.data(), values.data() + v.size(), data);
  v.set_stepped(0);
  // uint64 actions of 2**63 or more wrapped round in the copy: find the first one in a game
  // not over, so that it is reported with its real value once the games before it pass.
  std::vector<std::pair<int, unsigned long long>> big;  // empty (no allocation) but for such actions
  if (kind == 'u' && actions.dtype().itemsize() == 8) {
    auto u = py::array_t<uint64_t, py::array::c_style | py::array::forcecast>::ensure(actions);
    for (int i = 0; i < v.size(); ++i)
      if (u.data()[i] > static_cast<uint64_t>(INT64_MAX)) big.emplace_back(i, u.data()[i]);
  }
  for (const auto& [i, value] : big) {
    if (v.done()[i]) continue;
    v.Check(data, i);
    throw IllegalMove("game " + std::to_string(i) + ": action " + std::to_string(value) +
                      " is out of range 0-" + std::to_string(v.num_actions() - 1));
  }
  v.Check(data);
  SignalPoll poll{std::chrono::steady_clock::now() + std::chrono::milliseconds(kSignalPollMs)};
  int stepped;
  {
    py::gil_scoped_release release;
    stepped = v.Apply(data, PyThread_get_thread_ident() == g_main_thread
                                ? StopCheck{&PollSignals, &poll}
                                : StopCheck{});
  }
  v.set_stepped(stepped);
  if (stepped < v.size()) {
    py::error_already_set interrupted;  // the signal handler's exception
    py::object note = py::getattr(interrupted.value(), "add_note", py::none());
    if (!note.is_none())
      note(VectorStepNote(stepped, v.size()));
    throw interrupted;
  }
  return py::make_tuple(View(self, reinterpret_cast<bool*>(v.legal_mask()), {v.size(), v.num_actions()}),
                        View(self, v.current_player(), {v.size()}),
                        View(self, v.scores(), {v.size(), v.players()}),
                        View(self, reinterpret_cast<bool*>(v.done()), {v.size()}));
}

// ---- The Python-driven loop's calls as plain CPython methods ----
// A loop of `while not s.is_over: s.apply(pick(s.legal_actions()))` spends more time in
// pybind11's dispatcher (argument loaders, overload records, casters) than in the engine, so
// is_over, legal_actions and apply are replaced by CPython methods after the classes are bound.
// Each serves the common case itself (an instance of exactly GameState or PavilionState, apply
// of an exact int in range and legal) and hands everything else, unchanged, to the pybind11
// definition it replaced: every error and message stays that one implementation's.

// The action ids as Python ints, made once (CPython caches only 0-256).
PyObject* g_action_ints[sp::kNumActions > kNumActions ? sp::kNumActions : kNumActions];
constexpr int kCachedInts = sizeof(g_action_ints) / sizeof(g_action_ints[0]);

// The pybind11 definitions replaced, per state type.
template <typename G>
struct Slow {
  static PyTypeObject* type;  // the bound class (subclasses go the slow way)
  static PyObject* is_over;   // its property
  static PyObject* legal_actions;
  static PyObject* apply;
};
template <typename G> PyTypeObject* Slow<G>::type = nullptr;
template <typename G> PyObject* Slow<G>::is_over = nullptr;
template <typename G> PyObject* Slow<G>::legal_actions = nullptr;
template <typename G> PyObject* Slow<G>::apply = nullptr;

// The game inside `self`, or null when the slow path must handle it (another type, or an
// instance without a constructed value).
template <typename G>
G* FastSelf(PyObject* self) {
  if (Py_TYPE(self) != Slow<G>::type) return nullptr;
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  if (!inst->simple_layout || !inst->simple_holder_constructed) return nullptr;
  return static_cast<G*>(inst->simple_value_holder[0]);
}

// Calls the pybind11 method `slow` as self.method(*args, **kwargs) would have.
PyObject* CallSlow(PyObject* slow, PyObject* self, PyObject* const* args, Py_ssize_t nargsf,
                   PyObject* kwnames) {
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  const Py_ssize_t total = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
  PyObject* small[8];
  std::vector<PyObject*> big;
  PyObject** all = small;
  if (total + 1 > 8) {
    big.resize(static_cast<size_t>(total) + 1);
    all = big.data();
  }
  all[0] = self;
  for (Py_ssize_t i = 0; i < total; ++i) all[i + 1] = args[i];
  return PyObject_Vectorcall(slow, all, static_cast<size_t>(nargs) + 1, kwnames);
}

bool IsOver(const Game& g) { return g.s.phase == kOver; }
bool IsOver(const PGame& g) { return g.s.phase == sp::kOver; }
int Legal(const Game& g, int16_t* out) { return LegalActions(g.s, out); }
int Legal(const PGame& g, int16_t* out) { return sp::LegalActions(g.s, out); }
void Check(const Game& g, int action) { CheckLegal(g.s, action); }
void Check(const PGame& g, int action) { sp::CheckLegal(g.s, action); }
void Play(Game& g, int action) {
  PushUndo(g.undo, g.s, g.h);
  ApplyAction(g.s, action, &g.h);
}
void Play(PGame& g, int action) {
  PushUndo(g.undo, g.s, g.h);
  sp::Play(g.s, action, &g.h);
}
constexpr int NumActionsOf(const Game*) { return kNumActions; }
constexpr int NumActionsOf(const PGame*) { return sp::kNumActions; }

template <typename G>
PyObject* FastIsOver(PyObject* self, void*) {
  if (const G* g = FastSelf<G>(self)) return PyBool_FromLong(IsOver(*g));
  PyObject* prop = Slow<G>::is_over;
  return Py_TYPE(prop)->tp_descr_get(prop, self, reinterpret_cast<PyObject*>(Py_TYPE(self)));
}

template <typename G>
int SetIsOver(PyObject* self, PyObject* value, void*) {  // refused as the property refuses it
  PyObject* prop = Slow<G>::is_over;
  return Py_TYPE(prop)->tp_descr_set(prop, self, value);
}

template <typename G>
PyObject* FastLegalActions(PyObject* self, PyObject* const* args, Py_ssize_t nargsf,
                           PyObject* kwnames) {
  const G* g = FastSelf<G>(self);
  if (!g || PyVectorcall_NARGS(nargsf) || kwnames)
    return CallSlow(Slow<G>::legal_actions, self, args, nargsf, kwnames);
  int16_t buf[kCachedInts];
  const int n = Legal(*g, buf);
  PyObject* list = PyList_New(n);
  if (!list) return nullptr;
  for (int k = 0; k < n; ++k) {
    PyObject* id;
    if (buf[k] >= 0 && buf[k] < kCachedInts) {
      id = g_action_ints[buf[k]];
      Py_INCREF(id);
    } else if (!(id = PyLong_FromLong(buf[k]))) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, k, id);
  }
  return list;
}

template <typename G>
PyObject* FastApply(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  G* g = FastSelf<G>(self);
  if (g && PyVectorcall_NARGS(nargsf) == 1 && !kwnames && PyLong_CheckExact(args[0])) {
    int overflow = 0;
    const long action = PyLong_AsLongAndOverflow(args[0], &overflow);
    if (!overflow && action >= 0 && action < NumActionsOf(g)) {
      bool legal = true;
      try {
        Check(*g, static_cast<int>(action));
      } catch (...) {
        legal = false;  // refused: the slow path raises the error (the check changed nothing)
      }
      if (legal) {
        try {
          Play(*g, static_cast<int>(action));
        } catch (const std::bad_alloc&) {
          return PyErr_NoMemory();
        } catch (const std::exception& e) {
          PyErr_SetString(PyExc_RuntimeError, e.what());
          return nullptr;
        }
        Py_RETURN_NONE;
      }
    }
  }
  return CallSlow(Slow<G>::apply, self, args, nargsf, kwnames);
}

// A new reference to the entry `name` of the class's own dict.
PyObject* OwnAttr(PyTypeObject* type, const char* name) {
  PyObject* value = PyDict_GetItemString(type->tp_dict, name);
  if (!value) throw std::runtime_error(std::string("no attribute ") + name);
  Py_INCREF(value);
  return value;
}

void SetOwnAttr(PyTypeObject* type, const char* name, PyObject* descr) {
  if (!descr || PyObject_SetAttrString(reinterpret_cast<PyObject*>(type), name, descr) < 0) {
    Py_XDECREF(descr);
    throw py::error_already_set();
  }
  Py_DECREF(descr);
}

// Installs the fast methods on the bound class `cls` (GameState or PavilionState).
template <typename G>
void InstallFastLoop(const py::object& cls) {
  PyTypeObject* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  Slow<G>::type = type;
  Slow<G>::is_over = OwnAttr(type, "is_over");
  Slow<G>::legal_actions = OwnAttr(type, "legal_actions");
  Slow<G>::apply = OwnAttr(type, "apply");
  // The replaced definitions' docstrings (their signatures), kept for help().
  static std::string docs[3];
  const char* names[3] = {"is_over", "legal_actions", "apply"};
  for (int i = 0; i < 3; ++i) {
    py::object doc = py::getattr(cls.attr(names[i]), "__doc__", py::none());
    docs[i] = doc.is_none() ? std::string() : doc.cast<std::string>();
  }
  static PyGetSetDef is_over = {"is_over", &FastIsOver<G>, &SetIsOver<G>, docs[0].c_str(),
                                nullptr};
  static PyMethodDef legal = {
      "legal_actions",
      reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&FastLegalActions<G>)),
      METH_FASTCALL | METH_KEYWORDS, docs[1].c_str()};
  static PyMethodDef apply = {
      "apply", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&FastApply<G>)),
      METH_FASTCALL | METH_KEYWORDS, docs[2].c_str()};
  SetOwnAttr(type, "is_over", PyDescr_NewGetSet(type, &is_over));
  SetOwnAttr(type, "legal_actions", PyDescr_NewMethod(type, &legal));
  SetOwnAttr(type, "apply", PyDescr_NewMethod(type, &apply));
}

// Raises `type` with the whole message: every byte, a NUL included (PyErr_SetString would stop
// at it), and any text the engine passed on as Python gave it.
void SetError(py::handle type, const std::string& message) {
  PyObject* text = PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()),
                                        "surrogatepass");
  if (!text) {
    PyErr_Clear();
    text = PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()),
                                "backslashreplace");
  }
  if (!text) return;  // the decoding error stays set
  PyErr_SetObject(type.ptr(), text);
  Py_DECREF(text);
}

// The classes whose __new__ is the engine's (below), set once at import.
PyTypeObject* pavilion_type = nullptr;
PyObject* vector_new = nullptr;  // VectorGame.__new__'s function (kept for the interpreter's life)

// tp_new of GameState and PavilionState.  Being a C slot of the class itself, it also makes
// pybind11_object.__new__(GameState) "not safe" for Python, which would otherwise allocate one.
PyObject* RefusingNew(PyTypeObject* type, PyObject*, PyObject*) {
  PyErr_SetString(PyExc_TypeError,
                  pavilion_type && PyType_IsSubtype(type, pavilion_type) ? kPavilionHint : kGameHint);
  return nullptr;
}

// tp_new of VectorGame: VectorGame.__new__(type, *args, **kwargs).
PyObject* VectorNew(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  const Py_ssize_t n = PyTuple_GET_SIZE(args);
  PyObject* full = PyTuple_New(n + 1);
  if (!full) return nullptr;
  Py_INCREF(type);
  PyTuple_SET_ITEM(full, 0, reinterpret_cast<PyObject*>(type));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* item = PyTuple_GET_ITEM(args, i);
    Py_INCREF(item);
    PyTuple_SET_ITEM(full, i + 1, item);
  }
  PyObject* out = PyObject_Call(vector_new, full, kwargs);
  Py_DECREF(full);
  return out;
}

void SetNew(py::handle cls, const py::cpp_function& function, newfunc slot) {
  py::setattr(cls, "__new__", py::staticmethod(function));  // what X.__new__ finds
  reinterpret_cast<PyTypeObject*>(cls.ptr())->tp_new = slot;  // what X() and the bases' __new__ see
  PyType_Modified(reinterpret_cast<PyTypeObject*>(cls.ptr()));
}

// A class whose instances only the engine makes: its __new__ refuses, so that no object can
// exist over uninitialised memory (pybind11 would allocate one lazily, unconstructed).
void RefuseNew(py::handle cls, const char* hint) {
  const std::string message = hint;
  SetNew(cls, py::cpp_function([message](const py::args&, const py::kwargs&) -> py::object {
           throw py::type_error(message);
         }, py::name("__new__")), &RefusingNew);
}

// VectorGame(n, players=2, variant="classic", seed=0)'s arguments bound as the pure engine's
// _pycommon.bind_arguments does, with its messages.
py::tuple BindArguments(const py::args& args, const py::kwargs& kwargs) {
  const char* const names[5] = {"n", "players", "variant", "seed", "auto_reset"};
  if (args.size() > 5)
    throw py::type_error("VectorGame() takes at most 5 arguments (" +
                         std::to_string(args.size()) + " given)");
  py::object values[5] = {py::object(), py::int_(2), py::str("classic"), py::int_(0),
                          py::bool_(false)};
  bool given[5] = {false, false, false, false, false};
  for (size_t i = 0; i < args.size(); ++i) {
    values[i] = args[i];
    given[i] = true;
  }
  for (const auto& item : kwargs) {
    int k = -1;
    for (int i = 0; i < 5; ++i)
      if (py::str(item.first).equal(py::str(names[i]))) k = i;
    if (k < 0)
      throw py::type_error("VectorGame() got an unexpected keyword argument " +
                           Utf8(py::repr(item.first)));
    if (given[k])
      throw py::type_error(std::string("VectorGame() got multiple values for argument '") +
                           names[k] + "'");
    values[k] = py::reinterpret_borrow<py::object>(item.second);
    given[k] = true;
  }
  if (!given[0]) throw py::type_error("VectorGame() missing required argument 'n'");
  return py::make_tuple(values[0], values[1], values[2], values[3], values[4]);
}

// VectorGame.__new__ builds the whole object (pybind11's __init__, which ignores a second call
// on a built object): VectorGame.__new__(VectorGame, ...) alone is never half made.
void BuildInNew(py::handle cls) {
  const newfunc base_new = reinterpret_cast<PyTypeObject*>(cls.ptr())->tp_new;
  py::object init = cls.attr("__init__");
  PyTypeObject* vector_type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  py::cpp_function function(
      [base_new, init, vector_type](const py::handle& type, const py::args& args,
                                    const py::kwargs& kwargs) -> py::object {
        if (!PyType_Check(type.ptr()) ||
            !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(type.ptr()), vector_type))
          throw py::type_error("VectorGame.__new__(X): X is not a subtype of VectorGame");
        const py::tuple values = BindArguments(args, kwargs);
        py::tuple empty;
        PyObject* raw = base_new(reinterpret_cast<PyTypeObject*>(type.ptr()), empty.ptr(), nullptr);
        if (!raw) throw py::error_already_set();
        py::object self = py::reinterpret_steal<py::object>(raw);
        init(self, values[0], values[1], values[2], values[3], values[4]);
        return self;
      }, py::name("__new__"));
  vector_new = function.inc_ref().ptr();
  SetNew(cls, function, &VectorNew);
}

}  // namespace

PYBIND11_MODULE(_cppengine, m) {
  m.doc() = "The C++ Azul engine; the same API and behaviour as azul_engine._pyengine.";

  py::module_ errors = py::module_::import("azul_engine._errors");
  // Kept alive for the translator below for the life of the interpreter.
  static py::handle illegal_move = py::object(errors.attr("IllegalMoveError")).release();
  static py::handle state_format = py::object(errors.attr("StateFormatError")).release();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const IllegalMove& e) {
      SetError(illegal_move, e.message());
    } catch (const StateFormatError& e) {
      SetError(state_format, e.message());
    }
  });
  m.attr("IllegalMoveError") = illegal_move;
  m.attr("StateFormatError") = state_format;
  m.attr("COLOURS") = std::string(kColourLetters);
  SetReprHook(&ReprHookImpl);
  m.attr("VARIANTS") = py::make_tuple("classic", "grey", "summer-pavilion");
#ifdef AZUL_PORTABLE
  m.attr("PORTABLE") = true;  // built with the plain C++ fallback of every bit trick (bits.h)
#else
  m.attr("PORTABLE") = false;
#endif
  m.attr("MAX_ROUNDS") = kMaxRounds;
  m.attr("NUM_ACTIONS") = kNumActions;
  m.attr("NUM_DRAFT_ACTIONS") = kNumDraftActions;
  m.attr("TILE_ACTION_BASE") = kTileActionBase;
  m.attr("DRAW_ACTION_BASE") = kDrawActionBase;
  m.attr("FIRST_PLAYER_ACTION_BASE") = kFirstPlayerActionBase;
  m.attr("CHANCE") = kChance;
  m.attr("TEXT_VERSION") = kTextVersion;
  m.attr("SP_COLOURS") = std::string(sp::kColourLetters);
  m.attr("SP_STARS") = std::string(sp::kStarLetters);
  {
    py::list keeps;
    for (int k = 0; k < sp::kNumKeepSets; ++k) keeps.append(sp::TilesToStr(sp::KeepSets()[k]));
    m.attr("SP_KEEP_SETS") = py::tuple(keeps);
  }
  m.attr("SP_NUM_ACTIONS") = sp::kNumActions;
  m.attr("SP_PLACE_ACTION_BASE") = sp::kPlaceActionBase;
  m.attr("SP_BONUS_ACTION_BASE") = sp::kBonusActionBase;
  m.attr("SP_PASS_ACTION_BASE") = sp::kPassActionBase;
  m.attr("SP_DRAW_ACTION_BASE") = sp::kDrawActionBase;
  m.attr("SP_FIRST_PLAYER_ACTION_BASE") = sp::kFirstPlayerActionBase;

  py::class_<Game>(m, "GameState")
      .def(py::init([](const py::args&, const py::kwargs&) -> Game {
        throw py::type_error(kGameHint);
      }))
      .def_property_readonly("players", [](const Game& g) { return int(g.s.players); })
      .def_property_readonly("variant", [](const Game& g) { return kVariantNames[g.s.variant]; })
      .def_property_readonly("seed", [](const Game& g) { return g.s.seed; })
      .def_property_readonly("round", [](const Game& g) { return g.s.round; })
      .def_property_readonly("chance_mode", [](const Game& g) {
        return g.s.explicit_chance ? "explicit" : "sampled";
      })
      .def_property_readonly("phase", [](const Game& g) { return kPhaseNames[g.s.phase]; })
      .def_property_readonly("current_player", [](const Game& g) { return int(g.s.turn); })
      .def_property_readonly("starting_player", [](const Game& g) { return int(g.s.start); })
      .def_property_readonly("is_over", [](const Game& g) { return g.s.phase == kOver; })
      .def_property_readonly("is_chance_node", [](const Game& g) {
        return g.s.phase == kFirstPlayer || g.s.phase == kFill;
      })
      .def_property_readonly("scores", [](const Game& g) {
        std::vector<int> out;
        for (int p = 0; p < g.s.players; ++p) out.push_back(g.s.board[p].score);
        return out;
      })
      .def_property_readonly("factories", [](const Game& g) { return Factories(g.s); })
      .def_property_readonly("center", [](const Game& g) { return TilesToStr(g.s.centre); })
      .def_property_readonly("bag", [](const Game& g) { return TilesToStr(g.s.bag); })
      .def_property_readonly("lid", [](const Game& g) { return TilesToStr(g.s.lid); })
      .def_property_readonly("first_player_marker", [](const Game& g) { return int(g.s.marker); })
      .def_property_readonly("moves_this_round", [](const Game& g) { return g.s.moves; })
      .def_property_readonly("pattern_lines", [](const Game& g) {
        std::vector<std::vector<std::string>> out(g.s.players);
        for (int p = 0; p < g.s.players; ++p)
          for (int r = 0; r < 5; ++r) out[p].push_back(LineText(g.s.board[p], r));
        return out;
      })
      .def_property_readonly("walls", [](const Game& g) {
        std::vector<std::vector<std::string>> out(g.s.players);
        for (int p = 0; p < g.s.players; ++p)
          for (int r = 0; r < 5; ++r) out[p].push_back(WallRow(g.s.board[p], r));
        return out;
      })
      .def_property_readonly("floors", [](const Game& g) {
        std::vector<std::string> out;
        for (int p = 0; p < g.s.players; ++p) out.push_back(FloorText(g.s, p));
        return out;
      })
      .def_property_readonly("pending_row", [](const Game& g) {
        return g.s.phase == kTiling ? PendingRow(g.s, g.s.turn) : -1;
      })
      .def_property_readonly("winners", [](const Game& g) { return Winners(g.s); })
      .def("clone", [](const Game& g) { return g; })
      .def("__copy__", [](const Game& g) { return g; })
      .def("__deepcopy__", [](const Game& g, py::object) { return g; })
      .def("__eq__", [](const Game& a, const Game& b) { return a.s == b.s; }, py::is_operator())
      .def("__reduce__", [m](const Game& g) {  // every protocol: from_text(text with history)
        return py::make_tuple(m.attr("from_text"), py::make_tuple(ToText(g.s, &g.h)));
      })
      .def("__repr__", [](const Game& g) { return "GameState.from_text(" + PyRepr(ToText(g.s, nullptr)) + ")"; })
      .def("__str__", [](const Game& g) { return BoardText(g.s); })
      .def("legal_actions", [](const Game& g) { return LegalActionList(g.s); })
      .def("legal_moves", [](const Game& g) {
        std::vector<std::string> out;
        for (int a : LegalActionList(g.s)) out.push_back(ActionToString(g.s, a));
        return out;
      })
      .def("chance_outcomes", [](const Game& g) { return ChanceOutcomes(g.s); })
      .def("action_to_string", [](const Game& g, const py::object& a) {
        return ActionToString(g.s, ToAction(a));
      })
      .def("string_to_action", [](const Game& g, const py::object& text) {
        if (!py::isinstance<py::str>(text))
          throw py::type_error("a move is an action id (int) or a notation string, not " +
                               TypeName(text));
        return StringToAction(g.s, Utf8(text));
      })
      .def("apply", [](Game& g, const py::object& move) {
        int action = MoveToAction(g, move);
        CheckLegal(g.s, action);
        PushUndo(g.undo, g.s, g.h);
        ApplyAction(g.s, action, &g.h);
      })
      .def("undo", &Undo<Game>)
      .def("key", [](const Game& g) { return PositionKey(g.s); })
      .def("__hash__", [](const Game& g) { return py::hash(py::int_(PositionKey(g.s))); })
      .def("deal", &DealGame)
      .def("reseed", [](Game& g, const py::object& seed) {
        g.s.rng = ToSeed(seed);
        g.h.seed_known = false;
        g.undo.clear();
      })
      .def("to_text", [](const Game& g, const py::object& history) {
        return ToText(g.s, Truthy(history) ? &g.h : nullptr);
      }, py::arg("history") = false)
      .def_static("from_text", &FromTextAny, py::arg("text"))
      .def("record", [](const Game& g) {
        return py::module_::import("json").attr("loads")(RecordJson(g.s, g.h));
      })
      .def("record_json", [](const Game& g) { return RecordJson(g.s, g.h); })
      .def("score_sheet", [](const Game& g) {
        return py::module_::import("json").attr("loads")(ScoreSheetJson(g.s, g.h));
      })
      .def("score_if_round_ended", [](const Game& g) { return ScoreIfRoundEnded(g.s); })
      .def("observation_tensor", [](const Game& g, const py::object& player) {
        const int observer = Observer(player, g.s.turn, g.s.players);
        py::array_t<float> out(ObservationSize(g.s.players));
        Observation(g.s, observer, out.mutable_data());
        return out;
      }, py::arg("player") = py::none())
      .def("legal_action_mask", [](const Game& g) {
        py::array_t<bool> mask(kNumActions);
        bool* data = mask.mutable_data();
        std::fill(data, data + kNumActions, false);
        int16_t buf[kNumActions];
        const int n = LegalActions(g.s, buf);
        for (int i = 0; i < n; ++i) data[buf[i]] = true;
        return mask;
      });

  py::class_<PGame>(m, "PavilionState")
      .def(py::init([](const py::args&, const py::kwargs&) -> PGame {
        throw py::type_error(kPavilionHint);
      }))
      .def_property_readonly("players", [](const PGame& g) { return int(g.s.players); })
      .def_property_readonly("variant", [](const PGame&) { return "summer-pavilion"; })
      .def_property_readonly("seed", [](const PGame& g) { return g.s.seed; })
      .def_property_readonly("round", [](const PGame& g) { return int(g.s.round); })
      .def_property_readonly("chance_mode", [](const PGame& g) {
        return g.s.explicit_chance ? "explicit" : "sampled";
      })
      .def_property_readonly("phase", [](const PGame& g) { return sp::kPhaseNames[g.s.phase]; })
      .def_property_readonly("current_player", [](const PGame& g) { return int(g.s.turn); })
      .def_property_readonly("starting_player", [](const PGame& g) { return int(g.s.start); })
      .def_property_readonly("is_over", [](const PGame& g) { return g.s.phase == sp::kOver; })
      .def_property_readonly("is_chance_node", [](const PGame& g) {
        return g.s.phase == sp::kFirstPlayer || g.s.phase == sp::kFill;
      })
      .def_property_readonly("scores", [](const PGame& g) {
        return std::vector<int>(g.s.score, g.s.score + g.s.players);
      })
      .def_property_readonly("factories", [](const PGame& g) {
        std::vector<std::string> out;
        for (int f = 0; f < g.s.num_factories; ++f) out.push_back(sp::TilesToStr(g.s.factories[f]));
        return out;
      })
      .def_property_readonly("center", [](const PGame& g) { return sp::TilesToStr(g.s.centre); })
      .def_property_readonly("supply", [](const PGame& g) { return sp::TilesToStr(g.s.supply); })
      .def_property_readonly("bag", [](const PGame& g) { return sp::TilesToStr(g.s.bag); })
      .def_property_readonly("tower", [](const PGame& g) { return sp::TilesToStr(g.s.tower); })
      .def_property_readonly("lid", [](const PGame& g) { return sp::TilesToStr(g.s.tower); })
      .def_property_readonly("wild", [](const PGame& g) {
        return std::string(1, sp::kColourLetters[std::min<int>(g.s.round, sp::kRounds) - 1]);
      })
      .def_property_readonly("first_player_marker", [](const PGame& g) { return int(g.s.marker); })
      .def_property_readonly("moves_this_round", [](const PGame& g) { return g.s.moves; })
      .def_property_readonly("hands", [](const PGame& g) {
        std::vector<std::string> out;
        for (int p = 0; p < g.s.players; ++p) out.push_back(sp::TilesToStr(g.s.hand[p]));
        return out;
      })
      .def_property_readonly("passed", [](const PGame& g) {
        std::vector<bool> out;
        for (int p = 0; p < g.s.players; ++p) out.push_back(g.s.passed[p] != 0);
        return out;
      })
      .def_property_readonly("bonus_owed", [](const PGame& g) { return int(g.s.owed); })
      .def_property_readonly("boards", [](const PGame& g) {
        std::vector<std::vector<std::string>> out;
        for (int p = 0; p < g.s.players; ++p) out.push_back(sp::BoardStrings(g.s, p));
        return out;
      })
      .def_property_readonly("winners", [](const PGame& g) { return sp::Winners(g.s); })
      .def("clone", [](const PGame& g) { return g; })
      .def("__copy__", [](const PGame& g) { return g; })
      .def("__deepcopy__", [](const PGame& g, py::object) { return g; })
      .def("__eq__", [](const PGame& a, const PGame& b) { return a.s == b.s; }, py::is_operator())
      .def("__reduce__", [m](const PGame& g) {
        return py::make_tuple(m.attr("from_text"), py::make_tuple(sp::ToText(g.s, &g.h)));
      })
      .def("__repr__", [](const PGame& g) {
        return "from_text(" + PyRepr(sp::ToText(g.s, nullptr)) + ")";
      })
      .def("__str__", [](const PGame& g) { return sp::BoardText(g.s); })
      .def("legal_actions", [](const PGame& g) { return sp::LegalActionList(g.s); })
      .def("legal_moves", [](const PGame& g) {
        std::vector<std::string> out;
        for (int a : sp::LegalActionList(g.s)) out.push_back(sp::ActionText(a));
        return out;
      })
      .def("legal_action_mask", [](const PGame& g) {
        py::array_t<bool> mask(sp::kNumActions);
        bool* data = mask.mutable_data();
        std::fill(data, data + sp::kNumActions, false);
        int16_t buf[sp::kNumActions];
        const int n = sp::LegalActions(g.s, buf);
        for (int i = 0; i < n; ++i) data[buf[i]] = true;
        return mask;
      })
      .def("observation_tensor", [](const PGame& g, const py::object& player) {
        const int observer = Observer(player, g.s.turn, g.s.players);
        py::array_t<float> out(sp::ObservationSize(g.s.players));
        sp::Observation(g.s, observer, out.mutable_data());
        return out;
      }, py::arg("player") = py::none())
      .def("chance_outcomes", [](const PGame& g) { return sp::ChanceOutcomes(g.s); })
      .def("action_to_string", [](const PGame& g, const py::object& a) {
        (void)g;
        return sp::ActionText(ToAction(a, sp::kNumActions));
      })
      .def("string_to_action", [](const PGame& g, const py::object& text) {
        (void)g;
        if (!py::isinstance<py::str>(text))
          throw py::type_error("a move is an action id (int) or a notation string, not " +
                               TypeName(text));
        int counts[sp::kColours];
        const int action = sp::ParseMove(Utf8(text), counts);
        if (action < 0)
          throw IllegalMove(Utf8(py::repr(text)) +
                            " draws several tiles, which no single action id does; apply it as "
                            "a move or use deal_supply");
        return action;
      })
      .def("apply", &ApplyPavilion, py::arg("move"))
      .def("deal", &DealPavilion, py::arg("factories"))
      .def("deal_supply", &DealSupplyPavilion, py::arg("tiles"))
      .def("reseed", [](PGame& g, const py::object& seed) {
        g.s.rng = ToSeed(seed);
        g.h.seed_known = false;
        g.undo.clear();
      }, py::arg("seed"))
      .def("undo", &Undo<PGame>)
      .def("key", [](const PGame& g) { return PositionKey(g.s); })
      .def("__hash__", [](const PGame& g) { return py::hash(py::int_(PositionKey(g.s))); })
      .def("to_text", [](const PGame& g, const py::object& history) {
        return sp::ToText(g.s, Truthy(history) ? &g.h : nullptr);
      }, py::arg("history") = false)
      .def_static("from_text", &FromTextPavilion, py::arg("text"))
      .def("record", [](const PGame& g) {
        return py::module_::import("json").attr("loads")(sp::RecordJson(g.s, g.h));
      })
      .def("record_json", [](const PGame& g) { return sp::RecordJson(g.s, g.h); })
      .def("score_sheet", [](const PGame& g) {
        return py::module_::import("json").attr("loads")(sp::ScoreSheetJson(g.s, g.h));
      });

  for (int a = 0; a < kCachedInts; ++a)
    g_action_ints[a] = PyLong_FromLong(a);  // kept for the life of the interpreter
  g_main_thread =
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  InstallFastLoop<Game>(m.attr("GameState"));
  InstallFastLoop<PGame>(m.attr("PavilionState"));

  m.def("new_game", &MakeGame, py::arg("players") = 2, py::arg("variant") = "classic",
        py::arg("seed") = py::none(), py::arg("chance") = "sampled");
  m.def("from_text", &FromTextAny, py::arg("text"));

  m.def("end_bonus", &EndBonusOf, py::arg("wall"), py::arg("variant") = py::none());
  m.def("observation_shape", [](const py::object& players, const py::object& variant) {
    // checks the arguments
    const NewGameArgs a = CheckNewGame(players, variant, py::int_(0), py::str("sampled"));
    if (a.variant == kPavilion) return py::make_tuple(sp::ObservationSize(a.players));
    return py::make_tuple(ObservationSize(a.players));
  }, py::arg("players"), py::arg("variant") = "classic");
  m.def("random_playouts", &RandomPlayoutsPy, py::arg("n"), py::arg("players") = 2,
        py::arg("variant") = "classic", py::arg("seed") = 0, py::arg("threads") = 0,
        py::arg("with_plies") = false, py::arg("policy") = "uniform");
  m.def("playouts_from", &PlayoutsFromPy, py::arg("state"), py::arg("n"), py::arg("seed") = 0,
        py::arg("threads") = 0, py::arg("with_plies") = false, py::arg("policy") = "uniform");
  // Private, for tests: Summer Pavilion playouts on the full State (sp::PlayRandom), the reference
  // the compact playout kernel must match game for game; returns (scores, plies).
  m.def("_sp_reference_playouts", [](const py::object& state, int n, uint64_t seed) {
    if (n < 0) throw py::value_error("n must be 0 or more");
    if (py::isinstance<PGame>(state)) {
      const sp::State start = state.cast<const PGame&>().s;
      py::array_t<int32_t> out({n, static_cast<int>(start.players)});
      const uint64_t plies = sp::ReferencePlayoutsFrom(start, n, seed, 1, out.mutable_data());
      return py::make_tuple(out, plies);
    }
    const int players = state.cast<int>();
    if (players < 2 || players > 4) throw py::value_error("players must be 2, 3 or 4");
    py::array_t<int32_t> out({n, players});
    const uint64_t plies = sp::ReferenceRandomPlayouts(n, players, seed, 1, out.mutable_data());
    return py::make_tuple(out, plies);
  }, py::arg("state"), py::arg("n"), py::arg("seed"));

  py::class_<VectorGame>(m, "VectorGame")
      .def(py::init(&MakeVector), py::arg("n"), py::arg("players") = 2,
           py::arg("variant") = "classic", py::arg("seed") = 0, py::arg("auto_reset") = false)
      .def_property_readonly("auto_reset", &VectorGame::auto_reset)
      .def_property_readonly("final_scores", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        if (!v.auto_reset()) return py::object(py::none());
        return py::object(View(self, v.final_scores(), {v.size(), v.players()}));
      })
      .def_property_readonly("final_returns", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        if (!v.auto_reset()) return py::object(py::none());
        return py::object(View(self, v.final_returns(), {v.size(), v.players()}));
      })
      .def_property_readonly("n", &VectorGame::size)
      .def_property_readonly("players", &VectorGame::players)
      .def_property_readonly("variant", [](const VectorGame& v) { return kAllVariants[v.variant()]; })
      .def_property_readonly("legal_mask", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, reinterpret_cast<bool*>(v.legal_mask()), {v.size(), v.num_actions()});
      })
      .def_property_readonly("legal_actions", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, v.legal_actions(), {v.size(), v.num_actions()});
      })
      .def_property_readonly("num_legal", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, v.num_legal(), {v.size()});
      })
      .def_property_readonly("current_player", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, v.current_player(), {v.size()});
      })
      .def_property_readonly("scores", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, v.scores(), {v.size(), v.players()});
      })
      .def_property_readonly("done", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, reinterpret_cast<bool*>(v.done()), {v.size()});
      })
      .def("step", &StepVector, py::arg("actions"))
      .def_property_readonly("stepped", &VectorGame::stepped)
      .def("observation_tensors", [](VectorGame& v) {
        Busy busy(v);
        py::array_t<float> out({v.size(), v.observation_size()});
        v.Observations(out.mutable_data());
        return out;
      })
      .def("reset", [](VectorGame& v, const py::object& indices) {
        Busy busy(v);
        if (indices.is_none()) {
          v.ResetAll();
          return;
        }
        std::vector<py::int_> values;  // int(i) of each, as the pure engine, then the range check
        for (const py::handle& i : indices) {
          PyObject* exact = PyNumber_Long(i.ptr());  // an exact int: int(True) is 1, as in Python
          if (!exact) throw py::error_already_set();
          values.push_back(py::reinterpret_steal<py::int_>(exact));
        }
        std::vector<int> slots;
        for (const py::int_& value : values) slots.push_back(GameIndex(value, v.size()));
        v.Reset(slots);
      }, py::arg("indices") = py::none())
      .def("state", [](VectorGame& v, const py::object& index) {
        Busy busy(v);
        if (PyBool_Check(index.ptr()) || !PyIndex_Check(index.ptr()))
          throw py::type_error("a game index is an int, not " + TypeName(index));
        const int i = GameIndex(py::reinterpret_steal<py::object>(PyNumber_Index(index.ptr())),
                                v.size());
        if (v.pavilion()) {
          PGame g;
          g.s = sp::FromText(sp::ToText(v.pavilion_game(i), nullptr), &g.h);
          return py::cast(std::move(g));
        }
        return py::cast(FromTextGame(ToText(v.game(i), nullptr)));
      }, py::arg("i"))
      .def("__reduce__", [m](VectorGame& v) {  // every protocol: _vector_game(...)
        Busy busy(v);
        py::list games;
        for (int i = 0; i < v.size(); ++i)
          games.append(v.pavilion() ? sp::ToText(v.pavilion_game(i), nullptr)
                                    : ToText(v.game(i), nullptr));
        return py::make_tuple(m.attr("_vector_game"),
                              py::make_tuple(v.size(), v.players(), kAllVariants[v.variant()],
                                             v.seed(), v.started(), games, v.auto_reset()));
      });
  BuildInNew(m.attr("VectorGame"));
  pavilion_type = reinterpret_cast<PyTypeObject*>(m.attr("PavilionState").ptr());
  RefuseNew(m.attr("GameState"), kGameHint);
  RefuseNew(m.attr("PavilionState"), kPavilionHint);
  // The classes' short names in Python's own messages ("unhashable type: 'GameState'",
  // "'GameState' object has no attribute ...") as for the pure engine's classes; repr() and
  // pickle use __module__ and __qualname__, which stay azul_engine._cppengine.GameState.
  for (const char* name : {"GameState", "PavilionState", "VectorGame"}) {
    PyTypeObject* type = reinterpret_cast<PyTypeObject*>(m.attr(name).ptr());
    type->tp_name = name;  // string literals: they outlive the type
    PyType_Modified(type);
  }

  // Unpickles a VectorGame (its __reduce__): the games of `games` (state text) in their slots.
  m.def("_vector_game", [m](const py::object& n, const py::object& players,
                            const py::object& variant, const py::object& seed,
                            const py::object& started, const py::object& games,
                            const py::object& auto_reset) {
    py::object self = m.attr("VectorGame")(n, players, variant, seed, auto_reset);
    VectorGame& v = self.cast<VectorGame&>();
    const uint64_t count = ToSeed(started);
    const py::list texts(games);
    if (static_cast<int>(texts.size()) != v.size())
      throw py::value_error("VectorGame pickle: " + std::to_string(texts.size()) +
                            " games for a vector of " + std::to_string(v.size()));
    for (int i = 0; i < v.size(); ++i) {
      py::object g = FromTextAny(texts[i]);
      const bool fits =
          v.pavilion() ? py::isinstance<PGame>(g) && g.cast<const PGame&>().s.players == v.players()
                       : py::isinstance<Game>(g) && g.cast<const Game&>().s.players == v.players() &&
                             g.cast<const Game&>().s.variant == v.variant();
      if (!fits)
        throw py::value_error("VectorGame pickle: game " + std::to_string(i) + " is not a " +
                              std::to_string(v.players()) + "-player " +
                              kAllVariants[v.variant()] + " game");
      if (v.pavilion())
        v.SetGame(i, g.cast<const PGame&>().s);
      else
        v.SetGame(i, g.cast<const Game&>().s);
    }
    v.SetStarted(count);
    return self;
  }, py::arg("n"), py::arg("players"), py::arg("variant"), py::arg("seed"), py::arg("started"),
     py::arg("games"), py::arg("auto_reset") = false);

  m.attr("__all__") = py::make_tuple(
      "GameState", "new_game", "IllegalMoveError", "StateFormatError", "COLOURS", "VARIANTS",
      "NUM_ACTIONS", "NUM_DRAFT_ACTIONS", "TILE_ACTION_BASE", "DRAW_ACTION_BASE",
      "FIRST_PLAYER_ACTION_BASE", "CHANCE", "TEXT_VERSION", "end_bonus", "random_playouts",
      "playouts_from", "VectorGame", "observation_shape", "from_text", "PavilionState",
      "SP_COLOURS", "SP_STARS", "SP_KEEP_SETS", "SP_NUM_ACTIONS", "SP_PLACE_ACTION_BASE",
      "SP_BONUS_ACTION_BASE", "SP_PASS_ACTION_BASE", "SP_DRAW_ACTION_BASE",
      "SP_FIRST_PLAYER_ACTION_BASE");
}

// pybind11 bindings of the C++ engine as azul_engine._cppengine: the module, its errors,
// constants and functions, and the converters every binding file shares (bindings.h).  No
// rules here: each entry converts Python values and forwards to native/ through the rules
// traits (azul/variant.h); the classes are bound in bind_classic.cpp, bind_pavilion.cpp and
// bind_vector.cpp.  The pure twin is python/azul_engine/_pyengine.py.
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "azul/common/pystr.h"
#include "azul/common/rng.h"
#include "azul/classic/notation.h"
#include "azul/classic/text.h"
#include "bindings.h"

namespace azul {
namespace bind {

std::string TypeName(const py::handle& obj) {
  return Utf8(py::type::handle_of(obj).attr("__name__"));
}

// A state's type as the errors for a state of the wrong engine name it: "a GameState of the pure-Python engine
// (azul_engine._pyengine)" for the other engine's states, else the type's name (as the pure engine's
// state_type_error).
std::string StateTypeName(const py::handle& obj) {
  const std::string name = TypeName(obj);
  if (name != "GameState" && name != "PavilionState") return name;
  const py::object module = py::getattr(py::type::handle_of(obj), "__module__", py::none());
  if (!py::isinstance<py::str>(module)) return name;
  const std::string where = Utf8(module);
  // The modules of the pure engine's state classes (_pure/classic/state.py, _pure/pavilion/state.py).
  if (where == "azul_engine._pure.classic.state" || where == "azul_engine._pure.pavilion.state")
    return "a " + name + " of the pure-Python engine (azul_engine._pyengine)";
  return name;
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

int IdToName(const py::handle& obj, int num_actions, int (*check_range)(long long)) {
  if (PyUnicode_Check(obj.ptr()))  // the pure engine: common.check_id
    throw py::type_error("action_to_string takes an action id (int), not str: string_to_action reads notation");
  return ToAction(obj, num_actions, check_range);
}

py::object AsIndex(const py::handle& obj, const char* words) {
  const char* type = Py_TYPE(obj.ptr())->tp_name;
  // numpy < 2.1 gives its bool __index__; it is refused as a bool is.
  const bool numpy_bool = std::strcmp(type, "numpy.bool") == 0 || std::strcmp(type, "numpy.bool_") == 0;
  if (!PyBool_Check(obj.ptr()) && !numpy_bool && PyIndex_Check(obj.ptr())) {
    py::object value = py::reinterpret_steal<py::object>(PyNumber_Index(obj.ptr()));
    if (value) return value;
    if (!PyErr_ExceptionMatches(PyExc_TypeError)) throw py::error_already_set();
    PyErr_Clear();  // __index__ refused this value: a numpy array of shape (1,), say
  }
  throw py::type_error(words + TypeName(obj));
}

int ToAction(const py::handle& obj, int num_actions, int (*check_range)(long long)) {
  const py::object value = AsIndex(obj, "a move is an action id (int) or a notation string, not ");
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow)
    throw IllegalMove("action " + std::string(py::str(value)) + " is out of range 0-" +
                      std::to_string(num_actions - 1));
  return check_range(v);
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
  const int v = py::isinstance<py::str>(variant) ? VariantIndex(Utf8(variant)) : -1;
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
  return {static_cast<int>(n), static_cast<Variant>(v), mode == "explicit", seed_value};
}

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

std::vector<std::string> FactoryStrings(const py::list& items) {
  for (size_t i = 0; i < items.size(); ++i)
    if (!py::isinstance<py::str>(items[i]))
      throw IllegalMove("deal: factory " + std::to_string(i + 1) + " is not a string");
  std::vector<std::string> strings;
  for (size_t i = 0; i < items.size(); ++i) strings.push_back(Utf8(items[i]));
  return strings;
}

py::object FromTextAny(const py::object& text) {
  if (!py::isinstance<py::str>(text))
    throw py::type_error("state text must be a str, not " + TypeName(text));
  const std::string t = Utf8(text);
  return WithRules(TextRules(t), [&](auto r) {
    using R = decltype(r);
    return py::cast(Game<R>::FromText(t));
  });
}

// from_text(text, *, variant=None): with a variant, the text must be of it (the pure engine: _pure/classic/state.py
// from_text).  The variant is checked first, as new_game checks it; then the text is read; then the two compared.
py::object FromTextOf(const py::object& text, const py::object& variant) {
  int expected = -1;
  if (!variant.is_none()) {
    expected = py::isinstance<py::str>(variant) ? VariantIndex(Utf8(variant)) : -1;
    if (expected < 0)
      throw py::value_error("unknown variant " + Utf8(py::repr(variant)) +
                            " (variants: classic, grey, summer-pavilion)");
  }
  py::object state = FromTextAny(text);
  if (expected >= 0) {
    const std::string got = py::str(state.attr("variant"));
    if (got != kVariantNames[expected])
      throw StateFormatError("field variant: " + PyRepr(got) + ", expected " +
                             PyRepr(kVariantNames[expected]));
  }
  return state;
}

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

Policy ToPolicy(const py::object& policy) {
  if (PyUnicode_CheckExact(policy.ptr())) {
    const std::string name = Utf8(policy);
    if (name == "uniform") return Policy::kUniform;
    if (name == "light") return Policy::kLight;
  }
  throw py::value_error("unknown policy " + Utf8(py::repr(policy)) +
                        "; expected one of: uniform, light");
}

// A long native batch answers Ctrl-C: the calling thread takes the GIL between blocks of games and
// runs the pending signal handlers; a handler that raises (KeyboardInterrupt) stops the batch.
bool SignalPending(void*) {
  py::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}

void SetNew(py::handle cls, const py::cpp_function& function, newfunc slot) {
  py::setattr(cls, "__new__", py::staticmethod(function));  // what X.__new__ finds
  reinterpret_cast<PyTypeObject*>(cls.ptr())->tp_new = slot;  // what X() and the bases' __new__ see
  PyType_Modified(reinterpret_cast<PyTypeObject*>(cls.ptr()));
}

// A class whose instances only the engine makes: its __new__ refuses, so that no object can
// exist over uninitialised memory (pybind11 would allocate one lazily, unconstructed).
PyObject* RefusingNew(PyTypeObject* type, PyObject*, PyObject*);

void RefuseNew(py::handle cls, const char* hint) {
  const std::string message = hint;
  SetNew(cls, py::cpp_function([message](const py::args&, const py::kwargs&) -> py::object {
           throw py::type_error(message);
         }, py::name("__new__")), &RefusingNew);
}

namespace {

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

// The class whose __new__ is the engine's (below), set once at import.
PyTypeObject* pavilion_type = nullptr;


py::object Playouts(uint64_t plies, py::array_t<int32_t> out, bool with_plies) {
  if (with_plies) return py::make_tuple(out, plies);
  return out;
}

// with_plies: True or False, a numpy bool too (the pure engine: common.check_bool).
bool WithPlies(const py::object& flag) {
  const std::string type = Py_TYPE(flag.ptr())->tp_name;
  if (!PyBool_Check(flag.ptr()) && type != "numpy.bool" && type != "numpy.bool_")
    throw py::type_error("with_plies must be True or False, not " + TypeName(flag));
  const int value = PyObject_IsTrue(flag.ptr());
  if (value < 0) throw py::error_already_set();
  return value != 0;
}


py::object MakeGame(const py::object& players, const py::object& variant, const py::object& seed,
                    const py::object& chance) {
  const NewGameArgs a = CheckNewGame(players, variant, seed, chance);
  return WithRules(a.variant, [&](auto r) {
    using R = decltype(r);
    return py::cast(Game<R>::New(a.players, a.variant, a.seed, a.explicit_chance));
  });
}

py::object RandomPlayoutsPy(const py::object& n_obj, const py::object& players,
                            const py::object& variant, const py::object& seed,
                            const py::object& threads_obj, const py::object& with_plies_obj,
                            const py::object& policy_obj) {
  const int n = CheckCount(n_obj, "n", kMaxPlayouts, "2**30");
  const int threads = CheckCount(threads_obj, "threads", kMaxThreads, "1024");
  const uint64_t seed_value = ToSeed(seed);
  // checks players and variant before any work
  const NewGameArgs a = CheckNewGame(players, variant, py::int_(0), py::str("sampled"));
  const Policy policy = ToPolicy(policy_obj);
  const bool with_plies = WithPlies(with_plies_obj);
  const int p = a.players;
  py::array_t<int32_t> out({n, p});
  int32_t* data = out.mutable_data();
  const uint64_t plies = RunInterruptible([&](StopCheck stop) {
    return WithRules(a.variant, [&](auto r) {
      return decltype(r)::RandomPlayouts(n, p, a.variant, seed_value, threads, data, stop,
                                         policy);
    });
  });
  return Playouts(plies, out, with_plies);
}

template <typename R>
py::object PlayoutsFromWith(const typename R::State& start, int n, uint64_t seed, int threads,
                            bool with_plies, Policy policy) {
  py::array_t<int32_t> out({n, R::Players(start)});
  int32_t* data = out.mutable_data();
  const uint64_t plies = RunInterruptible([&](StopCheck stop) {
    return R::PlayoutsFrom(start, n, seed, threads, data, stop, policy);
  });
  return Playouts(plies, out, with_plies);
}

py::object PlayoutsFromPy(const py::object& state, const py::object& n_obj, const py::object& seed,
                          const py::object& threads_obj, const py::object& with_plies_obj,
                          const py::object& policy_obj) {
  const bool pavilion = py::isinstance<PavilionGame>(state);
  if (!pavilion && !py::isinstance<ClassicGame>(state))
    throw py::type_error("state must be a GameState or PavilionState of the C++ engine (azul_engine._cppengine), "
                         "not " + StateTypeName(state));
  const int n = CheckCount(n_obj, "n", kMaxPlayouts, "2**30");
  const int threads = CheckCount(threads_obj, "threads", kMaxThreads, "1024");
  const uint64_t seed_value = ToSeed(seed);
  const Policy policy = ToPolicy(policy_obj);
  const bool with_plies = WithPlies(with_plies_obj);
  if (pavilion) {
    const PavilionRules::State start = state.cast<const PavilionGame&>().state();  // a copy: the GIL is released
    return PlayoutsFromWith<PavilionRules>(start, n, seed_value, threads, with_plies, policy);
  }
  const ClassicRules::State start = state.cast<const ClassicGame&>().state();
  return PlayoutsFromWith<ClassicRules>(start, n, seed_value, threads, with_plies, policy);
}

py::dict EndBonusOf(const py::object& wall, const py::object& variant) {
  std::vector<std::string> rows;
  if (py::isinstance<py::str>(wall)) {
    rows = WallRows(Utf8(wall));
  } else {
    for (const py::handle& row : wall)
      rows.push_back(py::isinstance<py::str>(row) ? Utf8(row) : std::string());
  }
  CheckWallShape(rows);  // before the variant, as the pure engine
  bool classic = false;
  if (!variant.is_none()) {
    const int v = py::isinstance<py::str>(variant) ? VariantIndex(Utf8(variant)) : -1;
    if (v != kClassic && v != kGrey)
      throw py::value_error("unknown variant " + Utf8(py::repr(variant)) +
                            " (variants with a wall: classic, grey)");
    classic = v == kClassic;
  }
  const EndBonus bonus = WallEndBonus(rows, classic);
  py::dict out;
  out["rows"] = bonus.rows;
  out["columns"] = bonus.columns;
  out["colours"] = bonus.colours;
  out["points"] = bonus.points;
  return out;
}

}  // namespace

// tp_new of GameState and PavilionState.  Being a C slot of the class itself, it also makes
// pybind11_object.__new__(GameState) "not safe" for Python, which would otherwise allocate one.
PyObject* RefusingNew(PyTypeObject* type, PyObject*, PyObject*) {
  PyErr_SetString(PyExc_TypeError,
                  pavilion_type && PyType_IsSubtype(type, pavilion_type) ? kPavilionHint : kGameHint);
  return nullptr;
}

}  // namespace bind
}  // namespace azul

using namespace azul;
using namespace azul::bind;

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
  m.attr("NAME") = "cpp";  // the engine's name, as load_backend takes it (the pure engine's: "python")
#ifdef AZUL_PORTABLE
  m.attr("PORTABLE") = true;  // built with the plain C++ fallback of every bit trick (bits.h)
#else
  m.attr("PORTABLE") = false;
#endif
  // Whether the fills' draws run four at a time with AVX2 here (rng.h's BelowCountdown, chosen at run time).
  m.attr("VECTORISED") = BelowCountdownVectorised();
  m.attr("MAX_ROUNDS") = kMaxRounds;
  m.attr("NUM_ACTIONS") = kNumActions;
  m.attr("NUM_DRAFT_ACTIONS") = kNumDraftActions;
  m.attr("TILE_ACTION_BASE") = kColumnActionBase;
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
  BindClassic(m);
  BindPavilion(m);
  InstallFastLoops(m);
  BindNetwork(m);
  BindSearch(m);

  m.def("new_game", &MakeGame, py::arg("players") = 2, py::arg("variant") = "classic",
        py::arg("seed") = py::none(), py::arg("chance") = "sampled");
  m.def("from_text", &FromTextOf, py::arg("text"), py::kw_only(), py::arg("variant") = py::none());

  m.def("end_bonus", &EndBonusOf, py::arg("wall"), py::arg("variant") = py::none());
  m.def("observation_shape", [](const py::object& players, const py::object& variant) {
    // checks the arguments
    const NewGameArgs a = CheckNewGame(players, variant, py::int_(0), py::str("sampled"));
    return py::make_tuple(
        WithRules(a.variant, [&](auto r) { return decltype(r)::ObservationSize(a.players); }));
  }, py::arg("players"), py::arg("variant") = "classic");
  m.def("random_playouts", &RandomPlayoutsPy, py::arg("n"), py::arg("players") = 2,
        py::arg("variant") = "classic", py::arg("seed") = 0, py::arg("threads") = 0, py::kw_only(),
        py::arg("with_plies") = false, py::arg("policy") = "uniform");
  m.def("playouts_from", &PlayoutsFromPy, py::arg("state"), py::arg("n"), py::arg("seed") = 0,
        py::arg("threads") = 0, py::kw_only(), py::arg("with_plies") = false,
        py::arg("policy") = "uniform");
  // Private, for tests: Summer Pavilion playouts on the full State (sp::PlayRandom), the reference
  // the compact playout kernel must match game for game; returns (scores, plies).
  m.def("_sp_reference_playouts", [](const py::object& state, int n, uint64_t seed) {
    if (n < 0) throw py::value_error("n must be 0 or more");
    if (py::isinstance<PavilionGame>(state)) {
      const sp::State start = state.cast<const PavilionGame&>().state();
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


  BindVector(m);
  pavilion_type = reinterpret_cast<PyTypeObject*>(m.attr("PavilionState").ptr());
  RefuseNew(m.attr("GameState"), kGameHint);
  RefuseNew(m.attr("PavilionState"), kPavilionHint);
  // The classes' short names in Python's own messages ("unhashable type: 'GameState'",
  // "'GameState' object has no attribute ...") as for the pure engine's classes; repr() and
  // pickle use __module__ and __qualname__, which stay azul_engine._cppengine.GameState.
  BindGameInfo(m);
  for (const char* name : {"GameState", "PavilionState", "VectorGame", "GameInfo"}) {
    PyTypeObject* type = reinterpret_cast<PyTypeObject*>(m.attr(name).ptr());
    type->tp_name = name;  // string literals: they outlive the type
    PyType_Modified(type);
  }

  m.attr("__all__") = py::make_tuple(
      "GameState", "new_game", "IllegalMoveError", "StateFormatError", "COLOURS", "VARIANTS",
      "NUM_ACTIONS", "NUM_DRAFT_ACTIONS", "TILE_ACTION_BASE", "DRAW_ACTION_BASE",
      "FIRST_PLAYER_ACTION_BASE", "CHANCE", "TEXT_VERSION", "end_bonus", "random_playouts",
      "playouts_from", "VectorGame", "observation_shape", "from_text", "PavilionState",
      "SP_COLOURS", "SP_STARS", "SP_KEEP_SETS", "SP_NUM_ACTIONS", "SP_PLACE_ACTION_BASE",
      "SP_BONUS_ACTION_BASE", "SP_PASS_ACTION_BASE", "SP_DRAW_ACTION_BASE",
      "SP_FIRST_PLAYER_ACTION_BASE", "PORTABLE", "VECTORISED", "MAX_ROUNDS", "GameInfo", "game_info",
      "search", "SearchResult", "NAME", "search_many", "Network", "load_network", "solve_round", "RoundSolution");
}

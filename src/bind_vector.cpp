// pybind11 bindings of VectorGame (native/src/common/vector.cpp): numpy views of its arrays, the
// GIL-free step, pickling.  Only conversions: the rules are the vector's, through its traits.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "azul/common/vector.h"
#include "bindings.h"

namespace azul {
namespace bind {

namespace {

PyObject* vector_new = nullptr;  // VectorGame.__new__'s function (kept for the interpreter's life)

// auto_reset as the pure engine's _pure/vector.py check_auto_reset reads it: False, True or
// "next_step".
AutoReset ToAutoReset(const py::object& value) {
  if (PyBool_Check(value.ptr())) return value.ptr() == Py_True ? AutoReset::kSameStep : AutoReset::kOff;
  if (py::isinstance<py::str>(value) && py::str(value).equal(py::str("next_step"))) return AutoReset::kNextStep;
  if (py::isinstance<py::str>(value))
    throw py::value_error("auto_reset must be True, False or 'next_step', not " + Utf8(py::repr(value)));
  throw py::type_error("auto_reset must be True, False or 'next_step', not " + TypeName(value));
}

py::object AutoResetValue(AutoReset mode) {
  if (mode == AutoReset::kNextStep) return py::str("next_step");
  return py::bool_(mode == AutoReset::kSameStep);
}

VectorGame* MakeVector(const py::object& n_obj, const py::object& players, const py::object& variant,
                       const py::object& seed, const py::object& auto_reset) {
  const int n = CheckCount(n_obj, "n", kMaxVectorGames, "2**18 games");
  const uint64_t seed_value = ToSeed(seed);
  const NewGameArgs a = CheckNewGame(players, variant, py::int_(0), py::str("sampled"));
  return new VectorGame(n, a.players, a.variant, seed_value, ToAutoReset(auto_reset));
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

// A game's slot from any Python object: an int (not a bool; anything with __index__), as the pure
// engine's game_index; TypeError, IndexError.
int CheckedIndex(const py::handle& index, int n) {
  return GameIndex(AsIndex(index, "a game index is an int, not "), n);
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

// What a caller's buffer that is not aligned for float32 is told: the engine writes through float*.
constexpr const char* kUnaligned = " must be aligned for float32 (its address a multiple of 4, as numpy's own arrays "
                                   "are): np.require(..., requirements='A') gives an aligned copy";

// A caller's output buffer (`what` names it in the errors): a writable C-contiguous aligned numpy
// array of `dtype` (`name`: "float32", "bool") and `shape`, checked as the pure engine's
// _pure/vector.py _check_buffer checks it.
py::array CheckBuffer(const py::object& obj, const std::string& what, const py::dtype& dtype, const char* name,
                      const std::vector<py::ssize_t>& shape) {
  auto want = [&] {  // the shape as Python prints it, for the errors only
    std::string text = "(" + std::to_string(shape[0]) + (shape.size() == 1 ? "," : "");
    for (size_t k = 1; k < shape.size(); ++k) text += ", " + std::to_string(shape[k]);
    return text + ")";
  };
  if (!py::isinstance<py::array>(obj))
    throw py::type_error(what + " must be a numpy " + name + " array of shape " + want() + ", not " + TypeName(obj));
  py::array out = py::reinterpret_borrow<py::array>(obj);
  bool fits = out.dtype().equal(dtype) && out.ndim() == static_cast<py::ssize_t>(shape.size());
  for (size_t k = 0; fits && k < shape.size(); ++k) fits = out.shape(k) == shape[k];
  if (!fits)
    throw py::value_error(what + " must be a " + name + " array of shape " + want() + ", not shape " +
                          std::string(py::str(obj.attr("shape"))) + " of " + std::string(py::str(out.dtype())));
  if (!(out.flags() & py::array::c_style))
    throw py::value_error(what + " must be C-contiguous (np.ascontiguousarray)");
  if (!(out.flags() & py::detail::npy_api::NPY_ARRAY_ALIGNED_)) throw py::value_error(what + kUnaligned);
  if (!out.writeable()) throw py::value_error(what + " is read-only");
  return out;
}

// A caller's buffer of observations for `v` (`what`: "observation_tensors: out", "step:
// observations"): float32, n x observation_size().
py::array CheckObservations(VectorGame& v, const py::object& obj, const std::string& what) {
  return CheckBuffer(obj, what, py::dtype::of<float>(), "float32", {v.size(), v.observation_size()});
}

// step's rewards buffer: float32, n.
py::array CheckRewards(VectorGame& v, const py::object& obj) {
  return CheckBuffer(obj, "step: rewards", py::dtype::of<float>(), "float32", {v.size()});
}

// step's masks buffer: bool, n x num_actions() (never unaligned: one byte).
py::array CheckMasks(VectorGame& v, const py::object& obj) {
  return CheckBuffer(obj, "step: masks", py::dtype::of<bool>(), "bool", {v.size(), v.num_actions()});
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

py::tuple StepVector(const py::object& self, const py::object& actions_obj, const py::object& threads_obj,
                     const py::object& observations_obj, const py::object& rewards_obj,
                     const py::object& masks_obj) {
  VectorGame& v = self.cast<VectorGame&>();
  const int threads = CheckCount(threads_obj, "threads", kMaxThreads, "1024");
  float* observations = nullptr;
  py::array observations_array;
  if (!observations_obj.is_none()) {
    observations_array = CheckObservations(v, observations_obj, "step: observations");
    observations = static_cast<float*>(observations_array.mutable_data());
  }
  float* rewards = nullptr;
  py::array rewards_array;
  if (!rewards_obj.is_none()) {
    rewards_array = CheckRewards(v, rewards_obj);
    rewards = static_cast<float*>(rewards_array.mutable_data());
  }
  uint8_t* masks = nullptr;
  py::array masks_array;
  if (!masks_obj.is_none()) {
    masks_array = CheckMasks(v, masks_obj);
    masks = static_cast<uint8_t*>(masks_array.mutable_data());
  }
  // An exact ndarray is used as it is (np.asarray would return it unchanged).
  py::array actions = Py_TYPE(actions_obj.ptr()) == py::detail::npy_api::get().PyArray_Type_
                          ? py::reinterpret_borrow<py::array>(actions_obj)
                          : py::array(py::module_::import("numpy").attr("asarray")(actions_obj));
  const char kind = actions.dtype().kind();
  if (actions.ndim() != 1 || actions.shape(0) != v.size() || (kind != 'i' && kind != 'u'))
    throw py::value_error("actions must be " + std::to_string(v.size()) + " integers, got shape " +
                          std::string(py::str(actions.attr("shape"))) + " of " +
                          std::string(py::str(actions.dtype())));
  auto values = py::array_t<int64_t, kReadable>::ensure(actions);
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
    auto u = py::array_t<uint64_t, kReadable>::ensure(actions);
    for (int i = 0; i < v.size(); ++i)
      if (u.data()[i] > static_cast<uint64_t>(INT64_MAX)) big.emplace_back(i, u.data()[i]);
  }
  for (const auto& [i, value] : big) {
    if (v.Waiting(i)) continue;  // a game that waits takes no action
    v.Check(data, i);
    throw IllegalMove("game " + std::to_string(i) + ": action " + std::to_string(value) +
                      " is out of range 0-" + std::to_string(v.num_actions() - 1));
  }
  v.CheckOn(data, threads);
  SignalPoll poll{std::chrono::steady_clock::now() + std::chrono::milliseconds(kSignalPollMs)};
  int stepped;
  {
    py::gil_scoped_release release;
    stepped = v.Apply(data,
                      PyThread_get_thread_ident() == g_main_thread ? StopCheck{&PollSignals, &poll}
                                                                   : StopCheck{},
                      threads, observations, rewards, masks);
  }
  v.set_stepped(stepped);
  if (stepped < v.size()) {
    py::error_already_set interrupted;  // the signal handler's exception
    py::object exc = interrupted.value();
    py::object add_note = py::getattr(exc, "add_note", py::none());
    if (!add_note.is_none()) {
      add_note(VectorStepNote(stepped, v.size()));
    } else {  // Python 3.9 and 3.10: no add_note (PEP 678), the same __notes__ list
      py::list notes;
      if (py::hasattr(exc, "__notes__")) notes = py::list(exc.attr("__notes__"));
      notes.append(VectorStepNote(stepped, v.size()));
      exc.attr("__notes__") = notes;
    }
    throw interrupted;
  }
  return py::make_tuple(View(self, reinterpret_cast<bool*>(v.legal_mask()), {v.size(), v.num_actions()}),
                        View(self, v.current_player(), {v.size()}),
                        View(self, v.scores(), {v.size(), v.players()}),
                        View(self, reinterpret_cast<bool*>(v.done()), {v.size()}));
}

// observation_tensors(out=None, *, games=None, threads=1): the rows written without the GIL into
// `out` or a new array (whose rows of the games `games` leaves out are zeros).
py::array ObservationTensors(VectorGame& v, const py::object& out_obj, const py::object& games_obj,
                             const py::object& threads_obj) {
  const int threads = CheckCount(threads_obj, "threads", kMaxThreads, "1024");
  py::array out = out_obj.is_none() ? py::array(py::array_t<float>({v.size(), v.observation_size()}))
                                    : CheckObservations(v, out_obj, "observation_tensors: out");
  const uint8_t* games = nullptr;
  py::array flags;
  if (!games_obj.is_none()) {
    if (!py::isinstance<py::array>(games_obj) ||
        py::reinterpret_borrow<py::array>(games_obj).dtype().kind() != 'b')
      throw py::type_error("observation_tensors: games must be a numpy bool array of shape (" +
                           std::to_string(v.size()) + ",), not " + TypeName(games_obj));
    flags = py::array_t<bool, py::array::c_style | py::array::forcecast>::ensure(games_obj);
    if (flags.ndim() != 1 || flags.shape(0) != v.size())
      throw py::value_error("observation_tensors: games must be a numpy bool array of shape (" +
                            std::to_string(v.size()) + ",), not shape " +
                            std::string(py::str(games_obj.attr("shape"))));
    games = static_cast<const uint8_t*>(flags.data());
  }
  Busy busy(v);
  float* data = static_cast<float*>(out.mutable_data());
  if (games && out_obj.is_none())  // a new array's rows of the games not flagged are zeros
    std::memset(data, 0, sizeof(float) * static_cast<size_t>(v.size()) * v.observation_size());
  {
    py::gil_scoped_release release;
    v.Observations(data, games, threads);
  }
  return out;
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

// VectorGame(n, players=2, variant="classic", seed=0, auto_reset=False)'s arguments bound as the
// pure engine's _pycommon.bind_arguments does, with its messages.
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

void BindVector(py::module_& m) {
  g_main_thread =
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  py::class_<VectorGame>(m, "VectorGame")
      .def(py::init(&MakeVector), py::arg("n"), py::arg("players") = 2,
           py::arg("variant") = "classic", py::arg("seed") = 0, py::arg("auto_reset") = false)
      .def_property_readonly("auto_reset", [](const VectorGame& v) { return AutoResetValue(v.auto_reset()); })
      .def_property_readonly("final_scores", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, v.final_scores(), {v.size(), v.players()});
      })
      .def_property_readonly("final_returns", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, v.final_returns(), {v.size(), v.players()});
      })
      .def_property_readonly("n", &VectorGame::size)
      .def_property_readonly("players", &VectorGame::players)
      .def_property_readonly("variant", [](const VectorGame& v) { return kVariantNames[v.variant()]; })
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
      .def("step", &StepVector, py::arg("actions"), py::kw_only(), py::arg("threads") = 1,
           py::arg("observations") = py::none(), py::arg("rewards") = py::none(), py::arg("masks") = py::none())
      .def_property_readonly("stepped", &VectorGame::stepped)
      .def("observation_tensors", &ObservationTensors, py::arg("out") = py::none(), py::kw_only(),
           py::arg("games") = py::none(), py::arg("threads") = 1)
      .def("reset", [](VectorGame& v, const py::object& indices) {
        Busy busy(v);
        if (indices.is_none()) {
          v.ResetAll();
          return;
        }
        // Game indices, each checked as state(i) checks one, or a numpy bool array of n entries: a
        // mask (reset(vec.done)).  The pure engine: _pure/common.py reset_slots.
        std::vector<int> slots;
        if (py::isinstance<py::array>(indices) &&
            py::reinterpret_borrow<py::array>(indices).dtype().kind() == 'b') {
          const auto mask = py::reinterpret_borrow<py::array>(indices);
          if (mask.ndim() != 1 || mask.shape(0) != v.size())
            throw py::value_error("a mask of the games to reset is " + std::to_string(v.size()) +
                                  " bools (shape (" + std::to_string(v.size()) + ",)), not shape " +
                                  std::string(py::str(indices.attr("shape"))));
          const auto flags = py::array_t<bool, py::array::c_style | py::array::forcecast>::ensure(mask);
          const bool* flag = flags.data();
          for (int i = 0; i < v.size(); ++i)
            if (flag[i]) slots.push_back(i);
        } else {
          for (const py::handle& i : indices) slots.push_back(CheckedIndex(i, v.size()));
        }
        v.Reset(slots);
      }, py::arg("indices") = py::none())
      .def("state", [](VectorGame& v, const py::object& index) {
        Busy busy(v);
        const int i = CheckedIndex(index, v.size());
        return FromTextAny(py::str(v.GameText(i)));  // a new game object at the position
      }, py::arg("i"))
      .def("__repr__", [](const VectorGame& v) {  // its constructor's call (the pure engine: _pure/vector.py)
        return "VectorGame(" + std::to_string(v.size()) + ", players=" + std::to_string(v.players()) +
               ", variant='" + std::string(kVariantNames[v.variant()]) + "', seed=" +
               std::to_string(static_cast<unsigned long long>(v.seed())) + ", auto_reset=" +
               std::string(py::str(py::repr(AutoResetValue(v.auto_reset())))) + ")";
      })
      .def("__reduce__", [m](VectorGame& v) {  // every protocol: _vector_game(...)
        Busy busy(v);
        py::list games;
        for (int i = 0; i < v.size(); ++i)
          games.append(v.GameText(i));
        return py::make_tuple(m.attr("_vector_game"),
                              py::make_tuple(v.size(), v.players(), kVariantNames[v.variant()],
                                             v.seed(), v.started(), games, AutoResetValue(v.auto_reset())));
      });
  BuildInNew(m.attr("VectorGame"));

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
      const py::object text = texts[i];
      if (!py::isinstance<py::str>(text))
        throw py::type_error("state text must be a str, not " + TypeName(text));
      v.SetGameText(i, Utf8(text));  // std::invalid_argument (ValueError) for another game
    }
    v.SetStarted(count);
    return self;
  }, py::arg("n"), py::arg("players"), py::arg("variant"), py::arg("seed"), py::arg("started"),
     py::arg("games"), py::arg("auto_reset") = false);
}

}  // namespace bind
}  // namespace azul

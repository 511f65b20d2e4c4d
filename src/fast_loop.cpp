// The Python-driven loop's calls (is_over, legal_actions, apply) as plain CPython methods of
// GameState and PavilionState, written once on the rules traits.  No rules here.
#include <string>
#include <vector>

#include "bindings.h"

namespace azul {
namespace bind {

namespace {

// A loop of `while not s.is_over: s.apply(pick(s.legal_actions()))` spends more time in
// pybind11's dispatcher (argument loaders, overload records, casters) than in the engine, so
// is_over, legal_actions and apply are replaced by CPython methods after the classes are bound.
// Each serves the common case itself (an instance of exactly GameState or PavilionState, apply
// of an exact int in range and legal) and hands everything else, unchanged, to the pybind11
// definition it replaced: every error and message stays that one implementation's.

// The action ids as Python ints, made once (CPython caches only 0-256).
PyObject* g_action_ints[PavilionRules::kNumActions > ClassicRules::kNumActions
                            ? PavilionRules::kNumActions
                            : ClassicRules::kNumActions];
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

template <typename R>
bool IsOver(const Game<R>& g) { return R::IsOver(g.state()); }
template <typename R>
int Legal(const Game<R>& g, int16_t* out) { return R::LegalActions(g.state(), out); }
template <typename R>
void Check(const Game<R>& g, int action) { R::CheckLegal(g.state(), action); }
template <typename R>
void Play(Game<R>& g, int action) { g.ApplyLegal(action); }
template <typename R>
constexpr int NumActionsOf(const Game<R>*) { return R::kNumActions; }

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

}  // namespace

void InstallFastLoops(py::module_& m) {
  for (int a = 0; a < kCachedInts; ++a)
    g_action_ints[a] = PyLong_FromLong(a);  // kept for the life of the interpreter
  InstallFastLoop<ClassicGame>(m.attr("GameState"));
  InstallFastLoop<PavilionGame>(m.attr("PavilionState"));
}

}  // namespace bind
}  // namespace azul

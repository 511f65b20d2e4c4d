// pybind11 binding of the searches (native/src/common/search.cpp, native/src/common/guided.cpp):
// search(state, *, ...) for a state of either rules, with an evaluator the guided search, and
// search_many(states, *, evaluator, ...).  The arguments are checked by the pure engine's check_search
// and check_search_many, an evaluator's output by its check_evaluation, and the result is its
// SearchResult (azul_engine._pure.search), so that both engines refuse bad arguments and bad outputs
// with the same words and return the same class.  The searches run without the GIL; a Python
// evaluator takes it for its call only.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "azul/common/exact.h"
#include "azul/common/guided.h"
#include "azul/common/search.h"
#include "bindings.h"

namespace azul {
namespace bind {

namespace {

// A SearchResult of the rows and principal variation of `out` (and, for the guided search, the
// root's priors and value).
template <typename R>
py::object MakeResult(const typename R::State& root, const SearchOutcome& out, int threads, const py::module_& pure,
                      const GuidedOutcome* guided) {
  py::list actions, moves, visits, values, pv, pv_moves, priors;
  for (const SearchRow& row : out.rows) {
    actions.append(row.action);
    moves.append(R::ActionToString(root, row.action));
    visits.append(row.visits);
    values.append(row.total / static_cast<double>(row.visits));
  }
  for (size_t i = 0; i < out.pv.size(); ++i) {
    pv.append(out.pv[i]);
    pv_moves.append(out.pv_moves[i]);
  }
  py::object root_value = py::none();
  if (guided) {
    for (float p : guided->priors) priors.append(static_cast<double>(p));
    root_value = py::float_(static_cast<double>(guided->root_value));
  }
  return pure.attr("SearchResult")(
      py::arg("action") = out.rows.front().action, py::arg("move") = moves[0],
      py::arg("player") = out.player, py::arg("actions") = py::tuple(actions),
      py::arg("moves") = py::tuple(moves), py::arg("visits") = py::tuple(visits),
      py::arg("values") = py::tuple(values), py::arg("iterations") = out.iterations,
      py::arg("nodes") = out.nodes, py::arg("full") = out.full, py::arg("pv") = py::tuple(pv),
      py::arg("pv_moves") = py::tuple(pv_moves), py::arg("threads") = threads,
      py::arg("next_seed") = out.next_seed, py::arg("seconds") = out.seconds, py::arg("priors") = py::tuple(priors),
      py::arg("root_value") = root_value);
}

template <typename R>
py::object RunSearch(const typename R::State& state, const SearchOptions& o, const py::module_& pure) {
  const typename R::State root = state;  // the search's own: the GIL is released while it runs
  SearchOutcome out;
  RunInterruptible([&](StopCheck stop) -> uint64_t {
    out = Search<R>(root, o, stop);
    return 0;
  });
  return MakeResult<R>(root, out, o.threads, pure, nullptr);
}

// The evaluator of a guided search: the built-in network of this engine, else the Python callable,
// called with fresh arrays and its output checked by check_evaluation (holding the GIL for that only).
// A Python error in it is restored and the search stops with Interrupted, which RunInterruptible turns
// back into that error.
Evaluator MakeEvaluator(const py::object& evaluator, int inputs, int actions, int players, const char* where) {
  Evaluator e;
  if (py::isinstance<NetworkPy>(evaluator)) {
    e.network = evaluator.cast<const NetworkPy&>().net.get();
    return e;
  }
  const py::object check = py::module_::import("azul_engine._pure.guided").attr("check_evaluation");
  const std::string place = where;
  e.call = [evaluator, check, inputs, actions, players, place](int rows, const float* observations,
                                                                const uint8_t* masks, float* logits, float* values) {
    py::gil_scoped_acquire gil;
    try {
      py::array_t<float> obs({rows, inputs});
      std::memcpy(obs.mutable_data(), observations, sizeof(float) * rows * inputs);
      py::array_t<bool> mask({rows, actions});
      std::memcpy(mask.mutable_data(), masks, static_cast<size_t>(rows) * actions);
      const py::tuple out = check(evaluator(obs, mask), mask, players, place);
      const auto l = out[0].cast<py::array_t<float, py::array::c_style>>();
      const auto v = out[1].cast<py::array_t<float, py::array::c_style>>();
      std::memcpy(logits, l.data(), sizeof(float) * rows * actions);
      std::memcpy(values, v.data(), sizeof(float) * rows * players);
    } catch (py::error_already_set& err) {
      err.restore();
      throw Interrupted();
    }
  };
  return e;
}

template <typename R>
std::vector<GuidedOutcome> RunGuided(const std::vector<typename R::State>& roots, const std::vector<uint64_t>& seeds,
                                     const GuidedOptions& o, const py::object& evaluator, const char* where) {
  const int players = R::Players(roots[0]);
  const Evaluator e = MakeEvaluator(evaluator, R::ObservationSize(players), R::kNumActions, players, where);
  std::vector<GuidedOutcome> out;
  RunInterruptible([&](StopCheck stop) -> uint64_t {
    out = GuidedSearch<R>(roots, seeds, o, e, stop);
    return 0;
  });
  return out;
}

template <typename R>
py::object GuidedOne(const typename R::State& state, uint64_t seed, const GuidedOptions& o,
                     const py::object& evaluator, const py::module_& pure) {
  const std::vector<typename R::State> roots{state};  // the search's own: the GIL is released while it runs
  const std::vector<GuidedOutcome> out = RunGuided<R>(roots, {seed}, o, evaluator, "search");
  return MakeResult<R>(roots[0], out[0].search, o.trees, pure, &out[0]);
}

template <typename R, typename Game>
py::list GuidedMany(const py::list& states, const std::vector<uint64_t>& seeds, const GuidedOptions& o,
                    const py::object& evaluator, const py::module_& pure) {
  std::vector<typename R::State> roots;
  roots.reserve(states.size());
  for (const py::handle& s : states) roots.push_back(s.cast<const Game&>().state());
  const std::vector<GuidedOutcome> out = RunGuided<R>(roots, seeds, o, evaluator, "search_many");
  py::list results;
  for (size_t i = 0; i < out.size(); ++i) results.append(MakeResult<R>(roots[i], out[i].search, 1, pure, &out[i]));
  return results;
}

// solve_round's RoundSolution (the pure engine's class) from what the solver found; past the node cap, the pure
// engine's error with its words.
template <typename R>
py::object SolveRoundPy(const typename R::State& state, int64_t max_nodes, const py::module_& pure) {
  const typename R::State root = state;  // the solver's own: the GIL is released while it runs
  RoundOutcome out;
  bool capped = false;
  RunInterruptible([&](StopCheck stop) -> uint64_t {
    try {
      out = SolveRound<R>(root, max_nodes, stop);
    } catch (const NodeCap&) {
      capped = true;
    }
    return 0;
  });
  if (capped) {
    const py::object error = pure.attr("node_cap_error")(max_nodes);
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
    throw py::error_already_set();
  }
  const int players = R::Players(root);
  py::list actions, moves, values, gains, pv, pv_moves;
  for (const RoundRow& row : out.rows) {
    actions.append(row.action);
    moves.append(R::ActionToString(root, row.action));
    values.append(row.value);
    py::list g;
    for (int p = 0; p < players; ++p) g.append(row.gains[p]);
    gains.append(py::tuple(g));
  }
  for (size_t i = 0; i < out.pv.size(); ++i) {
    pv.append(out.pv[i]);
    pv_moves.append(out.pv_moves[i]);
  }
  return pure.attr("RoundSolution")(
      py::arg("action") = out.rows.front().action, py::arg("move") = moves[0], py::arg("player") = out.player,
      py::arg("actions") = py::tuple(actions), py::arg("moves") = py::tuple(moves),
      py::arg("values") = py::tuple(values), py::arg("gains") = py::tuple(gains), py::arg("pv") = py::tuple(pv),
      py::arg("pv_moves") = py::tuple(pv_moves), py::arg("end") = out.end, py::arg("nodes") = out.nodes,
      py::arg("seconds") = out.seconds);
}

GuidedOptions ToGuided(const py::tuple& a, int64_t iterations, const py::object& seconds, int threads, double margin,
                       int64_t max_nodes) {
  GuidedOptions g;
  g.iterations = iterations;
  g.seconds = seconds.is_none() ? 0.0 : seconds.cast<double>();
  g.threads = threads;
  g.margin = margin;
  g.max_nodes = max_nodes;
  g.batch = a[0].cast<int>();
  g.c_puct = a[1].cast<double>();
  g.fpu = a[2].cast<double>();
  g.noise_alpha = a[3].cast<double>();
  g.noise_fraction = a[4].cast<double>();
  return g;
}

}  // namespace

void BindSearch(py::module_& m) {
  m.attr("SearchResult") = py::module_::import("azul_engine._pure.search").attr("SearchResult");
  m.def("search", [m](const py::object& state, const py::object& iterations, const py::object& seconds,
                      const py::object& threads, const py::object& seed, const py::object& c,
                      const py::object& margin, const py::object& rollouts, const py::object& policy,
                      const py::object& candidates, const py::object& inner_candidates,
                      const py::object& widen, const py::object& max_nodes, const py::object& exact,
                      const py::object& evaluator, const py::object& batch, const py::object& c_puct,
                      const py::object& fpu, const py::object& noise_alpha, const py::object& noise_fraction) {
    const py::module_ pure = py::module_::import("azul_engine._pure.search");
    const py::tuple types = py::make_tuple(m.attr("GameState"), m.attr("PavilionState"));
    const py::tuple a = pure.attr("check_search")(state, types, iterations, seconds, threads, seed, c,
                                                  margin, rollouts, policy, candidates, inner_candidates,
                                                  widen, max_nodes, evaluator, batch, c_puct, fpu, noise_alpha,
                                                  noise_fraction, exact);
    // The copy that was checked, taken (with the GIL) before the check: another Python thread may move `state`
    // while the check runs Python code.  Nobody else holds the copy.
    const py::object copy = a[18];
    const bool classic = py::isinstance<ClassicGame>(copy);
    if (a[12].cast<bool>()) {
      GuidedOptions g = ToGuided(py::make_tuple(a[13], a[14], a[15], a[16], a[17]), a[0].cast<int64_t>(), a[1],
                                 a[2].cast<int>(), a[5].cast<double>(), a[11].cast<int64_t>());
      g.trees = g.threads;
      g.exact = a[19].cast<int>();
      const uint64_t s = a[3].cast<uint64_t>();
      if (classic) return GuidedOne<ClassicRules>(copy.cast<const ClassicGame&>().state(), s, g, evaluator, pure);
      return GuidedOne<PavilionRules>(copy.cast<const PavilionGame&>().state(), s, g, evaluator, pure);
    }
    SearchOptions o;
    o.iterations = a[0].cast<int64_t>();
    o.seconds = a[1].is_none() ? 0.0 : a[1].cast<double>();
    o.threads = a[2].cast<int>();
    o.seed = a[3].cast<uint64_t>();
    o.c = a[4].cast<double>();
    o.margin = a[5].cast<double>();
    o.rollouts = a[6].cast<int>();
    o.policy = a[7].cast<bool>() ? Policy::kLight : Policy::kUniform;
    o.candidates = a[8].cast<int>();
    o.inner_candidates = a[9].cast<int>();
    o.widen = a[10].cast<int64_t>();
    o.max_nodes = a[11].cast<int64_t>();
    o.exact = a[19].cast<int>();
    if (classic) return RunSearch<ClassicRules>(copy.cast<const ClassicGame&>().state(), o, pure);
    return RunSearch<PavilionRules>(copy.cast<const PavilionGame&>().state(), o, pure);
  },
        py::arg("state"), py::kw_only(), py::arg("iterations") = 1000, py::arg("seconds") = py::none(),
        py::arg("threads") = 1, py::arg("seed") = 0, py::arg("c") = 0.7, py::arg("margin") = 0.4,
        py::arg("rollouts") = 4, py::arg("policy") = "light", py::arg("candidates") = 5,
        py::arg("inner_candidates") = 5, py::arg("widen") = 1000, py::arg("max_nodes") = kDefaultMaxNodes,
        py::arg("exact") = kDefaultExact, py::arg("evaluator") = py::none(), py::arg("batch") = 8,
        py::arg("c_puct") = 1.25, py::arg("fpu") = 0.25,
        py::arg("noise_alpha") = 0.0, py::arg("noise_fraction") = 0.25,
        "Monte Carlo tree search from `state` for the player to move: a SearchResult (docs/search.md); with an "
        "evaluator, the guided search (sections 10-15).");
  m.def("search_many", [m](const py::object& states, const py::object& evaluator, const py::object& iterations,
                           const py::object& seconds, const py::object& threads, const py::object& seed,
                           const py::object& margin, const py::object& max_nodes, const py::object& exact,
                           const py::object& batch, const py::object& c_puct, const py::object& fpu,
                           const py::object& noise_alpha, const py::object& noise_fraction) {
    const py::module_ pure = py::module_::import("azul_engine._pure.search");
    const py::tuple types = py::make_tuple(m.attr("GameState"), m.attr("PavilionState"));
    const py::tuple a = pure.attr("check_search_many")(states, types, evaluator, iterations, seconds, threads, seed,
                                                       margin, max_nodes, batch, c_puct, fpu, noise_alpha,
                                                       noise_fraction, exact);
    const py::list list = a[0].cast<py::list>();  // the states' copies, taken before each was checked
    const std::vector<uint64_t> seeds = a[1].cast<std::vector<uint64_t>>();
    GuidedOptions g = ToGuided(py::make_tuple(a[7], a[8], a[9], a[10], a[11]), a[2].cast<int64_t>(), a[3],
                               a[4].cast<int>(), a[5].cast<double>(), a[6].cast<int64_t>());
    g.trees = 1;
    g.exact = a[12].cast<int>();
    if (py::isinstance<ClassicGame>(list[0])) return GuidedMany<ClassicRules, ClassicGame>(list, seeds, g, evaluator, pure);
    return GuidedMany<PavilionRules, PavilionGame>(list, seeds, g, evaluator, pure);
  },
        py::arg("states"), py::kw_only(), py::arg("evaluator"), py::arg("iterations") = 1000,
        py::arg("seconds") = py::none(), py::arg("threads") = 1, py::arg("seed") = 0, py::arg("margin") = 0.4,
        py::arg("max_nodes") = kDefaultMaxNodes, py::arg("exact") = kDefaultExact, py::arg("batch") = 1,
        py::arg("c_puct") = 1.25, py::arg("fpu") = 0.25, py::arg("noise_alpha") = 0.0,
        py::arg("noise_fraction") = 0.25,
        "The guided search from every state at once (docs/search.md section 14): a list of SearchResult.");
  m.attr("RoundSolution") = py::module_::import("azul_engine._pure.search").attr("RoundSolution");
  m.def("solve_round", [m](const py::object& state, const py::object& max_nodes) {
    const py::module_ pure = py::module_::import("azul_engine._pure.search");
    const py::tuple types = py::make_tuple(m.attr("GameState"), m.attr("PavilionState"));
    const py::tuple a = pure.attr("check_solve_round")(state, types, max_nodes);
    const py::object copy = a[0];  // the copy that was checked, taken before the check (as search's)
    const int64_t cap = a[1].cast<int64_t>();
    if (py::isinstance<ClassicGame>(copy))
      return SolveRoundPy<ClassicRules>(copy.cast<const ClassicGame&>().state(), cap, pure);
    return SolveRoundPy<PavilionRules>(copy.cast<const PavilionGame&>().state(), cap, pure);
  },
        py::arg("state"), py::kw_only(), py::arg("max_nodes") = kDefaultSolveNodes,
        "The best moves from `state` to the end of its round, found exactly (docs/search.md section 16): a "
        "RoundSolution.");
}

}  // namespace bind
}  // namespace azul

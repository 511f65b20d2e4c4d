// pybind11 binding of the search (native/src/common/search.cpp): search(state, *, ...) for a
// state of either rules.  The arguments are checked by the pure engine's check_search and the
// result is its SearchResult (azul_engine._pure.search), so that both engines refuse bad
// arguments with the same words and return the same class.  The search runs without the GIL.
#include <cstdint>
#include <string>

#include "azul/common/search.h"
#include "bindings.h"

namespace azul {
namespace bind {

namespace {

template <typename R>
py::object RunSearch(const typename R::State& state, const SearchOptions& o, const py::module_& pure) {
  const typename R::State root = state;  // a copy: another Python thread may move the game meanwhile
  SearchOutcome out;
  RunInterruptible([&](StopCheck stop) -> uint64_t {
    out = Search<R>(root, o, stop);
    return 0;
  });
  py::list actions, moves, visits, values, pv, pv_moves;
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
  return pure.attr("SearchResult")(
      py::arg("action") = out.rows.front().action, py::arg("move") = moves[0],
      py::arg("player") = out.player, py::arg("actions") = py::tuple(actions),
      py::arg("moves") = py::tuple(moves), py::arg("visits") = py::tuple(visits),
      py::arg("values") = py::tuple(values), py::arg("iterations") = out.iterations,
      py::arg("nodes") = out.nodes, py::arg("full") = out.full, py::arg("pv") = py::tuple(pv),
      py::arg("pv_moves") = py::tuple(pv_moves), py::arg("threads") = o.threads,
      py::arg("next_seed") = out.next_seed, py::arg("seconds") = out.seconds);
}

}  // namespace

void BindSearch(py::module_& m) {
  m.attr("SearchResult") = py::module_::import("azul_engine._pure.search").attr("SearchResult");
  m.def("search", [m](const py::object& state, const py::object& iterations, const py::object& seconds,
                      const py::object& threads, const py::object& seed, const py::object& c,
                      const py::object& margin, const py::object& rollouts, const py::object& policy,
                      const py::object& candidates, const py::object& inner_candidates,
                      const py::object& widen, const py::object& max_nodes) {
    const py::module_ pure = py::module_::import("azul_engine._pure.search");
    const py::tuple types = py::make_tuple(m.attr("GameState"), m.attr("PavilionState"));
    const py::tuple a = pure.attr("check_search")(state, types, iterations, seconds, threads, seed, c,
                                                  margin, rollouts, policy, candidates, inner_candidates,
                                                  widen, max_nodes);
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
    if (py::isinstance<ClassicGame>(state)) return RunSearch<ClassicRules>(state.cast<const ClassicGame&>().state(), o, pure);
    return RunSearch<PavilionRules>(state.cast<const PavilionGame&>().state(), o, pure);
  },
        py::arg("state"), py::kw_only(), py::arg("iterations") = 1000, py::arg("seconds") = py::none(),
        py::arg("threads") = 1, py::arg("seed") = 0, py::arg("c") = 0.7, py::arg("margin") = 0.4,
        py::arg("rollouts") = 4, py::arg("policy") = "light", py::arg("candidates") = 5,
        py::arg("inner_candidates") = 5, py::arg("widen") = 1000, py::arg("max_nodes") = kDefaultMaxNodes,
        "Monte Carlo tree search from `state` for the player to move: a SearchResult (docs/search.md).");
}

}  // namespace bind
}  // namespace azul

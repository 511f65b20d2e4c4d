// pybind11 binding of the built-in network (native/src/common/network.cpp): Network and
// load_network.  The weights file is read and checked by the pure engine's read_network
// (azul_engine._pure.network), so that both engines refuse a bad file with the same words; this file
// converts the checked arrays and forwards.  A call on a batch runs without the GIL.
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "azul/common/network.h"
#include "bindings.h"

namespace azul {
namespace bind {

namespace {

constexpr const char* kNetworkHint = "cannot create 'Network' instances: use load_network(path) or Network.from_arrays(...)";

py::module_ PureNetwork() { return py::module_::import("azul_engine._pure.network"); }

// A (weight (out, in), bias) pair of checked float32 arrays as a layer (weights transposed).
Network::Layer ToLayer(const py::handle& pair) {
  const auto w = pair.cast<py::tuple>()[0].cast<py::array_t<float, kReadable>>();
  const auto b = pair.cast<py::tuple>()[1].cast<py::array_t<float, kReadable>>();
  Network::Layer l;
  l.out = static_cast<int>(w.shape(0));
  l.in = static_cast<int>(w.shape(1));
  l.weight_t.resize(static_cast<size_t>(l.in) * l.out);
  const float* src = w.data();
  for (int o = 0; o < l.out; ++o)
    for (int i = 0; i < l.in; ++i) l.weight_t[static_cast<size_t>(i) * l.out + o] = src[static_cast<size_t>(o) * l.in + i];
  l.bias.assign(b.data(), b.data() + l.out);
  return l;
}

// A layer back as (weight (out, in), bias) arrays.
py::tuple FromLayer(const Network::Layer& l) {
  py::array_t<float> w({l.out, l.in});
  float* dst = w.mutable_data();
  for (int o = 0; o < l.out; ++o)
    for (int i = 0; i < l.in; ++i) dst[static_cast<size_t>(o) * l.in + i] = l.weight_t[static_cast<size_t>(i) * l.out + o];
  py::array_t<float> b(l.out);
  std::memcpy(b.mutable_data(), l.bias.data(), sizeof(float) * l.out);
  return py::make_tuple(w, b);
}

// The checked parts (variant, players, trunk, policy, value, meta) as a NetworkPy.
std::shared_ptr<NetworkPy> Make(const py::tuple& parts, py::object path) {
  const std::string variant = parts[0].cast<std::string>();
  std::vector<Network::Layer> trunk;
  for (const py::handle& pair : parts[2].cast<py::list>()) trunk.push_back(ToLayer(pair));
  auto out = std::make_shared<NetworkPy>();
  out->net = std::make_shared<Network>(static_cast<Variant>(VariantIndex(variant)), parts[1].cast<int>(),
                                       std::move(trunk), ToLayer(parts[3]), ToLayer(parts[4]));
  out->meta = py::dict(parts[5]);
  out->path = std::move(path);
  return out;
}

}  // namespace

std::shared_ptr<NetworkPy> NetworkFromArrays(const py::object& variant, const py::object& players, const py::object& trunk,
                                             const py::object& policy, const py::object& value, const py::object& meta,
                                             const py::object& path) {
  const py::tuple parts =
      PureNetwork().attr("check_network_arrays")(variant, players, trunk, policy, value, meta, "Network");
  return Make(parts, path);
}

void BindNetwork(py::module_& m) {
  py::class_<NetworkPy, std::shared_ptr<NetworkPy>>(m, "Network",
      "A built-in network (docs/network.md) of this engine: variant, players, layers, num_actions, meta; "
      "calling it on a batch of observations gives (logits, values).  Read one with load_network(path).")
      .def(py::init([](const py::args&, const py::kwargs&) -> std::shared_ptr<NetworkPy> {
        throw py::type_error(kNetworkHint);
      }))
      .def_static("from_arrays",
                  [](const py::object& variant, const py::object& players, const py::object& trunk,
                     const py::object& policy, const py::object& value, const py::object& meta) {
                    return NetworkFromArrays(variant, players, trunk, policy, value, meta, py::none());
                  },
                  py::arg("variant"), py::arg("players"), py::arg("trunk"), py::arg("policy"), py::arg("value"),
                  py::arg("meta") = py::none(),
                  "A network from its parts: trunk a list of (weight, bias) (weights (out, in), as PyTorch's "
                  "nn.Linear), policy and value pairs of the heads; meta a dict.")
      .def_property_readonly("variant", [](const NetworkPy& n) { return kVariantNames[n.net->variant()]; })
      .def_property_readonly("players", [](const NetworkPy& n) { return n.net->players(); })
      .def_property_readonly("num_actions", [](const NetworkPy& n) { return n.net->num_actions(); })
      .def_property_readonly("layers", [](const NetworkPy& n) {
        py::list sizes;
        sizes.append(n.net->inputs());
        for (const Network::Layer& l : n.net->trunk()) sizes.append(l.out);
        return py::tuple(sizes);
      })
      .def_property_readonly("meta", [](const NetworkPy& n) { return n.meta; })
      .def_property_readonly("path", [](const NetworkPy& n) { return n.path; })
      .def("forward", [](const NetworkPy& n, const py::object& observations) {
        return CallNetwork(n, observations, py::none(), "Network");
      }, py::arg("observations"))
      .def("__call__", [](const NetworkPy& n, const py::object& observations, const py::object& masks) {
        return CallNetwork(n, observations, masks, "Network");
      }, py::arg("observations"), py::arg("masks") = py::none())
      .def("evaluate", [](const NetworkPy& n, const py::object& observations, const py::object& masks) {
        return CallNetwork(n, observations, masks, "Network");
      }, py::arg("observations"), py::arg("masks") = py::none())
      .def("_forward_seconds", [](const NetworkPy& n, const py::object& observations, int repeats) {
        // For the benchmarks: the seconds `repeats` forward passes of the batch take, without Python between them.
        const Network& net = *n.net;
        const py::object checked =
            PureNetwork().attr("check_inputs")(observations, py::none(), net.inputs(), net.num_actions(), "Network");
        const auto obs = checked.cast<py::array_t<float, kReadable>>();
        const int rows = static_cast<int>(obs.shape(0));
        std::vector<float> logits(static_cast<size_t>(rows) * net.num_actions()), values(static_cast<size_t>(rows) * net.players());
        const float* in = obs.data();
        py::gil_scoped_release release;
        Network::Scratch scratch;
        net.Reserve(scratch, rows);
        const auto start = std::chrono::steady_clock::now();
        for (int r = 0; r < repeats; ++r) net.Forward(in, rows, logits.data(), values.data(), scratch);
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      }, py::arg("observations"), py::arg("repeats"))
      .def("__repr__", [](const NetworkPy& n) {
        std::string sizes = std::to_string(n.net->inputs());
        for (const Network::Layer& l : n.net->trunk()) sizes += "x" + std::to_string(l.out);
        return "Network(variant='" + std::string(kVariantNames[n.net->variant()]) + "', players=" +
               std::to_string(n.net->players()) + ", layers=" + sizes + ", num_actions=" +
               std::to_string(n.net->num_actions()) + ")";
      })
      .def("__reduce__", [m](const NetworkPy& n) {
        py::list trunk;
        for (const Network::Layer& l : n.net->trunk()) trunk.append(FromLayer(l));
        return py::make_tuple(m.attr("_network_from_state"),
                              py::make_tuple(kVariantNames[n.net->variant()], n.net->players(), trunk,
                                             FromLayer(n.net->policy()), FromLayer(n.net->value()), n.meta, n.path));
      });
  RefuseNew(m.attr("Network"), kNetworkHint);
  m.def("_network_from_state", [](const py::object& variant, const py::object& players, const py::object& trunk,
                                  const py::object& policy, const py::object& value, const py::object& meta,
                                  const py::object& path) {
    return NetworkFromArrays(variant, players, trunk, policy, value, meta, path);
  });
  m.def("load_network", [](const py::object& path) {
    const py::tuple parts = PureNetwork().attr("read_network")(path);
    return Make(parts, py::module_::import("os").attr("fspath")(path));
  }, py::arg("path"),
        "The network in the weights file at `path` (docs/network.md): a Network of this engine.  Errors name "
        "the file and what is wrong with it.");
}

py::tuple CallNetwork(const NetworkPy& n, const py::object& observations, const py::object& masks, const char* where) {
  const Network& net = *n.net;
  const py::object checked =
      PureNetwork().attr("check_inputs")(observations, masks, net.inputs(), net.num_actions(), where);
  const auto obs = checked.cast<py::array_t<float, kReadable>>();
  const int rows = static_cast<int>(obs.shape(0));
  py::array_t<float> logits({rows, net.num_actions()});
  py::array_t<float> values({rows, net.players()});
  const float* in = obs.data();
  float* l = logits.mutable_data();
  float* v = values.mutable_data();
  {
    py::gil_scoped_release release;
    Network::Scratch scratch;
    net.Reserve(scratch, rows);
    net.Forward(in, rows, l, v, scratch);
  }
  return py::make_tuple(logits, values);
}

}  // namespace bind
}  // namespace azul

// The playout kernels against the rules, without Python: the bench checksums pinned in
// tests/test_playouts.py (the rules' signature) and the light policy's (bench.LIGHT_SIGNATURES),
// kernel games equal to games played move by move on the full State, results independent of the
// thread count.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "azul/common/rng.h"
#include "azul/variant.h"
#include "check.h"

using namespace azul;

namespace {

// bench.checksum: FNV-1a over the final scores of random_playouts(games, players, variant,
// seed=0), game by game and seat by seat, as 16 hex digits.
std::string Checksum(const std::vector<int32_t>& scores) {
  uint64_t h = 0xCBF29CE484222325ULL;
  for (int32_t v : scores) h = (h ^ static_cast<uint64_t>(static_cast<int64_t>(v))) * 0x100000001B3ULL;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

std::vector<int32_t> Playouts(Variant variant, int players, int games, uint64_t seed, int threads,
                              Policy policy = Policy::kUniform) {
  std::vector<int32_t> out(static_cast<size_t>(games) * players);
  WithRules(variant, [&](auto r) {
    return decltype(r)::RandomPlayouts(games, players, variant, seed, threads, out.data(), {},
                                       policy);
  });
  return out;
}

// Game i of a batch played move by move on the full State: LegalActions(s)[Below(policy, n)].
template <typename R>
std::vector<int32_t> ByHand(const typename R::State& start, int players, bool reseed,
                            Variant variant, int games, uint64_t seed) {
  std::vector<int32_t> out;
  for (int i = 0; i < games; ++i) {
    const uint64_t game_seed = SplitMixOutput(seed, 2 * static_cast<uint64_t>(i) + 1);
    uint64_t policy = SplitMixOutput(seed, 2 * static_cast<uint64_t>(i) + 2);
    typename R::State s = start;
    if (reseed)
      s.rng = game_seed;
    else
      s = R::NewGame(players, variant, game_seed, false, nullptr);
    int16_t legal[R::kNumActions + kLegalScratch];
    while (!R::IsOver(s)) {
      const int n = R::LegalActions(s, legal);
      R::ApplyAction(s, legal[Below(policy, n)], nullptr);
    }
    for (int p = 0; p < players; ++p) out.push_back(R::Score(s, p));
  }
  return out;
}

struct Pinned {
  int players;
  Variant variant;
  const char* checksum;
};
// tests/test_playouts.py PINNED (bench.checksum with games=50).
constexpr Pinned kPinned[] = {
    {2, kClassic, "c3ebcbcd70ec88bf"}, {2, kGrey, "118873e26ef52bed"},
    {4, kClassic, "a38279208ec22c0a"}, {4, kGrey, "ac7eacec4034d02e"},
    {2, kSummerPavilion, "a24062aaf1ea502c"}, {4, kSummerPavilion, "099474972e87ef38"},
};
// bench.LIGHT_SIGNATURES (bench.checksum with policy="light", 200 games): the rules and the
// light policy (docs/playouts.md "Rollout policies").
constexpr Pinned kLightPinned[] = {
    {2, kClassic, "1238b54cd01ba7aa"}, {2, kGrey, "c1e1f9ea2361a11c"},
    {4, kClassic, "e5e31c2d16e8cd7d"}, {4, kGrey, "545625e9a1bce2fe"},
    {2, kSummerPavilion, "5b2ffebc6b15c6d6"}, {4, kSummerPavilion, "1512b13bcf0f3ae8"},
};

}  // namespace

TEST(bench_checksums_are_pinned) {
  for (const Pinned& p : kPinned) CHECK_EQ(Checksum(Playouts(p.variant, p.players, 50, 0, 1)), p.checksum);
}

TEST(light_policy_checksums_are_pinned) {
  for (const Pinned& p : kLightPinned)
    CHECK_EQ(Checksum(Playouts(p.variant, p.players, 200, 0, 1, Policy::kLight)), p.checksum);
}

TEST(light_policy_results_do_not_depend_on_threads) {
  for (const Pinned& p : kLightPinned)
    CHECK(Playouts(p.variant, p.players, 100, 9, 1, Policy::kLight) ==
          Playouts(p.variant, p.players, 100, 9, 2, Policy::kLight));
}

// BelowCountdown (the fills' draws, AVX2 where the CPU has it) gives what successive Below calls
// give, for every bag size a fill can meet; the portable build runs this on the plain loop.
TEST(below_countdown_is_successive_draws) {
  std::printf("  (BelowCountdown %s)\n", BelowCountdownVectorised() ? "vectorised" : "plain");
  uint64_t seed = 12345;
  for (int total = 1; total <= 200; ++total)
    for (int n = 1; n <= 40 && n <= total; ++n) {
      uint64_t out[40];
      const uint64_t s = SplitMixNext(seed);
      BelowCountdown(s, total, out, n);
      uint64_t t = s;
      for (int i = 0; i < n; ++i) CHECK_EQ(out[i], static_cast<uint64_t>(Below(t, total - i)));
    }
}

TEST(results_do_not_depend_on_threads) {
  for (const Pinned& p : kPinned)
    CHECK(Playouts(p.variant, p.players, 100, 9, 1) == Playouts(p.variant, p.players, 100, 9, 2));
}

TEST(classic_kernel_plays_the_full_states_games) {
  for (Variant v : {kClassic, kGrey})
    for (int players : {2, 3, 4}) {
      const State unused{};
      CHECK(Playouts(v, players, 40, 42, 1) == ByHand<ClassicRules>(unused, players, false, v, 40, 42));
    }
}

TEST(pavilion_kernel_plays_the_full_states_games) {
  for (int players : {2, 3, 4}) {
    const sp::State unused{};
    CHECK(Playouts(kSummerPavilion, players, 40, 42, 1) ==
          ByHand<PavilionRules>(unused, players, false, kSummerPavilion, 40, 42));
    std::vector<int32_t> reference(40 * static_cast<size_t>(players));
    sp::ReferenceRandomPlayouts(40, players, 42, 1, reference.data());
    CHECK(Playouts(kSummerPavilion, players, 40, 42, 1) == reference);
  }
}

// playouts_from: continuation i reseeds the game's generator with output 2i+1.
template <typename R>
void CheckPlayoutsFrom(Variant variant) {
  typename R::State s = R::NewGame(3, variant, 5, false, nullptr);
  uint64_t policy = 11;
  int16_t legal[R::kNumActions + kLegalScratch];
  for (int ply = 0; ply < 15 && !R::IsOver(s); ++ply)
    R::ApplyAction(s, legal[Below(policy, R::LegalActions(s, legal))], nullptr);
  std::vector<int32_t> out(30 * 3);
  R::PlayoutsFrom(s, 30, 8, 1, out.data(), {});
  CHECK(out == ByHand<R>(s, 3, true, variant, 30, 8));
}

TEST(playouts_from_continue_the_state) {
  CheckPlayoutsFrom<ClassicRules>(kClassic);
  CheckPlayoutsFrom<ClassicRules>(kGrey);
  CheckPlayoutsFrom<PavilionRules>(kSummerPavilion);
}

CHECK_MAIN()

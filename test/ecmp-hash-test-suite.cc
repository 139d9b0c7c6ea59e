/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/ecmp-hash.h"
#include "ns3/flow-five-tuple.h"
#include "ns3/ib-bth-header.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/mac48-address.h"
#include "ns3/packet.h"
#include "ns3/roce-v2-packet.h"
#include "ns3/test.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of FlowFiveTuple and EcmpHash: the spread of flows over equal-cost paths, the
 * independence of the mappings of two seeds (no polarization across tiers), the spread of the
 * queue pairs of one host pair, and the extraction of the 5-tuple from frames whose bytes are
 * written out by hand.
 *
 * The statistical checks use std::mt19937 with fixed seeds and its raw 32-bit outputs (the
 * standard specifies them exactly, unlike the std:: distributions), so every run and platform
 * sees the same tuples and the tests are deterministic. Their bounds are set so that a correct
 * hash passes them by a wide margin (see WithinFivePercent).
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// The number of equal-cost paths of the statistical checks.
constexpr uint32_t PATHS = 4;
/// The seeds of two switches of consecutive tiers, as a helper numbering switches might give.
constexpr uint32_t SEED_TIER1 = 1;
/// See SEED_TIER1.
constexpr uint32_t SEED_TIER2 = 2;

/**
 * Random RoCEv2-like tuples: addresses in 10.0.0.0/16, a random UDP source port, destination
 * port 4791, protocol UDP.
 * @param count how many tuples.
 * @param rngSeed the seed of the std::mt19937 that draws them.
 * @return the tuples.
 */
std::vector<FlowFiveTuple>
RandomTuples(uint32_t count, uint32_t rngSeed)
{
    std::mt19937 rng(rngSeed);
    std::vector<FlowFiveTuple> tuples;
    tuples.reserve(count);
    for (uint32_t i = 0; i < count; ++i)
    {
        uint32_t source = 0x0A000000u | (rng() & 0xFFFFu);
        uint32_t destination = 0x0A000000u | (rng() & 0xFFFFu);
        auto sourcePort = static_cast<uint16_t>(rng() >> 16);
        tuples.emplace_back(Ipv4Address(source),
                            Ipv4Address(destination),
                            sourcePort,
                            IbBthHeader::ROCEV2_UDP_PORT,
                            FlowFiveTuple::PROTOCOL_UDP);
    }
    return tuples;
}

/// A hash of a tuple and a seed, so that the checks can be run on a deliberately bad hash too.
using HashFunction = uint32_t (*)(const FlowFiveTuple&, uint32_t);

/**
 * A deliberately bad seeded hash: EcmpHash's mapping for seed 0, with the seed xored into the
 * output afterwards. Each seed on its own spreads flows as well as EcmpHash, and changing the
 * seed changes the path of many flows, but all seeds share one mapping up to a fixed
 * permutation of the paths, so it polarizes (see EcmpPolarizationTestCase).
 * @param tuple the tuple.
 * @param seed the seed.
 * @return the hash.
 */
uint32_t
XorSeedHash(const FlowFiveTuple& tuple, uint32_t seed)
{
    // Spread the seed over the high bits too, so that Select sees it (a plain xor of a small seed
    // would only touch low bits that Select ignores, an even more obvious failure).
    return EcmpHash::Hash(tuple, 0) ^ (seed * 0x9E3779B1u);
}

/**
 * Count the tuples per path.
 * @param tuples the tuples.
 * @param hash the hash function.
 * @param seed the seed.
 * @param paths the number of paths.
 * @return the count of each path.
 */
std::vector<uint32_t>
CountPaths(const std::vector<FlowFiveTuple>& tuples,
           HashFunction hash,
           uint32_t seed,
           uint32_t paths)
{
    std::vector<uint32_t> counts(paths, 0);
    for (const FlowFiveTuple& t : tuples)
    {
        ++counts[EcmpHash::Select(hash(t, seed), paths)];
    }
    return counts;
}

/**
 * Whether every path received within +-5 % of its equal share.
 *
 * With N tuples over 4 paths, a path's count is binomial with mean N/4 and standard deviation
 * sqrt(N x 0.25 x 0.75); for N = 10,000 that is 43.3, so the bound +-125 (5 % of 2,500) is
 * +-2.9 standard deviations, which a correct hash exceeds with probability about 0.4 % per path.
 * The checks below therefore always use at least 10,000 tuples per distribution, and fixed seeds
 * make the outcome deterministic.
 *
 * @param counts the count of each path.
 * @param[out] detail the counts and bounds, for a failure message.
 * @return true if every count is within 5 % of the mean.
 */
bool
WithinFivePercent(const std::vector<uint32_t>& counts, std::string& detail)
{
    uint64_t total = 0;
    for (uint32_t c : counts)
    {
        total += c;
    }
    double share = static_cast<double>(total) / counts.size();
    std::ostringstream os;
    os << "counts";
    bool ok = true;
    for (uint32_t c : counts)
    {
        os << " " << c;
        ok = ok && c >= 0.95 * share && c <= 1.05 * share;
    }
    os << " of " << total << ", allowed " << 0.95 * share << " to " << 1.05 * share;
    detail = os.str();
    return ok;
}

/**
 * Among the tuples that the tier-1 hash sends to path 0, count how the tier-2 hash (another
 * seed) spreads them.
 * @param tuples the tuples.
 * @param hash the hash function of both tiers.
 * @return the tier-2 count of each path.
 */
std::vector<uint32_t>
SecondTierCounts(const std::vector<FlowFiveTuple>& tuples, HashFunction hash)
{
    std::vector<uint32_t> counts(PATHS, 0);
    for (const FlowFiveTuple& t : tuples)
    {
        if (EcmpHash::Select(hash(t, SEED_TIER1), PATHS) == 0)
        {
            ++counts[EcmpHash::Select(hash(t, SEED_TIER2), PATHS)];
        }
    }
    return counts;
}

/**
 * @param tuples the tuples.
 * @param hash the hash function.
 * @param seedA a seed.
 * @param seedB another seed.
 * @return the share of tuples whose path (of PATHS) differs between the two seeds.
 */
double
ChangedShare(const std::vector<FlowFiveTuple>& tuples,
             HashFunction hash,
             uint32_t seedA,
             uint32_t seedB)
{
    uint32_t changed = 0;
    for (const FlowFiveTuple& t : tuples)
    {
        if (EcmpHash::Select(hash(t, seedA), PATHS) != EcmpHash::Select(hash(t, seedB), PATHS))
        {
            ++changed;
        }
    }
    return static_cast<double>(changed) / tuples.size();
}

/**
 * @param counts tuples per path.
 * @return the number of paths that carry at least one tuple.
 */
uint32_t
PathsUsed(const std::vector<uint32_t>& counts)
{
    uint32_t used = 0;
    for (uint32_t c : counts)
    {
        used += c > 0 ? 1 : 0;
    }
    return used;
}

/**
 * @param hex the frame's bytes in hexadecimal, as HexToBytes reads them.
 * @param[out] out the tuple read.
 * @param length how many of the bytes to pass; all of them if negative.
 * @return what EcmpHash::ExtractFromFrame returns for those bytes.
 */
bool
Extract(const std::string& hex, FlowFiveTuple& out, int length = -1)
{
    std::vector<uint8_t> bytes = HexToBytes(hex);
    uint32_t n = length < 0 ? static_cast<uint32_t>(bytes.size()) : static_cast<uint32_t>(length);
    NS_ABORT_MSG_IF(n > bytes.size(), "Extract: length beyond the frame");
    return EcmpHash::ExtractFromFrame(bytes.data(), n, out);
}

/// Ethernet II header of the hand-built frames: to 02:00:00:00:00:02 from 02:00:00:00:00:01.
const std::string ETH_MACS = "020000000002 020000000001";
/// IPv4 header, IHL 5, total length 60, DF, TTL 64, UDP, checksum left 0, 10.0.1.1 > 10.0.2.1.
const std::string IPV4_IHL5 = "45 00 003c 1234 4000 40 11 0000 0a000101 0a000201";
/// UDP header from port 49152 (c000) to 4791 (12b7), length 40, checksum 0.
const std::string UDP_C000 = "c000 12b7 0028 0000";
/// The first bytes of a BTH (RDMA WRITE Only, P_Key ffff), as a payload after UDP.
const std::string BTH_START = "0a 00 ffff 00 000011";

/**
 * @return the tuple the hand-built IHL 5 frames carry: 10.0.1.1:49152 > 10.0.2.1:4791 UDP.
 */
FlowFiveTuple
HandBuiltTuple()
{
    return FlowFiveTuple(Ipv4Address("10.0.1.1"),
                         Ipv4Address("10.0.2.1"),
                         49152,
                         4791,
                         FlowFiveTuple::PROTOCOL_UDP);
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * FlowFiveTuple compares field by field, orders strictly and prints readably.
 */
class FlowFiveTupleTestCase : public TestCase
{
  public:
    /** Create the test case. */
    FlowFiveTupleTestCase()
        : TestCase("FlowFiveTuple equality, order and printing")
    {
    }

  private:
    void DoRun() override
    {
        FlowFiveTuple a = HandBuiltTuple();
        FlowFiveTuple b = HandBuiltTuple();
        NS_TEST_ASSERT_MSG_EQ((a == b), true, "equal fields are equal");
        NS_TEST_ASSERT_MSG_EQ((a != b), false, "equal fields are not different");
        NS_TEST_ASSERT_MSG_EQ((a < b || b < a), false, "equal tuples are not ordered");

        FlowFiveTuple zero;
        NS_TEST_ASSERT_MSG_EQ(zero.source.Get(), 0u, "default source");
        NS_TEST_ASSERT_MSG_EQ(zero.destination.Get(), 0u, "default destination");
        NS_TEST_ASSERT_MSG_EQ(zero.sourcePort, 0u, "default source port");
        NS_TEST_ASSERT_MSG_EQ(zero.destinationPort, 0u, "default destination port");
        NS_TEST_ASSERT_MSG_EQ(uint32_t{zero.protocol}, 0u, "default protocol");

        // Each field on its own makes tuples different and ordered one way.
        std::vector<FlowFiveTuple> changed(5, a);
        changed[0].source = Ipv4Address("10.0.1.2");
        changed[1].destination = Ipv4Address("10.0.2.2");
        changed[2].sourcePort = 49153;
        changed[3].destinationPort = 4792;
        changed[4].protocol = FlowFiveTuple::PROTOCOL_TCP;
        for (size_t i = 0; i < changed.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ((changed[i] == a), false, "field " << i << " differs");
            NS_TEST_ASSERT_MSG_EQ((changed[i] != a), true, "field " << i << " differs");
            NS_TEST_ASSERT_MSG_EQ(((changed[i] < a) != (a < changed[i])),
                                  true,
                                  "field " << i << ": exactly one order");
        }

        std::ostringstream os;
        os << a;
        NS_TEST_ASSERT_MSG_EQ(os.str(), "10.0.1.1:49152 > 10.0.2.1:4791 proto 17", "printing");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Select maps the hash range onto n paths in n nearly equal contiguous intervals, using the high
 * bits of the hash.
 */
class EcmpSelectTestCase : public TestCase
{
  public:
    /** Create the test case. */
    EcmpSelectTestCase()
        : TestCase("Select splits the hash range into n equal intervals")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(EcmpHash::Select(0xFFFFFFFFu, 1), 0u, "one path");
        NS_TEST_ASSERT_MSG_EQ(EcmpHash::Select(0, 4), 0u, "lowest hash, first path");
        NS_TEST_ASSERT_MSG_EQ(EcmpHash::Select(0xFFFFFFFFu, 4), 3u, "highest hash, last path");
        // 4 paths: quarters of 2^32, boundaries at 0x40000000, 0x80000000, 0xC0000000.
        NS_TEST_ASSERT_MSG_EQ(EcmpHash::Select(0x3FFFFFFFu, 4), 0u, "end of the first quarter");
        NS_TEST_ASSERT_MSG_EQ(EcmpHash::Select(0x40000000u, 4), 1u, "start of the second");
        NS_TEST_ASSERT_MSG_EQ(EcmpHash::Select(0xBFFFFFFFu, 4), 2u, "end of the third");
        NS_TEST_ASSERT_MSG_EQ(EcmpHash::Select(0xC0000000u, 4), 3u, "start of the fourth");
        // 3 paths: path 1 starts at ceil(2^32 / 3) = 1,431,655,766 = 0x55555556, since
        // 0x55555555 x 3 = 0xFFFFFFFF < 2^32 and 0x55555556 x 3 = 0x100000002.
        NS_TEST_ASSERT_MSG_EQ(EcmpHash::Select(0x55555555u, 3), 0u, "3 paths, end of path 0");
        NS_TEST_ASSERT_MSG_EQ(EcmpHash::Select(0x55555556u, 3), 1u, "3 paths, start of path 1");
        // Low bits do not matter: the modulo of a hash would pick path 1 for 0x00000001.
        NS_TEST_ASSERT_MSG_EQ(EcmpHash::Select(0x00000001u, 4), 0u, "low bits are not used");
        // Odd path counts up to a large fan-out stay in range at the top of the hash range.
        for (uint32_t n : {3u, 5u, 7u, 48u, 1000u})
        {
            NS_TEST_ASSERT_MSG_EQ(EcmpHash::Select(0xFFFFFFFFu, n), n - 1, "last path of " << n);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * 10,000 random tuples over 4 equal-cost paths: every path gets within 5 % of a quarter, and the
 * hash is a function of the tuple's fields only.
 */
class EcmpUniformTestCase : public TestCase
{
  public:
    /** Create the test case. */
    EcmpUniformTestCase()
        : TestCase("10,000 random tuples spread within 5 % of uniform over 4 paths")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<FlowFiveTuple> tuples = RandomTuples(10000, 12345);
        std::string detail;
        // Mean 2,500, standard deviation 43.3, allowed 2,375 to 2,625 (see WithinFivePercent).
        for (uint32_t seed : {0u, SEED_TIER1, SEED_TIER2, 0xDEADBEEFu})
        {
            std::vector<uint32_t> counts = CountPaths(tuples, &EcmpHash::Hash, seed, PATHS);
            NS_TEST_ASSERT_MSG_EQ(WithinFivePercent(counts, detail),
                                  true,
                                  "seed " << seed << ": " << detail);
        }
        // Same test over 3 paths (not a power of two): mean 3,333.3, within 5 % is 3,166.7 to
        // 3,500; the standard deviation is sqrt(10000 x 1/3 x 2/3) = 47.1, so that is 3.5 sd.
        std::vector<uint32_t> counts3 = CountPaths(tuples, &EcmpHash::Hash, SEED_TIER1, 3);
        NS_TEST_ASSERT_MSG_EQ(WithinFivePercent(counts3, detail), true, "3 paths: " << detail);

        // The same tuple, whether the same object, a copy or rebuilt from its fields, always
        // takes the same path.
        for (const FlowFiveTuple& t : tuples)
        {
            FlowFiveTuple rebuilt(Ipv4Address(t.source.Get()),
                                  Ipv4Address(t.destination.Get()),
                                  t.sourcePort,
                                  t.destinationPort,
                                  t.protocol);
            uint32_t h = EcmpHash::Hash(t, SEED_TIER1);
            NS_TEST_ASSERT_MSG_EQ(EcmpHash::Hash(t, SEED_TIER1), h, "same tuple, same hash");
            NS_TEST_ASSERT_MSG_EQ(EcmpHash::Hash(rebuilt, SEED_TIER1), h, "rebuilt, same hash");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Each of the 104 tuple bits and each of the 32 seed bits flips each of the 32 hash bits for
 * about half of the tuples (avalanche), so that no part of the tuple or seed is ignored or
 * reaches only some hash bits.
 */
class EcmpAvalancheTestCase : public TestCase
{
  public:
    /** Create the test case. */
    EcmpAvalancheTestCase()
        : TestCase("Every tuple and seed bit flips every hash bit about half of the time")
    {
    }

  private:
    void DoRun() override
    {
        // Over 2,000 tuples, a flip frequency has standard deviation sqrt(0.25 / 2000) = 0.011;
        // the bounds 0.4 to 0.6 are 8.9 sd away from 0.5, so none of the (104 + 32) x 32 = 4,352
        // frequencies of a well-mixed hash falls outside.
        const uint32_t samples = 2000;
        std::vector<FlowFiveTuple> tuples = RandomTuples(samples, 777);
        std::mt19937 rng(778);
        double lowest = 1.0;
        double highest = 0.0;
        for (uint32_t bit = 0; bit < 104 + 32; ++bit)
        {
            std::array<uint32_t, 32> flips{};
            for (const FlowFiveTuple& t : tuples)
            {
                uint32_t seed = rng();
                FlowFiveTuple u = t;
                uint32_t useed = seed;
                if (bit < 32)
                {
                    u.source = Ipv4Address(t.source.Get() ^ (1u << bit));
                }
                else if (bit < 64)
                {
                    u.destination = Ipv4Address(t.destination.Get() ^ (1u << (bit - 32)));
                }
                else if (bit < 80)
                {
                    u.sourcePort = static_cast<uint16_t>(t.sourcePort ^ (1u << (bit - 64)));
                }
                else if (bit < 96)
                {
                    u.destinationPort =
                        static_cast<uint16_t>(t.destinationPort ^ (1u << (bit - 80)));
                }
                else if (bit < 104)
                {
                    u.protocol = static_cast<uint8_t>(t.protocol ^ (1u << (bit - 96)));
                }
                else
                {
                    useed = seed ^ (1u << (bit - 104));
                }
                uint32_t diff = EcmpHash::Hash(t, seed) ^ EcmpHash::Hash(u, useed);
                for (uint32_t out = 0; out < 32; ++out)
                {
                    flips[out] += (diff >> out) & 1u;
                }
            }
            for (uint32_t out = 0; out < 32; ++out)
            {
                double frequency = static_cast<double>(flips[out]) / samples;
                lowest = std::min(lowest, frequency);
                highest = std::max(highest, frequency);
                NS_TEST_ASSERT_MSG_EQ((frequency > 0.4 && frequency < 0.6),
                                      true,
                                      "input bit " << bit << " flips output bit " << out
                                                   << " with frequency " << frequency);
            }
        }
        std::ostringstream os;
        os << "flip frequencies between " << lowest << " and " << highest;
        NS_TEST_ASSERT_MSG_EQ((lowest > 0.4), true, os.str());
    }
};

/**
 * @ingroup llm-fabric-tests
 * Another seed gives another mapping: most tuples change path (with 4 paths, an unrelated
 * mapping keeps a tuple's path with probability 1/4, so 75 % are expected to change).
 */
class EcmpSeedChangesMappingTestCase : public TestCase
{
  public:
    /** Create the test case. */
    EcmpSeedChangesMappingTestCase()
        : TestCase("Another seed moves about 75 % of the tuples to another of 4 paths")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<FlowFiveTuple> tuples = RandomTuples(10000, 4242);
        // Expected 0.75, standard deviation sqrt(0.75 x 0.25 / 10000) = 0.0043: the bounds
        // 0.72 to 0.78 are 7 sd away. The upper bound matters too: a seed that only permutes
        // the paths (see EcmpPolarizationTestCase) moves either none or all of the tuples.
        const std::vector<std::pair<uint32_t, uint32_t>> pairs = {{SEED_TIER1, SEED_TIER2},
                                                                  {0, 1},
                                                                  {0, 0x80000000u},
                                                                  {7, 0xDEADBEEFu}};
        for (const auto& [a, b] : pairs)
        {
            double share = ChangedShare(tuples, &EcmpHash::Hash, a, b);
            NS_TEST_ASSERT_MSG_EQ((share > 0.72 && share < 0.78),
                                  true,
                                  "seeds " << a << " and " << b << ": " << share
                                           << " of the tuples change path, expected 0.75");
        }
        NS_TEST_ASSERT_MSG_EQ(ChangedShare(tuples, &EcmpHash::Hash, 5, 5),
                              0.0,
                              "the same seed changes nothing");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Two tiers with different seeds do not polarize: the tuples that tier 1 sends to path 0 spread
 * again within 5 % of uniform over the 4 paths of tier 2.
 *
 * A hash whose seed only xors (or adds to) its output fails this. Select reads the top bits of
 * the hash, and xoring a fixed value into the hash flips a fixed set of those bits, so each seed
 * only permutes the paths: the tier-2 path is the tier-1 path xored with a constant that depends
 * on the two seeds alone. Every tuple that took path 0 at tier 1 then takes one and the same
 * path at tier 2, and the other three tier-2 paths of that switch carry nothing. Such a hash
 * still spreads tuples evenly at each tier and moves many tuples when the seed changes, so only
 * this check catches it; the test runs it on XorSeedHash to show that it does.
 */
class EcmpPolarizationTestCase : public TestCase
{
  public:
    /** Create the test case. */
    EcmpPolarizationTestCase()
        : TestCase("Two tiers with different seeds do not polarize; an output-xor seed does")
    {
    }

  private:
    void DoRun() override
    {
        // 40,000 tuples, so that about 10,000 take path 0 at tier 1 and the tier-2 counts have
        // the same 2.9 sd margin as the 10,000-tuple checks (see WithinFivePercent).
        std::vector<FlowFiveTuple> tuples = RandomTuples(40000, 31337);
        std::string detail;

        std::vector<uint32_t> good = SecondTierCounts(tuples, &EcmpHash::Hash);
        NS_TEST_ASSERT_MSG_EQ(WithinFivePercent(good, detail),
                              true,
                              "EcmpHash, tier 2 after path 0 of tier 1: " << detail);

        // The bad hash passes the single-tier checks ...
        std::vector<uint32_t> tier1 = CountPaths(tuples, &XorSeedHash, SEED_TIER1, PATHS);
        NS_TEST_ASSERT_MSG_EQ(WithinFivePercent(tier1, detail),
                              true,
                              "the xor-seed hash is uniform at one tier: " << detail);
        double share = ChangedShare(tuples, &XorSeedHash, SEED_TIER1, SEED_TIER2);
        NS_TEST_ASSERT_MSG_EQ(
            (share > 0.6),
            true,
            "the xor-seed hash moves many tuples when the seed changes: " << share);
        // ... and this check catches it: all its tuples take a single tier-2 path.
        std::vector<uint32_t> bad = SecondTierCounts(tuples, &XorSeedHash);
        NS_TEST_ASSERT_MSG_EQ(WithinFivePercent(bad, detail),
                              false,
                              "the xor-seed hash should polarize: " << detail);
        NS_TEST_ASSERT_MSG_EQ(PathsUsed(bad),
                              1u,
                              "the xor-seed hash uses one tier-2 path: " << detail);
    }
};

/**
 * @ingroup llm-fabric-tests
 * RoCEv2 realism: the queue pairs between one pair of hosts differ only in their UDP source
 * port, and still spread over the paths.
 */
class EcmpRoceSourcePortTestCase : public TestCase
{
  public:
    /** Create the test case. */
    EcmpRoceSourcePortTestCase()
        : TestCase("Tuples differing only in the UDP source port spread over the paths")
    {
    }

  private:
    void DoRun() override
    {
        // 10,000 consecutive source ports from 49152 (0xC000) between 10.0.1.1 and 10.0.2.1.
        std::vector<FlowFiveTuple> tuples;
        for (uint32_t port = 49152; port < 49152 + 10000; ++port)
        {
            tuples.emplace_back(Ipv4Address("10.0.1.1"),
                                Ipv4Address("10.0.2.1"),
                                static_cast<uint16_t>(port),
                                IbBthHeader::ROCEV2_UDP_PORT,
                                FlowFiveTuple::PROTOCOL_UDP);
        }
        std::string detail;
        for (uint32_t seed : {SEED_TIER1, SEED_TIER2})
        {
            std::vector<uint32_t> counts = CountPaths(tuples, &EcmpHash::Hash, seed, PATHS);
            NS_TEST_ASSERT_MSG_EQ(WithinFivePercent(counts, detail),
                                  true,
                                  "seed " << seed << ": " << detail);
        }
        // A realistic number of queue pairs: 16 consecutive ports use at least 3 of the 4 paths
        // (a uniform hash puts 16 flows on 2 paths or fewer with probability about
        // 6 x 2^-16 = 1e-4).
        for (uint32_t seed : {SEED_TIER1, SEED_TIER2})
        {
            std::vector<FlowFiveTuple> few(tuples.begin(), tuples.begin() + 16);
            std::vector<uint32_t> counts = CountPaths(few, &EcmpHash::Hash, seed, PATHS);
            NS_TEST_ASSERT_MSG_GT_OR_EQ(PathsUsed(counts), 3u, "16 queue pairs, seed " << seed);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * ExtractFromFrame reads the 5-tuple from hand-built Ethernet II frames: IPv4 with IHL 5 and
 * IHL 6, an 802.1Q tag, TCP, ICMP and a later fragment, and rejects ARP, IPv6, bad IPv4 headers
 * and frames too short for the fields.
 */
class EcmpExtractFromFrameTestCase : public TestCase
{
  public:
    /** Create the test case. */
    EcmpExtractFromFrameTestCase()
        : TestCase("ExtractFromFrame reads hand-built frames and rejects others")
    {
    }

  private:
    void DoRun() override
    {
        FlowFiveTuple expected = HandBuiltTuple();
        const std::string frame = ETH_MACS + "0800" + IPV4_IHL5 + UDP_C000 + BTH_START;

        CheckExtract(frame, expected, "IHL 5");

        // IHL 6: four option bytes (NOP, NOP, NOP, End of options list) before UDP, whose ports
        // now are 49153 > 4791; a parser that ignored the IHL would read ports 0x0101 0x0100.
        const std::string ihl6 = ETH_MACS + "0800" +
                                 "46 00 0040 1234 4000 40 11 0000 0a000101 0a000201 01010100" +
                                 "c001 12b7 0028 0000" + BTH_START;
        FlowFiveTuple ihl6Tuple = expected;
        ihl6Tuple.sourcePort = 49153;
        CheckExtract(ihl6, ihl6Tuple, "IHL 6");

        // 802.1Q: TPID 8100, TCI 6005 (priority 3, VLAN 5), then the EtherType.
        const std::string tagged = ETH_MACS + "8100 6005 0800" + IPV4_IHL5 + UDP_C000 + BTH_START;
        CheckExtract(tagged, expected, "802.1Q");

        // TCP from 10.0.0.5:1234 (04d2) to 10.0.0.6:80 (0050), protocol 6.
        const std::string tcp = ETH_MACS + "0800" +
                                "45 00 0028 0001 4000 40 06 0000 0a000005 0a000006" +
                                "04d2 0050 00000000 00000000 5002 ffff 0000 0000";
        CheckExtract(tcp,
                     FlowFiveTuple(Ipv4Address("10.0.0.5"),
                                   Ipv4Address("10.0.0.6"),
                                   1234,
                                   80,
                                   FlowFiveTuple::PROTOCOL_TCP),
                     "TCP");

        // ICMP echo request (protocol 1): no ports.
        const std::string icmp = ETH_MACS + "0800" +
                                 "45 00 001c 0001 0000 40 01 0000 0a000005 0a000006" +
                                 "0800 f7ff 0000 0000";
        CheckExtract(icmp,
                     FlowFiveTuple(Ipv4Address("10.0.0.5"), Ipv4Address("10.0.0.6"), 0, 0, 1),
                     "ICMP, ports zero:");

        // A UDP fragment at offset 185 x 8 (flags and offset 00b9): its first bytes are payload,
        // not ports, so the ports are zero.
        const std::string fragment = ETH_MACS + "0800" +
                                     "45 00 003c 1234 00b9 40 11 0000 0a000101 0a000201" +
                                     "c000 12b7 0028 0000";
        CheckExtract(fragment,
                     FlowFiveTuple(Ipv4Address("10.0.1.1"),
                                   Ipv4Address("10.0.2.1"),
                                   0,
                                   0,
                                   FlowFiveTuple::PROTOCOL_UDP),
                     "later fragment, ports zero:");

        // Rejected frames leave the output alone.
        const FlowFiveTuple sentinel(Ipv4Address("1.2.3.4"), Ipv4Address("5.6.7.8"), 9, 10, 11);
        FlowFiveTuple out = sentinel;
        // ARP request (EtherType 0806): who has 10.0.2.1, tell 10.0.1.1.
        const std::string arp = "ffffffffffff 020000000001 0806" +
                                std::string("0001 0800 06 04 0001 020000000001 0a000101 "
                                            "000000000000 0a000201");
        NS_TEST_ASSERT_MSG_EQ(Extract(arp, out), false, "ARP is rejected");
        // IPv6 (EtherType 86dd), and an 802.1Q-tagged ARP.
        NS_TEST_ASSERT_MSG_EQ(
            Extract(ETH_MACS + "86dd 6000000000081140" + std::string(64, '0'), out),
            false,
            "IPv6 is rejected");
        NS_TEST_ASSERT_MSG_EQ(Extract(ETH_MACS + "8100 6005 0806" + arp.substr(30), out),
                              false,
                              "tagged ARP is rejected");
        // EtherType IPv4 but version 6, and IHL 4 (shorter than the fixed header).
        NS_TEST_ASSERT_MSG_EQ(
            Extract(ETH_MACS + "0800" + "65" + IPV4_IHL5.substr(2) + UDP_C000, out),
            false,
            "IP version 6 under EtherType IPv4 is rejected");
        NS_TEST_ASSERT_MSG_EQ(
            Extract(ETH_MACS + "0800" + "44" + IPV4_IHL5.substr(2) + UDP_C000, out),
            false,
            "IHL 4 is rejected");

        // Lengths: 14 (Ethernet) + 20 (IPv4) + 4 (ports) = 38 bytes are needed, 42 if tagged.
        NS_TEST_ASSERT_MSG_EQ(Extract(frame, out, 0), false, "empty frame");
        NS_TEST_ASSERT_MSG_EQ(Extract(frame, out, 13), false, "no complete EtherType");
        NS_TEST_ASSERT_MSG_EQ(Extract(frame, out, 33), false, "IPv4 header cut");
        NS_TEST_ASSERT_MSG_EQ(Extract(frame, out, 37), false, "destination port cut");
        NS_TEST_ASSERT_MSG_EQ(Extract(tagged, out, 17), false, "tagged, EtherType cut");
        NS_TEST_ASSERT_MSG_EQ(Extract(tagged, out, 41), false, "tagged, destination port cut");
        NS_TEST_ASSERT_MSG_EQ(Extract(ihl6, out, 41), false, "IHL 6, destination port cut");
        NS_TEST_ASSERT_MSG_EQ(EcmpHash::ExtractFromFrame(nullptr, 64, out), false, "no frame");
        NS_TEST_ASSERT_MSG_EQ(out, sentinel, "rejected frames leave the output alone");

        CheckExtract(frame, expected, "38 bytes suffice:", 38);
        CheckExtract(tagged, expected, "42 bytes suffice when tagged:", 42);
        NS_TEST_ASSERT_MSG_EQ(Extract(ihl6, out, 42), true, "42 bytes suffice with IHL 6");
    }

    /**
     * Check that ExtractFromFrame accepts a frame and reads the expected tuple from it.
     * @param hex the frame, as Extract takes it.
     * @param expected the tuple it holds.
     * @param what the frame, in the messages.
     * @param length how many of its bytes to pass; all of them if negative.
     */
    void CheckExtract(const std::string& hex,
                      const FlowFiveTuple& expected,
                      const std::string& what,
                      int length = -1)
    {
        FlowFiveTuple out;
        NS_TEST_ASSERT_MSG_EQ(Extract(hex, out, length), true, what << " frame");
        NS_TEST_ASSERT_MSG_EQ(out, expected, what << " tuple");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A RoCEv2 frame built by RoceV2Packet, copied 64 bytes at a time into a stack buffer as the
 * switch does, gives its addressing back.
 */
class EcmpExtractRoceFrameTestCase : public TestCase
{
  public:
    /** Create the test case. */
    EcmpExtractRoceFrameTestCase()
        : TestCase("ExtractFromFrame reads a frame built by RoceV2Packet from a 64-byte copy")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Packet> p = Create<Packet>(256);
        IbBthHeader bth;
        bth.SetOpcode(IbBthHeader::RC_RDMA_WRITE_MIDDLE);
        bth.SetDestQp(0x12);
        p->AddHeader(bth);
        RoceV2Packet::Addressing addressing;
        addressing.source = Ipv4Address("10.1.2.3");
        addressing.destination = Ipv4Address("10.4.5.6");
        addressing.udpSourcePort = 0xD00D;
        RoceV2Packet::Encapsulate(p, addressing);
        RoceV2Packet::AddEthernetHeader(p,
                                        Mac48Address("02:00:00:00:00:01"),
                                        Mac48Address("02:00:00:00:00:02"));

        uint8_t buffer[64];
        uint32_t copied = p->CopyData(buffer, sizeof(buffer));
        NS_TEST_ASSERT_MSG_EQ(copied, 64u, "the frame is longer than 64 bytes");
        FlowFiveTuple out;
        NS_TEST_ASSERT_MSG_EQ(EcmpHash::ExtractFromFrame(buffer, copied, out), true, "RoCEv2");
        NS_TEST_ASSERT_MSG_EQ(out,
                              FlowFiveTuple(Ipv4Address("10.1.2.3"),
                                            Ipv4Address("10.4.5.6"),
                                            0xD00D,
                                            IbBthHeader::ROCEV2_UDP_PORT,
                                            FlowFiveTuple::PROTOCOL_UDP),
                              "RoCEv2 tuple");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The ECMP hash test suite.
 */
class EcmpHashTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    EcmpHashTestSuite()
        : TestSuite("llm-fabric-ecmp-hash", Type::UNIT)
    {
        AddTestCase(new FlowFiveTupleTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new EcmpSelectTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new EcmpUniformTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new EcmpAvalancheTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new EcmpSeedChangesMappingTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new EcmpPolarizationTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new EcmpRoceSourcePortTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new EcmpExtractFromFrameTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new EcmpExtractRoceFrameTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static EcmpHashTestSuite g_ecmpHashTestSuite;

} // namespace tests
} // namespace llmfabric

/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-volume-oracle.h"

#include "ns3/abort.h"
#include "ns3/collective-chunks.h"
#include "ns3/double-binary-tree-collective.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of CollectiveVolume: the integer chunking rule, per-rank volumes and steps of each
 * algorithm against values derived by hand in comments, the conservation of bytes (every send is
 * some rank's receive) for every supported combination, the double binary tree's shape, and the
 * messages for invalid combinations. Notation: S the message size, n the group size, c(i) chunk i
 * of S in n chunks.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * Compute a rank's volume, aborting if the combination is refused.
 * @param kind the collective.
 * @param algorithm its algorithm.
 * @param n the group size.
 * @param bytes S.
 * @param rank the rank.
 * @param localSize ranks per server.
 * @return the volume.
 */
RankVolume
Volume(CollectiveKind kind,
       CollectiveAlgorithm algorithm,
       uint32_t n,
       uint64_t bytes,
       uint32_t rank,
       uint32_t localSize = 1)
{
    RankVolume volume;
    std::string error =
        CollectiveVolume::Compute(kind, algorithm, n, bytes, rank, volume, localSize);
    NS_ABORT_MSG_IF(!error.empty(), error);
    return volume;
}

/**
 * @param volume a volume.
 * @return the sum of the bytes of its sends.
 */
uint64_t
SumSends(const RankVolume& volume)
{
    uint64_t sum = 0;
    for (const auto& transfer : volume.sends)
    {
        sum += transfer.bytes;
    }
    return sum;
}

/// Every kind with the algorithms Compute accepts for it.
const std::vector<std::pair<CollectiveKind, std::vector<CollectiveAlgorithm>>> SUPPORTED = {
    {CollectiveKind::ALL_REDUCE,
     {CollectiveAlgorithm::NAIVE,
      CollectiveAlgorithm::RING,
      CollectiveAlgorithm::DOUBLE_BINARY_TREE,
      CollectiveAlgorithm::RECURSIVE_DOUBLING,
      CollectiveAlgorithm::HALVING_DOUBLING,
      CollectiveAlgorithm::HIERARCHICAL}},
    {CollectiveKind::ALL_GATHER,
     {CollectiveAlgorithm::RING,
      CollectiveAlgorithm::RECURSIVE_DOUBLING,
      CollectiveAlgorithm::DIRECT}},
    {CollectiveKind::REDUCE_SCATTER,
     {CollectiveAlgorithm::RING,
      CollectiveAlgorithm::HALVING_DOUBLING,
      CollectiveAlgorithm::DIRECT}},
    {CollectiveKind::ALL_TO_ALL, {CollectiveAlgorithm::DIRECT, CollectiveAlgorithm::STAGGERED}},
    {CollectiveKind::SEND_RECV, {CollectiveAlgorithm::DIRECT}},
    {CollectiveKind::BROADCAST,
     {CollectiveAlgorithm::NAIVE,
      CollectiveAlgorithm::RING,
      CollectiveAlgorithm::RECURSIVE_DOUBLING}},
};

/// Every algorithm.
const std::vector<CollectiveAlgorithm> ALL_ALGORITHMS = {CollectiveAlgorithm::NAIVE,
                                                         CollectiveAlgorithm::RING,
                                                         CollectiveAlgorithm::DOUBLE_BINARY_TREE,
                                                         CollectiveAlgorithm::RECURSIVE_DOUBLING,
                                                         CollectiveAlgorithm::HALVING_DOUBLING,
                                                         CollectiveAlgorithm::DIRECT,
                                                         CollectiveAlgorithm::STAGGERED,
                                                         CollectiveAlgorithm::HIERARCHICAL};

/**
 * @param text a message.
 * @param part a part it should contain.
 * @return true if it does.
 */
bool
Contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * ChunkBytes and RangeBytes follow the integer chunking rule.
 */
class CollectiveVolumeChunkTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CollectiveVolumeChunkTestCase()
        : TestCase("ChunkBytes sums to the total and chunks differ by at most one byte")
    {
    }

  private:
    void DoRun() override
    {
        // S = 10, n = 4: floor(10/4) = 2, 10 mod 4 = 2, so chunks 0 and 1 have 3 bytes.
        NS_TEST_ASSERT_MSG_EQ(CollectiveChunks::ChunkBytes(10, 4, 0), 3u, "c(0)");
        NS_TEST_ASSERT_MSG_EQ(CollectiveChunks::ChunkBytes(10, 4, 1), 3u, "c(1)");
        NS_TEST_ASSERT_MSG_EQ(CollectiveChunks::ChunkBytes(10, 4, 2), 2u, "c(2)");
        NS_TEST_ASSERT_MSG_EQ(CollectiveChunks::ChunkBytes(10, 4, 3), 2u, "c(3)");
        NS_TEST_ASSERT_MSG_EQ(CollectiveChunks::ChunkBytes(10, 4, 4), 0u, "out of range");
        NS_TEST_ASSERT_MSG_EQ(CollectiveChunks::ChunkBytes(10, 0, 0), 0u, "no parts");
        // S = 3, n = 5: 1, 1, 1, 0, 0.
        NS_TEST_ASSERT_MSG_EQ(CollectiveChunks::ChunkBytes(3, 5, 2), 1u, "c(2) of 3 in 5");
        NS_TEST_ASSERT_MSG_EQ(CollectiveChunks::ChunkBytes(3, 5, 3), 0u, "c(3) of 3 in 5");
        NS_TEST_ASSERT_MSG_EQ(CollectiveChunks::RangeBytes(10, 4, 1, 3), 5u, "c(1) + c(2)");

        const std::vector<uint64_t> totals = {0,
                                              1,
                                              2,
                                              7,
                                              10,
                                              999,
                                              1000,
                                              4097,
                                              123456789,
                                              uint64_t{1} << 40,
                                              (uint64_t{1} << 62) + 12345};
        for (uint64_t total : totals)
        {
            for (uint32_t parts = 1; parts <= 70; ++parts)
            {
                uint64_t sum = 0;
                uint64_t largest = 0;
                uint64_t smallest = UINT64_MAX;
                for (uint32_t i = 0; i < parts; ++i)
                {
                    uint64_t chunk = CollectiveChunks::ChunkBytes(total, parts, i);
                    sum += chunk;
                    largest = std::max(largest, chunk);
                    smallest = std::min(smallest, chunk);
                    NS_TEST_ASSERT_MSG_EQ(CollectiveChunks::RangeBytes(total, parts, 0, i + 1),
                                          sum,
                                          "prefix of " << total << " in " << parts);
                }
                NS_TEST_ASSERT_MSG_EQ(sum, total, "sum of " << total << " in " << parts);
                NS_TEST_ASSERT_MSG_EQ((largest - smallest <= 1),
                                      true,
                                      "spread of " << total << " in " << parts);
                NS_TEST_ASSERT_MSG_EQ(CollectiveChunks::RangeBytes(total, parts, 0, parts),
                                      total,
                                      "whole range of " << total << " in " << parts);
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Ring all-reduce: 2(n-1)/n S per rank when n divides S, and exact values when it does not.
 */
class CollectiveVolumeRingTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CollectiveVolumeRingTestCase()
        : TestCase("Ring all-reduce volumes, divisible and not")
    {
    }

  private:
    void DoRun() override
    {
        // S = 1600 is divisible by 2, 4, 8 and 16. Each rank sends n-1 chunks of S/n in the
        // reduce-scatter and n-1 in the all-gather: 2(n-1) S/n.
        //   n = 2:  2 x 1 x 800 = 1600;  n = 4:  2 x 3 x 400 = 2400;
        //   n = 8:  2 x 7 x 200 = 2800;  n = 16: 2 x 15 x 100 = 3000.
        const std::vector<std::pair<uint32_t, uint64_t>> expected = {{2, 1600},
                                                                     {4, 2400},
                                                                     {8, 2800},
                                                                     {16, 3000}};
        for (const auto& [n, perRank] : expected)
        {
            for (uint32_t rank = 0; rank < n; ++rank)
            {
                RankVolume v =
                    Volume(CollectiveKind::ALL_REDUCE, CollectiveAlgorithm::RING, n, 1600, rank);
                NS_TEST_ASSERT_MSG_EQ(v.bytesSent, perRank, "sent, n = " << n);
                NS_TEST_ASSERT_MSG_EQ(v.bytesReceived, perRank, "received, n = " << n);
                NS_TEST_ASSERT_MSG_EQ(v.steps, 2 * (n - 1), "steps, n = " << n);
                NS_TEST_ASSERT_MSG_EQ(v.sends.size(), 2u * (n - 1), "transfers, n = " << n);
                NS_TEST_ASSERT_MSG_EQ(SumSends(v), v.bytesSent, "list matches total");
                NS_TEST_ASSERT_MSG_EQ(v.sends.front().peer, (rank + 1) % n, "to the next rank");
            }
        }

        // S = 10, n = 4: chunks c = 3, 3, 2, 2. Rank r sends S - c(r) in the reduce-scatter
        // (every chunk but its own, which it keeps) and S - c(r+1) in the all-gather (every
        // chunk but the one its successor owns). It receives S - c(r-1) and S - c(r).
        //   rank 0: RS steps 0..2 send c(3), c(2), c(1) = 2 + 2 + 3 = 7 = 10 - c(0);
        //           AG steps 3..5 send c(0), c(3), c(2) = 3 + 2 + 2 = 7 = 10 - c(1); total 14.
        //           receives 10 - c(3) + 10 - c(0) = 8 + 7 = 15.
        //   rank 3: RS sends c(2), c(1), c(0) = 2 + 3 + 3 = 8 = 10 - c(3);
        //           AG sends c(3), c(2), c(1) = 2 + 2 + 3 = 7 = 10 - c(0); total 15.
        //           receives 10 - c(2) + 10 - c(3) = 8 + 8 = 16.
        RankVolume r0 = Volume(CollectiveKind::ALL_REDUCE, CollectiveAlgorithm::RING, 4, 10, 0);
        NS_TEST_ASSERT_MSG_EQ(r0.bytesSent, 14u, "rank 0 sent");
        NS_TEST_ASSERT_MSG_EQ(r0.bytesReceived, 15u, "rank 0 received");
        const std::vector<uint64_t> rank0Sends = {2, 2, 3, 3, 2, 2};
        NS_TEST_ASSERT_MSG_EQ(r0.sends.size(), rank0Sends.size(), "rank 0 transfers");
        for (std::size_t i = 0; i < rank0Sends.size() && i < r0.sends.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(r0.sends[i].bytes, rank0Sends[i], "rank 0 send " << i);
            NS_TEST_ASSERT_MSG_EQ(r0.sends[i].step, i, "rank 0 step " << i);
            NS_TEST_ASSERT_MSG_EQ(r0.sends[i].peer, 1u, "rank 0 peer " << i);
        }
        RankVolume r3 = Volume(CollectiveKind::ALL_REDUCE, CollectiveAlgorithm::RING, 4, 10, 3);
        NS_TEST_ASSERT_MSG_EQ(r3.bytesSent, 15u, "rank 3 sent");
        NS_TEST_ASSERT_MSG_EQ(r3.bytesReceived, 16u, "rank 3 received");
        // Ranks 1 and 2: sent 10 - 3 + 10 - 2 = 15 and 10 - 2 + 10 - 2 = 16; over all ranks
        // 14 + 15 + 16 + 15 = 60 = 2(n-1) S = 6 x 10.
        uint64_t total = 0;
        for (uint32_t rank = 0; rank < 4; ++rank)
        {
            total += Volume(CollectiveKind::ALL_REDUCE, CollectiveAlgorithm::RING, 4, 10, rank)
                         .bytesSent;
        }
        NS_TEST_ASSERT_MSG_EQ(total, 60u, "all ranks");

        // S = 3 < n = 4: chunk 3 is empty, so its transfers are not listed but steps remain.
        RankVolume small = Volume(CollectiveKind::ALL_REDUCE, CollectiveAlgorithm::RING, 4, 3, 0);
        NS_TEST_ASSERT_MSG_EQ(small.steps, 6u, "steps with empty chunks");
        // Rank 0 sends c(3), c(2), c(1), c(0), c(3), c(2) = 0, 1, 1, 1, 0, 1: four transfers.
        NS_TEST_ASSERT_MSG_EQ(small.sends.size(), 4u, "empty transfers are left out");
        NS_TEST_ASSERT_MSG_EQ(small.bytesSent, 4u, "bytes with empty chunks");
    }
};

/**
 * @ingroup llm-fabric-tests
 * For every supported combination and many group and message sizes, every send of a rank is a
 * receive of its peer at the same step with the same bytes, so that the bytes sent over all
 * ranks equal the bytes received, in total and per server class.
 */
class CollectiveVolumeConservationTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CollectiveVolumeConservationTestCase()
        : TestCase("Every send is a receive, for every kind and algorithm")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<uint64_t> sizes = {0, 1, 5, 1000, 12347};
        uint32_t combinations = 0;
        for (const auto& [kind, algorithms] : SUPPORTED)
        {
            for (CollectiveAlgorithm algorithm : algorithms)
            {
                for (uint32_t n = 1; n <= 17; ++n)
                {
                    for (uint32_t localSize = 1; localSize <= n; ++localSize)
                    {
                        if (n % localSize != 0)
                        {
                            continue;
                        }
                        for (uint64_t bytes : sizes)
                        {
                            CheckOne(kind, algorithm, n, bytes, localSize, combinations);
                        }
                    }
                }
            }
        }
        NS_TEST_ASSERT_MSG_GT(combinations, 500u, "enough combinations were valid");
    }

    /**
     * Check one combination, if valid.
     * @param kind the collective.
     * @param algorithm its algorithm.
     * @param n the group size.
     * @param bytes S.
     * @param localSize ranks per server.
     * @param[in,out] combinations incremented if the combination is valid.
     */
    void CheckOne(CollectiveKind kind,
                  CollectiveAlgorithm algorithm,
                  uint32_t n,
                  uint64_t bytes,
                  uint32_t localSize,
                  uint32_t& combinations)
    {
        const std::string what = GetCollectiveKindName(kind) + " " +
                                 CollectiveVolume::GetAlgorithmName(algorithm) +
                                 " n=" + std::to_string(n) + " S=" + std::to_string(bytes) +
                                 " L=" + std::to_string(localSize);
        // (source, destination, step) -> bytes of each transfer.
        std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<uint64_t>> sent;
        std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<uint64_t>> received;
        uint64_t totals[6] = {0, 0, 0, 0, 0, 0};
        uint32_t steps = 0;
        for (uint32_t rank = 0; rank < n; ++rank)
        {
            RankVolume v;
            std::string error =
                CollectiveVolume::Compute(kind, algorithm, n, bytes, rank, v, localSize);
            if (!error.empty())
            {
                NS_TEST_ASSERT_MSG_EQ(rank, 0u, "validity does not depend on the rank: " << what);
                return;
            }
            if (rank == 0)
            {
                steps = v.steps;
            }
            NS_TEST_ASSERT_MSG_EQ(v.steps, steps, "same steps on every rank: " << what);
            totals[0] += v.bytesSent;
            totals[1] += v.bytesReceived;
            totals[2] += v.intraBytesSent;
            totals[3] += v.intraBytesReceived;
            totals[4] += v.interBytesSent;
            totals[5] += v.interBytesReceived;
            NS_TEST_ASSERT_MSG_EQ(v.intraBytesSent + v.interBytesSent,
                                  v.bytesSent,
                                  "intra + inter sent: " << what);
            for (const auto& t : v.sends)
            {
                NS_TEST_ASSERT_MSG_EQ((t.peer < n && t.peer != rank && t.step < v.steps),
                                      true,
                                      "send peer and step: " << what);
                NS_TEST_ASSERT_MSG_GT(t.bytes, 0u, "no empty transfers: " << what);
                sent[{rank, t.peer, t.step}].push_back(t.bytes);
            }
            for (const auto& t : v.receives)
            {
                received[{t.peer, rank, t.step}].push_back(t.bytes);
            }
        }
        for (auto& entry : sent)
        {
            std::sort(entry.second.begin(), entry.second.end());
        }
        for (auto& entry : received)
        {
            std::sort(entry.second.begin(), entry.second.end());
        }
        NS_TEST_ASSERT_MSG_EQ((sent == received), true, "sends match receives: " << what);
        NS_TEST_ASSERT_MSG_EQ(totals[0], totals[1], "sum sent = sum received: " << what);
        NS_TEST_ASSERT_MSG_EQ(totals[2], totals[3], "intra: " << what);
        NS_TEST_ASSERT_MSG_EQ(totals[4], totals[5], "inter: " << what);
        ++combinations;
    }
};

/**
 * @ingroup llm-fabric-tests
 * The step counts of each algorithm, and the shape of the double binary tree.
 */
class CollectiveVolumeStepsTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CollectiveVolumeStepsTestCase()
        : TestCase("Steps per algorithm and double binary tree shape")
    {
    }

  private:
    void DoRun() override
    {
        // Powers of two: ring 2(n-1), halving-doubling 2 log2 n, recursive doubling log2 n,
        // double binary tree 2 x depth with depth log2 n (reduce up, then broadcast down).
        for (uint32_t log = 0; log <= 6; ++log)
        {
            uint32_t n = uint32_t{1} << log;
            auto steps = [n](CollectiveAlgorithm algorithm) {
                return Volume(CollectiveKind::ALL_REDUCE, algorithm, n, 4096, 0).steps;
            };
            NS_TEST_ASSERT_MSG_EQ(steps(CollectiveAlgorithm::RING), 2 * (n - 1), "ring " << n);
            NS_TEST_ASSERT_MSG_EQ(steps(CollectiveAlgorithm::HALVING_DOUBLING),
                                  2 * log,
                                  "halving-doubling " << n);
            NS_TEST_ASSERT_MSG_EQ(steps(CollectiveAlgorithm::RECURSIVE_DOUBLING),
                                  log,
                                  "recursive doubling " << n);
            NS_TEST_ASSERT_MSG_EQ(steps(CollectiveAlgorithm::DOUBLE_BINARY_TREE),
                                  2 * log,
                                  "tree " << n);
        }

        // The trees for n = 1..100: parent and children agree, every rank reaches the root,
        // the deepest rank is at ceil(log2 n), and for even n every rank is a leaf in at least
        // one of the two trees (which bounds its traffic).
        for (uint32_t n = 1; n <= 100; ++n)
        {
            uint32_t ceilLog = 0;
            while ((1u << ceilLog) < n)
            {
                ++ceilLog;
            }
            for (uint32_t tree = 0; tree < 2; ++tree)
            {
                uint32_t roots = 0;
                uint32_t deepest = 0;
                uint32_t edges = 0;
                for (uint32_t rank = 0; rank < n; ++rank)
                {
                    uint32_t parent = DoubleBinaryTreeCollective::TreeParent(n, tree, rank);
                    std::vector<uint32_t> children =
                        DoubleBinaryTreeCollective::TreeChildren(n, tree, rank);
                    NS_TEST_ASSERT_MSG_LT(children.size(), 3u, "binary, n = " << n);
                    edges += children.size();
                    if (parent == n)
                    {
                        ++roots;
                    }
                    else
                    {
                        std::vector<uint32_t> siblings =
                            DoubleBinaryTreeCollective::TreeChildren(n, tree, parent);
                        NS_TEST_ASSERT_MSG_EQ(
                            (std::find(siblings.begin(), siblings.end(), rank) != siblings.end()),
                            true,
                            "child of its parent, n = " << n << " tree " << tree << " rank "
                                                        << rank);
                    }
                    deepest =
                        std::max(deepest, DoubleBinaryTreeCollective::TreeDepth(n, tree, rank));
                    if (n % 2 == 0 && tree == 0)
                    {
                        bool leaf0 = children.empty();
                        bool leaf1 = DoubleBinaryTreeCollective::TreeChildren(n, 1, rank).empty();
                        NS_TEST_ASSERT_MSG_EQ((leaf0 || leaf1), true, "leaf once, n = " << n);
                    }
                }
                NS_TEST_ASSERT_MSG_EQ(roots, 1u, "one root, n = " << n);
                NS_TEST_ASSERT_MSG_EQ(edges, n - 1, "n - 1 edges, n = " << n);
                NS_TEST_ASSERT_MSG_EQ(deepest, ceilLog, "depth, n = " << n);
            }
            NS_TEST_ASSERT_MSG_EQ(Volume(CollectiveKind::ALL_REDUCE,
                                         CollectiveAlgorithm::DOUBLE_BINARY_TREE,
                                         n,
                                         64,
                                         0)
                                      .steps,
                                  2 * ceilLog,
                                  "tree steps, n = " << n);
        }

        // Tree 0 of n = 12 (NCCL's drawing): 0 - 8; 8 - 4, 10; 4 - 2, 6; 2 - 1, 3; 6 - 5, 7;
        // 10 - 9, 11. Tree 1 is its mirror: rank r at the place of 11 - r.
        NS_TEST_ASSERT_MSG_EQ(DoubleBinaryTreeCollective::TreeParent(12, 0, 8), 0u, "8 under 0");
        NS_TEST_ASSERT_MSG_EQ(DoubleBinaryTreeCollective::TreeParent(12, 0, 10), 8u, "10 under 8");
        NS_TEST_ASSERT_MSG_EQ(DoubleBinaryTreeCollective::TreeParent(12, 0, 11),
                              10u,
                              "11 under 10");
        NS_TEST_ASSERT_MSG_EQ(DoubleBinaryTreeCollective::TreeParent(12, 0, 0),
                              12u,
                              "0 is the root");
        NS_TEST_ASSERT_MSG_EQ(DoubleBinaryTreeCollective::TreeParent(12, 1, 11),
                              12u,
                              "11 is the root");
        NS_TEST_ASSERT_MSG_EQ(DoubleBinaryTreeCollective::TreeParent(12, 1, 3), 11u, "3 under 11");
        // Odd n = 5, tree 1 shifts by one: place p holds rank p + 1 mod 5. Tree 0: 0 - 4,
        // 4 - 2, 2 - 1, 3; so tree 1: 1 - 0, 0 - 3, 3 - 2, 4.
        NS_TEST_ASSERT_MSG_EQ(DoubleBinaryTreeCollective::TreeParent(5, 1, 1), 5u, "1 is the root");
        NS_TEST_ASSERT_MSG_EQ(DoubleBinaryTreeCollective::TreeParent(5, 1, 0), 1u, "0 under 1");
        NS_TEST_ASSERT_MSG_EQ(DoubleBinaryTreeCollective::TreeParent(5, 1, 4), 3u, "4 under 3");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Naive, ring, double binary tree, recursive doubling and halving-doubling all-reduce of
 * S = 8000 bytes among n = 8 ranks, against volumes derived by hand.
 */
class CollectiveVolumeAllReduceTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CollectiveVolumeAllReduceTestCase()
        : TestCase("All-reduce algorithms compared, n = 8, S = 8000")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 8;
        const uint64_t s = 8000;
        auto run = [](CollectiveAlgorithm algorithm, uint32_t rank) {
            return Volume(CollectiveKind::ALL_REDUCE, algorithm, n, s, rank);
        };
        auto total = [&run](CollectiveAlgorithm algorithm) {
            uint64_t sum = 0;
            for (uint32_t rank = 0; rank < n; ++rank)
            {
                sum += run(algorithm, rank).bytesSent;
            }
            return sum;
        };

        // Naive: rank 0 receives S from each of 7 ranks and sends S to each: 56000 each way;
        // the others send and receive 8000. Over all ranks 56000 + 7 x 8000 = 112000 =
        // 2(n-1) S, as the ring, but all through rank 0.
        NS_TEST_ASSERT_MSG_EQ(run(CollectiveAlgorithm::NAIVE, 0).bytesSent, 56000u, "naive 0");
        NS_TEST_ASSERT_MSG_EQ(run(CollectiveAlgorithm::NAIVE, 0).bytesReceived,
                              56000u,
                              "naive 0 received");
        NS_TEST_ASSERT_MSG_EQ(run(CollectiveAlgorithm::NAIVE, 5).bytesSent, 8000u, "naive 5");
        NS_TEST_ASSERT_MSG_EQ(run(CollectiveAlgorithm::NAIVE, 5).steps, 2u, "naive steps");
        NS_TEST_ASSERT_MSG_EQ(total(CollectiveAlgorithm::NAIVE), 112000u, "naive total");

        // Ring: 2 x 7/8 x 8000 = 14000 per rank, 112000 in all.
        NS_TEST_ASSERT_MSG_EQ(run(CollectiveAlgorithm::RING, 5).bytesSent, 14000u, "ring");
        NS_TEST_ASSERT_MSG_EQ(total(CollectiveAlgorithm::RING), 112000u, "ring total");

        // Double binary tree: halves of 4000. Tree 0: 0 - 4; 4 - 2, 6; 2 - 1, 3; 6 - 5, 7.
        // Tree 1 (mirror, rank r at place 7 - r): 7 - 3; 3 - 5, 1; 5 - 6, 4; 1 - 2, 0.
        // A rank sends its half up once and down once per child:
        //   rank 0: tree 0 root with one child 4000; tree 1 leaf 4000; = 8000.
        //   rank 4: tree 0 up + 2 children = 12000; tree 1 leaf (place 3) 4000; = 16000.
        //   rank 1: tree 0 leaf 4000; tree 1 place 6 (parent 4, children 5, 7) 12000; = 16000.
        //   rank 7: tree 0 leaf 4000; tree 1 root (place 0) with one child 4000; = 8000.
        // Every edge carries 4000 each way: 2 trees x 7 edges x 2 x 4000 = 112000.
        struct RankBytes
        {
            uint32_t rank;   //!< the rank
            bool received;   //!< bytes received (else sent)
            uint64_t bytes;  //!< how many
            const char* why; //!< the check
        };

        const RankBytes treeBytes[] = {{0, false, 8000, "tree 0"},
                                       {4, false, 16000, "tree 4"},
                                       {4, true, 16000, "tree 4 received"},
                                       {1, false, 16000, "tree 1"},
                                       {7, false, 8000, "tree 7"}};
        for (const RankBytes& e : treeBytes)
        {
            RankVolume v = run(CollectiveAlgorithm::DOUBLE_BINARY_TREE, e.rank);
            NS_TEST_ASSERT_MSG_EQ((e.received ? v.bytesReceived : v.bytesSent), e.bytes, e.why);
        }
        NS_TEST_ASSERT_MSG_EQ(total(CollectiveAlgorithm::DOUBLE_BINARY_TREE),
                              112000u,
                              "tree total");
        // Depth 3. In tree 0 rank 4 is at depth 1: it sends up to 0 at step 3 - 1 = 2 and down
        // to 2 and 6 at step 3 + 1 = 4. In tree 1 it is at place 3, a leaf at depth 3 under
        // place 2 (rank 5): it sends up at step 0 and nothing else. Rank 4 thus sends to 5 at
        // step 0, 0 at step 2, 2 and 6 at step 4.
        RankVolume tree4 =
            Volume(CollectiveKind::ALL_REDUCE, CollectiveAlgorithm::DOUBLE_BINARY_TREE, n, s, 4);
        const std::vector<std::pair<uint32_t, uint32_t>> tree4Sends = {{5, 0},
                                                                       {0, 2},
                                                                       {2, 4},
                                                                       {6, 4}};
        NS_TEST_ASSERT_MSG_EQ(tree4.sends.size(), tree4Sends.size(), "rank 4 transfers");
        for (std::size_t i = 0; i < tree4Sends.size() && i < tree4.sends.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(tree4.sends[i].peer, tree4Sends[i].first, "tree peer " << i);
            NS_TEST_ASSERT_MSG_EQ(tree4.sends[i].step, tree4Sends[i].second, "tree step " << i);
            NS_TEST_ASSERT_MSG_EQ(tree4.sends[i].bytes, 4000u, "tree bytes " << i);
        }

        // Recursive doubling: 3 exchanges of the whole 8000: 24000 per rank.
        NS_TEST_ASSERT_MSG_EQ(run(CollectiveAlgorithm::RECURSIVE_DOUBLING, 3).bytesSent,
                              24000u,
                              "recursive doubling");

        // Halving-doubling, rank 0: reduce-scatter sends chunks [4, 8) = 4000 to 4, [2, 4) =
        // 2000 to 2, [1, 2) = 1000 to 1; all-gather sends [0, 1) = 1000 to 1, [0, 2) = 2000 to 2,
        // [0, 4) = 4000 to 4: 14000 = 2(n-1)/n S in 6 steps.
        RankVolume hd = run(CollectiveAlgorithm::HALVING_DOUBLING, 0);
        NS_TEST_ASSERT_MSG_EQ(hd.bytesSent, 14000u, "halving-doubling");
        const std::vector<std::pair<uint32_t, uint64_t>> hdSends =
            {{4, 4000}, {2, 2000}, {1, 1000}, {1, 1000}, {2, 2000}, {4, 4000}};
        NS_TEST_ASSERT_MSG_EQ(hd.sends.size(), hdSends.size(), "halving-doubling transfers");
        for (std::size_t i = 0; i < hdSends.size() && i < hd.sends.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(hd.sends[i].peer, hdSends[i].first, "peer " << i);
            NS_TEST_ASSERT_MSG_EQ(hd.sends[i].bytes, hdSends[i].second, "bytes " << i);
            NS_TEST_ASSERT_MSG_EQ(hd.sends[i].step, i, "step " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(total(CollectiveAlgorithm::HALVING_DOUBLING),
                              112000u,
                              "halving-doubling total");
    }
};

/**
 * @ingroup llm-fabric-tests
 * All-to-all, all-gather, reduce-scatter, send/recv and broadcast volumes derived by hand.
 */
class CollectiveVolumeOtherKindsTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CollectiveVolumeOtherKindsTestCase()
        : TestCase("All-to-all, all-gather, reduce-scatter, send-recv and broadcast")
    {
    }

  private:
    void DoRun() override
    {
        // All-to-all, n = 4, S = 4000 per-rank send buffer: chunks of 1000; each rank sends 3 x
        // 1000 (its own chunk stays) and receives 1000 from each of the 3 others.
        for (uint32_t rank = 0; rank < 4; ++rank)
        {
            RankVolume direct =
                Volume(CollectiveKind::ALL_TO_ALL, CollectiveAlgorithm::DIRECT, 4, 4000, rank);
            NS_TEST_ASSERT_MSG_EQ(direct.bytesSent, 3000u, "direct sent");
            NS_TEST_ASSERT_MSG_EQ(direct.bytesReceived, 3000u, "direct received");
            NS_TEST_ASSERT_MSG_EQ(direct.sends.size(), 3u, "three transfers");
            NS_TEST_ASSERT_MSG_EQ(direct.steps, 1u, "one step");
            for (const auto& t : direct.sends)
            {
                NS_TEST_ASSERT_MSG_EQ(t.bytes, 1000u, "1000 each");
                NS_TEST_ASSERT_MSG_EQ(t.step, 0u, "all at step 0");
            }
            RankVolume staggered =
                Volume(CollectiveKind::ALL_TO_ALL, CollectiveAlgorithm::STAGGERED, 4, 4000, rank);
            NS_TEST_ASSERT_MSG_EQ(staggered.bytesSent, 3000u, "staggered sent");
            NS_TEST_ASSERT_MSG_EQ(staggered.steps, 3u, "three steps");
            for (uint32_t k = 0; k < 3 && k < staggered.sends.size(); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(staggered.sends[k].peer, (rank + k + 1) % 4, "peer");
                NS_TEST_ASSERT_MSG_EQ(staggered.sends[k].step, k, "step");
            }
        }
        // All-to-all, n = 4, S = 10: chunks 3, 3, 2, 2. Rank 0 sends c(1) + c(2) + c(3) = 7 and
        // receives c(0) = 3 from each of 3 ranks = 9.
        RankVolume uneven =
            Volume(CollectiveKind::ALL_TO_ALL, CollectiveAlgorithm::DIRECT, 4, 10, 0);
        NS_TEST_ASSERT_MSG_EQ(uneven.bytesSent, 7u, "uneven sent");
        NS_TEST_ASSERT_MSG_EQ(uneven.bytesReceived, 9u, "uneven received");

        // All-gather, n = 4, S = 4000 gathered output: each rank owns 1000 and receives 3000;
        // ring sends 3 x 1000 in 3 steps, recursive doubling 1000 + 2000 in 2 steps, direct
        // 3 x 1000 in 1 step.
        RankVolume ring = Volume(CollectiveKind::ALL_GATHER, CollectiveAlgorithm::RING, 4, 4000, 2);
        NS_TEST_ASSERT_MSG_EQ(ring.bytesSent, 3000u, "all-gather ring");
        NS_TEST_ASSERT_MSG_EQ(ring.steps, 3u, "all-gather ring steps");
        RankVolume rd =
            Volume(CollectiveKind::ALL_GATHER, CollectiveAlgorithm::RECURSIVE_DOUBLING, 4, 4000, 2);
        NS_TEST_ASSERT_MSG_EQ(rd.bytesSent, 3000u, "all-gather recursive doubling");
        NS_TEST_ASSERT_MSG_EQ(rd.steps, 2u, "all-gather recursive doubling steps");
        NS_TEST_ASSERT_MSG_EQ(rd.sends.back().bytes, 2000u, "second step sends two chunks");
        RankVolume ag = Volume(CollectiveKind::ALL_GATHER, CollectiveAlgorithm::DIRECT, 4, 4000, 2);
        NS_TEST_ASSERT_MSG_EQ(ag.bytesReceived, 3000u, "all-gather direct");

        // Reduce-scatter, n = 4, S = 4000 input: each rank sends 3000 with every algorithm.
        for (CollectiveAlgorithm algorithm : {CollectiveAlgorithm::RING,
                                              CollectiveAlgorithm::HALVING_DOUBLING,
                                              CollectiveAlgorithm::DIRECT})
        {
            NS_TEST_ASSERT_MSG_EQ(
                Volume(CollectiveKind::REDUCE_SCATTER, algorithm, 4, 4000, 1).bytesSent,
                3000u,
                "reduce-scatter " << CollectiveVolume::GetAlgorithmName(algorithm));
        }

        // Send/recv: one transfer of S from rank 0 to rank 1.
        RankVolume sender =
            Volume(CollectiveKind::SEND_RECV, CollectiveAlgorithm::DIRECT, 2, 777, 0);
        NS_TEST_ASSERT_MSG_EQ(sender.sends.size(), 1u, "one transfer");
        NS_TEST_ASSERT_MSG_EQ(sender.sends.front().peer, 1u, "to rank 1");
        NS_TEST_ASSERT_MSG_EQ(sender.bytesSent, 777u, "of S");
        RankVolume receiver =
            Volume(CollectiveKind::SEND_RECV, CollectiveAlgorithm::DIRECT, 2, 777, 1);
        NS_TEST_ASSERT_MSG_EQ(receiver.bytesReceived, 777u, "received");
        NS_TEST_ASSERT_MSG_EQ(receiver.bytesSent, 0u, "rank 1 sends nothing");

        // Broadcast, n = 5, S = 100. Naive: rank 0 sends 4 x 100 in 4 steps. Ring (chain):
        // ranks 0..3 send 100 each, rank 4 nothing. Binomial: steps 0: 0 -> 1; 1: 0 -> 2,
        // 1 -> 3; 2: 0 -> 4; so rank 0 sends 300, rank 1 100, rank 2 nothing; 3 steps.
        NS_TEST_ASSERT_MSG_EQ(
            Volume(CollectiveKind::BROADCAST, CollectiveAlgorithm::NAIVE, 5, 100, 0).bytesSent,
            400u,
            "naive broadcast");
        NS_TEST_ASSERT_MSG_EQ(
            Volume(CollectiveKind::BROADCAST, CollectiveAlgorithm::RING, 5, 100, 3).bytesSent,
            100u,
            "chain broadcast");
        NS_TEST_ASSERT_MSG_EQ(
            Volume(CollectiveKind::BROADCAST, CollectiveAlgorithm::RING, 5, 100, 4).bytesSent,
            0u,
            "chain end");
        RankVolume b0 =
            Volume(CollectiveKind::BROADCAST, CollectiveAlgorithm::RECURSIVE_DOUBLING, 5, 100, 0);
        NS_TEST_ASSERT_MSG_EQ(b0.bytesSent, 300u, "binomial root");
        NS_TEST_ASSERT_MSG_EQ(b0.steps, 3u, "binomial steps");
        NS_TEST_ASSERT_MSG_EQ(
            Volume(CollectiveKind::BROADCAST, CollectiveAlgorithm::RECURSIVE_DOUBLING, 5, 100, 1)
                .bytesSent,
            100u,
            "binomial rank 1");
        NS_TEST_ASSERT_MSG_EQ(
            Volume(CollectiveKind::BROADCAST, CollectiveAlgorithm::RECURSIVE_DOUBLING, 5, 100, 2)
                .bytesSent,
            0u,
            "binomial rank 2");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Hierarchical all-reduce on 2 servers of 4 ranks, and the intra/inter classification of a flat
 * ring on the same servers.
 */
class CollectiveVolumeHierarchicalTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CollectiveVolumeHierarchicalTestCase()
        : TestCase("Hierarchical all-reduce, 2 servers of 4 ranks")
    {
    }

  private:
    void DoRun() override
    {
        // n = 8, L = 4, m = 2, S = 8000. In the server: ring reduce-scatter 3 x 2000 = 6000 and
        // ring all-gather 6000: 12000 intra-server per rank. Across servers, each rank all-reduces
        // its 2000-byte chunk with one peer: ring of 2 in chunks of 1000, 1000 + 1000 = 2000
        // inter-server. Steps 2(L-1) + 2(m-1) = 6 + 2 = 8. The flat ring also sends 14000 but its
        // inter-server share depends on the rank.
        for (uint32_t rank = 0; rank < 8; ++rank)
        {
            RankVolume v = Volume(CollectiveKind::ALL_REDUCE,
                                  CollectiveAlgorithm::HIERARCHICAL,
                                  8,
                                  8000,
                                  rank,
                                  4);
            NS_TEST_ASSERT_MSG_EQ(v.intraBytesSent, 12000u, "intra sent, rank " << rank);
            NS_TEST_ASSERT_MSG_EQ(v.interBytesSent, 2000u, "inter sent, rank " << rank);
            NS_TEST_ASSERT_MSG_EQ(v.intraBytesReceived, 12000u, "intra received, rank " << rank);
            NS_TEST_ASSERT_MSG_EQ(v.interBytesReceived, 2000u, "inter received, rank " << rank);
            NS_TEST_ASSERT_MSG_EQ(v.bytesSent, 14000u, "total, rank " << rank);
            NS_TEST_ASSERT_MSG_EQ(v.steps, 8u, "steps");
        }
        // Rank 5 (server 1, local index 1): its rail peer is rank 1; it sends chunk 0 of its
        // 2000 bytes (1000) at step 3 (after the 3 reduce-scatter steps) and chunk 1 at step 4.
        RankVolume r5 =
            Volume(CollectiveKind::ALL_REDUCE, CollectiveAlgorithm::HIERARCHICAL, 8, 8000, 5, 4);
        std::vector<CollectiveTransfer> inter;
        for (const auto& t : r5.sends)
        {
            if (t.peer / 4 != 1)
            {
                inter.push_back(t);
            }
        }
        NS_TEST_ASSERT_MSG_EQ(inter.size(), 2u, "two inter-server sends");
        for (uint32_t i = 0; i < 2 && i < inter.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(inter[i].peer, 1u, "rail peer");
            NS_TEST_ASSERT_MSG_EQ(inter[i].bytes, 1000u, "half of the rail chunk");
            NS_TEST_ASSERT_MSG_EQ(inter[i].step, 3u + i, "rail steps");
        }

        // Flat ring on the same servers: rank 3 sends everything to rank 4 (other server):
        // 14000 inter; rank 0 sends everything to rank 1: 14000 intra.
        RankVolume flat3 =
            Volume(CollectiveKind::ALL_REDUCE, CollectiveAlgorithm::RING, 8, 8000, 3, 4);
        NS_TEST_ASSERT_MSG_EQ(flat3.interBytesSent, 14000u, "flat ring rank 3");
        RankVolume flat0 =
            Volume(CollectiveKind::ALL_REDUCE, CollectiveAlgorithm::RING, 8, 8000, 0, 4);
        NS_TEST_ASSERT_MSG_EQ(flat0.intraBytesSent, 14000u, "flat ring rank 0");
        // With the default localSize of 1 everything is inter-server.
        RankVolume lone = Volume(CollectiveKind::ALL_REDUCE, CollectiveAlgorithm::RING, 8, 8000, 0);
        NS_TEST_ASSERT_MSG_EQ(lone.interBytesSent, 14000u, "localSize 1");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Invalid combinations are refused with messages naming the values, and names round-trip.
 */
class CollectiveVolumeInvalidTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CollectiveVolumeInvalidTestCase()
        : TestCase("Invalid combinations and names")
    {
    }

  private:
    void DoRun() override
    {
        auto error = [](CollectiveKind kind,
                        CollectiveAlgorithm algorithm,
                        uint32_t n,
                        uint64_t bytes,
                        uint32_t rank,
                        uint32_t localSize) {
            RankVolume v;
            v.steps = 99;
            std::string message =
                CollectiveVolume::Compute(kind, algorithm, n, bytes, rank, v, localSize);
            NS_ABORT_MSG_IF(!message.empty() && (v.steps != 0 || !v.sends.empty()),
                            "out is cleared on error");
            return message;
        };
        using K = CollectiveKind;
        using A = CollectiveAlgorithm;
        std::string m = error(K::ALL_REDUCE, A::RING, 0, 100, 0, 1);
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "n = 0"), true, m);
        m = error(K::ALL_REDUCE, A::RING, 4, 100, 4, 1);
        NS_TEST_ASSERT_MSG_EQ((Contains(m, "rank 4") && Contains(m, "n = 4")), true, m);
        m = error(K::ALL_REDUCE, A::HALVING_DOUBLING, 6, 100, 0, 1);
        NS_TEST_ASSERT_MSG_EQ((Contains(m, "halving-doubling") && Contains(m, "n = 6") &&
                               Contains(m, "power-of-two")),
                              true,
                              m);
        m = error(K::ALL_REDUCE, A::RECURSIVE_DOUBLING, 12, 100, 0, 1);
        NS_TEST_ASSERT_MSG_EQ((Contains(m, "recursive-doubling") && Contains(m, "n = 12")),
                              true,
                              m);
        m = error(K::ALL_GATHER, A::RECURSIVE_DOUBLING, 3, 100, 0, 1);
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "n = 3"), true, m);
        m = error(K::BROADCAST, A::DOUBLE_BINARY_TREE, 4, 100, 0, 1);
        NS_TEST_ASSERT_MSG_EQ((Contains(m, "double-binary-tree") && Contains(m, "broadcast") &&
                               Contains(m, "supported: naive, ring, recursive-doubling")),
                              true,
                              m);
        m = error(K::ALL_TO_ALL, A::RING, 4, 100, 0, 1);
        NS_TEST_ASSERT_MSG_EQ((Contains(m, "'ring'") && Contains(m, "all-to-all")), true, m);
        m = error(K::SEND_RECV, A::DIRECT, 3, 100, 0, 1);
        NS_TEST_ASSERT_MSG_EQ((Contains(m, "send-recv") && Contains(m, "n = 3")), true, m);
        m = error(K::ALL_REDUCE, A::HIERARCHICAL, 8, 100, 0, 3);
        NS_TEST_ASSERT_MSG_EQ((Contains(m, "n = 8") && Contains(m, "localSize = 3")), true, m);
        m = error(K::ALL_REDUCE, A::RING, 8, 100, 0, 0);
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "localSize = 0"), true, m);
        m = error(K::ALL_REDUCE, A::NAIVE, 8, UINT64_MAX / 4, 0, 1);
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "too large"), true, m);

        // Every combination outside SUPPORTED is refused, for n = 4.
        for (const auto& [kind, algorithms] : SUPPORTED)
        {
            for (CollectiveAlgorithm algorithm : ALL_ALGORITHMS)
            {
                bool supported =
                    std::find(algorithms.begin(), algorithms.end(), algorithm) != algorithms.end();
                uint32_t n = kind == K::SEND_RECV ? 2 : 4;
                m = error(kind, algorithm, n, 100, 0, 1);
                NS_TEST_ASSERT_MSG_EQ(m.empty(),
                                      supported,
                                      GetCollectiveKindName(kind)
                                          << " " << CollectiveVolume::GetAlgorithmName(algorithm));
            }
        }

        // Names round-trip; unknown names list the known ones.
        for (const auto& [kind, algorithms] : SUPPORTED)
        {
            CollectiveKind parsed = K::BROADCAST;
            NS_TEST_ASSERT_MSG_EQ(ParseCollectiveKind(GetCollectiveKindName(kind), parsed),
                                  "",
                                  "kind name");
            NS_TEST_ASSERT_MSG_EQ((parsed == kind), true, "kind round trip");
        }
        for (CollectiveAlgorithm algorithm : ALL_ALGORITHMS)
        {
            CollectiveAlgorithm parsed = A::NAIVE;
            NS_TEST_ASSERT_MSG_EQ(
                CollectiveVolume::ParseAlgorithm(CollectiveVolume::GetAlgorithmName(algorithm),
                                                 parsed),
                "",
                "algorithm name");
            NS_TEST_ASSERT_MSG_EQ((parsed == algorithm), true, "algorithm round trip");
        }
        NS_TEST_ASSERT_MSG_EQ(CollectiveVolume::GetAlgorithmName(A::DOUBLE_BINARY_TREE),
                              "double-binary-tree",
                              "spelling");
        CollectiveAlgorithm unchanged = A::STAGGERED;
        m = CollectiveVolume::ParseAlgorithm("tree", unchanged);
        NS_TEST_ASSERT_MSG_EQ((Contains(m, "'tree'") && Contains(m, "double-binary-tree")),
                              true,
                              m);
        NS_TEST_ASSERT_MSG_EQ((unchanged == A::STAGGERED), true, "unchanged on error");
        CollectiveKind kind = K::ALL_REDUCE;
        m = ParseCollectiveKind("allreduce", kind);
        NS_TEST_ASSERT_MSG_EQ((Contains(m, "'allreduce'") && Contains(m, "all-reduce")), true, m);
    }
};

/**
 * @ingroup llm-fabric-tests
 * The collective volume test suite.
 */
class CollectiveVolumeTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    CollectiveVolumeTestSuite()
        : TestSuite("llm-fabric-collective-volume", Type::UNIT)
    {
        AddTestCase(new CollectiveVolumeChunkTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CollectiveVolumeRingTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CollectiveVolumeConservationTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CollectiveVolumeStepsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CollectiveVolumeAllReduceTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CollectiveVolumeOtherKindsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CollectiveVolumeHierarchicalTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CollectiveVolumeInvalidTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static CollectiveVolumeTestSuite g_collectiveVolumeTestSuite;

} // namespace tests
} // namespace llmfabric

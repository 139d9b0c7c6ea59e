/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/group-partition.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

#include <cstdint>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of GroupPartition: groups indexed once for all ranks, and groups that do not partition
 * the ranks refused. Expected indices and positions are derived by hand in the comments.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * Nine ranks in strided groups {r mod 3 + 3 i}: every rank's group and position, one shared
 * member list per group.
 */
class GroupPartitionStridedTestCase : public TestCase
{
  public:
    /** Create the test case. */
    GroupPartitionStridedTestCase()
        : TestCase("Strided groups of 9 ranks: group, position and shared members of each rank")
    {
    }

  private:
    void DoRun() override
    {
        // The group of r is {r mod 3, r mod 3 + 3, r mod 3 + 6}. Build asks ranks 0, 1 and 2 (the
        // smallest ranks in no group yet), so group 0 is {0, 3, 6}, 1 is {1, 4, 7}, 2 is
        // {2, 5, 8}; rank r is in group r mod 3 at position r / 3.
        uint32_t calls = 0;
        GroupPartition partition;
        bool ok = partition.Build(9, [&calls](uint32_t rank) {
            ++calls;
            const uint32_t first = rank % 3;
            return std::vector<uint32_t>{first, first + 3, first + 6};
        });
        NS_TEST_ASSERT_MSG_EQ(ok, true, "strided groups partition 9 ranks");
        NS_TEST_EXPECT_MSG_EQ(calls, 3u, "one call per group, not per rank");
        NS_TEST_EXPECT_MSG_EQ(partition.GetRankCount(), 9u, "ranks");
        NS_TEST_ASSERT_MSG_EQ(partition.GetGroupCount(), 3u, "groups");
        for (uint32_t rank = 0; rank < 9; ++rank)
        {
            NS_TEST_EXPECT_MSG_EQ(partition.GetGroup(rank), rank % 3, "group of " << rank);
            NS_TEST_EXPECT_MSG_EQ(partition.GetPosition(rank), rank / 3, "position of " << rank);
        }
        NS_TEST_EXPECT_MSG_EQ((*partition.GetMembers(1) == std::vector<uint32_t>{1, 4, 7}),
                              true,
                              "members of group 1");
        // Ranks 1 and 7 look up the one stored list of their group.
        NS_TEST_EXPECT_MSG_EQ(partition.GetMembers(partition.GetGroup(1)).get(),
                              partition.GetMembers(partition.GetGroup(7)).get(),
                              "one list per group");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Group functions that do not partition the ranks are refused, and Add refuses a rank out of
 * range, repeated, or already in a group, leaving the partition as it was.
 */
class GroupPartitionRefusalTestCase : public TestCase
{
  public:
    /** Create the test case. */
    GroupPartitionRefusalTestCase()
        : TestCase("Overlapping groups, a group without its rank, and bad Adds are refused")
    {
    }

  private:
    void DoRun() override
    {
        GroupPartition partition;
        // Overlap: the group of r is {r, r + 2 mod 4, r + 1 mod 4}. Rank 0 gives {0, 2, 1}; ranks
        // 1 and 2 are then placed, and rank 3 gives {3, 1, 0}, which holds the placed rank 1.
        bool ok = partition.Build(4, [](uint32_t rank) {
            return std::vector<uint32_t>{rank, (rank + 2) % 4, (rank + 1) % 4};
        });
        NS_TEST_EXPECT_MSG_EQ(ok, false, "rank 3's group overlaps rank 0's");
        NS_TEST_EXPECT_MSG_EQ(partition.GetRankCount(), 0u, "reset after a refusal");

        // The group of r does not hold r: {r + 1 mod 4}.
        ok =
            partition.Build(4, [](uint32_t rank) { return std::vector<uint32_t>{(rank + 1) % 4}; });
        NS_TEST_EXPECT_MSG_EQ(ok, false, "rank 0's group does not hold rank 0");
        NS_TEST_EXPECT_MSG_EQ(partition.GetRankCount(), 0u, "reset after a refusal");

        // Add, on 4 ranks: {0, 1} is group 0; then out of range, repeated and taken ranks are
        // refused, and each refusal leaves ranks 2 and 3 in no group.
        partition.Reset(4);
        NS_TEST_EXPECT_MSG_EQ(partition.Add({0, 1}), 0u, "first group");
        NS_TEST_EXPECT_MSG_EQ(partition.Add({2, 4}), GroupPartition::NONE, "rank 4 of 4");
        NS_TEST_EXPECT_MSG_EQ(partition.Add({2, 3, 2}), GroupPartition::NONE, "rank 2 twice");
        NS_TEST_EXPECT_MSG_EQ(partition.Add({2, 1}), GroupPartition::NONE, "rank 1 taken");
        NS_TEST_EXPECT_MSG_EQ(partition.GetGroupCount(), 1u, "nothing added");
        NS_TEST_EXPECT_MSG_EQ(partition.GetGroup(2), GroupPartition::NONE, "rank 2 undone");
        NS_TEST_EXPECT_MSG_EQ(partition.GetGroup(3), GroupPartition::NONE, "rank 3 undone");
        NS_TEST_EXPECT_MSG_EQ(partition.GetGroup(1), 0u, "rank 1 kept");
        NS_TEST_EXPECT_MSG_EQ(partition.Add({3, 2}), 1u, "then {3, 2} fits");
        NS_TEST_EXPECT_MSG_EQ(partition.GetPosition(2), 1u, "rank 2 second in {3, 2}");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The group partition test suite.
 */
class GroupPartitionTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    GroupPartitionTestSuite()
        : TestSuite("llm-fabric-group-partition", Type::UNIT)
    {
        AddTestCase(new GroupPartitionStridedTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new GroupPartitionRefusalTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static GroupPartitionTestSuite g_groupPartitionTestSuite;

} // namespace tests
} // namespace llmfabric

/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GROUP_PARTITION_H
#define GROUP_PARTITION_H

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * Communication groups of one kind over ranks [0, n), each group stored once and shared: for
 * every rank, the index of its group and its position in it. Built group by group, so indexing
 * all the groups of a kind costs one pass over the ranks instead of one group per rank (what a
 * per-rank ParallelLayout::GetGroup costs, O(group size) each).
 *
 * A rank is in at most one group: Add refuses a group that would put a rank in two (or twice in
 * one), and Build checks that the groups a function gives really partition the ranks, so that a
 * caller may rely on "the group of a rank" being the group that function gives for it.
 */
class GroupPartition
{
  public:
    /// The members of a group, in group order, shared by all who use the group.
    using Members = std::shared_ptr<const std::vector<uint32_t>>;
    /// A function giving the group of a rank (its members in group order).
    using GroupFunction = std::function<std::vector<uint32_t>(uint32_t rank)>;

    /// Index of no group (a rank in none yet), or of a refused Add.
    static constexpr uint32_t NONE = UINT32_MAX;

    GroupPartition();

    /**
     * Start over: ranks [0, ranks), no group.
     * @param ranks the number of ranks.
     */
    void Reset(uint32_t ranks);

    /**
     * Add a group.
     * @param members its ranks, in group order.
     * @return the index of the new group, or NONE (and nothing added) if a member is not below
     * GetRankCount(), is already in a group, or is repeated.
     */
    uint32_t Add(std::vector<uint32_t> members);

    /**
     * Reset(ranks), then, for every rank in no group yet, in ascending order, Add groupOf(rank).
     * @param ranks the number of ranks.
     * @param groupOf the group function.
     * @return true if those groups partition the ranks (every group is accepted by Add and holds
     * the rank it was asked for); else false, and the partition is Reset(0).
     */
    bool Build(uint32_t ranks, const GroupFunction& groupOf);

    /** @return the number of ranks. */
    uint32_t GetRankCount() const;

    /** @return the number of groups. */
    uint32_t GetGroupCount() const;

    /**
     * @param rank a rank below GetRankCount().
     * @return the index of its group, or NONE.
     */
    uint32_t GetGroup(uint32_t rank) const;

    /**
     * @param rank a rank in a group.
     * @return its index in the group's members.
     */
    uint32_t GetPosition(uint32_t rank) const;

    /**
     * @param group a group index below GetGroupCount().
     * @return its members.
     */
    const Members& GetMembers(uint32_t group) const;

  private:
    std::vector<uint32_t> m_groupOf;    //!< Per rank, its group (NONE: none).
    std::vector<uint32_t> m_positionOf; //!< Per rank, its index in its group.
    std::vector<Members> m_groups;      //!< The groups.
};

} // namespace ns3

#endif /* GROUP_PARTITION_H */

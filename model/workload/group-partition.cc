/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "group-partition.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GroupPartition");

GroupPartition::GroupPartition()
{
    NS_LOG_FUNCTION(this);
}

void
GroupPartition::Reset(uint32_t ranks)
{
    NS_LOG_FUNCTION(this << ranks);
    m_groupOf.assign(ranks, NONE);
    m_positionOf.assign(ranks, 0);
    m_groups.clear();
}

uint32_t
GroupPartition::Add(std::vector<uint32_t> members)
{
    NS_LOG_FUNCTION(this << members.size());
    const auto group = static_cast<uint32_t>(m_groups.size());
    const auto ranks = static_cast<uint32_t>(m_groupOf.size());
    for (std::size_t i = 0; i < members.size(); ++i)
    {
        const uint32_t member = members[i];
        if (member >= ranks || m_groupOf[member] != NONE)
        {
            // Out of range, in another group, or repeated: undo this group's members.
            NS_LOG_LOGIC("rank " << member << " cannot join group " << group);
            for (std::size_t j = 0; j < i; ++j)
            {
                m_groupOf[members[j]] = NONE;
            }
            return NONE;
        }
        m_groupOf[member] = group;
        m_positionOf[member] = static_cast<uint32_t>(i);
    }
    m_groups.push_back(std::make_shared<const std::vector<uint32_t>>(std::move(members)));
    return group;
}

bool
GroupPartition::Build(uint32_t ranks, const GroupFunction& groupOf)
{
    NS_LOG_FUNCTION(this << ranks);
    Reset(ranks);
    for (uint32_t rank = 0; rank < ranks; ++rank)
    {
        if (m_groupOf[rank] != NONE)
        {
            continue;
        }
        const uint32_t group = Add(groupOf(rank));
        if (group == NONE || m_groupOf[rank] != group)
        {
            NS_LOG_LOGIC("the group of rank " << rank << " does not partition the ranks");
            Reset(0);
            return false;
        }
    }
    return true;
}

uint32_t
GroupPartition::GetRankCount() const
{
    return static_cast<uint32_t>(m_groupOf.size());
}

uint32_t
GroupPartition::GetGroupCount() const
{
    return static_cast<uint32_t>(m_groups.size());
}

uint32_t
GroupPartition::GetGroup(uint32_t rank) const
{
    NS_ABORT_MSG_IF(rank >= m_groupOf.size(),
                    "GroupPartition: rank " << rank << " out of " << m_groupOf.size());
    return m_groupOf[rank];
}

uint32_t
GroupPartition::GetPosition(uint32_t rank) const
{
    NS_ABORT_MSG_IF(GetGroup(rank) == NONE, "GroupPartition: rank " << rank << " in no group");
    return m_positionOf[rank];
}

const GroupPartition::Members&
GroupPartition::GetMembers(uint32_t group) const
{
    NS_ABORT_MSG_IF(group >= m_groups.size(),
                    "GroupPartition: group " << group << " out of " << m_groups.size());
    return m_groups[group];
}

} // namespace ns3

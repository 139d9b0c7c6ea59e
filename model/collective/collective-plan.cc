/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-plan.h"

#include "collective-strategy.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectivePlan");

namespace
{

/**
 * Print a list of ids as "{a, b, c}".
 * @param os the stream.
 * @param ids the ids.
 */
void
PrintIds(std::ostream& os, const std::vector<uint32_t>& ids)
{
    os << "{";
    for (std::size_t i = 0; i < ids.size(); ++i)
    {
        os << (i == 0 ? "" : ", ") << ids[i];
    }
    os << "}";
}

} // namespace

std::ostream&
operator<<(std::ostream& os, const CollectiveTransferSpec& transfer)
{
    os << "#" << transfer.id << " " << transfer.src << "->" << transfer.dst << " ["
       << transfer.offset << "," << transfer.offset + transfer.bytes << ") step " << transfer.step
       << " ch " << transfer.channel << (transfer.reduce ? " reduce" : " store") << " deps ";
    PrintIds(os, transfer.deps);
    if (!transfer.applyAfter.empty())
    {
        os << " applyAfter ";
        PrintIds(os, transfer.applyAfter);
    }
    return os;
}

CollectivePlan::CollectivePlan()
    : CollectivePlan(CollectiveKind::ALL_REDUCE, CollectiveStrategy::GetTypeId(), 1, 0, 1, 1)
{
}

CollectivePlan::CollectivePlan(CollectiveKind kind,
                               TypeId algorithm,
                               uint32_t n,
                               uint64_t bytes,
                               uint32_t channels,
                               uint32_t localSize)
    : m_kind(kind),
      m_algorithm(algorithm),
      m_n(n),
      m_bytes(bytes),
      m_channels(channels),
      m_localSize(localSize),
      m_steps(0),
      m_sends(n),
      m_receives(n)
{
}

CollectiveKind
CollectivePlan::GetKind() const
{
    return m_kind;
}

TypeId
CollectivePlan::GetAlgorithm() const
{
    return m_algorithm;
}

uint32_t
CollectivePlan::GetGroupSize() const
{
    return m_n;
}

uint64_t
CollectivePlan::GetBytes() const
{
    return m_bytes;
}

uint32_t
CollectivePlan::GetChannels() const
{
    return m_channels;
}

uint32_t
CollectivePlan::GetLocalSize() const
{
    return m_localSize;
}

uint32_t
CollectivePlan::GetSteps() const
{
    return m_steps;
}

void
CollectivePlan::SetSteps(uint32_t steps)
{
    m_steps = steps;
}

void
CollectivePlan::SetTransfers(std::vector<CollectiveTransferSpec> transfers)
{
    NS_LOG_FUNCTION(this << transfers.size());
    m_transfers = std::move(transfers);
    IndexTransfers();
}

const std::vector<CollectiveTransferSpec>&
CollectivePlan::GetTransfers() const
{
    return m_transfers;
}

const CollectiveTransferSpec&
CollectivePlan::GetTransfer(uint32_t id) const
{
    NS_ABORT_MSG_IF(id >= m_transfers.size(),
                    "transfer id " << id << " is not less than the " << m_transfers.size()
                                   << " transfers of the plan");
    return m_transfers[id];
}

void
CollectivePlan::IndexTransfers()
{
    m_sends.assign(m_n, {});
    m_receives.assign(m_n, {});
    for (std::size_t i = 0; i < m_transfers.size(); ++i)
    {
        const CollectiveTransferSpec& transfer = m_transfers[i];
        if (transfer.src < m_n)
        {
            m_sends[transfer.src].push_back(static_cast<uint32_t>(i));
        }
        if (transfer.dst < m_n)
        {
            m_receives[transfer.dst].push_back(static_cast<uint32_t>(i));
        }
    }
}

std::vector<uint32_t>
CollectivePlan::SendsOf(uint32_t rank) const
{
    return rank < m_n ? m_sends[rank] : std::vector<uint32_t>();
}

std::vector<uint32_t>
CollectivePlan::ReceivesOf(uint32_t rank) const
{
    return rank < m_n ? m_receives[rank] : std::vector<uint32_t>();
}

uint64_t
CollectivePlan::BytesSent(uint32_t rank) const
{
    uint64_t sum = 0;
    if (rank < m_n)
    {
        for (uint32_t id : m_sends[rank])
        {
            sum += m_transfers[id].bytes;
        }
    }
    return sum;
}

uint64_t
CollectivePlan::BytesReceived(uint32_t rank) const
{
    uint64_t sum = 0;
    if (rank < m_n)
    {
        for (uint32_t id : m_receives[rank])
        {
            sum += m_transfers[id].bytes;
        }
    }
    return sum;
}

std::string
CollectivePlan::Check() const
{
    NS_LOG_FUNCTION(this);
    const std::size_t count = m_transfers.size();
    for (std::size_t i = 0; i < count; ++i)
    {
        const CollectiveTransferSpec& t = m_transfers[i];
        std::ostringstream problem;
        problem << "transfer " << i << ": ";
        if (t.id != i)
        {
            problem << "its id is " << t.id << ", not its index " << i;
            return problem.str();
        }
        if (t.src >= m_n || t.dst >= m_n)
        {
            problem << "rank " << (t.src >= m_n ? t.src : t.dst)
                    << " is not less than the group size n = " << m_n;
            return problem.str();
        }
        if (t.src == t.dst)
        {
            problem << "rank " << t.src << " sends to itself";
            return problem.str();
        }
        if (t.bytes == 0)
        {
            problem << "it carries 0 bytes";
            return problem.str();
        }
        if (t.offset > m_bytes || t.bytes > m_bytes - t.offset)
        {
            problem << "its range [" << t.offset << ", " << t.offset + t.bytes
                    << ") is outside the buffer of S = " << m_bytes << " bytes";
            return problem.str();
        }
        if (t.step >= m_steps)
        {
            problem << "its step " << t.step << " is not less than the plan's " << m_steps
                    << " steps";
            return problem.str();
        }
        if (t.channel >= m_channels)
        {
            problem << "its channel " << t.channel << " is not less than the plan's " << m_channels
                    << " channels";
            return problem.str();
        }
        for (uint32_t dep : t.deps)
        {
            if (dep >= count)
            {
                problem << "dependency " << dep << " is not less than the " << count
                        << " transfers of the plan";
                return problem.str();
            }
            const CollectiveTransferSpec& d = m_transfers[dep];
            if (d.dst != t.src)
            {
                problem << "dependency " << dep << " is a transfer into rank " << d.dst
                        << ", not into the sender " << t.src;
                return problem.str();
            }
            if (d.step >= t.step)
            {
                problem << "dependency " << dep << " has step " << d.step
                        << ", not smaller than the transfer's step " << t.step;
                return problem.str();
            }
        }
        for (uint32_t read : t.applyAfter)
        {
            if (read >= count)
            {
                problem << "applyAfter entry " << read << " is not less than the " << count
                        << " transfers of the plan";
                return problem.str();
            }
            const CollectiveTransferSpec& r = m_transfers[read];
            if (r.src != t.dst)
            {
                problem << "applyAfter entry " << read << " is a transfer from rank " << r.src
                        << ", not from the receiver " << t.dst;
                return problem.str();
            }
            if (r.step > t.step)
            {
                problem << "applyAfter entry " << read << " has step " << r.step
                        << ", greater than the transfer's step " << t.step;
                return problem.str();
            }
        }
    }
    return "";
}

} // namespace ns3

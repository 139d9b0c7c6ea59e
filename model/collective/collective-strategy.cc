/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-strategy.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/type-id-alias.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <sstream>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveStrategy");

NS_OBJECT_ENSURE_REGISTERED(CollectiveStrategy);

namespace
{

/**
 * The transfers of one rank, sorted by offset, for the search of overlapping ranges.
 */
class RangeIndex
{
  public:
    /**
     * @param transfers all transfers.
     * @param ids the ids of the indexed ones.
     */
    RangeIndex(const std::vector<CollectiveTransferSpec>& transfers, std::vector<uint32_t> ids)
        : m_transfers(transfers),
          m_ids(std::move(ids)),
          m_maxBytes(0)
    {
        std::stable_sort(m_ids.begin(), m_ids.end(), [&transfers](uint32_t a, uint32_t b) {
            return transfers[a].offset < transfers[b].offset;
        });
        for (uint32_t id : m_ids)
        {
            m_maxBytes = std::max(m_maxBytes, transfers[id].bytes);
        }
    }

    /**
     * @param offset the first byte of a range.
     * @param bytes its bytes.
     * @param select a predicate on the indexed transfers.
     * @return the ids of the indexed transfers that overlap the range and satisfy the predicate,
     * ascending.
     */
    template <typename Predicate>
    std::vector<uint32_t> Overlapping(uint64_t offset, uint64_t bytes, Predicate select) const
    {
        std::vector<uint32_t> found;
        // An indexed range [o, o + b) overlaps [offset, offset + bytes) iff o < offset + bytes and
        // o + b > offset; as b <= m_maxBytes, o > offset - m_maxBytes.
        uint64_t lowest = offset >= m_maxBytes ? offset - m_maxBytes + 1 : 0;
        auto it = std::lower_bound(
            m_ids.begin(),
            m_ids.end(),
            lowest,
            [this](uint32_t id, uint64_t value) { return m_transfers[id].offset < value; });
        for (; it != m_ids.end() && m_transfers[*it].offset < offset + bytes; ++it)
        {
            const CollectiveTransferSpec& other = m_transfers[*it];
            if (other.offset + other.bytes > offset && select(other))
            {
                found.push_back(*it);
            }
        }
        std::sort(found.begin(), found.end());
        return found;
    }

  private:
    const std::vector<CollectiveTransferSpec>& m_transfers; //!< All transfers.
    std::vector<uint32_t> m_ids;                            //!< Indexed ids, by offset.
    uint64_t m_maxBytes;                                    //!< Largest indexed range.
};

} // namespace

TypeId
CollectiveStrategy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveStrategy")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddAttribute("Channels",
                          "Number of channels (queue pairs per rank pair) each transfer of the "
                          "schedule is spread over, in contiguous sub-ranges.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&CollectiveStrategy::SetChannels,
                                               &CollectiveStrategy::GetChannels),
                          MakeUintegerChecker<uint32_t>(1, MAX_CHANNELS));
    return tid;
}

CollectiveStrategy::CollectiveStrategy(std::vector<CollectiveKind> kinds,
                                       std::vector<CollectiveKind> powerOfTwoKinds)
    : m_kinds(std::move(kinds)),
      m_powerOfTwoKinds(std::move(powerOfTwoKinds)),
      m_channels(2)
{
    NS_LOG_FUNCTION(this);
}

std::vector<CollectiveKind>
CollectiveStrategy::GetSupportedKinds() const
{
    return m_kinds;
}

CollectiveStrategy::~CollectiveStrategy()
{
    NS_LOG_FUNCTION(this);
}

void
CollectiveStrategy::SetChannels(uint32_t channels)
{
    NS_LOG_FUNCTION(this << channels);
    NS_ABORT_MSG_IF(channels == 0 || channels > MAX_CHANNELS,
                    "CollectiveStrategy: Channels = " << channels << " is not in 1.."
                                                      << MAX_CHANNELS);
    m_channels = channels;
}

uint32_t
CollectiveStrategy::GetChannels() const
{
    return m_channels;
}

std::string
CollectiveStrategy::CheckSupport(CollectiveKind kind, uint32_t n, uint32_t localSize) const
{
    const std::string algorithmName = GetName();
    const std::string kindName = GetCollectiveKindName(kind);
    std::ostringstream error;
    if (n == 0)
    {
        return "the group size n = 0 must be at least 1";
    }
    if (localSize == 0 || n % localSize != 0)
    {
        error << "the group size n = " << n << " is not a multiple of localSize = " << localSize;
        return error.str();
    }
    std::vector<CollectiveKind> kinds = GetSupportedKinds();
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
    {
        error << "algorithm '" << algorithmName << "' does not implement " << kindName
              << " (it implements: ";
        for (std::size_t i = 0; i < kinds.size(); ++i)
        {
            error << (i == 0 ? "" : ", ") << GetCollectiveKindName(kinds[i]);
        }
        error << ")";
        return error.str();
    }
    if (kind == CollectiveKind::SEND_RECV && n != 2)
    {
        error << "send-recv needs a group of n = 2 ranks, got n = " << n;
        return error.str();
    }
    if (!IsPowerOfTwo(n) && std::find(m_powerOfTwoKinds.begin(), m_powerOfTwoKinds.end(), kind) !=
                                m_powerOfTwoKinds.end())
    {
        error << algorithmName << " " << kindName
              << " needs a power-of-two group size n, got n = " << n;
        return error.str();
    }
    return "";
}

std::string
CollectiveStrategy::GetName() const
{
    return TypeIdAlias::GetShortName(GetInstanceTypeId());
}

std::string
CollectiveStrategy::CheckPlan(CollectiveKind kind,
                              uint32_t n,
                              uint64_t bytes,
                              uint32_t localSize) const
{
    std::string error = CheckSupport(kind, n, localSize);
    if (!error.empty())
    {
        return error;
    }
    if (bytes > std::numeric_limits<uint64_t>::max() / std::max<uint64_t>(n, 4))
    {
        std::ostringstream message;
        message << "bytes = " << bytes << " is too large for n = " << n
                << " (per-rank totals would overflow 64 bits)";
        return message.str();
    }
    return "";
}

std::string
CollectiveStrategy::Tally(CollectiveKind kind,
                          uint32_t n,
                          uint64_t bytes,
                          uint32_t localSize,
                          CollectiveTraffic& out) const
{
    NS_LOG_FUNCTION(this << GetCollectiveKindName(kind) << n << bytes << localSize);
    out = CollectiveTraffic();
    std::string error = CheckPlan(kind, n, bytes, localSize);
    if (!error.empty())
    {
        return error;
    }
    CollectiveSchedule schedule(n, out);
    uint32_t steps = BuildSchedule({kind, n, bytes, localSize}, schedule);
    schedule.Finish();
    out.steps = steps;
    return "";
}

uint32_t
CollectiveStrategy::LocalSizeOf(const std::vector<uint32_t>& servers)
{
    auto n = static_cast<uint32_t>(servers.size());
    uint32_t local = 1;
    while (local < n && servers[local] == servers[0])
    {
        ++local;
    }
    if (n == 0 || n % local != 0)
    {
        return 1;
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (servers[i] != servers[i - i % local])
        {
            return 1;
        }
    }
    return local;
}

Ptr<CollectiveStrategy>
CollectiveStrategy::Create(TypeId tid)
{
    ObjectFactory factory;
    factory.SetTypeId(tid);
    return factory.Create<CollectiveStrategy>();
}

std::string
CollectiveStrategy::Plan(CollectiveKind kind,
                         uint32_t n,
                         uint64_t bytes,
                         uint32_t localSize,
                         CollectivePlan& out) const
{
    NS_LOG_FUNCTION(this << GetCollectiveKindName(kind) << n << bytes << localSize);
    out = CollectivePlan();
    std::string error = CheckPlan(kind, n, bytes, localSize);
    if (!error.empty())
    {
        return error;
    }

    std::vector<CollectiveTransferSpec> schedule;
    CollectiveSchedule keep(schedule);
    uint32_t steps = BuildSchedule({kind, n, bytes, localSize}, keep);
    std::stable_sort(schedule.begin(),
                     schedule.end(),
                     [](const CollectiveTransferSpec& a, const CollectiveTransferSpec& b) {
                         return std::tie(a.step, a.src, a.dst, a.offset) <
                                std::tie(b.step, b.src, b.dst, b.offset);
                     });

    // Cut every whole transfer into m_channels sub-ranges, sub-range j on channel j.
    std::vector<CollectiveTransferSpec> transfers;
    transfers.reserve(schedule.size() * m_channels);
    for (const CollectiveTransferSpec& whole : schedule)
    {
        for (uint32_t j = 0; j < m_channels; ++j)
        {
            uint64_t pieceBytes = CollectiveChunks::ChunkBytes(whole.bytes, m_channels, j);
            if (pieceBytes == 0)
            {
                continue;
            }
            if (transfers.size() >= std::numeric_limits<uint32_t>::max())
            {
                std::ostringstream message;
                message << "the plan of n = " << n << " ranks with " << m_channels
                        << " channels has more than 2^32 - 1 transfers";
                return message.str();
            }
            CollectiveTransferSpec piece = whole;
            piece.id = static_cast<uint32_t>(transfers.size());
            piece.offset =
                whole.offset + CollectiveChunks::RangeBytes(whole.bytes, m_channels, 0, j);
            piece.bytes = pieceBytes;
            piece.channel = j;
            piece.deps.clear();
            piece.applyAfter.clear();
            transfers.push_back(piece);
        }
    }
    if (kind != CollectiveKind::ALL_TO_ALL && kind != CollectiveKind::SEND_RECV)
    {
        ComputeDependencies(n, transfers);
    }

    CollectivePlan plan(kind, GetInstanceTypeId(), n, bytes, m_channels, localSize);
    plan.SetSteps(steps);
    plan.SetTransfers(std::move(transfers));
    error = plan.Check();
    if (!error.empty())
    {
        // A bug of the strategy, not of the caller's values: report it rather than abort.
        std::ostringstream message;
        message << "internal error: the " << GetName() << " plan of " << GetCollectiveKindName(kind)
                << " with n = " << n << ", S = " << bytes << " fails its check: " << error;
        NS_LOG_ERROR(message.str());
        return message.str();
    }
    NS_LOG_DEBUG("planned " << plan.GetTransfers().size() << " transfers in " << steps << " steps");
    out = std::move(plan);
    return "";
}

void
CollectiveStrategy::ComputeDependencies(uint32_t n, std::vector<CollectiveTransferSpec>& transfers)
{
    std::vector<std::vector<uint32_t>> sends(n);
    std::vector<std::vector<uint32_t>> receives(n);
    for (const CollectiveTransferSpec& t : transfers)
    {
        sends[t.src].push_back(t.id);
        receives[t.dst].push_back(t.id);
    }
    for (uint32_t rank = 0; rank < n; ++rank)
    {
        RangeIndex received(transfers, receives[rank]);
        RangeIndex sent(transfers, sends[rank]);
        for (uint32_t id : sends[rank])
        {
            const uint32_t step = transfers[id].step;
            transfers[id].deps = received.Overlapping(
                transfers[id].offset,
                transfers[id].bytes,
                [step](const CollectiveTransferSpec& other) { return other.step < step; });
        }
        for (uint32_t id : receives[rank])
        {
            const uint32_t step = transfers[id].step;
            transfers[id].applyAfter = sent.Overlapping(
                transfers[id].offset,
                transfers[id].bytes,
                [step](const CollectiveTransferSpec& other) { return other.step == step; });
        }
    }
}

void
CollectiveStrategy::AddTransfer(CollectiveSchedule& schedule,
                                uint32_t src,
                                uint32_t dst,
                                uint64_t offset,
                                uint64_t bytes,
                                uint32_t step,
                                bool reduce)
{
    schedule.Add(src, dst, offset, bytes, step, reduce);
}

uint32_t
CollectiveStrategy::CeilLog2(uint32_t n)
{
    uint32_t k = 0;
    while ((uint64_t{1} << k) < n)
    {
        ++k;
    }
    return k;
}

bool
CollectiveStrategy::IsPowerOfTwo(uint32_t n)
{
    return n != 0 && (n & (n - 1)) == 0;
}

} // namespace ns3

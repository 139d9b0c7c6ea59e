/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-strategy.h"

#include "direct-collective.h"
#include "double-binary-tree-collective.h"
#include "halving-doubling-collective.h"
#include "hierarchical-collective.h"
#include "naive-collective.h"
#include "recursive-doubling-collective.h"
#include "ring-collective.h"
#include "staggered-collective.h"

#include "ns3/abort.h"
#include "ns3/log.h"
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

CollectiveStrategy::CollectiveStrategy()
    : m_channels(2)
{
    NS_LOG_FUNCTION(this);
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
    const std::string algorithmName = CollectiveVolume::GetAlgorithmName(GetAlgorithm());
    const std::string kindName = CollectiveVolume::GetKindName(kind);
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
            error << (i == 0 ? "" : ", ") << CollectiveVolume::GetKindName(kinds[i]);
        }
        error << ")";
        return error.str();
    }
    if (kind == CollectiveKind::SEND_RECV && n != 2)
    {
        error << "send-recv needs a group of n = 2 ranks, got n = " << n;
        return error.str();
    }
    return "";
}

std::string
CollectiveStrategy::Plan(CollectiveKind kind,
                         uint32_t n,
                         uint64_t bytes,
                         uint32_t localSize,
                         CollectivePlan& out) const
{
    NS_LOG_FUNCTION(this << CollectiveVolume::GetKindName(kind) << n << bytes << localSize);
    out = CollectivePlan();
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

    std::vector<CollectiveTransferSpec> schedule;
    uint32_t steps = BuildSchedule(kind, n, bytes, localSize, schedule);
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
            uint64_t pieceBytes = CollectiveVolume::ChunkBytes(whole.bytes, m_channels, j);
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
                whole.offset + CollectiveVolume::RangeBytes(whole.bytes, m_channels, 0, j);
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

    CollectivePlan plan(kind, GetAlgorithm(), n, bytes, m_channels, localSize);
    plan.SetSteps(steps);
    plan.SetTransfers(std::move(transfers));
    error = plan.Check();
    if (!error.empty())
    {
        // A bug of the strategy, not of the caller's values: report it rather than abort.
        std::ostringstream message;
        message << "internal error: the " << CollectiveVolume::GetAlgorithmName(GetAlgorithm())
                << " plan of " << CollectiveVolume::GetKindName(kind) << " with n = " << n
                << ", S = " << bytes << " fails its check: " << error;
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
CollectiveStrategy::AddTransfer(std::vector<CollectiveTransferSpec>& schedule,
                                uint32_t src,
                                uint32_t dst,
                                uint64_t offset,
                                uint64_t bytes,
                                uint32_t step,
                                bool reduce)
{
    if (bytes == 0)
    {
        return;
    }
    CollectiveTransferSpec transfer;
    transfer.src = src;
    transfer.dst = dst;
    transfer.offset = offset;
    transfer.bytes = bytes;
    transfer.step = step;
    transfer.reduce = reduce;
    schedule.push_back(transfer);
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

Ptr<CollectiveStrategy>
CollectiveStrategy::Create(CollectiveAlgorithm algorithm)
{
    switch (algorithm)
    {
    case CollectiveAlgorithm::NAIVE:
        return CreateObject<NaiveCollective>();
    case CollectiveAlgorithm::RING:
        return CreateObject<RingCollective>();
    case CollectiveAlgorithm::DOUBLE_BINARY_TREE:
        return CreateObject<DoubleBinaryTreeCollective>();
    case CollectiveAlgorithm::RECURSIVE_DOUBLING:
        return CreateObject<RecursiveDoublingCollective>();
    case CollectiveAlgorithm::HALVING_DOUBLING:
        return CreateObject<HalvingDoublingCollective>();
    case CollectiveAlgorithm::DIRECT:
        return CreateObject<DirectCollective>();
    case CollectiveAlgorithm::STAGGERED:
        return CreateObject<StaggeredCollective>();
    case CollectiveAlgorithm::HIERARCHICAL:
        return CreateObject<HierarchicalCollective>();
    }
    NS_FATAL_ERROR("unknown collective algorithm " << static_cast<int>(algorithm));
    return nullptr;
}

TypeId
CollectiveStrategy::GetTypeIdOf(CollectiveAlgorithm algorithm)
{
    switch (algorithm)
    {
    case CollectiveAlgorithm::NAIVE:
        return NaiveCollective::GetTypeId();
    case CollectiveAlgorithm::RING:
        return RingCollective::GetTypeId();
    case CollectiveAlgorithm::DOUBLE_BINARY_TREE:
        return DoubleBinaryTreeCollective::GetTypeId();
    case CollectiveAlgorithm::RECURSIVE_DOUBLING:
        return RecursiveDoublingCollective::GetTypeId();
    case CollectiveAlgorithm::HALVING_DOUBLING:
        return HalvingDoublingCollective::GetTypeId();
    case CollectiveAlgorithm::DIRECT:
        return DirectCollective::GetTypeId();
    case CollectiveAlgorithm::STAGGERED:
        return StaggeredCollective::GetTypeId();
    case CollectiveAlgorithm::HIERARCHICAL:
        return HierarchicalCollective::GetTypeId();
    }
    NS_FATAL_ERROR("unknown collective algorithm " << static_cast<int>(algorithm));
    return TypeId();
}

} // namespace ns3

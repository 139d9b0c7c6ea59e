/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-volume-oracle.h"

#include "ns3/abort.h"
#include "ns3/collective-choices.h"
#include "ns3/collective-chunks.h"
#include "ns3/double-binary-tree-collective.h"
#include "ns3/log.h"
#include "ns3/type-id-alias.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveVolumeOracle");

namespace
{

/// An algorithm and its name.
struct AlgorithmName
{
    CollectiveAlgorithm algorithm; //!< The algorithm.
    const char* name;              //!< Its name.
};

/// The names of the algorithms, in declaration order.
const AlgorithmName ALGORITHM_NAMES[] = {
    {CollectiveAlgorithm::NAIVE, "naive"},
    {CollectiveAlgorithm::RING, "ring"},
    {CollectiveAlgorithm::DOUBLE_BINARY_TREE, "double-binary-tree"},
    {CollectiveAlgorithm::RECURSIVE_DOUBLING, "recursive-doubling"},
    {CollectiveAlgorithm::HALVING_DOUBLING, "halving-doubling"},
    {CollectiveAlgorithm::DIRECT, "direct"},
    {CollectiveAlgorithm::STAGGERED, "staggered"},
    {CollectiveAlgorithm::HIERARCHICAL, "hierarchical"},
};

/**
 * @param kind a collective.
 * @return the algorithms Compute accepts for it, in declaration order.
 */
std::vector<CollectiveAlgorithm>
SupportedAlgorithms(CollectiveKind kind)
{
    using A = CollectiveAlgorithm;
    switch (kind)
    {
    case CollectiveKind::ALL_REDUCE:
        return {A::NAIVE,
                A::RING,
                A::DOUBLE_BINARY_TREE,
                A::RECURSIVE_DOUBLING,
                A::HALVING_DOUBLING,
                A::HIERARCHICAL};
    case CollectiveKind::ALL_GATHER:
        return {A::RING, A::RECURSIVE_DOUBLING, A::DIRECT};
    case CollectiveKind::REDUCE_SCATTER:
        return {A::RING, A::HALVING_DOUBLING, A::DIRECT};
    case CollectiveKind::ALL_TO_ALL:
        return {A::DIRECT, A::STAGGERED};
    case CollectiveKind::SEND_RECV:
        return {A::DIRECT};
    case CollectiveKind::BROADCAST:
        return {A::NAIVE, A::RING, A::RECURSIVE_DOUBLING};
    }
    return {};
}

/**
 * @param n a positive number.
 * @return the smallest k with 2^k >= n.
 */
uint32_t
CeilLog2(uint32_t n)
{
    uint32_t k = 0;
    while ((uint64_t{1} << k) < n)
    {
        ++k;
    }
    return k;
}

/**
 * @param n a number.
 * @return true if n is a power of two (1 included).
 */
bool
IsPowerOfTwo(uint32_t n)
{
    return n != 0 && (n & (n - 1)) == 0;
}

/**
 * Ranks base, base + stride, ..., base + (size - 1) stride: a ring, or a rail of servers.
 */
struct Group
{
    uint32_t base;   //!< The first rank.
    uint32_t stride; //!< The distance between consecutive members.
    uint32_t size;   //!< The number of members.

    /**
     * @param position a position, less than size.
     * @return the rank at that position.
     */
    uint32_t At(uint64_t position) const
    {
        return static_cast<uint32_t>(base + stride * (position % size));
    }
};

/**
 * Records one rank's transfers into a RankVolume, classifying them by server.
 */
class Recorder
{
  public:
    /**
     * @param rank the rank whose traffic is recorded.
     * @param localSize ranks per server.
     * @param out where to record.
     */
    Recorder(uint32_t rank, uint32_t localSize, RankVolume& out)
        : m_rank(rank),
          m_localSize(localSize),
          m_out(out)
    {
    }

    /**
     * Record a send (nothing if bytes is 0).
     * @param peer the destination.
     * @param bytes the payload bytes.
     * @param step the step.
     */
    void Send(uint32_t peer, uint64_t bytes, uint32_t step)
    {
        if (bytes == 0)
        {
            return;
        }
        m_out.sends.push_back({peer, bytes, step});
        m_out.bytesSent += bytes;
        (IsIntra(peer) ? m_out.intraBytesSent : m_out.interBytesSent) += bytes;
    }

    /**
     * Record a receive (nothing if bytes is 0).
     * @param peer the source.
     * @param bytes the payload bytes.
     * @param step the step.
     */
    void Receive(uint32_t peer, uint64_t bytes, uint32_t step)
    {
        if (bytes == 0)
        {
            return;
        }
        m_out.receives.push_back({peer, bytes, step});
        m_out.bytesReceived += bytes;
        (IsIntra(peer) ? m_out.intraBytesReceived : m_out.interBytesReceived) += bytes;
    }

  private:
    /**
     * @param peer another rank.
     * @return true if it is on the same server as the recorded rank.
     */
    bool IsIntra(uint32_t peer) const
    {
        return peer / m_localSize == m_rank / m_localSize;
    }

    uint32_t m_rank;      //!< The recorded rank.
    uint32_t m_localSize; //!< Ranks per server.
    RankVolume& m_out;    //!< Where to record.
};

/**
 * A ring stage of S among a group, size - 1 steps; at step s (0..size-2) the member at position p
 * sends to the next member and receives from the previous one:
 * - reduce-scatter (Patarasuk and Yuan 2009): it sends chunk (p - s - 1) mod size and receives
 *   chunk (p - s - 2) mod size; it ends with chunk p reduced;
 * - all-gather (starting with chunk p): it sends chunk (p - s) mod size and receives chunk
 *   (p - s - 1) mod size.
 * @param rec the recorder.
 * @param group the ring.
 * @param position the recorded rank's position in it.
 * @param bytes S.
 * @param firstStep the step of s = 0.
 * @param reduceScatter a reduce-scatter rather than an all-gather.
 */
void
RingStage(Recorder& rec,
          const Group& group,
          uint32_t position,
          uint64_t bytes,
          uint32_t firstStep,
          bool reduceScatter)
{
    const uint64_t size = group.size;
    const uint64_t shift = reduceScatter ? 1 : 0;
    for (uint64_t s = 0; s + 1 < size; ++s)
    {
        uint32_t sent = static_cast<uint32_t>((position + 2 * size - s - shift) % size);
        uint32_t received = static_cast<uint32_t>((position + 2 * size - s - 1 - shift) % size);
        uint32_t step = firstStep + static_cast<uint32_t>(s);
        rec.Send(group.At(position + 1),
                 CollectiveChunks::ChunkBytes(bytes, group.size, sent),
                 step);
        rec.Receive(group.At(position + size - 1),
                    CollectiveChunks::ChunkBytes(bytes, group.size, received),
                    step);
    }
}

/**
 * Recursive-halving reduce-scatter (Rabenseifner 2004, Thakur et al. 2005) for a power-of-two n:
 * at step k, with d = n / 2^(k+1), the rank holds the aligned range of 2d chunks containing its
 * own, keeps the half containing its own and sends the other half to rank XOR d.
 * @param rec the recorder.
 * @param n the group size, a power of two.
 * @param rank the rank.
 * @param bytes S.
 * @param firstStep the step of k = 0.
 */
void
HalvingReduceScatter(Recorder& rec, uint32_t n, uint32_t rank, uint64_t bytes, uint32_t firstStep)
{
    uint32_t levels = CeilLog2(n);
    for (uint32_t k = 0; k < levels; ++k)
    {
        uint32_t d = n >> (k + 1);
        uint32_t low = rank & ~(2 * d - 1);
        uint32_t peer = rank ^ d;
        uint32_t kept = (rank & d) ? low + d : low;
        uint32_t given = (rank & d) ? low : low + d;
        rec.Send(peer, CollectiveChunks::RangeBytes(bytes, n, given, given + d), firstStep + k);
        rec.Receive(peer, CollectiveChunks::RangeBytes(bytes, n, kept, kept + d), firstStep + k);
    }
}

/**
 * Recursive-doubling all-gather for a power-of-two n, rank i starting with chunk i: at step k the
 * rank sends the aligned block of 2^k chunks containing its own to rank XOR 2^k and receives that
 * rank's block.
 * @param rec the recorder.
 * @param n the group size, a power of two.
 * @param rank the rank.
 * @param bytes S.
 * @param firstStep the step of k = 0.
 */
void
DoublingAllGather(Recorder& rec, uint32_t n, uint32_t rank, uint64_t bytes, uint32_t firstStep)
{
    uint32_t levels = CeilLog2(n);
    for (uint32_t k = 0; k < levels; ++k)
    {
        uint32_t d = uint32_t{1} << k;
        uint32_t peer = rank ^ d;
        uint32_t mine = rank & ~(d - 1);
        uint32_t theirs = peer & ~(d - 1);
        rec.Send(peer, CollectiveChunks::RangeBytes(bytes, n, mine, mine + d), firstStep + k);
        rec.Receive(peer,
                    CollectiveChunks::RangeBytes(bytes, n, theirs, theirs + d),
                    firstStep + k);
    }
}

/**
 * @param name a name.
 * @param known the names that are known.
 * @param what what is named, for the message.
 * @return "unknown WHAT 'NAME' (known: a, b, ...)".
 */
template <typename Table>
std::string
UnknownName(const std::string& name, const Table& known, const std::string& what)
{
    std::ostringstream message;
    message << "unknown " << what << " '" << name << "' (known: ";
    bool first = true;
    for (const auto& entry : known)
    {
        message << (first ? "" : ", ") << entry.name;
        first = false;
    }
    message << ")";
    return message.str();
}

} // namespace

std::string
CollectiveVolume::GetAlgorithmName(CollectiveAlgorithm algorithm)
{
    for (const auto& entry : ALGORITHM_NAMES)
    {
        if (entry.algorithm == algorithm)
        {
            return entry.name;
        }
    }
    return "unknown";
}

std::string
CollectiveVolume::ParseAlgorithm(const std::string& name, CollectiveAlgorithm& algorithm)
{
    for (const auto& entry : ALGORITHM_NAMES)
    {
        if (name == entry.name)
        {
            algorithm = entry.algorithm;
            return "";
        }
    }
    return UnknownName(name, ALGORITHM_NAMES, "collective algorithm");
}

namespace
{

/**
 * The argument checks of CollectiveVolume::Compute.
 * @param kind the collective.
 * @param algorithm the algorithm.
 * @param n the group size.
 * @param bytes S.
 * @param rank the rank.
 * @param localSize ranks per server.
 * @return an empty string, or the problem.
 */
std::string
CheckArguments(CollectiveKind kind,
               CollectiveAlgorithm algorithm,
               uint32_t n,
               uint64_t bytes,
               uint32_t rank,
               uint32_t localSize)
{
    const std::string algorithmName = CollectiveVolume::GetAlgorithmName(algorithm);
    const std::string kindName = GetCollectiveKindName(kind);
    std::ostringstream error;
    if (n == 0)
    {
        return "the group size n = 0 must be at least 1";
    }
    if (rank >= n)
    {
        error << "rank " << rank << " is not less than the group size n = " << n;
        return error.str();
    }
    if (localSize == 0 || n % localSize != 0)
    {
        error << "the group size n = " << n << " is not a multiple of localSize = " << localSize;
        return error.str();
    }
    if (bytes > std::numeric_limits<uint64_t>::max() / std::max<uint64_t>(n, 4))
    {
        error << "bytes = " << bytes << " is too large for n = " << n
              << " (per-rank totals would overflow 64 bits)";
        return error.str();
    }
    std::vector<CollectiveAlgorithm> supported = SupportedAlgorithms(kind);
    if (std::find(supported.begin(), supported.end(), algorithm) == supported.end())
    {
        error << "algorithm '" << algorithmName << "' does not apply to " << kindName
              << " (supported: ";
        for (std::size_t i = 0; i < supported.size(); ++i)
        {
            error << (i == 0 ? "" : ", ") << CollectiveVolume::GetAlgorithmName(supported[i]);
        }
        error << ")";
        return error.str();
    }
    bool needsPowerOfTwo =
        algorithm == CollectiveAlgorithm::HALVING_DOUBLING ||
        (algorithm == CollectiveAlgorithm::RECURSIVE_DOUBLING && kind != CollectiveKind::BROADCAST);
    if (needsPowerOfTwo && !IsPowerOfTwo(n))
    {
        error << "algorithm '" << algorithmName << "' of " << kindName
              << " needs a power-of-two group size, not n = " << n
              << " (Rabenseifner's remainder handling is not supported)";
        return error.str();
    }
    if (kind == CollectiveKind::SEND_RECV && n != 2)
    {
        error << "send-recv needs a group of n = 2 ranks, not n = " << n;
        return error.str();
    }

    return "";
}

/**
 * Record a rank's ALL_REDUCE.
 * @param rec the recorder.
 * @param algorithm the algorithm.
 * @param n the group size.
 * @param bytes S.
 * @param rank the rank.
 * @param localSize ranks per server.
 * @return the steps.
 */
uint32_t
RecordAllReduce(Recorder& rec,
                CollectiveAlgorithm algorithm,
                uint32_t n,
                uint64_t bytes,
                uint32_t rank,
                uint32_t localSize)
{
    const Group all{0, 1, n};
    const uint32_t levels = CeilLog2(n);
    uint32_t steps = 0;
    switch (algorithm)
    {
    case CollectiveAlgorithm::NAIVE:
        steps = n > 1 ? 2 : 0;
        for (uint32_t other = 1; other < n; ++other)
        {
            if (rank == 0)
            {
                rec.Receive(other, bytes, 0);
                rec.Send(other, bytes, 1);
            }
            else if (rank == other)
            {
                rec.Send(0, bytes, 0);
                rec.Receive(0, bytes, 1);
            }
        }
        break;
    case CollectiveAlgorithm::RING:
        steps = 2 * (n - 1);
        RingStage(rec, all, rank, bytes, 0, true);
        RingStage(rec, all, rank, bytes, n - 1, false);
        break;
    case CollectiveAlgorithm::DOUBLE_BINARY_TREE:
        steps = 2 * levels;
        for (uint32_t tree = 0; tree < 2; ++tree)
        {
            uint64_t half = CollectiveChunks::ChunkBytes(bytes, 2, tree);
            uint32_t depth = DoubleBinaryTreeCollective::TreeDepth(n, tree, rank);
            uint32_t parent = DoubleBinaryTreeCollective::TreeParent(n, tree, rank);
            if (parent != n)
            {
                rec.Send(parent, half, levels - depth);
                rec.Receive(parent, half, levels + depth - 1);
            }
            for (uint32_t child : DoubleBinaryTreeCollective::TreeChildren(n, tree, rank))
            {
                rec.Receive(child, half, levels - depth - 1);
                rec.Send(child, half, levels + depth);
            }
        }
        break;
    case CollectiveAlgorithm::RECURSIVE_DOUBLING:
        steps = levels;
        for (uint32_t k = 0; k < levels; ++k)
        {
            rec.Send(rank ^ (uint32_t{1} << k), bytes, k);
            rec.Receive(rank ^ (uint32_t{1} << k), bytes, k);
        }
        break;
    case CollectiveAlgorithm::HALVING_DOUBLING:
        steps = 2 * levels;
        HalvingReduceScatter(rec, n, rank, bytes, 0);
        DoublingAllGather(rec, n, rank, bytes, levels);
        break;
    case CollectiveAlgorithm::HIERARCHICAL: {
        const uint32_t servers = n / localSize;
        const uint32_t server = rank / localSize;
        const uint32_t local = rank % localSize;
        const Group inServer{server * localSize, 1, localSize};
        const Group rail{local, localSize, servers};
        const uint64_t railBytes = CollectiveChunks::ChunkBytes(bytes, localSize, local);
        steps = 2 * (localSize - 1) + 2 * (servers - 1);
        RingStage(rec, inServer, local, bytes, 0, true);
        RingStage(rec, rail, server, railBytes, localSize - 1, true);
        RingStage(rec, rail, server, railBytes, localSize - 1 + servers - 1, false);
        RingStage(rec, inServer, local, bytes, localSize - 1 + 2 * (servers - 1), false);
        break;
    }
    default:
        break;
    }
    return steps;
}

/**
 * Record a rank's BROADCAST.
 * @param rec the recorder.
 * @param algorithm the algorithm.
 * @param n the group size.
 * @param bytes S.
 * @param rank the rank.
 * @return the steps.
 */
uint32_t
RecordBroadcast(Recorder& rec,
                CollectiveAlgorithm algorithm,
                uint32_t n,
                uint64_t bytes,
                uint32_t rank)
{
    const uint32_t levels = CeilLog2(n);
    uint32_t steps = 0;
    if (algorithm == CollectiveAlgorithm::NAIVE)
    {
        steps = n - 1;
        for (uint32_t other = 1; other < n; ++other)
        {
            if (rank == 0)
            {
                rec.Send(other, bytes, other - 1);
            }
        }
        if (rank > 0)
        {
            rec.Receive(0, bytes, rank - 1);
        }
    }
    else if (algorithm == CollectiveAlgorithm::RING)
    {
        steps = n - 1;
        if (rank + 1 < n)
        {
            rec.Send(rank + 1, bytes, rank);
        }
        if (rank > 0)
        {
            rec.Receive(rank - 1, bytes, rank - 1);
        }
    }
    else
    {
        // Binomial tree: at step k every rank below 2^k sends to rank + 2^k.
        steps = levels;
        for (uint32_t k = 0; k < levels; ++k)
        {
            uint64_t distance = uint64_t{1} << k;
            if (rank < distance && rank + distance < n)
            {
                rec.Send(static_cast<uint32_t>(rank + distance), bytes, k);
            }
            if (rank >= distance && rank < 2 * distance)
            {
                rec.Receive(static_cast<uint32_t>(rank - distance), bytes, k);
            }
        }
    }
    return steps;
}

} // namespace

std::string
CollectiveVolume::Compute(CollectiveKind kind,
                          CollectiveAlgorithm algorithm,
                          uint32_t n,
                          uint64_t bytes,
                          uint32_t rank,
                          RankVolume& out,
                          uint32_t localSize)
{
    NS_LOG_FUNCTION(GetCollectiveKindName(kind)
                    << GetAlgorithmName(algorithm) << n << bytes << rank << localSize);
    out = RankVolume();
    std::string problem = CheckArguments(kind, algorithm, n, bytes, rank, localSize);
    if (!problem.empty())
    {
        return problem;
    }

    Recorder rec(rank, localSize, out);
    const Group all{0, 1, n};
    const uint32_t levels = CeilLog2(n);
    switch (kind)
    {
    case CollectiveKind::ALL_REDUCE:
        out.steps = RecordAllReduce(rec, algorithm, n, bytes, rank, localSize);
        break;
    case CollectiveKind::ALL_GATHER:
        if (algorithm == CollectiveAlgorithm::RING)
        {
            out.steps = n - 1;
            RingStage(rec, all, rank, bytes, 0, false);
        }
        else if (algorithm == CollectiveAlgorithm::RECURSIVE_DOUBLING)
        {
            out.steps = levels;
            DoublingAllGather(rec, n, rank, bytes, 0);
        }
        else
        {
            out.steps = n > 1 ? 1 : 0;
            for (uint32_t other = 0; other < n; ++other)
            {
                if (other != rank)
                {
                    rec.Send(other, CollectiveChunks::ChunkBytes(bytes, n, rank), 0);
                    rec.Receive(other, CollectiveChunks::ChunkBytes(bytes, n, other), 0);
                }
            }
        }
        break;
    case CollectiveKind::REDUCE_SCATTER:
    case CollectiveKind::ALL_TO_ALL:
        if (algorithm == CollectiveAlgorithm::RING)
        {
            out.steps = n - 1;
            RingStage(rec, all, rank, bytes, 0, true);
        }
        else if (algorithm == CollectiveAlgorithm::HALVING_DOUBLING)
        {
            out.steps = levels;
            HalvingReduceScatter(rec, n, rank, bytes, 0);
        }
        else if (algorithm == CollectiveAlgorithm::DIRECT)
        {
            out.steps = n > 1 ? 1 : 0;
            for (uint32_t other = 0; other < n; ++other)
            {
                if (other != rank)
                {
                    rec.Send(other, CollectiveChunks::ChunkBytes(bytes, n, other), 0);
                    rec.Receive(other, CollectiveChunks::ChunkBytes(bytes, n, rank), 0);
                }
            }
        }
        else
        {
            // STAGGERED: step k to rank + k + 1 and from rank - k - 1.
            out.steps = n - 1;
            for (uint32_t k = 0; k + 1 < n; ++k)
            {
                uint32_t to = static_cast<uint32_t>((uint64_t{rank} + k + 1) % n);
                uint32_t from = static_cast<uint32_t>((uint64_t{rank} + n - k - 1) % n);
                rec.Send(to, CollectiveChunks::ChunkBytes(bytes, n, to), k);
                rec.Receive(from, CollectiveChunks::ChunkBytes(bytes, n, rank), k);
            }
        }
        break;
    case CollectiveKind::SEND_RECV:
        out.steps = 1;
        if (rank == 0)
        {
            rec.Send(1, bytes, 0);
        }
        else
        {
            rec.Receive(0, bytes, 0);
        }
        break;
    case CollectiveKind::BROADCAST:
        out.steps = RecordBroadcast(rec, algorithm, n, bytes, rank);
        break;
    }

    auto byStep = [](const CollectiveTransfer& a, const CollectiveTransfer& b) {
        return a.step != b.step ? a.step < b.step : a.peer < b.peer;
    };
    std::stable_sort(out.sends.begin(), out.sends.end(), byStep);
    std::stable_sort(out.receives.begin(), out.receives.end(), byStep);
    return "";
}

TypeId
CollectiveVolume::GetStrategyTypeId(CollectiveAlgorithm algorithm)
{
    TypeId tid;
    std::string problem = CollectiveChoices::Resolve(GetAlgorithmName(algorithm), tid);
    NS_ABORT_MSG_IF(!problem.empty(), problem);
    return tid;
}

CollectiveAlgorithm
CollectiveVolume::GetAlgorithmOf(TypeId strategy)
{
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::RING;
    std::string problem = ParseAlgorithm(TypeIdAlias::GetShortName(strategy), algorithm);
    NS_ABORT_MSG_IF(!problem.empty(), problem);
    return algorithm;
}

} // namespace ns3

/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-volume-oracle.h"

#include "ns3/collective-choices.h"
#include "ns3/collective-plan.h"
#include "ns3/collective-strategy.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of the collective strategies (CollectiveStrategy and its subclasses) and CollectivePlan:
 * - every plan moves exactly CollectiveVolume's bytes per rank, peer and step, and cuts every
 *   transfer into channels with the chunking rule (two independent implementations compared);
 * - executing every plan in an adversarial order that only the dependencies constrain gives the
 *   collective's result (contribution counts per byte), and no two conflicting accesses to a
 *   rank's buffer are left unordered by the dependencies; dropping a dependency is detected;
 * - hand-derived structure (steps, ranges, dependencies) of small plans;
 * - refusals, the Channels attribute, the factory, and CollectivePlan::Check's rules.
 * Notation: S the message size, n the group size, C the channels, c(i) chunk i of S in n chunks.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

using K = CollectiveKind;
using A = CollectiveAlgorithm;

/// Every kind with the algorithms that implement it (CollectiveVolume's documentation).
const std::vector<std::pair<K, std::vector<A>>> SUPPORTED = {
    {K::ALL_REDUCE,
     {A::NAIVE,
      A::RING,
      A::DOUBLE_BINARY_TREE,
      A::RECURSIVE_DOUBLING,
      A::HALVING_DOUBLING,
      A::HIERARCHICAL}},
    {K::ALL_GATHER, {A::RING, A::RECURSIVE_DOUBLING, A::DIRECT}},
    {K::REDUCE_SCATTER, {A::RING, A::HALVING_DOUBLING, A::DIRECT}},
    {K::ALL_TO_ALL, {A::DIRECT, A::STAGGERED}},
    {K::SEND_RECV, {A::DIRECT}},
    {K::BROADCAST, {A::NAIVE, A::RING, A::RECURSIVE_DOUBLING}},
};

/// Every kind.
const std::vector<K> ALL_KINDS =
    {K::ALL_REDUCE, K::ALL_GATHER, K::REDUCE_SCATTER, K::ALL_TO_ALL, K::SEND_RECV, K::BROADCAST};

/// Every algorithm.
const std::vector<A> ALL_ALGORITHMS = {A::NAIVE,
                                       A::RING,
                                       A::DOUBLE_BINARY_TREE,
                                       A::RECURSIVE_DOUBLING,
                                       A::HALVING_DOUBLING,
                                       A::DIRECT,
                                       A::STAGGERED,
                                       A::HIERARCHICAL};

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

/**
 * @param n a number.
 * @return true if it is a power of two.
 */
bool
IsPowerOfTwo(uint32_t n)
{
    return n != 0 && (n & (n - 1)) == 0;
}

/**
 * Whether a supported (kind, algorithm) should accept a group, by the documented conditions.
 * @param kind the collective.
 * @param algorithm the algorithm (one that implements kind).
 * @param n the group size.
 * @param localSize ranks per server.
 * @return true if a plan should be made.
 */
bool
ExpectAccepted(K kind, A algorithm, uint32_t n, uint32_t localSize)
{
    if (n == 0 || localSize == 0 || n % localSize != 0)
    {
        return false;
    }
    if (kind == K::SEND_RECV)
    {
        return n == 2;
    }
    bool needsPowerOfTwo = algorithm == A::HALVING_DOUBLING ||
                           (algorithm == A::RECURSIVE_DOUBLING && kind != K::BROADCAST);
    return !needsPowerOfTwo || IsPowerOfTwo(n);
}

/**
 * @param kind a collective.
 * @param algorithm an algorithm.
 * @param n the group size.
 * @param bytes S.
 * @param localSize ranks per server.
 * @param channels the channels.
 * @return a description such as "ring all-reduce n=4 S=37 L=1 C=3".
 */
std::string
Describe(K kind, A algorithm, uint32_t n, uint64_t bytes, uint32_t localSize, uint32_t channels)
{
    std::ostringstream os;
    os << CollectiveVolume::GetAlgorithmName(algorithm) << " " << GetCollectiveKindName(kind)
       << " n=" << n << " S=" << bytes << " L=" << localSize << " C=" << channels;
    return os.str();
}

/**
 * @param transfer a transfer.
 * @return its one-line description (operator<<), e.g. "#3 1->2 [8,10) step 1 ch 0 reduce deps
 * {0}".
 */
std::string
ToLine(const CollectiveTransferSpec& transfer)
{
    std::ostringstream os;
    os << transfer;
    return os.str();
}

/**
 * Plan a collective with a new strategy.
 * @param algorithm the algorithm.
 * @param channels the Channels attribute.
 * @param kind the collective.
 * @param n the group size.
 * @param bytes S.
 * @param localSize ranks per server.
 * @param[out] plan the plan.
 * @return Plan's message.
 */
std::string
MakePlan(A algorithm,
         uint32_t channels,
         K kind,
         uint32_t n,
         uint64_t bytes,
         uint32_t localSize,
         CollectivePlan& plan)
{
    Ptr<CollectiveStrategy> strategy =
        CollectiveStrategy::Create(CollectiveVolume::GetStrategyTypeId(algorithm));
    strategy->SetAttribute("Channels", UintegerValue(channels));
    return strategy->Plan(kind, n, bytes, localSize, plan);
}

/// A transfer of a rank's schedule as CollectiveVolume lists it: (peer, step, bytes).
using Entry = std::tuple<uint32_t, uint32_t, uint64_t>;

/**
 * Compare a plan with CollectiveVolume::Compute, rank by rank: steps, bytes sent and received,
 * and the multisets of whole transfers (peer, step, bytes), the whole transfers being rebuilt
 * from the channel pieces, whose sizes must follow the chunking rule.
 * @param plan the plan.
 * @return an empty string, or the first difference.
 */
std::string
CompareWithVolume(const CollectivePlan& plan)
{
    const uint32_t n = plan.GetGroupSize();
    const uint32_t channels = plan.GetChannels();
    const auto& transfers = plan.GetTransfers();
    std::ostringstream problem;

    // Rebuild whole transfers: sort pieces by (src, dst, step, offset); a piece on channel 0
    // starts a whole transfer, a piece on channel j > 0 continues the previous one (same
    // src/dst/step, contiguous, channel j - 1 before it).
    std::vector<uint32_t> order(transfers.size());
    for (uint32_t i = 0; i < order.size(); ++i)
    {
        order[i] = i;
    }
    std::sort(order.begin(), order.end(), [&transfers](uint32_t a, uint32_t b) {
        const auto& x = transfers[a];
        const auto& y = transfers[b];
        return std::tie(x.src, x.dst, x.step, x.offset) < std::tie(y.src, y.dst, y.step, y.offset);
    });

    /// A whole transfer rebuilt from its pieces.
    struct Whole
    {
        uint32_t src;                 ///< The sender.
        uint32_t dst;                 ///< The receiver.
        uint32_t step;                ///< The step.
        uint64_t end;                 ///< One past the last byte of the pieces so far.
        std::vector<uint64_t> pieces; ///< The pieces' bytes, by channel.
    };

    std::vector<Whole> wholes;
    for (uint32_t id : order)
    {
        const CollectiveTransferSpec& t = transfers[id];
        if (t.channel == 0)
        {
            wholes.push_back({t.src, t.dst, t.step, t.offset + t.bytes, {t.bytes}});
            continue;
        }
        if (wholes.empty() || wholes.back().src != t.src || wholes.back().dst != t.dst ||
            wholes.back().step != t.step || wholes.back().end != t.offset ||
            wholes.back().pieces.size() != t.channel)
        {
            problem << "piece " << t << " does not continue a whole transfer";
            return problem.str();
        }
        wholes.back().end += t.bytes;
        wholes.back().pieces.push_back(t.bytes);
    }
    std::vector<std::vector<Entry>> sends(n);
    std::vector<std::vector<Entry>> receives(n);
    for (const Whole& whole : wholes)
    {
        uint64_t total = 0;
        for (uint64_t piece : whole.pieces)
        {
            total += piece;
        }
        for (uint32_t j = 0; j < channels; ++j)
        {
            uint64_t expected = CollectiveChunks::ChunkBytes(total, channels, j);
            uint64_t got = j < whole.pieces.size() ? whole.pieces[j] : 0;
            if (got != expected)
            {
                problem << "whole transfer " << whole.src << "->" << whole.dst << " step "
                        << whole.step << " of " << total << " bytes has " << got
                        << " bytes on channel " << j << ", not ChunkBytes = " << expected;
                return problem.str();
            }
        }
        sends[whole.src].emplace_back(whole.dst, whole.step, total);
        receives[whole.dst].emplace_back(whole.src, whole.step, total);
    }

    for (uint32_t rank = 0; rank < n; ++rank)
    {
        RankVolume volume;
        std::string error =
            CollectiveVolume::Compute(plan.GetKind(),
                                      CollectiveVolume::GetAlgorithmOf(plan.GetAlgorithm()),
                                      n,
                                      plan.GetBytes(),
                                      rank,
                                      volume,
                                      plan.GetLocalSize());
        if (!error.empty())
        {
            return "CollectiveVolume refuses it: " + error;
        }
        problem << "rank " << rank << ": ";
        if (plan.GetSteps() != volume.steps)
        {
            problem << plan.GetSteps() << " steps, CollectiveVolume " << volume.steps;
            return problem.str();
        }
        if (plan.BytesSent(rank) != volume.bytesSent ||
            plan.BytesReceived(rank) != volume.bytesReceived)
        {
            problem << "sends " << plan.BytesSent(rank) << " and receives "
                    << plan.BytesReceived(rank) << " bytes, CollectiveVolume " << volume.bytesSent
                    << " and " << volume.bytesReceived;
            return problem.str();
        }
        for (int direction = 0; direction < 2; ++direction)
        {
            const auto& listed = direction == 0 ? volume.sends : volume.receives;
            std::vector<Entry> expected;
            for (const CollectiveTransfer& t : listed)
            {
                expected.emplace_back(t.peer, t.step, t.bytes);
            }
            std::vector<Entry> got = direction == 0 ? sends[rank] : receives[rank];
            std::sort(expected.begin(), expected.end());
            std::sort(got.begin(), got.end());
            if (got != expected)
            {
                problem << (direction == 0 ? "sends" : "receives")
                        << " differ from CollectiveVolume's (" << got.size() << " vs "
                        << expected.size() << " transfers)";
                return problem.str();
            }
        }
        problem.str("");
    }
    return "";
}

/// Contribution counts of a buffer: entry b * n + c counts rank c's input summed into byte b.
using Counts = std::vector<uint16_t>;

/**
 * Compare the buffers after an executed plan with the expected counts (see Execute).
 * @param kind the collective.
 * @param chunkOf the chunk of each byte.
 * @param data each rank's buffer.
 * @param received each rank's receive buffer (ALL_TO_ALL).
 * @return an empty string, or the first wrong count.
 */
std::string
CheckCounts(CollectiveKind kind,
            const std::vector<uint32_t>& chunkOf,
            const std::vector<Counts>& data,
            const std::vector<Counts>& received)
{
    const auto n = static_cast<uint32_t>(data.size());
    const uint64_t size = chunkOf.size();
    for (uint32_t r = 0; r < n; ++r)
    {
        for (uint64_t b = 0; b < size; ++b)
        {
            if (kind == K::REDUCE_SCATTER && chunkOf[b] != r)
            {
                continue;
            }
            for (uint32_t c = 0; c < n; ++c)
            {
                uint16_t expected = 0;
                uint16_t got = data[r][b * n + c];
                switch (kind)
                {
                case K::ALL_REDUCE:
                case K::REDUCE_SCATTER:
                    expected = 1;
                    break;
                case K::ALL_GATHER:
                    expected = chunkOf[b] == c ? 1 : 0;
                    break;
                case K::BROADCAST:
                case K::SEND_RECV:
                    expected = c == 0 ? 1 : 0;
                    break;
                case K::ALL_TO_ALL:
                    expected = c != r && chunkOf[b] == r ? 1 : 0;
                    got = received[r][b * n + c];
                    break;
                }
                if (got != expected)
                {
                    std::ostringstream problem;
                    problem << "rank " << r << " byte " << b << " (chunk " << chunkOf[b]
                            << ") has count " << got << " of rank " << c << "'s input, not "
                            << expected;
                    return problem.str();
                }
            }
        }
    }
    return "";
}

/**
 * Execute a plan on contribution counts in an adversarial order and check the result.
 *
 * Each rank's buffer holds, per byte, how many times each rank's input is summed into it. A
 * transfer reads its range of src's buffer when it starts and, when it arrives, adds it into dst's
 * (reduce) or stores it over dst's; for ALL_TO_ALL it adds it into dst's separate receive buffer
 * (so a byte received twice shows). A transfer may start once all its deps have arrived. It
 * arrives at once, unless its applyAfter list is not empty: then it arrives once all those
 * transfers have started. Among the transfers that may start or arrive, the one of the highest
 * step, then the highest id, goes first: the order most likely to break a missing dependency.
 *
 * Inputs: rank r's buffer has count 1 for r in every byte, except for ALL_GATHER where rank r owns
 * chunk r only. Expected results: ALL_REDUCE, every count of every byte of every rank is 1;
 * REDUCE_SCATTER, the same for chunk r of rank r; ALL_GATHER, every rank holds chunk i with count
 * 1 for i only; BROADCAST and SEND_RECV, every rank holds rank 0's input; ALL_TO_ALL, rank r's
 * receive buffer holds chunk r of every other rank's input once, and nothing else.
 * @param plan the plan.
 * @return an empty string, or the first wrong count or a stall.
 */
std::string
Execute(const CollectivePlan& plan)
{
    const uint32_t n = plan.GetGroupSize();
    const uint64_t size = plan.GetBytes();
    const K kind = plan.GetKind();
    const auto& transfers = plan.GetTransfers();
    const auto count = static_cast<uint32_t>(transfers.size());
    std::vector<uint32_t> chunkOf(size);
    for (uint32_t i = 0; i < n; ++i)
    {
        uint64_t first = CollectiveChunks::RangeBytes(size, n, 0, i);
        for (uint64_t b = first; b < first + CollectiveChunks::ChunkBytes(size, n, i); ++b)
        {
            chunkOf[b] = i;
        }
    }
    std::vector<Counts> data(n, Counts(size * n, 0));
    std::vector<Counts> received(n, Counts(size * n, 0));
    for (uint32_t r = 0; r < n; ++r)
    {
        for (uint64_t b = 0; b < size; ++b)
        {
            if (kind != K::ALL_GATHER || chunkOf[b] == r)
            {
                data[r][b * n + r] = 1;
            }
        }
    }

    std::vector<uint32_t> missingDeps(count);
    std::vector<uint32_t> missingReads(count);
    std::vector<std::vector<uint32_t>> dependents(count);
    std::vector<std::vector<uint32_t>> readWaiters(count);
    std::vector<bool> started(count, false);
    std::vector<bool> arrived(count, false);
    std::vector<Counts> staged(count);
    std::set<std::pair<uint32_t, uint32_t>> ready; // (step, id)
    for (uint32_t id = 0; id < count; ++id)
    {
        missingDeps[id] = static_cast<uint32_t>(transfers[id].deps.size());
        missingReads[id] = static_cast<uint32_t>(transfers[id].applyAfter.size());
        for (uint32_t dep : transfers[id].deps)
        {
            dependents[dep].push_back(id);
        }
        for (uint32_t read : transfers[id].applyAfter)
        {
            readWaiters[read].push_back(id);
        }
        if (missingDeps[id] == 0)
        {
            ready.insert({transfers[id].step, id});
        }
    }

    auto arrive = [&](uint32_t id, const Counts& payload) {
        const CollectiveTransferSpec& t = transfers[id];
        Counts& target = kind == K::ALL_TO_ALL ? received[t.dst] : data[t.dst];
        for (uint64_t i = 0; i < payload.size(); ++i)
        {
            uint16_t& cell = target[t.offset * n + i];
            cell = (t.reduce || kind == K::ALL_TO_ALL) ? cell + payload[i] : payload[i];
        }
        arrived[id] = true;
        for (uint32_t next : dependents[id])
        {
            if (--missingDeps[next] == 0)
            {
                ready.insert({transfers[next].step, next});
            }
        }
    };

    while (!ready.empty())
    {
        auto last = std::prev(ready.end());
        uint32_t id = last->second;
        ready.erase(last);
        const CollectiveTransferSpec& t = transfers[id];
        if (started[id])
        {
            arrive(id, staged[id]);
            continue;
        }
        started[id] = true;
        Counts payload(data[t.src].begin() + t.offset * n,
                       data[t.src].begin() + (t.offset + t.bytes) * n);
        for (uint32_t waiter : readWaiters[id])
        {
            if (--missingReads[waiter] == 0 && started[waiter] && !arrived[waiter])
            {
                ready.insert({transfers[waiter].step, waiter});
            }
        }
        if (t.applyAfter.empty())
        {
            arrive(id, payload);
        }
        else
        {
            staged[id] = std::move(payload);
            if (missingReads[id] == 0)
            {
                ready.insert({t.step, id});
            }
        }
    }
    std::ostringstream problem;
    for (uint32_t id = 0; id < count; ++id)
    {
        if (!arrived[id])
        {
            problem << "stalled: transfer " << transfers[id] << " never arrived";
            return problem.str();
        }
    }

    return CheckCounts(kind, chunkOf, data, received);
}

/**
 * Check that no two conflicting accesses to a rank's buffer are left unordered.
 *
 * Every transfer t is two events: its read of src's range (R_t) and its write into dst's range
 * (W_t). R_t happens after W_d for each dep d; W_t after R_t and after R_u for each u in
 * applyAfter. Two accesses of one rank's buffer to overlapping bytes conflict unless both are
 * reads or both are reduce writes (additions commute); conflicting accesses must be ordered, one
 * happening before the other through these edges, whatever the timing. ALL_TO_ALL and SEND_RECV
 * are skipped: they read one buffer and write another.
 * @param plan the plan (which must pass Check()).
 * @return an empty string, or the first race.
 */
std::string
CheckRaces(const CollectivePlan& plan)
{
    if (plan.GetKind() == K::ALL_TO_ALL || plan.GetKind() == K::SEND_RECV)
    {
        return "";
    }
    const auto& transfers = plan.GetTransfers();
    const std::size_t count = transfers.size();
    const std::size_t words = (2 * count + 63) / 64;
    // before[node * words ...]: the events that happen before node (R_t = 2t, W_t = 2t + 1).
    std::vector<uint64_t> before(2 * count * words, 0);
    auto inherit = [&](std::size_t node, std::size_t pred) {
        for (std::size_t w = 0; w < words; ++w)
        {
            before[node * words + w] |= before[pred * words + w];
        }
        before[node * words + pred / 64] |= uint64_t{1} << (pred % 64);
    };
    auto precedes = [&](std::size_t a, std::size_t b) {
        return (before[b * words + a / 64] >> (a % 64)) & 1;
    };
    // Topological order: by step, the reads of a step before its writes (deps have smaller
    // steps; applyAfter entries have the same step or a smaller one).
    std::vector<uint32_t> order(count);
    for (uint32_t i = 0; i < count; ++i)
    {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&transfers](uint32_t a, uint32_t b) {
        return transfers[a].step < transfers[b].step;
    });
    for (std::size_t begin = 0; begin < count;)
    {
        std::size_t end = begin;
        while (end < count && transfers[order[end]].step == transfers[order[begin]].step)
        {
            ++end;
        }
        for (std::size_t i = begin; i < end; ++i)
        {
            for (uint32_t dep : transfers[order[i]].deps)
            {
                inherit(2 * order[i], 2 * dep + 1);
            }
        }
        for (std::size_t i = begin; i < end; ++i)
        {
            inherit(2 * order[i] + 1, 2 * order[i]);
            for (uint32_t read : transfers[order[i]].applyAfter)
            {
                inherit(2 * order[i] + 1, 2 * read);
            }
        }
        begin = end;
    }

    /// An access to a rank's buffer.
    struct Access
    {
        uint32_t id;    ///< The transfer.
        bool write;     ///< A write (else a read).
        bool reduce;    ///< A reduce write.
        uint64_t first; ///< First byte.
        uint64_t end;   ///< One past the last byte.
    };

    std::vector<std::vector<Access>> accesses(plan.GetGroupSize());
    for (const CollectiveTransferSpec& t : transfers)
    {
        accesses[t.src].push_back({t.id, false, false, t.offset, t.offset + t.bytes});
        accesses[t.dst].push_back({t.id, true, t.reduce, t.offset, t.offset + t.bytes});
    }
    for (uint32_t rank = 0; rank < accesses.size(); ++rank)
    {
        const auto& list = accesses[rank];
        for (std::size_t i = 0; i < list.size(); ++i)
        {
            for (std::size_t j = i + 1; j < list.size(); ++j)
            {
                const Access& x = list[i];
                const Access& y = list[j];
                bool overlap = x.first < y.end && y.first < x.end;
                bool conflict =
                    (x.write || y.write) && !(x.write && y.write && x.reduce && y.reduce);
                if (!overlap || !conflict)
                {
                    continue;
                }
                std::size_t a = 2 * x.id + (x.write ? 1 : 0);
                std::size_t b = 2 * y.id + (y.write ? 1 : 0);
                if (!precedes(a, b) && !precedes(b, a))
                {
                    std::ostringstream problem;
                    problem << "race on rank " << rank << " between the "
                            << (x.write ? "write of " : "read of ") << transfers[x.id]
                            << " and the " << (y.write ? "write of " : "read of ")
                            << transfers[y.id];
                    return problem.str();
                }
            }
        }
    }
    return "";
}

/**
 * @param plan a plan.
 * @return the number of its transfers with a non-empty applyAfter list.
 */
uint32_t
CountStaged(const CollectivePlan& plan)
{
    uint32_t staged = 0;
    for (const CollectiveTransferSpec& t : plan.GetTransfers())
    {
        staged += t.applyAfter.empty() ? 0 : 1;
    }
    return staged;
}

/**
 * A configuration of the loops of the volume and data-flow tests.
 */
struct Config
{
    K kind;             //!< The collective.
    A algorithm;        //!< The algorithm.
    uint32_t n;         //!< The group size.
    uint32_t localSize; //!< Ranks per server.
};

/**
 * Every supported (kind, algorithm) with every group size of a list, and the hierarchical
 * all-reduce with every (n, localSize) of another list.
 * @param sizes the group sizes.
 * @param hierarchical (n, localSize) pairs for HIERARCHICAL.
 * @return the configurations.
 */
std::vector<Config>
Configs(const std::vector<uint32_t>& sizes,
        const std::vector<std::pair<uint32_t, uint32_t>>& hierarchical)
{
    std::vector<Config> configs;
    for (const auto& [kind, algorithms] : SUPPORTED)
    {
        for (A algorithm : algorithms)
        {
            if (algorithm == A::HIERARCHICAL)
            {
                for (const auto& [n, localSize] : hierarchical)
                {
                    configs.push_back({kind, algorithm, n, localSize});
                }
                continue;
            }
            for (uint32_t n : sizes)
            {
                configs.push_back({kind, algorithm, n, 1});
            }
        }
    }
    return configs;
}

/// A plan to make in the loops of the volume and data-flow tests.
struct PlanCase
{
    Config config;     //!< The collective, algorithm and group.
    uint64_t bytes;    //!< S.
    uint32_t channels; //!< The Channels attribute.
    std::string what;  //!< Its description, for the messages.

    /**
     * @param[out] plan the plan.
     * @return Plan's message.
     */
    std::string Make(CollectivePlan& plan) const
    {
        return MakePlan(config.algorithm,
                        channels,
                        config.kind,
                        config.n,
                        bytes,
                        config.localSize,
                        plan);
    }
};

/**
 * @param configs configurations.
 * @param sizes sizes S.
 * @return every configuration with every size, with 1 and with 3 channels, in that order.
 */
std::vector<PlanCase>
PlanCases(const std::vector<Config>& configs, const std::vector<uint64_t>& sizes)
{
    std::vector<PlanCase> cases;
    for (const Config& config : configs)
    {
        for (uint64_t bytes : sizes)
        {
            for (uint32_t channels : {1, 3})
            {
                cases.push_back({config,
                                 bytes,
                                 channels,
                                 Describe(config.kind,
                                          config.algorithm,
                                          config.n,
                                          bytes,
                                          config.localSize,
                                          channels)});
            }
        }
    }
    return cases;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * Every plan moves CollectiveVolume's bytes, per rank, peer and step, in the same steps.
 */
class CollectiveStrategyVolumeTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CollectiveStrategyVolumeTestCase()
        : TestCase("Plans move exactly CollectiveVolume's transfers for every kind and algorithm")
    {
    }

  private:
    void DoRun() override
    {
        // Group sizes 1..16 with odd ones and powers of two; hierarchical on 1, 2, 3, 4 and 8
        // ranks per server (L = 1 is a pure rail ring, L = n a single server), including groups
        // that localSize does not divide (6 on 4, 12 on 8), which must be refused.
        std::vector<std::pair<uint32_t, uint32_t>> hierarchical;
        for (uint32_t localSize : {1, 2, 3, 4, 8})
        {
            for (uint32_t n : {1, 2, 3, 4, 5, 6, 8, 12, 16})
            {
                hierarchical.emplace_back(n, localSize);
            }
        }
        // S = 0, S < n, S not divisible by n, S = 1 MB + 7.
        const std::vector<uint64_t> sizes = {0, 1, 3, 37, 64, (uint64_t{1} << 20) + 7};
        uint32_t planned = 0;
        for (const PlanCase& c : PlanCases(Configs({1, 2, 3, 4, 5, 8, 16}, hierarchical), sizes))
        {
            const Config& config = c.config;
            CollectivePlan plan;
            std::string error = c.Make(plan);
            bool accepted =
                ExpectAccepted(config.kind, config.algorithm, config.n, config.localSize);
            NS_TEST_ASSERT_MSG_EQ(error.empty(), accepted, c.what << ": '" << error << "'");
            if (!accepted)
            {
                continue;
            }
            ++planned;
            NS_TEST_ASSERT_MSG_EQ(plan.Check(), "", c.what);
            NS_TEST_ASSERT_MSG_EQ(plan.GetChannels(), c.channels, c.what);
            NS_TEST_ASSERT_MSG_EQ(CompareWithVolume(plan), "", c.what);
            // Only the in-place exchanges of recursive-doubling all-reduce are staged, and then
            // every transfer is (each overlaps the partner's send); S = 0 has no transfers at
            // all.
            bool staged = config.kind == K::ALL_REDUCE && config.algorithm == A::RECURSIVE_DOUBLING;
            uint32_t expectedStaged =
                staged ? static_cast<uint32_t>(plan.GetTransfers().size()) : 0;
            NS_TEST_ASSERT_MSG_EQ(CountStaged(plan), expectedStaged, c.what);
        }
        // The loops must have planned something: a strategy that refused everything would pass
        // the comparisons vacuously. 18 (kind, algorithm) pairs, of which the 17 that are not
        // hierarchical each accept at least n = 1, 2, 4, 8, 16 except send-recv (n = 2 only):
        // at least 16 * 5 + 1 = 81 configurations, times 6 sizes and 2 channel counts.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(planned, 81u * 12u, "configurations planned");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Executing every plan in an adversarial order gives the collective's result, with no race.
 */
class CollectiveStrategyDataFlowTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CollectiveStrategyDataFlowTestCase()
        : TestCase("Executing plans in an adversarial dependency order gives the right result")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::pair<uint32_t, uint32_t>> hierarchical =
            {{2, 2}, {4, 2}, {6, 2}, {6, 3}, {8, 2}, {8, 4}, {9, 3}, {12, 4}, {16, 8}};
        uint32_t executed = 0;
        // S < n for the larger groups, S not divisible by n, S divisible by 2, 4 and 8.
        for (const PlanCase& c : PlanCases(Configs({1, 2, 3, 4, 5, 8}, hierarchical), {5, 37, 64}))
        {
            const Config& config = c.config;
            if (!ExpectAccepted(config.kind, config.algorithm, config.n, config.localSize))
            {
                continue;
            }
            CollectivePlan plan;
            NS_TEST_ASSERT_MSG_EQ(c.Make(plan), "", c.what);
            NS_TEST_ASSERT_MSG_EQ(Execute(plan), "", c.what);
            NS_TEST_ASSERT_MSG_EQ(CheckRaces(plan), "", c.what);
            ++executed;
        }
        // At least: 17 non-hierarchical pairs accept n = 1, 2, 4, 8 (send-recv only n = 2):
        // 16 * 4 + 1 = 65 configurations, plus 9 hierarchical ones, times 3 sizes and 2 channel
        // counts.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(executed, (65u + 9u) * 6u, "plans executed");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The executor and the race check detect a missing dependency or a missing staging.
 */
class CollectiveStrategyBrokenPlanTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CollectiveStrategyBrokenPlanTestCase()
        : TestCase("Removing a dependency or a staging makes execution fail")
    {
    }

  private:
    void DoRun() override
    {
        // Ring all-reduce, n = 4, S = 64, one channel: the last transfer (highest step 5, and
        // highest id) is rank 3's all-gather send of c((3 - 2) mod 4) = c(1) to rank 0. Rank 3
        // receives c(1) twice before: at reduce-scatter step 0 (rank 2 sends c(2 - 0 - 1)) and at
        // all-gather step 4 (c(3 - 1 - 1)), so it has 2 dependencies. Without them it is ready at
        // once and the adversarial order runs it first, storing rank 3's raw input into rank 0's
        // c(1); rank 0 then sends that corrupted c(1) on in its reduce-scatter (step 2), so the
        // final counts are wrong.
        CollectivePlan plan;
        NS_TEST_ASSERT_MSG_EQ(MakePlan(A::RING, 1, K::ALL_REDUCE, 4, 64, 1, plan), "", "plan");
        NS_TEST_ASSERT_MSG_EQ(Execute(plan), "", "intact plan");
        std::vector<CollectiveTransferSpec> transfers = plan.GetTransfers();
        CollectiveTransferSpec& last = transfers.back();
        NS_TEST_ASSERT_MSG_EQ(last.step, 5u, "last step");
        NS_TEST_ASSERT_MSG_EQ(last.src, 3u, "last sender");
        NS_TEST_ASSERT_MSG_EQ(last.dst, 0u, "last receiver");
        NS_TEST_ASSERT_MSG_EQ(last.deps.size(), 2u, "two dependencies");
        last.deps.clear();
        plan.SetTransfers(transfers);
        // Structurally still valid: only the data flow shows the bug.
        NS_TEST_ASSERT_MSG_EQ(plan.Check(), "", "still structurally valid");
        std::string error = Execute(plan);
        NS_TEST_ASSERT_MSG_EQ(error.empty(), false, "the executor must detect the missing dep");
        NS_TEST_ASSERT_MSG_EQ(Contains(error, "count"), true, error);
        error = CheckRaces(plan);
        NS_TEST_ASSERT_MSG_EQ(error.empty(), false, "the race check must detect it too");

        // Recursive-doubling all-reduce, n = 4, S = 37: without the staging (applyAfter), the
        // higher-id transfer of each step-0 pair is applied before its partner reads, so the
        // partner sends the sum back and rank 0's own input is counted twice.
        NS_TEST_ASSERT_MSG_EQ(MakePlan(A::RECURSIVE_DOUBLING, 1, K::ALL_REDUCE, 4, 37, 1, plan),
                              "",
                              "plan");
        NS_TEST_ASSERT_MSG_EQ(Execute(plan), "", "intact plan");
        NS_TEST_ASSERT_MSG_EQ(CheckRaces(plan), "", "intact plan");
        transfers = plan.GetTransfers();
        for (auto& t : transfers)
        {
            t.applyAfter.clear();
        }
        plan.SetTransfers(transfers);
        NS_TEST_ASSERT_MSG_EQ(plan.Check(), "", "still structurally valid");
        error = Execute(plan);
        NS_TEST_ASSERT_MSG_EQ(Contains(error, "count 2"), true, error);
        NS_TEST_ASSERT_MSG_EQ(Contains(CheckRaces(plan), "race"), true, "race check");

        // Binomial broadcast n = 5: rank 1 forwards to rank 3 at step 1 after receiving from
        // rank 0 at step 0. Without that dependency rank 3 gets rank 1's own data.
        NS_TEST_ASSERT_MSG_EQ(MakePlan(A::RECURSIVE_DOUBLING, 1, K::BROADCAST, 5, 5, 1, plan),
                              "",
                              "plan");
        transfers = plan.GetTransfers();
        for (auto& t : transfers)
        {
            t.deps.clear();
        }
        plan.SetTransfers(transfers);
        NS_TEST_ASSERT_MSG_EQ(Contains(Execute(plan), "rank 3"), true, "rank 3's data");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Structure of small plans derived by hand.
 */
class CollectiveStrategyStructureTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CollectiveStrategyStructureTestCase()
        : TestCase("Steps, ranges and dependencies of small plans match hand derivations")
    {
    }

  private:
    /**
     * @param algorithm the algorithm.
     * @param kind the collective.
     * @param n the group size.
     * @param localSize ranks per server.
     * @return the steps of its plan for S = 64 on one channel (0 if refused).
     */
    static uint32_t Steps(A algorithm, K kind, uint32_t n, uint32_t localSize = 1)
    {
        CollectivePlan plan;
        MakePlan(algorithm, 1, kind, n, 64, localSize, plan);
        return plan.GetSteps();
    }

    /**
     * Plan a collective and check its number of transfers.
     * @param algorithm the algorithm.
     * @param channels the channels.
     * @param kind the collective.
     * @param n the group size.
     * @param bytes the buffer size S.
     * @param localSize ranks per server.
     * @param transfers the number of transfers the plan must have.
     * @param why how that number is derived.
     * @param[out] plan the plan.
     * @return whether the plan was made with that many transfers.
     */
    bool PlanWith(A algorithm,
                  uint32_t channels,
                  K kind,
                  uint32_t n,
                  uint64_t bytes,
                  uint32_t localSize,
                  size_t transfers,
                  const std::string& why,
                  CollectivePlan& plan)
    {
        std::string problem = MakePlan(algorithm, channels, kind, n, bytes, localSize, plan);
        NS_TEST_EXPECT_MSG_EQ(problem, "", "plan");
        NS_TEST_EXPECT_MSG_EQ(plan.GetTransfers().size(), transfers, why);
        return problem.empty() && plan.GetTransfers().size() == transfers;
    }

    void DoRun() override
    {
        // Ring all-reduce: 2(n - 1) steps; n = 5 -> 8, n = 16 -> 30.
        NS_TEST_ASSERT_MSG_EQ(Steps(A::RING, K::ALL_REDUCE, 5), 8u, "ring n=5");
        NS_TEST_ASSERT_MSG_EQ(Steps(A::RING, K::ALL_REDUCE, 16), 30u, "ring n=16");
        // Halving-doubling: 2 log2 n; n = 8 -> 6, n = 16 -> 8; its reduce-scatter log2 8 = 3.
        NS_TEST_ASSERT_MSG_EQ(Steps(A::HALVING_DOUBLING, K::ALL_REDUCE, 8), 6u, "hd n=8");
        NS_TEST_ASSERT_MSG_EQ(Steps(A::HALVING_DOUBLING, K::ALL_REDUCE, 16), 8u, "hd n=16");
        NS_TEST_ASSERT_MSG_EQ(Steps(A::HALVING_DOUBLING, K::REDUCE_SCATTER, 8), 3u, "hd rs");
        // Tree: 2 ceil(log2 n); n = 5 -> 2 * 3 = 6, n = 8 -> 6, n = 2 -> 2, n = 9 -> 8.
        NS_TEST_ASSERT_MSG_EQ(Steps(A::DOUBLE_BINARY_TREE, K::ALL_REDUCE, 5), 6u, "tree n=5");
        NS_TEST_ASSERT_MSG_EQ(Steps(A::DOUBLE_BINARY_TREE, K::ALL_REDUCE, 8), 6u, "tree n=8");
        NS_TEST_ASSERT_MSG_EQ(Steps(A::DOUBLE_BINARY_TREE, K::ALL_REDUCE, 2), 2u, "tree n=2");
        NS_TEST_ASSERT_MSG_EQ(Steps(A::DOUBLE_BINARY_TREE, K::ALL_REDUCE, 9), 8u, "tree n=9");
        // Binomial broadcast: ceil(log2 n); n = 5 -> 3, n = 8 -> 3, n = 9 -> 4.
        NS_TEST_ASSERT_MSG_EQ(Steps(A::RECURSIVE_DOUBLING, K::BROADCAST, 5), 3u, "binomial 5");
        NS_TEST_ASSERT_MSG_EQ(Steps(A::RECURSIVE_DOUBLING, K::BROADCAST, 8), 3u, "binomial 8");
        NS_TEST_ASSERT_MSG_EQ(Steps(A::RECURSIVE_DOUBLING, K::BROADCAST, 9), 4u, "binomial 9");
        // Staggered all-to-all: n - 1 = 4 for n = 5. Naive broadcast n - 1 = 4, all-reduce 2.
        NS_TEST_ASSERT_MSG_EQ(Steps(A::STAGGERED, K::ALL_TO_ALL, 5), 4u, "staggered n=5");
        NS_TEST_ASSERT_MSG_EQ(Steps(A::NAIVE, K::BROADCAST, 5), 4u, "naive broadcast");
        NS_TEST_ASSERT_MSG_EQ(Steps(A::NAIVE, K::ALL_REDUCE, 5), 2u, "naive all-reduce");
        // Hierarchical: 2(L - 1) + 2(m - 1); n = 4, L = 2 -> 2 + 2 = 4; n = 8, L = 4 -> 6 + 2 = 8;
        // n = 12, L = 4 -> 6 + 4 = 10.
        NS_TEST_ASSERT_MSG_EQ(Steps(A::HIERARCHICAL, K::ALL_REDUCE, 4, 2), 4u, "hier 4/2");
        NS_TEST_ASSERT_MSG_EQ(Steps(A::HIERARCHICAL, K::ALL_REDUCE, 8, 4), 8u, "hier 8/4");
        NS_TEST_ASSERT_MSG_EQ(Steps(A::HIERARCHICAL, K::ALL_REDUCE, 12, 4), 10u, "hier 12/4");

        CheckRing();
        CheckCounts();
        CheckBinomial();
        CheckRecursiveDoubling();
        CheckHierarchical();
    }

    /** Ranges and dependencies of ring all-reduce, n = 4, S = 10, on 1 and 3 channels. */
    void CheckRing()
    {
        // S = 10 in 4 chunks: 10 = 4 * 2 + 2, so c = 3, 3, 2, 2 at offsets 0, 3, 6, 8.
        // Listed by (step, src): step 0 is 0->1 c(3) [8,10), 1->2 c(0) [0,3), 2->3 c(1) [3,6),
        // 3->0 c(2) [6,8) (ids 0..3); step 1 starts with 0->1 c(2) [6,8) (id 4, after id 3 into
        // rank 0) and 1->2 c(3) [8,10) (id 5, after id 0 into rank 1).
        CollectivePlan plan;
        // 2(n - 1) steps of n transfers each: 6 * 4 = 24.
        if (!PlanWith(A::RING, 1, K::ALL_REDUCE, 4, 10, 1, 24, "transfers", plan))
        {
            return;
        }
        // t0 is 0->1 c(3) = [8,10) on the one channel; the reduce-scatter adds; step 0 waits for
        // nothing, and rank 1's step-0 send (c(0) = [0,3)) does not overlap it: no applyAfter.
        NS_TEST_ASSERT_MSG_EQ(ToLine(plan.GetTransfer(0)),
                              "#0 0->1 [8,10) step 0 ch 0 reduce deps {}",
                              "t0");
        const CollectiveTransferSpec& t5 = plan.GetTransfer(5);
        NS_TEST_ASSERT_MSG_EQ(t5.src, 1u, "t5 src");
        NS_TEST_ASSERT_MSG_EQ(t5.offset, 8u, "t5 forwards c(3)");
        NS_TEST_ASSERT_MSG_EQ(t5.step, 1u, "t5 step");
        NS_TEST_ASSERT_MSG_EQ(t5.deps.size(), 1u, "t5 one dep");
        NS_TEST_ASSERT_MSG_EQ(t5.deps[0], 0u, "t5 after t0");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(4).deps[0], 3u, "t4 after t3");
        // Rank 0 sends S - c(0) + S - c(1) = 7 + 7 = 14 and receives S - c(3) + S - c(0) =
        // 8 + 7 = 15 bytes.
        NS_TEST_ASSERT_MSG_EQ(plan.BytesSent(0), 14u, "rank 0 sends");
        NS_TEST_ASSERT_MSG_EQ(plan.BytesReceived(0), 15u, "rank 0 receives");
        // The all-gather's first send (step n - 1 = 3) of rank 0 is c(0), which rank 0 holds
        // reduced after its step-2 receive of c(0) from rank 3. Rank 0 receives c(-s-2 mod 4) at
        // reduce-scatter step s, i.e. c(2), c(1), c(0), and nothing before step 3 in the
        // all-gather: only the step-2 receive overlaps c(0).
        std::vector<uint32_t> sends = plan.SendsOf(0);
        NS_TEST_ASSERT_MSG_EQ(sends.size(), 6u, "rank 0 sends 6 transfers");
        const CollectiveTransferSpec& gather = plan.GetTransfer(sends[3]);
        NS_TEST_ASSERT_MSG_EQ(gather.step, 3u, "first all-gather step");
        NS_TEST_ASSERT_MSG_EQ(gather.offset, 0u, "sends c(0)");
        NS_TEST_ASSERT_MSG_EQ(gather.reduce, false, "all-gather stores");
        NS_TEST_ASSERT_MSG_EQ(gather.deps.size(), 1u, "one dep");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(gather.deps[0]).step, 2u, "the step-2 receive");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(gather.deps[0]).src, 3u, "from rank 3");

        // Three channels: c(3) = 2 bytes splits into 1, 1, 0 -> [8,9) on channel 0 and [9,10) on
        // channel 1; c(0) = 3 bytes into 1, 1, 1; c(1) into 1, 1, 1; c(2) into 1, 1. Step 0: ids
        // 0-1 (0->1 c(3)), 2-4 (1->2 c(0)), 5-7 (2->3 c(1)), 8-9 (3->0 c(2)); step 1: ids 10-11
        // (0->1 c(2)), 12-13 (1->2 c(3)). Channel j waits for channel j only.
        NS_TEST_ASSERT_MSG_EQ(MakePlan(A::RING, 3, K::ALL_REDUCE, 4, 10, 1, plan), "", "plan");
        const CollectiveTransferSpec& p1 = plan.GetTransfer(1);
        NS_TEST_ASSERT_MSG_EQ(p1.offset, 9u, "piece 1 offset");
        NS_TEST_ASSERT_MSG_EQ(p1.bytes, 1u, "piece 1 bytes");
        NS_TEST_ASSERT_MSG_EQ(p1.channel, 1u, "piece 1 channel");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(2).src, 1u, "no third piece of c(3)");
        // Piece 12 is c(3)'s [8,9) from rank 1 at step 1 on channel 0, after id 0 (its channel-0
        // piece into rank 1); rank 2's step-1 sends (c(0) = [0,3)) do not overlap it.
        NS_TEST_ASSERT_MSG_EQ(ToLine(plan.GetTransfer(12)),
                              "#12 1->2 [8,9) step 1 ch 0 reduce deps {0}",
                              "piece 12: channel 0 after channel 0");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(13).deps[0], 1u, "channel 1 after channel 1");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(10).deps[0], 8u, "[6,7) after [6,7)");
    }

    /** Transfer counts of naive and direct plans. */
    void CheckCounts()
    {
        CollectivePlan plan;
        // Naive all-reduce, n = 5: 4 sends up, 4 down; rank 0 receives 4 * 37 = 148 bytes; the
        // step-1 sends of rank 0 each wait for all 4 step-0 receives.
        if (!PlanWith(A::NAIVE, 1, K::ALL_REDUCE, 5, 37, 1, 8, "naive transfers", plan))
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(plan.BytesReceived(0), 148u, "rank 0 receives");
        NS_TEST_ASSERT_MSG_EQ(plan.BytesSent(3), 37u, "rank 3 sends");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfers().back().deps.size(), 4u, "waits for all");
        // With 3 channels, 37 = 13 + 12 + 12: 8 * 3 = 24 pieces; each step-1 piece on channel j
        // waits for the 4 step-0 pieces on channel j only (same cut of the same range).
        if (!PlanWith(A::NAIVE, 3, K::ALL_REDUCE, 5, 37, 1, 24, "naive pieces", plan))
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(0).bytes, 13u, "channel 0 piece");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfers().back().deps.size(), 4u, "per-channel deps");
        // Direct all-to-all, n = 5: n(n - 1) = 20 transfers in one step, no dependencies.
        if (!PlanWith(A::DIRECT, 1, K::ALL_TO_ALL, 5, 37, 1, 20, "direct transfers", plan))
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(plan.GetSteps(), 1u, "one step");
        // Staggered all-to-all, n = 5: the same 20 transfers in 4 steps, none depending on
        // another (send and receive buffers differ), rank 0 sending to rank k + 1 at step k.
        if (!PlanWith(A::STAGGERED, 1, K::ALL_TO_ALL, 5, 37, 1, 20, "staggered transfers", plan))
        {
            return;
        }
        for (const CollectiveTransferSpec& t : plan.GetTransfers())
        {
            NS_TEST_ASSERT_MSG_EQ(t.deps.size(), 0u, "no dependencies in all-to-all");
            // Rank r sends chunk dst of its buffer: c(j) of 37 in 5 is 8 for j < 2, else 7.
            NS_TEST_ASSERT_MSG_EQ(t.offset, CollectiveChunks::RangeBytes(37, 5, 0, t.dst), t);
            NS_TEST_ASSERT_MSG_EQ(t.dst, (t.src + t.step + 1) % 5, t);
        }
    }

    /** The binomial broadcast's transfers and dependencies, n = 5. */
    void CheckBinomial()
    {
        // Step 0: 0->1; step 1: 0->2, 1->3; step 2: 0->4 (ranks r < 4 with r + 4 < 5: only 0).
        // ids 0..3 in that order; 1->3 (id 2) waits for 0->1 (id 0); the root's sends wait for
        // nothing.
        CollectivePlan plan;
        if (!PlanWith(A::RECURSIVE_DOUBLING, 1, K::BROADCAST, 5, 37, 1, 4, "n - 1 transfers", plan))
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(2).src, 1u, "id 2 src");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(2).dst, 3u, "id 2 dst");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(2).deps.size(), 1u, "id 2 one dep");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(2).deps[0], 0u, "after 0->1");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(1).deps.size(), 0u, "root waits for nothing");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(3).dst, 4u, "id 3 dst");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(3).deps.size(), 0u, "root waits for nothing");
        // n = 8: the 7 non-roots each receive once; rank 1 sends at steps 1 and 2 (to 3 and 5),
        // each waiting for its one receive (id 0).
        if (!PlanWith(A::RECURSIVE_DOUBLING, 1, K::BROADCAST, 8, 37, 1, 7, "n - 1 transfers", plan))
        {
            return;
        }
        std::vector<uint32_t> sends = plan.SendsOf(1);
        NS_TEST_ASSERT_MSG_EQ(sends.size(), 2u, "rank 1 sends twice");
        for (uint32_t id : sends)
        {
            NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(id).deps.size(), 1u, "one dep");
            NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(id).deps[0], 0u, "the receive from 0");
        }
    }

    /** Staging of recursive-doubling all-reduce, n = 4. */
    void CheckRecursiveDoubling()
    {
        // log2 4 = 2 steps, n transfers each: 8. Each transfer a->b of step k is applied after
        // b's own send b->a of step k (the partner's transfer); each step-1 send waits for the
        // step-0 receive into its sender.
        CollectivePlan plan;
        if (!PlanWith(A::RECURSIVE_DOUBLING, 1, K::ALL_REDUCE, 4, 37, 1, 8, "transfers", plan))
        {
            return;
        }
        for (const CollectiveTransferSpec& t : plan.GetTransfers())
        {
            NS_TEST_ASSERT_MSG_EQ(t.applyAfter.size(), 1u, t);
            const CollectiveTransferSpec& partner = plan.GetTransfer(t.applyAfter[0]);
            NS_TEST_ASSERT_MSG_EQ(partner.src, t.dst, t);
            NS_TEST_ASSERT_MSG_EQ(partner.dst, t.src, t);
            NS_TEST_ASSERT_MSG_EQ(partner.step, t.step, t);
            NS_TEST_ASSERT_MSG_EQ(t.deps.size(), t.step, t);
        }
        // Halving-doubling exchanges disjoint halves: nothing is staged.
        NS_TEST_ASSERT_MSG_EQ(MakePlan(A::HALVING_DOUBLING, 1, K::ALL_REDUCE, 4, 37, 1, plan),
                              "",
                              "plan");
        NS_TEST_ASSERT_MSG_EQ(CountStaged(plan), 0u, "halving-doubling");
    }

    /** Stages of hierarchical all-reduce, n = 4 on servers of L = 2. */
    void CheckHierarchical()
    {
        // Steps 0 and 3 are in the servers ({0, 1}, {2, 3}); steps 1 and 2 on the rails
        // ({0, 2}, {1, 3}), which carry chunk l of S in L chunks: S = 10 -> 5 bytes each, cut in
        // m = 2 sub-chunks of 3 and 2 bytes. 4 transfers per step.
        CollectivePlan plan;
        if (!PlanWith(A::HIERARCHICAL, 1, K::ALL_REDUCE, 4, 10, 2, 16, "transfers", plan))
        {
            return;
        }
        for (const CollectiveTransferSpec& t : plan.GetTransfers())
        {
            bool intra = t.src / 2 == t.dst / 2;
            bool expectIntra = t.step == 0 || t.step == 3;
            NS_TEST_ASSERT_MSG_EQ(intra, expectIntra, t);
            if (!intra)
            {
                NS_TEST_ASSERT_MSG_EQ(t.src % 2, t.dst % 2, t);
                // Rail l carries [5l, 5l + 5).
                NS_TEST_ASSERT_MSG_EQ(t.offset / 5, t.src % 2, t);
                NS_TEST_ASSERT_MSG_EQ(t.bytes + (t.offset % 5 == 0 ? 0 : 1), 3u, t);
            }
        }
        // Rank 0's first rail send (step 1) is a sub-chunk of chunk 0, [0, 5): it waits for the
        // intra-server receive of chunk 0 at step 0 (from rank 1).
        for (uint32_t id : plan.SendsOf(0))
        {
            const CollectiveTransferSpec& t = plan.GetTransfer(id);
            if (t.step == 1)
            {
                NS_TEST_ASSERT_MSG_EQ(t.deps.size(), 1u, t);
                NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(t.deps[0]).src, 1u, t);
                NS_TEST_ASSERT_MSG_EQ(plan.GetTransfer(t.deps[0]).step, 0u, t);
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Refused combinations, the factory and the Channels attribute.
 */
class CollectiveStrategyRefusalTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CollectiveStrategyRefusalTestCase()
        : TestCase("Unsupported combinations are refused with messages naming the values")
    {
    }

  private:
    void DoRun() override
    {
        CollectivePlan plan;
        std::string m = MakePlan(A::HALVING_DOUBLING, 2, K::ALL_REDUCE, 6, 64, 1, plan);
        NS_TEST_ASSERT_MSG_EQ((Contains(m, "power-of-two") && Contains(m, "n = 6")), true, m);
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfers().size(), 0u, "empty plan on error");
        NS_TEST_ASSERT_MSG_EQ(plan.GetSteps(), 0u, "empty plan on error");
        m = MakePlan(A::RECURSIVE_DOUBLING, 2, K::ALL_GATHER, 6, 64, 1, plan);
        NS_TEST_ASSERT_MSG_EQ((Contains(m, "power-of-two") && Contains(m, "n = 6")), true, m);
        m = MakePlan(A::RECURSIVE_DOUBLING, 2, K::BROADCAST, 6, 64, 1, plan);
        NS_TEST_ASSERT_MSG_EQ(m, "", "the binomial broadcast takes any n");
        m = MakePlan(A::HIERARCHICAL, 2, K::ALL_REDUCE, 6, 64, 4, plan);
        NS_TEST_ASSERT_MSG_EQ((Contains(m, "n = 6") && Contains(m, "localSize = 4")), true, m);
        m = MakePlan(A::HIERARCHICAL, 2, K::ALL_REDUCE, 8, 64, 0, plan);
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "localSize = 0"), true, m);
        m = MakePlan(A::RING, 2, K::ALL_TO_ALL, 4, 64, 1, plan);
        NS_TEST_ASSERT_MSG_EQ((Contains(m, "'ring'") && Contains(m, "all-to-all")), true, m);
        m = MakePlan(A::DIRECT, 2, K::SEND_RECV, 3, 64, 1, plan);
        NS_TEST_ASSERT_MSG_EQ((Contains(m, "send-recv") && Contains(m, "n = 3")), true, m);
        m = MakePlan(A::RING, 2, K::ALL_REDUCE, 0, 64, 1, plan);
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "n = 0"), true, m);
        m = MakePlan(A::RING, 2, K::ALL_REDUCE, 4, ~uint64_t{0}, 1, plan);
        NS_TEST_ASSERT_MSG_EQ(Contains(m, "too large"), true, m);

        // Every (kind, algorithm) pair: supported by the strategy exactly when CollectiveVolume
        // supports it (checked on n = 2, which every supported pair accepts).
        for (A algorithm : ALL_ALGORITHMS)
        {
            Ptr<CollectiveStrategy> strategy =
                CollectiveStrategy::Create(CollectiveVolume::GetStrategyTypeId(algorithm));
            NS_TEST_ASSERT_MSG_EQ(strategy->GetName(),
                                  CollectiveVolume::GetAlgorithmName(algorithm),
                                  "the strategy's alias is the oracle's name");
            for (K kind : ALL_KINDS)
            {
                RankVolume volume;
                bool volumeOk =
                    CollectiveVolume::Compute(kind, algorithm, 2, 64, 0, volume).empty();
                bool strategyOk = strategy->CheckSupport(kind, 2, 1).empty();
                NS_TEST_ASSERT_MSG_EQ(strategyOk,
                                      volumeOk,
                                      CollectiveVolume::GetAlgorithmName(algorithm)
                                          << " " << GetCollectiveKindName(kind));
            }
        }
        // Names: an alias registered in the class's own file, its TypeId name, or that without
        // "ns3::"; anything else is refused with the list of aliases.
        TypeId tid;
        NS_TEST_ASSERT_MSG_EQ(CollectiveChoices::Resolve("ring", tid), "", "alias");
        NS_TEST_ASSERT_MSG_EQ(tid.GetName(), "ns3::RingCollective", "alias ring");
        NS_TEST_ASSERT_MSG_EQ(CollectiveChoices::Resolve("ns3::DoubleBinaryTreeCollective", tid),
                              "",
                              "TypeId name");
        NS_TEST_ASSERT_MSG_EQ(tid.GetName(), "ns3::DoubleBinaryTreeCollective", "TypeId name");
        NS_TEST_ASSERT_MSG_EQ(CollectiveChoices::Resolve("HierarchicalCollective", tid),
                              "",
                              "short TypeId name");
        std::string refused = CollectiveChoices::Resolve("ns3::Dcqcn", tid);
        NS_TEST_ASSERT_MSG_EQ(Contains(refused, "unknown collective algorithm 'ns3::Dcqcn'"),
                              true,
                              "a TypeId of another base is refused: " << refused);
        NS_TEST_ASSERT_MSG_EQ(Contains(refused, "double-binary-tree, halving-doubling"),
                              true,
                              "the aliases are listed: " << refused);

        // Channels: default 2, range 1..64.
        Ptr<CollectiveStrategy> ring =
            CollectiveStrategy::Create(CollectiveVolume::GetStrategyTypeId(A::RING));
        NS_TEST_ASSERT_MSG_EQ(ring->GetChannels(), 2u, "default channels");
        NS_TEST_ASSERT_MSG_EQ(ring->SetAttributeFailSafe("Channels", UintegerValue(0)),
                              false,
                              "0 channels");
        NS_TEST_ASSERT_MSG_EQ(ring->SetAttributeFailSafe("Channels", UintegerValue(65)),
                              false,
                              "65 channels");
        NS_TEST_ASSERT_MSG_EQ(ring->SetAttributeFailSafe("Channels", UintegerValue(64)),
                              true,
                              "64 channels");
        // 64 channels on S = 10, n = 2 ring all-reduce: each rank sends c(1) = 5 in the
        // reduce-scatter and c(0) = 5 in the all-gather, or 5 one-byte pieces each: 2 ranks *
        // 2 steps * 5 = 20 pieces, on channels 0..4.
        NS_TEST_ASSERT_MSG_EQ(ring->Plan(K::ALL_REDUCE, 2, 10, 1, plan), "", "plan");
        NS_TEST_ASSERT_MSG_EQ(plan.GetTransfers().size(), 20u, "one-byte pieces");
        uint32_t maxChannel = 0;
        for (const CollectiveTransferSpec& t : plan.GetTransfers())
        {
            maxChannel = std::max(maxChannel, t.channel);
        }
        NS_TEST_ASSERT_MSG_EQ(maxChannel, 4u, "channels used");
    }
};

/**
 * @ingroup llm-fabric-tests
 * CollectivePlan::Check reports each broken rule.
 */
class CollectivePlanCheckTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CollectivePlanCheckTestCase()
        : TestCase("CollectivePlan Check reports ids, ranks, ranges, steps and dependencies")
    {
    }

  private:
    /**
     * Check a modified copy of a plan's transfers.
     * @param plan the valid plan.
     * @param transfers the modified transfers.
     * @return Check()'s message for them.
     */
    static std::string CheckOf(const CollectivePlan& plan,
                               const std::vector<CollectiveTransferSpec>& transfers)
    {
        CollectivePlan copy = plan;
        copy.SetTransfers(transfers);
        return copy.Check();
    }

    void DoRun() override
    {
        // Ring all-reduce, n = 3, S = 9, one channel: chunks of 3 bytes; 2(n - 1) = 4 steps of 3
        // transfers, ids 0-2 at step 0 (0->1, 1->2, 2->0), 3-5 at step 1 (0->1 after id 2,
        // 1->2 after id 0, 2->0 after id 1).
        CollectivePlan plan;
        NS_TEST_ASSERT_MSG_EQ(MakePlan(A::RING, 1, K::ALL_REDUCE, 3, 9, 1, plan), "", "plan");
        NS_TEST_ASSERT_MSG_EQ(plan.Check(), "", "valid");
        const std::vector<CollectiveTransferSpec> valid = plan.GetTransfers();
        NS_TEST_ASSERT_MSG_EQ(valid.size(), 12u, "transfers");
        NS_TEST_ASSERT_MSG_EQ(valid[3].deps.size(), 1u, "id 3 one dep");
        NS_TEST_ASSERT_MSG_EQ(valid[3].deps[0], 2u, "id 3 after id 2");

        // Each corruption of the valid transfers, and what Check must say about it.
        const std::vector<
            std::pair<std::function<void(std::vector<CollectiveTransferSpec>&)>, std::string>>
            corruptions = {
                {[](std::vector<CollectiveTransferSpec>& t) { t[1].id = 7; },
                 "id is 7, not its index 1"},
                {[](std::vector<CollectiveTransferSpec>& t) { t[0].dst = 0; },
                 "rank 0 sends to itself"},
                {[](std::vector<CollectiveTransferSpec>& t) { t[0].dst = 3; },
                 "rank 3 is not less than the group size n = 3"},
                {[](std::vector<CollectiveTransferSpec>& t) { t[0].bytes = 0; }, "0 bytes"},
                // [7, 10) with 3 bytes, past S = 9
                {[](std::vector<CollectiveTransferSpec>& t) { t[0].offset = 7; },
                 "[7, 10) is outside the buffer of S = 9"},
                {[](std::vector<CollectiveTransferSpec>& t) { t[0].step = 4; },
                 "step 4 is not less than the plan's 4 steps"},
                {[](std::vector<CollectiveTransferSpec>& t) { t[0].channel = 1; },
                 "channel 1 is not less than the plan's 1 channels"}};
        for (const auto& [corrupt, message] : corruptions)
        {
            auto t = valid;
            corrupt(t);
            std::string m = CheckOf(plan, t);
            NS_TEST_ASSERT_MSG_EQ(Contains(m, message), true, m);
        }

        // Id 3 (0->1 at step 1) with one entry in its deps or its applyAfter list, and what
        // Check must say about it ("": valid).
        struct DependencyCase
        {
            bool applyAfter;     //!< the entry is in applyAfter (else in deps)
            uint32_t id;         //!< the entry
            std::string message; //!< a part of Check's message ("": none)
        };

        const std::vector<DependencyCase> dependencies = {
            {false, 12, "dependency 12 is not less than the 12 transfers"},
            // id 0 goes into rank 1, not into id 3's sender, rank 0
            {false, 0, "into rank 1, not into the sender 0"},
            // id 8 is 2->0 at step 2: into rank 0, but not of an earlier step
            {false, 8, "has step 2, not smaller than the transfer's step 1"},
            // id 5 is 2->0 at step 1: into rank 0, but of the same step
            {false, 5, "has step 1, not smaller than the transfer's step 1"},
            // id 2 is 2->0, not a transfer from id 3's receiver, rank 1
            {true, 2, "from rank 2, not from the receiver 1"},
            // id 7 is 1->2 at step 2, later than id 3's step 1
            {true, 7, "has step 2, greater than the transfer's step 1"},
            // id 4 is 1->2 at step 1: from the receiver, same step: valid
            {true, 4, ""},
        };
        for (const DependencyCase& c : dependencies)
        {
            auto t = valid;
            (c.applyAfter ? t[3].applyAfter : t[3].deps) = {c.id};
            std::string m = CheckOf(plan, t);
            NS_TEST_ASSERT_MSG_EQ((c.message.empty() ? m.empty() : Contains(m, c.message)),
                                  true,
                                  (c.applyAfter ? "applyAfter " : "deps ") << c.id << ": " << m);
        }

        // The accessors of a plan's per-rank lists.
        NS_TEST_ASSERT_MSG_EQ(plan.SendsOf(0).size(), 4u, "rank 0 sends one transfer a step");
        NS_TEST_ASSERT_MSG_EQ(plan.ReceivesOf(2).size(), 4u, "rank 2 receives one a step");
        NS_TEST_ASSERT_MSG_EQ(plan.SendsOf(3).size(), 0u, "no such rank");
        // Ring all-reduce: each rank sends 2(n - 1) chunks of 3 bytes = 12.
        NS_TEST_ASSERT_MSG_EQ(plan.BytesSent(1), 12u, "bytes sent");
        NS_TEST_ASSERT_MSG_EQ(plan.BytesReceived(1), 12u, "bytes received");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The collective strategy test suite.
 */
class CollectiveStrategyTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    CollectiveStrategyTestSuite()
        : TestSuite("llm-fabric-collective-strategy", Type::UNIT)
    {
        AddTestCase(new CollectiveStrategyVolumeTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CollectiveStrategyDataFlowTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CollectiveStrategyBrokenPlanTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CollectiveStrategyStructureTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CollectiveStrategyRefusalTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CollectivePlanCheckTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static CollectiveStrategyTestSuite g_collectiveStrategyTestSuite;

} // namespace tests
} // namespace llmfabric

/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_STRATEGY_H
#define COLLECTIVE_STRATEGY_H

#include "collective-chunks.h"
#include "collective-kind.h"
#include "collective-plan.h"
#include "collective-schedule.h"

#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief One collective on a group, as a strategy's BuildSchedule sees it.
 */
struct CollectiveCall
{
    CollectiveKind kind; //!< The collective.
    uint32_t n;          //!< The group size.
    uint64_t bytes;      //!< The message size S, as CollectiveKind defines it.
    uint32_t localSize;  //!< Ranks per server (rank r's server is r / localSize).
};

/**
 * @ingroup llm-fabric
 * @brief A collective algorithm as an executable transfer graph: the strategy that plans which
 * rank sends which byte range to whom, in which step, on which channel, after which transfers.
 *
 * Each algorithm is one subclass in its own file pair, registered by its TypeId and a short
 * alias (TypeIdAlias, e.g. "ring" for ns3::RingCollective): CollectiveRuntime and the scenario's
 * @c collectives keys choose one per collective kind by that name. Its BuildSchedule is the only
 * definition of the algorithm: Plan() turns it into the transfer graph the simulation executes,
 * and Tally() streams it into the per-rank bytes of the analytical report (TrafficReport), so
 * the two cannot disagree. (An independent re-derivation of every schedule's bytes lives in the
 * tests, as an oracle.) Plan() works in four stages:
 *
 * 1. CheckSupport refuses the combinations the algorithm does not implement;
 * 2. the subclass's BuildSchedule lists the whole transfers of the schedule (range, step, reduce);
 * 3. each whole transfer is cut into Channels contiguous sub-ranges with
 *    CollectiveChunks::ChunkBytes, sub-range j on channel j (as NCCL spreads a collective over
 *    channels); sub-ranges of 0 bytes are not listed;
 * 4. the dependencies are derived from the data, then CollectivePlan::Check runs.
 *
 * <b>Dependencies</b> (deps). A transfer of range R sent by rank r at step s depends on every
 * transfer received by r at a step before s whose range overlaps R: r forwards R only once all
 * the data the schedule brought into R before step s is there (read after write). This rule is
 * exact for the schedules here because each is a synchronous-round schedule in which what r sends
 * at step s is the content of its buffer at the end of step s-1. In detail:
 * - reduction chains (ring and halving reduce-scatter, the trees' reduce, naive's gather) make a
 *   send wait for the partial sums it carries; the broadcast stages (ring and doubling
 *   all-gather, the trees' broadcast, naive's second step, the chain, the binomial tree) make a
 *   rank forward a range only after receiving it. In the binomial broadcast a rank receives once,
 *   at step k, and sends at every later step, each send depending on that one receive; the root
 *   receives nothing and its sends depend on nothing. In HIERARCHICAL the rule links the stages
 *   through the ranges: the rail stage's sub-ranges of chunk l depend on the last intra-server
 *   receive of chunk l, and the final intra-server all-gather's first send on every rail receive
 *   of chunk l. Channels stay independent where ranges are cut alike (channel j waits for channel
 *   j only); where they are not (the rail stage cuts chunk l differently) the overlap rule gives
 *   the right, finer-grained, dependencies.
 * - the rule may list a dependency that another one already implies (e.g. in the halving
 *   reduce-scatter, the receives of all earlier steps): harmless, never a cycle, since every
 *   dependency has a smaller step.
 * - ALL_TO_ALL and SEND_RECV get no dependencies: the send and receive buffers differ, so nothing
 *   received is ever sent on.
 *
 * <b>Hazards on the receiving side</b> (write after read). A transfer into r over range R must
 * not be applied before r has read (sent) the old content of R that r's own transfers send. For
 * sends of an earlier step the dependencies already order this, transitively, in all schedules
 * here (e.g. in the ring all-gather the final value of a chunk can only exist after every rank's
 * reduce-scatter send of it was received); the tests verify it for every algorithm. A send of the
 * same step is not ordered by any dependency, and only RECURSIVE_DOUBLING all-reduce has one: r
 * and r XOR 2^k send each other the whole buffer, reduce, in step k, so whichever arrives first
 * would be summed into the other's outgoing data (counted twice). No dependency can fix it (each
 * send would wait for the other). Instead every transfer into r of step s whose range overlaps a
 * send of r of step s lists those sends in applyAfter: r receives it into a staging buffer and
 * adds it once its own send has been read, as MPI implementations of recursive doubling do with
 * a temporary buffer. The rule is generic; no other schedule here produces such a list.
 */
class CollectiveStrategy : public Object
{
  public:
    /**
     * Register this type.
     * @return the object TypeId.
     */
    static TypeId GetTypeId();

    ~CollectiveStrategy() override;

    /** @return the algorithm's short name (its TypeIdAlias, e.g. "ring"). */
    std::string GetName() const;

    /** @return the kinds it implements, in CollectiveKind's declaration order. */
    std::vector<CollectiveKind> GetSupportedKinds() const;

    /**
     * Whether this algorithm can plan a collective on a group. The base class checks what holds
     * for every algorithm (n at least 1, localSize at least 1 and dividing n, the kind among
     * GetSupportedKinds(), n = 2 for SEND_RECV, a power-of-two n for the kinds the subclass
     * names as needing one); subclasses may add their own conditions.
     * @param kind the collective.
     * @param n the group size.
     * @param localSize ranks per server.
     * @return an empty string, or why not, naming the values (e.g. "halving-doubling all-reduce
     * needs a power-of-two group size n, got n = 6").
     */
    virtual std::string CheckSupport(CollectiveKind kind, uint32_t n, uint32_t localSize) const;

    /**
     * Plan a collective on a group of n ranks. The plan must be a function of the arguments,
     * the channels and the strategy's attributes: CollectiveRuntime makes it once per shape and
     * shares it among the collectives of that shape.
     * @param kind the collective.
     * @param n the group size.
     * @param bytes the message size S, as CollectiveKind defines it.
     * @param localSize ranks per server (rank r's server is r / localSize).
     * @param[out] out the plan (an empty default plan on error).
     * @return an empty string, or why the collective cannot be planned, naming the values.
     */
    std::string Plan(CollectiveKind kind,
                     uint32_t n,
                     uint64_t bytes,
                     uint32_t localSize,
                     CollectivePlan& out) const;

    /**
     * @param channels the number of channels, 1 to MAX_CHANNELS (the attribute "Channels").
     */
    void SetChannels(uint32_t channels);

    /** @return the number of channels. */
    uint32_t GetChannels() const;

    /**
     * The traffic of every rank of a collective on a group, from the same schedule Plan uses but
     * without keeping its transfers (memory O(ranks x distinct peers), time O(transfers)). The
     * bytes do not depend on the number of channels.
     * @param kind the collective.
     * @param n the group size.
     * @param bytes the message size S.
     * @param localSize ranks per server.
     * @param[out] out the traffic (empty on error).
     * @return an empty string, or why the collective cannot be planned (as Plan says).
     */
    std::string Tally(CollectiveKind kind,
                      uint32_t n,
                      uint64_t bytes,
                      uint32_t localSize,
                      CollectiveTraffic& out) const;

    /**
     * The localSize of a group (what HIERARCHICAL needs): its ranks per server if it is made of
     * whole blocks of consecutive group ranks per server, all of the same size; else 1. The
     * runtime and the analytical report both plan with it.
     * @param servers the server of each member, in group order.
     * @return the localSize.
     */
    static uint32_t LocalSizeOf(const std::vector<uint32_t>& servers);

    /**
     * Create a strategy by TypeId, with its default attributes.
     * @param tid the TypeId of a CollectiveStrategy subclass.
     * @return the new object.
     */
    static Ptr<CollectiveStrategy> Create(TypeId tid);

    /// The largest number of channels.
    static constexpr uint32_t MAX_CHANNELS = 64;

  protected:
    /**
     * @param kinds the kinds the algorithm implements, in CollectiveKind's declaration order.
     * @param powerOfTwoKinds those of them it implements only for a power-of-two group size n.
     */
    explicit CollectiveStrategy(std::vector<CollectiveKind> kinds,
                                std::vector<CollectiveKind> powerOfTwoKinds = {});

    /**
     * List the whole (un-split) transfers of the schedule, in any order; ids, channels and
     * dependencies are set afterwards by Plan. Called only for combinations CheckSupport accepts.
     * @param call the collective and its group.
     * @param[out] schedule where to add the transfers (use AddTransfer).
     * @return the number of steps of the schedule.
     */
    virtual uint32_t BuildSchedule(const CollectiveCall& call,
                                   CollectiveSchedule& schedule) const = 0;

    /**
     * Add a whole transfer to a schedule, unless it carries 0 bytes.
     * @param schedule the schedule.
     * @param src the sender.
     * @param dst the receiver.
     * @param offset the first byte of the range.
     * @param bytes the bytes of the range.
     * @param step the step.
     * @param reduce whether dst adds the data into its copy (else stores it).
     */
    static void AddTransfer(CollectiveSchedule& schedule,
                            uint32_t src,
                            uint32_t dst,
                            uint64_t offset,
                            uint64_t bytes,
                            uint32_t step,
                            bool reduce);

    /**
     * @param n a positive number.
     * @return the smallest k with 2^k >= n.
     */
    static uint32_t CeilLog2(uint32_t n);

    /**
     * @param n a number.
     * @return true if n is a power of two (1 included).
     */
    static bool IsPowerOfTwo(uint32_t n);

  private:
    /**
     * Check what Plan and Tally both refuse.
     * @param kind the collective.
     * @param n the group size.
     * @param bytes the message size S.
     * @param localSize ranks per server.
     * @return an empty string, or the problem.
     */
    std::string CheckPlan(CollectiveKind kind,
                          uint32_t n,
                          uint64_t bytes,
                          uint32_t localSize) const;

    /**
     * Fill the deps and applyAfter lists of split transfers (see the class documentation).
     * @param n the group size.
     * @param[in,out] transfers the transfers, ids set, listed by step.
     */
    static void ComputeDependencies(uint32_t n, std::vector<CollectiveTransferSpec>& transfers);

    std::vector<CollectiveKind> m_kinds;           //!< The kinds it implements.
    std::vector<CollectiveKind> m_powerOfTwoKinds; //!< Those needing a power-of-two n.
    uint32_t m_channels;                           //!< The number of channels.
};

} // namespace ns3

#endif /* COLLECTIVE_STRATEGY_H */

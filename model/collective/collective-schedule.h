/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_SCHEDULE_H
#define COLLECTIVE_SCHEDULE_H

#include "collective-plan.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * The bytes one rank exchanges with one peer in a collective (all steps added up).
 */
struct CollectivePeerBytes
{
    uint32_t peer;  //!< The other group rank.
    uint64_t bytes; //!< Payload bytes.
};

/**
 * @ingroup llm-fabric
 * The traffic of every rank of a group in one collective, tallied from a strategy's schedule
 * (CollectiveStrategy::Tally) without keeping its transfers.
 */
struct CollectiveTraffic
{
    uint32_t steps{0}; //!< Steps of the schedule.
    /// Per group rank, the bytes it sends to each peer, by ascending peer (no zero entries).
    std::vector<std::vector<CollectivePeerBytes>> sent;
    /// Per group rank, the bytes it receives from each peer, by ascending peer.
    std::vector<std::vector<CollectivePeerBytes>> received;
};

/**
 * @ingroup llm-fabric
 * @brief Where a strategy writes the whole transfers of its schedule: either kept, for a plan,
 * or only tallied per rank and peer, for the analytical report.
 *
 * The same CollectiveStrategy::BuildSchedule feeds both, so the report's bytes are those of the
 * plan the simulation executes. Tallying keeps O(ranks x distinct peers) memory: a ring over
 * 8,192 ranks streams its 134 M transfers through two counters per rank.
 */
class CollectiveSchedule
{
  public:
    /**
     * A schedule that keeps its transfers.
     * @param transfers where to append them.
     */
    explicit CollectiveSchedule(std::vector<CollectiveTransferSpec>& transfers);

    /**
     * A schedule that tallies the bytes of a group of n ranks.
     * @param n the group size.
     * @param traffic cleared and sized for n ranks; filled by Add and Finish.
     */
    CollectiveSchedule(uint32_t n, CollectiveTraffic& traffic);

    /**
     * Add a whole transfer (nothing if it carries 0 bytes).
     * @param src the sender.
     * @param dst the receiver.
     * @param offset the first byte of the range.
     * @param bytes the bytes of the range.
     * @param step the step.
     * @param reduce whether dst adds the data into its copy (else stores it).
     */
    void Add(uint32_t src,
             uint32_t dst,
             uint64_t offset,
             uint64_t bytes,
             uint32_t step,
             bool reduce);

    /// Sort and merge the tallies by peer (nothing for a schedule that keeps its transfers).
    void Finish();

  private:
    std::vector<CollectiveTransferSpec>* m_transfers; //!< Kept transfers, or nullptr.
    CollectiveTraffic* m_traffic;                     //!< Tallies, or nullptr.
};

} // namespace ns3

#endif /* COLLECTIVE_SCHEDULE_H */

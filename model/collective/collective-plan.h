/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_PLAN_H
#define COLLECTIVE_PLAN_H

#include "collective-kind.h"

#include "ns3/type-id.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief One transfer of an executable collective schedule: a byte range that one rank of the
 * group sends to another, on one channel, once its dependencies have arrived.
 *
 * The range [offset, offset + bytes) is the same in the sender's and the receiver's buffer (the
 * collective's buffer of S bytes, see CollectiveKind), except for ALL_TO_ALL, where it is the
 * range of the sender's send buffer (within chunk dst of it) and the receiver stores the data in
 * its separate receive buffer, in the slot of src.
 *
 * <b>Arrival.</b> A transfer has arrived when its data is in the receiver's buffer: added into it
 * (reduce) or stored over it (not reduce). A transfer whose applyAfter list is empty is applied as
 * its data comes in; one whose list is not empty is received into a staging buffer and applied
 * only once the listed transfers have been read (see applyAfter), and only then has it arrived.
 */
struct CollectiveTransferSpec
{
    uint32_t id{0};      //!< Its index in the plan's list of transfers.
    uint32_t src{0};     //!< The sending rank (a group rank, less than n).
    uint32_t dst{0};     //!< The receiving rank (a group rank, less than n, not src).
    uint64_t offset{0};  //!< First byte of the range it carries, from the buffer's start.
    uint64_t bytes{0};   //!< Bytes of the range (never 0).
    uint32_t step{0};    //!< The step of the schedule (synchronous round, from 0) it belongs to.
    uint32_t channel{0}; //!< The channel (queue pair of the rank pair) that carries it.
    bool reduce{false};  //!< dst adds the data into its copy of the range (else stores it).
    /**
     * Ids of the transfers that must have fully arrived at src before this one may start: all are
     * transfers into src of an earlier step, so the graph is acyclic.
     */
    std::vector<uint32_t> deps;
    /**
     * Ids of transfers sent by dst, in the same step or an earlier one, that must have been read
     * completely from dst's buffer (sent) before this transfer's data may be applied to it; when
     * not empty, dst receives the data into a staging buffer and applies it afterwards. Empty for
     * every schedule but the in-place exchanges of RECURSIVE_DOUBLING all-reduce, where two ranks
     * send each other the same range in the same step (see CollectiveStrategy).
     */
    std::vector<uint32_t> applyAfter;
};

/**
 * Print a transfer on one line, e.g. "#3 1->2 [8,10) step 1 ch 0 reduce deps {0}".
 * @param os the stream.
 * @param transfer the transfer.
 * @return the stream.
 */
std::ostream& operator<<(std::ostream& os, const CollectiveTransferSpec& transfer);

/**
 * @ingroup llm-fabric
 * @brief The executable plan of one collective operation on a group of n ranks: every transfer
 * of its schedule with its byte range, step, channel and dependencies.
 *
 * A plain value, filled by CollectiveStrategy::Plan and read by whatever executes the collective
 * (one queue pair per rank pair and channel; a transfer starts when its deps have arrived). The
 * transfers are listed by step, so every dependency has a smaller id than its dependent. Check()
 * verifies the structural rules of a plan; a plan that passes it may still compute the wrong
 * result, which the tests of the strategies verify by executing plans.
 */
class CollectivePlan
{
  public:
    /** An empty plan: one rank, no bytes, no transfers, no steps. */
    CollectivePlan();

    /**
     * A plan without transfers, to be filled with SetSteps and SetTransfers.
     * @param kind the collective.
     * @param algorithm the TypeId of its CollectiveStrategy subclass.
     * @param n the group size.
     * @param bytes the message size S, as CollectiveKind defines it.
     * @param channels the number of channels the transfers are spread over.
     * @param localSize ranks per server (rank r's server is r / localSize).
     */
    CollectivePlan(CollectiveKind kind,
                   TypeId algorithm,
                   uint32_t n,
                   uint64_t bytes,
                   uint32_t channels,
                   uint32_t localSize);

    /** @return the collective. */
    CollectiveKind GetKind() const;
    /** @return the TypeId of its CollectiveStrategy subclass. */
    TypeId GetAlgorithm() const;
    /** @return the group size n. */
    uint32_t GetGroupSize() const;
    /** @return the message size S, in bytes. */
    uint64_t GetBytes() const;
    /** @return the number of channels. */
    uint32_t GetChannels() const;
    /** @return the ranks per server. */
    uint32_t GetLocalSize() const;
    /** @return the number of steps of the schedule (steps without transfers included). */
    uint32_t GetSteps() const;

    /**
     * @param steps the number of steps of the schedule.
     */
    void SetSteps(uint32_t steps);

    /**
     * Replace the transfers, as given (ids are not renumbered: Check() verifies them).
     * @param transfers the transfers, transfer i with id i.
     */
    void SetTransfers(std::vector<CollectiveTransferSpec> transfers);

    /** @return all transfers, transfer i with id i. */
    const std::vector<CollectiveTransferSpec>& GetTransfers() const;

    /**
     * @param id a transfer id, less than the number of transfers (aborts otherwise).
     * @return that transfer.
     */
    const CollectiveTransferSpec& GetTransfer(uint32_t id) const;

    /**
     * @param rank a rank, less than n.
     * @return the ids of the transfers it sends, ascending (empty for a rank out of range).
     */
    std::vector<uint32_t> SendsOf(uint32_t rank) const;

    /**
     * @param rank a rank, less than n.
     * @return the ids of the transfers it receives, ascending (empty for a rank out of range).
     */
    std::vector<uint32_t> ReceivesOf(uint32_t rank) const;

    /**
     * @param rank a rank.
     * @return the bytes it sends, summed over all its transfers.
     */
    uint64_t BytesSent(uint32_t rank) const;

    /**
     * @param rank a rank.
     * @return the bytes it receives, summed over all its transfers.
     */
    uint64_t BytesReceived(uint32_t rank) const;

    /**
     * Check the structural rules of the plan.
     *
     * The rules, checked transfer by transfer in id order: its id equals its index; src and dst
     * are less than n and differ; bytes is not 0; the range lies within the S bytes of the
     * buffer; step is less than GetSteps() and channel less than GetChannels(); every dep is the
     * id of a transfer, into src, of a smaller step; every applyAfter entry is the id of a
     * transfer, from dst, of the same or a smaller step.
     * @return an empty string, or the first problem found, naming the transfer and the values.
     */
    std::string Check() const;

  private:
    /** Rebuild m_sends and m_receives from m_transfers. */
    void IndexTransfers();

    CollectiveKind m_kind;                           //!< The collective.
    TypeId m_algorithm;                              //!< Its strategy's type.
    uint32_t m_n;                                    //!< The group size.
    uint64_t m_bytes;                                //!< The message size S.
    uint32_t m_channels;                             //!< The number of channels.
    uint32_t m_localSize;                            //!< Ranks per server.
    uint32_t m_steps;                                //!< Steps of the schedule.
    std::vector<CollectiveTransferSpec> m_transfers; //!< The transfers.
    std::vector<std::vector<uint32_t>> m_sends;      //!< Ids sent, per rank less than n.
    std::vector<std::vector<uint32_t>> m_receives;   //!< Ids received, per rank less than n.
};

} // namespace ns3

#endif /* COLLECTIVE_PLAN_H */

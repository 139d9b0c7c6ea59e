/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NVLINK_DOMAIN_H
#define NVLINK_DOMAIN_H

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The GPUs of one server and their NVLink/NVSwitch fabric, modelled at message level.
 *
 * Tensor-parallel traffic stays inside a server; carrying it packet by packet would dominate the
 * run time of a training simulation, so this class moves whole messages ("transfers") as a fluid.
 *
 * <b>Model.</b> GPU g (0 .. Gpus-1) has an egress port and an ingress port, each of capacity
 * Bandwidth; the NVSwitch between them is non-blocking, so those 2 x Gpus ports are the only
 * constraints. A transfer from src to dst uses the egress port of src and the ingress port of dst.
 * The serializing transfers share the ports by max-min fairness, computed by progressive filling
 * (water-filling): repeatedly, the port with the smallest fair share (residual capacity divided
 * by the number of its transfers not yet assigned) is a bottleneck; its unassigned transfers get
 * that share, which is taken from the residual capacity of their other port. Rates are recomputed
 * whenever a transfer starts or finishes serializing and are constant in between. A transfer has
 * finished serializing when all its 8 x bytes bits have left at those rates; its data arrives at
 * dst Latency after that (the latency models the switch and link pipeline, not a queue: it does
 * not occupy any port). There is no flow control (no PFC) and nothing is lost.
 *
 * <b>Exact fluid time, rounded events.</b> The fluid model runs in exact (real-valued) time: a
 * transfer that finishes serializing at a fractional nanosecond gives its bandwidth to the others
 * at that very instant, even though the simulator only sees it at the next event. Events are
 * rounded, never the model: the arrival of a transfer whose serialization ends at the exact fluid
 * time t is delivered at the first simulator tick (nanosecond by default) at or after t, plus
 * Latency. So a transfer of B bytes alone arrives exactly ceil(8 B / Bandwidth) + Latency after
 * Send (1,000,000 bytes at 3600 Gb/s: 2222.2 ns of serialization, arrival at 2223 ns + 1 us), and
 * rounding never accumulates along a chain of transfers.
 *
 * <b>Numerics.</b> Remaining work is kept per transfer in bits as a double, and rates in bits
 * per tick; the fluid state is brought to the current tick at every event, sub-step by sub-step
 * through the fluid finishes that happened since the last one (offsets in double ticks, relative
 * to that last event, so large absolute times lose no precision). In each sub-step the transfer
 * that finishes first is set to exactly zero remaining bits, together with every transfer whose
 * own finish is within FINISH_TOLERANCE_TICKS (1 fs at nanosecond resolution) of it: such
 * transfers finish together, and float residues never leave a transfer with a stray fraction of a
 * bit. A fluid finish within that tolerance of a whole tick counts as that tick, so an exact
 * finish at 2000 ns computed as 2000.0000000001 is not delayed to 2001 ns. Transfers that finish
 * in the same sub-step are delivered in the order of their ids.
 *
 * <b>Cost.</b> The fluid state needs one pending event while a transfer serializes (the next
 * fluid finish, moved when rates change) plus one per transfer between the end of its
 * serialization and its arrival; an idle domain has no pending event (no polling). Each start or
 * finish costs O(active transfers x GPUs) for the rates.
 *
 * Gpus and Bandwidth may only be changed while the domain is idle (no transfer pending); Latency
 * is read when a transfer finishes serializing. A domain belongs to one simulation: do not keep
 * using it after Simulator::Destroy.
 */
class NvlinkDomain : public Object
{
  public:
    /**
     * A fluid finish this close to another one, or to a whole tick, counts as equal to it, in
     * ticks of the simulator's resolution (1 fs at the default nanosecond resolution).
     */
    static constexpr double FINISH_TOLERANCE_TICKS = 1e-6;

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    NvlinkDomain();
    ~NvlinkDomain() override;

    NvlinkDomain(const NvlinkDomain&) = delete;
    NvlinkDomain& operator=(const NvlinkDomain&) = delete;

    /**
     * TracedCallback signature of the start of a transfer (fired by Send).
     * @param id the transfer id.
     * @param src the source GPU.
     * @param dst the destination GPU.
     * @param bytes the transfer's size in bytes.
     */
    typedef void (*TransferStartTracedCallback)(uint64_t id,
                                                uint32_t src,
                                                uint32_t dst,
                                                uint64_t bytes);

    /**
     * TracedCallback signature of the arrival of a transfer's last byte at its destination
     * (fired just before the transfer's own callback).
     * @param id the transfer id.
     * @param src the source GPU.
     * @param dst the destination GPU.
     * @param bytes the transfer's size in bytes.
     * @param duration time from Send to arrival, Latency included.
     */
    typedef void (*TransferEndTracedCallback)(uint64_t id,
                                              uint32_t src,
                                              uint32_t dst,
                                              uint64_t bytes,
                                              Time duration);

    /**
     * Check the arguments of a Send.
     * @param src the source GPU.
     * @param dst the destination GPU.
     * @param bytes the size in bytes.
     * @return "" if Send accepts them, otherwise the problem, naming the offending value.
     */
    std::string CheckSend(uint32_t src, uint32_t dst, uint64_t bytes) const;

    /**
     * Start a transfer now. Aborts with the message of CheckSend if the arguments are invalid.
     * @param src the source GPU, below Gpus.
     * @param dst the destination GPU, below Gpus and different from src.
     * @param bytes the size in bytes, at least 1.
     * @param arrived called with the transfer id when the last byte has arrived at dst (Latency
     *        after the transfer finished serializing); may be a null callback.
     * @return the transfer id: 1 for the first transfer of this domain, then counting up.
     */
    uint64_t Send(uint32_t src, uint32_t dst, uint64_t bytes, Callback<void, uint64_t> arrived);

    /// @return the number of GPUs (the Gpus attribute).
    uint32_t GetGpus() const;

    /**
     * Set the number of GPUs (the Gpus attribute). Aborts if a transfer is pending or if gpus is
     * zero.
     * @param gpus the number of GPUs, at least 1.
     */
    void SetGpus(uint32_t gpus);

    /// @return the capacity of each GPU port, per direction (the Bandwidth attribute).
    DataRate GetBandwidth() const;

    /// @return the time from the end of a transfer's serialization to its arrival (the Latency
    /// attribute).
    Time GetLatency() const;

    /**
     * Set the capacity of each GPU port, per direction (the Bandwidth attribute). Aborts if a
     * transfer is pending or if the rate is zero.
     * @param bandwidth the capacity.
     */
    void SetBandwidth(DataRate bandwidth);

    /// @return the transfers still serializing (they hold port bandwidth).
    uint32_t GetActiveTransfers() const;

    /// @return the transfers sent and not yet arrived (serializing or within Latency).
    uint32_t GetPendingTransfers() const;

    /// @return the transfers whose last byte has arrived.
    uint64_t GetTransfersCompleted() const;

    /// @return the transfers started by Send so far.
    uint64_t GetTransfersStarted() const;

    /// @return the bytes of the transfers that have arrived.
    uint64_t GetBytesDelivered() const;

    /// @return the bytes of all the transfers started by Send so far.
    uint64_t GetBytesSent() const;

    /**
     * The current rate of a transfer.
     * @param id a transfer id.
     * @return its max-min fair rate in bit/s if it is serializing, else 0. O(active transfers).
     */
    double GetRate(uint64_t id) const;

  protected:
    void DoDispose() override;

  private:
    /// A transfer, from Send to its arrival.
    struct Transfer
    {
        uint64_t id;                      //!< transfer id
        uint32_t src;                     //!< source GPU
        uint32_t dst;                     //!< destination GPU
        uint64_t bytes;                   //!< size in bytes
        double remainingBits;             //!< bits still to serialize (at m_syncTick)
        double rate;                      //!< current rate, bits per tick
        Time start;                       //!< time of Send
        Callback<void, uint64_t> arrived; //!< the caller's callback
    };

    /// The serialized transfers on their way, and the event of their arrivals (defined in the
    /// .cc file).
    class Arrivals;

    /**
     * Bring the fluid state from m_syncTick to now: process, in order, every fluid finish up to
     * now (within FINISH_TOLERANCE_TICKS), recomputing the rates after each, then serialize the
     * rest of the interval at the final rates.
     */
    void Advance();

    /**
     * Remove the transfers that finished serializing at a fluid time and schedule their
     * arrival. The one at index first always finishes; so do those within FINISH_TOLERANCE_TICKS
     * of their own finish.
     * @param first index in m_active of the transfer that finishes first.
     * @param offset the fluid time of the finish, in ticks after m_syncTick.
     */
    void FinishSerialization(std::size_t first, double offset);

    /// Recompute the max-min fair rates of the active transfers (progressive filling).
    void ComputeRates();

    /**
     * @param[out] index the index in m_active of the transfer that finishes first.
     * @return the time until it finishes at the current rates, in ticks (m_active not empty).
     */
    double NextFinish(std::size_t& index) const;

    /// Make the wakeup event fire at the next fluid finish (none if nothing serializes).
    void ScheduleWakeup();

    /// Take the pending wakeup event out of the simulator.
    void RemoveWakeup();

    /// The wakeup event: process the fluid finishes due now.
    void Wakeup();

    /**
     * Deliver a transfer to its destination.
     * @param t the transfer.
     */
    void Arrive(const Transfer& t);

    // Attributes
    uint32_t m_gpus;      //!< GPUs of the domain
    DataRate m_bandwidth; //!< capacity of each port, per direction
    Time m_latency;       //!< from the end of a transfer's serialization to its arrival

    // State
    std::vector<Transfer> m_active; //!< transfers serializing, in no particular order
    /// Serialized transfers waiting for their arrival (made on the first; one event object
    /// scheduled once per transfer, instead of an event and a map node made per transfer).
    Ptr<Arrivals> m_arrivals;
    int64_t m_syncTick; //!< tick at which m_active's remainingBits hold
    EventId m_wakeup;   //!< the next fluid finish
    /// The event object of every wake-up (one is pending at a time), made on the first.
    Ptr<EventImpl> m_wakeupEvent;
    int64_t m_wakeupTick; //!< tick of m_wakeup (while it is pending)
    /// m_wakeup is scheduled and has neither run nor been removed (kept here: asking the
    /// EventId costs several calls into ns-3 per Send)
    bool m_wakeupPending;
    uint64_t m_nextId;         //!< id of the next transfer
    uint64_t m_started;        //!< transfers started
    uint64_t m_completed;      //!< transfers arrived
    uint64_t m_bytesSent;      //!< bytes of the transfers started
    uint64_t m_bytesDelivered; //!< bytes of the transfers arrived
    /// Bandwidth in bits per tick; negative until ComputeRates converts it (the resolution is
    /// fixed by then)
    double m_capacityPerTick;

    // Scratch space of ComputeRates, kept to avoid allocations (2 x Gpus ports).
    std::vector<double> m_residual;  //!< residual capacity per port, bits per tick
    std::vector<uint32_t> m_pending; //!< transfers per port without a rate yet
    std::vector<double> m_share;     //!< fair share per port with pending transfers
    std::vector<uint8_t> m_assigned; //!< per active transfer: rate assigned (1) or not (0)
    /// The active transfers of each port, in order: those of port p are
    /// m_portTransfers[m_portStart[p] .. m_portStart[p + 1]) (a transfer is in its egress
    /// port's list and in its ingress port's).
    std::vector<uint32_t> m_portStart;
    std::vector<uint32_t> m_portTransfers; //!< see m_portStart
    std::vector<uint32_t> m_portFill;      //!< scratch: where each port's list is filled up to
    std::vector<Transfer> m_finished;      //!< scratch of FinishSerialization

    TracedCallback<uint64_t, uint32_t, uint32_t, uint64_t> m_startTrace;     //!< TransferStart
    TracedCallback<uint64_t, uint32_t, uint32_t, uint64_t, Time> m_endTrace; //!< TransferEnd
};

} // namespace ns3

#endif /* NVLINK_DOMAIN_H */

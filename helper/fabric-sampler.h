/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_SAMPLER_H
#define FABRIC_SAMPLER_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/roce-net-device.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Measures a fabric during a time window, in memory: the distribution of queue lengths
 * on some ports, and the utilization of some links.
 *
 * Queue ports (AddQueuePort) are sampled at start, start + interval, ... (every time before
 * stop): each sample records the bytes queued for one priority of one port, empty queues
 * included, so that a percentile over the samples is the fraction of (port, time) pairs at
 * or below a length (the queue-length distribution of congestion-control papers). A frame
 * counts in its queue from its enqueue until it starts on the wire, as RoceNetDevice counts it.
 *
 * Load ports (AddLoadPort) count the frames of the priority that start on their wire between
 * the first sample and stop, each for its wire bytes (frame, FCS, preamble and inter-frame gap:
 * frame + 24 bytes); GetUtilization divides their bits by the ports' capacity over the window.
 * A frame counts whole when it starts, so a window of W seconds on a link of rate R may count
 * up to one frame more than W x R carries.
 *
 * The sampler holds itself in its scheduled events: it must outlive Simulator::Run() (its
 * destructor cancels them).
 */
class FabricSampler
{
  public:
    FabricSampler();
    ~FabricSampler();

    FabricSampler(const FabricSampler&) = delete;
    FabricSampler& operator=(const FabricSampler&) = delete;

    /**
     * Sample a port's queue.
     * @param port the port.
     */
    void AddQueuePort(Ptr<RoceNetDevice> port);

    /**
     * Count the load a port puts on its link.
     * @param port the port.
     */
    void AddLoadPort(Ptr<RoceNetDevice> port);

    /**
     * Schedule the samples (call before Simulator::Run, once).
     * @param start the first sample, not in the past.
     * @param stop samples are taken before this time; the load is counted up to it (after
     *        start).
     * @param interval the time between samples, positive.
     * @param priority the priority whose queue and frames are measured (0 to 7).
     */
    void Start(Time start, Time stop, Time interval, uint8_t priority);

    /// @return the number of queue samples taken.
    uint64_t GetSampleCount() const;

    /**
     * A percentile of the queue samples, by nearest rank: the smallest sample s such that at
     * least q of the samples are at most s (the sorted sample of rank ceil(q x N), counted from
     * 1; the smallest for q = 0).
     * @param q the fraction, in [0, 1].
     * @return the queue length in bytes (0 without samples).
     */
    uint32_t GetQueuePercentile(double q) const;

    /// @return the largest queue sample in bytes (0 without samples).
    uint32_t GetMaxSample() const;

    /**
     * @return the load ports' wire bits sent in the window over their capacity in it:
     *         sum of 8 x (frame + 24) bytes / (sum of port rates x (stop - start)); 0 before
     *         the window ended or without load ports.
     */
    double GetUtilization() const;

  private:
    /// Take the first sample: record the load ports' counters.
    void Begin();

    /// Take one queue sample and schedule the next.
    void Sample();

    /// The window ended: record the load ports' counters.
    void End();

    /// @return the load ports' wire bytes of the priority sent so far.
    uint64_t LoadWireBytes() const;

    std::vector<Ptr<RoceNetDevice>> m_queuePorts; //!< ports whose queues are sampled
    std::vector<Ptr<RoceNetDevice>> m_loadPorts;  //!< ports whose load is counted
    std::vector<uint32_t> m_samples;              //!< queue samples, bytes
    Time m_start;                                 //!< first sample
    Time m_stop;                                  //!< end of the window
    Time m_interval;                              //!< time between samples
    uint8_t m_priority;                           //!< measured priority
    uint64_t m_loadAtStart;                       //!< LoadWireBytes at the first sample
    uint64_t m_loadInWindow;                      //!< wire bytes sent in the window
    bool m_ended;                                 //!< the window ended
    EventId m_sampleEvent;                        //!< next sample
    EventId m_beginEvent;                         //!< the load's start
    EventId m_endEvent;                           //!< end of the window
};

} // namespace ns3

#endif /* FABRIC_SAMPLER_H */

/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWIFT_H
#define SWIFT_H

#include "rdma-congestion-ops.h"

#include "ns3/nstime.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Swift: a delay-based congestion window with a target delay that scales with the path's
 * hops and the flow's window. Alias "swift".
 *
 * From Kumar et al., "Swift: Delay is Simple and Effective for Congestion Control in the
 * Datacenter", SIGCOMM 2020 (section 3: the algorithm, its target delay, flow scaling and
 * pacing). The window cwnd counts packets (of GetMtu() payload bytes) and may be fractional.
 *
 * Delay: each acknowledgement with an RTT sample gives delay = the sample (the paper subtracts
 * the receiver's and the sender's host delays, measured with NIC timestamps; here the hosts add
 * none but the receiver's ACK coalescing, which the transport keeps short: a packet that fills
 * the window asks for an ACK at once, and an ACK's sample is that of its newest packet).
 *
 * Target delay, with hops the ACK's hop echo (RdmaAckInfo::hops; the receiver counts 64 minus
 * the TTL of the data packets, which switches decrement):
 *   target = BaseTarget + hops x PerHopScaling + fs,
 *   fs = clamp(a / sqrt(cwnd) + b, 0, FsRange), a = FsRange / (1 / sqrt(FsMinCwnd) -
 *   1 / sqrt(FsMaxCwnd)), b = -a / sqrt(FsMaxCwnd),
 * so fs is FsRange at cwnd = FsMinCwnd and 0 at FsMaxCwnd (the TargetDelay trace).
 *
 * On each acknowledgement with a sample (num_acked = ackedBytes / MTU packets):
 *  - delay < target: cwnd <- cwnd + Ai x num_acked / cwnd when cwnd >= 1, cwnd + Ai x num_acked
 *    when cwnd < 1 (additive increase of Ai packets per round trip);
 *  - otherwise, if no decrease happened within the last RTT (the sample): cwnd <- cwnd x
 *    max(1 - Beta (delay - target) / delay, 1 - MaxMdf);
 *  - cwnd <- clamp(cwnd, MinCwnd, MaxCwnd).
 * On a retransmission timeout: cwnd <- MinCwnd after RetxResetThreshold timeouts in a row,
 * otherwise cwnd x (1 - MaxMdf) (if no decrease within the last RTT).
 *
 * Window and pacing: cwnd >= 1: the window is cwnd x MTU payload bytes (rounded down) and the
 * rate the line rate. cwnd < 1: the window is one packet and the rate paces one full packet per
 * RTT / cwnd (the paper's pacing delay): rate = (MTU + 82) x 8 bits x cwnd / RTT, with 82 the
 * bytes a packet adds on the wire (BTH 12, ICRC 4, UDP 8, IPv4 20, Ethernet 14 and FCS 4,
 * preamble and gap 20), RTT the last sample.
 *
 * The paper names its parameters but the values of its deployment are not all in its text;
 * this class's defaults are for 100 Gb/s links with 1 us propagation (see each attribute for
 * which values are the paper's and which are ours).
 */
class Swift : public RdmaCongestionOps
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    Swift();
    ~Swift() override;

    /// @return "Swift".
    std::string GetName() const override;

    /**
     * Start at the line rate with cwnd = InitialCwnd.
     * @param lineRate the NIC port's rate.
     */
    void Start(DataRate lineRate) override;

    /**
     * Increase below the target delay, decrease (once per RTT) above it.
     * @param info the acknowledgement.
     */
    void OnAck(const RdmaAckInfo& info) override;

    /// A retransmission timeout.
    void OnTimeout() override;

    /// @return true: the receiver echoes the hop count.
    bool NeedsHopEcho() const override;

    /**
     * "TargetDelay" and "Delay" are in us ("target_delay_us", "delay_us"), "Cwnd" is
     * "cwnd_packets".
     * @param traceSource a TracedValue of this object.
     * @return its name and scale in time series.
     */
    RdmaCcVariableDisplay GetVariableDisplay(const std::string& traceSource) const override;

    /**
     * The target delay for a window and a hop count.
     * @param cwnd a window, packets.
     * @param hops switches on the path.
     * @return BaseTarget + hops x PerHopScaling + fs(cwnd).
     */
    Time GetTargetDelay(double cwnd, uint32_t hops) const;

    /**
     * Check the configuration.
     * @return "" if consistent, otherwise the first problem naming the attribute and value:
     * FsMinCwnd not below FsMaxCwnd, MinCwnd above MaxCwnd, InitialCwnd outside them.
     */
    std::string CheckConfig() const override;

    /// @return cwnd, packets.
    double GetCwnd() const;

    /// @return the last target delay.
    Time GetLastTarget() const;

    /// @return the window decreases so far.
    uint64_t GetDecreases() const;

    /// @return the hop echo of the last acknowledgement with a sample.
    uint32_t GetLastHops() const;

  private:
    /// Publish cwnd as the window and, below one packet, as a pacing rate.
    void Publish();

    // Attributes
    Time m_baseTarget;    //!< BaseTarget.
    Time m_perHop;        //!< PerHopScaling (h).
    Time m_fsRange;       //!< FsRange.
    double m_fsMinCwnd;   //!< FsMinCwnd, packets.
    double m_fsMaxCwnd;   //!< FsMaxCwnd, packets.
    double m_ai;          //!< Ai, packets per RTT.
    double m_beta;        //!< Beta.
    double m_maxMdf;      //!< MaxMdf.
    double m_minCwnd;     //!< MinCwnd, packets.
    double m_maxCwnd;     //!< MaxCwnd, packets.
    double m_initialCwnd; //!< InitialCwnd, packets.
    uint32_t m_retxReset; //!< RetxResetThreshold.

    // State
    double m_cwndValue;         //!< cwnd, packets (m_cwnd traces it)
    Time m_lastDecrease;        //!< time of the last decrease
    bool m_decreased;           //!< a decrease happened
    Time m_rtt;                 //!< the last RTT sample
    uint32_t m_timeoutsInRow;   //!< timeouts without an ACK between
    uint32_t m_lastHops;        //!< hop echo of the last sampled ACK
    uint64_t m_decreases;       //!< decreases so far
    TracedValue<double> m_cwnd; //!< cwnd, packets
    TracedValue<Time> m_target; //!< the last target delay
    TracedValue<Time> m_delay;  //!< the last measured delay
};

} // namespace ns3

#endif /* SWIFT_H */

/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TIMELY_H
#define TIMELY_H

#include "rdma-congestion-ops.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief TIMELY: rate-based congestion control driven by the gradient of the round-trip time.
 * Alias "timely".
 *
 * From Mittal et al., "TIMELY: RTT-based Congestion Control for the Datacenter", SIGCOMM 2015
 * (section 4, Algorithm 1), and the authors' published pseudocode of the rate computation
 * (Ghobadi's timely.cc), where the two differ as noted.
 *
 * Completions: TIMELY updates its rate once per completion event with the RTT the NIC measured
 * for it (the paper: a segment of 16 to 64 KB). Here a completion is an acknowledgement that
 * acknowledges new data and carries an RTT sample (RdmaAckInfo::rtt: now minus the send time of
 * the newest packet it acknowledges; none after a retransmission, Karn): the receiver
 * coalesces up to AckInterval (16) packets or AckDelay (4 us) per ACK, so a completion covers
 * up to 16 KB at the default 1 KB MTU (64 KB at 4 KB), the paper's segment sizes.
 *
 * On each completion with a sample rtt, with minRTT the fixed minimum RTT (MinRtt; 0: the
 * smallest sample this queue pair has seen) and k a step scale (below):
 *   diff <- rtt - prev_rtt;  prev_rtt <- rtt;
 *   rtt_diff <- (1 - Alpha) rtt_diff + Alpha diff;  g <- rtt_diff / minRTT (the RttGradient
 *   trace);
 *   - rtt < TLow: rate <- rate + k Delta;
 *   - rtt > THigh: rate <- rate (1 - k Beta (1 - THigh / rtt));
 *   - g <= 0: rate <- rate + k N Delta, with N = HaiFactor when g has been <= 0 for the last
 *     HaiThreshold completions (hyper-active increase), else 1;
 *   - g > 0: rate <- rate (1 - k Beta g);
 * then min(LineRate, max(MinRate, rate)). The first sample only sets prev_rtt.
 *
 * The step scale k: 1 when ScaleByElapsed is false (the paper's Algorithm 1); otherwise
 * min(1, time since the last update / minRTT), as the published pseudocode does: with several
 * completions per minRTT (here up to one per 16 packets, 1.3 us at 100 Gb/s) each moves the
 * rate by its share of a minRTT, so the rate moves as fast per unit time as with one completion
 * per minRTT.
 *
 * Parameters where the paper's parameter table and its pseudocode disagree (see the
 * attributes): Alpha 0.875 (table) or 0.02 (pseudocode; ours: completions here are per ACK, as
 * the pseudocode's, many per RTT, and 0.875 would make each ACK's difference the gradient);
 * THigh 500 us (table; ours: at 100 Gb/s it is 6.25 MB of queue, reachable in a 12 MB buffer,
 * while 1 ms, the pseudocode's, is more than the buffer) or 1 ms. TLow: 50 us in the table,
 * for segments sent in bursts; 0 in the pseudocode with per-packet pacing, which is what the
 * queue pair does (ours: 0, so every decision below THigh is the gradient's).
 */
class Timely : public RdmaCongestionOps
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    Timely();
    ~Timely() override;

    /// @return "Timely".
    std::string GetName() const override;

    /**
     * Start at the line rate, with no RTT history.
     * @param lineRate the NIC port's rate.
     */
    void Start(DataRate lineRate) override;

    /**
     * A completion: update the rate from its RTT sample (none: nothing changes).
     * @param info the acknowledgement.
     */
    void OnAck(const RdmaAckInfo& info) override;

    /**
     * Check the configuration.
     * @return "" if consistent, otherwise the first problem naming the attribute and value:
     * Alpha or Beta outside (0, 1], THigh not above TLow, a negative MinRtt.
     */
    std::string CheckConfig() const override;

    /// @return the normalized RTT gradient of the last completion.
    double GetRttGradient() const;

    /// @return the minRTT in use (MinRtt, or the smallest sample so far).
    Time GetMinRtt() const;

    /// @return the completions with an RTT sample so far.
    uint64_t GetCompletions() const;

  private:
    /**
     * Restart the step clock.
     * @return the step scale k (see the class description).
     */
    double StepScale();

    // Attributes
    double m_ewma;           //!< Alpha: EWMA weight of a new RTT difference.
    double m_beta;           //!< Beta: multiplicative decrease factor.
    DataRate m_delta;        //!< Delta: additive increment.
    Time m_tLow;             //!< TLow.
    Time m_tHigh;            //!< THigh.
    Time m_minRttAttr;       //!< MinRtt (0: the smallest sample).
    uint32_t m_haiThreshold; //!< HaiThreshold: completions with g <= 0 before HAI.
    uint32_t m_haiFactor;    //!< HaiFactor: N in HAI mode.
    DataRate m_minRate;      //!< MinRate.
    bool m_scaleByElapsed;   //!< ScaleByElapsed.

    // State
    double m_rate;                  //!< current rate, bit/s
    bool m_haveSample;              //!< a first sample arrived
    Time m_prevRtt;                 //!< the previous sample
    Time m_minRttSeen;              //!< the smallest sample
    double m_rttDiff;               //!< EWMA of RTT differences, seconds
    uint32_t m_nonPositive;         //!< consecutive completions with g <= 0
    Time m_lastUpdate;              //!< time of the last rate update
    uint64_t m_completions;         //!< completions with a sample
    TracedValue<double> m_gradient; //!< the normalized gradient g
};

} // namespace ns3

#endif /* TIMELY_H */

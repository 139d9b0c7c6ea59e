/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DCTCP_H
#define DCTCP_H

#include "rdma-congestion-ops.h"

#include "ns3/data-rate.h"
#include "ns3/queue-size.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief DCTCP over RDMA: a window of payload bytes cut in proportion to the fraction of
 * ECN-marked bytes. Alias "dctcp".
 *
 * From Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010 (section 3.1) and RFC 8257
 * (sections 3.3 and 3.4), carried over to a queue pair's window (W, the Window trace, in payload
 * bytes; the rate stays at the line rate: DCTCP does not pace).
 *
 * Marked bytes: the queue pair asks its receiver for the ECN echo (NeedsEcnEcho), so each ACK
 * covers packets of one CE state (the receiver acknowledges at once when the state changes, RFC
 * 8257 section 3.2) and carries BECN when they were marked. The marked bytes of an ACK are then
 * exactly its acknowledged bytes when it carries BECN, zero otherwise: the count of CE-marked
 * bytes the ACK covers, with no field added to the ACK (GetMarkedBytes sums them).
 *
 * Alpha, once per window of data (an observation window ends when an ACK acknowledges
 * everything that had been sent when the window began, RFC 8257 section 3.3):
 *   F = marked bytes / acknowledged bytes of the window;  alpha <- (1 - G) alpha + G F.
 *
 * Window, on each ACK (with M = GetMtu() bytes, a full packet):
 *  - the ACK carries BECN and no cut happened in the current window (the ACK acknowledges data
 *    sent after the last cut): W <- W (1 - alpha / 2), at most once per window of data (the
 *    paper's "cut by alpha / 2 once per window");
 *  - otherwise, if it carries no BECN: W <- W + AdditiveIncrease x M x ackedBytes / W, i.e.
 *    AdditiveIncrease packets per window of data (TCP's congestion avoidance);
 *  - W never falls below one packet (M); a timeout sets W to M.
 * The window the queue pair uses is W rounded down to whole bytes. There is no slow start: a
 * flow starts with InitialWindow, as RDMA NICs start at the line rate.
 *
 * Switch marking (GetEcnMarking): a step at K, Kmin = Kmax = MarkingThreshold at
 * MarkingReferenceRate, Pmax = 1, scaled per port with the port's rate: K = 30 KB x port rate /
 * 10 Gb/s by default, the HPCC paper's DCTCP setup (Li et al., SIGCOMM 2019, section 5.1), i.e.
 * 300 KB on a 100 Gb/s port.
 */
class Dctcp : public RdmaCongestionOps
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    Dctcp();
    ~Dctcp() override;

    /// @return "Dctcp".
    std::string GetName() const override;

    /**
     * Start at the line rate with W = InitialWindow and alpha = InitialAlpha.
     * @param lineRate the NIC port's rate.
     */
    void Start(DataRate lineRate) override;

    /**
     * Count marked bytes, update alpha at the end of each window of data, cut or grow W.
     * @param info the acknowledgement.
     */
    void OnAck(const RdmaAckInfo& info) override;

    /// A retransmission timeout: W <- one packet.
    void OnTimeout() override;

    /// @return true: the receiver echoes CE in its ACKs.
    bool NeedsEcnEcho() const override;

    /**
     * The step marking at K (see the class description).
     * @param[out] marking Kmin = Kmax = MarkingThreshold, Pmax 1, at MarkingReferenceRate.
     * @return true.
     */
    bool GetEcnMarking(RdmaEcnMarking& marking) const override;

    /**
     * Check the configuration.
     * @return "" if consistent, otherwise the first problem naming the attribute and value: G
     * outside (0, 1], InitialAlpha outside [0, 1], AdditiveIncrease not positive,
     * MarkingThreshold not in bytes or zero, MarkingReferenceRate zero.
     */
    std::string CheckConfig() const override;

    /// @return alpha.
    double GetAlpha() const;

    /// @return W, payload bytes (not rounded).
    double GetCwnd() const;

    /// @return the payload bytes acknowledged so far.
    uint64_t GetAckedBytes() const;

    /// @return the acknowledged payload bytes that arrived CE-marked, so far.
    uint64_t GetMarkedBytes() const;

    /// @return the windows of data observed (alpha updates) so far.
    uint64_t GetObservationWindows() const;

    /// @return the window cuts so far.
    uint64_t GetCuts() const;

  private:
    /// Publish W (rounded down, at least one packet) as the window.
    void PublishWindow();

    // Attributes
    double m_g;                   //!< G: alpha gain.
    double m_initialAlpha;        //!< InitialAlpha.
    uint64_t m_initialWindow;     //!< InitialWindow, bytes.
    double m_additiveIncrease;    //!< AdditiveIncrease, packets per window.
    QueueSize m_markingThreshold; //!< MarkingThreshold: K at MarkingReferenceRate.
    DataRate m_referenceRate;     //!< MarkingReferenceRate.

    // State
    double m_cwnd;                    //!< W, payload bytes.
    uint64_t m_acked;                 //!< payload bytes acknowledged so far
    uint64_t m_marked;                //!< of which CE-marked
    uint64_t m_windowAcked;           //!< acknowledged in the current observation window
    uint64_t m_windowMarked;          //!< of which CE-marked
    uint64_t m_windowEnd;             //!< the window ends when m_acked reaches this
    uint64_t m_cutEnd;                //!< bytes sent at the last cut (a cut needs more acked)
    uint64_t m_windows;               //!< observation windows completed
    uint64_t m_cuts;                  //!< window cuts
    TracedValue<double> m_alpha;      //!< alpha
    TracedValue<double> m_markedFrac; //!< F of the last observation window
};

} // namespace ns3

#endif /* DCTCP_H */

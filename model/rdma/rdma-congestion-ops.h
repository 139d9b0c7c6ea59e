/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CONGESTION_OPS_H
#define RDMA_CONGESTION_OPS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief What a queue pair learns from an acknowledgement, for congestion control.
 *
 * Room is left for per-hop telemetry (HPCC): a later version adds the INT records here.
 */
struct RdmaAckInfo
{
    uint32_t ackedBytes{0}; //!< payload bytes newly acknowledged
    Time rtt;               //!< round-trip time sample (zero if none)
    bool ecnEcho{false};    //!< the acknowledged packet was CE-marked (for DCTCP-like schemes)
};

/**
 * @ingroup llm-fabric
 * @brief Congestion control of one RDMA queue pair: the strategy the transport consults for its
 * sending rate.
 *
 * The transport chooses the algorithm through a TypeIdValue attribute and creates one object
 * per queue pair (each holds its own state and timers). It calls Start once with the line rate,
 * then reports what happens: packets sent (OnSend), CNPs received (OnCnp), acknowledgements
 * (OnAck), retransmission timeouts (OnTimeout), and reads the rate to pace the next packet with
 * GetRate(). Stop cancels the algorithm's timers. Subclasses override what they use.
 *
 * The current rate is the TracedValue "Rate" (bit/s), so its changes can be plotted.
 */
class RdmaCongestionOps : public Object
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaCongestionOps();
    ~RdmaCongestionOps() override;

    /// @return the algorithm's name, e.g. "Dcqcn".
    virtual std::string GetName() const = 0;

    /**
     * The queue pair starts sending.
     * @param lineRate the NIC port's rate; the algorithm starts from it (or below).
     */
    virtual void Start(DataRate lineRate);

    /// The queue pair stops: cancel timers.
    virtual void Stop();

    /**
     * A packet was sent.
     * @param bytes its payload bytes.
     */
    virtual void OnSend(uint32_t bytes);

    /// A congestion notification packet arrived for this queue pair.
    virtual void OnCnp();

    /**
     * An acknowledgement arrived.
     * @param info what it tells.
     */
    virtual void OnAck(const RdmaAckInfo& info);

    /// The retransmission timer expired.
    virtual void OnTimeout();

    /// @return the rate to pace the next packet at.
    DataRate GetRate() const;

    /// @return the line rate given to Start.
    DataRate GetLineRate() const;

  protected:
    /**
     * Set the current rate (and fire the Rate trace when it changes).
     * @param rate the new rate.
     */
    void SetRate(DataRate rate);

    void DoDispose() override;

  private:
    DataRate m_lineRate;          //!< line rate
    TracedValue<uint64_t> m_rate; //!< current rate, bit/s
};

} // namespace ns3

#endif /* RDMA_CONGESTION_OPS_H */

/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CONGESTION_OPS_H
#define RDMA_CONGESTION_OPS_H

#include "roce-int-header.h"

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief What a queue pair learns from an acknowledgement (an ACK, or a NAK that acknowledges
 * the packets before the one it reports missing), for congestion control.
 *
 * The transport fills every field on every acknowledgement that acknowledges new data (it calls
 * RdmaCongestionOps::OnAck only then).
 */
struct RdmaAckInfo
{
    /// Payload bytes newly acknowledged.
    uint32_t ackedBytes{0};
    /**
     * Round-trip time sample: now minus the time the newest packet this ACK acknowledges (the
     * packet ackedPsn) was handed to the port. Zero when there is none: that packet was sent
     * more than once (Karn's rule), or the acknowledgement is a NAK (sent on the arrival of a
     * later packet, not of ackedPsn).
     */
    Time rtt;
    /**
     * The ACK's BTH carries BECN: the packets it acknowledges arrived CE-marked. Set only by a
     * receiver whose congestion control asks for it (RdmaCongestionOps::NeedsEcnEcho); such a
     * receiver acknowledges at once when the CE state of arriving packets changes, so every
     * ACK covers packets of one CE state and all ackedBytes were marked when this is true.
     */
    bool ecnEcho{false};
    /// Index of the newest packet acknowledged (the PSN counted from 0, not wrapped at 2^24).
    uint64_t ackedPsn{0};
    /// Payload bytes sent and not yet acknowledged, after this acknowledgement.
    uint64_t bytesInFlight{0};
    /**
     * In-band telemetry the ACK echoes (RdmaCongestionOps::NeedsTelemetry): the hop records of
     * the newest data packet the receiver accepted in order, first switch first; valid during
     * OnAck only. Null, with telemetryHops 0, when the ACK echoes none.
     */
    const IntHopRecord* telemetry{nullptr};
    /// Number of records at telemetry (0 to RoceIntHeader::MAX_HOPS).
    uint32_t telemetryHops{0};
    /**
     * The ACK's hop echo: the switches the receiver's last data packet crossed (64 minus its
     * IPv4 TTL; switches decrement the TTL), carried in the ACK's BTH (byte 8, bits 4-0). Set
     * only by a receiver whose congestion control asks for it (RdmaCongestionOps::NeedsHopEcho);
     * 0 otherwise.
     */
    uint8_t hops{0};
};

/**
 * @ingroup llm-fabric
 * @brief The switch ECN marking a congestion control is designed for (RED on the egress queue:
 * the SwitchMmu attributes Kmin, Kmax, Pmax and EcnReferenceRate).
 *
 * Programs and NetworkConfig ask the chosen algorithm for it (RdmaCongestionOps::GetEcnMarking,
 * RdmaHelper::GetEcnMarking) and make it the switches' marking wherever the user gave none:
 * each value the user gave on the command line or in a scenario still wins.
 */
struct RdmaEcnMarking
{
    uint32_t kminBytes{0}; //!< Kmin at referenceRate, bytes
    uint32_t kmaxBytes{0}; //!< Kmax at referenceRate, bytes
    double pmax{0};        //!< marking probability at Kmax
    /// The port rate the thresholds are given for; each port's are scaled by its rate over this
    /// one (SwitchMmu::EcnReferenceRate). Zero: the same bytes on every port.
    DataRate referenceRate{0};
};

/**
 * @ingroup llm-fabric
 * @brief How a traced variable of a congestion control appears in a time series (for example
 * the incast program's cc.csv): its name there and the factor applied to its value.
 */
struct RdmaCcVariableDisplay
{
    std::string name;  //!< name in the time series, e.g. "rate_gbps"
    double scale{1.0}; //!< multiplies the value, e.g. 1e-9 for bit/s to Gb/s
};

/**
 * @ingroup llm-fabric
 * @brief Congestion control of one RDMA queue pair: the strategy the transport consults for its
 * sending rate and window.
 *
 * The transport chooses the algorithm through the TypeIdValue attribute
 * ns3::RdmaEndpoint::CongestionControl and creates one object per queue pair (each holds its
 * own state and timers). An algorithm is one subclass in one file pair; it registers a short
 * alias next to its GetTypeId (TypeIdAlias) and touches no other file.
 *
 * What the transport reports:
 * - SetMtu(mtu) and then Start(lineRate), once, when the queue pair is set up; Stop() when it
 *   is disposed;
 * - OnSend(bytes) for every data packet handed to the port, retransmissions included;
 * - OnAck(info) for every acknowledgement that acknowledges new data: newly acknowledged bytes,
 *   an RTT sample (Karn's rule), the ECN echo, the acknowledged PSN and the bytes in flight
 *   after it (RdmaAckInfo);
 * - OnCnp() for every congestion notification packet (RoCEv2 CNP) for the queue pair;
 * - OnTimeout() when the retransmission timer expires.
 *
 * What the algorithm sets:
 * - the rate (SetRate; the line rate after Start): the queue pair paces its packets at it, on
 *   the wire size of each packet;
 * - the window (SetWindow; UNLIMITED_WINDOW unless set): the payload bytes that may be in
 *   flight (sent, not yet acknowledged). A new packet leaves only when both the pacing and the
 *   window allow it, except that one packet may always leave when nothing is in flight.
 *   Retransmissions of selective repeat (single lost packets) are not held by the window. When
 *   the window holds a queue pair back, the queue pair leaves the endpoint's round robin and
 *   re-enters it after the next OnAck, OnCnp or OnTimeout. The queue pair reads the window
 *   after Start, OnSend, OnAck, OnCnp and OnTimeout: a window changed elsewhere (from a timer
 *   of the algorithm) takes effect at the next of those calls. With an unlimited window none
 *   of this costs anything per packet.
 *
 * ECN echo: a receiver whose congestion control returns true from NeedsEcnEcho sets BECN on its
 * ACKs when the packets they acknowledge were CE-marked, and acknowledges at once when the CE
 * state of arriving packets changes (as a DCTCP receiver, RFC 8257 section 3.2). Otherwise ACKs
 * carry no BECN and the receiver acknowledges every AckInterval packets as before. CNPs are
 * sent for CE-marked packets in both cases.
 *
 * In-band telemetry: a sender whose congestion control returns true from NeedsTelemetry
 * reserves a RoceIntHeader (84 bytes, before the ICRC) in every data packet and sets the BTH's
 * telemetry-fill bit; switches with an IntStamper fill one record per hop. The receiver, whatever
 * its own congestion control, keeps the telemetry of the newest in-order data packet and echoes
 * it in its next ACK or NAK; the sender decodes it into RdmaAckInfo::telemetry.
 *
 * The rate (bit/s) and the window (bytes) are the TracedValues "Rate" and "Window". A subclass
 * may add TracedValues of its own; RdmaHelper::ConnectCongestionControlTraces records them all,
 * named and scaled by GetVariableDisplay.
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

    /**
     * Whether the receiving queue pair should echo CE marks in its ACKs (BECN) and acknowledge
     * at once when the CE state of arriving packets changes. Asked once per queue pair, when it
     * is set up; the answer must not change.
     * @return false unless a subclass needs the echo (DCTCP-like algorithms).
     */
    virtual bool NeedsEcnEcho() const;

    /**
     * Whether this queue pair's data packets carry in-band telemetry for switches to fill (a
     * RoceIntHeader of RoceIntHeader::SIZE bytes before the ICRC; none otherwise), so that ACKs
     * echo it in RdmaAckInfo::telemetry. Asked once per queue pair, when it is set up; the
     * answer must not change. RdmaHelper::Install also asks it to add an IntStamper to the
     * switches.
     * @return false unless a subclass needs telemetry (HPCC).
     */
    virtual bool NeedsTelemetry() const;

    /**
     * Check the algorithm's attributes (programs call it through
     * RdmaHelper::CheckCongestionControl before a run, to refuse bad values with a message).
     * @return "" (the default) or the first problem, naming the attribute and its value.
     */
    virtual std::string CheckConfig() const;

    /**
     * Whether the receiving queue pair should echo in its ACKs the hop count of the data
     * packets it receives (RdmaAckInfo::hops). Asked once per queue pair, when it is set up.
     * @return false unless a subclass needs the hop count (Swift).
     */
    virtual bool NeedsHopEcho() const;

    /**
     * Whether a packet after which the window lets no further one go asks the receiver for an
     * ACK at once (the BTH's acknowledge-request bit), so that a window of fewer than
     * AckInterval packets does not wait AckDelay for its ACK. Asked once per queue pair.
     * @return true unless a subclass handles ACK coalescing its own way (HPCC).
     */
    virtual bool AckWhenWindowFull() const;

    /**
     * How one of this algorithm's TracedValues appears in a time series. The default names
     * "Rate" "rate_gbps" (scale 1e-9: bit/s to Gb/s), "Window" "window_bytes", and any other
     * source by its name in snake case ("Alpha" is "alpha", "TargetRate" "target_rate") at
     * scale 1. A subclass overrides it for its own variables and defers to its parent for the
     * others.
     * @param traceSource the name of a TracedValue trace source of this object.
     * @return the name and scale.
     */
    virtual RdmaCcVariableDisplay GetVariableDisplay(const std::string& traceSource) const;

    /// @return the rate to pace the next packet at.
    DataRate GetRate() const;

    /**
     * GetRate() in bit/s, without making a DataRate (an ns-3 call): read per packet.
     * @return the current rate, bit/s.
     */
    uint64_t GetRateBps() const
    {
        return m_rate.Get();
    }

    /// @return the bytes that may be in flight (UNLIMITED_WINDOW when the window is not used).
    uint64_t GetWindow() const
    {
        return m_window.Get();
    }

    /// Window of an algorithm that sets none.
    static constexpr uint64_t UNLIMITED_WINDOW = UINT64_MAX;

    /// @return the line rate given to Start.
    DataRate GetLineRate() const;

    /**
     * The switch ECN marking this algorithm is designed for, if it needs one of its own.
     * @param[out] marking the thresholds (unchanged when the answer is false).
     * @return false (the default): the algorithm states none and the switches keep theirs.
     */
    virtual bool GetEcnMarking(RdmaEcnMarking& marking) const;

    /**
     * Tell the algorithm the queue pair's MTU (payload bytes of a full packet), for algorithms
     * that count in packets. The queue pair calls it before Start.
     * @param mtu payload bytes per packet.
     */
    void SetMtu(uint32_t mtu);

    /// @return the MTU given to SetMtu (1024, RdmaQueuePair's default, if none was).
    uint32_t GetMtu() const;

    /// A parameter profile of an algorithm: attribute names and their values.
    typedef std::vector<std::pair<std::string, Ptr<AttributeValue>>> Profile;

    /**
     * An algorithm's static GetProfile: the attribute values of a named profile.
     * @param name the profile.
     * @param[out] out the attributes and values (empty on error).
     * @return "" or the problem.
     */
    typedef std::string (*ProfileGetter)(const std::string& name, Profile& out);

  protected:
    /**
     * Set the attributes of a named profile on this object: an algorithm's ApplyProfile.
     * @param getProfile the algorithm's GetProfile.
     * @param name the profile.
     * @return "" or the problem (then nothing is changed: GetProfile gives no values).
     */
    std::string ApplyProfileFrom(ProfileGetter getProfile, const std::string& name);

    /**
     * Make a named profile the attribute defaults (Config::SetDefault) of every object of an
     * algorithm created afterwards: an algorithm's SetDefaultProfile.
     * @param getProfile the algorithm's GetProfile.
     * @param typeName the algorithm's TypeId name, e.g. "ns3::Dcqcn".
     * @param name the profile.
     * @return "" or the problem (then nothing is changed).
     */
    static std::string SetDefaultProfileFrom(ProfileGetter getProfile,
                                             const std::string& typeName,
                                             const std::string& name);

    /**
     * Set the current rate (and fire the Rate trace when it changes).
     * @param rate the new rate.
     */
    void SetRate(DataRate rate);

    /**
     * Set the window (and fire the Window trace when it changes).
     * @param bytes payload bytes that may be in flight; UNLIMITED_WINDOW for none.
     */
    void SetWindow(uint64_t bytes);

    void DoDispose() override;

  private:
    DataRate m_lineRate;            //!< line rate
    uint32_t m_mtu{1024};           //!< payload bytes per packet
    TracedValue<uint64_t> m_rate;   //!< current rate, bit/s
    TracedValue<uint64_t> m_window; //!< current window, bytes
};

} // namespace ns3

#endif /* RDMA_CONGESTION_OPS_H */

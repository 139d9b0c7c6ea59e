/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_CONSTANT_RATE_SOURCE_H
#define ROCE_CONSTANT_RATE_SOURCE_H

#include "ns3/application.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <cstdint>

namespace ns3
{

class RoceNetDevice;

/**
 * @ingroup llm-fabric
 * @brief A source of RoCEv2-framed packets at a constant rate, without transport: no
 * acknowledgements, no retransmission, no congestion control.
 *
 * Meant for fabric experiments (queues, PFC, ECN marking, ECMP) before a reliable transport
 * exists. Every packet is an RC RDMA WRITE Middle (BTH without RETH, ack request off) with a PSN
 * that counts packets from 0 modulo 2^24, followed by PayloadSize zero bytes, wrapped by
 * RoceV2Packet::Encapsulate in UDP (port 4791) and IPv4 (identification counting from 0) with its
 * ICRC, and handed to RoceNetDevice::Send() toward RemoteMac as IPv4; the device adds the
 * Ethernet header and classifies the frame by its DSCP.
 *
 * DataRate is the rate on the wire: a packet counts as its whole frame (GetFrameSize()), plus
 * FCS, preamble with start delimiter and inter-frame gap (4 + 8 + 12 bytes). Packet k is handed
 * to the device k x (GetFrameSize(PayloadSize) + 24) x 8 / DataRate after the application
 * starts. The schedule is kept exactly (femtoseconds plus a remainder), so rounding event times
 * to the simulator's resolution never accumulates: at the port's own line rate, the source keeps
 * the link exactly saturated.
 *
 * DataRate and PayloadSize are read when the application starts.
 *
 * A packet the device refuses (its queue limit) is counted and lost; its PSN and IPv4
 * identification are not reused. The source stops after MaxPackets packets (sent and refused
 * together), or when the application stops.
 */
class RoceConstantRateSource : public Application
{
  public:
    /// Smallest RDMA payload per packet, bytes.
    static constexpr uint32_t MIN_PAYLOAD = 1;
    /// Largest RDMA payload per packet, bytes (the largest InfiniBand path MTU).
    static constexpr uint32_t MAX_PAYLOAD = 4096;

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RoceConstantRateSource();
    ~RoceConstantRateSource() override;

    RoceConstantRateSource(const RoceConstantRateSource&) = delete;
    RoceConstantRateSource& operator=(const RoceConstantRateSource&) = delete;

    /**
     * Size of the frame this source sends for a given payload, from the Ethernet header to the
     * ICRC: 14 (Ethernet) + 20 (IPv4) + 8 (UDP) + 12 (BTH) + payload + 4 (ICRC). The FCS is
     * not included (ns-3 packets do not carry it).
     * @param payload RDMA payload bytes.
     * @return the frame size in bytes.
     */
    static uint32_t GetFrameSize(uint32_t payload);

    /// @return packets the device accepted.
    uint64_t GetSent() const;

    /// @return packets the device refused (Send() returned false).
    uint64_t GetRefused() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// Build the next packet, hand it to the device and schedule the one after.
    void SendPacket();

    /// Schedule the next packet at its exact time, or stop if MaxPackets is reached.
    void ScheduleNext();

    // Attributes
    Ipv4Address m_local;      //!< IPv4 source address
    Ipv4Address m_remote;     //!< IPv4 destination address
    Mac48Address m_remoteMac; //!< Ethernet destination address
    DataRate m_rate;          //!< rate on the wire
    uint32_t m_payloadSize;   //!< RDMA payload bytes per packet
    uint8_t m_dscp;           //!< IPv4 DSCP
    bool m_ect;               //!< ECT(0) if true, Not-ECT if false
    uint32_t m_destQp;        //!< BTH destination QP
    uint16_t m_udpSourcePort; //!< UDP source port
    uint64_t m_maxPackets;    //!< packets to generate, 0 for no limit
    uint32_t m_deviceIndex;   //!< index of the node's device to send on

    // State
    Ptr<RoceNetDevice> m_device; //!< the port packets go to
    Ptr<Packet> m_pending;       //!< a refused packet to offer again
    EventId m_sendEvent;         //!< the next send
    uint64_t m_generated;        //!< packets generated so far (next PSN, modulo 2^24)
    uint64_t m_sent;             //!< packets the device accepted
    uint64_t m_refused;          //!< packets the device refused
    bool m_retryRefused;         //!< offer a refused packet again
    uint64_t m_rateBps;          //!< DataRate of this run, bit/s
    int64_t m_startFs;           //!< time of packet 0 of this run, femtoseconds
    int64_t m_offsetFs;          //!< exact offset of the next packet from m_startFs, floor (fs)
    uint64_t m_offsetRem;        //!< remainder of m_offsetFs, in 1/rate femtoseconds
    int64_t m_intervalFs;        //!< whole femtoseconds of one packet interval
    uint64_t m_intervalRem;      //!< remainder of the interval, in 1/rate femtoseconds

    TracedCallback<Ptr<const Packet>> m_txTrace; //!< packet accepted by the device
};

} // namespace ns3

#endif /* ROCE_CONSTANT_RATE_SOURCE_H */

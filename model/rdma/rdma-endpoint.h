/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_ENDPOINT_H
#define RDMA_ENDPOINT_H

#include "rdma-queue-pair.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/roce-net-device.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The RDMA side of a host: its address, its queue pairs and the NIC scheduler that feeds
 * its port.
 *
 * Aggregated to a host node with one RoceNetDevice (no ns-3 Internet stack is needed: the
 * endpoint builds Ethernet/IPv4/UDP 4791/BTH/.../ICRC packets itself). Data packets leave with
 * DataDscp and ECT(0); ACKs, NAKs and CNPs with ControlDscp (a higher priority) and Not-ECT.
 *
 * Scheduling: whenever the port's data queue is empty (a frame has just started on the wire,
 * new work arrived, or a pacing time came), the endpoint takes one packet from the next queue
 * pair in round robin whose pacing allows it (a queue pair whose congestion-control window is
 * full counts as having nothing to send). So the port always has the next frame ready
 * behind the one on the wire, and a port paused by PFC simply stops taking packets. Only queue
 * pairs with something to send are in the round robin (a queue pair enters it when it is
 * notified of new work and leaves it when it has nothing left), so idle and finished queue
 * pairs cost nothing however many a host has.
 *
 * Pause clock: the endpoint follows its port's PauseState trace for the data priority and
 * keeps the total time that priority was paused by PFC. GetUnpausedTime() is the simulation
 * time minus that total, a clock that stands still while the port may not send data; the
 * queue pairs' retransmission timers run on it, so a paused sender does not time out.
 */
class RdmaEndpoint : public Object
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaEndpoint();
    ~RdmaEndpoint() override;

    /**
     * Attach the endpoint to its port and give it its address.
     * @param device the host's port.
     * @param address the host's IPv4 address.
     */
    void Setup(Ptr<RoceNetDevice> device, Ipv4Address address);

    /**
     * Create a connected pair of queue pairs, one on each endpoint.
     * @param a one endpoint.
     * @param b the other.
     * @param udpSourcePort UDP source port of both directions (the flow's ECMP entropy).
     * @return the queue pair on a, then the one on b.
     */
    static std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> Connect(Ptr<RdmaEndpoint> a,
                                                                     Ptr<RdmaEndpoint> b,
                                                                     uint16_t udpSourcePort);

    /// @return the port.
    Ptr<RoceNetDevice> GetDevice() const;
    /// @return the host's address.
    Ipv4Address GetAddress() const;
    /// @return the port's MAC address.
    Mac48Address GetMac() const;
    /// @return the queue pairs of this endpoint.
    const std::vector<Ptr<RdmaQueuePair>>& GetQueuePairs() const;

    /**
     * Put a queue pair's transport headers, written to memory, in front of a packet, wrapped in
     * UDP, IPv4 and the Ethernet header to its peer, and append the ICRC
     * (RoceV2Packet::Encapsulate with headers in memory): the result is a frame, for the
     * port's SendFrame.
     * @param packet what follows the transport headers (payload, telemetry); modified.
     * @param qp the queue pair.
     * @param data true for a data packet (DataDscp, ECT(0)), false for control (ControlDscp,
     *        Not-ECT).
     * @param zeroPayloadBytes the packet's last this many bytes are zeros (its simulated
     *        payload), which lets the ICRC skip reading them.
     * @param transport the transport headers in wire format.
     * @param transportSize how many bytes @p transport holds (1 to
     *        RoceV2Packet::MAX_TRANSPORT_HEADERS).
     */
    void Encapsulate(const Ptr<Packet>& packet,
                     const RdmaQueuePair& qp,
                     bool data,
                     uint32_t zeroPayloadBytes,
                     const uint8_t* transport,
                     uint32_t transportSize);

    /**
     * Send a control packet (ACK, NAK, CNP) of a queue pair now.
     * @param packet the packet from Encapsulate.
     * @param qp the queue pair.
     */
    void SendControl(Ptr<Packet> packet, Ptr<const RdmaQueuePair> qp);

    /**
     * A queue pair has something new to send: put it in the round robin and run the scheduler.
     * @param qp the queue pair (of this endpoint).
     */
    void Notify(Ptr<RdmaQueuePair> qp);

    /**
     * A sending queue pair's rate rose, so its next packet may go earlier than the wake-up the
     * scheduler planned: bring that wake-up forward to the given time if it is earlier.
     * @param atFs the queue pair's new earliest send time, femtoseconds (exact clock).
     */
    void Repace(int64_t atFs);

    /**
     * @return the simulation time minus the total time the port's data priority has been paused
     * by PFC (the pause under way included): a clock that stands still during pauses.
     */
    Time GetUnpausedTime() const;

    /// @return true if PFC pauses the port's data priority now.
    bool IsDataPaused() const;

  protected:
    void DoDispose() override;

  private:
    /// Give the port a packet if its data queue is empty and a queue pair may send (also at
    /// each frame's start on the port's wire: RoceNetDevice::TxStartHook).
    void Pump();

    /**
     * The port passed a received packet up.
     * @param device the port.
     * @param packet the packet, from its IPv4 header.
     * @param protocol its EtherType.
     * @param from the sender's MAC.
     * @return true.
     */
    bool Receive(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from);

    /**
     * The port handed over a whole frame addressed to it (RoceNetDevice::
     * HostFrameReceiveHook): read from its head bytes, as Receive reads the packet.
     * @param device the port.
     * @param frame the frame, Ethernet header included, its TTL decrements deferred.
     * @param head its first bytes.
     * @param headBytes how many.
     * @param ttlDebt the TTL decrements deferred.
     * @return false (nothing done) for a frame that is not IPv4 or too short to read here, which
     *         the port then hands to Receive; true otherwise.
     */
    bool ReceiveFrame(RoceNetDevice& device,
                      const Ptr<Packet>& frame,
                      const uint8_t* head,
                      uint32_t headBytes,
                      uint8_t ttlDebt);

    /**
     * What Receive and ReceiveFrame share: a RoCEv2 packet for this host goes to its queue pair.
     * @param b the packet's first bytes from its IPv4 header: IPv4 and UDP
     *        (RoceV2Packet::IPV4_UDP_SIZE), the BTH and the IbAethHeader::SIZE bytes after it.
     * @param packet the packet as it arrived (only its end is read).
     * @param ipBytes its size from its IPv4 header.
     * @param ttl its TTL.
     */
    void ReceiveIp(const uint8_t* b,
                   const Ptr<const Packet>& packet,
                   uint32_t ipBytes,
                   uint8_t ttl);

    /**
     * The port's PauseState trace: a priority starts or stops being paused.
     * @param priority the priority.
     * @param paused true when the pause starts.
     */
    void PauseChanged(uint8_t priority, bool paused);

    /// The number of a host's first queue pair; the next ones count up.
    static constexpr uint32_t FIRST_QPN = 0x100;

    Ptr<RoceNetDevice> m_device; //!< the port
    Ipv4Address m_address;       //!< the host's address
    uint32_t m_addressBits{0};   //!< m_address.Get(), which is an ns-3 call, for each packet read
    TypeId m_ccTypeId;           //!< congestion control per QP
    uint8_t m_dataDscp;          //!< DSCP of data
    uint8_t m_controlDscp;       //!< DSCP of ACK/NAK/CNP
    /// Queue pairs, in the order of their numbers: m_qps[i] is number FIRST_QPN + i, so that a
    /// received packet finds its queue pair by a subtraction (a hash table's node and bucket
    /// were two cache misses per packet on large fabrics).
    std::vector<Ptr<RdmaQueuePair>> m_qps;
    /// Round robin of senders: queue pairs of m_qps, which keeps them alive (plain pointers:
    /// rotating a Ptr took and released a reference, a write to each queue pair per packet)
    std::deque<RdmaQueuePair*> m_active;
    EventId m_wakeup;         //!< next pacing time
    int64_t m_wakeupFs{0};    //!< its time, femtoseconds
    uint16_t m_ipId;          //!< IPv4 identification
    bool m_dataPaused{false}; //!< data priority paused now
    Time m_pauseBegan;        //!< start of that pause
    Time m_pausedTotal;       //!< ended pauses, summed
    /// The BTH of the packet being received, read into one object for every packet: an ns-3
    /// Header made per packet costs an out-of-line, logged destructor chain (Read sets every
    /// field, and a packet's receipt never runs into another's).
    IbBthHeader m_rxBth;
};

} // namespace ns3

#endif /* RDMA_ENDPOINT_H */

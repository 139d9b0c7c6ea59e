/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_SWITCH_H
#define ROCE_SWITCH_H

#include "flow-five-tuple.h"
#include "roce-net-device.h"
#include "switch-mmu.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief A RoCE switch: IPv4 forwarding over equal-cost ports, a shared-buffer MMU with PFC,
 * and ECN marking.
 *
 * Aggregated to a Node whose RoceNetDevices are its ports (port i is the i-th port added). For
 * each arriving frame it reads the 5-tuple, looks up the destination's equal-cost egress ports
 * (host routes installed by the topology helpers), picks one (per-flow ECMP on a seeded hash of
 * the 5-tuple, where RoCEv2's per-QP UDP source port is the entropy; or per-packet spraying),
 * asks the MMU to admit it against the ingress priority group, and queues the frame on the
 * egress port in its priority. ECN-capable packets are marked CE when the MMU's RED decides so,
 * on the length of their egress queue: by default as they leave it (EcnMarkPoint Dequeue, the
 * length they leave behind them), so the mark reaches the receiver without the queueing delay
 * of the very queue it reports (as in the HPCC paper's switches and Kuzmanovic's "ECN on
 * dequeue"); or as they arrive (Enqueue, the length they find, the classic RED position).
 *
 * When the MMU puts an ingress group into XOFF, the switch sends a PFC pause for that priority
 * out of the ingress port (PauseQuanta quanta), re-sends it every half pause time while the
 * group stays in XOFF, and sends a zero-quanta resume when the group returns to XON.
 *
 * Drops happen only where the MMU refuses a packet (a lossy class above its allowance, a
 * lossless class whose headroom is exhausted, a full buffer) or where no route exists; each is
 * counted per ingress port and priority and traced with its reason.
 */
class RoceSwitch : public Object
{
  public:
    /// How a port is chosen among equal-cost ones.
    enum ForwardingPolicy
    {
        ECMP, //!< per flow: seeded hash of the 5-tuple
        SPRAY //!< per packet: uniformly at random
    };

    /// Where the ECN marking decision is taken.
    enum EcnMarkPoint
    {
        MARK_ON_ENQUEUE, //!< as the packet joins its egress queue, on the length it finds
        MARK_ON_DEQUEUE  //!< as it leaves, on the length left behind it
    };

    /// Why a frame was dropped.
    enum DropReason
    {
        DROP_LOSSY_LIMIT = 0,   //!< MMU: lossy priority above its allowance
        DROP_HEADROOM_FULL = 1, //!< MMU: lossless headroom exhausted
        DROP_BUFFER_FULL = 2,   //!< MMU: buffer exhausted
        DROP_NO_ROUTE = 3,      //!< no route to the destination
        DROP_NOT_IPV4 = 4,      //!< not an IPv4 frame
        DROP_REASONS = 5        //!< number of reasons
    };

    /**
     * Signature of the Drop trace.
     * @param port ingress port.
     * @param priority priority.
     * @param frame the frame.
     * @param reason why ("lossy-limit", "headroom-full", "buffer-full", "no-route",
     *        "not-ipv4").
     */
    typedef void (*DropTracedCallback)(uint32_t port,
                                       uint8_t priority,
                                       Ptr<const Packet> frame,
                                       const std::string& reason);

    /**
     * Signature of the EcnMark trace.
     * @param port egress port.
     * @param priority priority.
     * @param queueBytes the egress queue length the packet saw.
     */
    typedef void (*EcnMarkTracedCallback)(uint32_t port, uint8_t priority, uint32_t queueBytes);

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RoceSwitch();
    ~RoceSwitch() override;

    /**
     * Add a port. Ports are numbered in the order they are added, from 0.
     * @param port a device of the switch's node, attached to a link.
     * @return its port number.
     */
    uint32_t AddPort(Ptr<RoceNetDevice> port);

    /// @return the number of ports.
    uint32_t GetNPorts() const;

    /**
     * @param i port number.
     * @return the port.
     */
    Ptr<RoceNetDevice> GetPort(uint32_t i) const;

    /**
     * Route a destination host over equal-cost ports (replaces an earlier route).
     * @param destination the host's address.
     * @param ports the egress ports, at least one.
     */
    void AddRoute(Ipv4Address destination, const std::vector<uint32_t>& ports);

    /**
     * @param destination a host address.
     * @return its egress ports (empty if unrouted).
     */
    std::vector<uint32_t> GetRoute(Ipv4Address destination) const;

    /**
     * The egress port ECMP picks for a flow (the same function forwarding uses).
     * @param tuple the flow.
     * @param ports the equal-cost ports.
     * @return one of them.
     */
    uint32_t SelectEcmpPort(const FlowFiveTuple& tuple, const std::vector<uint32_t>& ports) const;

    /// @return the MMU.
    Ptr<SwitchMmu> GetMmu() const;

    /**
     * @param port port number.
     * @param priority priority.
     * @return packets marked CE on that egress port and priority.
     */
    uint64_t GetEcnMarks(uint32_t port, uint8_t priority) const;

    /**
     * @param port ingress port.
     * @param priority priority.
     * @param reason the reason.
     * @return frames dropped.
     */
    uint64_t GetDrops(uint32_t port, uint8_t priority, DropReason reason) const;

    /// @return all frames dropped by this switch.
    uint64_t GetTotalDrops() const;

    /**
     * @param reason a drop reason.
     * @return its name as traced.
     */
    static const std::string& GetDropReasonName(DropReason reason);

    /**
     * Assign fixed random variable streams (spraying, and the MMU's ECN marking).
     * @param stream first stream index.
     * @return the number of streams used.
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

    /**
     * Choose the egress port among equal-cost ones; subclasses may override it (adaptive
     * routing, flowlets).
     * @param ports the equal-cost ports (at least two).
     * @param tuple the packet's flow.
     * @param priority its priority.
     * @return the chosen port.
     */
    virtual uint32_t ChoosePort(const std::vector<uint32_t>& ports,
                                const FlowFiveTuple& tuple,
                                uint8_t priority);

  private:
    /**
     * A frame arrived on a port.
     * @param port the port device.
     * @param frame the frame.
     */
    void Receive(Ptr<RoceNetDevice> port, Ptr<Packet> frame);

    /**
     * A frame left an egress queue.
     * @param port the egress device.
     * @param frame the frame.
     * @param priority its priority.
     * @param tag ingress port, egress port and priority packed at enqueue.
     */
    void Dequeued(Ptr<RoceNetDevice> port, Ptr<Packet> frame, uint8_t priority, uint64_t tag);

    /**
     * Decide ECN marking for a frame and mark it CE (counted and traced) if RED says so.
     * @param frame the frame, Ethernet header first.
     * @param outPort its egress port.
     * @param priority its priority.
     */
    void MaybeMarkCe(Ptr<Packet> frame, uint32_t outPort, uint8_t priority);

    /**
     * Count and trace a drop.
     * @param port ingress port.
     * @param priority priority.
     * @param frame the frame.
     * @param reason why.
     */
    void Drop(uint32_t port, uint8_t priority, Ptr<const Packet> frame, DropReason reason);

    /**
     * Set CE in the IPv4 header of an untagged frame and fix the header checksum.
     * @param frame the frame.
     */
    static void MarkCe(Ptr<Packet> frame);

    /**
     * Send the PFC pause of an ingress group in XOFF, and schedule its refresh.
     * @param port ingress port.
     * @param priority priority.
     */
    void SendPause(uint32_t port, uint8_t priority);

    /**
     * Re-send the pause of a group if it is still in XOFF.
     * @param port ingress port.
     * @param priority priority.
     */
    void RefreshPause(uint32_t port, uint8_t priority);

    std::vector<Ptr<RoceNetDevice>> m_ports; //!< ports
    std::vector<uint32_t> m_portOfIfIndex;   //!< port number of a device ifIndex
    std::unordered_map<uint32_t, std::vector<uint32_t>> m_routes; //!< host routes
    Ptr<SwitchMmu> m_mmu;                                         //!< buffer manager
    ForwardingPolicy m_policy;                                    //!< ECMP or spraying
    uint32_t m_ecmpSeed;                                          //!< hash seed of this switch
    bool m_ecnEnabled;                                            //!< mark ECN-capable packets
    EcnMarkPoint m_ecnMarkPoint;                                  //!< enqueue or dequeue
    uint16_t m_pauseQuanta;                                       //!< quanta of the pauses it sends
    Ptr<UniformRandomVariable> m_spray;                           //!< spraying choice
    std::vector<EventId> m_pauseRefresh;                          //!< per ingress group
    std::vector<uint64_t> m_ecnMarks;                             //!< per egress port x priority
    std::vector<std::array<uint64_t, DROP_REASONS>> m_drops;      //!< per ingress port x priority

    TracedCallback<uint32_t, uint8_t, Ptr<const Packet>, const std::string&> m_dropTrace; //!< drops
    TracedCallback<uint32_t, uint8_t, uint32_t> m_ecnMarkTrace; //!< CE marks
};

} // namespace ns3

#endif /* ROCE_SWITCH_H */

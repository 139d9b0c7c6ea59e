/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_SWITCH_H
#define ROCE_SWITCH_H

#include "ecn-marker.h"
#include "egress-stage.h"
#include "flow-five-tuple.h"
#include "load-balancer.h"
#include "pfc-watchdog.h"
#include "roce-net-device.h"
#include "switch-mmu.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/object.h"
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
 * (host routes installed by the topology helpers), lets its LoadBalancer pick one when there are
 * several (by default EcmpLoadBalancer: per-flow ECMP on a seeded hash of the 5-tuple, where
 * RoCEv2's per-QP UDP source port is the entropy; SprayLoadBalancer sprays per packet), asks the
 * MMU to admit it against the ingress priority group, and queues the frame on the egress port in
 * its priority.
 *
 * As a router does, it decrements the IPv4 TTL of every IPv4 frame it forwards and patches the
 * IPv4 header checksum incrementally (RFC 1624, equation 3), at the fixed offsets of the
 * (untagged or 802.1Q-tagged) frame, without parsing headers (DecrementTtl, true by default);
 * the RoCEv2 ICRC masks both fields, so it stays valid. The decrement is deferred and handed on
 * with the frame until something is about to see the frame ("Deferred TTL decrements" in
 * RoceNetDevice::Enqueue): a frame crossing three switches unobserved is patched once, by the
 * receiving host, with the bytes three patches would have given. A frame whose TTL is already 1 or
 * 0 is forwarded unchanged: no fabric built here has loops or 63 switch hops, and the model sends
 * no ICMP Time Exceeded (a router would drop such a frame). Receivers learn a packet's hop count as
 * 64 minus its TTL (RoceV2Packet sends with TTL 64).
 *
 * As a frame leaves its egress queue, the switch's egress stages (EgressStage, an ordered list
 * applied on every port) see it in turn and may modify it. EcnEnabled (the default) puts an
 * EcnMarker first in that list, which marks ECN-capable packets CE when the MMU's RED decides so,
 * on the length of their egress queue: by default as they leave it (EcnMarkPoint Dequeue, the
 * length they leave behind them), or as they arrive (Enqueue, the length they find, the classic
 * RED position). Marks are counted here (GetEcnMarks) and traced (EcnMark).
 *
 * When the MMU puts an ingress group into XOFF, the switch sends a PFC pause for that priority
 * out of the ingress port (PauseQuanta quanta), re-sends it every half pause time while the
 * group stays in XOFF, and sends a zero-quanta resume when the group returns to XON.
 *
 * With PfcWatchdogEnabled (off by default) the switch runs a PfcWatchdog on its ports: a
 * lossless egress queue paused for its DetectionTime is put in a storm state (drop or forward)
 * until pauses have stopped for its RestorationTime; frames it drops are counted by the watchdog
 * (GetFramesDropped), not as drops of this switch.
 *
 * Drops happen only where the MMU refuses a packet (a lossy class above its allowance, a
 * lossless class whose headroom is exhausted, a full buffer) or where no route exists; each is
 * counted per ingress port and priority and traced with its reason.
 */
class RoceSwitch : public Object
{
  public:
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
     * Forget the route to a destination (frames to it are then dropped as no-route), as when
     * routes are recomputed after a link fault leaves it unreachable.
     * @param destination the host's address.
     */
    void RemoveRoute(Ipv4Address destination);

    /**
     * @param destination a host address.
     * @return its egress ports (empty if unrouted).
     */
    std::vector<uint32_t> GetRoute(Ipv4Address destination) const;

    /// @return the MMU.
    const Ptr<SwitchMmu>& GetMmu() const;

    /// @return the load balancer (attribute LoadBalancer).
    Ptr<LoadBalancer> GetLoadBalancer() const;

    /**
     * Give the switch a PFC watchdog (instead of the one PfcWatchdogEnabled creates at
     * initialization). It watches the ports present at initialization, or at once if the
     * switch is initialized already.
     * @param watchdog the watchdog, used by this switch only.
     */
    void SetPfcWatchdog(Ptr<PfcWatchdog> watchdog);

    /// @return the PFC watchdog, or null when there is none.
    Ptr<PfcWatchdog> GetPfcWatchdog() const;

    /**
     * Drop every frame waiting in an egress queue, releasing its buffer in the MMU (ingress
     * groups that return to XON resume their upstream), as a PFC watchdog in Drop does.
     * @param port egress port.
     * @param priority priority.
     * @return the number of frames dropped.
     */
    uint32_t DropEgressQueue(uint32_t port, uint8_t priority);

    /**
     * The bytes waiting in an egress queue that arrived on a given ingress port (walks the
     * queue: for diagnosis such as deadlock detection, not the per-packet path).
     * @param inPort ingress port.
     * @param outPort egress port.
     * @param priority priority.
     * @return the bytes.
     */
    uint32_t GetQueuedBytes(uint32_t inPort, uint32_t outPort, uint8_t priority) const;

    /**
     * Decrement the IPv4 TTL of a frame and patch its header checksum incrementally (RFC 1624,
     * equation 3), from the bytes at fixed offsets (no header parsed), as the switch does to
     * every IPv4 frame it forwards when DecrementTtl is true. A TTL of 1 or 0 is left as it is.
     * @param frame an untagged or 802.1Q-tagged Ethernet frame carrying IPv4, Ethernet header
     * first.
     * @param bytes its first n bytes (Receive has them already; at least up to the checksum).
     * @param n how many.
     * @return true if the TTL was decremented.
     */
    static bool DecrementTtl(const Ptr<Packet>& frame, const uint8_t* bytes, uint32_t n);

    /**
     * Pay the TTL decrements deferred for a frame an egress stage is handling ("Deferred TTL
     * decrements" in RoceNetDevice::Enqueue): a stage that accepts them
     * (EgressStage::AcceptsDeferredTtl) calls this before it changes the frame's IPv4 header.
     * Does nothing for another frame, outside a stage's call, or when none are deferred.
     * @param frame the frame the stage was handed.
     */
    void SettleTtl(const Ptr<Packet>& frame);

    /**
     * Append a stage to the egress pipeline of every port (after the EcnMarker that EcnEnabled
     * installs at initialization, and after the stages added before). A stage object belongs to
     * one switch.
     * @param stage the stage.
     */
    void AddEgressStage(Ptr<EgressStage> stage);

    /**
     * @return the egress stages in the order they are applied (the EcnMarker of EcnEnabled is
     * there only once the switch is initialized).
     */
    const std::vector<Ptr<EgressStage>>& GetEgressStages() const;

    /**
     * Count and trace a CE mark; called by the egress stage that set it (EcnMarker).
     * @param port egress port.
     * @param priority priority.
     * @param queueBytes the egress queue length the marking decision saw.
     */
    void RecordEcnMark(uint32_t port, uint8_t priority, uint32_t queueBytes);

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
     * Assign fixed random variable streams: the load balancer's from @p stream, then the MMU's
     * (ECN marking). The balancer is given at least one stream index even if it uses none, so
     * that the MMU's streams do not depend on the balancer (an ECMP and a spraying run draw the
     * same RED decisions for the same queues).
     * @param stream first stream index.
     * @return the number of streams used (2 with ECMP or spraying).
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    /**
     * A frame arrived on a port.
     * @param port the port device.
     * @param frame the frame.
     * @param priority its priority, as the port classified it.
     * @param bytes the frame's first bytes, as the port read them.
     * @param n how many (RoceNetDevice::HEAD_BYTES, or fewer in a shorter frame).
     * @param ttlDebt TTL decrements the switches before deferred (RoceNetDevice::Enqueue).
     */
    void Receive(RoceNetDevice& port,
                 const Ptr<Packet>& frame,
                 uint8_t priority,
                 const uint8_t* bytes,
                 uint32_t n,
                 uint8_t ttlDebt);

    /**
     * A frame left an egress queue: release it from the MMU (resuming its ingress group if it
     * returns to XON), then pass it through the egress stages.
     * @param port the egress device.
     * @param frame the frame.
     * @param priority its priority.
     * @param tag ingress port, egress port and priority packed at enqueue.
     * @param ttlDebt TTL decrements deferred for the frame; set to 0 if they are paid here.
     */
    void Dequeued(RoceNetDevice& port,
                  const Ptr<Packet>& frame,
                  uint8_t priority,
                  uint64_t tag,
                  uint8_t& ttlDebt);

    /**
     * The state of an egress queue as the stages see it, now.
     * @param outPort egress port.
     * @param priority priority.
     * @return the state.
     */
    EgressStage::QueueState MakeQueueState(uint32_t outPort, uint8_t priority) const;

    /**
     * Sort the egress stages into those called at dequeue (all) and those with an enqueue hook.
     */
    void UpdateEnqueueStages();

    /**
     * Count and trace a drop.
     * @param port ingress port.
     * @param priority priority.
     * @param frame the frame.
     * @param reason why.
     * @param ttlDebt TTL decrements deferred for it, paid before the trace sees it.
     */
    void Drop(uint32_t port,
              uint8_t priority,
              const Ptr<Packet>& frame,
              DropReason reason,
              uint8_t ttlDebt);

    /**
     * Send the PFC pause of an ingress group in XOFF, and schedule its refresh.
     * @param port ingress port.
     * @param priority priority.
     */
    void SendPause(uint32_t port, uint8_t priority);

    /**
     * Release a frame removed from an egress queue without being sent (DropEgressQueue).
     * @param frame the frame.
     * @param tag ingress port, egress port and priority packed at enqueue.
     */
    void Flushed(Ptr<Packet> frame, uint64_t tag);

    /**
     * Release a frame's buffer in the MMU and resume its ingress group if it returns to XON.
     * @param tag ingress port, egress port and priority packed at enqueue.
     * @param bytes the frame's size.
     */
    void ReleaseBuffer(uint64_t tag, uint32_t bytes);

    /**
     * Re-send the pause of a group if it is still in XOFF.
     * @param port ingress port.
     * @param priority priority.
     */
    void RefreshPause(uint32_t port, uint8_t priority);

    /// A host route in the lookup table (m_routeSlots).
    struct RouteSlot
    {
        uint32_t destination{0}; //!< IPv4 address, host order
        uint32_t firstPort{0};   //!< the route's first port (its only one, usually)
        uint32_t count{0};       //!< how many ports (0: an empty slot)
        uint32_t index{0};       //!< where they all are in m_routePorts
    };

    /**
     * @param destination an IPv4 address, host order.
     * @return the slot holding its route, else the empty slot where it would go.
     */
    RouteSlot& FindRouteSlot(uint32_t destination);

    /// Put m_routes into the lookup table again, sized for them (AddRoute past half full,
    /// RemoveRoute).
    void RebuildRouteTable();

    /**
     * Put a route in the lookup table, which has room for it.
     * @param destination an IPv4 address, host order.
     * @param ports its ports.
     */
    void StoreRoute(uint32_t destination, const std::vector<uint32_t>& ports);

    std::vector<Ptr<RoceNetDevice>> m_ports; //!< ports
    std::vector<uint32_t> m_portOfIfIndex;   //!< port number of a device ifIndex
    std::unordered_map<uint32_t, std::vector<uint32_t>> m_routes; //!< host routes
    // The same routes for the per-frame lookup: open addressing with linear probing in a
    // power-of-two table at most half full (one or two slots of 16 bytes read per frame, where
    // the map's buckets, nodes and vectors cost three or four cache misses).
    std::vector<RouteSlot> m_routeSlots;             //!< the table
    std::vector<std::vector<uint32_t>> m_routePorts; //!< each stored route's ports
    uint32_t m_routeShift{32};                       //!< 32 - log2 of the table's size
    Ptr<SwitchMmu> m_mmu;                            //!< buffer manager
    Ptr<LoadBalancer> m_loadBalancer;                //!< picks among equal-cost ports
    bool m_ecnEnabled;                               //!< install an EcnMarker
    bool m_decrementTtl;                             //!< DecrementTtl
    EcnMarker::MarkPoint m_ecnMarkPoint;             //!< its MarkPoint
    uint16_t m_pauseQuanta;                          //!< quanta of the pauses it sends
    bool m_watchdogEnabled;                          //!< PfcWatchdogEnabled
    Ptr<PfcWatchdog> m_watchdog;                     //!< null when off
    bool m_initialized;                              //!< DoInitialize has run
    std::vector<Ptr<EgressStage>> m_stages;          //!< egress stages, in order
    std::vector<EgressStage*> m_enqueueStages;       //!< those with an enqueue hook
    bool m_stagesAcceptDeferredTtl{true};            //!< every stage accepts deferred decrements
    bool m_enqueueStagesAcceptDeferredTtl{true};     //!< every enqueue-hook stage does
    const Packet* m_deferredFrame{nullptr};          //!< the frame the stages are handling
    uint8_t* m_deferredHops{nullptr};                //!< its deferred decrements (SettleTtl)
    std::vector<EventId> m_pauseRefresh;             //!< per ingress group
    std::vector<uint64_t> m_ecnMarks;                //!< per egress port x priority
    std::vector<std::array<uint64_t, DROP_REASONS>> m_drops; //!< per ingress port x priority

    TracedCallback<uint32_t, uint8_t, Ptr<const Packet>, const std::string&> m_dropTrace; //!< drops
    TracedCallback<uint32_t, uint8_t, uint32_t> m_ecnMarkTrace; //!< CE marks
};

} // namespace ns3

#endif /* ROCE_SWITCH_H */

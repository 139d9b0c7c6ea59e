/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_DEADLOCK_DETECTOR_H
#define PFC_DEADLOCK_DETECTOR_H

#include "roce-fabric.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <ostream>
#include <unordered_map>
#include <vector>

namespace ns3
{

class RoceNetDevice;

/**
 * @ingroup llm-fabric
 * @brief Finds PFC deadlocks of a fabric: cycles in the wait-for graph of its paused switch
 * egress queues, checked whenever a switch port receives a PFC pause.
 *
 * A vertex is an egress queue (switch S, port p, priority c) that the peer's PFC pauses now
 * (IEEE 802.1Qbb: the port may start no frame of priority c). It waits for the peer: the peer
 * T (a switch) sent the pause because its ingress group (port q facing S, priority c) is in
 * XOFF, and that group empties only as T's egress queues send the frames it holds. So there is
 * an edge from (S, p, c) to (T, p', c) when T's ingress group (q, c) is in XOFF, T's egress
 * queue (p', c) holds frames that arrived on q, and (T, p', c) is itself paused. A queue whose
 * peer is a host has no edge: a host's receive buffer (RxDrainRate) drains at its own rate,
 * whatever the host sends, so it cannot be part of a cycle. A cycle is a deadlock: every queue
 * on it waits, through a buffer it cannot drain, for the next, which cannot send either.
 *
 * Each pause a switch port receives (trace PfcReceived, including the refreshes sent every half
 * pause time while a group stays in XOFF) starts a depth-first search from that queue; a path
 * back to it is a cycle. A cycle closes either when a pause starts (found then) or when a frame
 * reaches a paused queue (found at the next pause refresh, within half a pause time). Each cycle
 * is reported once, through the Deadlock trace, with its queues in wait-for order starting at
 * the smallest (node, port, priority), and the time it was found; it is reported again only
 * after one of its queues has stopped being paused. Nothing is connected, and nothing runs,
 * until Install.
 */
class PfcDeadlockDetector : public Object
{
  public:
    /// An egress queue of a switch.
    struct QueueId
    {
        uint32_t node;    //!< the switch's node id
        uint32_t port;    //!< the switch port number (RoceSwitch::AddPort order)
        uint8_t priority; //!< the priority

        /**
         * @param o another queue.
         * @return true if the same queue.
         */
        bool operator==(const QueueId& o) const
        {
            return node == o.node && port == o.port && priority == o.priority;
        }
    };

    /// A deadlock found.
    struct Deadlock
    {
        std::vector<QueueId> cycle; //!< the queues, in wait-for order
        Time formed;                //!< when it was found
    };

    /**
     * Signature of the Deadlock trace.
     * @param cycle the queues of the cycle, each waiting for the next (the last for the first).
     * @param formed when the cycle was found.
     */
    typedef void (*DeadlockTracedCallback)(const std::vector<PfcDeadlockDetector::QueueId>& cycle,
                                           Time formed);

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfcDeadlockDetector();
    ~PfcDeadlockDetector() override;

    /**
     * Watch every switch port of a fabric (call once, after the fabric is built). The ports'
     * trace callbacks point at this detector: keep it alive while the simulation runs.
     * @param fabric the fabric.
     */
    void Install(const RoceFabric& fabric);

    /// @return the deadlocks found so far, in the order found.
    const std::vector<Deadlock>& GetDeadlocks() const;

    /// @return how many deadlocks were found.
    uint64_t GetDeadlockCount() const;

  protected:
    void DoDispose() override;

  private:
    /// Priorities per port.
    static constexpr uint32_t PRIORITIES = 8;

    /**
     * PfcReceived trace sink.
     * @param detector the detector.
     * @param vertexBase the vertex of priority 0 of the receiving port.
     * @param classEnableVector priorities the frame names.
     * @param quanta their pause times.
     */
    static void PfcSink(PfcDeadlockDetector* detector,
                        uint32_t vertexBase,
                        uint8_t classEnableVector,
                        const std::array<uint16_t, 8>& quanta);

    /**
     * PauseState trace sink.
     * @param detector the detector.
     * @param vertexBase the vertex of priority 0 of the port.
     * @param priority the priority.
     * @param paused the pause starts or ends.
     */
    static void PauseSink(PfcDeadlockDetector* detector,
                          uint32_t vertexBase,
                          uint8_t priority,
                          bool paused);

    /**
     * Search for a cycle through a queue that has just received a pause.
     * @param vertex the queue.
     */
    void Check(uint32_t vertex);

    /**
     * Depth-first search for a path back to the start.
     * @param vertex where the search is.
     * @param start the vertex to return to.
     * @param path the vertices from start to vertex.
     * @return true if found (path then holds the cycle).
     */
    bool Search(uint32_t vertex, uint32_t start, std::vector<uint32_t>& path);

    /**
     * @param vertex a paused queue.
     * @return the paused queues it waits for (see the class description).
     */
    std::vector<uint32_t> Successors(uint32_t vertex) const;

    /**
     * @param vertex a vertex.
     * @return true if its port is paused in its priority now.
     */
    bool IsPaused(uint32_t vertex) const;

    /// A switch port.
    struct Port
    {
        Ptr<RoceSwitch> sw;             //!< its switch
        Ptr<RoceNetDevice> device;      //!< the port
        uint32_t node;                  //!< the switch's node id
        uint32_t port;                  //!< its number on the switch
        uint32_t peerBase;              //!< vertex base of the peer port (UINT32_MAX: host)
        std::vector<uint32_t> siblings; //!< vertex bases of the ports of the same switch
    };

    std::vector<Port> m_ports;                   //!< index = vertex / PRIORITIES
    std::vector<uint32_t> m_visited;             //!< search stamp per vertex
    uint32_t m_stamp;                            //!< current search stamp
    std::vector<std::vector<uint32_t>> m_active; //!< cycles reported and still paused
    std::vector<Deadlock> m_deadlocks;           //!< found

    TracedCallback<const std::vector<QueueId>&, Time> m_deadlockTrace; //!< cycles found
};

/**
 * Print a queue as node/port/priority.
 * @param os the stream.
 * @param q the queue.
 * @return the stream.
 */
std::ostream& operator<<(std::ostream& os, const PfcDeadlockDetector::QueueId& q);

} // namespace ns3

#endif /* PFC_DEADLOCK_DETECTOR_H */

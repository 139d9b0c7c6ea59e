/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_PAUSE_TREE_H
#define PFC_PAUSE_TREE_H

#include "roce-fabric.h"

#include "ns3/flow-five-tuple.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief PFC forensics: which port's congestion paused whom (the pause propagation tree of each
 * pause storm), and which flows were paused for congestion they took no part in (victims).
 *
 * A node of a tree is a pause: one interval during which a port (a switch port or a host NIC)
 * is paused in a priority by its peer (the port's PauseState trace, from the first pause frame
 * to the resume or the expiry). Its cause is the ingress group of the peer switch that crossed
 * XOFF (the MMU's Xoff trace): at that instant the group's bytes sit in the switch's egress
 * queues of that priority (RoceSwitch::GetQueuedBytes per egress port), and those are the egress
 * queues it waits on. The parent of the pause is the waited-on egress queue holding most of the
 * group's bytes: if that queue is itself paused at that instant, the parent is its pause (the
 * cascade goes one level deeper); if it is not, that egress queue is congested by itself and is
 * the root of the tree (depth 0; its child pauses have depth 1). A pause sent by a host (its
 * receive buffer, RoceNetDevice RxDrainRate) has the host as its root.
 *
 * A storm is a connected set of overlapping pauses: pauses that overlap in time, or that are
 * parent and child, belong to one storm; storms are numbered from 1 in the order they start,
 * and a storm may hold several trees (a forest). The StormGap attribute (default 0, which is
 * that definition) also joins a pause that begins within StormGap of the end of every pause
 * before it, so that one congestion event whose XOFF/XON oscillates is one storm.
 *
 * A flow (a five-tuple: for RoCEv2, one queue pair per UDP source port) is held by a pause for
 * the part of each of its frames' wait in a queue (from arrival at the switch, PhyRxEnd, or
 * from the host NIC accepting it, MacTx, to the start on the wire, PhyTxBegin) during which that
 * queue's priority was paused. Its paused time in a storm is the measure of the union of those
 * held intervals over all its frames and hops (time during which at least one of its frames was
 * held by a pause of that storm; a host NIC holds one frame at a time, so the queue pairs waiting
 * behind that frame are not charged). It is a victim of the storm if it traversed (sent a frame
 * out of) none of the root egress ports of the pauses that held it.
 *
 * Nothing is connected, and nothing costs, until Install; once installed every frame on every
 * hop is looked at (five-tuple, arrival time by packet uid), which is meant for diagnosis runs.
 * WriteFiles writes pause-tree.csv, pause-storm-N.dot and pause-victims.csv.
 */
class PfcPauseTree : public Object
{
  public:
    /// One pause: a node of a tree.
    struct Pause
    {
        uint32_t port;        //!< the paused port (index into GetPortName)
        uint8_t priority;     //!< the paused priority
        Time start;           //!< when the pause began
        Time end;             //!< when it ended (the time of Finish if it had not)
        bool ended;           //!< false if still in force at Finish
        uint32_t sender;      //!< the port that sent it (the ingress port in XOFF)
        int64_t parent;       //!< index of the parent pause, -1 when the parent is the root
        uint32_t parentPort;  //!< the egress port waited on (a root port when parent is -1)
        uint32_t rootPort;    //!< the root egress port of its tree
        uint32_t depth;       //!< 1 for a pause caused by the root, parent's depth + 1 below
        uint32_t storm;       //!< its storm, from 1 (set by Finish)
        std::string waitedOn; //!< every egress port waited on, "name=bytes" joined by ';'
    };

    /// What a flow lost in one storm.
    struct Victim
    {
        FlowFiveTuple flow; //!< the flow
        uint32_t storm;     //!< the storm
        Time paused;        //!< its paused time in that storm
        bool victim;        //!< it traversed none of the roots of the pauses that held it
    };

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    PfcPauseTree();
    ~PfcPauseTree() override;

    /**
     * Watch every port of a fabric (call once, after the fabric is built). The ports' and MMUs'
     * trace callbacks point at this object: keep it alive while the simulation runs.
     * @param fabric the fabric.
     */
    void Install(const RoceFabric& fabric);

    /**
     * Close the pauses still in force (at the current time), group pauses into storms and
     * compute the victims. Call once, after Simulator::Run and before Simulator::Destroy.
     */
    void Finish();

    /**
     * Write pause-tree.csv, one pause-storm-N.dot per storm and pause-victims.csv (after
     * Finish).
     * @param dir an existing folder.
     * @return "" on success, otherwise the file that could not be written.
     */
    std::string WriteFiles(const std::string& dir) const;

    /// @return the pauses, in the order they began.
    const std::vector<Pause>& GetPauses() const;

    /// @return the (flow, storm) pairs with a non-zero paused time, by storm then flow.
    const std::vector<Victim>& GetVictims() const;

    /// @return the number of storms (after Finish).
    uint32_t GetStormCount() const;

    /**
     * @param port a port index of this object.
     * @return its name: "switch:pN->peer" for a switch port, "hN" for host N's NIC.
     */
    const std::string& GetPortName(uint32_t port) const;

    /**
     * @param device a port of the fabric this object is installed on.
     * @return its name, as GetPortName gives it (the names of pause-tree.csv), or "?".
     */
    const std::string& GetDeviceName(Ptr<const RoceNetDevice> device) const;

  protected:
    void DoDispose() override;

  private:
    /// Priorities per port.
    static constexpr uint32_t PRIORITIES = 8;

    /// A watched port.
    struct Port
    {
        Ptr<RoceNetDevice> device; //!< the port
        Ptr<RoceSwitch> sw;        //!< its switch (null for a host NIC)
        uint32_t number;           //!< its number on the switch
        uint32_t peer;             //!< the peer port's index (UINT32_MAX if not watched)
        uint32_t first;            //!< index of the switch's port 0 (itself for a host)
        std::string name;          //!< GetPortName
    };

    /// An ingress group's current XOFF: what its pause will be linked to.
    struct Xoff
    {
        int64_t parent{-1};     //!< the pause of the main waited-on egress, or -1
        uint32_t parentPort{0}; //!< the main waited-on egress port
        uint32_t rootPort{0};   //!< its tree's root port
        uint32_t depth{1};      //!< the depth its pauses get
        std::string waitedOn;   //!< every egress port waited on
        bool valid{false};      //!< an XOFF was seen
    };

    /// A stretch of time during which a frame of a flow was held by a pause.
    struct Held
    {
        uint32_t pause; //!< the pause
        Time from;      //!< start
        Time to;        //!< end
    };

    /// What is known of a flow.
    struct Flow
    {
        std::vector<uint32_t> egress; //!< switch ports it left by
        std::vector<Held> held;       //!< when it was held
    };

    /**
     * MMU Xoff trace sink.
     * @param tree this object.
     * @param first index of the switch's port 0.
     * @param inPort ingress port.
     * @param priority priority.
     */
    static void XoffSink(PfcPauseTree* tree, uint32_t first, uint32_t inPort, uint8_t priority);

    /**
     * PauseState trace sink.
     * @param tree this object.
     * @param port the port index.
     * @param priority the priority.
     * @param paused the pause begins or ends.
     */
    static void PauseSink(PfcPauseTree* tree, uint32_t port, uint8_t priority, bool paused);

    /**
     * A frame arrives in a port's queue (PhyRxEnd of a switch port, MacTx of a host NIC).
     * @param tree this object.
     * @param frame the frame.
     */
    static void ArriveSink(PfcPauseTree* tree, Ptr<const Packet> frame);

    /**
     * A frame starts on the wire (PhyTxBegin).
     * @param tree this object.
     * @param port the port index.
     * @param frame the frame.
     */
    static void DepartSink(PfcPauseTree* tree, uint32_t port, Ptr<const Packet> frame);

    /**
     * Record what a frame of a flow waited for in a port's queue.
     * @param port the port.
     * @param frame the frame.
     */
    void Depart(uint32_t port, Ptr<const Packet> frame);

    /// Number the storms (union of overlapping pauses and of parents with children).
    void NumberStorms();

    /// Compute the victims from the flows' held intervals.
    void ComputeVictims();

    /**
     * Write one storm's DOT file.
     * @param path the file.
     * @param storm the storm.
     * @return true on success.
     */
    bool WriteDot(const std::string& path, uint32_t storm) const;

    std::vector<Port> m_ports;                    //!< watched ports
    std::vector<Xoff> m_xoff;                     //!< per port x priority (ingress)
    std::vector<int64_t> m_open;                  //!< pause in force, per port x priority
    std::vector<std::vector<uint32_t>> m_history; //!< pauses per port x priority
    std::vector<Pause> m_pauses;                  //!< all pauses
    std::unordered_map<uint64_t, Time> m_arrival; //!< arrival in its queue, by packet uid
    std::map<FlowFiveTuple, Flow> m_flows;        //!< flows seen
    std::vector<Victim> m_victims;                //!< computed by Finish
    Time m_stormGap;                              //!< StormGap
    uint32_t m_storms;                            //!< number of storms
    bool m_finished;                              //!< Finish has run
};

} // namespace ns3

#endif /* PFC_PAUSE_TREE_H */

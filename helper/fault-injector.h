/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FAULT_INJECTOR_H
#define FAULT_INJECTOR_H

#include "roce-fabric.h"

#include "ns3/data-rate.h"
#include "ns3/frame-bit-error-model.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief One fault of a fabric's schedule: what happens to which link (or NIC), and when.
 *
 * Links are named by their two ends as the topology helper names nodes ("host<i>" for host i,
 * the switch names such as "leaf0" and "spine1"; RoceFabric::GetNodeName), in either order.
 * Where two nodes have parallel links, @c index picks one (0-based, in build order); -1 means
 * all of them.
 */
struct FaultEvent
{
    /// What happens.
    enum Kind
    {
        LINK_DOWN,    //!< both ends of the link go down
        LINK_UP,      //!< both ends come back up
        LINK_DEGRADE, //!< both directions run at @c value times the rate the link was built with
        LINK_BER,     //!< both receivers lose frames at bit error rate @c value
        NIC_DOWN,     //!< every link of host @c from goes down
        NIC_UP        //!< every link of host @c from comes back up
    };

    Kind kind{LINK_DOWN}; //!< what happens
    Time at;              //!< when (absolute simulation time)
    std::string from;     //!< one end of the link (the host of a NIC fault)
    std::string to;       //!< the other end (empty for a NIC fault)
    int32_t index{-1};    //!< which parallel link; -1 all
    double value{0.0};    //!< LINK_DEGRADE: fraction in (0, 1]; LINK_BER: bit error rate [0, 1]

    /**
     * @param kind a kind.
     * @return its name as programs and scenarios write it ("link_down", "link_up",
     *         "link_degrade", "link_ber", "nic_down", "nic_up").
     */
    static std::string GetKindName(Kind kind);

    /// @return a one-line description, e.g. "link_down leaf0:spine1 at 1ms".
    std::string Describe() const;
};

/**
 * @ingroup llm-fabric
 * @brief Applies a schedule of faults to a built fabric: links down and up, NICs down and up,
 * links degraded to a fraction of their rate, per-link bit error rates; recomputes the
 * switches' equal-cost routes around dead links.
 *
 * A link that goes down loses, at both ends, what is queued and what arrives
 * (RoceNetDevice::SetLinkUp); the RDMA transport recovers the lost packets (go-back-N on a
 * NAK, or its retransmission timeout). Routes are recomputed with EqualCostRoutes over the
 * links whose two ends are up (hosts are never transit). With RouteConvergenceDelay 0 (the
 * default) every switch gets its new routes at the moment of the change; otherwise the switches
 * at the ends of the changed link repair at once (they see their port go down; in this model
 * they compute shortest paths over the whole new topology) and every other switch converges
 * after the delay, keeping its old routes meanwhile, so frames may bounce between switches for
 * that long as in real fabrics. A switch left with no path to a host drops what is sent there
 * (no-route). Links coming up are treated the same way.
 *
 * A degraded link runs both directions at the fraction of the rate it was built with (a
 * fraction of 1 restores it); the frame on the wire finishes at the old rate. The switches'
 * MMU figures that depend on a port's rate (the PFC headroom) are not recomputed: they were
 * sized for the full rate, which over-reserves at a lower rate, so a lossless class stays
 * lossless. PFC pause times (quanta of 512 bit times) stretch with the lower rate, as 802.1Qbb
 * defines them.
 *
 * A bit error rate puts a FrameBitErrorModel on the receiver of both directions (replacing any
 * ReceiveErrorModel set before); a rate of 0 removes it. Its draws come from streams fixed by
 * AssignStreams.
 *
 * Every fault applied is traced (Fault) and logged.
 */
class FaultInjector : public Object
{
  public:
    /**
     * Signature of the Fault trace.
     * @param description FaultEvent::Describe of the fault applied.
     */
    typedef void (*FaultTracedCallback)(const std::string& description);

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    FaultInjector();

    /**
     * The fabric the faults apply to (before any Add).
     * @param fabric the fabric, as the topology helper built it.
     */
    void SetFabric(const RoceFabric& fabric);

    /**
     * Check a fault against the fabric: names, link, index, value range, time not negative.
     * @param fault the fault.
     * @return "" or the problem, naming the field (e.g. "link: no link between leaf0 and
     *         leaf1").
     */
    std::string Check(const FaultEvent& fault) const;

    /**
     * Check a fault and schedule it (call before the simulation runs, or during it for a time
     * not in the past).
     * @param fault the fault.
     * @return "" or Check's problem; nothing is scheduled then.
     */
    std::string Add(const FaultEvent& fault);

    /**
     * Fix the random streams of the bit error models added so far and of those added later.
     * @param stream the first stream index.
     * @return the number of streams used so far.
     */
    int64_t AssignStreams(int64_t stream);

    /// @return the faults added, in order.
    const std::vector<FaultEvent>& GetFaults() const;

    /// @return frames lost to bit errors, all links.
    uint64_t GetBitErrorLosses() const;

    /// @return frames lost because a link was down (both ends of every link of the fabric).
    uint64_t GetLinkDownLosses() const;

    /// @return how many times switches' routes were recomputed (one per switch per change).
    uint64_t GetRouteUpdates() const;

    /**
     * Read a link name "A:B" or "A:B/k" (k: which of parallel links).
     * @param text the text.
     * @param[out] from A.
     * @param[out] to B.
     * @param[out] index k, or -1.
     * @return "" or why it is not a link name.
     */
    static std::string ParseLinkName(const std::string& text,
                                     std::string& from,
                                     std::string& to,
                                     int32_t& index);

    /**
     * Read a time of a fault ("0s", "1.5ms", "200us"): not negative.
     * @param text the text.
     * @param[out] at its value.
     * @return "" or why not.
     */
    static std::string ParseTime(const std::string& text, Time& at);

    /**
     * Read a comma-separated list of faults of one kind as the programs take them on their
     * command line: LINK_DOWN and LINK_UP "A:B@T", LINK_DEGRADE "A:B@T=FRACTION", LINK_BER
     * "A:B=BER" or "A:B@T=BER", NIC_DOWN and NIC_UP "HOST@T" (links may carry "/k").
     * @param kind the kind.
     * @param text the list.
     * @param[out] faults receives the faults, appended.
     * @return "" or the first problem, quoting the item.
     */
    static std::string ParseList(FaultEvent::Kind kind,
                                 const std::string& text,
                                 std::vector<FaultEvent>& faults);

  protected:
    void DoDispose() override;

  private:
    /**
     * The links a fault acts on.
     * @param fault the fault (checked).
     * @return their indices in the fabric.
     */
    std::vector<uint32_t> SelectLinks(const FaultEvent& fault) const;

    /**
     * Apply a fault now.
     * @param i its index in m_faults.
     */
    void Apply(uint32_t i);

    /**
     * Recompute the routes of some switches from the links now up.
     * @param nodes node numbers of the switches (others are skipped); all when empty.
     */
    void UpdateRoutes(const std::vector<uint32_t>& nodes);

    RoceFabric m_fabric;                              //!< the fabric
    std::vector<DataRate> m_builtRates;               //!< per link, its rate when built
    std::vector<FaultEvent> m_faults;                 //!< faults added
    std::vector<Ptr<FrameBitErrorModel>> m_berModels; //!< per fault (LINK_BER), two per link
    std::vector<std::vector<uint32_t>> m_berOfFault;  //!< per fault, indices in m_berModels
    int64_t m_streamBase{-1};                         //!< AssignStreams, -1 before
    Time m_convergenceDelay;                          //!< RouteConvergenceDelay
    uint64_t m_routeUpdates{0};                       //!< switch route recomputations
    TracedCallback<const std::string&> m_faultTrace;  //!< faults applied
};

} // namespace ns3

#endif /* FAULT_INJECTOR_H */

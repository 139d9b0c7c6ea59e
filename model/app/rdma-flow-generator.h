/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FLOW_GENERATOR_H
#define RDMA_FLOW_GENERATOR_H

#include "flow-size-distribution.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Starts RDMA flows between the hosts of a fabric: Poisson arrivals at a given load, flow
 * sizes from an empirical distribution, or flows added one by one.
 *
 * Every host is the source of an independent Poisson process of flows. Its rate is
 * lambda = Load x R / (8 x mean), where R is the host port's rate (bit/s) and mean the mean of
 * the flow-size distribution (bytes, FlowSizeDistribution::GetMean), so that on average the
 * host offers Load of its link in payload bytes. Arrivals begin at StartTime (the first one an
 * exponential gap after it) and stop at StopTime or after MaxFlows flows, whichever comes first.
 * At each arrival the destination is a host other than the source, drawn uniformly, and the
 * size is FlowSizeDistribution::Sample(u) for a uniform u (at least 1 byte).
 *
 * Every flow is a new RC queue pair (RdmaEndpoint::Connect; UDP source port FirstUdpPort +
 * flow index, wrapped into FirstUdpPort..65535, unless AddFlow names a port) carrying one RDMA
 * WRITE of the flow's size. A flow ends when its sender's queue pair reports the WRITE
 * acknowledged. Queue pairs are not removed when their flow ends.
 */
class RdmaFlowGenerator : public Object
{
  public:
    /// One flow.
    struct Flow
    {
        uint32_t source{0};        //!< source host index
        uint32_t destination{0};   //!< destination host index
        uint64_t bytes{0};         //!< size of its RDMA WRITE
        Time start;                //!< when it was posted
        Time end;                  //!< when it was acknowledged (valid if done)
        uint16_t udpPort{0};       //!< its UDP source port (0: FirstUdpPort + its index)
        bool done{false};          //!< acknowledged
        Ptr<RdmaQueuePair> qp;     //!< the sender's queue pair
        Ptr<RdmaQueuePair> peerQp; //!< the receiver's queue pair
    };

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaFlowGenerator();
    ~RdmaFlowGenerator() override;

    /**
     * Use this distribution instead of the Distribution attribute.
     * @param distribution a loaded distribution.
     */
    void SetDistribution(const FlowSizeDistribution& distribution);

    /// @return the flow-size distribution (loaded by Install unless set).
    const FlowSizeDistribution& GetDistribution() const;

    /**
     * Attach the generator to the hosts and, if Load is above 0, schedule the first arrival of
     * every host. Loads the Distribution attribute unless SetDistribution was called.
     * @param endpoints one RDMA endpoint per host, in host order (at least 2).
     * @return "" or the problem (a distribution that does not load, a mean of 0 bytes).
     */
    std::string Install(const std::vector<Ptr<RdmaEndpoint>>& endpoints);

    /**
     * Add one flow, posted at a given time (Install first).
     * @param source source host index.
     * @param destination destination host index (not the source).
     * @param bytes size, at least 1.
     * @param at when to post it (absolute simulation time, not in the past).
     * @param udpPort its UDP source port; 0 (the default): FirstUdpPort + the flow's index,
     *        as for every other flow (a replay gives the ports of the trace it replays).
     * @return the flow's index.
     */
    uint32_t AddFlow(uint32_t source,
                     uint32_t destination,
                     uint64_t bytes,
                     Time at,
                     uint16_t udpPort = 0);

    /**
     * Add flows between random pairs of hosts (Install first): for each, a source and a
     * different destination uniformly at random, a size log-uniform in [minBytes, maxBytes]
     * (rounded, so small and large flows are equally frequent per decade) and a start time
     * uniform in [0, window), all drawn in that order from one stream.
     * @param count how many flows.
     * @param minBytes the smallest size (at least 1).
     * @param maxBytes the largest size (at least minBytes).
     * @param window the starts fall in [0, window).
     * @param stream the random variable stream of the draws.
     */
    void AddRandomFlows(uint32_t count,
                        uint64_t minBytes,
                        uint64_t maxBytes,
                        Time window,
                        int64_t stream);

    /**
     * Add incasts as a Poisson process (Install first), the HPCC paper's recipe for incast on
     * top of background traffic. Incasts arrive with exponential gaps of mean 1 / lambda from
     * time 0, lambda = load x C / (8 x senders x bytes) per second, where C is the sum of the
     * host ports' rates (bit/s): on average they offer `load` of the hosts' total capacity in
     * payload bytes. Arrivals stop at `window` (none at or after it). At each arrival a
     * receiver is drawn uniformly among the hosts, then `senders` distinct other hosts
     * uniformly (a partial Fisher-Yates shuffle of the others); each sender posts one flow of
     * `bytes` to the receiver at the arrival time. All draws come from one uniform stream, in
     * that order (gap, receiver, senders).
     * @param load the incasts' share of the hosts' capacity, in (0, 1].
     * @param senders senders per incast (1 to hosts - 1).
     * @param bytes bytes per sender (at least 1).
     * @param window incasts arrive in [0, window).
     * @param stream the random variable stream of the draws.
     * @return the indices of the flows added (senders per incast, incast by incast, each
     *         incast's flows in the order of their senders).
     */
    std::vector<uint32_t> AddPoissonIncasts(double load,
                                            uint32_t senders,
                                            uint64_t bytes,
                                            Time window,
                                            int64_t stream);

    /**
     * Fix the random streams.
     * @param stream first stream index.
     * @return the number of streams used (2).
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * @param host host index (after Install).
     * @return the host's flow arrival rate, flows per second.
     */
    double GetArrivalRate(uint32_t host) const;

    /// @return every flow so far, in the order they were created (AddFlow'ed ones included).
    const std::vector<Flow>& GetFlows() const;

    /// @return flows posted so far.
    uint32_t GetFlowsStarted() const;

    /// @return flows acknowledged so far.
    uint32_t GetFlowsCompleted() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * A Poisson arrival at a host: start a flow and schedule the next arrival.
     * @param host the source host.
     */
    void Arrival(uint32_t host);

    /**
     * Schedule a host's next arrival after an exponential gap, if arrivals go on.
     * @param host the host.
     */
    void ScheduleArrival(uint32_t host);

    /**
     * Post a flow now.
     * @param index the flow's index.
     */
    void StartFlow(uint32_t index);

    /**
     * A flow's WRITE was acknowledged.
     * @param generator the generator.
     * @param index the flow.
     * @param qp its queue pair.
     * @param id message id.
     * @param bytes message size.
     */
    static void FlowDone(RdmaFlowGenerator* generator,
                         uint32_t index,
                         Ptr<RdmaQueuePair> qp,
                         uint64_t id,
                         uint64_t bytes);

    // Attributes
    double m_load;              //!< offered load per host, fraction of its link rate
    std::string m_distribution; //!< built-in name or path
    Time m_startTime;           //!< first arrivals after this
    Time m_stopTime;            //!< no arrivals from this time on (0: no limit)
    uint32_t m_maxFlows;        //!< Poisson flows at most (0: no limit)
    uint16_t m_firstUdpPort;    //!< UDP source port of flow 0

    // State
    FlowSizeDistribution m_sizes;                //!< flow sizes
    bool m_sizesSet;                             //!< SetDistribution was called
    std::vector<Ptr<RdmaEndpoint>> m_endpoints;  //!< hosts
    std::vector<double> m_rates;                 //!< arrivals per second per host
    std::vector<EventId> m_arrivals;             //!< next arrival per host
    std::vector<Flow> m_flows;                   //!< every flow
    uint32_t m_poissonFlows;                     //!< flows from arrivals
    uint32_t m_started;                          //!< flows posted
    uint32_t m_completed;                        //!< flows acknowledged
    Ptr<ExponentialRandomVariable> m_gap;        //!< arrival gaps, mean 1
    Ptr<UniformRandomVariable> m_uniform;        //!< sizes and destinations
    TracedCallback<uint32_t> m_flowStartedTrace; //!< a flow was posted
    TracedCallback<uint32_t> m_flowDoneTrace;    //!< a flow was acknowledged
};

} // namespace ns3

#endif /* RDMA_FLOW_GENERATOR_H */

/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cc-test-util.h"

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/switch-mmu.h"
#include "ns3/uinteger.h"

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// Completion of the flows.
struct Ends
{
    std::vector<int64_t> ps; //!< per flow
    uint32_t done{0};        //!< finished flows
};

/**
 * A flow's message was acknowledged.
 * @param ends the record.
 * @param flow the flow.
 * @param qp its queue pair.
 * @param id message id.
 * @param bytes message size.
 */
void
FlowDone(Ends* ends, uint32_t flow, Ptr<RdmaQueuePair> qp, uint64_t id, uint64_t bytes)
{
    ends->ps[flow] = Simulator::Now().GetPicoSeconds();
    if (++ends->done == ends->ps.size())
    {
        Simulator::Stop();
    }
}

} // namespace

CcIncastResult
RunCcIncast(const CcIncastConfig& config)
{
    RngSeedManager::SetSeed(1);
    RngSeedManager::SetRun(1);
    Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(config.mtu));
    std::string kmin = "5KB";
    std::string kmax = "200KB";
    double pmax = 0.01;
    DataRate reference;
    RdmaHelper::CompleteEcnOptions(config.cc, {false, false, false}, kmin, kmax, pmax, reference);
    RoceTopologyHelper topo;
    topo.SetMmuBufferAndEcn(config.buffer, kmin, kmax, pmax, config.pfc);
    topo.SetMmuAttribute("EcnReferenceRate", DataRateValue(reference));
    RoceFabric fabric = topo.BuildStar(config.senders + 1, config.rate, config.delay);
    fabric.AssignStreams(1);
    RdmaHelper rdma;
    rdma.SetEndpointAttribute("CongestionControl", TypeIdValue(config.cc));
    std::vector<Ptr<RdmaEndpoint>> ep = rdma.Install(fabric);
    Ends ends;
    ends.ps.assign(config.senders, -1);
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t s = 0; s < config.senders; ++s)
    {
        auto [qp, peer] = RdmaEndpoint::Connect(ep[s], ep[config.senders], 0xC000 + s);
        qp->SetSendCompleteCallback(MakeBoundCallback(&FlowDone, &ends, s));
        qp->PostWrite(config.bytes);
        qps.push_back(qp);
    }
    Ptr<RoceSwitch> sw = fabric.GetSwitch(0);
    uint64_t pauses = 0;
    Simulator::Stop(config.limit);
    Simulator::Run();
    CcIncastResult result;
    result.done = ends.done;
    result.endPs = ends.ps;
    for (const auto& qp : qps)
    {
        result.sent.push_back(qp->GetPacketsSent());
        result.retransmitted += qp->GetRetransmissions();
        result.timeouts += qp->GetTimeouts();
    }
    result.drops = sw->GetTotalDrops();
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        for (uint8_t priority = 0; priority < 8; ++priority)
        {
            result.ecnMarks += sw->GetEcnMarks(p, priority);
            pauses += sw->GetPort(p)->GetCounters(priority).pausesSent;
        }
    }
    result.pauses = pauses;
    result.events = Simulator::GetEventCount();
    Ptr<SwitchMmu> mmu = sw->GetMmu();
    result.kminBytes = mmu->GetKmin(config.senders);
    result.kmaxBytes = mmu->GetKmax(config.senders);
    DoubleValue p;
    mmu->GetAttribute("Pmax", p);
    result.pmax = p.Get();
    Simulator::Destroy();
    Config::Reset();
    return result;
}

} // namespace tests
} // namespace llmfabric

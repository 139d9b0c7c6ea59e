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

#include <algorithm>

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

std::vector<Ptr<RdmaEndpoint>>
InstallCc(const RoceFabric& fabric, TypeId cc)
{
    fabric.AssignStreams(1);
    RdmaHelper rdma;
    rdma.SetEndpointAttribute("CongestionControl", TypeIdValue(cc));
    return rdma.Install(fabric);
}

std::vector<Ptr<RdmaEndpoint>>
MakeCcStar(uint32_t hosts, DataRate rate, TypeId cc, RoceFabric& fabric)
{
    RoceTopologyHelper topo;
    fabric = topo.BuildStar(hosts, rate, MicroSeconds(1));
    return InstallCc(fabric, cc);
}

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
    std::vector<Ptr<RdmaEndpoint>> ep = InstallCc(fabric, config.cc);
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

CcIncastTestCase::CcIncastTestCase(const std::string& name, TypeId cc, CcIncastMarking marking)
    : TestCase(name),
      m_cc(cc),
      m_marking(marking)
{
}

void
CcIncastTestCase::DoRun()
{
    CcIncastConfig config;
    config.cc = m_cc;
    CcIncastResult lossless = RunCcIncast(config);
    NS_TEST_EXPECT_MSG_EQ(lossless.kminBytes, m_marking.kminBytes, "Kmin");
    NS_TEST_EXPECT_MSG_EQ(lossless.kmaxBytes, m_marking.kmaxBytes, "Kmax");
    NS_TEST_EXPECT_MSG_EQ(lossless.pmax, m_marking.pmax, "Pmax");
    if (m_marking.marks)
    {
        NS_TEST_EXPECT_MSG_GT(lossless.ecnMarks, 0, "the switch marked");
    }
    NS_TEST_EXPECT_MSG_EQ(lossless.done, 16, "every flow finishes");
    NS_TEST_EXPECT_MSG_EQ(lossless.drops, 0, "PFC: no drop");
    NS_TEST_EXPECT_MSG_EQ(lossless.retransmitted, 0, "no packet resent");
    // 4000 packets of 86.56 ns through the receiver's port: 346.24 us at least.
    int64_t last = *std::max_element(lossless.endPs.begin(), lossless.endPs.end());
    NS_TEST_EXPECT_MSG_GT(last, 346240000, "no faster than the line-rate bound");

    CcIncastConfig lossy = config;
    lossy.pfc = false;
    lossy.buffer = "1MB";
    CcIncastResult dropped = RunCcIncast(lossy);
    NS_TEST_EXPECT_MSG_EQ(dropped.done, 16, "without PFC every flow finishes too");
    // The first round trip's burst exceeds the 428,800-byte lossy pool (see the class comment).
    NS_TEST_EXPECT_MSG_GT(dropped.drops, 0, "the burst exceeds the buffer");
    NS_TEST_EXPECT_MSG_GT(dropped.retransmitted, 0, "losses were resent");

    CcIncastResult again = RunCcIncast(config);
    NS_TEST_EXPECT_MSG_EQ((again.endPs == lossless.endPs), true, "identical completion times");
    NS_TEST_EXPECT_MSG_EQ((again.sent == lossless.sent), true, "identical packet counts");
    NS_TEST_EXPECT_MSG_EQ(again.ecnMarks, lossless.ecnMarks, "identical marks");
    NS_TEST_EXPECT_MSG_EQ(again.events, lossless.events, "identical event counts");
}

} // namespace tests
} // namespace llmfabric

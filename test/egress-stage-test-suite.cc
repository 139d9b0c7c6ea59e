/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * Tests of the switch egress pipeline: EcnMarker marks what RED decides and nothing else, with a
 * valid IPv4 checksum, and a stage that exists only in this file, installed through
 * RoceTopologyHelper by TypeId name, sees every frame that leaves with the right port, queue and
 * transmitted bytes.
 */

#include "fabric-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/ecn-marker.h"
#include "ns3/egress-stage.h"
#include "ns3/enum.h"
#include "ns3/ethernet-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/queue-size.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-switch.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/switch-mmu.h"
#include "ns3/test.h"

#include <cstdint>
#include <set>
#include <vector>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * An egress stage that exists only in the tests: it records every frame it sees, with the state
 * the switch gives and what the port itself says at that moment.
 */
class RecordingEgressStage : public EgressStage
{
  public:
    /// One frame seen.
    struct Record
    {
        QueueState state;       //!< what the switch passed
        uint32_t frameBytes;    //!< the frame's size
        uint16_t etherType;     //!< bytes 12-13 of the frame
        uint32_t deviceQueue;   //!< the port's own queue bytes of that priority, after the pop
        uint64_t deviceTxBytes; //!< the port's GetTxBytes() at that moment
        Time simulatorNow;      //!< Simulator::Now() at the call
        uint32_t stagesBefore;  //!< egress stages ahead of this one on the switch
    };

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("llmfabric::tests::RecordingEgressStage")
                                .SetParent<EgressStage>()
                                .SetGroupName("LlmFabric")
                                .AddConstructor<RecordingEgressStage>();
        return tid;
    }

    void Dequeue(RoceSwitch& sw, Ptr<Packet> frame, const QueueState& state) override
    {
        uint8_t bytes[14];
        frame->CopyData(bytes, sizeof(bytes));
        Ptr<RoceNetDevice> port = sw.GetPort(state.port);
        uint32_t before = 0;
        for (const auto& stage : sw.GetEgressStages())
        {
            if (PeekPointer(stage) == this)
            {
                break;
            }
            ++before;
        }
        records.push_back({state,
                           frame->GetSize(),
                           static_cast<uint16_t>((bytes[12] << 8) | bytes[13]),
                           port->GetQueueBytes(state.priority),
                           port->GetTxBytes(),
                           Simulator::Now(),
                           before});
    }

    std::vector<Record> records; //!< every frame seen, in order
};

NS_OBJECT_ENSURE_REGISTERED(RecordingEgressStage);

namespace
{

/**
 * An untagged Ethernet / IPv4 / UDP frame with a valid IPv4 header checksum.
 * @param ecn its ECN codepoint.
 * @return the 1000-byte frame.
 */
Ptr<Packet>
MakeIpv4Frame(Ipv4Header::EcnType ecn)
{
    Ptr<Packet> p = Create<Packet>(1000 - 34);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.3"));
    ip.SetProtocol(17);
    ip.SetPayloadSize(1000 - 34);
    ip.SetDscp(Ipv4Header::DSCP_AF31);
    ip.SetEcn(ecn);
    ip.EnableChecksum();
    p->AddHeader(ip);
    EthernetHeader eth(false);
    eth.SetLengthType(0x0800);
    p->AddHeader(eth);
    return p;
}

/**
 * Read the IPv4 header of an untagged frame, checking its checksum.
 * @param frame the frame.
 * @param[out] ecn its ECN codepoint.
 * @return whether the header checksum is valid.
 */
bool
ReadIpv4(Ptr<const Packet> frame, Ipv4Header::EcnType& ecn)
{
    Ptr<Packet> copy = frame->Copy();
    EthernetHeader eth(false);
    copy->RemoveHeader(eth);
    Ipv4Header ip;
    ip.EnableChecksum();
    copy->RemoveHeader(ip);
    ecn = ip.GetEcn();
    return ip.IsChecksumOk();
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * EcnMarker on a switch's MMU: an ECT(0) frame is marked CE, with a rewritten valid checksum,
 * when its queue is above Kmax, and not below Kmin; a Not-ECT frame is never marked. Marks are
 * counted by the switch. On enqueue, the marker decides before admission and marks after.
 */
class EcnMarkerTestCase : public TestCase
{
  public:
    EcnMarkerTestCase()
        : TestCase("EcnMarker: CE above Kmax with a valid checksum, none below Kmin or for Not-ECT")
    {
    }

  private:
    void DoRun() override
    {
        RoceTopologyHelper topo;
        SetEcnMarking(topo, "10KB", "20KB", 0.5);
        RoceFabric fabric = topo.BuildStar(3, DataRate("100Gbps"), MicroSeconds(1));
        Ptr<RoceSwitch> sw = fabric.GetSwitch(0);
        sw->Initialize(); // sizes the MMU and installs the switch's own marker
        NS_TEST_ASSERT_MSG_EQ(sw->GetEgressStages().size(), 1, "EcnEnabled installs a marker");
        NS_TEST_ASSERT_MSG_NE(DynamicCast<EcnMarker>(sw->GetEgressStages()[0]),
                              nullptr,
                              "the marker");
        Ptr<SwitchMmu> mmu = sw->GetMmu();
        // 25 packets of 1000 bytes from port 0 to port 2, priority 3: the egress queue (2, 3)
        // holds 25000 bytes, above Kmax = 20 KB = 20000 bytes, where RED marks always (no
        // random draw). The lossless group (0, 3) stays far below its allowance (about half
        // of a 12 MB shared pool).
        for (uint32_t i = 0; i < 25; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(mmu->Admit(0, 2, 3, 1000).verdict, SwitchMmu::ACCEPT, "fits");
        }
        NS_TEST_ASSERT_MSG_EQ(mmu->GetEgressBytes(2, 3), 25000, "queue above Kmax");

        Ptr<EcnMarker> marker = CreateObject<EcnMarker>();
        NS_TEST_EXPECT_MSG_EQ(marker->HasEnqueueHook(), false, "Dequeue marks on dequeue");
        EgressStage::QueueState state;
        state.port = 2;
        state.priority = 3;
        state.queueBytes = mmu->GetEgressBytes(2, 3);
        state.rate = DataRate("100Gbps");

        Ipv4Header::EcnType ecn;
        Ptr<Packet> ect0 = MakeIpv4Frame(Ipv4Header::ECN_ECT0);
        NS_TEST_ASSERT_MSG_EQ(ReadIpv4(ect0, ecn), true, "a valid frame to start with");
        NS_TEST_ASSERT_MSG_EQ(ecn, Ipv4Header::ECN_ECT0, "ECT(0) to start with");
        marker->Dequeue(*sw, ect0, state);
        // The TOS byte changed from ECT(0) to CE: the old checksum would no longer add up, so a
        // valid one proves it was rewritten.
        NS_TEST_EXPECT_MSG_EQ(ReadIpv4(ect0, ecn), true, "checksum valid after marking");
        NS_TEST_EXPECT_MSG_EQ(ecn, Ipv4Header::ECN_CE, "ECT(0) above Kmax is marked CE");
        NS_TEST_EXPECT_MSG_EQ(ect0->GetSize(), 1000, "same size");
        NS_TEST_EXPECT_MSG_EQ(sw->GetEcnMarks(2, 3), 1, "the switch counts the mark");

        Ptr<Packet> ect1 = MakeIpv4Frame(Ipv4Header::ECN_ECT1);
        marker->Dequeue(*sw, ect1, state);
        NS_TEST_EXPECT_MSG_EQ(ReadIpv4(ect1, ecn), true, "checksum valid");
        NS_TEST_EXPECT_MSG_EQ(ecn, Ipv4Header::ECN_CE, "ECT(1) is ECN-capable too");
        NS_TEST_EXPECT_MSG_EQ(sw->GetEcnMarks(2, 3), 2, "second mark");

        Ptr<Packet> notEct = MakeIpv4Frame(Ipv4Header::ECN_NotECT);
        std::vector<uint8_t> before = PacketBytes(notEct);
        marker->Dequeue(*sw, notEct, state);
        NS_TEST_EXPECT_MSG_EQ((PacketBytes(notEct) == before), true, "Not-ECT is left alone");
        NS_TEST_EXPECT_MSG_EQ(sw->GetEcnMarks(2, 3), 2, "no mark for Not-ECT");

        // On enqueue: decided on the queue found (25000 > Kmax), applied once admitted.
        Ptr<EcnMarker> onEnqueue = CreateObject<EcnMarker>();
        onEnqueue->SetAttribute("MarkPoint", EnumValue(EcnMarker::MARK_ON_ENQUEUE));
        NS_TEST_EXPECT_MSG_EQ(onEnqueue->HasEnqueueHook(), true, "Enqueue has the hook");
        Ptr<Packet> arriving = MakeIpv4Frame(Ipv4Header::ECN_ECT0);
        NS_TEST_EXPECT_MSG_EQ(onEnqueue->EnqueueDecide(*sw, arriving, state), true, "decides");
        NS_TEST_EXPECT_MSG_EQ(ReadIpv4(arriving, ecn), true, "deciding does not touch it");
        NS_TEST_EXPECT_MSG_EQ(ecn, Ipv4Header::ECN_ECT0, "not marked before admission");
        NS_TEST_EXPECT_MSG_EQ(sw->GetEcnMarks(2, 3), 2, "nor counted");
        onEnqueue->EnqueueApply(*sw, arriving, state);
        NS_TEST_EXPECT_MSG_EQ(ReadIpv4(arriving, ecn), true, "checksum valid");
        NS_TEST_EXPECT_MSG_EQ(ecn, Ipv4Header::ECN_CE, "marked once admitted");
        NS_TEST_EXPECT_MSG_EQ(sw->GetEcnMarks(2, 3), 3, "and counted");
        Ptr<Packet> leaving = MakeIpv4Frame(Ipv4Header::ECN_ECT0);
        onEnqueue->Dequeue(*sw, leaving, state);
        NS_TEST_EXPECT_MSG_EQ(ReadIpv4(leaving, ecn), true, "valid");
        NS_TEST_EXPECT_MSG_EQ(ecn, Ipv4Header::ECN_ECT0, "an enqueue marker ignores dequeues");

        // Drain the queue to 5 packets, 5000 bytes, at or below Kmin = 10000: RED never marks.
        for (uint32_t i = 0; i < 20; ++i)
        {
            mmu->Release(0, 2, 3, 1000);
        }
        state.queueBytes = mmu->GetEgressBytes(2, 3);
        NS_TEST_ASSERT_MSG_EQ(state.queueBytes, 5000, "queue below Kmin");
        ExpectNoMark(marker, *sw, state, Ipv4Header::ECN_ECT0, "not marked below Kmin");
        NS_TEST_EXPECT_MSG_EQ(sw->GetEcnMarks(2, 3), 3, "no mark below Kmin");
        // A queue above Kmax again, for a Not-ECT frame only: never marked.
        for (uint32_t i = 0; i < 20; ++i)
        {
            mmu->Admit(0, 2, 3, 1000);
        }
        state.queueBytes = mmu->GetEgressBytes(2, 3);
        ExpectNoMark(marker, *sw, state, Ipv4Header::ECN_NotECT, "Not-ECT never marked");
        NS_TEST_EXPECT_MSG_EQ(sw->GetEcnMarks(2, 3), 3, "no mark for Not-ECT");
        Simulator::Destroy();
    }

    /**
     * Pass 100 frames of one ECN codepoint through a marker and check that each leaves valid
     * and unchanged.
     * @param marker the marker.
     * @param sw the switch.
     * @param state the queue the frames leave.
     * @param codepoint their ECN codepoint.
     * @param why why none may be marked.
     */
    void ExpectNoMark(Ptr<EcnMarker> marker,
                      RoceSwitch& sw,
                      const EgressStage::QueueState& state,
                      Ipv4Header::EcnType codepoint,
                      const std::string& why)
    {
        for (uint32_t i = 0; i < 100; ++i)
        {
            Ptr<Packet> frame = MakeIpv4Frame(codepoint);
            marker->Dequeue(sw, frame, state);
            Ipv4Header::EcnType ecn;
            NS_TEST_EXPECT_MSG_EQ(ReadIpv4(frame, ecn), true, "valid");
            NS_TEST_EXPECT_MSG_EQ(ecn, codepoint, why);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * A stage defined only in this file, installed on every switch through the helper by TypeId
 * name, sees every frame that leaves the switch, after the ECN marker, with the egress port,
 * priority, queue left behind and the bytes the port sent before it.
 */
class EgressStageSubclassTestCase : public TestCase
{
  public:
    EgressStageSubclassTestCase()
        : TestCase("A test-only EgressStage, installed by TypeId name, sees every dequeued frame")
    {
    }

  private:
    void DoRun() override
    {
        RoceTopologyHelper topo;
        NS_TEST_ASSERT_MSG_EQ(topo.AddEgressStage("llmfabric::tests::RecordingEgressStage"),
                              "",
                              "a stage defined in a test is found by its TypeId name");
        NS_TEST_EXPECT_MSG_NE(topo.AddEgressStage("spray"), "", "spray is not a stage");
        RoceFabric fabric = topo.BuildStar(3, DataRate("100Gbps"), MicroSeconds(1));
        Ptr<RoceSwitch> sw = fabric.GetSwitch(0);
        // Two senders at line rate, 10 frames each, into port 2 (host 2). A frame is
        // 14 (Ethernet) + 20 (IPv4) + 8 (UDP) + 12 (BTH) + 930 (payload) + 4 (ICRC) = 988
        // bytes; priority 3 (DSCP 26).
        const uint32_t frameBytes = 988;
        AddTwoToOneIncast(fabric, 2, 10);
        Simulator::Run();

        const auto& stages = sw->GetEgressStages();
        NS_TEST_ASSERT_MSG_EQ(stages.size(), 2, "the ECN marker, then the test stage");
        NS_TEST_EXPECT_MSG_NE(DynamicCast<EcnMarker>(stages[0]), nullptr, "marker first");
        Ptr<RecordingEgressStage> stage = DynamicCast<RecordingEgressStage>(stages[1]);
        NS_TEST_ASSERT_MSG_NE(stage, nullptr, "the helper installed the test stage");
        const auto& records = stage->records;
        // Host 2 only receives: every frame the switch sends leaves by port 2.
        NS_TEST_ASSERT_MSG_EQ(records.size(), 20, "every frame seen once");
        for (uint32_t k = 0; k < records.size(); ++k)
        {
            const auto& r = records[k];
            NS_TEST_EXPECT_MSG_EQ(r.state.port, 2, "egress port of frame " << k);
            NS_TEST_EXPECT_MSG_EQ(+r.state.priority, 3, "priority of frame " << k);
            NS_TEST_EXPECT_MSG_EQ(r.frameBytes, frameBytes, "whole frame");
            NS_TEST_EXPECT_MSG_EQ(r.etherType, 0x0800, "Ethernet header first");
            NS_TEST_EXPECT_MSG_EQ(r.stagesBefore, 1, "after the marker");
            // The MMU's egress count after release is what the port still holds.
            NS_TEST_EXPECT_MSG_EQ(r.state.queueBytes, r.deviceQueue, "queue left behind");
            NS_TEST_EXPECT_MSG_EQ(r.state.queueBytes % frameBytes, 0, "whole frames");
            // Frame k (from 0) follows k frames on this port and nothing else (no PFC: 20
            // frames never approach a threshold): k x 988 bytes sent before it.
            NS_TEST_EXPECT_MSG_EQ(r.state.txBytes, uint64_t{k} * frameBytes, "frame " << k);
            NS_TEST_EXPECT_MSG_EQ(r.state.txBytes, r.deviceTxBytes, "the port's own count");
            NS_TEST_EXPECT_MSG_EQ(r.state.rate, DataRate("100Gbps"), "link rate");
            NS_TEST_EXPECT_MSG_EQ(r.state.now, r.simulatorNow, "the time of the call");
            if (k > 0)
            {
                NS_TEST_EXPECT_MSG_GT(r.state.now, records[k - 1].state.now, "in time order");
            }
        }
        // Two frames arrive per frame time and one leaves, so once all 20 have arrived frame
        // k (counting from 1, k >= 10) leaves 20 - k frames behind it; the last leaves none.
        for (uint32_t k = 10; k <= 20; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(records[k - 1].state.queueBytes,
                                  (20 - k) * frameBytes,
                                  "frame " << k << " leaves " << 20 - k << " behind");
        }
        // After the last frame the port has sent 20 x 988 = 19760 bytes.
        Ptr<RoceNetDevice> port2 = sw->GetPort(2);
        NS_TEST_EXPECT_MSG_EQ(port2->GetTxBytes(), 20 * frameBytes, "all bytes sent");
        NS_TEST_EXPECT_MSG_EQ(port2->GetCounters(3).txBytes, 20 * frameBytes, "data counter");
        NS_TEST_EXPECT_MSG_EQ(records.back().state.txBytes + frameBytes,
                              port2->GetTxBytes(),
                              "the last frame's count plus itself is the total");
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * The helper gives every switch its own stage object; without EcnEnabled the switch has no
 * marker and marks nothing.
 */
class EgressStageHelperTestCase : public TestCase
{
  public:
    EgressStageHelperTestCase()
        : TestCase("One stage object per switch; EcnEnabled false installs no marker")
    {
    }

  private:
    void DoRun() override
    {
        RoceTopologyHelper topo;
        topo.SetSwitchAttribute("EcnEnabled", BooleanValue(false));
        NS_TEST_ASSERT_MSG_EQ(
            topo.AddEgressStage("ecn", "MarkPoint", EnumValue(EcnMarker::MARK_ON_ENQUEUE)),
            "",
            "the marker by alias, with an attribute");
        RoceTopologyHelper::LeafSpineConfig shape = LeafSpineShape(1, 2, 2);
        RoceFabric fabric = topo.BuildLeafSpine(shape);
        std::set<EgressStage*> seen;
        for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
        {
            Ptr<RoceSwitch> sw = fabric.GetSwitch(s);
            sw->Initialize();
            NS_TEST_ASSERT_MSG_EQ(sw->GetEgressStages().size(), 1, "only the helper's stage");
            Ptr<EcnMarker> marker = DynamicCast<EcnMarker>(sw->GetEgressStages()[0]);
            NS_TEST_ASSERT_MSG_NE(marker, nullptr, "an EcnMarker");
            NS_TEST_EXPECT_MSG_EQ(marker->HasEnqueueHook(), true, "its attribute was set");
            seen.insert(PeekPointer(marker));
        }
        NS_TEST_EXPECT_MSG_EQ(seen.size(), fabric.GetNSwitches(), "one object per switch");
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * The switch egress-stage extension point.
 */
class EgressStageTestSuite : public TestSuite
{
  public:
    EgressStageTestSuite()
        : TestSuite("llm-fabric-egress-stage", Type::UNIT)
    {
        AddTestCase(new EcnMarkerTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new EgressStageSubclassTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new EgressStageHelperTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static EgressStageTestSuite g_egressStageTestSuite;

} // namespace tests
} // namespace llmfabric

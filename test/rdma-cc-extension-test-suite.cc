/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/dcqcn.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-cc-fixed-rate.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/traced-value.h"
#include "ns3/type-id-alias.h"
#include "ns3/uinteger.h"

#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * @brief A congestion control that exists only in this test: a fixed window of Window bytes (at
 * the line rate), optionally asking for the ECN echo, recording every acknowledgement.
 *
 * It is the whole of what adding an algorithm takes: one class, its TypeId (with an alias), and
 * the RdmaCongestionOps hooks it uses.
 */
class RdmaCcTestWindow : public RdmaCongestionOps
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::RdmaCcTestWindow")
                .SetParent<RdmaCongestionOps>()
                .SetGroupName("LlmFabric")
                .AddConstructor<RdmaCcTestWindow>()
                .AddAttribute("Window",
                              "Payload bytes that may be in flight.",
                              UintegerValue(RdmaCongestionOps::UNLIMITED_WINDOW),
                              MakeUintegerAccessor(&RdmaCcTestWindow::m_windowBytes),
                              MakeUintegerChecker<uint64_t>(1))
                .AddAttribute("EcnEcho",
                              "Ask the receiver for the ECN echo.",
                              BooleanValue(false),
                              MakeBooleanAccessor(&RdmaCcTestWindow::m_ecnEcho),
                              MakeBooleanChecker())
                .AddTraceSource("LastRtt",
                                "The last RTT sample.",
                                MakeTraceSourceAccessor(&RdmaCcTestWindow::m_lastRtt),
                                "ns3::TracedValueCallback::Time")
                .AddTraceSource("MarkedBytes",
                                "Acknowledged bytes that arrived CE-marked, in all.",
                                MakeTraceSourceAccessor(&RdmaCcTestWindow::m_markedBytes),
                                "ns3::TracedValueCallback::Uint64");
        return tid;
    }

    /// @return "TestWindow".
    std::string GetName() const override
    {
        return "TestWindow";
    }

    /**
     * Line rate, and the window.
     * @param lineRate the port's rate.
     */
    void Start(DataRate lineRate) override
    {
        RdmaCongestionOps::Start(lineRate);
        SetWindow(m_windowBytes);
    }

    /// @return the EcnEcho attribute.
    bool NeedsEcnEcho() const override
    {
        return m_ecnEcho;
    }

    /**
     * Record the acknowledgement.
     * @param info what it tells.
     */
    void OnAck(const RdmaAckInfo& info) override
    {
        acks.push_back(info);
        if (!info.rtt.IsZero())
        {
            m_lastRtt = info.rtt;
        }
        if (info.ecnEcho)
        {
            m_markedBytes += info.ackedBytes; // every byte of an echoing ACK was marked
        }
    }

    /// @return acknowledged bytes that arrived CE-marked.
    uint64_t GetMarkedBytes() const
    {
        return m_markedBytes;
    }

    std::vector<RdmaAckInfo> acks; //!< every OnAck, in order

  private:
    uint64_t m_windowBytes{RdmaCongestionOps::UNLIMITED_WINDOW}; //!< Window
    bool m_ecnEcho{false};                                       //!< EcnEcho
    TracedValue<Time> m_lastRtt;                                 //!< LastRtt
    TracedValue<uint64_t> m_markedBytes{0};                      //!< MarkedBytes
};

NS_OBJECT_ENSURE_REGISTERED(RdmaCcTestWindow);

/// Its short name, registered in its own file like any algorithm's.
static TypeIdAlias g_rdmaCcTestWindowAlias("test-window", "ns3::RdmaCcTestWindow");

namespace
{

/**
 * Set attribute defaults from command-line words, as a program's CommandLine would.
 * @param args the words after the program name.
 */
void
ParseArguments(const std::vector<std::string>& args)
{
    std::vector<std::string> words{"test"};
    words.insert(words.end(), args.begin(), args.end());
    CommandLine cmd;
    cmd.Parse(words);
}

/// Records the completion time of the sender's message.
class Completion
{
  public:
    /**
     * @param qp the queue pair.
     * @param id message id.
     * @param bytes its size.
     */
    void Done(Ptr<RdmaQueuePair> qp, uint64_t id, uint64_t bytes)
    {
        at = Simulator::Now();
        doneBytes += bytes;
    }

    Time at;               //!< when the last message completed
    uint64_t doneBytes{0}; //!< bytes of completed messages
};

/**
 * Counts the switch's ECN marks.
 * @param marks the counter.
 * @param port egress port.
 * @param priority priority.
 * @param queueBytes queue seen.
 */
void
CountMark(uint64_t* marks, uint32_t port, uint8_t priority, uint32_t queueBytes)
{
    ++*marks;
}

/**
 * Records congestion-control variable changes.
 * @param seen last value per variable name.
 * @param time when.
 * @param flow the flow.
 * @param name the variable's display name.
 * @param value its value.
 */
void
RecordVariable(std::map<std::string, double>* seen,
               Time time,
               uint32_t flow,
               const std::string& name,
               double value)
{
    (*seen)[name] = value;
}

// Timing on the star (100 Gb/s: 0.08 ns a byte; 1 us links; store-and-forward switch), from the
// wire formats. A data packet of 1000 payload bytes is, from IPv4 to ICRC, 1000 + BTH 12 + UDP
// 8 + IPv4 20 + ICRC 4 = 1044 bytes (1060 with the RETH of a message's first packet); with the
// Ethernet header (14) it is a 1058-byte frame, which puts preamble 8 + 1058 + FCS 4 = 1070
// bytes on the wire before its last bit (85.6 ns; 1086 bytes, 86.88 ns, with the RETH) and
// occupies 1082 bytes with the gap (86.56 ns; 87.84 ns with the RETH). An ACK is BTH 12 + AETH
// 4 + UDP 8 + IPv4 20 + ICRC 4 + Ethernet 14 = 62 bytes: 8 + 62 + 4 = 74 bytes, 5.92 ns to its
// last bit. A packet handed to an idle port at t reaches the switch at t + 85.6 + 1000, the
// receiver at t + 2 x 1085.6 = t + 2171.2, and its ACK, sent at once, is back at t + 2171.2 +
// 2 x 1005.92 = t + 4183.04 ns: the base RTT. With the RETH it is 4183.04 + 2 x 1.28 =
// 4185.6 ns.
constexpr double BASE_RTT_NS = 4183.04;                  //!< base RTT of a 1000-byte packet
constexpr double FIRST_RTT_NS = 4185.6;                  //!< base RTT of the first (RETH) packet
constexpr double PACKET_WIRE_NS = 86.56;                 //!< wire occupancy of a 1000-byte packet
constexpr uint32_t MTU = 1000;                           //!< payload bytes per packet
constexpr uint32_t PACKETS = 40;                         //!< packets of the message
constexpr uint64_t MESSAGE = PACKETS * MTU;              //!< message size, bytes
constexpr const char* TEST_CC = "ns3::RdmaCcTestWindow"; //!< the test algorithm's TypeId name

} // namespace

/**
 * @ingroup llm-fabric-tests
 * A test-only algorithm is found by its alias and TypeId name; the helper's lookup and the
 * programs' names agree; DCQCN's and the base's variables have their documented display names.
 */
class RdmaCcNamesTestCase : public TestCase
{
  public:
    RdmaCcNamesTestCase()
        : TestCase("Congestion controls by alias or TypeId name, with display names")
    {
    }

  private:
    void DoRun() override
    {
        TypeId base = RdmaCongestionOps::GetTypeId();
        TypeId tid;
        NS_TEST_EXPECT_MSG_EQ(TypeIdAlias::Resolve(base, "test-window", tid), "", "alias");
        NS_TEST_EXPECT_MSG_EQ(tid, RdmaCcTestWindow::GetTypeId(), "the test class");
        for (std::string name : {"dcqcn", "ns3::Dcqcn", "Dcqcn"})
        {
            NS_TEST_EXPECT_MSG_EQ(RdmaHelper::LookupCongestionControl(name, tid), "", name);
            NS_TEST_EXPECT_MSG_EQ(tid, Dcqcn::GetTypeId(), name);
        }
        NS_TEST_EXPECT_MSG_EQ(RdmaHelper::LookupCongestionControl("fixed", tid), "", "fixed");
        NS_TEST_EXPECT_MSG_EQ(tid, RdmaCcFixedRate::GetTypeId(), "fixed");
        NS_TEST_EXPECT_MSG_EQ(RdmaHelper::LookupCongestionControl("none", tid), "", "none");
        NS_TEST_EXPECT_MSG_EQ(tid.GetName(), "ns3::RdmaCcNone", "none");
        std::string problem = RdmaHelper::LookupCongestionControl("bbr", tid);
        NS_TEST_EXPECT_MSG_EQ(problem.rfind("unknown congestion control 'bbr' (known: ", 0),
                              0,
                              problem);
        NS_TEST_EXPECT_MSG_NE(problem.find("test-window"), std::string::npos, problem);

        Ptr<Dcqcn> dcqcn = CreateObject<Dcqcn>();
        NS_TEST_EXPECT_MSG_EQ(dcqcn->GetVariableDisplay("Rate").name, "rate_gbps", "rate");
        NS_TEST_EXPECT_MSG_EQ(dcqcn->GetVariableDisplay("Rate").scale, 1e-9, "bit/s to Gb/s");
        NS_TEST_EXPECT_MSG_EQ(dcqcn->GetVariableDisplay("TargetRate").name, "target_gbps", "RT");
        NS_TEST_EXPECT_MSG_EQ(dcqcn->GetVariableDisplay("TargetRate").scale, 1e-9, "Gb/s");
        NS_TEST_EXPECT_MSG_EQ(dcqcn->GetVariableDisplay("Alpha").name, "alpha", "alpha");
        NS_TEST_EXPECT_MSG_EQ(dcqcn->GetVariableDisplay("Alpha").scale, 1.0, "as is");
        NS_TEST_EXPECT_MSG_EQ(dcqcn->GetVariableDisplay("Window").name, "window_bytes", "window");
        NS_TEST_EXPECT_MSG_EQ(dcqcn->NeedsEcnEcho(), false, "DCQCN uses CNPs, not the echo");
        NS_TEST_EXPECT_MSG_EQ(dcqcn->GetWindow(),
                              RdmaCongestionOps::UNLIMITED_WINDOW,
                              "DCQCN sets no window");
        dcqcn->Dispose();
    }
};

/**
 * @ingroup llm-fabric-tests
 * A window of W bytes on an idle path of base RTT R: the flow moves W per R, its RTT samples are
 * R, the window is never exceeded. The algorithm is chosen on a command line by TypeId name.
 */
class RdmaCcWindowTestCase : public TestCase
{
  public:
    /**
     * @param windowPackets the window, in 1000-byte packets.
     */
    explicit RdmaCcWindowTestCase(uint32_t windowPackets)
        : TestCase("A window of " + std::to_string(windowPackets) +
                   " packets: W per RTT, RTT samples of the base RTT"),
          m_windowPackets(windowPackets)
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t window = m_windowPackets * MTU;
        ParseArguments({std::string("--ns3::RdmaEndpoint::CongestionControl=") + TEST_CC,
                        "--ns3::RdmaCcTestWindow::Window=" + std::to_string(window),
                        "--ns3::RdmaQueuePair::AckInterval=1",
                        "--ns3::RdmaQueuePair::Mtu=" + std::to_string(MTU)});
        RoceTopologyHelper topo;
        RoceFabric fabric;
        auto ep = MakeRdmaStar(2, topo, fabric);
        auto [a, b] = RdmaEndpoint::Connect(ep[0], ep[1], 0xC000);
        Ptr<RdmaCcTestWindow> cc = DynamicCast<RdmaCcTestWindow>(a->GetCongestionControl());
        NS_TEST_ASSERT_MSG_NE(cc, nullptr, "the endpoint made the test algorithm");
        std::map<std::string, double> variables;
        uint32_t connected = RdmaHelper::ConnectCongestionControlTraces(
            a,
            0,
            MakeBoundCallback(&RecordVariable, &variables));
        Completion done;
        a->SetSendCompleteCallback(MakeCallback(&Completion::Done, &done));
        a->PostWrite(MESSAGE);
        Simulator::Run();
        std::vector<RdmaAckInfo> acks = cc->acks;
        Simulator::Destroy();
        Config::Reset();

        NS_TEST_ASSERT_MSG_EQ(done.doneBytes, MESSAGE, "the message completes");
        // AckInterval 1: one ACK per packet, each for one packet's 1000 bytes, in PSN order.
        NS_TEST_ASSERT_MSG_EQ(acks.size(), PACKETS, "one ACK per packet");
        for (uint32_t k = 0; k < PACKETS; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(acks[k].ackedPsn, k, "acknowledged PSN");
            NS_TEST_EXPECT_MSG_EQ(acks[k].ackedBytes, MTU, "one packet's bytes");
            NS_TEST_EXPECT_MSG_EQ(acks[k].ecnEcho, false, "no echo asked for");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(acks[k].bytesInFlight + acks[k].ackedBytes,
                                        window,
                                        "never more than the window in flight");
        }
        // Event times are whole nanoseconds (the simulator's resolution): the arrival at each of
        // the four hops of a round trip is rounded half up, and a frame that finds its port idle
        // starts from that rounded time, so a sample may differ from the exact value by up to
        // 4 x 0.5 = 2 ns.
        const double tolerance = 2.0;
        if (m_windowPackets == 1)
        {
            // Each packet leaves when the previous one is acknowledged, on an idle port: its
            // sample is the base RTT exactly, 4185.6 ns for the first (RETH) packet and
            // 4183.04 ns for the others. Nothing is ever in flight at an ACK.
            for (uint32_t k = 0; k < PACKETS; ++k)
            {
                double rtt = static_cast<double>(acks[k].rtt.GetPicoSeconds()) / 1000.0;
                NS_TEST_EXPECT_MSG_EQ_TOL(rtt,
                                          (k == 0 ? FIRST_RTT_NS : BASE_RTT_NS),
                                          tolerance,
                                          "RTT sample " << k);
                NS_TEST_EXPECT_MSG_EQ(acks[k].bytesInFlight, 0, "window of one packet");
            }
        }
        else
        {
            // With several packets in the window, a packet handed to the port may wait behind
            // the frame on the wire, at most one frame (87.84 ns with a RETH), and at the switch
            // behind the packet ahead of it by no more than that one was late there: the RETH's
            // extra 1.28 ns (both ports run at the same rate). Samples lie between the base RTT
            // and 87.84 + 1.28 ns more.
            for (uint32_t k = 1; k < PACKETS; ++k)
            {
                double rtt = static_cast<double>(acks[k].rtt.GetPicoSeconds()) / 1000.0;
                NS_TEST_EXPECT_MSG_GT_OR_EQ(rtt, BASE_RTT_NS - tolerance, "sample " << k);
                NS_TEST_EXPECT_MSG_LT_OR_EQ(rtt,
                                            BASE_RTT_NS + 87.84 + 1.28 + tolerance,
                                            "sample " << k);
            }
        }
        // The FCT (the last ACK back at the sender), for w = window packets and N = 40 packets
        // in N / w groups of w: group 0 leaves back to back at 0 (the first packet occupies
        // 87.84 ns). Group 1 leaves when the ACKs of group 0 come back: its first packet at the
        // first RTT, 4185.6 ns; the others are released at most 1.28 ns (the RETH's extra wire
        // time) before the port is free, so they follow back to back. Group g >= 2 then starts
        // one base RTT after group g - 1 (whose packets took 86.56 ns each, as the ACKs return
        // at that spacing). The last packet, number w - 1 of group N/w - 1, starts at 4185.6 +
        // (N/w - 2) x 4183.04 + (w - 1) x 86.56 and is acknowledged 4183.04 later:
        //   FCT = 4185.6 + (N/w - 1) x 4183.04 + (w - 1) x 86.56 ns,
        // for w = 1: 4185.6 + 39 x 4183.04 = 167,324.16 ns (1000 bytes per 4183.04 ns,
        // 1.912 Gb/s = W / RTT); for w = 4: 4185.6 + 9 x 4183.04 + 3 x 86.56 = 42,092.64 ns
        // (4000 bytes per 4183.04 ns, 7.650 Gb/s = W / RTT). Each group's round trip may
        // round by up to 2 ns (above).
        const uint32_t groups = PACKETS / m_windowPackets;
        double expectedFct =
            FIRST_RTT_NS + (groups - 1) * BASE_RTT_NS + (m_windowPackets - 1) * PACKET_WIRE_NS;
        double fct = static_cast<double>(done.at.GetPicoSeconds()) / 1000.0;
        NS_TEST_EXPECT_MSG_EQ_TOL(fct, expectedFct, groups * tolerance, "FCT");
        // Throughput in steady state: W per base RTT.
        double throughput = static_cast<double>(MESSAGE) * 8 / fct; // Gb/s
        double expectedThroughput = static_cast<double>(window) * 8 / BASE_RTT_NS;
        NS_TEST_EXPECT_MSG_EQ_TOL(throughput,
                                  expectedThroughput,
                                  expectedThroughput * 0.03,
                                  "W / RTT (the first group's start-up within 3 %)");
        // The generic connector found Rate and Window of the base and the two variables of the
        // test class; the latter changed during the run, by their default display names.
        NS_TEST_EXPECT_MSG_EQ(connected, 4, "Rate, Window, LastRtt, MarkedBytes");
        NS_TEST_EXPECT_MSG_EQ(variables.count("last_rtt"), 1, "LastRtt reported as last_rtt");
        NS_TEST_EXPECT_MSG_EQ(variables.count("marked_bytes"), 0, "nothing marked");
        NS_TEST_EXPECT_MSG_EQ_TOL(variables["last_rtt"],
                                  BASE_RTT_NS * 1e-9,
                                  (87.84 + 1.28 + tolerance) * 1e-9,
                                  "a Time in seconds");
    }

    uint32_t m_windowPackets; //!< window, packets
};

/**
 * @ingroup llm-fabric-tests
 * Karn's rule: the ACK of a packet that was sent twice gives no RTT sample.
 */
class RdmaCcKarnTestCase : public TestCase
{
  public:
    RdmaCcKarnTestCase()
        : TestCase("Karn's rule: no RTT sample from a retransmitted packet")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaEndpoint::CongestionControl",
                           TypeIdValue(RdmaCcTestWindow::GetTypeId()));
        Config::SetDefault("ns3::RdmaCcTestWindow::Window", UintegerValue(MTU));
        Config::SetDefault("ns3::RdmaQueuePair::AckInterval", UintegerValue(1));
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(MTU));
        RoceTopologyHelper topo;
        RoceFabric fabric;
        auto ep = MakeRdmaStar(2, topo, fabric);
        // The receiver loses the 11th frame it receives: packet 10 (one packet per round
        // trip, so nothing else is in flight). Nothing follows it (the window is full), so the
        // retransmission timer (1 ms) resends it; its ACK then covers a packet sent twice.
        LoseReceivedFrames(fabric, 1, {10});
        auto [a, b] = RdmaEndpoint::Connect(ep[0], ep[1], 0xC000);
        Ptr<RdmaCcTestWindow> cc = DynamicCast<RdmaCcTestWindow>(a->GetCongestionControl());
        a->PostWrite(MESSAGE);
        Simulator::Run();
        std::vector<RdmaAckInfo> acks = cc->acks;
        uint64_t timeouts = a->GetTimeouts();
        uint64_t resent = a->GetRetransmissions();
        Simulator::Destroy();
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ(acks.size(), PACKETS, "one ACK per packet");
        NS_TEST_EXPECT_MSG_EQ(timeouts, 1, "one timeout");
        NS_TEST_EXPECT_MSG_EQ(resent, 1, "packet 10 resent once");
        for (uint32_t k = 0; k < PACKETS; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(acks[k].ackedPsn, k, "acknowledged PSN");
            NS_TEST_EXPECT_MSG_EQ(acks[k].rtt.IsZero(), (k == 10), "a sample unless resent, " << k);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * ECN echo: with marking forced on the receiver's port, a receiver asked for the echo sets BECN
 * on ACKs of marked packets, and the senders count exactly the bytes the switch marked; without
 * it, the ACKs are today's (every 16 packets and at the message's end) and carry no echo.
 */
class RdmaCcEcnEchoTestCase : public TestCase
{
  public:
    RdmaCcEcnEchoTestCase()
        : TestCase("ECN echo: BECN on ACKs of marked packets, marked bytes match the switch")
    {
    }

  private:
    void DoRun() override
    {
        for (bool echo : {true, false})
        {
            Config::SetDefault("ns3::RdmaEndpoint::CongestionControl",
                               TypeIdValue(RdmaCcTestWindow::GetTypeId()));
            Config::SetDefault("ns3::RdmaCcTestWindow::EcnEcho", BooleanValue(echo));
            Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(MTU));
            RoceTopologyHelper topo;
            // Mark every ECT packet that finds more than one byte queued (as the CNP test).
            SetEcnMarking(topo, "0B", "1B", 1.0);
            RoceFabric fabric;
            auto ep = MakeRdmaStar(3, topo, fabric);
            uint64_t marks = 0;
            fabric.GetSwitch(0)->TraceConnectWithoutContext("EcnMark",
                                                            MakeBoundCallback(&CountMark, &marks));
            // Two senders at line rate into one port: the queue builds from the start, so the
            // first packets pass unmarked and then nearly all are marked (both CE states).
            const uint32_t packets = 200;
            std::vector<Ptr<RdmaCcTestWindow>> ccs;
            for (uint32_t s = 0; s < 2; ++s)
            {
                auto [a, b] = RdmaEndpoint::Connect(ep[s], ep[2], 0xC000 + s);
                a->PostWrite(packets * MTU);
                ccs.push_back(DynamicCast<RdmaCcTestWindow>(a->GetCongestionControl()));
            }
            Simulator::Run();
            uint64_t markedBytes = 0;
            std::vector<std::vector<RdmaAckInfo>> acks;
            for (const auto& cc : ccs)
            {
                markedBytes += cc->GetMarkedBytes();
                acks.push_back(cc->acks);
            }
            Simulator::Destroy();
            Config::Reset();
            NS_TEST_ASSERT_MSG_GT(marks, 100, "many packets were marked");
            uint32_t echoing = 0;
            for (uint32_t s = 0; s < 2; ++s)
            {
                uint64_t acked = 0;
                for (const RdmaAckInfo& info : acks[s])
                {
                    acked += info.ackedBytes;
                    echoing += info.ecnEcho ? 1 : 0;
                }
                NS_TEST_EXPECT_MSG_EQ(acked, packets * MTU, "everything acknowledged once");
                // Without the echo: an ACK every AckInterval = 16 in-order packets, and one for
                // the message's last packet, which asks for it: 200 = 12 x 16 + 8, so 12 + 1 =
                // 13 ACKs, as before the echo existed. With it, at least one more at each change
                // of the CE state.
                if (echo)
                {
                    NS_TEST_EXPECT_MSG_GT(acks[s].size(), 13, "an ACK at each CE change");
                }
                else
                {
                    NS_TEST_EXPECT_MSG_EQ(acks[s].size(), 13, "today's ACK pattern");
                }
            }
            if (echo)
            {
                // Every marked packet is a data packet of 1000 payload bytes (200,000-byte
                // messages), delivered once and in order (PFC: no loss), and acknowledged by
                // exactly one ACK whose BECN is its CE state.
                NS_TEST_EXPECT_MSG_GT(echoing, 0, "ACKs carry BECN");
                NS_TEST_EXPECT_MSG_EQ(markedBytes, marks * MTU, "marked bytes = switch's marks");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(echoing, 0, "no BECN without the echo");
                NS_TEST_EXPECT_MSG_EQ(markedBytes, 0, "nothing counted");
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Congestion control as an extension point: a test-only algorithm chosen by TypeId.
 */
class RdmaCcExtensionTestSuite : public TestSuite
{
  public:
    RdmaCcExtensionTestSuite()
        : TestSuite("llm-fabric-rdma-cc-extension", Type::SYSTEM)
    {
        AddTestCase(new RdmaCcNamesTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaCcWindowTestCase(1), ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaCcWindowTestCase(4), ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaCcKarnTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaCcEcnEchoTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static RdmaCcExtensionTestSuite g_rdmaCcExtensionTestSuite;

} // namespace tests
} // namespace llmfabric

/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PFC forensics: pause propagation trees and victim flows (PfcPauseTree).

#include "fabric-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/enum.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/nstime.h"
#include "ns3/pfc-pause-tree.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/switch-mmu.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// The lossless priority (SwitchMmu LosslessPriorities 0x08; RDMA data goes there).
constexpr uint8_t PRIO = 3;

/// Bytes each incast sender (h0, h1 -> h3) and the victim (h2 -> h4) write.
constexpr uint64_t FLOW_BYTES = 1000000;

/// What a run of the head-of-line topology gave.
struct HolRun
{
    Time fct[3];                              //!< FCT of h0->h3, h1->h3, h2->h4
    uint32_t done{0};                         //!< flows finished
    uint64_t events{0};                       //!< simulator events
    std::map<uint32_t, uint32_t> pauseStarts; //!< PauseState(true) per port (tree's index)
    std::map<uint32_t, Time> pausedTime;      //!< the ports' own paused-time counters
    Ptr<PfcPauseTree> tree;                   //!< null when not installed
    std::vector<FlowFiveTuple> tuples;        //!< the three flows' five-tuples
};

/**
 * A flow finished.
 * @param end where to record the time.
 * @param done counter of finished flows.
 * @param qp the queue pair.
 * @param id message id.
 * @param bytes message size.
 */
void
FlowDone(Time* end, uint32_t* done, Ptr<RdmaQueuePair> qp, uint64_t id, uint64_t bytes)
{
    *end = Simulator::Now();
    ++*done;
}

/**
 * Count pause starts of a port.
 * @param count the counter.
 * @param priority the priority.
 * @param paused the pause begins or ends.
 */
void
CountPause(uint32_t* count, uint8_t priority, bool paused)
{
    if (paused && priority == PRIO)
    {
        ++*count;
    }
}

/**
 * Run the head-of-line topology of llm-fabric-pfc-hol (h0, h1 -> h3 incast and h2 -> h4 over
 * leaf0 = spine0 = leaf1) with PFC on priority 3 and no congestion control, each switch's
 * lossless groups with a static 50 KB shared allowance.
 * @param install install a PfcPauseTree.
 * @param stormGap its StormGap.
 * @param dir where it writes its files (empty: not written).
 * @return what happened.
 */
HolRun
RunHol(bool install, Time stormGap, const std::string& dir)
{
    HolRun r;
    RoceTopologyHelper topo;
    topo.SetMmuAttribute("Buffer", QueueSizeValue(QueueSize("2MB")));
    topo.SetMmuAttribute("LosslessPriorities", UintegerValue(0x08));
    topo.SetMmuAttribute("ThresholdMode", EnumValue(SwitchMmu::STATIC));
    topo.SetMmuAttribute("StaticThreshold", QueueSizeValue(QueueSize("50KB")));
    RoceTopologyHelper::LeafSpineConfig c = LeafSpineShape(3, 2, 1); // 100 Gb/s, 1 us links
    c.fabricRate = DataRate("400Gbps");
    RoceFabric fabric = topo.BuildLeafSpine(c);
    fabric.AssignStreams(1);
    RdmaHelper rdma;
    rdma.SetEndpointAttribute("CongestionControl",
                              TypeIdValue(TypeId::LookupByName("ns3::RdmaCcNone")));
    std::vector<Ptr<RdmaEndpoint>> ep = rdma.Install(fabric);
    const uint32_t src[3] = {0, 1, 2};
    const uint32_t dst[3] = {3, 3, 4};
    for (uint32_t f = 0; f < 3; ++f)
    {
        auto [qp, peer] = RdmaEndpoint::Connect(ep[src[f]], ep[dst[f]], 0xC000 + f);
        qp->SetSendCompleteCallback(MakeBoundCallback(&FlowDone, &r.fct[f], &r.done));
        qp->PostWrite(FLOW_BYTES);
        r.tuples.emplace_back(fabric.GetHostAddress(src[f]),
                              fabric.GetHostAddress(dst[f]),
                              qp->GetUdpSourcePort(),
                              4791,
                              FlowFiveTuple::PROTOCOL_UDP);
    }
    // The test's own count of pauses, port by port, in the tree's port order (hosts, then
    // each switch's ports).
    std::vector<Ptr<RoceNetDevice>> ports;
    for (uint32_t h = 0; h < fabric.GetNHosts(); ++h)
    {
        ports.push_back(fabric.GetHostDevice(h));
    }
    for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
    {
        for (uint32_t p = 0; p < fabric.GetSwitch(s)->GetNPorts(); ++p)
        {
            ports.push_back(fabric.GetSwitch(s)->GetPort(p));
        }
    }
    for (uint32_t i = 0; i < ports.size(); ++i)
    {
        r.pauseStarts[i] = 0;
        ports[i]->TraceConnectWithoutContext("PauseState",
                                             MakeBoundCallback(&CountPause, &r.pauseStarts[i]));
    }
    if (install)
    {
        r.tree = CreateObject<PfcPauseTree>();
        r.tree->SetAttribute("StormGap", TimeValue(stormGap));
        r.tree->Install(fabric);
    }
    Simulator::Run();
    r.events = Simulator::GetEventCount();
    for (uint32_t i = 0; i < ports.size(); ++i)
    {
        r.pausedTime[i] = ports[i]->GetCounters(PRIO).pausedTime;
    }
    if (r.tree)
    {
        r.tree->Finish();
        if (!dir.empty())
        {
            r.tree->WriteFiles(dir);
        }
    }
    Simulator::Destroy();
    return r;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * The pause tree of the head-of-line incast, its files, and its victim.
 */
class PauseTreeCascadeTestCase : public TestCase
{
  public:
    PauseTreeCascadeTestCase()
        : TestCase("Head-of-line incast: the root is leaf1's port to h3, the cascade reaches "
                   "the senders, h2->h4 is the victim")
    {
    }

  private:
    void DoRun() override
    {
        std::string dir = CreateTempDirFilename("pause-tree");
        std::filesystem::create_directories(dir);
        // A gap of 1 ms joins the whole run (under 1 ms) into one storm.
        HolRun r = RunHol(true, MilliSeconds(1), dir);
        NS_TEST_ASSERT_MSG_EQ(r.done, 3, "every flow finishes");
        const PfcPauseTree& tree = *r.tree;
        const auto& pauses = tree.GetPauses();
        NS_TEST_ASSERT_MSG_GT(pauses.size(), 0, "pauses were sent");

        // The only port fed faster than it drains is leaf1's port 0 to h3 (h0 and h1 send
        // 2 x 100 Gb/s into its 100 Gb/s); every pause descends from it. The cascade follows
        // the incast's path backwards, each hop forced by the 50 KB static allowance:
        //  - leaf1's group (port 3 from spine0, priority 3) holds the incast's backlog, which
        //    grows at 100 Gb/s: XOFF after (4200 B reserved + 50 KB) / 12.5 GB/s = 4.3 us; it
        //    pauses spine0's port 1 (depth 1), waiting on leaf1:p0->h3, not on leaf1:p1->h4
        //    (the victim alone feeds h4 at h4's own 100 Gb/s, so that queue stays small).
        //  - spine0's group (port 0 from leaf0) then gets 300 Gb/s but sends only while its
        //    port 1 is not paused: it waits on spine0:p1->leaf1 (everything from leaf0 goes to
        //    leaf1), crosses XOFF and pauses leaf0's port 3 (depth 2).
        //  - leaf0's groups of h0, h1 and h2 each get 100 Gb/s into a paused port 3: each
        //    crosses XOFF within (4200 + 50000) B / 12.5 GB/s = 4.3 us of pauses and leaf0
        //    pauses h0, h1 and h2 (depth 3). All three senders are still sending then: each
        //    needs at least 1e6 B / 12.5 GB/s = 80 us, and the cascade forms in a few
        //    XOFF times of ~4.3 us plus 1 us links.
        // So the distinct edges are exactly these five.
        std::set<std::tuple<std::string, std::string, uint32_t>> edges;
        for (const auto& p : pauses)
        {
            NS_TEST_EXPECT_MSG_EQ(+p.priority, +PRIO, "the lossless priority");
            NS_TEST_EXPECT_MSG_EQ(tree.GetPortName(p.rootPort),
                                  "leaf1:p0->h3",
                                  "every tree's root is leaf1's port to h3");
            NS_TEST_EXPECT_MSG_EQ(p.ended, true, "every pause ended before the run did");
            NS_TEST_EXPECT_MSG_EQ(p.storm, 1u, "one storm with a 1 ms gap");
            edges.insert({tree.GetPortName(p.parentPort), tree.GetPortName(p.port), p.depth});
        }
        std::set<std::tuple<std::string, std::string, uint32_t>> expected = {
            {"leaf1:p0->h3", "spine0:p1->leaf1", 1},
            {"spine0:p1->leaf1", "leaf0:p3->spine0", 2},
            {"leaf0:p3->spine0", "h0", 3},
            {"leaf0:p3->spine0", "h1", 3},
            {"leaf0:p3->spine0", "h2", 3}};
        NS_TEST_EXPECT_MSG_EQ((edges == expected), true, "the derived cascade, edge for edge");
        NS_TEST_EXPECT_MSG_EQ(tree.GetStormCount(), 1u, "one storm");

        // The tree's pauses are the ports' own: as many per port as PauseState began, and their
        // durations add up to the port's paused-time counter (kept by the port itself).
        std::map<uint32_t, uint32_t> count;
        std::map<uint32_t, Time> total;
        for (const auto& p : pauses)
        {
            ++count[p.port];
            total[p.port] += p.end - p.start;
        }
        for (const auto& [port, starts] : r.pauseStarts)
        {
            NS_TEST_EXPECT_MSG_EQ(count[port], starts, "pauses of " << tree.GetPortName(port));
            NS_TEST_EXPECT_MSG_EQ(total[port],
                                  r.pausedTime[port],
                                  "paused time of " << tree.GetPortName(port));
        }

        // Victims: h2->h4 never crosses leaf1:p0->h3 yet waited in the paused spine0 and leaf0
        // queues (and at its paused NIC); h0->h3 and h1->h3 cross the root. Each was held for
        // some time, and at most for its FCT (a frame is held only between the flow's start
        // at 0 and its last frame's departure, before its completion).
        const auto& victims = tree.GetVictims();
        NS_TEST_ASSERT_MSG_EQ(victims.size(), 3u, "three flows held, one storm");
        for (const auto& v : victims)
        {
            uint32_t f = 0;
            while (f < 3 && !(r.tuples[f] == v.flow))
            {
                ++f;
            }
            NS_TEST_ASSERT_MSG_LT(f, 3u, "a flow of the run: " << v.flow);
            NS_TEST_EXPECT_MSG_EQ(v.victim, (f == 2), "victim flag of " << v.flow);
            NS_TEST_EXPECT_MSG_GT(v.paused, Time(0), "held for some time");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(v.paused, r.fct[f], "held at most its FCT");
        }
        CheckFiles(dir, r);
    }

    /**
     * The files parse, and say what the tree says.
     * @param dir their folder.
     * @param r the run.
     */
    void CheckFiles(const std::string& dir, const HolRun& r)
    {
        auto tree = ReadCsv(dir + "/pause-tree.csv");
        NS_TEST_ASSERT_MSG_GT(tree.size(), 1u, "pause-tree.csv has rows");
        std::vector<std::string> header = {"storm",
                                           "parent",
                                           "child",
                                           "priority",
                                           "start_ns",
                                           "end_ns",
                                           "paused_ns",
                                           "depth",
                                           "ended",
                                           "sender",
                                           "root",
                                           "waited_on"};
        NS_TEST_EXPECT_MSG_EQ((tree[0] == header), true, "pause-tree.csv header");
        uint32_t starts = 0;
        for (const auto& [port, n] : r.pauseStarts)
        {
            starts += n;
        }
        NS_TEST_EXPECT_MSG_EQ(tree.size() - 1, starts, "one row per pause");
        for (size_t i = 1; i < tree.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(tree[i].size(), header.size(), "row " << i << " has 12 fields");
            double start = std::stod(tree[i][4]);
            double end = std::stod(tree[i][5]);
            double paused = std::stod(tree[i][6]);
            NS_TEST_EXPECT_MSG_EQ_TOL(end - start, paused, 0.002, "paused_ns = end - start");
            NS_TEST_EXPECT_MSG_EQ(tree[i][10], "leaf1:p0->h3", "root column");
        }
        // One DOT file (one storm): six vertices (the root and five paused ports) and the five
        // derived edges.
        NS_TEST_EXPECT_MSG_EQ(std::filesystem::exists(dir + "/pause-storm-2.dot"),
                              false,
                              "no second storm file");
        std::ifstream dot(dir + "/pause-storm-1.dot");
        NS_TEST_ASSERT_MSG_EQ(dot.good(), true, "pause-storm-1.dot");
        std::string line;
        uint32_t vertices = 0;
        uint32_t arrows = 0;
        bool opened = false;
        bool closed = false;
        while (std::getline(dot, line))
        {
            opened = opened || line.rfind("digraph pause_storm_1 {", 0) == 0;
            closed = closed || line == "}";
            if (line.find("[label=") != std::string::npos)
            {
                if (line.find(" -> ") != std::string::npos)
                {
                    ++arrows;
                }
                else
                {
                    ++vertices;
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ((opened && closed), true, "a whole digraph");
        if (HaveProgram("dot"))
        {
            // Graphviz itself reads it (the folder is named after this case: quote it whole).
            std::string quoted = "'";
            for (char ch : dir + "/pause-storm-1.dot")
            {
                quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
            }
            quoted += "'";
            int status = 0;
            std::string out = RunCommand("dot -Tsvg " + quoted + " -o /dev/null 2>&1", status);
            NS_TEST_EXPECT_MSG_EQ(status, 0, "dot renders pause-storm-1.dot: " << out);
        }
        else
        {
            ReportSkip(GetName(), "Graphviz dot not installed: pause-storm-1.dot not rendered");
        }
        NS_TEST_EXPECT_MSG_EQ(vertices, 6u, "root + spine0:p1 + leaf0:p3 + h0 + h1 + h2");
        NS_TEST_EXPECT_MSG_EQ(arrows, 5u, "the five edges of the cascade");
        auto victims = ReadCsv(dir + "/pause-victims.csv");
        NS_TEST_ASSERT_MSG_EQ(victims.size(), 4u, "header and three flows");
        for (size_t i = 1; i < victims.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(victims[i].size(), 8u, "8 fields");
            // h2 is 10.0.0.3 (hosts are numbered from 10.0.0.1).
            bool victim = victims[i][1] == "10.0.0.3";
            NS_TEST_EXPECT_MSG_EQ(victims[i][7], (victim ? "yes" : "no"), "victim column");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Storms without a gap: connected sets of overlapping pauses.
 */
class PauseStormTestCase : public TestCase
{
  public:
    PauseStormTestCase()
        : TestCase("Storms are connected sets of overlapping pauses, numbered as they start")
    {
    }

  private:
    void DoRun() override
    {
        HolRun r = RunHol(true, Time(0), "");
        const PfcPauseTree& tree = *r.tree;
        const auto& pauses = tree.GetPauses();
        NS_TEST_ASSERT_MSG_GT(pauses.size(), 1u, "pauses");
        // Recompute the storms from the definition: sweep the pauses by start; a pause joins
        // the running storm if it starts no later than the latest end so far, or if its
        // parent is in it (a parent is paused when its child's XOFF happens, so the two
        // overlap unless the parent resumed during the child's pause frame's trip).
        Time latestEnd;
        uint32_t storm = 0;
        for (size_t i = 0; i < pauses.size(); ++i)
        {
            if (i == 0 || pauses[i].start > latestEnd)
            {
                if (pauses[i].parent < 0 ||
                    pauses[static_cast<size_t>(pauses[i].parent)].storm != storm)
                {
                    ++storm;
                }
            }
            latestEnd = i == 0 ? pauses[i].end : std::max(latestEnd, pauses[i].end);
            NS_TEST_EXPECT_MSG_EQ(pauses[i].storm, storm, "storm of pause " << i);
            if (pauses[i].parent >= 0)
            {
                NS_TEST_EXPECT_MSG_EQ(pauses[static_cast<size_t>(pauses[i].parent)].storm,
                                      pauses[i].storm,
                                      "a child is in its parent's storm");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(tree.GetStormCount(), storm, "storm count");
        // The flow's paused time in each storm adds up to no more than the 1 ms-gap total
        // (the union of a set is at least the union of any of its parts, and storms are
        // disjoint in time): the victim's total is the same either way.
        HolRun joined = RunHol(true, MilliSeconds(1), "");
        Time perStorm;
        Time whole;
        for (const auto& v : tree.GetVictims())
        {
            perStorm += v.flow == r.tuples[2] ? v.paused : Time(0);
        }
        for (const auto& v : joined.tree->GetVictims())
        {
            whole += v.flow == joined.tuples[2] ? v.paused : Time(0);
        }
        NS_TEST_EXPECT_MSG_EQ(perStorm, whole, "the victim's paused time, split or not");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Zero cost when off.
 */
class PauseTreeZeroCostTestCase : public TestCase
{
  public:
    PauseTreeZeroCostTestCase()
        : TestCase("Without the tree the run is the same: same FCTs, same event count")
    {
    }

  private:
    void DoRun() override
    {
        // The tree only listens to traces: it schedules nothing and changes no frame, so the
        // run with it is event for event the run without it.
        HolRun off = RunHol(false, Time(0), "");
        HolRun on = RunHol(true, Time(0), "");
        NS_TEST_ASSERT_MSG_EQ(off.done, 3u, "every flow finishes");
        for (uint32_t f = 0; f < 3; ++f)
        {
            NS_TEST_EXPECT_MSG_EQ(off.fct[f], on.fct[f], "FCT of flow " << f);
        }
        NS_TEST_EXPECT_MSG_EQ(off.events, on.events, "events");
        NS_TEST_EXPECT_MSG_GT(on.tree->GetPauses().size(), 0u, "the tree saw pauses");
    }
};

/**
 * @ingroup llm-fabric-tests
 * --pauseTree on a program: files written with it, none without, same results.
 */
class PauseTreeProgramTestCase : public TestCase
{
  public:
    PauseTreeProgramTestCase()
        : TestCase("llm-fabric-incast --pauseTree: the files with it, none without, same FCTs")
    {
    }

  private:
    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-incast", GetName());
        if (program.empty())
        {
            return;
        }
        // 8:1 incast, no congestion control, 1 MB buffer: the star's switch pauses the
        // senders (8 x 100 Gb/s into one 100 Gb/s port overflows a 1 MB buffer in
        // 1 MB / (7 x 12.5 GB/s) = 11 us, well before the 80 us each sender needs).
        std::string fct[2];
        for (int on = 0; on < 2; ++on)
        {
            std::string dir = CreateTempDirFilename("pause-tree-incast-" + std::to_string(on));
            int status = 0;
            // The folder quoted: ns-3.35's temporary names keep the case name's blanks.
            RunCommand(program + " --cc=none --bufferSize=1MB --outDir='" + dir +
                           "' --pauseTree=" + std::to_string(on) + " 2>&1",
                       status);
            NS_TEST_ASSERT_MSG_EQ(status, 0, "the program runs");
            bool tree = std::filesystem::exists(dir + "/pause-tree.csv");
            bool victims = std::filesystem::exists(dir + "/pause-victims.csv");
            bool dot = std::filesystem::exists(dir + "/pause-storm-1.dot");
            NS_TEST_EXPECT_MSG_EQ((tree && victims && dot), (on == 1), "files iff --pauseTree=1");
            std::ifstream in(dir + "/fct.csv");
            std::stringstream ss;
            ss << in.rdbuf();
            fct[on] = ss.str();
        }
        NS_TEST_EXPECT_MSG_EQ(fct[0].empty(), false, "fct.csv");
        NS_TEST_EXPECT_MSG_EQ(fct[0], fct[1], "fct.csv identical with and without");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A pause sent by a host: its receive buffer is the root.
 */
class PauseTreeHostRootTestCase : public TestCase
{
  public:
    PauseTreeHostRootTestCase()
        : TestCase("A host that drains slower than its link is the root of the tree it causes")
    {
    }

  private:
    void DoRun() override
    {
        // A star: h0 -> h2 and h1 -> h3, 1 MB each, 100 Gb/s links, no congestion control;
        // h2 takes frames from its port at 50 Gb/s only (RxDrainRate). Derivation:
        //  - h2's receive buffer grows at 100 - 50 = 50 Gb/s and passes RxXoffThreshold (64 KB)
        //    after about 10 us: h2 pauses switch0's port 2 (depth 1; sender h2, root h2).
        //  - switch0's group of h0 (port 0, priority 3) then fills at 100 Gb/s while port 2 is
        //    paused: past its reserved 4200 B and static 50 KB it crosses XOFF, waiting on
        //    switch0:p2->h2 (all of h0's bytes go there), which is paused: switch0 pauses h0
        //    (depth 2, root h2). h0 needs 1e6 B / 12.5 GB/s = 80 us to send, far more than the
        //    few microseconds this takes.
        //  - h1 -> h3 never meets a paused queue: switch0:p3->h3 is fed by h1 alone at its own
        //    100 Gb/s and h3 drains at line rate; h1's group never reaches XOFF.
        RoceTopologyHelper topo;
        topo.SetMmuAttribute("ThresholdMode", EnumValue(SwitchMmu::STATIC));
        topo.SetMmuAttribute("StaticThreshold", QueueSizeValue(QueueSize("50KB")));
        RoceFabric fabric = topo.BuildStar(4, DataRate("100Gbps"), MicroSeconds(1));
        fabric.AssignStreams(1);
        fabric.GetHostDevice(2)->SetAttribute("RxDrainRate", DataRateValue(DataRate("50Gbps")));
        RdmaHelper rdma;
        rdma.SetEndpointAttribute("CongestionControl",
                                  TypeIdValue(TypeId::LookupByName("ns3::RdmaCcNone")));
        std::vector<Ptr<RdmaEndpoint>> ep = rdma.Install(fabric);
        Time fct[2];
        uint32_t done = 0;
        std::vector<FlowFiveTuple> tuples;
        for (uint32_t f = 0; f < 2; ++f)
        {
            auto [qp, peer] = RdmaEndpoint::Connect(ep[f], ep[f + 2], 0xC000 + f);
            qp->SetSendCompleteCallback(MakeBoundCallback(&FlowDone, &fct[f], &done));
            qp->PostWrite(FLOW_BYTES);
            tuples.emplace_back(fabric.GetHostAddress(f),
                                fabric.GetHostAddress(f + 2),
                                qp->GetUdpSourcePort(),
                                4791,
                                FlowFiveTuple::PROTOCOL_UDP);
        }
        Ptr<PfcPauseTree> tree = CreateObject<PfcPauseTree>();
        tree->SetAttribute("StormGap", TimeValue(MilliSeconds(1)));
        tree->Install(fabric);
        Simulator::Run();
        tree->Finish();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(done, 2u, "both flows finish");
        std::set<std::tuple<std::string, std::string, uint32_t, std::string>> edges;
        for (const auto& p : tree->GetPauses())
        {
            NS_TEST_EXPECT_MSG_EQ(tree->GetPortName(p.rootPort), "h2", "the root is h2");
            edges.insert({tree->GetPortName(p.parentPort),
                          tree->GetPortName(p.port),
                          p.depth,
                          tree->GetPortName(p.sender)});
        }
        std::set<std::tuple<std::string, std::string, uint32_t, std::string>> expected = {
            {"h2", "switch0:p2->h2", 1, "h2"},
            {"switch0:p2->h2", "h0", 2, "switch0:p0->h0"}};
        NS_TEST_EXPECT_MSG_EQ((edges == expected), true, "h2 -> switch0:p2 -> h0");
        // h0 -> h2 crossed the port facing the root host: held, not a victim; h1 -> h3 was
        // never held, so it has no row.
        const auto& victims = tree->GetVictims();
        NS_TEST_ASSERT_MSG_EQ(victims.size(), 1u, "one flow held");
        NS_TEST_EXPECT_MSG_EQ((victims[0].flow == tuples[0]), true, "h0 -> h2");
        NS_TEST_EXPECT_MSG_EQ(victims[0].victim, false, "it crossed the root");
        NS_TEST_EXPECT_MSG_GT(victims[0].paused, Time(0), "held");
    }
};

/**
 * @ingroup llm-fabric-tests
 * PFC forensics.
 */
class PfcForensicsTestSuite : public TestSuite
{
  public:
    PfcForensicsTestSuite()
        : TestSuite("llm-fabric-pfc-forensics", Type::SYSTEM)
    {
        AddTestCase(new PauseTreeCascadeTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PauseStormTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PauseTreeHostRootTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PauseTreeZeroCostTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PauseTreeProgramTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static PfcForensicsTestSuite g_pfcForensicsTestSuite;

} // namespace tests
} // namespace llmfabric

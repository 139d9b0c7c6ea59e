/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric
 * A PFC deadlock made by a link failure and local route repair, found by PfcDeadlockDetector
 * and broken by PfcWatchdog.
 *
 * Topology: a leaf-spine with two leaves and two spines (every link --linkRate, --linkDelay),
 * --hostsPerLeaf hosts under each leaf, PFC on priority 3, no congestion control.
 *
 *     host0..  leaf0 ==X== spine0        leaf0's link to spine0 fails at --failAt
 *                  \      /   \
 *                   \    /     \
 *                   spine1 --- leaf1  .. hosts of leaf1 send to the hosts of leaf0
 *
 * Every host under leaf1 writes --flowBytes to every host under leaf0 (--flowsPerPair queue
 * pairs per pair), all from time 0. When leaf0-spine0 fails, spine0 repairs its routes at once
 * (it is at an end of the link): leaf0 is now reached by spine0 -> leaf1 -> spine1 -> leaf0.
 * leaf1 is not next to the failure: it keeps its old routes, an ECMP group of spine0 and
 * spine1 towards leaf0, until --routeConvergenceDelay. A flow that leaf1's hash sends to spine0
 * is sent back to leaf1 by spine0, and leaf1 hashes it to spine0 again: a routing loop, which
 * frames leave only when their IP TTL runs out. The loop fills spine0's queue to leaf1 and
 * leaf1's queue to spine0; each switch's ingress from the other crosses XOFF and pauses the
 * other: spine0's port to leaf1 waits for leaf1, whose port to spine0 waits for spine0. That
 * cycle of paused queues is a deadlock (Hu et al., "Deadlocks in Datacenter Networks: Why Do
 * They Form, and How to Avoid Them", HotNets 2016): it outlives the loop, because the frames in
 * the two queues can never leave, even after routes converge.
 *
 * The program runs the same fabric twice:
 *   - without the watchdog: PfcDeadlockDetector reports the cycle (its queues and the time it was
 *     found); the flows that cross leaf1 stay stuck and the run ends at --stopTime;
 *   - with the PFC watchdog on every switch (--detectionTime, --restorationTime, Action Drop):
 *     a queue paused for the detection time is put in a storm state that drops its frames, the
 *     cycle breaks, senders recover lost packets by their timeout, and once routes have
 *     converged every flow finishes.
 *
 * --detector=0 leaves the detector out: nothing is reported, the same runs.
 *
 * Outputs in --outDir: without-watchdog/ and with-watchdog/, each with the pause trees of the
 * run (PfcPauseTree: pause-tree.csv, pause-storm-N.dot, pause-victims.csv, and the Gantt chart
 * of its pauses, pause-tree.plt and, with gnuplot, its PNG), and summary.json
 * with, per run: the deadlocks (queues, time found), the watchdog's storms and restorations,
 * flows done and the last flow's end. A line per run on stdout names the cycle and the
 * watchdog's recovery. Exit status 0 when the run without the watchdog deadlocked and the run
 * with it finished every flow (with --detector=0: when the run with it finished), 1 otherwise.
 *
 * Run: ./ns3 run "llm-fabric-pfc-deadlock --outDir=deadlock-out"
 */

#include "ns3/core-module.h"
#include "ns3/fault-injector.h"
#include "ns3/figure-script.h"
#include "ns3/pfc-deadlock-detector.h"
#include "ns3/pfc-pause-tree.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/program-options.h"
#include "ns3/rdma-cc-none.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-switch.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/usage-error.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The program's name, for its messages.
const char* const PROGRAM = "llm-fabric-pfc-deadlock";

/// The lossless priority (the MMU's default LosslessPriorities, 0x08).
constexpr uint8_t PRIORITY = 3;

/// Stop with "program: --key: reason" and exit status 2.
[[noreturn]] void
Fail(const std::string& key, const std::string& reason)
{
    UsageError::Exit(PROGRAM, key, reason);
}

/// The options.
struct Options
{
    uint32_t hostsPerLeaf = 2;          //!< hosts under each leaf
    uint32_t flowsPerPair = 2;          //!< queue pairs per (sender, receiver)
    uint64_t flowBytes = 2000000;       //!< bytes each queue pair writes
    DataRate linkRate{"100Gbps"};       //!< every link's rate
    Time linkDelay = MicroSeconds(1);   //!< every link's delay
    Time failAt = MicroSeconds(20);     //!< when leaf0-spine0 fails
    Time convergence = MilliSeconds(5); //!< RouteConvergenceDelay
    Time detection = MilliSeconds(1);   //!< the watchdog's DetectionTime
    Time restoration = MilliSeconds(1); //!< the watchdog's RestorationTime
    Time stopTime = MilliSeconds(30);   //!< when each run stops
    bool detector = true;               //!< run the deadlock detector
    std::string outDir = ".";           //!< output folder
};

/// What a run measured.
struct RunResult
{
    std::vector<std::vector<std::string>> cycles; //!< each deadlock's queues, in wait-for order
    std::vector<Time> found;                      //!< when each was found
    uint64_t storms = 0;                          //!< watchdog storms, all switches
    uint64_t restorations = 0;                    //!< watchdog restorations, all switches
    uint64_t dropped = 0;                         //!< frames the watchdogs dropped
    Time firstStorm;                              //!< the first storm
    std::string firstStormQueue;                  //!< its queue
    Time lastRestoration;                         //!< the last restoration
    uint32_t flows = 0;                           //!< flows posted
    uint32_t flowsDone = 0;                       //!< flows whose sender saw the last ACK
    Time lastEnd;                                 //!< the last flow's end
    uint32_t pauseStorms = 0;                     //!< pause storms in the pause trees
};

/// What the traces of a run record.
struct Recorder
{
    const RoceFabric* fabric = nullptr; //!< the fabric
    RunResult* result = nullptr;        //!< where to record
    Ptr<PfcPauseTree> tree;             //!< names ports as pause-tree.csv does

    /**
     * @param node a switch's node id.
     * @param port one of its ports.
     * @return the port's name in the pause tree's files ("switch:pN->peer").
     */
    std::string Name(uint32_t node, uint32_t port) const
    {
        for (uint32_t s = 0; s < fabric->GetNSwitches(); ++s)
        {
            if (fabric->GetSwitchNode(s)->GetId() == node)
            {
                return tree->GetDeviceName(fabric->GetSwitch(s)->GetPort(port));
            }
        }
        return "?";
    }

    /**
     * Deadlock sink.
     * @param r the recorder.
     * @param cycle the queues.
     * @param formed when it was found.
     */
    static void Deadlock(Recorder* r,
                         const std::vector<PfcDeadlockDetector::QueueId>& cycle,
                         Time formed)
    {
        std::vector<std::string> named;
        for (const auto& q : cycle)
        {
            named.push_back(r->Name(q.node, q.port));
        }
        r->result->cycles.push_back(named);
        r->result->found.push_back(formed);
    }

    /**
     * StormState sink of one switch's watchdog.
     * @param r the recorder.
     * @param node the switch's node id.
     * @param port the port.
     * @param priority the priority.
     * @param state the new state.
     * @param at when.
     */
    static void Storm(Recorder* r,
                      uint32_t node,
                      uint32_t port,
                      uint8_t priority,
                      PfcWatchdog::State state,
                      Time at)
    {
        if (state == PfcWatchdog::OPERATIONAL)
        {
            r->result->lastRestoration = at;
            return;
        }
        if (r->result->firstStormQueue.empty())
        {
            r->result->firstStorm = at;
            r->result->firstStormQueue =
                r->Name(node, port) + " priority " + std::to_string(priority);
        }
    }

    /**
     * A flow's sender saw its last ACK.
     * @param r the recorder.
     */
    static void Done(Recorder* r, Ptr<RdmaQueuePair>, uint64_t, uint64_t)
    {
        ++r->result->flowsDone;
        r->result->lastEnd = Simulator::Now();
    }
};

/**
 * Post the flows: every host under leaf1 to every host under leaf0, flowsPerPair each.
 * @param o the options.
 * @param endpoints the hosts' endpoints, in host order (leaf0's first).
 * @param recorder records completions.
 * @return the number of flows.
 */
uint32_t
PostFlows(const Options& o, const std::vector<Ptr<RdmaEndpoint>>& endpoints, Recorder& recorder)
{
    uint32_t flows = 0;
    for (uint32_t s = o.hostsPerLeaf; s < 2 * o.hostsPerLeaf; ++s)
    {
        for (uint32_t d = 0; d < o.hostsPerLeaf; ++d)
        {
            for (uint32_t k = 0; k < o.flowsPerPair; ++k)
            {
                // Each queue pair its own UDP source port: its own ECMP hash.
                auto port = static_cast<uint16_t>(0xC000 + flows);
                auto [tx, rx] = RdmaEndpoint::Connect(endpoints[s], endpoints[d], port);
                tx->SetSendCompleteCallback(MakeBoundCallback(&Recorder::Done, &recorder));
                tx->PostWrite(o.flowBytes);
                ++flows;
            }
        }
    }
    return flows;
}

/**
 * Build the fabric, fail the link, run, and record.
 * @param o the options.
 * @param watchdog run the PFC watchdog on every switch.
 * @return what the run measured.
 */
RunResult
RunOnce(const Options& o, bool watchdog)
{
    Config::SetDefault("ns3::RoceSwitch::PfcWatchdogEnabled", BooleanValue(watchdog));
    Config::SetDefault("ns3::PfcWatchdog::DetectionTime", TimeValue(o.detection));
    Config::SetDefault("ns3::PfcWatchdog::RestorationTime", TimeValue(o.restoration));
    RoceTopologyHelper topo;
    RoceFabric fabric = topo.BuildLeafSpine(RoceTopologyHelper::MakeLeafSpine(o.hostsPerLeaf,
                                                                              2,
                                                                              2,
                                                                              o.linkRate,
                                                                              o.linkRate,
                                                                              o.linkDelay));
    std::string problem = fabric.CheckSwitches();
    if (!problem.empty())
    {
        Fail("hostsPerLeaf", problem);
    }
    fabric.AssignStreams(1);
    RdmaHelper rdma;
    rdma.SetEndpointAttribute("CongestionControl", TypeIdValue(RdmaCcNone::GetTypeId()));
    std::vector<Ptr<RdmaEndpoint>> endpoints = rdma.Install(fabric);

    RunResult result;
    Recorder recorder{&fabric, &result, nullptr}; // the tree, once installed (below)
    result.flows = PostFlows(o, endpoints, recorder);

    Ptr<FaultInjector> faults = CreateObject<FaultInjector>();
    faults->SetAttribute("RouteConvergenceDelay", TimeValue(o.convergence));
    faults->SetFabric(fabric);
    FaultEvent down;
    down.kind = FaultEvent::LINK_DOWN;
    down.at = o.failAt;
    down.from = "leaf0";
    down.to = "spine0";
    problem = faults->Add(down);
    if (!problem.empty())
    {
        Fail("failAt", problem);
    }

    Ptr<PfcDeadlockDetector> detector = CreateObject<PfcDeadlockDetector>();
    if (o.detector)
    {
        detector->Install(fabric);
        detector->TraceConnectWithoutContext("Deadlock",
                                             MakeBoundCallback(&Recorder::Deadlock, &recorder));
    }
    Ptr<PfcPauseTree> tree = CreateObject<PfcPauseTree>();
    tree->Install(fabric);
    recorder.tree = tree;
    for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
    {
        Ptr<RoceSwitch> sw = fabric.GetSwitch(s);
        sw->Initialize(); // its watchdog exists from here
        if (sw->GetPfcWatchdog())
        {
            sw->GetPfcWatchdog()->TraceConnectWithoutContext(
                "StormState",
                MakeBoundCallback(&Recorder::Storm, &recorder, fabric.GetSwitchNode(s)->GetId()));
        }
    }

    Simulator::Stop(o.stopTime);
    Simulator::Run();
    tree->Finish();
    std::string dir = o.outDir + (watchdog ? "/with-watchdog" : "/without-watchdog");
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    problem = error ? "cannot create " + dir + ": " + error.message() : tree->WriteFiles(dir);
    bool drawn = false;
    if (problem.empty())
    {
        // The pause intervals of the run as a Gantt chart (pause-tree.plt, and its PNG).
        problem = FigureScript::WriteAndDraw(dir, {FigureScript::PauseTreeGantt()}, drawn);
    }
    if (!problem.empty())
    {
        Fail("outDir", problem);
    }
    result.pauseStorms = tree->GetStormCount();
    for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
    {
        Ptr<PfcWatchdog> w = fabric.GetSwitch(s)->GetPfcWatchdog();
        if (w)
        {
            result.storms += w->GetStormsDetected();
            result.restorations += w->GetRestorations();
            result.dropped += w->GetFramesDropped();
        }
    }
    Simulator::Destroy();
    return result;
}

/**
 * @param name the run's name.
 * @param r the run.
 * @return the run's line for stdout.
 */
std::string
Describe(const std::string& name, const RunResult& r)
{
    std::ostringstream out;
    out << name << ": ";
    if (r.cycles.empty())
    {
        out << "no deadlock";
    }
    else
    {
        out << "deadlock: cycle";
        for (const auto& q : r.cycles[0])
        {
            out << " " << q;
        }
        out << " (priority " << +PRIORITY << ", each waiting for the next) found at "
            << r.found[0].GetNanoSeconds() / 1000.0 << " us";
        if (r.cycles.size() > 1)
        {
            out << " (" << r.cycles.size() << " deadlocks in all)";
        }
    }
    out << "; ";
    if (r.storms > 0)
    {
        out << "watchdog: " << r.storms << " storms, the first on " << r.firstStormQueue << " at "
            << r.firstStorm.GetNanoSeconds() / 1000.0 << " us, " << r.dropped
            << " frames dropped, last restoration at "
            << r.lastRestoration.GetNanoSeconds() / 1000.0 << " us; ";
    }
    out << "flows done " << r.flowsDone << "/" << r.flows;
    if (r.flowsDone == r.flows)
    {
        out << ", the last at " << r.lastEnd.GetNanoSeconds() / 1000.0 << " us";
    }
    else
    {
        out << " by the stop time";
    }
    return out.str();
}

/**
 * @param r a run.
 * @return its summary.json entry.
 */
nlohmann::ordered_json
ToJson(const RunResult& r)
{
    nlohmann::ordered_json deadlocks = nlohmann::ordered_json::array();
    for (size_t i = 0; i < r.cycles.size(); ++i)
    {
        nlohmann::ordered_json queues = nlohmann::ordered_json::array();
        for (const auto& q : r.cycles[i])
        {
            queues.push_back(q);
        }
        deadlocks.push_back({{"queues", queues}, {"found_us", r.found[i].GetNanoSeconds() / 1e3}});
    }
    return {
        {"deadlocks", deadlocks},
        {"watchdog_storms", r.storms},
        {"watchdog_restorations", r.restorations},
        {"watchdog_frames_dropped", r.dropped},
        {"first_storm_us", r.storms ? r.firstStorm.GetNanoSeconds() / 1e3 : 0.0},
        {"last_restoration_us", r.restorations ? r.lastRestoration.GetNanoSeconds() / 1e3 : 0.0},
        {"pause_storms", r.pauseStorms},
        {"flows", r.flows},
        {"flows_done", r.flowsDone},
        {"last_flow_end_us", r.lastEnd.GetNanoSeconds() / 1e3}};
}

/**
 * Read and check the command line.
 * @param argc the argument count.
 * @param argv the arguments.
 * @return the options.
 */
Options
ParseOptions(int argc, char* argv[])
{
    Options o;
    ProgramOptions cmd(PROGRAM,
                       "A PFC deadlock from a link failure and local route repair, found by "
                       "the deadlock detector and broken by the PFC watchdog.");
    cmd.AddUnsigned("hostsPerLeaf", "Hosts under each of the two leaves", o.hostsPerLeaf, 1, 64);
    cmd.AddUnsigned("flowsPerPair",
                    "Queue pairs from each host of leaf1 to each host of leaf0",
                    o.flowsPerPair,
                    1,
                    64);
    cmd.AddUnsigned("flowBytes", "Bytes each queue pair writes", o.flowBytes, 1, 1ULL << 40);
    cmd.AddValue("linkRate", "Rate of every link", o.linkRate);
    cmd.AddValue("linkDelay", "Delay of every link", o.linkDelay);
    cmd.AddValue("failAt", "When leaf0's link to spine0 fails", o.failAt);
    cmd.AddValue("routeConvergenceDelay",
                 "When switches not next to the failure repair their routes, after it",
                 o.convergence);
    cmd.AddValue("detectionTime", "The watchdog's DetectionTime", o.detection);
    cmd.AddValue("restorationTime", "The watchdog's RestorationTime", o.restoration);
    cmd.AddValue("stopTime", "When each run stops", o.stopTime);
    cmd.AddValue("detector", "0: no deadlock detector (nothing is reported)", o.detector);
    cmd.AddValue("outDir", "Folder of summary.json and the runs' pause-tree files", o.outDir);
    cmd.ParseOrExit(argc, argv);
    if (o.linkRate.GetBitRate() == 0)
    {
        Fail("linkRate", "must be positive");
    }
    if (o.linkDelay.IsStrictlyNegative() || o.failAt.IsStrictlyNegative() ||
        o.convergence.IsStrictlyNegative())
    {
        Fail("linkDelay/failAt/routeConvergenceDelay", "must not be negative");
    }
    if (!o.detection.IsStrictlyPositive() || !o.restoration.IsStrictlyPositive())
    {
        Fail("detectionTime/restorationTime", "must be positive");
    }
    if (o.stopTime <= o.failAt)
    {
        Fail("stopTime", "must be after --failAt");
    }
    return o;
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o = ParseOptions(argc, argv);
    RunResult without = RunOnce(o, false);
    RunResult with = RunOnce(o, true);
    std::cout << "PFC deadlock by local repair: leaf0-spine0 fails at "
              << o.failAt.GetNanoSeconds() / 1000.0 << " us, other switches converge "
              << o.convergence.GetNanoSeconds() / 1e6 << " ms later; " << without.flows
              << " flows of " << o.flowBytes << " bytes from leaf1's hosts to leaf0's" << std::endl
              << "  " << Describe("without watchdog", without) << std::endl
              << "  " << Describe("with watchdog", with) << std::endl;
    nlohmann::ordered_json summary = {{"without_watchdog", ToJson(without)},
                                      {"with_watchdog", ToJson(with)}};
    std::ofstream json(o.outDir + "/summary.json");
    json << summary.dump(2) << "\n";
    if (!json)
    {
        Fail("outDir", "cannot write " + o.outDir + "/summary.json");
    }
    std::cout << "  outputs: " << o.outDir << "/summary.json, " << o.outDir
              << "/{without,with}-watchdog/pause-tree.csv, pause-storm-N.dot, pause-victims.csv"
              << std::endl;
    bool expected = (!o.detector || !without.cycles.empty()) && with.flowsDone == with.flows;
    return expected ? 0 : 1;
}

/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric
 * Data-center traffic over a leaf-spine fabric with the reliable RDMA transport: flows with
 * Poisson arrivals and sizes from a published flow-size distribution (or random pairs with
 * log-uniform sizes), the chosen congestion control, PFC on or off.
 *
 * Topology: --leaves leaf switches with --hostsPerLeaf hosts each (host links --hostRate), every
 * leaf linked to each of --spines spine switches (--fabricRate); every link has --linkDelay.
 * Routes are equal-cost (ECMP over the spines, by the flow's UDP source port).
 *
 *     spine0 ... spineS-1
 *       |  \     /  |          (every leaf to every spine)
 *     leaf0  ...  leafL-1
 *     /  \        /  \
 *   hosts       hosts
 *
 * Traffic: with --flows=0 (the default), every host starts flows as a Poisson process during
 * --duration (or until --maxFlows flows in all): rate --load x hostRate / (8 x mean flow size),
 * destination a random other host, size from --cdf: websearch (DCTCP paper), hadoop (Facebook,
 * SIGCOMM 2015) or the path of a file of "size_bytes cumulative_percent" lines (ns3::
 * RdmaFlowGenerator, ns3::FlowSizeDistribution). With --flows=N, N flows between random pairs
 * instead, sizes log-uniform on --minBytes..--maxBytes, start times uniform over --duration.
 * Every flow is a new RC queue pair with one RDMA WRITE (RDMA MTU --mtu). --cc, an alias or the
 * TypeId name of any subclass of ns3::RdmaCongestionOps: none (line rate, PFC only), fixed
 * (--fixedRate, by default hostRate; it sets ns3::RdmaCcFixedRate::Rate), dcqcn (ns3::Dcqcn,
 * parameters by attribute), dctcp, timely or swift. An algorithm that states its switch marking
 * (dctcp: a step at 30 KB x link rate / 10 Gb/s, scaled per port) sets --kmin, --kmax and
 * --pmax unless they are given (5KB, 200KB and 0.01 otherwise). --pfc=1 makes priority 3 lossless;
 * --pfc=0 leaves drops to go-back-N.
 *
 * Expected: at moderate load with PFC every flow finishes without drops; small flows see
 * slowdowns near 1 and the tail grows with the load (queueing behind large flows, ECMP
 * collisions on the spine links, pauses); DCQCN shortens the queues and the pauses.
 *
 * Outputs in --outDir (created if missing): summary.json with the keys of llm-fabric-incast's
 * (flows, flows_done, last_flow_end_us, fct_us and slowdown as {min, p50, p99, p999, max,
 * mean}, data_packets, retransmitted_packets, link_frames, pfc_pause_frames, drops, ecn_marks,
 * cnps, max_queue_bytes, events, wall_s, peak_rss_mib) and fct.csv (one row per flow: flow,
 * sender, receiver, hops, bytes, start_us, end_us, fct_us, ideal_us, slowdown; the last four
 * empty for a flow that did not finish). The slowdown is the FCT over the same flow's FCT alone
 * on an idle path of its hop count (2 hops under one leaf, 4 across leaves), computed from the
 * wire bytes of its packets, each hop's rate and delay, store-and-forward switches, and the
 * final ACK's way back. --pcap=PREFIX writes pcaps of every host and switch port.
 *
 * Run: ./ns3 run "llm-fabric-leaf-spine --cdf=websearch --load=0.3 --cc=dcqcn --outDir=out"
 */

#include "ns3/core-module.h"
#include "ns3/fabric-monitor.h"
#include "ns3/flow-size-distribution.h"
#include "ns3/flow-statistics.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-flow-generator.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/switch-mmu.h"
#include "ns3/type-id-alias.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/// Stop with "program: --key: reason" and exit status 2.
void
Fail(const std::string& key, const std::string& reason)
{
    std::cerr << "llm-fabric-leaf-spine: --" << key << ": " << reason << std::endl;
    // Release what the simulation built (nodes, devices, open pcaps) before leaving: exiting
    // with them alive crashes in static destructors on some ns-3 builds.
    Simulator::Destroy();
    std::exit(2);
}

/// The program's options, and what they imply.
struct Options
{
    std::string cdf = "websearch";             //!< flow-size distribution
    double load = 0.3;                         //!< offered load per host
    Time duration = MilliSeconds(5);           //!< flows start during this time
    uint32_t maxFlows = 0;                     //!< stop arrivals after this many (0: no limit)
    uint32_t flowCount = 0;                    //!< random pairs instead of the CDF (0: off)
    uint64_t minBytes = 1000;                  //!< smallest size of --flows
    uint64_t maxBytes = 1000000;               //!< largest size of --flows
    RoceTopologyHelper::LeafSpineConfig shape; //!< the fabric
    DataRate hostRate{"100Gbps"};              //!< host-leaf links
    DataRate fabricRate{"100Gbps"};            //!< leaf-spine links
    Time linkDelay = MicroSeconds(1);          //!< every link
    uint32_t mtu = 1000;                       //!< RDMA MTU
    std::string cc = "dcqcn";                  //!< congestion control, as given
    TypeId ccType;                             //!< congestion control, resolved
    DataRate fixedRate{0};                     //!< rate of --cc=fixed
    bool pfc = true;                           //!< priority 3 lossless
    std::string bufferSize = "12MB";           //!< switch buffer
    std::string kmin = "5KB";                  //!< ECN Kmin
    std::string kmax = "200KB";                //!< ECN Kmax
    double pmax = 0.01;                        //!< ECN Pmax
    DataRate ecnReferenceRate{0};              //!< SwitchMmu::EcnReferenceRate (0: none)
    std::string pcap;                          //!< pcap prefix
    std::string outDir = ".";                  //!< output folder
    uint32_t seed = 1;                         //!< RNG run
    uint32_t hosts = 0;                        //!< hosts of the fabric
    FlowSizeDistribution sizes;                //!< the CDF's distribution
};

/**
 * Parse and check the command line, and set the defaults it implies (exits 2 on a problem).
 * @param argc argument count.
 * @param argv arguments.
 * @return the options.
 */
Options
ParseOptions(int argc, char* argv[])
{
    Options o;
    o.shape.hostsPerLeaf = 4;
    o.shape.leaves = 2;
    o.shape.spines = 2;
    CommandLine cmd(__FILE__);
    cmd.AddValue("cdf", "Flow sizes: websearch, hadoop or the path of a CDF file", o.cdf);
    cmd.AddValue("load", "Offered load per host, fraction of hostRate (0-1]", o.load);
    cmd.AddValue("duration", "Flows start during this time", o.duration);
    cmd.AddValue("maxFlows", "Stop the arrivals after this many flows (0: no limit)", o.maxFlows);
    cmd.AddValue("flows",
                 "N random pairs with log-uniform sizes instead of --cdf (0: off)",
                 o.flowCount);
    cmd.AddValue("minBytes", "Smallest size of --flows", o.minBytes);
    cmd.AddValue("maxBytes", "Largest size of --flows", o.maxBytes);
    cmd.AddValue("hostsPerLeaf", "Hosts under each leaf", o.shape.hostsPerLeaf);
    cmd.AddValue("leaves", "Leaf switches", o.shape.leaves);
    cmd.AddValue("spines", "Spine switches", o.shape.spines);
    cmd.AddValue("hostRate", "Rate of the host-leaf links", o.hostRate);
    cmd.AddValue("fabricRate", "Rate of the leaf-spine links", o.fabricRate);
    cmd.AddValue("linkDelay", "Delay of every link", o.linkDelay);
    cmd.AddValue("mtu", "RDMA MTU (256-4096)", o.mtu);
    cmd.AddValue("cc",
                 "Congestion control: " + TypeIdAlias::ListAliases(RdmaCongestionOps::GetTypeId()) +
                     ", or the TypeId name of a subclass of ns3::RdmaCongestionOps",
                 o.cc);
    cmd.AddValue("fixedRate", "Rate of --cc=fixed (default: hostRate)", o.fixedRate);
    cmd.AddValue("pfc", "1: priority 3 lossless (PFC); 0: lossy", o.pfc);
    cmd.AddValue("bufferSize", "Switch buffer", o.bufferSize);
    cmd.AddValue("kmin", "ECN Kmin (default: the congestion control's, else 5KB)", o.kmin);
    cmd.AddValue("kmax", "ECN Kmax (default: the congestion control's, else 200KB)", o.kmax);
    cmd.AddValue("pmax", "ECN Pmax (default: the congestion control's, else 0.01)", o.pmax);
    cmd.AddValue("pcap", "Prefix of pcap files; empty: none", o.pcap);
    cmd.AddValue("outDir", "Folder for summary.json and fct.csv", o.outDir);
    cmd.AddValue("seed", "RNG run number", o.seed);
    cmd.Parse(argc, argv);

    o.shape.hostRate = o.hostRate;
    o.shape.fabricRate = o.fabricRate;
    o.shape.hostDelay = o.linkDelay;
    o.shape.fabricDelay = o.linkDelay;
    std::string problem = RoceTopologyHelper::CheckLeafSpine(o.shape);
    if (!problem.empty())
    {
        Fail("hostsPerLeaf/leaves/spines/hostRate/fabricRate/linkDelay", problem);
    }
    o.hosts = o.shape.hostsPerLeaf * o.shape.leaves;
    if (o.hosts < 2)
    {
        Fail("hostsPerLeaf", "the fabric needs at least 2 hosts");
    }
    if (o.mtu < 256 || o.mtu > 4096)
    {
        Fail("mtu", "must be between 256 and 4096 (the RDMA payload per packet)");
    }
    if (!o.duration.IsStrictlyPositive())
    {
        Fail("duration", "must be positive");
    }
    if (o.flowCount == 0)
    {
        if (!(o.load > 0 && o.load <= 1))
        {
            Fail("load", "must be in (0, 1]");
        }
        problem = o.sizes.LoadByName(o.cdf);
        if (!problem.empty())
        {
            Fail("cdf", problem);
        }
        if (!(o.sizes.GetMean() > 0))
        {
            Fail("cdf", "the distribution's mean is 0 bytes");
        }
    }
    else if (o.minBytes == 0 || o.maxBytes < o.minBytes)
    {
        Fail("minBytes/maxBytes", "need 1 <= minBytes <= maxBytes");
    }
    problem = RdmaHelper::LookupCongestionControl(o.cc, o.ccType);
    if (!problem.empty())
    {
        Fail("cc", problem);
    }
    problem = RdmaHelper::CheckCongestionControl(o.ccType);
    if (!problem.empty())
    {
        Fail("cc", problem);
    }
    // A congestion control that states its switch marking (DCTCP's) sets what was not given.
    RdmaHelper::CompleteEcnOptions(o.ccType,
                                   RdmaHelper::GetGivenEcnOptions(argc, argv),
                                   o.kmin,
                                   o.kmax,
                                   o.pmax,
                                   o.ecnReferenceRate);
    if (o.ecnReferenceRate.GetBitRate() > 0)
    {
        // Its thresholds stand for a port of this rate, scaled on every port by its rate.
        Config::SetDefault("ns3::SwitchMmu::EcnReferenceRate", DataRateValue(o.ecnReferenceRate));
    }
    // --fixedRate is the default Rate of the fixed-rate algorithm (used only if it is chosen).
    Config::SetDefault("ns3::RdmaCcFixedRate::Rate",
                       DataRateValue(o.fixedRate.GetBitRate() ? o.fixedRate : o.hostRate));
    RngSeedManager::SetRun(o.seed);
    std::error_code error;
    std::filesystem::create_directories(o.outDir, error);
    if (error)
    {
        Fail("outDir", "cannot create " + o.outDir + ": " + error.message());
    }
    Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(o.mtu));

    return o;
}

/**
 * Write fct.csv: every flow, with its FCT and its slowdown against the same flow alone on an
 * idle path of its hops (2 under one leaf, 4 across leaves). Exits 2 if the file cannot be
 * written.
 * @param o the options.
 * @param flows the flows.
 * @param[out] fct the finished flows' FCTs, in us.
 * @param[out] slowdown their slowdowns.
 * @return when the last flow ended.
 */
Time
WriteFlows(const Options& o,
           const std::vector<RdmaFlowGenerator::Flow>& flows,
           std::vector<double>& fct,
           std::vector<double>& slowdown)
{
    std::ofstream csv(o.outDir + "/fct.csv");
    csv << "flow,sender,receiver,hops,bytes,start_us,end_us,fct_us,ideal_us,slowdown\n";
    Time last;
    for (size_t i = 0; i < flows.size(); ++i)
    {
        const RdmaFlowGenerator::Flow& flow = flows[i];
        bool sameLeaf =
            flow.source / o.shape.hostsPerLeaf == flow.destination / o.shape.hostsPerLeaf;
        std::vector<DataRate> path =
            sameLeaf ? std::vector<DataRate>{o.hostRate, o.hostRate}
                     : std::vector<DataRate>{o.hostRate, o.fabricRate, o.fabricRate, o.hostRate};
        double startUs = static_cast<double>(flow.start.GetPicoSeconds()) / 1e6;
        csv << i << "," << flow.source << "," << flow.destination << "," << path.size() << ","
            << flow.bytes << "," << startUs << ",";
        if (!flow.done)
        {
            csv << ",,,\n"; // not finished
            continue;
        }
        double ideal = FlowStatistics::IdealFctNs(flow.bytes, o.mtu, path, o.linkDelay);
        double f = static_cast<double>((flow.end - flow.start).GetPicoSeconds()) / 1000.0;
        fct.push_back(f / 1000.0);
        slowdown.push_back(f / ideal);
        last = std::max(last, flow.end);
        csv << static_cast<double>(flow.end.GetPicoSeconds()) / 1e6 << "," << f / 1000.0 << ","
            << ideal / 1000.0 << "," << f / ideal << "\n";
    }
    if (!csv)
    {
        Fail("outDir", "cannot write " + o.outDir + "/fct.csv");
    }
    return last;
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o = ParseOptions(argc, argv);
    std::string problem;
    RoceTopologyHelper topo;
    problem = topo.SetMmuBufferAndEcn(o.bufferSize, o.kmin, o.kmax, o.pmax, o.pfc);
    if (!problem.empty())
    {
        Fail("bufferSize/kmin/kmax", problem);
    }
    RoceFabric fabric = topo.BuildLeafSpine(o.shape);
    problem = fabric.CheckSwitches();
    if (!problem.empty())
    {
        Fail("bufferSize/kmin/kmax/pmax", problem);
    }
    int64_t stream = 1;
    stream += fabric.AssignStreams(stream);

    RdmaHelper rdma;
    rdma.SetEndpointAttribute("CongestionControl", TypeIdValue(o.ccType));
    std::vector<Ptr<RdmaEndpoint>> endpoints = rdma.Install(fabric);
    Ptr<RdmaFlowGenerator> generator = CreateObject<RdmaFlowGenerator>();
    generator->SetAttribute("StopTime", TimeValue(o.duration));
    generator->SetAttribute("MaxFlows", UintegerValue(o.maxFlows));
    stream += generator->AssignStreams(stream);
    if (o.flowCount == 0)
    {
        generator->SetAttribute("Load", DoubleValue(o.load));
        generator->SetDistribution(o.sizes);
    }
    else
    {
        generator->SetAttribute("Load", DoubleValue(0));
        o.sizes.SetPoints({{o.minBytes, 0}, {o.maxBytes, 100}}, "flows"); // only for the printout
    }
    problem = generator->Install(endpoints);
    if (!problem.empty())
    {
        Fail("cdf", problem);
    }
    if (o.flowCount > 0)
    {
        generator->AddRandomFlows(o.flowCount, o.minBytes, o.maxBytes, o.duration, stream++);
    }

    FabricMonitor monitor;
    for (uint32_t h = 0; h < o.hosts; ++h)
    {
        monitor.AddPort(fabric.GetHostDevice(h), "host" + std::to_string(h));
    }
    for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
    {
        monitor.AddSwitch(fabric.GetSwitch(s), fabric.GetSwitchName(s));
    }
    monitor.EnableMaxQueueTracking();
    if (!o.pcap.empty())
    {
        RoceLinkHelper& links = topo.GetLinkHelper();
        for (uint32_t h = 0; h < o.hosts; ++h)
        {
            links.EnablePcap(o.pcap, fabric.GetHostDevice(h));
        }
        for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
        {
            for (uint32_t p = 0; p < fabric.GetSwitch(s)->GetNPorts(); ++p)
            {
                links.EnablePcap(o.pcap, fabric.GetSwitch(s)->GetPort(p));
            }
        }
    }

    auto wallStart = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    monitor.Finish();
    uint64_t events = Simulator::GetEventCount();

    const std::vector<RdmaFlowGenerator::Flow>& flows = generator->GetFlows();
    FlowStatistics::TransportCounters transport = FlowStatistics::SumQueuePairs(endpoints);
    auto [dataPackets, retransmitted, cnps] = transport;
    uint64_t offered = 0;
    for (const auto& flow : flows)
    {
        offered += flow.bytes;
    }
    uint64_t linkFrames = FlowStatistics::CountLinkFrames(fabric);
    std::vector<double> fct;
    std::vector<double> slowdown;
    Time last = WriteFlows(o, flows, fct, slowdown);
    uint32_t started = generator->GetFlowsStarted();
    uint32_t done = generator->GetFlowsCompleted();
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    FlowStatistics::FlowRunSummary summary;
    summary.flows = started;
    summary.flowsDone = done;
    summary.lastFlowEnd = last;
    summary.fctUs = fct;
    summary.slowdown = slowdown;
    summary.transport = transport;
    summary.linkFrames = linkFrames;
    summary.monitor = &monitor;
    summary.events = events;
    summary.wallS = wall;
    std::ofstream json(o.outDir + "/summary.json");
    json << FlowStatistics::SummaryJson(summary);
    if (!json)
    {
        Fail("outDir", "cannot write " + o.outDir + "/summary.json");
    }
    std::cout << "Leaf-spine " << o.shape.leaves << " leaves x " << o.shape.hostsPerLeaf
              << " hosts, " << o.shape.spines << " spines, hosts " << o.hostRate.GetBitRate() / 1e9
              << " Gb/s, fabric " << o.fabricRate.GetBitRate() / 1e9 << " Gb/s (oversubscription "
              << RoceTopologyHelper::GetOversubscription(o.shape) << "), cc " << o.cc << ", PFC "
              << (o.pfc ? "on" : "off") << std::endl;
    if (o.flowCount == 0)
    {
        std::cout << "  " << o.cdf << " sizes (mean " << o.sizes.GetMean() << " bytes), load "
                  << o.load << ": " << generator->GetArrivalRate(0) << " flows/s per host for "
                  << o.duration.GetMicroSeconds() << " us" << std::endl;
    }
    else
    {
        std::cout << "  " << o.flowCount << " random flows, log-uniform " << o.minBytes << ".."
                  << o.maxBytes << " bytes, starting within " << o.duration.GetMicroSeconds()
                  << " us" << std::endl;
    }
    std::cout << "  flows done " << done << "/" << started << " (" << offered << " bytes), last at "
              << last.GetNanoSeconds() / 1000.0 << " us" << std::endl;
    if (!slowdown.empty())
    {
        std::vector<double> s = slowdown;
        std::sort(s.begin(), s.end());
        std::cout << "  slowdown p50 " << s[(s.size() - 1) / 2] << ", p99 "
                  << s[std::min(s.size() - 1, static_cast<size_t>(std::ceil(0.99 * s.size())) - 1)]
                  << ", max " << s.back() << std::endl;
    }
    std::cout << "  data packets " << dataPackets << ", retransmitted " << retransmitted
              << ", drops " << monitor.GetTotalDrops() << std::endl
              << "  PFC pause frames " << monitor.GetTotalPauseFramesSent() << ", ECN marks "
              << monitor.GetTotalEcnMarks() << ", CNPs " << cnps << ", largest queue "
              << monitor.GetMaxQueueBytes() << " bytes" << std::endl
              << "  " << events << " events, " << linkFrames << " link frames in " << wall << " s ("
              << linkFrames / wall << " link frames/s), peak RSS " << usage.ru_maxrss / 1024
              << " MiB" << std::endl
              << "  outputs: " << o.outDir << "/summary.json, " << o.outDir << "/fct.csv"
              << std::endl;
    Simulator::Destroy();
    return done == started ? 0 : 1;
}

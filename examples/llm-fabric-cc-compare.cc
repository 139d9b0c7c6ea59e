/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric
 * The same traffic under each congestion control: FCT slowdown by flow size, queues, PFC pauses
 * and utilization, one CSV row per traffic set, algorithm and flow-size bucket, and a plot of the
 * slowdown by flow size with one line per algorithm, in the style of the HPCC paper's
 * evaluation (Li et al., SIGCOMM 2019).
 *
 * Topology: a leaf-spine of --leaves leaves (4) with --hostsPerLeaf hosts (8) each and --spines
 * spines (2); host links --hostRate (100 Gb/s), leaf-spine links --fabricRate (400 Gb/s), every
 * link --linkDelay (1 us); 32 hosts whose leaves have 800 Gb/s down and 800 Gb/s up (no
 * oversubscription). Switches: --bufferSize (32 MB) shared buffer, PFC on priority 3 (--pfc=1),
 * ECN (RED) --kmin 400 KB, --kmax 1600 KB, --pmax 0.2 (the HPCC-lineage simulators' 100 Gb/s
 * values), ECMP. RDMA MTU --mtu (1000 bytes, as those simulators' payload).
 *
 *     spine0   spine1          (400 Gb/s to every leaf)
 *       |  \   /  |
 *     leaf0 ... leaf3
 *      |||       |||           (8 hosts per leaf, 100 Gb/s)
 *
 * Traffic sets (--traffic, a comma-separated list; default
 * websearch30,websearch50,hadoop30,hadoop50,websearch30+incast): "<cdf><load percent>" makes
 * every host start flows as a Poisson process during --duration (2 ms) at that share of its
 * link, sizes from the WebSearch (DCTCP paper) or FB_Hadoop (Roy et al., SIGCOMM 2015)
 * distribution, destination a random other host (ns3::RdmaFlowGenerator); "+incast" adds the
 * HPCC authors' incasts on top: Poisson incasts in the same window offering --incastLoad (2 %)
 * of the hosts' total capacity, each --incastSenders hosts writing --incastBytes (500 KB) to one
 * receiver at once. The recipe has 60 senders; the default here is all the other hosts, 31 of
 * 32 (--incastSenders=0), so it is scaled to the fabric: incasts of 15.5 MB arrive at 516 per
 * second (about one in 2 ms: the count is Poisson and printed). Every algorithm sees exactly the
 * same flows (same seed, same streams, flow k on UDP port 49152 + k), so only the algorithm
 * differs.
 *
 * Congestion controls (--ccs, aliases or TypeId names of ns3::RdmaCongestionOps subclasses):
 * by default every registered alias but none and fixed (TypeIdAlias), so an algorithm added to
 * the library appears here without an edit. DCQCN runs with --dcqcnProfile (simai: the
 * HPCC-lineage simulators' settings, with a window of one bandwidth-delay product, whose
 * ns3::Dcqcn::BaseRtt the program sets to the fabric's base RTT unless given; or mlx5,
 * sigcomm2015), and its alpha decays in closed form (ns3::Dcqcn::AlphaDecayEvents false: the
 * same rates, fewer events). Any attribute can be given as --ns3::Type::Attribute=value; a value
 * the user gives wins over the program's and the profile's.
 *
 * Measures, per traffic set and algorithm: each flow's slowdown = FCT / ideal FCT, where the
 * ideal is the same flow alone on its idle path (2 hops under one leaf, 4 across leaves), from
 * the wire bytes of its packets (Ethernet, IPv4, UDP, BTH, RETH on the first, ICRC; FCS,
 * preamble and gap on the wire), each hop's rate and delay, store-and-forward switches, and its
 * last ACK's way back (FlowStatistics::IdealFctNs). Flows are bucketed by size at 1 KB, 10 KB,
 * 100 KB, 1 MB and 10 MB (K = 1000); incast flows form their own bucket, and "all" holds every
 * flow. Percentiles are by nearest rank over the finished flows of a bucket. Queues: every
 * switch port's priority-3 queue sampled every --queueInterval (1 us) during the arrival window
 * (empty queues included); p50 and p99 of those samples, and the exact largest queue of the
 * whole run. PFC pauses: pause frames sent by the switches. Utilization: the wire bytes the
 * leaves sent to the hosts during the arrival window over those links' capacity.
 *
 * Expected: with the default seed every flow finishes and no PFC pause is sent. Small flows see
 * slowdowns near 1 at the median; the tails grow with the load and with the incast (queueing
 * behind large flows, ECMP collisions). An algorithm that keeps queues short lowers the tails;
 * measured here (the p99 slowdown of all flows, DCQCN simai / none / fixed at 10 Gb/s):
 * websearch30 2.79 / 6.29 / 9.95, websearch50 3.26 / 14.7 / 9.95, hadoop30 3.30 / 44.8 / 9.57,
 * hadoop50 5.04 / 66.4 / 9.75, websearch30+incast (one incast) 31.8 / 105 / 42.5. The
 * utilization is the same for every algorithm that keeps up with the offered bytes (DCQCN within
 * 3 % of none: 0.19, 0.29, 0.24, 0.42, 0.20), and lower for one that holds traffic back (fixed:
 * 0.08 to 0.26). It is below the nominal load: the window's Poisson draws, and large flows that
 * keep sending after it. Slowdowns of the smallest flows can fall up to 4 x 10^-4 below 1, as
 * event times are whole nanoseconds.
 *
 * Outputs in --outDir (created if missing): cc-compare.csv (CcComparison::WriteCsv: traffic, cc,
 * bucket, bucket_index, min_bytes, max_bytes, flows, flows_done, slowdown_p50, slowdown_p95,
 * slowdown_p99, queue_p50_bytes, queue_p99_bytes, queue_max_bytes, pfc_pauses, utilization),
 * fct.csv (every flow of every run), cc-compare.plt (a gnuplot script: the slowdown by flow size,
 * one line per algorithm, one row of panels per traffic set, p50, p95, p99) and cc-compare.png,
 * drawn by running gnuplot on the script when gnuplot is installed (Debian: gnuplot-nox);
 * without it the program says so and exits 0 with the CSVs and the script. The exit status is 1
 * if a flow did not finish by --simLimit (100 ms of simulated time), 2 on bad input.
 *
 * Wall time on this project's shared 2-core machine (load average about 6): the default run
 * (5 traffic sets; DCQCN is the one algorithm registered today besides none and fixed) 28.8 s,
 * 11.6 s of CPU, 40 MiB; --ccs=dcqcn,none,fixed 86 s, 32.6 s of CPU: about 11 s of CPU per
 * algorithm, so five algorithms take about a minute of CPU (2.5 minutes at that load; an
 * estimate, as the algorithms not built yet may cost more or less per packet).
 *
 * Run: ./ns3 run "llm-fabric-cc-compare --outDir=cc-out"
 */

#include "ns3/attribute-defaults.h"
#include "ns3/cc-comparison.h"
#include "ns3/core-module.h"
#include "ns3/dcqcn.h"
#include "ns3/fabric-monitor.h"
#include "ns3/fabric-sampler.h"
#include "ns3/figure-script.h"
#include "ns3/flow-size-distribution.h"
#include "ns3/flow-statistics.h"
#include "ns3/program-options.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-flow-generator.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/usage-error.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// The program's name in messages.
const char* const PROGRAM = "llm-fabric-cc-compare";
/// The incast recipe's senders (HPCC authors): the default is scaled down to the fabric.
constexpr uint32_t RECIPE_SENDERS = 60;
/// The priority that carries RDMA data (DSCP 26).
constexpr uint8_t DATA_PRIORITY = 3;

/// Stop with "program: --key: reason" and exit status 2.
[[noreturn]] void
Fail(const std::string& key, const std::string& reason)
{
    UsageError::Exit(PROGRAM, key, reason);
}

/// The program's options, and what they imply.
struct Options
{
    std::string ccList;                              //!< --ccs
    std::vector<std::pair<std::string, TypeId>> ccs; //!< resolved
    std::string trafficList =
        "websearch30,websearch50,hadoop30,hadoop50,websearch30+incast"; //!< --traffic
    std::vector<CcComparison::TrafficSet> traffic;                      //!< parsed
    Time duration = MilliSeconds(2);                                    //!< arrival window
    double incastLoad = 0.02;                                           //!< incasts' load
    uint32_t incastSenders = 0;                                         //!< 0: hosts - 1
    uint64_t incastBytes = 500000;                                      //!< per sender
    /// The fabric: the comparison's default, changed by the options below.
    RoceTopologyHelper::LeafSpineConfig shape = CcComparison::GetDefaultLeafSpine();
    DataRate hostRate = shape.hostRate;     //!< host links
    DataRate fabricRate = shape.fabricRate; //!< leaf-spine links
    Time linkDelay = shape.hostDelay;       //!< every link
    uint32_t mtu = 1000;                    //!< RDMA MTU
    std::string dcqcnProfile = "simai";     //!< DCQCN's set
    bool pfc = true;                        //!< lossless
    std::string bufferSize = "32MB";        //!< switch buffer
    std::string kmin = "400KB";             //!< ECN Kmin
    std::string kmax = "1600KB";            //!< ECN Kmax
    double pmax = 0.2;                      //!< ECN Pmax
    Time queueInterval = MicroSeconds(1);   //!< queue samples
    Time simLimit = MilliSeconds(100);      //!< hard stop
    std::string outDir = ".";               //!< outputs
    uint32_t seed = 1;                      //!< RNG run
    uint32_t hosts = 0;                     //!< hosts
    Time baseRtt;                           //!< longest path
};

/**
 * Check the options and derive what they imply (exits 2 on a problem).
 * @param o the options as parsed.
 */
void
CheckOptions(Options& o)
{
    std::string problem = CcComparison::ParseCongestionControls(o.ccList, o.ccs);
    if (!problem.empty())
    {
        Fail("ccs", problem);
    }
    problem = CcComparison::ParseTrafficSets(o.trafficList, o.traffic);
    if (!problem.empty())
    {
        Fail("traffic", problem);
    }
    o.shape.hostRate = o.hostRate;
    o.shape.fabricRate = o.fabricRate;
    o.shape.hostDelay = o.linkDelay;
    o.shape.fabricDelay = o.linkDelay;
    problem = RoceTopologyHelper::CheckLeafSpine(o.shape);
    if (!problem.empty())
    {
        Fail("hostsPerLeaf/leaves/spines/hostRate/fabricRate/linkDelay", problem);
    }
    o.hosts = o.shape.hostsPerLeaf * o.shape.leaves;
    if (o.hosts < 2)
    {
        Fail("hostsPerLeaf", "the fabric needs at least 2 hosts");
    }
    if (o.incastSenders == 0)
    {
        o.incastSenders = std::min(RECIPE_SENDERS, o.hosts - 1);
    }
    if (o.incastSenders >= o.hosts)
    {
        Fail("incastSenders",
             "must be below the number of hosts (" + std::to_string(o.hosts) + ")");
    }
    if (!(o.incastLoad > 0 && o.incastLoad <= 1))
    {
        Fail("incastLoad", "must be in (0, 1]");
    }
    if (o.incastBytes == 0)
    {
        Fail("incastBytes", "must be positive");
    }
    if (o.mtu < 256 || o.mtu > 4096)
    {
        Fail("mtu", "must be between 256 and 4096 (the RDMA payload per packet)");
    }
    if (!o.duration.IsStrictlyPositive() || !o.queueInterval.IsStrictlyPositive())
    {
        Fail("duration/queueInterval", "must be positive");
    }
    if (o.simLimit <= o.duration)
    {
        Fail("simLimit", "must be above --duration");
    }
    if (!(o.pmax >= 0 && o.pmax <= 1))
    {
        Fail("pmax", "must be in [0, 1]");
    }
    RoceTopologyHelper scratch;
    problem = scratch.SetMmuBufferAndEcn(o.bufferSize, o.kmin, o.kmax, o.pmax, o.pfc);
    if (!problem.empty())
    {
        Fail("bufferSize/kmin/kmax", problem);
    }
    std::error_code error;
    std::filesystem::create_directories(o.outDir, error);
    if (error)
    {
        Fail("outDir", "cannot create " + o.outDir + ": " + error.message());
    }
    o.baseRtt = CcComparison::LeafSpineBaseRtt(o.shape, o.mtu);
}

/**
 * Parse and check the command line, and set the attribute defaults it implies (exits 2 on a
 * problem).
 * @param argc argument count.
 * @param argv arguments.
 * @return the options.
 */
Options
ParseOptions(int argc, char* argv[])
{
    Options o;
    std::string defaults;
    for (const std::string& name : CcComparison::GetDefaultCongestionControls())
    {
        defaults += (defaults.empty() ? "" : ",") + name;
    }
    o.ccList = defaults;
    ProgramOptions cmd(
        "llm-fabric-cc-compare",
        "The same traffic under every congestion control: slowdowns, queues, pauses and a figure.");
    cmd.AddValue("ccs",
                 "Congestion controls to compare, comma-separated aliases or TypeId names "
                 "(default: every registered one but none and fixed: " +
                     defaults + ")",
                 o.ccList);
    cmd.AddValue("traffic",
                 "Traffic sets, comma-separated: <websearch|hadoop><load %>[+incast]",
                 o.trafficList);
    cmd.AddValue("duration", "Flows and incasts arrive during this time", o.duration);
    cmd.AddValue("incastLoad", "Incasts' share of the hosts' total capacity", o.incastLoad);
    cmd.AddValue("incastSenders", "Senders per incast (0: min(60, hosts - 1))", o.incastSenders);
    cmd.AddValue("incastBytes", "Bytes per incast sender", o.incastBytes);
    cmd.AddValue("hostsPerLeaf", "Hosts under each leaf", o.shape.hostsPerLeaf);
    cmd.AddValue("leaves", "Leaf switches", o.shape.leaves);
    cmd.AddValue("spines", "Spine switches", o.shape.spines);
    cmd.AddValue("hostRate", "Rate of the host-leaf links", o.hostRate);
    cmd.AddValue("fabricRate", "Rate of the leaf-spine links", o.fabricRate);
    cmd.AddValue("linkDelay", "Delay of every link", o.linkDelay);
    cmd.AddValue("mtu", "RDMA MTU (256-4096)", o.mtu);
    cmd.AddValue("dcqcnProfile", "DCQCN parameters: simai, mlx5 or sigcomm2015", o.dcqcnProfile);
    cmd.AddValue("pfc", "1: priority 3 lossless (PFC); 0: lossy", o.pfc);
    cmd.AddValue("bufferSize", "Switch buffer", o.bufferSize);
    cmd.AddValue("kmin", "ECN Kmin", o.kmin);
    cmd.AddValue("kmax", "ECN Kmax", o.kmax);
    cmd.AddValue("pmax", "ECN Pmax", o.pmax);
    cmd.AddValue("queueInterval", "Queue sampling interval", o.queueInterval);
    cmd.AddValue("simLimit", "Stop each run at this simulated time", o.simLimit);
    cmd.AddValue("outDir", "Folder of the outputs", o.outDir);
    cmd.AddValue("seed", "RNG run number", o.seed);
    cmd.ParseOrExit(argc, argv);
    CheckOptions(o);

    AttributeDefaults given;
    given.RecordCommandLine(argc, argv);
    std::string problem = Dcqcn::SetDefaultProfile(o.dcqcnProfile);
    if (!problem.empty())
    {
        Fail("dcqcnProfile", problem);
    }
    given.Reapply(); // the user's --ns3::Dcqcn::X=... wins over the profile
    given.Offer("ns3::Dcqcn::BaseRtt", TimeValue(o.baseRtt));
    given.Offer("ns3::Dcqcn::AlphaDecayEvents", BooleanValue(false));
    Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(o.mtu));
    return o;
}

/// Ends a run once every flow is done after the arrivals, or at the time limit.
struct RunControl
{
    Ptr<RdmaFlowGenerator> generator; //!< the flows
    Time arrivalsEnd;                 //!< no arrival from this time on
};

/**
 * Stop the simulation if the arrivals are over and every posted flow is done.
 * @param control the run.
 * @param flow the flow that just completed (unused).
 */
void
MaybeStop(RunControl* control, uint32_t flow)
{
    if (Simulator::Now() >= control->arrivalsEnd &&
        control->generator->GetFlowsCompleted() == control->generator->GetFlowsStarted())
    {
        Simulator::Stop(); // what is left are idle queue pairs' timers
    }
}

/**
 * The measures of a run: pauses and the largest queue of every switch port, queue samples of
 * priority 3 on every switch port and the load of the leaves' host links during the arrivals.
 * @param o the options.
 * @param fabric the fabric.
 * @param monitor the pause and queue monitor.
 * @param sampler the queue and load sampler.
 */
void
AttachMeasures(const Options& o,
               const RoceFabric& fabric,
               FabricMonitor& monitor,
               FabricSampler& sampler)
{
    for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
    {
        Ptr<RoceSwitch> sw = fabric.GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            monitor.AddPort(sw->GetPort(p), fabric.GetSwitchName(s) + "/" + std::to_string(p));
            sampler.AddQueuePort(sw->GetPort(p));
        }
    }
    for (uint32_t h = 0; h < o.hosts; ++h)
    {
        Ptr<RoceNetDevice> host = fabric.GetHostDevice(h);
        sampler.AddLoadPort(DynamicCast<RoceChannel>(host->GetChannel())->GetPeer(host));
    }
    monitor.EnableMaxQueueTracking();
    sampler.Start(Seconds(0), o.duration, o.queueInterval, DATA_PRIORITY);
}

/**
 * Run one traffic set under one congestion control.
 * @param o the options.
 * @param traffic the traffic set.
 * @param cc the congestion control (name as given, TypeId).
 * @param[out] incasts the number of incasts.
 * @return the run's results.
 */
CcComparison::RunResult
RunOne(const Options& o,
       const CcComparison::TrafficSet& traffic,
       const std::pair<std::string, TypeId>& cc,
       uint32_t& incasts)
{
    auto wallStart = std::chrono::steady_clock::now();
    RngSeedManager::SetRun(o.seed);
    RoceTopologyHelper topo;
    topo.SetMmuBufferAndEcn(o.bufferSize, o.kmin, o.kmax, o.pmax, o.pfc);
    RoceFabric fabric = topo.BuildLeafSpine(o.shape);
    std::string problem = fabric.CheckSwitches();
    if (!problem.empty())
    {
        Fail("bufferSize/kmin/kmax/pmax", problem);
    }
    int64_t stream = 1;
    stream += fabric.AssignStreams(stream);
    RdmaHelper rdma;
    rdma.SetEndpointAttribute("CongestionControl", TypeIdValue(cc.second));
    std::vector<Ptr<RdmaEndpoint>> endpoints = rdma.Install(fabric);

    FlowSizeDistribution sizes;
    sizes.LoadBuiltIn(traffic.cdf); // checked by ParseTrafficSets
    Ptr<RdmaFlowGenerator> generator = CreateObject<RdmaFlowGenerator>();
    generator->SetAttribute("Load", DoubleValue(traffic.load));
    generator->SetAttribute("StopTime", TimeValue(o.duration));
    generator->SetDistribution(sizes);
    stream += generator->AssignStreams(stream);
    problem = generator->Install(endpoints);
    if (!problem.empty())
    {
        Fail("traffic", problem);
    }
    std::vector<uint32_t> incastFlows;
    if (traffic.incast)
    {
        incastFlows = generator->AddPoissonIncasts(o.incastLoad,
                                                   o.incastSenders,
                                                   o.incastBytes,
                                                   o.duration,
                                                   stream++);
    }
    incasts = static_cast<uint32_t>(incastFlows.size() / o.incastSenders);

    FabricMonitor monitor;
    FabricSampler sampler;
    AttachMeasures(o, fabric, monitor, sampler);
    RunControl control{generator, o.duration};
    generator->TraceConnectWithoutContext("FlowCompleted", MakeBoundCallback(&MaybeStop, &control));
    Simulator::Schedule(o.duration, &MaybeStop, &control, 0);
    Simulator::Stop(o.simLimit);
    Simulator::Run();
    monitor.Finish();

    CcComparison::RunResult run;
    run.traffic = traffic.name;
    run.cc = cc.first;
    const std::vector<RdmaFlowGenerator::Flow>& flows = generator->GetFlows();
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        const RdmaFlowGenerator::Flow& flow = flows[i];
        CcComparison::FlowResult r;
        r.source = flow.source;
        r.destination = flow.destination;
        r.bytes = flow.bytes;
        r.incast = std::binary_search(incastFlows.begin(), incastFlows.end(), i);
        r.done = flow.done;
        r.startUs = static_cast<double>(flow.start.GetPicoSeconds()) / 1e6;
        r.fctUs = static_cast<double>((flow.end - flow.start).GetPicoSeconds()) / 1e6;
        std::vector<DataRate> path = CcComparison::LeafSpinePath(o.shape, r.source, r.destination);
        r.idealUs = FlowStatistics::IdealFctNs(flow.bytes, o.mtu, path, o.linkDelay) / 1000.0;
        run.flows.push_back(r);
    }
    run.queueP50Bytes = sampler.GetQueuePercentile(0.5);
    run.queueP99Bytes = sampler.GetQueuePercentile(0.99);
    run.queueMaxBytes = monitor.GetMaxQueueBytes();
    run.pfcPauses = monitor.GetTotalPauseFramesSent();
    run.utilization = sampler.GetUtilization();
    Simulator::Destroy();
    run.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return run;
}

/**
 * Print one run's line.
 * @param run the run.
 * @param incasts its incasts, or -1 for a traffic set without.
 */
void
PrintRun(const CcComparison::RunResult& run, int64_t incasts)
{
    std::vector<double> slowdown;
    for (const auto& flow : run.flows)
    {
        if (flow.done)
        {
            slowdown.push_back(flow.fctUs / flow.idealUs);
        }
    }
    std::cout << "  " << std::left << std::setw(20) << run.traffic << std::setw(8) << run.cc
              << std::right << " flows " << slowdown.size() << "/" << run.flows.size();
    if (incasts >= 0)
    {
        std::cout << " (" << incasts << " incasts)";
    }
    std::cout << ", slowdown p50 " << CcComparison::Percentile(slowdown, 0.5) << " p99 "
              << CcComparison::Percentile(slowdown, 0.99) << ", queue p99 " << run.queueP99Bytes
              << " B max " << run.queueMaxBytes << " B, pauses " << run.pfcPauses
              << ", utilization " << run.utilization << ", " << run.wallS << " s" << std::endl;
}

/**
 * Write the tables and the script, and draw the plot if gnuplot is installed.
 * @param o the options.
 * @param table the results.
 */
void
WriteOutputs(const Options& o, const CcComparison& table)
{
    const std::string csv = o.outDir + "/cc-compare.csv";
    const std::string script = o.outDir + "/cc-compare.plt";
    for (const std::string& problem :
         {table.WriteCsv(csv),
          table.WriteFlowsCsv(o.outDir + "/fct.csv"),
          table.WriteGnuplotScript(script, "cc-compare.csv", "cc-compare.png")})
    {
        if (!problem.empty())
        {
            Fail("outDir", problem);
        }
    }
    std::cout << "Wrote " << csv << ", " << o.outDir << "/fct.csv and " << script << std::endl;
    if (!FigureScript::HaveProgram("gnuplot"))
    {
        std::cout << "gnuplot is not installed: no PNG (install gnuplot, Debian package "
                     "gnuplot-nox, then run: cd "
                  << o.outDir << " && gnuplot cc-compare.plt)" << std::endl;
        return;
    }
    std::string problem = FigureScript::RunGnuplot(script);
    if (!problem.empty())
    {
        std::cerr << PROGRAM << ": " << problem << std::endl;
        std::exit(1);
    }
    std::cout << "Drew " << o.outDir << "/cc-compare.png" << std::endl;
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o = ParseOptions(argc, argv);
    std::cout << "Leaf-spine " << o.shape.leaves << " leaves x " << o.shape.hostsPerLeaf
              << " hosts, " << o.shape.spines << " spines; hosts " << o.hostRate.GetBitRate() / 1e9
              << " Gb/s, fabric " << o.fabricRate.GetBitRate() / 1e9 << " Gb/s (oversubscription "
              << RoceTopologyHelper::GetOversubscription(o.shape) << "), links "
              << o.linkDelay.GetNanoSeconds() / 1000.0 << " us, MTU " << o.mtu << ", base RTT "
              << o.baseRtt.GetNanoSeconds() / 1000.0 << " us; PFC " << (o.pfc ? "on" : "off")
              << ", buffer " << o.bufferSize << ", ECN " << o.kmin << ".." << o.kmax << " Pmax "
              << o.pmax << std::endl
              << "Arrivals for " << o.duration.GetNanoSeconds() / 1000.0
              << " us; incasts: " << o.incastSenders << " senders x " << o.incastBytes
              << " bytes at load " << o.incastLoad << "; DCQCN profile " << o.dcqcnProfile
              << " (Window " << AttributeDefaults::GetCurrent("ns3::Dcqcn::Window") << ", BaseRtt "
              << AttributeDefaults::GetCurrent("ns3::Dcqcn::BaseRtt") << ")" << std::endl
              << "Congestion controls:";
    for (const auto& cc : o.ccs)
    {
        std::cout << " " << cc.first;
    }
    std::cout << std::endl;
    CcComparison table;
    bool allDone = true;
    auto wallStart = std::chrono::steady_clock::now();
    for (const CcComparison::TrafficSet& traffic : o.traffic)
    {
        for (const auto& cc : o.ccs)
        {
            uint32_t incasts = 0;
            CcComparison::RunResult run = RunOne(o, traffic, cc, incasts);
            PrintRun(run, traffic.incast ? static_cast<int64_t>(incasts) : -1);
            for (const auto& flow : run.flows)
            {
                allDone = allDone && flow.done;
            }
            table.AddRun(std::move(run));
        }
    }
    std::cout << "All runs: "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count()
              << " s" << std::endl;
    WriteOutputs(o, table);
    if (!allDone)
    {
        std::cerr << PROGRAM << ": some flows did not finish by --simLimit (see fct.csv)"
                  << std::endl;
        return 1;
    }
    return 0;
}

/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric
 * Incast over the reliable RDMA transport: N senders write one message each to one receiver
 * through one switch, with the chosen congestion control, PFC on or off.
 *
 * Topology: --senders hosts and one receiver on one switch (a star), links --linkRate and
 * --linkDelay.
 *
 *     sender 0 --\
 *     sender 1 ---+-- switch --- receiver
 *     ...      --/
 *
 * Every sender opens one RC queue pair to the receiver and posts one RDMA WRITE of --bytes at
 * time 0 (RDMA MTU --mtu). --cc chooses the congestion control by alias or TypeId name (any
 * subclass of ns3::RdmaCongestionOps): none (line rate, PFC only), fixed (--fixedRate, by
 * default the fair share linkRate / senders; it sets ns3::RdmaCcFixedRate::Rate), dcqcn
 * (ns3::Dcqcn with the parameters of --dcqcnProfile=mlx5|sigcomm2015, each overridable by
 * attribute, e.g. --ns3::Dcqcn::G=0.00390625), dctcp (ns3::Dctcp), timely (ns3::Timely) or swift
 * (ns3::Swift). The default DCQCN profile is mlx5, the NIC's own defaults, made for the 100 Gb/s
 * links this program uses by default; sigcomm2015 (the paper's, tuned for 40 Gb/s) is there for
 * comparison. A congestion control that states the switch marking it is designed for sets
 * --kmin, --kmax and --pmax unless they are given: dctcp marks as a step at K = 30 KB x link
 * rate / 10 Gb/s (Kmin = Kmax = K, Pmax 1; 300 KB at 100 Gb/s); the others keep 5KB, 200KB and
 * 0.01 (--kmin and --kmax given alone are bytes on every port). --pfc=1 makes priority 3
 * lossless;
 * --pfc=0 leaves drops to go-back-N and the retransmission timer.
 *
 * Expected: with PFC every flow finishes with no drop and the last one near the line-rate bound
 * (the receiver's link is the bottleneck): 696.6 us for 8 x 1 MB with --cc=none, and with
 * --cc=dcqcn (mlx5). With --dcqcnProfile=sigcomm2015 DCQCN cuts the rates every 50 us while
 * the queue built before the first cut drains, down to MinRate (1 Mb/s), and recovers by
 * 40 Mb/s per 55 us; since the pacer fixes each packet's gap at the rate it left at, a flow
 * whose packet left near the floor waits up to 8.7 ms for its next one: the last flow ends
 * after several ms (--timeSeries=1 shows the rates in cc.csv). Without PFC and with a small
 * --bufferSize, drops and retransmissions appear and every flow still finishes.
 *
 * Outputs in --outDir (created if missing): summary.json (flows, flows_done, last_flow_end_us,
 * fct_us and slowdown as {min, p50, p99, p999, max, mean}, data_packets,
 * retransmitted_packets, link_frames, pfc_pause_frames, drops, ecn_marks, cnps,
 * max_queue_bytes, events, wall_s, peak_rss_mib) and fct.csv (one row per flow: flow, sender,
 * bytes, start_us, end_us, fct_us, ideal_us, slowdown), where slowdown is the FCT over the same
 * flow's FCT alone on an idle path (computed from the wire bytes, the rate, the hops and the
 * delays). --pcap=PREFIX writes pcaps of the receiver's port and the switch's ports.
 * --timeSeries=1 also writes, as the run goes: queue.csv (every port's queue per priority each
 * --sampleInterval), pauses.csv (every PFC pause interval) and cc.csv (time_us, flow, variable,
 * value: each change of each of the flow's congestion-control variables, as named by the
 * algorithm: rate_gbps (and window_bytes if it sets a window) for all, target_gbps and alpha for
 * DCQCN, alpha and marked_fraction for DCTCP, rtt_gradient for TIMELY, cwnd_packets,
 * target_delay_us and delay_us for Swift).
 *
 * Run: ./ns3 run "llm-fabric-incast --senders=8 --bytes=1000000 --cc=dcqcn --outDir=out"
 */

#include "ns3/core-module.h"
#include "ns3/dcqcn.h"
#include "ns3/fabric-monitor.h"
#include "ns3/flow-statistics.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/switch-mmu.h"
#include "ns3/type-id-alias.h"

#include <algorithm>
#include <array>
#include <chrono>
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
    std::cerr << "llm-fabric-incast: --" << key << ": " << reason << std::endl;
    // Release what the simulation built (nodes, devices, open pcaps) before leaving: exiting
    // with them alive crashes in static destructors on some ns-3 builds.
    Simulator::Destroy();
    std::exit(2);
}

/// Completion of the flows.
struct Flows
{
    std::vector<Time> end; //!< per flow, when its message was acknowledged
    uint32_t done{0};      //!< flows finished
};

/**
 * A flow's message was acknowledged.
 * @param flows the record.
 * @param flow the flow.
 * @param qp its queue pair.
 * @param id message id.
 * @param bytes message size.
 */
void
FlowDone(Flows* flows, uint32_t flow, Ptr<RdmaQueuePair> qp, uint64_t id, uint64_t bytes)
{
    flows->end[flow] = Simulator::Now();
    if (++flows->done == flows->end.size())
    {
        Simulator::Stop(); // what is left are idle queue pairs' congestion-control timers
    }
}

/**
 * Write one change of a congestion-control variable to cc.csv.
 * @param csv the file.
 * @param time when.
 * @param flow the flow.
 * @param variable its name.
 * @param value its new value, scaled.
 */
void
CcChanged(std::ofstream* csv, Time time, uint32_t flow, const std::string& variable, double value)
{
    *csv << time.GetNanoSeconds() / 1000.0 << "," << flow << "," << variable << "," << value
         << "\n";
}

/// The program's options.
struct Options
{
    uint32_t senders = 8;                  //!< senders
    uint64_t bytes = 1000000;              //!< message size per sender
    DataRate linkRate{"100Gbps"};          //!< rate of every link
    Time linkDelay = MicroSeconds(1);      //!< delay of every link
    uint32_t mtu = 1000;                   //!< RDMA MTU
    std::string cc = "dcqcn";              //!< congestion control, as given
    TypeId ccType;                         //!< congestion control, resolved
    DataRate fixedRate{0};                 //!< rate of --cc=fixed
    bool pfc = true;                       //!< priority 3 lossless
    std::string bufferSize = "12MB";       //!< switch buffer
    std::string kmin = "5KB";              //!< ECN Kmin
    std::string kmax = "200KB";            //!< ECN Kmax
    double pmax = 0.01;                    //!< ECN Pmax
    std::array<bool, 3> ecnGiven{};        //!< --kmin, --kmax, --pmax given
    DataRate ecnReferenceRate{0};          //!< SwitchMmu::EcnReferenceRate (0: none)
    std::string pcap;                      //!< pcap prefix
    std::string outDir = ".";              //!< output folder
    uint32_t seed = 1;                     //!< RNG run
    bool timeSeries = false;               //!< write queue.csv, pauses.csv, cc.csv
    Time sampleInterval = MicroSeconds(1); //!< queue sampling interval
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
    // The DCQCN profile becomes the attribute defaults before the command line is parsed, so
    // that --ns3::Dcqcn::X=... given with it still wins.
    std::string dcqcnProfile = "mlx5"; // suits the default 100 Gb/s links
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind("--dcqcnProfile=", 0) == 0)
        {
            dcqcnProfile = arg.substr(std::string("--dcqcnProfile=").size());
        }
    }
    std::string profileProblem = Dcqcn::SetDefaultProfile(dcqcnProfile);

    CommandLine cmd(__FILE__);
    cmd.AddValue("dcqcnProfile", "DCQCN parameters: mlx5 or sigcomm2015", dcqcnProfile);
    cmd.AddValue("senders", "Number of senders", o.senders);
    cmd.AddValue("bytes", "Message size per sender", o.bytes);
    cmd.AddValue("linkRate", "Rate of every link", o.linkRate);
    cmd.AddValue("linkDelay", "Delay of every link", o.linkDelay);
    cmd.AddValue("mtu", "RDMA MTU (256-4096)", o.mtu);
    cmd.AddValue("cc",
                 "Congestion control: " + TypeIdAlias::ListAliases(RdmaCongestionOps::GetTypeId()) +
                     ", or the TypeId name of a subclass of ns3::RdmaCongestionOps",
                 o.cc);
    cmd.AddValue("fixedRate", "Rate of --cc=fixed (default: linkRate / senders)", o.fixedRate);
    cmd.AddValue("pfc", "1: priority 3 lossless (PFC); 0: lossy", o.pfc);
    cmd.AddValue("bufferSize", "Switch buffer", o.bufferSize);
    cmd.AddValue("kmin", "ECN Kmin (default: the congestion control's, else 5KB)", o.kmin);
    cmd.AddValue("kmax", "ECN Kmax (default: the congestion control's, else 200KB)", o.kmax);
    cmd.AddValue("pmax", "ECN Pmax (default: the congestion control's, else 0.01)", o.pmax);
    cmd.AddValue("pcap", "Prefix of pcap files; empty: none", o.pcap);
    cmd.AddValue("outDir", "Folder for summary.json and fct.csv", o.outDir);
    cmd.AddValue("seed", "RNG run number", o.seed);
    cmd.AddValue("recovery", "ns3::RdmaQueuePair::Recovery"); // GoBackN or SelectiveRepeat
    cmd.AddValue("timeSeries", "1: write queue.csv, pauses.csv and cc.csv", o.timeSeries);
    cmd.AddValue("sampleInterval", "Queue sampling interval of queue.csv", o.sampleInterval);
    cmd.Parse(argc, argv);

    if (!profileProblem.empty())
    {
        Fail("dcqcnProfile", profileProblem);
    }
    if (o.senders < 1 || o.senders > 1000)
    {
        Fail("senders", "must be between 1 and 1000");
    }
    if (o.bytes == 0)
    {
        Fail("bytes", "must be positive");
    }
    if (o.mtu < 256 || o.mtu > 4096)
    {
        Fail("mtu", "must be between 256 and 4096 (the RDMA payload per packet)");
    }
    if (o.linkRate.GetBitRate() == 0)
    {
        Fail("linkRate", "must be positive");
    }
    std::string problem = RdmaHelper::LookupCongestionControl(o.cc, o.ccType);
    if (!problem.empty())
    {
        Fail("cc", problem);
    }
    problem = RdmaHelper::CheckCongestionControl(o.ccType);
    if (!problem.empty())
    {
        Fail("cc", problem);
    }
    // A congestion control that states its switch marking (DCTCP's step at K) sets what the
    // user did not give.
    o.ecnGiven = RdmaHelper::GetGivenEcnOptions(argc, argv);
    RdmaHelper::CompleteEcnOptions(o.ccType,
                                   o.ecnGiven,
                                   o.kmin,
                                   o.kmax,
                                   o.pmax,
                                   o.ecnReferenceRate);
    if (o.ecnReferenceRate.GetBitRate() > 0)
    {
        // Its thresholds stand for a port of this rate, scaled on every port by its rate.
        Config::SetDefault("ns3::SwitchMmu::EcnReferenceRate", DataRateValue(o.ecnReferenceRate));
    }
    if (o.timeSeries && !o.sampleInterval.IsStrictlyPositive())
    {
        Fail("sampleInterval", "must be positive");
    }
    // --fixedRate is the default Rate of the fixed-rate algorithm (used only if it is chosen).
    Config::SetDefault("ns3::RdmaCcFixedRate::Rate",
                       DataRateValue(o.fixedRate.GetBitRate()
                                         ? o.fixedRate
                                         : DataRate(o.linkRate.GetBitRate() / o.senders)));
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
 * Attach the optional outputs: queue.csv, pauses.csv and cc.csv (--timeSeries), pcaps.
 * @param o the options.
 * @param topo the topology helper (its link helper writes pcaps).
 * @param fabric the fabric.
 * @param qps the senders' queue pairs.
 * @param monitor the fabric monitor.
 * @param ccCsv cc.csv, opened here with --timeSeries.
 */
void
AttachOutputs(const Options& o,
              RoceTopologyHelper& topo,
              const RoceFabric& fabric,
              const std::vector<Ptr<RdmaQueuePair>>& qps,
              FabricMonitor& monitor,
              std::ofstream& ccCsv)
{
    if (o.timeSeries)
    {
        if (!monitor.EnableQueueSampling(o.outDir + "/queue.csv", o.sampleInterval) ||
            !monitor.EnablePauseIntervals(o.outDir + "/pauses.csv"))
        {
            Fail("outDir", "cannot write " + o.outDir + "/queue.csv or pauses.csv");
        }
        ccCsv.open(o.outDir + "/cc.csv");
        if (!ccCsv)
        {
            Fail("outDir", "cannot write " + o.outDir + "/cc.csv");
        }
        ccCsv << "time_us,flow,variable,value\n";
        for (uint32_t s = 0; s < o.senders; ++s)
        {
            RdmaHelper::ConnectCongestionControlTraces(qps[s],
                                                       s,
                                                       MakeBoundCallback(&CcChanged, &ccCsv));
        }
    }
    if (!o.pcap.empty())
    {
        RoceLinkHelper& links = topo.GetLinkHelper();
        links.EnablePcap(o.pcap, fabric.GetHostDevice(o.senders));
        for (uint32_t p = 0; p < fabric.GetSwitch(0)->GetNPorts(); ++p)
        {
            links.EnablePcap(o.pcap, fabric.GetSwitch(0)->GetPort(p));
        }
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o = ParseOptions(argc, argv);
    const uint32_t senders = o.senders;
    const uint64_t bytes = o.bytes;
    const DataRate linkRate = o.linkRate;
    const std::string& outDir = o.outDir;

    RoceTopologyHelper topo;
    std::string problem = topo.SetMmuBufferAndEcn(o.bufferSize, o.kmin, o.kmax, o.pmax, o.pfc);
    if (!problem.empty())
    {
        Fail("bufferSize/kmin/kmax", problem);
    }
    RoceFabric fabric = topo.BuildStar(senders + 1, linkRate, o.linkDelay);
    problem = fabric.CheckSwitches();
    if (!problem.empty())
    {
        Fail("bufferSize/kmin/kmax/pmax", problem);
    }
    fabric.AssignStreams(1);
    uint32_t receiver = senders;

    RdmaHelper rdma;
    rdma.SetEndpointAttribute("CongestionControl", TypeIdValue(o.ccType));
    std::vector<Ptr<RdmaEndpoint>> endpoints = rdma.Install(fabric);
    Flows flows;
    flows.end.resize(senders);
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t s = 0; s < senders; ++s)
    {
        auto [qp, peer] = RdmaEndpoint::Connect(endpoints[s], endpoints[receiver], 0xC000 + s);
        qp->SetSendCompleteCallback(MakeBoundCallback(&FlowDone, &flows, s));
        qp->PostWrite(bytes);
        qps.push_back(qp);
    }

    FabricMonitor monitor;
    for (uint32_t h = 0; h <= senders; ++h)
    {
        monitor.AddPort(fabric.GetHostDevice(h), "host" + std::to_string(h));
    }
    monitor.AddSwitch(fabric.GetSwitch(0), "switch0");
    monitor.EnableMaxQueueTracking();
    std::ofstream ccCsv;
    AttachOutputs(o, topo, fabric, qps, monitor, ccCsv);

    auto wallStart = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    monitor.Finish();
    uint64_t events = Simulator::GetEventCount();

    FlowStatistics::TransportCounters transport = FlowStatistics::SumQueuePairs(endpoints);
    auto [dataPackets, retransmitted, cnps] = transport;
    uint64_t linkFrames = FlowStatistics::CountLinkFrames(fabric);
    double ideal = FlowStatistics::IdealFctNs(bytes, o.mtu, {linkRate, linkRate}, o.linkDelay);
    std::vector<double> fct;
    std::vector<double> slowdown;
    std::ofstream csv(outDir + "/fct.csv");
    csv << "flow,sender,bytes,start_us,end_us,fct_us,ideal_us,slowdown\n";
    Time last;
    for (uint32_t s = 0; s < senders; ++s)
    {
        if (flows.end[s].IsZero())
        {
            continue; // not finished
        }
        double f = static_cast<double>(flows.end[s].GetPicoSeconds()) / 1000.0;
        fct.push_back(f / 1000.0);
        slowdown.push_back(f / ideal);
        last = std::max(last, flows.end[s]);
        csv << s << "," << s << "," << bytes << ",0," << f / 1000.0 << "," << f / 1000.0 << ","
            << ideal / 1000.0 << "," << f / ideal << "\n";
    }
    if (!csv)
    {
        Fail("outDir", "cannot write " + outDir + "/fct.csv");
    }
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    FlowStatistics::FlowRunSummary summary;
    summary.flows = senders;
    summary.flowsDone = flows.done;
    summary.lastFlowEnd = last;
    summary.fctUs = fct;
    summary.slowdown = slowdown;
    summary.transport = transport;
    summary.linkFrames = linkFrames;
    summary.monitor = &monitor;
    summary.events = events;
    summary.wallS = wall;
    std::ofstream json(outDir + "/summary.json");
    json << FlowStatistics::SummaryJson(summary);
    if (!json)
    {
        Fail("outDir", "cannot write " + outDir + "/summary.json");
    }
    std::cout << "Incast " << senders << ":1, " << bytes << " bytes each, "
              << linkRate.GetBitRate() / 1e9 << " Gb/s, cc " << o.cc << ", PFC "
              << (o.pfc ? "on" : "off") << std::endl
              << "  flows done " << flows.done << "/" << senders << ", last at "
              << last.GetNanoSeconds() / 1000.0 << " us (alone: " << ideal / 1000.0 << " us each)"
              << std::endl
              << "  data packets " << dataPackets << ", retransmitted " << retransmitted
              << ", drops " << monitor.GetTotalDrops() << std::endl
              << "  PFC pause frames " << monitor.GetTotalPauseFramesSent() << ", ECN marks "
              << monitor.GetTotalEcnMarks() << ", CNPs " << cnps << ", largest queue "
              << monitor.GetMaxQueueBytes() << " bytes" << std::endl
              << "  " << events << " events, " << linkFrames << " link frames in " << wall << " s ("
              << linkFrames / wall << " link frames/s), peak RSS " << usage.ru_maxrss / 1024
              << " MiB" << std::endl
              << "  outputs: " << outDir << "/summary.json, " << outDir << "/fct.csv" << std::endl;
    Simulator::Destroy();
    return flows.done == senders ? 0 : 1;
}

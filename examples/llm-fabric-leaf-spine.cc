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
 * Faults (ns3::FaultInjector, ns3::FaultOptions): --linkDown=A:B@TIME, --linkUp=A:B@TIME,
 * --linkDegrade=A:B@TIME=FRACTION, --linkBer=A:B=BER (or A:B@TIME=BER), --nicDown=HOST@TIME,
 * --nicUp=HOST@TIME, each a comma-separated list; nodes are named host0.., leaf0.., spine0..;
 * A:B/k picks the k-th of parallel links. Routes are recomputed around dead links, at once or,
 * with --routeConvergenceDelay, at once next to the link and after the delay elsewhere. The
 * transport recovers what a dead link or a bit error loses.
 * Example: --linkDown=leaf0:spine0@1ms --linkUp=leaf0:spine0@3ms --linkBer=leaf1:spine1=1e-7
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
 * final ACK's way back. --pcap=PREFIX writes pcaps of every host and switch port. Figures
 * (FigureScript): fct-slowdown.plt (slowdown against size) and, with gnuplot, its PNG.
 *
 * Run: ./ns3 run "llm-fabric-leaf-spine --cdf=websearch --load=0.3 --cc=dcqcn --outDir=out"
 */

#include "ns3/core-module.h"
#include "ns3/fabric-monitor.h"
#include "ns3/fabric-options.h"
#include "ns3/fault-options.h"
#include "ns3/flow-size-distribution.h"
#include "ns3/flow-statistics.h"
#include "ns3/program-options.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-flow-generator.h"
#include "ns3/roce-topology-helper.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>

using namespace ns3;

namespace
{

/// The program's options, and what they imply.
struct Options
{
    std::string cdf = "websearch";                 //!< flow-size distribution
    double load = 0.3;                             //!< offered load per host
    Time duration = MilliSeconds(5);               //!< flows start during this time
    uint32_t maxFlows = 0;                         //!< stop arrivals after this many (0: no limit)
    uint32_t flowCount = 0;                        //!< random pairs instead of the CDF (0: off)
    uint64_t minBytes = 1000;                      //!< smallest size of --flows
    uint64_t maxBytes = 1000000;                   //!< largest size of --flows
    RoceTopologyHelper::LeafSpineConfig shape;     //!< the fabric
    DataRate hostRate{"100Gbps"};                  //!< host-leaf links
    DataRate fabricRate{"100Gbps"};                //!< leaf-spine links
    Time linkDelay = MicroSeconds(1);              //!< every link
    FabricOptions fabric{"llm-fabric-leaf-spine"}; //!< MTU, cc, switch buffer, outputs
    FaultOptions faults{"llm-fabric-leaf-spine"};  //!< link and NIC faults
    uint32_t hosts = 0;                            //!< hosts of the fabric
    FlowSizeDistribution sizes;                    //!< the CDF's distribution
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
    ProgramOptions cmd("llm-fabric-leaf-spine", "Random RDMA flows on a leaf-spine fabric.");
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
    o.fabric.AddTo(cmd, "hostRate");
    o.faults.AddTo(cmd);
    cmd.ParseOrExit(argc, argv);

    o.shape.hostRate = o.hostRate;
    o.shape.fabricRate = o.fabricRate;
    o.shape.hostDelay = o.linkDelay;
    o.shape.fabricDelay = o.linkDelay;
    std::string problem = RoceTopologyHelper::CheckLeafSpine(o.shape);
    if (!problem.empty())
    {
        o.fabric.Fail("hostsPerLeaf/leaves/spines/hostRate/fabricRate/linkDelay", problem);
    }
    o.hosts = o.shape.hostsPerLeaf * o.shape.leaves;
    if (o.hosts < 2)
    {
        o.fabric.Fail("hostsPerLeaf", "the fabric needs at least 2 hosts");
    }
    if (!o.duration.IsStrictlyPositive())
    {
        o.fabric.Fail("duration", "must be positive");
    }
    if (o.flowCount == 0)
    {
        if (!(o.load > 0 && o.load <= 1))
        {
            o.fabric.Fail("load", "must be in (0, 1]");
        }
        problem = o.sizes.LoadByName(o.cdf);
        if (!problem.empty())
        {
            o.fabric.Fail("cdf", problem);
        }
        if (!(o.sizes.GetMean() > 0))
        {
            o.fabric.Fail("cdf", "the distribution's mean is 0 bytes");
        }
    }
    else if (o.minBytes == 0 || o.maxBytes < o.minBytes)
    {
        o.fabric.Fail("minBytes/maxBytes", "need 1 <= minBytes <= maxBytes");
    }
    // --cc=fixed defaults to the host line rate.
    o.fabric.Apply(o.hostRate);
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
    const std::string& outDir = o.fabric.GetOutDir();
    std::ofstream csv(outDir + "/fct.csv");
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
        double ideal = FlowStatistics::IdealFctNs(flow.bytes, o.fabric.GetMtu(), path, o.linkDelay);
        double f = static_cast<double>((flow.end - flow.start).GetPicoSeconds()) / 1000.0;
        fct.push_back(f / 1000.0);
        slowdown.push_back(f / ideal);
        last = std::max(last, flow.end);
        csv << static_cast<double>(flow.end.GetPicoSeconds()) / 1e6 << "," << f / 1000.0 << ","
            << ideal / 1000.0 << "," << f / ideal << "\n";
    }
    if (!csv)
    {
        o.fabric.Fail("outDir", "cannot write " + outDir + "/fct.csv");
    }
    return last;
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o = ParseOptions(argc, argv);
    RoceTopologyHelper topo;
    o.fabric.ConfigureSwitches(topo);
    RoceFabric fabric = topo.BuildLeafSpine(o.shape);
    o.fabric.CheckSwitches(fabric);
    int64_t stream = 1;
    stream += fabric.AssignStreams(stream);

    std::vector<Ptr<RdmaEndpoint>> endpoints = o.fabric.InstallEndpoints(fabric);
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
    std::string problem = generator->Install(endpoints);
    if (!problem.empty())
    {
        o.fabric.Fail("cdf", problem);
    }
    if (o.flowCount > 0)
    {
        generator->AddRandomFlows(o.flowCount, o.minBytes, o.maxBytes, o.duration, stream++);
    }
    Ptr<FaultInjector> faults = o.faults.Install(fabric, nullptr, "", stream);

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
    const std::string& pcap = o.fabric.GetPcap();
    if (!pcap.empty())
    {
        RoceLinkHelper& links = topo.GetLinkHelper();
        for (uint32_t h = 0; h < o.hosts; ++h)
        {
            links.EnablePcap(pcap, fabric.GetHostDevice(h));
        }
        for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
        {
            for (uint32_t p = 0; p < fabric.GetSwitch(s)->GetNPorts(); ++p)
            {
                links.EnablePcap(pcap, fabric.GetSwitch(s)->GetPort(p));
            }
        }
    }

    Ptr<PfcPauseTree> pauseTree = o.fabric.InstallPauseTree(fabric);
    FlowStatistics::FlowRunSummary summary = FlowStatistics::Run(fabric, endpoints, monitor);
    o.fabric.WritePauseTree(pauseTree);

    const std::vector<RdmaFlowGenerator::Flow>& flows = generator->GetFlows();
    uint64_t offered = 0;
    for (const auto& flow : flows)
    {
        offered += flow.bytes;
    }
    Time last = WriteFlows(o, flows, summary.fctUs, summary.slowdown);
    uint32_t started = generator->GetFlowsStarted();
    uint32_t done = generator->GetFlowsCompleted();
    summary.flows = started;
    summary.flowsDone = done;
    summary.lastFlowEnd = last;
    o.fabric.WriteSummary(summary);
    std::cout << "Leaf-spine " << o.shape.leaves << " leaves x " << o.shape.hostsPerLeaf
              << " hosts, " << o.shape.spines << " spines, hosts " << o.hostRate.GetBitRate() / 1e9
              << " Gb/s, fabric " << o.fabricRate.GetBitRate() / 1e9 << " Gb/s (oversubscription "
              << RoceTopologyHelper::GetOversubscription(o.shape) << "), cc "
              << o.fabric.GetCongestionControl() << ", PFC " << (o.fabric.GetPfc() ? "on" : "off")
              << std::endl;
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
    if (!summary.slowdown.empty())
    {
        std::vector<double> s = summary.slowdown;
        std::sort(s.begin(), s.end());
        std::cout << "  slowdown p50 " << s[(s.size() - 1) / 2] << ", p99 "
                  << s[std::min(s.size() - 1, static_cast<size_t>(std::ceil(0.99 * s.size())) - 1)]
                  << ", max " << s.back() << std::endl;
    }
    if (!faults->GetFaults().empty())
    {
        std::cout << "  faults: " << faults->GetFaults().size() << ", frames lost to links down "
                  << faults->GetLinkDownLosses() << ", to bit errors "
                  << faults->GetBitErrorLosses() << ", route updates " << faults->GetRouteUpdates()
                  << std::endl;
    }
    const std::string& outDir = o.fabric.GetOutDir();
    std::cout << FlowStatistics::CountersText(summary) << "  outputs: " << outDir
              << "/summary.json, " << outDir << "/fct.csv" << std::endl
              << o.fabric.WriteFigures({{FigureScript::FCT_SLOWDOWN,
                                         "fct.csv",
                                         "fct-slowdown",
                                         "Leaf-spine: FCT slowdown by size",
                                         "column(5)",
                                         "column(10)"}})
              << std::endl;
    Simulator::Destroy();
    return done == started ? 0 : 1;
}

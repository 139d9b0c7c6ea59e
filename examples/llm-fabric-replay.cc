/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric
 * Replay the input files of HPCC's ns-3 simulator and its descendants (SimAI's ns-3 backend)
 * unchanged: a topology file and a flow file (formats in ns3::HpccFormatReader), run on this
 * module's fabric (ns3::ReplayFabric), with results written in the peer's fct.txt columns so
 * that the two simulators can be compared line by line.
 *
 * Topology: the file's. Every node listed as a switch is a RoceSwitch, every other node a host
 * with an RDMA endpoint; links have the file's rate and delay; routes are the equal-cost
 * shortest paths (ECMP by the flow's UDP source port). Refused: a non-zero error rate,
 * nvswitches or gpus_per_server other than 0 and 1, a host with two links, and every malformed
 * line ("FILE: line N: reason", exit status 2).
 *
 * Traffic: every flow of the flow file is one RDMA WRITE on its own RC queue pair, posted at its
 * start time; its priority must be the priority RDMA data uses (3 by default), its dport is
 * written back as given.
 *
 * Defaults are the peer's settings (the notes of the project's hpcc-format reference data):
 * RDMA MTU 1000 bytes, DCQCN with the simai profile (--dcqcnProfile; a window of one
 * bandwidth-delay product whose BaseRtt is the longest idle round trip between two hosts of
 * the topology, ns3::ReplayFabric::GetLongestBaseRtt, as for ns3::Hpcc::BaseRtt), a 32 MB
 * switch buffer, ECN Kmin 400 KB, Kmax 1600 KB, Pmax 0.2 for a 100 Gb/s port (scaled by each
 * port's rate, ns3::SwitchMmu::EcnReferenceRate, unless --kmin or --kmax is given), PFC on.
 * Acknowledgements keep this module's coalescing (ns3::RdmaQueuePair::AckInterval 16,
 * AckDelay 4 us); --ackInterval=1 acknowledges every packet as the peer does. A value given on
 * the command line (an option or --ns3::Class::Attribute=...) always wins.
 *
 * Expected: on the reference files every flow finishes with no drop; the FCTs are of the
 * order of the peer's (see doc/llm-fabric.rst, "Replaying HPCC/SimAI input files").
 *
 * Outputs in --outDir (created if missing): fct.txt (one finished flow a line, in the order
 * they finished: src_ip dst_ip sport dport bytes start_ns fct_ns standalone_fct_ns, IPs in hex
 * as the peer writes them, host n 0x0b000001 + 256 n) and summary.json (the keys of
 * llm-fabric-incast's; slowdown is fct / standalone_fct). --pcap=PREFIX writes pcaps of every
 * host and switch port. Figure (FigureScript): fct-slowdown.plt from fct.txt and, with
 * gnuplot, its PNG.
 *
 * Run: ./ns3 run "llm-fabric-replay --topologyFile=topology.txt --flowFile=flow.txt
 * --outDir=out"
 */

#include "ns3/attribute-defaults.h"
#include "ns3/core-module.h"
#include "ns3/dcqcn.h"
#include "ns3/fabric-monitor.h"
#include "ns3/fabric-options.h"
#include "ns3/flow-statistics.h"
#include "ns3/hpcc-format-reader.h"
#include "ns3/program-options.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/replay-fabric.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/usage-error.h"

#include <algorithm>
#include <iostream>

using namespace ns3;

namespace
{

/// The program's name.
const std::string PROGRAM = "llm-fabric-replay";

/// The program's options.
struct Options
{
    std::string topologyFile;                  //!< the topology file
    std::string flowFile;                      //!< the flow file
    FabricOptions fabric{PROGRAM};             //!< MTU, cc, switch buffer, outputs
    HpccFormatReader::Topology topology;       //!< what the topology file says
    std::vector<HpccFormatReader::Flow> flows; //!< what the flow file says
};

/**
 * @return the priority RDMA data goes on: ns3::RdmaEndpoint::DataDscp's default (as the
 * command line left it) divided by 8.
 */
uint32_t
DataPriority()
{
    UintegerValue dscp;
    CreateObject<RdmaEndpoint>()->GetAttribute("DataDscp", dscp);
    return static_cast<uint32_t>(dscp.Get() >> 3);
}

/**
 * Parse the command line, read the files and set the defaults they imply (exits 2 on a
 * problem).
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
    std::string dcqcnProfile = "simai";
    const std::string profileOption = "--dcqcnProfile=";
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (arg.rfind(profileOption, 0) == 0)
        {
            dcqcnProfile = arg.substr(profileOption.size());
        }
    }
    std::string problem = Dcqcn::SetDefaultProfile(dcqcnProfile);

    ProgramOptions cmd(PROGRAM, "Run HPCC/SimAI topology and flow files on this fabric.");
    cmd.AddValue("topologyFile", "Topology file (HPCC's or SimAI's format)", o.topologyFile);
    cmd.AddValue("flowFile", "Flow file (src dst priority dport bytes start_seconds)", o.flowFile);
    cmd.AddValue("dcqcnProfile", "DCQCN parameters: mlx5, sigcomm2015 or simai", dcqcnProfile);
    o.fabric.SetSwitchDefaults("32MB", "400KB", "1600KB", 0.2);
    o.fabric.AddTo(cmd, "the fastest link of the topology");
    cmd.AddValue("ackInterval", "ns3::RdmaQueuePair::AckInterval");
    cmd.ParseOrExit(argc, argv);
    if (!problem.empty())
    {
        o.fabric.Fail("dcqcnProfile", problem);
    }
    if (o.topologyFile.empty() || o.flowFile.empty())
    {
        o.fabric.Fail(o.topologyFile.empty() ? "topologyFile" : "flowFile", "is required");
    }
    problem = HpccFormatReader::ReadTopology(o.topologyFile, o.topology);
    if (problem.empty())
    {
        problem = HpccFormatReader::ReadFlows(o.flowFile, o.topology, DataPriority(), o.flows);
    }
    if (!problem.empty())
    {
        UsageError::Exit(problem);
    }
    // The peer's ECN thresholds stand for a 100 Gb/s port and scale with the port's rate; a
    // congestion control that states its own marking (Apply) and --kmin/--kmax replace that.
    AttributeDefaults given;
    given.RecordCommandLine(argc, argv);
    if (!cmd.IsGiven("kmin") && !cmd.IsGiven("kmax"))
    {
        given.Offer("ns3::SwitchMmu::EcnReferenceRate", DataRateValue(DataRate("100Gbps")));
    }
    DataRate fastest(0);
    for (const auto& link : o.topology.links)
    {
        fastest = std::max(fastest, link.rate);
    }
    o.fabric.Apply(fastest);
    return o;
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o = ParseOptions(argc, argv);
    ReplayFabric replay(o.topology, o.flows);
    // The windows of DCQCN (simai) and HPCC: the longest idle round trip of the topology.
    AttributeDefaults given;
    given.RecordCommandLine(argc, argv);
    Time baseRtt = replay.GetLongestBaseRtt(o.fabric.GetMtu());
    given.Offer("ns3::Dcqcn::BaseRtt", TimeValue(baseRtt));
    given.Offer("ns3::Hpcc::BaseRtt", TimeValue(baseRtt));

    RoceTopologyHelper topo;
    o.fabric.ConfigureSwitches(topo);
    RoceFabric fabric = replay.Build(topo);
    o.fabric.CheckSwitches(fabric);
    fabric.AssignStreams(1);
    std::vector<Ptr<RdmaEndpoint>> endpoints = o.fabric.InstallEndpoints(fabric);
    replay.Install(endpoints);

    FabricMonitor monitor;
    for (uint32_t h = 0; h < fabric.GetNHosts(); ++h)
    {
        monitor.AddPort(fabric.GetHostDevice(h), "host" + std::to_string(replay.GetHostNodes()[h]));
    }
    for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
    {
        monitor.AddSwitch(fabric.GetSwitch(s), fabric.GetSwitchName(s));
    }
    monitor.EnableMaxQueueTracking();
    const std::string& pcap = o.fabric.GetPcap();
    if (!pcap.empty())
    {
        NetDeviceContainer devices = fabric.GetAllDevices();
        for (uint32_t d = 0; d < devices.GetN(); ++d)
        {
            topo.GetLinkHelper().EnablePcap(pcap, DynamicCast<RoceNetDevice>(devices.Get(d)));
        }
    }

    Ptr<PfcPauseTree> pauseTree = o.fabric.InstallPauseTree(fabric);
    FlowStatistics::FlowRunSummary summary = FlowStatistics::Run(fabric, endpoints, monitor);
    o.fabric.WritePauseTree(pauseTree);
    const std::string& outDir = o.fabric.GetOutDir();
    std::string problem = replay.WriteFct(outDir + "/fct.txt", o.fabric.GetMtu(), summary);
    if (!problem.empty())
    {
        o.fabric.Fail("outDir", problem);
    }
    o.fabric.WriteSummary(summary);
    std::vector<double> fct = summary.fctUs;
    std::sort(fct.begin(), fct.end());
    std::cout << "Replay of " << o.topologyFile << " (" << fabric.GetNHosts() << " hosts, "
              << fabric.GetNSwitches() << " switches, " << o.topology.links.size() << " links) and "
              << o.flowFile << ", cc " << o.fabric.GetCongestionControl() << ", PFC "
              << (o.fabric.GetPfc() ? "on" : "off") << ", window base RTT "
              << baseRtt.GetNanoSeconds() / 1000.0 << " us" << std::endl
              << "  flows done " << summary.flowsDone << "/" << summary.flows << ", last at "
              << summary.lastFlowEnd.GetNanoSeconds() / 1000.0 << " us";
    if (!fct.empty())
    {
        std::cout << "; FCT median " << fct[(fct.size() - 1) / 2] << " us, max " << fct.back()
                  << " us";
    }
    std::cout << std::endl
              << FlowStatistics::CountersText(summary) << "  outputs: " << outDir << "/fct.txt, "
              << outDir << "/summary.json" << std::endl;
    // fct.txt has the peer's columns, blank-separated and without a header: src dst sport dport
    // size start_ns fct_ns standalone_fct_ns.
    FigureScript::Figure slowdown{FigureScript::FCT_SLOWDOWN,
                                  "fct.txt",
                                  "fct-slowdown",
                                  "Replay: FCT slowdown by size",
                                  "column(5)",
                                  "column(7)/column(8)",
                                  ' ',
                                  false};
    std::cout << o.fabric.WriteFigures({slowdown}) << std::endl;
    Simulator::Destroy();
    return summary.flowsDone == summary.flows ? 0 : 1;
}

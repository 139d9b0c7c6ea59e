/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric
 * Speed and memory of the packet fabric (ports, links, switches, MMU, PFC, ECN), either with
 * the reliable RDMA transport (--transport=rdma, the default: one RC queue pair and one RDMA
 * WRITE per flow, congestion control --cc, an alias or TypeId name, DCQCN by default) or with
 * constant-rate RoCEv2 sources that stall while their port is paused (--transport=none).
 *
 * Scenarios (--scenario):
 *   incast      --senders hosts (16) send --bytes (1,000,000) each at line rate into one host
 *               through one switch: 100 Gb/s, 1 us links, RDMA payload --mtu (1000) bytes,
 *               priority 3 lossless (PFC), ECN marking on.
 *   leaf-spine  32 hosts, 4 leaves, 4 spines, host links 100 Gb/s, fabric links 50 Gb/s (2:1
 *               oversubscription), 1 us; 200 flows between random host pairs, sizes
 *               log-uniform in [10 KB, 10 MB], Poisson arrivals over 2 ms, each at 100 Gb/s.
 *   files       with --topologyFile and --flowFile (instead of --scenario): the input files of
 *               HPCC's simulator and its descendants (ns3::HpccFormatReader; a malformed file
 *               is one line "FILE: line N: reason", exit status 2), built as
 *               llm-fabric-replay builds them (ns3::ReplayFabric) but run with this program's
 *               settings (--mtu, --cc with its default attributes, the default switch), each
 *               flow at its start time.
 *
 * Printed: simulated time, events, link frames (every frame put on any link: data and PFC),
 * events per link frame, link frames per wall-second, events per wall-second, peak RSS.
 *
 * Run: ./ns3 run "llm-fabric-bench-fabric --scenario=incast"
 */

#include "ns3/core-module.h"
#include "ns3/flow-statistics.h"
#include "ns3/hpcc-format-reader.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/program-options.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/replay-fabric.h"
#include "ns3/roce-source-helper.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/type-id-alias.h"
#include "ns3/usage-error.h"

#include <chrono>
#include <cmath>
#include <iostream>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/// Stop with "program: --key: reason" and exit status 2.
void
Fail(const std::string& key, const std::string& reason)
{
    UsageError::Exit("llm-fabric-bench-fabric", key, reason);
}

/**
 * Add a constant-rate source of `packets` packets from one host to another.
 * @param fabric the fabric.
 * @param from sender.
 * @param to receiver.
 * @param packets packets to send.
 * @param payload RDMA payload per packet.
 * @param start start time.
 * @param flow a flow number (UDP source port and QP).
 */
void
AddFlow(const RoceFabric& fabric,
        uint32_t from,
        uint32_t to,
        uint64_t packets,
        uint32_t payload,
        Time start,
        uint32_t flow)
{
    RoceSourceHelper sources;
    sources.SetAttribute("DataRate", DataRateValue(fabric.GetHostDevice(from)->GetDataRate()));
    sources.SetAttribute("PayloadSize", UintegerValue(payload));
    sources.SetAttribute("MaxPackets", UintegerValue(packets));
    sources.SetAttribute("DestinationQp", UintegerValue(0x100 + flow));
    sources.Install(fabric, from, to, 0xC000 + (flow & 0x3FFF))->SetStartTime(start);
}

/// RDMA flows not acknowledged yet.
uint32_t g_flowsPending = 0;

/**
 * An RDMA flow was acknowledged; the last one stops the simulation (idle queue pairs' DCQCN
 * timers would otherwise run the clock on, and their events would count as the fabric's).
 * @param qp its queue pair.
 * @param id message id.
 * @param bytes its size.
 */
void
RdmaFlowDone(Ptr<RdmaQueuePair> qp, uint64_t id, uint64_t bytes)
{
    if (--g_flowsPending == 0)
    {
        Simulator::Stop();
    }
}

/**
 * Start one RDMA WRITE from one host to another at a given time.
 * @param endpoints the hosts' endpoints.
 * @param from sender.
 * @param to receiver.
 * @param bytes message size.
 * @param start when.
 * @param flow flow number (UDP source port).
 */
void
AddRdmaFlow(const std::vector<Ptr<RdmaEndpoint>>& endpoints,
            uint32_t from,
            uint32_t to,
            uint64_t bytes,
            Time start,
            uint32_t flow)
{
    auto [qp, peer] =
        RdmaEndpoint::Connect(endpoints[from], endpoints[to], 0xC000 + (flow & 0x3FFF));
    ++g_flowsPending;
    qp->SetSendCompleteCallback(MakeCallback(&RdmaFlowDone));
    ScheduleLambda(start, [qp = qp, bytes]() { qp->PostWrite(bytes); });
}

/**
 * Read HPCC/SimAI input files; exits 2 with "FILE: line N: reason" on a problem.
 * @param topologyFile the topology file.
 * @param flowFile the flow file.
 * @param[out] topology the topology.
 * @param[out] flows the flows.
 */
void
ReadFiles(const std::string& topologyFile,
          const std::string& flowFile,
          HpccFormatReader::Topology& topology,
          std::vector<HpccFormatReader::Flow>& flows)
{
    std::string problem = HpccFormatReader::ReadTopology(topologyFile, topology);
    if (problem.empty())
    {
        UintegerValue dscp;
        CreateObject<RdmaEndpoint>()->GetAttribute("DataDscp", dscp);
        auto priority = static_cast<uint32_t>(dscp.Get() >> 3);
        problem = HpccFormatReader::ReadFlows(flowFile, topology, priority, flows);
    }
    if (!problem.empty())
    {
        UsageError::Exit(problem);
    }
}

/**
 * Run the simulation and print its speed and memory.
 * @param scenario the scenario's name.
 * @param transport the transport's name.
 * @param fabric the fabric (its link frames are counted).
 */
void
RunAndPrint(const std::string& scenario, const std::string& transport, const RoceFabric& fabric)
{
    auto start = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    uint64_t events = Simulator::GetEventCount();
    uint64_t frames = FlowStatistics::CountLinkFrames(fabric);
    Time simulated = Simulator::Now();
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    std::cout << "scenario " << scenario << " (transport " << transport << ")" << std::endl
              << "simulated_us " << simulated.GetNanoSeconds() / 1000.0 << std::endl
              << "events " << events << std::endl
              << "link_frames " << frames << std::endl
              << "events_per_link_frame " << static_cast<double>(events) / frames << std::endl
              << "wall_s " << wall << std::endl
              << "link_frames_per_wall_s " << frames / wall << std::endl
              << "events_per_wall_s " << events / wall << std::endl
              << "peak_rss_mib " << usage.ru_maxrss / 1024.0 << std::endl;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string scenario = "incast";
    uint32_t senders = 16;
    uint64_t bytes = 1000000;
    uint32_t mtu = 1000;
    uint32_t flows = 200;
    uint32_t seed = 1;
    std::string transport = "rdma";
    std::string cc = "dcqcn";
    std::string topologyFile;
    std::string flowFile;

    ProgramOptions cmd("llm-fabric-bench-fabric",
                       "Simulation speed of the fabric on fixed scenarios.");
    cmd.AddValue("scenario", "incast or leaf-spine", scenario);
    cmd.AddValue("senders", "incast: number of senders", senders);
    cmd.AddValue("bytes", "incast: bytes per sender", bytes);
    cmd.AddValue("mtu", "RDMA payload bytes per packet", mtu);
    cmd.AddValue("flows", "leaf-spine: number of flows", flows);
    cmd.AddValue("seed", "RNG run number", seed);
    cmd.AddValue("transport",
                 "rdma (RC queue pairs, DCQCN) or none (constant-rate sources)",
                 transport);
    cmd.AddValue("cc",
                 "rdma: congestion control, an alias (e.g. dcqcn, none) or a TypeId name",
                 cc);
    cmd.AddValue("topologyFile",
                 "files: an HPCC/SimAI topology file (with --flowFile)",
                 topologyFile);
    cmd.AddValue("flowFile", "files: an HPCC/SimAI flow file (with --topologyFile)", flowFile);
    cmd.ParseOrExit(argc, argv);
    TypeId ccType;
    std::string problem = RdmaHelper::LookupCongestionControl(cc, ccType);
    if (!problem.empty())
    {
        Fail("cc", problem);
    }
    if (topologyFile.empty() != flowFile.empty())
    {
        Fail(topologyFile.empty() ? "topologyFile" : "flowFile", "goes with the other file");
    }
    HpccFormatReader::Topology topology;
    std::vector<HpccFormatReader::Flow> fileFlows;
    if (!topologyFile.empty())
    {
        scenario = "files";
        ReadFiles(topologyFile, flowFile, topology, fileFlows);
    }
    else if (scenario != "incast" && scenario != "leaf-spine")
    {
        Fail("scenario", "'" + scenario + "' is neither incast nor leaf-spine");
    }
    if (transport != "rdma" && transport != "none")
    {
        Fail("transport", "'" + transport + "' is neither rdma nor none");
    }
    if (mtu < 256 || mtu > 4096)
    {
        Fail("mtu", "must be between 256 and 4096");
    }
    if (senders < 1 || flows < 1 || bytes < 1)
    {
        Fail("senders/flows/bytes", "must be positive");
    }
    RngSeedManager::SetRun(seed);

    Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(mtu));
    RoceTopologyHelper topo;
    RoceFabric fabric;
    std::vector<Ptr<RdmaEndpoint>> endpoints;
    auto flow = [&](uint32_t from, uint32_t to, uint64_t size, Time start, uint32_t id) {
        if (transport == "rdma")
        {
            AddRdmaFlow(endpoints, from, to, size, start, id);
        }
        else
        {
            AddFlow(fabric, from, to, (size + mtu - 1) / mtu, mtu, start, id);
        }
    };
    RdmaHelper rdma;
    rdma.SetEndpointAttribute("CongestionControl", TypeIdValue(ccType));
    if (scenario == "files")
    {
        ReplayFabric replay(topology, fileFlows);
        fabric = replay.Build(topo);
        endpoints = rdma.Install(fabric);
        for (uint32_t f = 0; f < fileFlows.size(); ++f)
        {
            const HpccFormatReader::Flow& file = fileFlows[f];
            flow(replay.GetHostIndex(file.src),
                 replay.GetHostIndex(file.dst),
                 file.bytes,
                 file.start,
                 f);
        }
    }
    else if (scenario == "incast")
    {
        fabric = topo.BuildStar(senders + 1, DataRate("100Gbps"), MicroSeconds(1));
        endpoints = rdma.Install(fabric);
        for (uint32_t s = 0; s < senders; ++s)
        {
            flow(s, senders, bytes, Seconds(0), s);
        }
    }
    else
    {
        RoceTopologyHelper::LeafSpineConfig c;
        c.hostsPerLeaf = 8;
        c.leaves = 4;
        c.spines = 4;
        c.hostRate = DataRate("100Gbps");
        c.fabricRate = DataRate("50Gbps");
        fabric = topo.BuildLeafSpine(c);
        endpoints = rdma.Install(fabric);
        Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
        u->SetStream(1);
        Ptr<ExponentialRandomVariable> gap = CreateObject<ExponentialRandomVariable>();
        gap->SetStream(2);
        gap->SetAttribute("Mean", DoubleValue(2e-3 / flows)); // 200 arrivals over 2 ms
        Time t = Seconds(0);
        for (uint32_t f = 0; f < flows; ++f)
        {
            uint32_t from = u->GetInteger(0, fabric.GetNHosts() - 1);
            uint32_t to = u->GetInteger(0, fabric.GetNHosts() - 2);
            to += (to >= from) ? 1 : 0;
            // log-uniform in [10 KB, 10 MB]
            double size = std::exp(u->GetValue(std::log(1e4), std::log(1e7)));
            flow(from, to, static_cast<uint64_t>(std::ceil(size)), t, f);
            t += Seconds(gap->GetValue());
        }
    }
    fabric.AssignStreams(10);

    RunAndPrint(scenario, transport, fabric);
    Simulator::Destroy();
    return 0;
}

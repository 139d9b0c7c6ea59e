/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric
 * Incast through one RoCE switch at the packet level, with or without PFC, without a transport.
 *
 * Topology: --senders hosts and one receiver on one switch (a star), every link --linkRate and
 * --linkDelay.
 *
 *     sender 0 --\
 *     sender 1 ---+-- switch --- receiver
 *     ...      --/
 *
 * Every sender sends --packets RoCEv2 packets (RDMA WRITE Middle, --payload bytes, priority 3,
 * ECN-capable) to the receiver at the line rate, from time 0 (RoceConstantRateSource: no
 * transport, no congestion control: the next issue brings those). The receiver's port is
 * oversubscribed senders:1.
 *
 * Expected: with --pfc=1 (priority 3 lossless) the switch pauses the senders' ports, nothing is
 * dropped, and the receiver's link runs at line rate: the last packet arrives after about
 * senders x packets x wire time + 2 hops. With --pfc=0 and a small --bufferSize, the switch
 * drops what does not fit (lossy-limit), the receiver gets fewer packets. ECN marks appear once
 * the receiver's queue passes --kmin.
 *
 * Outputs, in --outDir (default: the current folder; created if missing): counters.csv (per port
 * and priority), queues.csv (queue depth sampled every --sampleInterval), pauses.csv (PFC pause
 * intervals: port, priority, start, end), summary.json; --pcap=PREFIX writes
 * PREFIX-<node>-<device>.pcap for the receiver and the switch (nanosecond Ethernet pcaps, PFC
 * frames included). Figures (FigureScript): queues.plt and pauses.plt (a Gantt chart of the
 * pause intervals) and, with gnuplot, their PNGs. A summary goes to stdout.
 *
 * Run: ./ns3 run "llm-fabric-pfc-incast --senders=8 --pfc=1 --outDir=/tmp/incast"
 */

#include "ns3/core-module.h"
#include "ns3/fabric-monitor.h"
#include "ns3/figure-script.h"
#include "ns3/program-options.h"
#include "ns3/roce-source-helper.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/switch-mmu.h"
#include "ns3/usage-error.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/// Stop with "program: --key: reason" and exit status 2.
void
Fail(const std::string& key, const std::string& reason)
{
    UsageError::Exit("llm-fabric-pfc-incast", key, reason);
}

/// Last arrival time at the receiver, and frames received.
struct Receiver
{
    uint64_t frames{0}; //!< data frames received
    Time last;          //!< when the last arrived

    /// @param frame a frame that arrived.
    void Rx(Ptr<const Packet> frame)
    {
        ++frames;
        last = Simulator::Now();
    }
};

/**
 * One RoceConstantRateSource per sender, host s to the receiver (the last host) at the line
 * rate, each with its own UDP source port and destination QP.
 * @param fabric the star.
 * @param senders the senders (hosts 0 .. senders - 1).
 * @param linkRate their rate.
 * @param payload RDMA payload bytes per packet.
 * @param packets packets per sender.
 * @return the sources.
 */
std::vector<Ptr<RoceConstantRateSource>>
InstallSenders(const RoceFabric& fabric,
               uint32_t senders,
               DataRate linkRate,
               uint32_t payload,
               uint32_t packets)
{
    std::vector<Ptr<RoceConstantRateSource>> apps;
    const uint32_t receiver = senders;
    RoceSourceHelper sources;
    sources.SetAttribute("DataRate", DataRateValue(linkRate));
    sources.SetAttribute("PayloadSize", UintegerValue(payload));
    sources.SetAttribute("MaxPackets", UintegerValue(packets));
    for (uint32_t s = 0; s < senders; ++s)
    {
        sources.SetAttribute("DestinationQp", UintegerValue(0x100 + s));
        apps.push_back(sources.Install(fabric, s, receiver, 0xC000 + s));
    }
    return apps;
}

/**
 * Write queues.csv and pauses.csv as the run goes, and the pcaps of the receiver and the
 * switch's ports. Exits 2 if a file cannot be written.
 * @param topo the topology helper (its link helper writes pcaps).
 * @param fabric the star.
 * @param monitor the fabric monitor.
 * @param outDir the output folder.
 * @param sampleInterval the queue sampling interval.
 * @param pcap the pcap prefix (empty: none).
 */
void
AttachOutputs(RoceTopologyHelper& topo,
              const RoceFabric& fabric,
              FabricMonitor& monitor,
              const std::string& outDir,
              Time sampleInterval,
              const std::string& pcap)
{
    for (uint32_t h = 0; h < fabric.GetNHosts(); ++h)
    {
        monitor.AddPort(fabric.GetHostDevice(h), "host" + std::to_string(h));
    }
    monitor.AddSwitch(fabric.GetSwitch(0), "switch0");
    monitor.EnableMaxQueueTracking();
    for (const auto& [name, ok] :
         {std::make_pair("queues.csv",
                         monitor.EnableQueueSampling(outDir + "/queues.csv", sampleInterval)),
          std::make_pair("pauses.csv", monitor.EnablePauseIntervals(outDir + "/pauses.csv"))})
    {
        if (!ok)
        {
            Fail("outDir", monitor.GetLastError());
        }
    }
    if (!pcap.empty())
    {
        RoceLinkHelper& links = topo.GetLinkHelper();
        links.EnablePcap(pcap, fabric.GetHostDevice(fabric.GetNHosts() - 1));
        for (uint32_t p = 0; p < fabric.GetSwitch(0)->GetNPorts(); ++p)
        {
            links.EnablePcap(pcap, fabric.GetSwitch(0)->GetPort(p));
        }
    }
}

/**
 * The line-rate bound of the last arrival: the first frame needs two hops (preamble + frame +
 * FCS, then the delay, twice), and the others follow it back to back on the receiver's link
 * (their wire time includes the inter-frame gap). A paused sender's port stops taking packets;
 * its source offers them again later (as an RDMA NIC stalls), so every packet is eventually sent
 * unless the run is cut short.
 * @param linkRate the links' rate.
 * @param payload RDMA payload bytes per packet.
 * @param linkDelay the links' delay.
 * @param sent packets sent in all.
 * @return the bound, in nanoseconds, unrounded.
 */
double
LineRateBoundNs(DataRate linkRate, uint32_t payload, Time linkDelay, uint64_t sent)
{
    double bitNs = 1e9 / static_cast<double>(linkRate.GetBitRate());
    double frame = RoceConstantRateSource::GetFrameSize(payload);
    double hopNs = (8 + frame + 4) * 8 * bitNs + static_cast<double>(linkDelay.GetNanoSeconds());
    return 2 * hopNs + static_cast<double>(sent - 1) * (frame + 4 + 20) * 8 * bitNs;
}

/**
 * @param sw the switch.
 * @return the frames of priority 3 it dropped as lossy (above their allowance).
 */
uint64_t
LossyDrops(Ptr<RoceSwitch> sw)
{
    uint64_t drops = 0;
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        drops += sw->GetDrops(p, 3, RoceSwitch::DROP_LOSSY_LIMIT);
    }
    return drops;
}

/**
 * Create the output folder, or exit 2 saying why not.
 * @param outDir the folder.
 */
void
MakeOutDir(const std::string& outDir)
{
    std::error_code error;
    std::filesystem::create_directories(outDir, error);
    if (error)
    {
        Fail("outDir", "cannot create " + outDir + ": " + error.message());
    }
}

/**
 * Write the scripts of the queue and pause figures and draw them where gnuplot is installed.
 * @param outDir the folder holding queues.csv and pauses.csv.
 * @return the line naming them.
 */
std::string
WriteFigures(const std::string& outDir)
{
    std::vector<FigureScript::Figure> figures{
        {FigureScript::QUEUE_DEPTH, "queues.csv", "queues", "PFC incast: queue depth"},
        {FigureScript::PAUSE_GANTT, "pauses.csv", "pauses", "PFC incast: pause intervals"}};
    bool drawn = false;
    std::string problem = FigureScript::WriteAndDraw(outDir, figures, drawn);
    if (!problem.empty())
    {
        Fail("outDir", problem);
    }
    return FigureScript::Describe(outDir, figures, drawn);
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t senders = 8;
    uint32_t packets = 2000;
    uint32_t payload = 1000;
    DataRate linkRate("100Gbps");
    Time linkDelay = MicroSeconds(1);
    bool pfc = true;
    std::string bufferSize = "12MB";
    std::string kmin = "5KB";
    std::string kmax = "200KB";
    double pmax = 0.01;
    double alpha = 1.0;
    Time sampleInterval = MicroSeconds(1);
    std::string outDir = ".";
    std::string pcap;
    uint32_t seed = 1;

    ProgramOptions cmd("llm-fabric-pfc-incast",
                       "A constant-rate incast through one switch with PFC pauses.");
    cmd.AddValue("senders", "Number of senders", senders);
    cmd.AddValue("packets", "Packets per sender", packets);
    cmd.AddValue("payload", "RDMA payload bytes per packet (1-4096)", payload);
    cmd.AddValue("linkRate", "Rate of every link", linkRate);
    cmd.AddValue("linkDelay", "Delay of every link", linkDelay);
    cmd.AddValue("pfc", "1: priority 3 is lossless (PFC); 0: lossy", pfc);
    cmd.AddValue("bufferSize", "Switch buffer (ns3::SwitchMmu::Buffer)", bufferSize);
    cmd.AddValue("kmin", "ECN Kmin (ns3::SwitchMmu::Kmin)", kmin);
    cmd.AddValue("kmax", "ECN Kmax (ns3::SwitchMmu::Kmax)", kmax);
    cmd.AddValue("pmax", "ECN Pmax (ns3::SwitchMmu::Pmax)", pmax);
    cmd.AddValue("alpha", "Dynamic threshold alpha (ns3::SwitchMmu::Alpha)", alpha);
    cmd.AddValue("sampleInterval", "Queue sampling interval", sampleInterval);
    cmd.AddValue("outDir", "Folder for the CSV and JSON outputs", outDir);
    cmd.AddValue("pcap", "Prefix of pcap files (receiver and switch ports); empty: none", pcap);
    cmd.AddValue("seed", "RNG run number", seed);
    cmd.ParseOrExit(argc, argv);

    if (senders < 1 || senders > 1000)
    {
        Fail("senders", "must be between 1 and 1000");
    }
    if (packets == 0)
    {
        Fail("packets", "must be positive");
    }
    if (payload < 1 || payload > 4096)
    {
        Fail("payload", "must be between 1 and 4096");
    }
    if (linkRate.GetBitRate() == 0)
    {
        Fail("linkRate", "must be positive");
    }
    if (sampleInterval <= Time(0))
    {
        Fail("sampleInterval", "must be positive");
    }
    if (!(pmax >= 0.0 && pmax <= 1.0))
    {
        Fail("pmax", "must be between 0 and 1 (the marking probability at Kmax)");
    }
    RngSeedManager::SetRun(seed);
    MakeOutDir(outDir);
    if (std::string problem = ProgramOptions::CheckPrefix(pcap); !problem.empty())
    {
        Fail("pcap", problem); // a prefix inside --outDir works: it exists now
    }

    RoceTopologyHelper topo;
    std::string problem = topo.SetMmuBufferAndEcn(bufferSize, kmin, kmax, pmax, pfc);
    if (!problem.empty())
    {
        Fail("bufferSize/kmin/kmax", problem);
    }
    if (!(alpha > 0))
    {
        Fail("alpha", "must be positive");
    }
    topo.SetMmuAttribute("Alpha", DoubleValue(alpha));
    RoceFabric fabric = topo.BuildStar(senders + 1, linkRate, linkDelay);
    // A bad combination is reported by name instead of aborting inside the simulation.
    problem = fabric.CheckSwitches();
    if (!problem.empty())
    {
        Fail("bufferSize/kmin/kmax/pmax", problem);
    }
    fabric.AssignStreams(1);
    uint32_t receiver = senders;

    Receiver rx;
    fabric.GetHostDevice(receiver)->TraceConnectWithoutContext("PhyRxEnd",
                                                               MakeCallback(&Receiver::Rx, &rx));
    std::vector<Ptr<RoceConstantRateSource>> apps =
        InstallSenders(fabric, senders, linkRate, payload, packets);

    FabricMonitor monitor;
    AttachOutputs(topo, fabric, monitor, outDir, sampleInterval, pcap);

    auto wallStart = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    monitor.Finish();
    if (!monitor.WriteCounters(outDir + "/counters.csv"))
    {
        Fail("outDir", monitor.GetLastError());
    }
    uint64_t events = Simulator::GetEventCount();

    uint64_t sent = 0;
    for (const auto& app : apps)
    {
        sent += app->GetSent();
    }
    double boundNs = LineRateBoundNs(linkRate, payload, linkDelay, sent);
    Ptr<RoceSwitch> sw = fabric.GetSwitch(0);
    uint64_t ecn = monitor.GetTotalEcnMarks();
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);

    nlohmann::ordered_json summary = {
        {"senders", senders},
        {"packets_sent", sent},
        {"packets_received", rx.frames},
        {"drops", sw->GetTotalDrops()},
        {"drops_lossy_limit", LossyDrops(sw)},
        {"pfc_pause_frames", monitor.GetTotalPauseFramesSent()},
        {"paused_time_us", monitor.GetTotalPausedTime().GetMicroSeconds()},
        {"ecn_marks", ecn},
        {"max_queue_bytes", monitor.GetMaxQueueBytes()},
        {"last_arrival_us", rx.last.GetNanoSeconds() / 1000.0},
        {"line_rate_bound_us", boundNs / 1000.0},
        {"events", events},
        {"wall_s", wall},
        {"peak_rss_mib", usage.ru_maxrss / 1024.0}};
    std::ofstream json(outDir + "/summary.json");
    json << summary.dump(2) << "\n";
    if (!json)
    {
        Fail("outDir", "cannot write " + outDir + "/summary.json");
    }

    std::cout << "Incast " << senders << ":1 at " << linkRate.GetBitRate() / 1e9 << " Gb/s, "
              << (pfc ? "PFC on (priority 3 lossless)" : "PFC off (lossy)") << std::endl
              << "  packets sent " << sent << ", received " << rx.frames << ", dropped "
              << sw->GetTotalDrops() << std::endl
              << "  PFC pause frames " << monitor.GetTotalPauseFramesSent() << ", paused time "
              << monitor.GetTotalPausedTime().GetMicroSeconds() << " us (sum over ports)"
              << std::endl
              << "  ECN marks " << ecn << ", largest queue " << monitor.GetMaxQueueBytes()
              << " bytes" << std::endl
              << "  last arrival " << rx.last.GetNanoSeconds() / 1000.0 << " us, line-rate bound "
              << boundNs / 1000.0 << " us" << std::endl
              << "  " << events << " events in " << wall << " s wall, peak RSS "
              << usage.ru_maxrss / 1024 << " MiB" << std::endl
              << "  outputs: " << outDir << "/{counters,queues,pauses}.csv, summary.json"
              << std::endl
              << WriteFigures(outDir) << std::endl;
    Simulator::Destroy();
    return 0;
}

/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric
 * Head-of-line blocking by PFC: a victim flow that shares only uncongested links with an
 * incast is slowed when PFC pauses those links for the incast's sake.
 *
 * Topology: a leaf-spine with one spine; hosts h0-h2 under leaf0, h3-h5 under leaf1; host links
 * --hostRate (100 Gb/s), leaf-spine links --fabricRate (400 Gb/s), every link --linkDelay.
 *
 *     h0 --\                      /-- h3  (incast receiver)
 *     h1 ---+- leaf0 == spine == leaf1 --- h4  (victim receiver)
 *     h2 --/      (400 Gb/s)      \-- h5
 *
 * h0 and h1 each write --incastBytes to h3 (200 Gb/s into h3's 100 Gb/s port: the only
 * congested port); h2 writes --victimBytes to h4 at the same time. The victim's path
 * (h2 -> leaf0 -> spine -> leaf1 -> h4) never carries more than the 400 Gb/s fabric links can
 * take, and h4's port is idle: alone, or with an ideal fabric, the victim runs at line rate.
 *
 * The program runs three configurations and compares the victim's FCT:
 *   - pfc: PFC without congestion control. leaf1 pauses the spine for the incast's priority,
 *     which also stops the victim's packets (head-of-line blocking): the victim takes about
 *     1.7 times its FCT alone (289 us against about 170 us with the defaults).
 *   - no-pfc: the incast overflows the shared buffer. The MMU charges lossy traffic to its
 *     ingress group too, and the victim enters leaf1 through the same port as the incast, so
 *     its packets are dropped as well and go-back-N stretches its FCT (a known simplification:
 *     real switches admit lossy traffic by egress queue).
 *   - pfc-dcqcn: PFC with DCQCN. The incast senders slow down on CNPs before the buffer
 *     reaches XOFF, no pause is sent, and the victim finishes near its FCT alone (181 us).
 *
 * Outputs: a table on stdout and --outDir/summary.json with, per configuration, the victim's
 * FCT, the last incast FCT, pause frames, drops and retransmissions (and, for pfc, pause_storms
 * and victim_flow_storms: the (victim flow, storm) pairs); for the pfc configuration
 * also the PFC forensics of PfcPauseTree: --outDir/pause-tree.csv (which port paused which,
 * when, caused by which congested egress), one pause-storm-N.dot per storm and
 * pause-victims.csv (the victim h2 -> h4 is flagged, the incast flows are not). With the
 * defaults the cascade is leaf1's port to h3 (root) -> spine0 -> leaf0 -> h0, h1, in 21 storms
 * (--ns3::PfcPauseTree::StormGap=1ms joins them into one).
 *
 * Run: ./ns3 run "llm-fabric-pfc-hol --outDir=hol-out"
 */

#include "ns3/core-module.h"
#include "ns3/fabric-monitor.h"
#include "ns3/figure-script.h"
#include "ns3/pfc-pause-tree.h"
#include "ns3/program-options.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/usage-error.h"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

using namespace ns3;

namespace
{

/// Stop with "program: --key: reason" and exit status 2.
void
Fail(const std::string& key, const std::string& reason)
{
    UsageError::Exit("llm-fabric-pfc-hol", key, reason);
}

/// What one configuration gave.
struct Result
{
    std::string name;    //!< configuration
    Time victim;         //!< victim FCT
    Time incast;         //!< last incast FCT
    uint64_t pauses{0};  //!< PFC pause frames sent
    uint64_t drops{0};   //!< frames dropped
    uint64_t resent{0};  //!< packets retransmitted
    uint32_t done{0};    //!< flows finished (of 3)
    uint32_t storms{0};  //!< pause storms (pfc only: PfcPauseTree)
    uint32_t victims{0}; //!< (flow, storm) pairs flagged as victims (pfc only)
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

/// Parameters of a run.
struct Setup
{
    DataRate hostRate;    //!< host links
    DataRate fabricRate;  //!< leaf-spine links
    Time delay;           //!< every link
    uint64_t incastBytes; //!< per incast sender
    uint64_t victimBytes; //!< victim message
    std::string buffer;   //!< switch buffer
    uint32_t mtu;         //!< RDMA MTU
};

/**
 * Run one configuration.
 * @param s the parameters.
 * @param name its name.
 * @param pfc priority 3 lossless.
 * @param cc congestion control TypeId name.
 * @param treeDir where to write the pause tree and victim files; empty for none.
 * @return what happened.
 */
Result
Run(const Setup& s,
    const std::string& name,
    bool pfc,
    const std::string& cc,
    const std::string& treeDir = "")
{
    Result r;
    r.name = name;
    RoceTopologyHelper topo;
    topo.SetMmuAttribute("Buffer", QueueSizeValue(QueueSize(s.buffer)));
    topo.SetMmuAttribute("LosslessPriorities", UintegerValue(pfc ? 0x08 : 0));
    RoceFabric fabric = topo.BuildLeafSpine(
        RoceTopologyHelper::MakeLeafSpine(3, 2, 1, s.hostRate, s.fabricRate, s.delay));
    fabric.AssignStreams(1);
    RdmaHelper rdma;
    rdma.SetEndpointAttribute("CongestionControl", TypeIdValue(TypeId::LookupByName(cc)));
    std::vector<Ptr<RdmaEndpoint>> ep = rdma.Install(fabric);
    Time incastEnd[2];
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (uint32_t i = 0; i < 2; ++i)
    {
        auto [qp, peer] = RdmaEndpoint::Connect(ep[i], ep[3], 0xC000 + i);
        qp->SetSendCompleteCallback(MakeBoundCallback(&FlowDone, &incastEnd[i], &r.done));
        qp->PostWrite(s.incastBytes);
        qps.push_back(qp);
    }
    auto [victim, victimPeer] = RdmaEndpoint::Connect(ep[2], ep[4], 0xC100);
    victim->SetSendCompleteCallback(MakeBoundCallback(&FlowDone, &r.victim, &r.done));
    victim->PostWrite(s.victimBytes);
    qps.push_back(victim);
    FabricMonitor monitor;
    for (uint32_t i = 0; i < fabric.GetNSwitches(); ++i)
    {
        monitor.AddSwitch(fabric.GetSwitch(i), fabric.GetSwitchName(i));
    }
    Ptr<PfcPauseTree> tree;
    if (!treeDir.empty())
    {
        tree = CreateObject<PfcPauseTree>();
        tree->Install(fabric);
    }
    Simulator::Run();
    monitor.Finish();
    if (tree)
    {
        tree->Finish();
        std::string failed = tree->WriteFiles(treeDir);
        bool drawn = false;
        if (failed.empty())
        {
            failed = FigureScript::WriteAndDraw(treeDir, {FigureScript::PauseTreeGantt()}, drawn);
        }
        if (!failed.empty())
        {
            Fail("outDir", "cannot write " + failed);
        }
        r.storms = tree->GetStormCount();
        for (const auto& v : tree->GetVictims())
        {
            r.victims += v.victim ? 1 : 0;
        }
    }
    r.incast = std::max(incastEnd[0], incastEnd[1]);
    r.pauses = monitor.GetTotalPauseFramesSent();
    r.drops = monitor.GetTotalDrops();
    for (const auto& qp : qps)
    {
        r.resent += qp->GetRetransmissions();
    }
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    Setup
        s{DataRate("100Gbps"), DataRate("400Gbps"), MicroSeconds(1), 4000000, 2000000, "2MB", 1000};
    std::string outDir = ".";
    ProgramOptions cmd(
        "llm-fabric-pfc-hol",
        "PFC head-of-line blocking: a victim flow paused by another flow's congestion.");
    cmd.AddValue("hostRate", "Host link rate", s.hostRate);
    cmd.AddValue("fabricRate", "Leaf-spine link rate", s.fabricRate);
    cmd.AddValue("linkDelay", "Delay of every link", s.delay);
    cmd.AddValue("incastBytes", "Bytes each of the two incast senders writes", s.incastBytes);
    cmd.AddValue("victimBytes", "Bytes the victim writes", s.victimBytes);
    cmd.AddValue("bufferSize", "Switch buffer", s.buffer);
    cmd.AddValue("mtu", "RDMA MTU (256-4096)", s.mtu);
    cmd.AddValue("outDir",
                 "Folder for summary.json and the pfc run's pause-tree.csv, pause-storm-N.dot "
                 "and pause-victims.csv",
                 outDir);
    cmd.ParseOrExit(argc, argv);
    if (s.hostRate.GetBitRate() == 0 || s.fabricRate.GetBitRate() == 0)
    {
        Fail("hostRate/fabricRate", "must be positive");
    }
    if (s.incastBytes == 0 || s.victimBytes == 0)
    {
        Fail("incastBytes/victimBytes", "must be positive");
    }
    if (s.mtu < 256 || s.mtu > 4096)
    {
        Fail("mtu", "must be between 256 and 4096");
    }
    QueueSizeValue size;
    if (!size.DeserializeFromString(s.buffer, MakeQueueSizeChecker()))
    {
        Fail("bufferSize", "'" + s.buffer + "' is not a size such as 2MB");
    }
    std::error_code error;
    std::filesystem::create_directories(outDir, error);
    if (error)
    {
        Fail("outDir", "cannot create " + outDir + ": " + error.message());
    }
    Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(s.mtu));

    std::vector<Result> results = {Run(s, "pfc", true, "ns3::RdmaCcNone", outDir),
                                   Run(s, "no-pfc", false, "ns3::RdmaCcNone"),
                                   Run(s, "pfc-dcqcn", true, "ns3::Dcqcn")};
    std::cout << "Victim " << s.victimBytes << " bytes h2 -> h4 beside a 2:1 incast of "
              << s.incastBytes << " bytes per sender into h3" << std::endl
              << "  configuration   victim FCT (us)   incast FCT (us)   pauses   drops   resent"
              << std::endl;
    nlohmann::ordered_json summary;
    for (size_t i = 0; i < results.size(); ++i)
    {
        const Result& r = results[i];
        std::cout << "  " << std::left << std::setw(14) << r.name << std::right << std::setw(17)
                  << r.victim.GetNanoSeconds() / 1000.0 << std::setw(18)
                  << r.incast.GetNanoSeconds() / 1000.0 << std::setw(9) << r.pauses << std::setw(8)
                  << r.drops << std::setw(9) << r.resent << std::endl;
        summary[r.name] = {{"victim_fct_us", r.victim.GetNanoSeconds() / 1000.0},
                           {"incast_fct_us", r.incast.GetNanoSeconds() / 1000.0},
                           {"flows_done", r.done},
                           {"pfc_pause_frames", r.pauses},
                           {"drops", r.drops},
                           {"retransmitted_packets", r.resent}};
        if (r.name == "pfc")
        {
            summary[r.name]["pause_storms"] = r.storms;
            summary[r.name]["victim_flow_storms"] = r.victims;
        }
    }
    std::ofstream json(outDir + "/summary.json");
    json << summary.dump(2) << "\n";
    if (!json)
    {
        Fail("outDir", "cannot write " + outDir + "/summary.json");
    }
    std::cout << "  pfc: " << results[0].storms << " pause storms, a victim flow in "
              << results[0].victims << " of them" << std::endl
              << "  outputs: " << outDir << "/summary.json, " << outDir << "/pause-tree.csv, "
              << outDir << "/pause-storm-N.dot, " << outDir << "/pause-victims.csv" << std::endl;
    return 0;
}

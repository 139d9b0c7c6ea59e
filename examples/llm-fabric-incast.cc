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
 * (ns3::Dcqcn with the parameters of --dcqcnProfile=mlx5|sigcomm2015|simai, each overridable
 * by attribute, e.g. --ns3::Dcqcn::G=0.00390625), hpcc (ns3::Hpcc), dctcp (ns3::Dctcp), timely
 * (ns3::Timely) or swift (ns3::Swift). The default DCQCN profile is mlx5, the NIC's own
 * defaults, made for the 100 Gb/s links this program uses by default; sigcomm2015 (the paper's,
 * tuned for 40 Gb/s) and simai (the HPCC-lineage simulators' settings, with a window of
 * ns3::Dcqcn::BaseRtt, 8 us by default) are there for comparison. hpcc runs HPCC on the
 * switches' in-band telemetry (added to the switch for it); its BaseRtt is set to the star's
 * round trip without queues (Hpcc::PathBaseRtt of two links of --linkRate and --linkDelay at
 * --mtu; 4.21 us by default) unless --ns3::Hpcc::BaseRtt is given. A congestion control that
 * states the switch marking it is designed for sets --kmin, --kmax and --pmax unless they are
 * given: dctcp marks as a step at K = 30 KB x link rate / 10 Gb/s (Kmin = Kmax = K, Pmax 1;
 * 300 KB at 100 Gb/s); the others keep 5KB, 200KB and 0.01 (--kmin and --kmax given alone are
 * bytes on every port). --pfc=1 makes priority 3 lossless; --pfc=0 leaves drops to go-back-N and
 * the retransmission timer.
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
 * target_delay_us and delay_us for Swift). Figures (FigureScript): fct-slowdown.plt and, with
 * --timeSeries, queue.plt, pauses.plt and cc.plt; with gnuplot installed, their PNGs.
 *
 * Run: ./ns3 run "llm-fabric-incast --senders=8 --bytes=1000000 --cc=dcqcn --outDir=out"
 */

#include "ns3/attribute-defaults.h"
#include "ns3/core-module.h"
#include "ns3/dcqcn.h"
#include "ns3/fabric-monitor.h"
#include "ns3/fabric-options.h"
#include "ns3/flow-statistics.h"
#include "ns3/hpcc.h"
#include "ns3/program-options.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-topology-helper.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <iostream>

using namespace ns3;

namespace
{

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
    uint32_t senders = 8;                      //!< senders
    uint64_t bytes = 1000000;                  //!< message size per sender
    DataRate linkRate{"100Gbps"};              //!< rate of every link
    Time linkDelay = MicroSeconds(1);          //!< delay of every link
    FabricOptions fabric{"llm-fabric-incast"}; //!< MTU, cc, switch buffer, outputs
    bool timeSeries = false;                   //!< write queue.csv, pauses.csv, cc.csv
    Time sampleInterval = MicroSeconds(1);     //!< queue sampling interval
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

    ProgramOptions cmd("llm-fabric-incast",
                       "N senders write to one receiver over RDMA through one switch.");
    cmd.AddValue("dcqcnProfile", "DCQCN parameters: mlx5, sigcomm2015 or simai", dcqcnProfile);
    cmd.AddValue("senders", "Number of senders", o.senders);
    cmd.AddValue("bytes", "Message size per sender", o.bytes);
    cmd.AddValue("linkRate", "Rate of every link", o.linkRate);
    cmd.AddValue("linkDelay", "Delay of every link", o.linkDelay);
    o.fabric.AddTo(cmd, "linkRate / senders");
    cmd.AddValue("recovery", "ns3::RdmaQueuePair::Recovery"); // GoBackN or SelectiveRepeat
    cmd.AddValue("timeSeries", "1: write queue.csv, pauses.csv and cc.csv", o.timeSeries);
    cmd.AddValue("sampleInterval", "Queue sampling interval of queue.csv", o.sampleInterval);
    cmd.ParseOrExit(argc, argv);

    if (!profileProblem.empty())
    {
        o.fabric.Fail("dcqcnProfile", profileProblem);
    }
    if (o.senders < 1 || o.senders > 1000)
    {
        o.fabric.Fail("senders", "must be between 1 and 1000");
    }
    if (o.bytes == 0)
    {
        o.fabric.Fail("bytes", "must be positive");
    }
    if (o.linkRate.GetBitRate() == 0)
    {
        o.fabric.Fail("linkRate", "must be positive");
    }
    if (o.timeSeries && !o.sampleInterval.IsStrictlyPositive())
    {
        o.fabric.Fail("sampleInterval", "must be positive");
    }
    // --cc=fixed defaults to the fair share of the receiver's link.
    o.fabric.Apply(DataRate(o.linkRate.GetBitRate() / o.senders));
    // HPCC's base RTT is this star's (sender - switch - receiver), unless given.
    AttributeDefaults given;
    given.RecordCommandLine(argc, argv);
    given.Offer("ns3::Hpcc::BaseRtt",
                TimeValue(Hpcc::PathBaseRtt({o.linkRate, o.linkRate},
                                            {o.linkDelay, o.linkDelay},
                                            o.fabric.GetMtu())));
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
    const std::string& outDir = o.fabric.GetOutDir();
    if (o.timeSeries)
    {
        if (!monitor.EnableQueueSampling(outDir + "/queue.csv", o.sampleInterval) ||
            !monitor.EnablePauseIntervals(outDir + "/pauses.csv"))
        {
            o.fabric.Fail("outDir", "cannot write " + outDir + "/queue.csv or pauses.csv");
        }
        ccCsv.open(outDir + "/cc.csv");
        if (!ccCsv)
        {
            o.fabric.Fail("outDir", "cannot write " + outDir + "/cc.csv");
        }
        ccCsv << "time_us,flow,variable,value\n";
        for (uint32_t s = 0; s < o.senders; ++s)
        {
            RdmaHelper::ConnectCongestionControlTraces(qps[s],
                                                       s,
                                                       MakeBoundCallback(&CcChanged, &ccCsv));
        }
    }
    const std::string& pcap = o.fabric.GetPcap();
    if (!pcap.empty())
    {
        RoceLinkHelper& links = topo.GetLinkHelper();
        links.EnablePcap(pcap, fabric.GetHostDevice(o.senders));
        for (uint32_t p = 0; p < fabric.GetSwitch(0)->GetNPorts(); ++p)
        {
            links.EnablePcap(pcap, fabric.GetSwitch(0)->GetPort(p));
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
    const std::string& outDir = o.fabric.GetOutDir();

    RoceTopologyHelper topo;
    o.fabric.ConfigureSwitches(topo);
    RoceFabric fabric = topo.BuildStar(senders + 1, linkRate, o.linkDelay);
    o.fabric.CheckSwitches(fabric);
    fabric.AssignStreams(1);
    uint32_t receiver = senders;

    std::vector<Ptr<RdmaEndpoint>> endpoints = o.fabric.InstallEndpoints(fabric);
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

    Ptr<PfcPauseTree> pauseTree = o.fabric.InstallPauseTree(fabric);
    FlowStatistics::FlowRunSummary summary = FlowStatistics::Run(fabric, endpoints, monitor);
    o.fabric.WritePauseTree(pauseTree);

    double ideal =
        FlowStatistics::IdealFctNs(bytes, o.fabric.GetMtu(), {linkRate, linkRate}, o.linkDelay);
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
        summary.fctUs.push_back(f / 1000.0);
        summary.slowdown.push_back(f / ideal);
        last = std::max(last, flows.end[s]);
        csv << s << "," << s << "," << bytes << ",0," << f / 1000.0 << "," << f / 1000.0 << ","
            << ideal / 1000.0 << "," << f / ideal << "\n";
    }
    if (!csv)
    {
        o.fabric.Fail("outDir", "cannot write " + outDir + "/fct.csv");
    }
    summary.flows = senders;
    summary.flowsDone = flows.done;
    summary.lastFlowEnd = last;
    o.fabric.WriteSummary(summary);
    csv.close();
    ccCsv.close();
    std::vector<FigureScript::Figure> figures{{FigureScript::FCT_SLOWDOWN,
                                               "fct.csv",
                                               "fct-slowdown",
                                               "Incast: FCT slowdown by size",
                                               "column(3)",
                                               "column(8)"}};
    if (o.timeSeries)
    {
        figures.push_back({FigureScript::QUEUE_DEPTH, "queue.csv", "queue", "Queue depth"});
        figures.push_back({FigureScript::PAUSE_GANTT, "pauses.csv", "pauses", "PFC pauses"});
        figures.push_back({FigureScript::CC_RATE, "cc.csv", "cc", "Congestion control"});
    }
    std::string figuresLine = o.fabric.WriteFigures(figures);
    std::cout << "Incast " << senders << ":1, " << bytes << " bytes each, "
              << linkRate.GetBitRate() / 1e9 << " Gb/s, cc " << o.fabric.GetCongestionControl()
              << ", PFC " << (o.fabric.GetPfc() ? "on" : "off") << std::endl
              << "  flows done " << flows.done << "/" << senders << ", last at "
              << last.GetNanoSeconds() / 1000.0 << " us (alone: " << ideal / 1000.0 << " us each)"
              << std::endl
              << FlowStatistics::CountersText(summary) << "  outputs: " << outDir
              << "/summary.json, " << outDir << "/fct.csv" << std::endl
              << figuresLine << std::endl;
    Simulator::Destroy();
    return flows.done == senders ? 0 : 1;
}

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
 * Printed: how the library was compiled ("library profile-guided" or "library without-profile":
 * the standalone Release build with g++ is profile-guided unless -DLLM_FABRIC_PGO=OFF), simulated
 * time, events, link frames (every frame put on any link: data and PFC),
 * events per link frame, link frames per wall-second, events per wall-second, peak RSS; then a
 * machine-independent figure: after the run, in the same process, ns-3's bare scheduler (the
 * same SchedulerType, on ns-3's DefaultSimulatorImpl whatever the run's simulator) executes as many
 * no-op events as the run executed (at least 1,000,000), each scheduling one more at a
 * pseudo-random delay so that as many stay pending as the run had pending on average over its
 * events (bare_scheduler_pending); printed are bare_scheduler_events_per_s and
 * link_frames_per_bare_event = link frames per wall-second / bare events per second: how many link
 * frames the model simulates in the time the scheduler alone needs for one event. The average (not
 * the peak) is used because a scheduler's cost per operation follows the queue size at each
 * operation, and the average over the events is the size the run's operations met.
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

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/**
 * A scheduler that hands every operation to the scheduler SchedulerType names and counts the
 * events pending, so the benchmark knows how many were pending on average at each event
 * executed (the queue size the run's scheduler operations met).
 */
class PendingCountingScheduler : public Scheduler
{
  public:
    /// @return the object TypeId.
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::llmfabric::PendingCountingScheduler")
                                .SetParent<Scheduler>()
                                .SetGroupName("LlmFabric")
                                .AddConstructor<PendingCountingScheduler>();
        return tid;
    }

    PendingCountingScheduler()
    {
        StringValue type;
        GlobalValue::GetValueByName("SchedulerType", type);
        ObjectFactory factory(type.Get());
        m_inner = factory.Create<Scheduler>();
    }

    void Insert(const Event& ev) override
    {
        ++m_pending;
        m_inner->Insert(ev);
    }

    bool IsEmpty() const override
    {
        return m_inner->IsEmpty();
    }

    Event PeekNext() const override
    {
        return m_inner->PeekNext();
    }

    Event RemoveNext() override
    {
        m_pendingSum += m_pending;
        ++m_removed;
        --m_pending;
        return m_inner->RemoveNext();
    }

    void Remove(const Event& ev) override
    {
        --m_pending;
        m_inner->Remove(ev);
    }

    /// @return the events pending, averaged over the events taken out to run (0 if none).
    static double GetAveragePending()
    {
        return m_removed == 0 ? 0.0 : static_cast<double>(m_pendingSum) / m_removed;
    }

  private:
    Ptr<Scheduler> m_inner; //!< the scheduler that does the work
    uint64_t m_pending{0};  //!< events in it now
    /// Sum over the events taken out of the events pending just before (all instances).
    static uint64_t m_pendingSum;
    static uint64_t m_removed; //!< events taken out (all instances)
};

uint64_t PendingCountingScheduler::m_pendingSum = 0;
uint64_t PendingCountingScheduler::m_removed = 0;

/// No-op events still to schedule in the bare-scheduler run.
uint64_t g_bareToSchedule = 0;
/// State of the bare run's delay generator (xorshift64).
uint64_t g_bareRandom = 88172645463325252ULL;
/// Mean delay of a bare-run event, nanoseconds.
uint64_t g_bareMeanDelayNs = 1;

/// A no-op event of the bare run: schedules its successor while any remain to schedule.
void
BareEvent()
{
    if (g_bareToSchedule == 0)
    {
        return;
    }
    --g_bareToSchedule;
    g_bareRandom ^= g_bareRandom << 13;
    g_bareRandom ^= g_bareRandom >> 7;
    g_bareRandom ^= g_bareRandom << 17;
    // Uniform in [0, 2 x mean): the pending count stays where it started.
    Simulator::Schedule(NanoSeconds(g_bareRandom % (2 * g_bareMeanDelayNs)), &BareEvent);
}

/**
 * Time ns-3's bare scheduler: `pending` no-op events pending at first, each replaced by a new
 * one when it runs, until `events` have run.
 * @param pending events to keep pending (at least 1).
 * @param events events to run.
 * @return events run per wall-second.
 */
double
TimeBareScheduler(uint64_t pending, uint64_t events)
{
    pending = std::max<uint64_t>(1, pending);
    events = std::max(events, pending);
    // Delays of about 1000 ns per pending event: the events spread as the pending count asks.
    g_bareMeanDelayNs = 1000;
    g_bareToSchedule = events - pending;
    for (uint64_t i = 0; i < pending; ++i)
    {
        Simulator::Schedule(NanoSeconds(i * 2 * g_bareMeanDelayNs / pending), &BareEvent);
    }
    auto start = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    uint64_t ran = Simulator::GetEventCount();
    Simulator::Destroy();
    return ran / wall;
}

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

/// How the library was compiled, as far as speed goes (CMakeLists.txt, LLM_FABRIC_PGO).
#ifdef LLM_FABRIC_PGO
constexpr const char* LIBRARY_BUILD = "profile-guided";
#else
constexpr const char* LIBRARY_BUILD = "without-profile";
#endif

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
              << "library " << LIBRARY_BUILD << std::endl
              << "simulated_us " << simulated.GetNanoSeconds() / 1000.0 << std::endl
              << "events " << events << std::endl
              << "link_frames " << frames << std::endl
              << "events_per_link_frame " << static_cast<double>(events) / frames << std::endl
              << "wall_s " << wall << std::endl
              << "link_frames_per_wall_s " << frames / wall << std::endl
              << "events_per_wall_s " << events / wall << std::endl
              << "peak_rss_mib " << usage.ru_maxrss / 1024.0 << std::endl;
    Simulator::Destroy();
    // The bare scheduler, sized as the run: its average pending count and its event count
    // (at least a million, so that the timing is not lost in the clock's resolution).
    auto pending =
        static_cast<uint64_t>(std::llround(PendingCountingScheduler::GetAveragePending()));
    uint64_t bareEvents = std::max<uint64_t>(events, 1000000);
    // On ns-3's own simulator (DefaultSimulatorImpl), whichever the run used, so that the
    // yardstick stays ns-3's.
    GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    double bare = TimeBareScheduler(pending, bareEvents);
    std::cout << "bare_scheduler_pending " << pending << std::endl
              << "bare_scheduler_events " << bareEvents << std::endl
              << "bare_scheduler_events_per_s " << bare << std::endl
              << "link_frames_per_bare_event " << (frames / wall) / bare << std::endl;
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
    ObjectFactory counting;
    counting.SetTypeId(PendingCountingScheduler::GetTypeId());
    Simulator::SetScheduler(counting);

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
        fabric = topo.BuildLeafSpine(RoceTopologyHelper::MakeLeafSpine(8,
                                                                       4,
                                                                       4,
                                                                       DataRate("100Gbps"),
                                                                       DataRate("50Gbps"),
                                                                       MicroSeconds(1)));
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
    return 0;
}
